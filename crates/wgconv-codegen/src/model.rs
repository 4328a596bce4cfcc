//! The small model the emitters work from: what a shader declares, with host layout already resolved.

/// Host scalar types a WGSL scalar maps to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScalarType {
    /// `u32`
    U32,
    /// `i32`
    I32,
    /// `f32`
    F32,
    /// `f16` (`half::f16` on the host)
    F16,
    /// `bool` (only valid for override constants)
    Bool,
}

impl ScalarType {
    /// Size in bytes on the host and in WGSL.
    pub fn size(self) -> u32 {
        match self {
            ScalarType::F16 => 2,
            ScalarType::Bool => 1,
            _ => 4,
        }
    }

    /// The WGSL spelling.
    pub fn wgsl_name(self) -> &'static str {
        match self {
            ScalarType::U32 => "u32",
            ScalarType::I32 => "i32",
            ScalarType::F32 => "f32",
            ScalarType::F16 => "f16",
            ScalarType::Bool => "bool",
        }
    }
}

/// The host (Rust) type of one struct member or array element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostType {
    /// A scalar.
    Scalar(ScalarType),
    /// `[T; N]`: vectors, matrix columns, fixed arrays.
    Array(Box<HostType>, u32),
    /// Another generated struct.
    Struct(String),
}

impl HostType {
    /// Byte size of the host type (the padding fields make up the rest of WGSL's size).
    pub fn size(&self, structs: &[StructDef]) -> u32 {
        match self {
            HostType::Scalar(s) => s.size(),
            HostType::Array(elem, n) => elem.size(structs) * n,
            HostType::Struct(name) => structs.iter().find(|s| &s.name == name).map_or(0, |s| s.size),
        }
    }
}

/// One member of a generated struct.
#[derive(Clone, Debug, PartialEq)]
pub struct MemberDef {
    /// Field name (the WGSL name).
    pub name: String,
    /// WGSL type as text, for messages and docs.
    pub wgsl_type: String,
    /// Host type.
    pub host: HostType,
    /// Byte offset in WGSL.
    pub offset: u32,
    /// Byte size in WGSL (without trailing alignment of the next member).
    pub size: u32,
}

/// A runtime-sized array that ends a storage struct.
#[derive(Clone, Debug, PartialEq)]
pub struct TailArray {
    /// WGSL member name.
    pub name: String,
    /// Element host type.
    pub element: HostType,
    /// WGSL element type as text.
    pub wgsl_type: String,
    /// Array stride in bytes.
    pub stride: u32,
}

/// A WGSL struct reachable from a buffer binding.
#[derive(Clone, Debug, PartialEq)]
pub struct StructDef {
    /// WGSL name, reused as the Rust name.
    pub name: String,
    /// WGSL size (for a struct ending in a runtime array: the offset of that array).
    pub size: u32,
    /// WGSL alignment.
    pub align: u32,
    /// Sized members in offset order.
    pub members: Vec<MemberDef>,
    /// Runtime-sized last member, if any.
    pub tail: Option<TailArray>,
}

/// A pipeline-overridable constant.
#[derive(Clone, Debug)]
pub struct OverrideDef {
    /// WGSL name.
    pub name: String,
    /// `@id(n)`, if given: the key wgpu expects instead of the name.
    pub id: Option<u16>,
    /// Type.
    pub ty: ScalarType,
    /// Default, already translated to a Rust expression over `o: &Overrides`.
    pub default: Option<proc_macro2::TokenStream>,
    /// The default refers to other overrides, so it is left to the shader unless set.
    pub default_depends_on_overrides: bool,
}

impl OverrideDef {
    /// The key used in `PipelineCompilationOptions::constants`.
    pub fn key(&self) -> String {
        self.id.map_or_else(|| self.name.clone(), |id| id.to_string())
    }
}

/// How a resource is bound: a buffer, a texture or a sampler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferKind {
    /// `var<uniform>`
    Uniform,
    /// `var<storage, read>`
    StorageReadOnly,
    /// `var<storage, read_write>`
    StorageReadWrite,
    /// A sampled or depth texture; the names are the wgpu variants
    /// (`TextureSampleType::Float { filterable: true }`, `TextureViewDimension::D2`).
    Texture {
        /// `wgpu::TextureSampleType` as Rust (`Float { filterable: true }`, `Depth`, `Sint`, `Uint`).
        sample_type: &'static str,
        /// `wgpu::TextureViewDimension` variant.
        view_dimension: &'static str,
        /// `texture_multisampled_2d` / `texture_depth_multisampled_2d`.
        multisampled: bool,
    },
    /// A storage texture.
    StorageTexture {
        /// `wgpu::StorageTextureAccess` variant.
        access: &'static str,
        /// The storage format (its `wgpu::TextureFormat` is named where the code is emitted).
        format: naga::StorageFormat,
        /// `wgpu::TextureViewDimension` variant.
        view_dimension: &'static str,
    },
    /// A sampler; `wgpu::SamplerBindingType` variant (`Filtering` or `Comparison`).
    Sampler(&'static str),
}

impl BufferKind {
    /// Whether it is a buffer (uniform or storage).
    pub fn is_buffer(self) -> bool {
        matches!(self, BufferKind::Uniform | BufferKind::StorageReadOnly | BufferKind::StorageReadWrite)
    }
}

/// One `@group(g) @binding(b)` resource.
#[derive(Clone, Debug, PartialEq)]
pub struct BindingDef {
    /// WGSL variable name.
    pub name: String,
    /// `@group`
    pub group: u32,
    /// `@binding`
    pub binding: u32,
    /// Buffer kind.
    pub kind: BufferKind,
    /// WGSL type as text.
    pub wgsl_type: String,
    /// Smallest valid binding size in bytes: naga's size of the type (a runtime array counts one
    /// element, a struct is rounded up to its alignment), and for storage buffers rounded up to
    /// whole 4-byte words, which is what wgpu binds.
    pub min_size: u64,
    /// Shader stages using it, as wgpu `ShaderStages` constant names (e.g. "COMPUTE").
    pub stages: Vec<&'static str>,
}

/// How one workgroup-size dimension is given.
#[derive(Clone, Debug)]
pub enum WorkgroupDim {
    /// A literal.
    Fixed(u32),
    /// An override expression, translated to Rust over `o: &Overrides`.
    Expr(proc_macro2::TokenStream),
}

/// One `var<workgroup>` an entry point uses.
#[derive(Clone, Debug)]
pub struct WorkgroupVarDef {
    /// WGSL variable name.
    pub name: String,
    /// WGSL type as text, for docs.
    pub wgsl_type: String,
    /// Its size in bytes.
    pub size: WorkgroupVarSize,
}

/// The size of a workgroup variable.
#[derive(Clone, Debug)]
pub enum WorkgroupVarSize {
    /// Known from the type (naga's `Layouter`).
    Fixed(u32),
    /// An override-sized array: `stride` bytes times a length that is a Rust expression over
    /// `o: &Overrides`.
    PerElement {
        /// Array stride in bytes.
        stride: u32,
        /// Element count, translated to Rust over `o: &Overrides`.
        count: proc_macro2::TokenStream,
    },
}

/// A shader entry point.
#[derive(Clone, Debug)]
pub struct EntryPointDef {
    /// Function name.
    pub name: String,
    /// "compute", "vertex", …
    pub stage: &'static str,
    /// Workgroup size (compute only).
    pub workgroup_size: [WorkgroupDim; 3],
    /// The `var<workgroup>` globals it uses (directly or through the functions it calls), in
    /// declaration order.
    pub workgroup_vars: Vec<WorkgroupVarDef>,
}

/// A module-scope `const` of scalar type, as naga evaluated it.
#[derive(Clone, Debug)]
pub struct ConstDef {
    /// WGSL name.
    pub name: String,
    /// Type.
    pub ty: ScalarType,
    /// The value as a Rust expression.
    pub value: proc_macro2::TokenStream,
}

/// Everything the emitters need from one shader.
#[derive(Clone, Debug)]
pub struct ShaderDef {
    /// Path for messages and the header.
    pub path: String,
    /// The WGSL text.
    pub source: String,
    /// Structs in dependency order (nested before use).
    pub structs: Vec<StructDef>,
    /// Overrides in declaration order.
    pub overrides: Vec<OverrideDef>,
    /// Buffer bindings sorted by (group, binding).
    pub bindings: Vec<BindingDef>,
    /// Entry points in declaration order.
    pub entry_points: Vec<EntryPointDef>,
    /// Scalar module-scope constants in declaration order.
    pub consts: Vec<ConstDef>,
    /// The `wgpu::Features` the shader needs, as wgpu names them (`SHADER_F16`, `SUBGROUP` …).
    pub required_features: Vec<String>,
}
