//! WGSL → Rust: typed, layout-checked wgpu bindings generated from compute shaders.
//!
//! The core, [`generate`], is a pure function from WGSL text and its path to Rust source. It parses
//! and validates the shader with naga (every validation flag, so uniform layout rules are enforced),
//! then emits one module holding:
//! - `SOURCE` and `PATH`;
//! - every struct reachable from a buffer binding, `#[repr(C)]` + `bytemuck::Pod`, with explicit
//!   padding fields and a const block asserting its size and every field offset (a mismatch with the
//!   WGSL fails `cargo build`);
//! - `Overrides` with one typed field per `override` and `constants()` for wgpu;
//! - module-scope `const`s of scalar type as `pub const`s, with the values naga evaluated;
//! - entry point names (each, and all in `ENTRY_POINTS`), workgroup sizes and the bytes of
//!   workgroup memory each declares (functions of `Overrides` where overrides size them), and an
//!   `Entry` enum picking a compute entry point by value;
//! - `BindGroupN` structs with one named field per binding, their layout entries
//!   (`min_binding_size` from the WGSL types), the pipeline layout and compute pipeline constructors.
//!
//! ```
//! let wgsl = "
//!     struct Params { scale: vec3<f32>, bias: f32 }
//!     @group(0) @binding(0) var<uniform> params: Params;
//!     @group(0) @binding(1) var<storage, read_write> data: array<f32>;
//!     override wg_size: u32 = 64;
//!     @compute @workgroup_size(wg_size)
//!     fn main(@builtin(global_invocation_id) id: vec3<u32>) {
//!         data[id.x] = data[id.x] * params.scale.x + params.bias;
//!     }";
//! let rust = wgconv_codegen::generate(wgsl, "shaders/example.wgsl").unwrap();
//! assert!(rust.contains("pub struct Params"));
//! assert!(rust.contains("pub fn main_workgroup_size(o: &Overrides) -> [u32; 3]"));
//! ```

// The generator runs at build time and returns each error once: its size (a location, and the
// names of the construct at fault) is not worth boxing for.
#![allow(clippy::result_large_err)]

mod emit;
mod error;
pub mod fs;
mod host_expr;
mod layout;
pub mod model;
mod names;
mod reflect;
mod spec_layout;

pub use error::{CodegenError, Location};
pub use reflect::{parse_and_validate, reflect};

use proc_macro2::TokenStream;

/// What the generator emits beyond the module every shader gets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// See [`Options::with_shader_trait`].
    shader_trait: Option<String>,
}

impl Options {
    /// Options whose modules implement the trait at `path` on a unit type `pub struct Shader;`,
    /// so that a runtime can record any generated shader through one generic function (e.g.
    /// `crate::pipelines::GeneratedShader`). By default no `Shader` is emitted: the module then
    /// refers to nothing its user has not got. The trait must declare exactly:
    ///
    /// ```text
    /// const PATH: &'static str;                 // the module's PATH
    /// const SOURCE: &'static str;               // and SOURCE
    /// const BINDINGS: &'static [&'static str];  // @group(0) binding names, in binding order
    /// // (field, WGSL type, offset) of the struct bound as the one var<uniform>; empty if none
    /// const UNIFORM_LAYOUT: &'static [(&'static str, &'static str, u32)];
    /// const U32_OVERRIDES: &'static [&'static str]; // the u32 overrides `set_u32` sets
    /// type Overrides;                           // the module's Overrides
    /// type Entry;                               // the module's Entry
    /// type BindGroup<'a>;                       // BindGroup0<'a>
    /// // Sets the u32 override `name`; false when the shader has none of that name.
    /// fn set_u32(overrides: &mut Self::Overrides, name: &str, value: u32) -> bool;
    /// fn entry_name(entry: Self::Entry) -> &'static str;
    /// fn constants(overrides: &Self::Overrides) -> Vec<(&'static str, f64)>;
    /// fn workgroup_memory_bytes(entry: Self::Entry, overrides: &Self::Overrides) -> u32;
    /// // The @group(0) layout and the pipeline layout.
    /// fn create_layouts(device: &wgpu::Device) -> (wgpu::BindGroupLayout, wgpu::PipelineLayout);
    /// fn create_pipeline(device: &wgpu::Device, module: &wgpu::ShaderModule,
    ///     layout: &wgpu::PipelineLayout, entry: Self::Entry, overrides: &Self::Overrides)
    ///     -> wgpu::ComputePipeline;
    /// fn create_bind_group(device: &wgpu::Device, layout: &wgpu::BindGroupLayout,
    ///     group: &Self::BindGroup<'_>) -> wgpu::BindGroup;
    /// // The bind group from each binding by name (for shaders sharing binding names).
    /// fn bind_group_with<'a>(binding: impl FnMut(&'static str) -> wgpu::BufferBinding<'a>)
    ///     -> Self::BindGroup<'a>;
    /// ```
    ///
    /// A shader can implement it only with compute entry points and every binding in
    /// `@group(0)`; others are an error.
    pub fn with_shader_trait(mut self, path: impl Into<String>) -> Self {
        self.shader_trait = Some(path.into());
        self
    }
}

/// The generated module as tokens (no header); what `include_wgsl_bindings!` expands to.
pub fn generate_tokens(source: &str, path: &str) -> Result<TokenStream, CodegenError> {
    generate_tokens_with(source, path, &Options::default())
}

/// [`generate_tokens`] with [`Options`].
pub fn generate_tokens_with(source: &str, path: &str, options: &Options) -> Result<TokenStream, CodegenError> {
    let def = reflect(source, path)?;
    let shader_trait = match &options.shader_trait {
        Some(text) => Some(syn::parse_str::<syn::Path>(text).map_err(|e| CodegenError::Unsupported {
            path: path.to_string(),
            at: None,
            construct: format!("shader trait `{text}`"),
            reason: format!("not a Rust path: {e}"),
        })?),
        None => None,
    };
    check_names(&def, shader_trait.is_some())?;
    Ok(emit::module_tokens(&def, shader_trait.as_ref()))
}

/// The names one Rust namespace of the generated module has given out, with what took each.
struct Namespace<'a> {
    path: &'a str,
    what: &'static str,
    taken: Vec<(String, String)>,
}

impl<'a> Namespace<'a> {
    fn new(path: &'a str, what: &'static str) -> Self {
        Self { path, what, taken: Vec::new() }
    }

    /// Gives `name` to `owner`, or fails naming both claimants.
    fn claim(&mut self, name: String, owner: String) -> Result<(), CodegenError> {
        if let Some((_, first)) = self.taken.iter().find(|(n, _)| *n == name) {
            return Err(CodegenError::NameCollision {
                path: self.path.to_string(),
                name,
                namespace: self.what,
                first: first.clone(),
                second: owner,
            });
        }
        self.taken.push((name, owner));
        Ok(())
    }
}

/// Rejects shaders whose generated items would collide (naming both items), and, when a trait
/// is implemented, shaders the trait cannot describe.
fn check_names(def: &model::ShaderDef, shader_trait: bool) -> Result<(), CodegenError> {
    let unsupported = |construct: String, reason: String| CodegenError::Unsupported {
        path: def.path.clone(),
        at: None,
        construct,
        reason,
    };
    let generated = |item: &str| format!("the generated {item}");
    let has_compute = def.entry_points.iter().any(|e| e.stage == "compute");

    // A struct must not shadow a primitive type the generated code names (`[u8; 4]`, `&str`).
    if let Some(s) = def.structs.iter().find(|s| names::PRIMITIVE_TYPES.contains(&names::type_name(&s.name).as_str())) {
        return Err(unsupported(
            format!("struct `{}`", s.name),
            format!("it would shadow Rust's primitive type `{}` in the generated code; rename it", s.name),
        ));
    }

    // Module-level types: the generator's, then the WGSL structs and their tail arrays' aliases.
    let mut types = Namespace::new(&def.path, "type");
    types.claim("Overrides".into(), generated("struct `Overrides`"))?;
    types.claim("BindGroupLayouts".into(), generated("struct `BindGroupLayouts`"))?;
    for group in emit::bindings::groups(def).keys() {
        types.claim(format!("BindGroup{group}"), generated(&format!("struct `BindGroup{group}`")))?;
    }
    types.claim("MissingFeatures".into(), generated("struct `MissingFeatures`"))?;
    if has_compute {
        types.claim("Entry".into(), generated("enum `Entry`"))?;
    }
    if shader_trait {
        types.claim("Shader".into(), generated("type `Shader`"))?;
    }
    for s in &def.structs {
        types.claim(names::type_name(&s.name), format!("WGSL struct `{}`", s.name))?;
    }
    for s in &def.structs {
        if let Some(tail) = &s.tail {
            let alias = emit::structs::tail_alias_name(&s.name, &tail.name);
            types.claim(alias, format!("the generated alias of the elements of `{}.{}`", s.name, tail.name))?;
        }
    }

    // Each struct's fields: its members and the padding the generator adds between them.
    for s in &def.structs {
        let mut fields = Namespace::new(&def.path, "struct field");
        for field in emit::structs::fields(s, &def.structs) {
            match field {
                emit::structs::Field::Member(m) => fields
                    .claim(names::field_name(&m.name), format!("member `{}` of WGSL struct `{}`", m.name, s.name))?,
                emit::structs::Field::Padding { name, at, .. } => {
                    fields.claim(name, format!("the generated padding at offset {at} of struct `{}`", s.name))?
                }
            }
        }
    }

    // Each bind group's fields, one per binding.
    for bindings in emit::bindings::groups(def).values() {
        let mut fields = Namespace::new(&def.path, "bind group field");
        for b in bindings {
            fields.claim(
                names::field_name(&b.name),
                format!("binding `{}` (group {}, binding {})", b.name, b.group, b.binding),
            )?;
        }
    }

    // Module-level constants and functions.
    let mut values = Namespace::new(&def.path, "constant or function");
    for item in [
        "PATH",
        "SOURCE",
        "ENTRY_POINTS",
        "REQUIRED_FEATURE_NAMES",
        "required_features",
        "missing_features",
        "check_features",
        "create_shader_module",
        "try_create_shader_module",
        "create_pipeline_layout",
    ] {
        values.claim(item.into(), generated(&format!("`{item}`")))?;
    }
    let mut variants = Namespace::new(&def.path, "`Entry` variant");
    for ep in &def.entry_points {
        let (upper, lower) = (names::upper_snake(&ep.name), names::lower_snake(&ep.name));
        let owner = format!("entry point `{}`", ep.name);
        values.claim(format!("{upper}_ENTRY"), owner.clone())?;
        if ep.stage == "compute" {
            for item in [
                format!("{upper}_WORKGROUP_SIZE"),
                format!("{lower}_workgroup_size"),
                format!("{upper}_WORKGROUP_MEMORY_BYTES"),
                format!("{lower}_workgroup_memory_bytes"),
                format!("create_{lower}_pipeline"),
                format!("try_create_{lower}_pipeline"),
            ] {
                values.claim(item, owner.clone())?;
            }
            variants.claim(names::variant_name(&ep.name), owner)?;
        }
    }
    for c in &def.consts {
        values.claim(emit::const_name(&c.name), format!("WGSL const `{}`", c.name))?;
    }

    // `Overrides`' fields and methods (one getter per override, named as its field).
    let mut methods = Namespace::new(&def.path, "`Overrides` field or method");
    methods.claim("new".into(), generated("`Overrides::new`"))?;
    methods.claim("constants".into(), generated("`Overrides::constants`"))?;
    for o in &def.overrides {
        methods.claim(names::field_ident(&o.name).to_string(), format!("override `{}`", o.name))?;
    }

    if shader_trait {
        if !has_compute {
            return Err(unsupported("shader trait".into(), "the shader has no compute entry point to record".into()));
        }
        if let Some(b) = def.bindings.iter().find(|b| b.group != 0) {
            return Err(unsupported(
                format!("binding `{}` (group {}, binding {})", b.name, b.group, b.binding),
                "the shader trait binds `@group(0)` only".into(),
            ));
        }
        if def.bindings.is_empty() {
            return Err(unsupported("shader trait".into(), "the shader has no bindings to bind".into()));
        }
        if let Some(b) = def.bindings.iter().find(|b| !b.kind.is_buffer()) {
            return Err(unsupported(
                format!("binding `{}` (group {}, binding {})", b.name, b.group, b.binding),
                "the shader trait binds buffers only".into(),
            ));
        }
    }
    Ok(())
}

/// How every file the generator writes starts; [`fs::write_dir`] removes stale files only if
/// they start so.
pub(crate) const HEADER_MARK: &str = "// Generated by `cargo xtask gen-shaders`";

/// The generated module as formatted Rust source, starting with a header naming the command,
/// the shader and a hash of its text.
pub fn generate(source: &str, path: &str) -> Result<String, CodegenError> {
    generate_with(source, path, &Options::default())
}

/// [`generate`] with [`Options`].
pub fn generate_with(source: &str, path: &str, options: &Options) -> Result<String, CodegenError> {
    let tokens = generate_tokens_with(source, path, options)?;
    let file: syn::File = syn::parse2(tokens).map_err(|e| CodegenError::Internal {
        path: path.to_string(),
        message: format!("the generated module does not parse as Rust: {e}"),
    })?;
    let body = prettyplease::unparse(&file);
    let body = raw_source_literal(&space_doc_comments(&body), source);
    Ok(format!(
        "{HEADER_MARK} from `{path}` (FNV-1a 64 of the source: {:016x}).\n\
         // Do not edit: change the shader and regenerate.\n\n{body}",
        fnv1a64(source.as_bytes())
    ))
}

/// prettyplease prints `#[doc = "text"]` as `///text`; add the customary space.
fn space_doc_comments(body: &str) -> String {
    let mut out = String::with_capacity(body.len() + 1024);
    for line in body.lines() {
        let trimmed = line.trim_start();
        match trimmed.strip_prefix("///") {
            Some(rest) if !rest.is_empty() && !rest.starts_with(' ') => {
                out.push_str(&line[..line.len() - trimmed.len()]);
                out.push_str("/// ");
                out.push_str(rest);
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// Rewrites the escaped `SOURCE` literal as a raw string so the WGSL stays readable in diffs.
fn raw_source_literal(body: &str, source: &str) -> String {
    let escaped = proc_macro2::Literal::string(source).to_string();
    let mut hashes = String::from("#");
    while source.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    let raw = format!("r{hashes}\"{source}\"{hashes}");
    body.replacen(&format!("pub const SOURCE: &str = {escaped};"), &format!("pub const SOURCE: &str = {raw};"), 1)
}

/// The layout of one named struct of a shader, as the generated code would have it (what
/// `#[wgsl_layout]` checks a hand-written struct against). Only that struct and the structs it
/// nests are laid out, so the rest of the shader may use what [`generate`] does not support
/// (`texture_external`, an override default the host cannot evaluate), and the struct may be
/// that of a `var<immediate>`.
pub fn struct_layout(source: &str, path: &str, name: &str) -> Result<model::StructDef, CodegenError> {
    let (module, _) = parse_and_validate(source, path)?;
    let structs = || module.types.iter().filter(|(_, ty)| matches!(ty.inner, naga::TypeInner::Struct { .. }));
    let Some((handle, _)) = structs().find(|(_, ty)| ty.name.as_deref() == Some(name)) else {
        let available: Vec<&str> = structs().filter_map(|(_, ty)| ty.name.as_deref()).collect();
        return Err(CodegenError::NoSuchStruct {
            path: path.to_string(),
            name: name.to_string(),
            available: available.join(", "),
        });
    };
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).map_err(|e| CodegenError::unsupported(path, "type layout", e.to_string()))?;
    let mut all = Vec::new();
    layout::struct_def(&module, &layouter, source, handle, &mut all, path)
        .map_err(|e| reflect::locate(e, &module, source, module.types.get_span(handle)))?;
    // `struct_def` adds the structs `name` nests before it, and `name` last.
    Ok(all.pop().expect("struct_def adds the struct it lays out"))
}

/// The Rust name the generated code gives a WGSL struct member, binding or override: its own,
/// or with `_` appended where Rust has no raw identifier for it (`self` → `self_`). Keywords
/// with a raw form keep their name (`in` is the field `r#in`).
pub fn field_name(wgsl_name: &str) -> String {
    names::field_name(wgsl_name)
}

/// FNV-1a, 64 bit: a stable, dependency-free fingerprint of the shader text for the header.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests;
