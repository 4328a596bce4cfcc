//! WGSL layout → host types: which Rust type stands for each WGSL type, with offsets from naga's
//! `Layouter` (where they are the WGSL spec's: `spec_layout` rejects the structs where they are
//! not). Padding is not decided here; `emit::structs` fills every gap these offsets leave.

use naga::{ArraySize, Handle, Module, ScalarKind, Type, TypeInner, proc::Layouter};

use crate::model::{HostType, MemberDef, ScalarType, StructDef, TailArray};

/// Why a type has no host representation (the caller adds shader/struct/field context).
pub(crate) struct Unsupported {
    pub wgsl_type: String,
    pub reason: String,
}

/// Maps a naga scalar to a host scalar.
pub(crate) fn scalar(s: naga::Scalar) -> Option<ScalarType> {
    match (s.kind, s.width) {
        (ScalarKind::Uint, 4) => Some(ScalarType::U32),
        (ScalarKind::Sint, 4) => Some(ScalarType::I32),
        (ScalarKind::Float, 4) => Some(ScalarType::F32),
        (ScalarKind::Float, 2) => Some(ScalarType::F16),
        (ScalarKind::Bool, _) => Some(ScalarType::Bool),
        _ => None,
    }
}

/// WGSL spelling of a scalar type, for messages.
pub(crate) fn scalar_name(s: naga::Scalar) -> String {
    use naga::ScalarKind as K;
    match scalar(s) {
        Some(t) => t.wgsl_name().to_string(),
        None => match s.kind {
            K::Bool => "bool".to_string(),
            K::Sint => format!("i{}", s.width * 8),
            K::Uint => format!("u{}", s.width * 8),
            K::Float => format!("f{}", s.width * 8),
            K::AbstractInt => "abstract-int".to_string(),
            K::AbstractFloat => "abstract-float".to_string(),
        },
    }
}

/// WGSL spelling of an address space, for pointer types in messages.
fn space_name(space: naga::AddressSpace) -> &'static str {
    use naga::AddressSpace as S;
    match space {
        S::Function => "function",
        S::Private => "private",
        S::WorkGroup => "workgroup",
        S::Uniform => "uniform",
        S::Storage { .. } => "storage",
        S::Handle => "handle",
        S::Immediate => "immediate",
        _ => "(address space)",
    }
}

/// WGSL spelling of a type, for messages and doc comments.
pub(crate) fn wgsl_type_name(module: &Module, ty: Handle<Type>) -> String {
    let t = &module.types[ty];
    if let (Some(name), TypeInner::Struct { .. }) = (&t.name, &t.inner) {
        return name.clone();
    }
    match &t.inner {
        TypeInner::Scalar(s) => scalar_name(*s),
        TypeInner::Vector { size, scalar } => {
            format!("vec{}<{}>", *size as u8, scalar_name(*scalar))
        }
        TypeInner::Matrix { columns, rows, scalar } => {
            format!("mat{}x{}<{}>", *columns as u8, *rows as u8, scalar_name(*scalar))
        }
        TypeInner::Atomic(s) => format!("atomic<{}>", scalar_name(*s)),
        TypeInner::Array { base, size, .. } => match size {
            ArraySize::Constant(n) => format!("array<{}, {}>", wgsl_type_name(module, *base), n),
            ArraySize::Pending(_) => {
                format!("array<{}, (override)>", wgsl_type_name(module, *base))
            }
            ArraySize::Dynamic => format!("array<{}>", wgsl_type_name(module, *base)),
        },
        TypeInner::Struct { .. } => "struct".to_string(),
        TypeInner::Image { dim, arrayed, class } => image_type_name(*dim, *arrayed, *class),
        TypeInner::Sampler { comparison } => if *comparison { "sampler_comparison" } else { "sampler" }.to_string(),
        TypeInner::BindingArray { base, size } => match size {
            ArraySize::Constant(n) => format!("binding_array<{}, {n}>", wgsl_type_name(module, *base)),
            _ => format!("binding_array<{}>", wgsl_type_name(module, *base)),
        },
        TypeInner::AccelerationStructure { vertex_return } => {
            if *vertex_return { "acceleration_structure<vertex_return>" } else { "acceleration_structure" }.to_string()
        }
        TypeInner::RayQuery { vertex_return } => {
            if *vertex_return { "ray_query<vertex_return>" } else { "ray_query" }.to_string()
        }
        TypeInner::Pointer { base, space } => format!("ptr<{}, {}>", space_name(*space), wgsl_type_name(module, *base)),
        TypeInner::ValuePointer { size, scalar, space } => {
            let pointee = match size {
                Some(n) => format!("vec{}<{}>", *n as u8, scalar_name(*scalar)),
                None => scalar_name(*scalar),
            };
            format!("ptr<{}, {pointee}>", space_name(*space))
        }
        TypeInner::CooperativeMatrix { columns, rows, scalar, role } => {
            let role = match role {
                naga::CooperativeRole::A => "A",
                naga::CooperativeRole::B => "B",
                naga::CooperativeRole::C => "C",
            };
            format!("coop_mat{}x{}<{}, {role}>", *rows as u8, *columns as u8, scalar_name(*scalar))
        }
    }
}

fn host_scalar(module: &Module, ty: Handle<Type>, s: naga::Scalar) -> Result<ScalarType, Unsupported> {
    match scalar(s) {
        Some(ScalarType::Bool) | None => Err(Unsupported {
            wgsl_type: wgsl_type_name(module, ty),
            reason: "only i32, u32, f32 and f16 scalars can be shared with the host".into(),
        }),
        Some(t) => Ok(t),
    }
}

/// The host type of a sized WGSL type. `structs` receives every struct reached, nested first;
/// `source` is the WGSL `module` was parsed from.
pub(crate) fn host_type(
    module: &Module,
    layouter: &Layouter,
    source: &str,
    ty: Handle<Type>,
    structs: &mut Vec<StructDef>,
    path: &str,
) -> Result<HostType, crate::CodegenError> {
    let unsupported = |reason: &str| Unsupported { wgsl_type: wgsl_type_name(module, ty), reason: reason.to_string() };
    let result = match &module.types[ty].inner {
        TypeInner::Scalar(s) | TypeInner::Atomic(s) => host_scalar(module, ty, *s).map(HostType::Scalar),
        TypeInner::Vector { size, scalar } => {
            host_scalar(module, ty, *scalar).map(|s| HostType::Array(Box::new(HostType::Scalar(s)), *size as u32))
        }
        TypeInner::Matrix { columns, rows, scalar } => host_scalar(module, ty, *scalar).map(|s| {
            // A column is a vecR; a vec3 column occupies 16 (or 8 for f16) bytes, so it is
            // represented with its padding element to keep the column stride.
            let stored_rows = if *rows as u32 == 3 { 4 } else { *rows as u32 };
            let column = HostType::Array(Box::new(HostType::Scalar(s)), stored_rows);
            HostType::Array(Box::new(column), *columns as u32)
        }),
        TypeInner::Array { base, size, stride } => match size {
            ArraySize::Constant(n) => {
                let elem = host_type(module, layouter, source, *base, structs, path)?;
                let elem =
                    pad_element_to_stride(elem, *stride, structs).map_err(|_| crate::CodegenError::Unsupported {
                        path: path.to_string(),
                        at: None,
                        construct: format!("array `{}`", wgsl_type_name(module, ty)),
                        reason: format!("element stride {stride} cannot be expressed on the host"),
                    })?;
                Ok(HostType::Array(Box::new(elem), n.get()))
            }
            ArraySize::Pending(_) => Err(unsupported("arrays sized by an override have no fixed host size")),
            ArraySize::Dynamic => {
                Err(unsupported("runtime-sized arrays may only end a storage struct or be a whole binding"))
            }
        },
        TypeInner::Struct { .. } => {
            struct_def(module, layouter, source, ty, structs, path)?;
            Ok(HostType::Struct(module.types[ty].name.clone().unwrap_or_default()))
        }
        _ => Err(unsupported("not a host-shareable type")),
    };
    result.map_err(|u| crate::CodegenError::Unsupported {
        path: path.to_string(),
        at: None,
        construct: format!("type `{}`", u.wgsl_type),
        reason: u.reason,
    })
}

/// Makes an array element as large as the array stride. Only a vec3 element is smaller than its
/// stride in WGSL (12 vs 16 bytes); it is stored as a vec4 whose last lane is padding.
fn pad_element_to_stride(elem: HostType, stride: u32, structs: &[StructDef]) -> Result<HostType, ()> {
    let size = elem.size(structs);
    if size == stride {
        return Ok(elem);
    }
    match elem {
        HostType::Array(inner, 3) if matches!(*inner, HostType::Scalar(_)) && inner.size(structs) * 4 == stride => {
            Ok(HostType::Array(inner, 4))
        }
        _ => Err(()),
    }
}

/// Adds the struct `ty` (and the structs it nests) to `structs` unless already there.
pub(crate) fn struct_def(
    module: &Module,
    layouter: &Layouter,
    source: &str,
    ty: Handle<Type>,
    structs: &mut Vec<StructDef>,
    path: &str,
) -> Result<(), crate::CodegenError> {
    let name = module.types[ty].name.clone().unwrap_or_default();
    if structs.iter().any(|s| s.name == name) {
        return Ok(());
    }
    let TypeInner::Struct { members, span } = &module.types[ty].inner else {
        unreachable!("struct_def called on a non-struct");
    };
    let mut defs = Vec::new();
    let mut tail = None;
    let mut size = *span;
    for (index, member) in members.iter().enumerate() {
        let field = member.name.clone().unwrap_or_else(|| format!("member{index}"));
        let member_error = |e: crate::CodegenError| match e {
            crate::CodegenError::Unsupported { path, at, construct, reason } => {
                crate::CodegenError::UnsupportedMemberType {
                    path,
                    at,
                    structure: name.clone(),
                    field: field.clone(),
                    wgsl_type: construct.trim_start_matches("type `").trim_end_matches('`').to_string(),
                    reason,
                }
            }
            other => other,
        };
        if let TypeInner::Array { base, size: ArraySize::Dynamic, stride } = &module.types[member.ty].inner {
            let element = host_type(module, layouter, source, *base, structs, path).map_err(member_error)?;
            let element = pad_element_to_stride(element, *stride, structs).map_err(|()| {
                crate::CodegenError::UnsupportedMemberType {
                    path: path.to_string(),
                    at: None,
                    structure: name.clone(),
                    field: field.clone(),
                    wgsl_type: wgsl_type_name(module, member.ty),
                    reason: format!("element stride {stride} cannot be expressed on the host"),
                }
            })?;
            size = member.offset;
            tail = Some(TailArray { name: field, element, wgsl_type: wgsl_type_name(module, *base), stride: *stride });
            continue;
        }
        let host = host_type(module, layouter, source, member.ty, structs, path).map_err(member_error)?;
        defs.push(MemberDef {
            name: field,
            wgsl_type: wgsl_type_name(module, member.ty),
            host,
            offset: member.offset,
            size: layouter[member.ty].size,
        });
    }
    let align = crate::spec_layout::check_struct(module, layouter, source, ty, path)?;
    structs.push(StructDef { name, size, align, members: defs, tail });
    Ok(())
}

/// A texture type as WGSL spells it (`texture_2d_array<u32>`, `texture_storage_2d<rgba8unorm, write>`).
fn image_type_name(dim: naga::ImageDimension, arrayed: bool, class: naga::ImageClass) -> String {
    use naga::{ImageClass, ImageDimension as Dim, ScalarKind, StorageAccess};
    let dim = match dim {
        Dim::D1 => "1d",
        Dim::D2 => "2d",
        Dim::D3 => "3d",
        Dim::Cube => "cube",
    };
    let array = if arrayed { "_array" } else { "" };
    let scalar = |kind: ScalarKind| match kind {
        ScalarKind::Sint => "i32",
        ScalarKind::Uint => "u32",
        _ => "f32",
    };
    match class {
        ImageClass::Sampled { kind, multi: false } => format!("texture_{dim}{array}<{}>", scalar(kind)),
        ImageClass::Sampled { kind, multi: true } => format!("texture_multisampled_{dim}{array}<{}>", scalar(kind)),
        ImageClass::Depth { multi: false } => format!("texture_depth_{dim}{array}"),
        ImageClass::Depth { multi: true } => format!("texture_depth_multisampled_{dim}{array}"),
        ImageClass::Storage { format, access } => {
            let access = match (access.contains(StorageAccess::LOAD), access.contains(StorageAccess::STORE)) {
                _ if access.contains(StorageAccess::ATOMIC) => "atomic",
                (true, true) => "read_write",
                (false, true) => "write",
                _ => "read",
            };
            let format = format!("{format:?}").to_lowercase();
            format!("texture_storage_{dim}{array}<{format}, {access}>")
        }
        ImageClass::External => "texture_external".to_string(),
    }
}
