//! naga `Module` → [`ShaderDef`]: parse, validate with every flag, then collect what the emitters need.

use naga::{
    AddressSpace, ArraySize, Handle, Module, ShaderStage, StorageAccess, TypeInner,
    proc::Layouter,
    valid::{Capabilities, ModuleInfo, ValidationFlags, Validator},
};

use crate::{
    CodegenError,
    error::Location,
    host_expr::{HostExpr, without_outer_parens},
    layout::{self, wgsl_type_name},
    model::{
        BindingDef, BufferKind, ConstDef, EntryPointDef, OverrideDef, ShaderDef, WorkgroupDim, WorkgroupVarDef,
        WorkgroupVarSize,
    },
};

/// Parses and validates `source`; errors carry naga's diagnostic rendered against `path`.
/// A struct whose layout naga gets wrong (`spec_layout`) is reported as that, rather than as the
/// uniform-layout rule naga then finds broken.
pub fn parse_and_validate(source: &str, path: &str) -> Result<(Module, ModuleInfo), CodegenError> {
    let module = naga::front::wgsl::parse_str(source).map_err(|e| CodegenError::Parse {
        path: path.to_string(),
        diagnostic: e.emit_to_string_with_path(source, path),
    })?;
    match Validator::new(ValidationFlags::all(), Capabilities::all()).validate(&module) {
        Ok(info) => Ok((module, info)),
        Err(e) => Err(misaligned_buffer_struct(&module, source, path).unwrap_or_else(|| CodegenError::Validation {
            path: path.to_string(),
            diagnostic: e.emit_to_string_with_path(source, path),
        })),
    }
}

/// The first struct shared with the host (reached from a uniform, storage or immediate global)
/// that naga lays out unlike the WGSL spec, as its error, located.
fn misaligned_buffer_struct(module: &Module, source: &str, path: &str) -> Option<CodegenError> {
    let mut layouter = Layouter::default();
    layouter.update(module.to_ctx()).ok()?;
    let mut pending: Vec<Handle<naga::Type>> = module
        .global_variables
        .iter()
        .filter(|(_, v)| {
            matches!(v.space, AddressSpace::Uniform | AddressSpace::Storage { .. } | AddressSpace::Immediate)
        })
        .map(|(_, v)| v.ty)
        .collect();
    let mut seen = Vec::new();
    while let Some(ty) = pending.pop() {
        if seen.contains(&ty) {
            continue;
        }
        seen.push(ty);
        match &module.types[ty].inner {
            TypeInner::Array { base, .. } => pending.push(*base),
            TypeInner::Struct { members, .. } => {
                pending.extend(members.iter().map(|m| m.ty));
                if let Err(e) = crate::spec_layout::check_struct(module, &layouter, source, ty, path) {
                    return Some(locate(e, module, source, naga::Span::default()));
                }
            }
            _ => {}
        }
    }
    None
}

/// The stages whose entry points use global `handle`, as `wgpu::ShaderStages` constant names.
fn stages_using(module: &Module, info: &ModuleInfo, handle: Handle<naga::GlobalVariable>) -> Vec<&'static str> {
    let mut stages = Vec::new();
    for (index, ep) in module.entry_points.iter().enumerate() {
        if !info.get_entry_point(index)[handle].is_empty() {
            let stage = stage_const(ep.stage);
            if !stages.contains(&stage) {
                stages.push(stage);
            }
        }
    }
    stages
}

/// Whether some entry point samples texture `image` with a filtering (non-comparison) sampler:
/// only then is a float texture bound filterable (an `r32float` texture read with `textureLoad`
/// must not need `FLOAT32_FILTERABLE`), as wgpu's own derived layouts decide.
fn sampled_with_filtering(module: &Module, info: &ModuleInfo, image: Handle<naga::GlobalVariable>) -> bool {
    (0..module.entry_points.len()).any(|i| {
        info.get_entry_point(i).sampling_set.iter().any(|key| {
            key.image == image
                && matches!(
                    module.types[module.global_variables[key.sampler].ty].inner,
                    TypeInner::Sampler { comparison: false }
                )
        })
    })
}

/// The binding kind of a texture or sampler type (`None` for what is not generated: external
/// textures, binding arrays); `filtered`: the texture is sampled with a filtering sampler.
fn handle_kind(module: &Module, ty: Handle<naga::Type>, filtered: bool) -> Option<BufferKind> {
    use naga::{ImageClass, ImageDimension as Dim, ScalarKind};
    match module.types[ty].inner {
        TypeInner::Sampler { comparison } => {
            Some(BufferKind::Sampler(if comparison { "Comparison" } else { "Filtering" }))
        }
        TypeInner::Image { dim, arrayed, class } => {
            let view_dimension = match (dim, arrayed) {
                (Dim::D1, false) => "D1",
                (Dim::D2, false) => "D2",
                (Dim::D2, true) => "D2Array",
                (Dim::D3, false) => "D3",
                (Dim::Cube, false) => "Cube",
                (Dim::Cube, true) => "CubeArray",
                _ => return None,
            };
            Some(match class {
                ImageClass::Sampled { kind, multi } => BufferKind::Texture {
                    // Filterable only when sampled with a filtering sampler (never multisampled).
                    sample_type: match kind {
                        ScalarKind::Float if filtered && !multi => "Float { filterable: true }",
                        ScalarKind::Float => "Float { filterable: false }",
                        ScalarKind::Sint => "Sint",
                        ScalarKind::Uint => "Uint",
                        _ => return None,
                    },
                    view_dimension,
                    multisampled: multi,
                },
                ImageClass::Depth { multi } => {
                    BufferKind::Texture { sample_type: "Depth", view_dimension, multisampled: multi }
                }
                ImageClass::Storage { format, access } => BufferKind::StorageTexture {
                    access: if access.contains(StorageAccess::ATOMIC) {
                        "Atomic"
                    } else if access.contains(StorageAccess::LOAD | StorageAccess::STORE) {
                        "ReadWrite"
                    } else if access.contains(StorageAccess::STORE) {
                        "WriteOnly"
                    } else {
                        "ReadOnly"
                    },
                    format,
                    view_dimension,
                },
                ImageClass::External => return None,
            })
        }
        _ => None,
    }
}

/// The smallest set of device features under which naga validates `module`, as wgpu maps
/// features to naga's capabilities (`wgpu_naga_bridge`): starting from every feature, each one
/// the shader validates without is dropped — the later-declared first, since wgpu declares the
/// narrower features (`SUBGROUP`) before those that imply them (`SUBGROUP_VERTEX`).
fn required_features(module: &Module, path: &str) -> Result<wgpu_types::Features, CodegenError> {
    use wgpu_types::{DownlevelFlags, Features};
    let caps = |features: Features| wgpu_naga_bridge::features_to_naga_capabilities(features, DownlevelFlags::all());
    let validates =
        |features: Features| Validator::new(ValidationFlags::all(), caps(features)).validate(module).is_ok();
    // Most shaders need nothing: one validation says so.
    if validates(Features::empty()) {
        return Ok(Features::empty());
    }
    let mut needed = Features::all();
    if !validates(needed) {
        // It validated with every capability, but no set of wgpu features grants the ones it uses.
        let beyond = Capabilities::all() - caps(Features::all());
        let names: Vec<String> = beyond.iter_names().map(|(name, _)| name.to_lowercase().replace('_', " ")).collect();
        return Err(CodegenError::unsupported(
            path,
            "shader",
            format!("it uses shader capabilities no wgpu feature enables ({})", names.join(", ")),
        ));
    }
    // Only the flags that grant some capability can matter.
    let flags: Vec<Features> =
        Features::all().iter_names().map(|(_, flag)| flag).filter(|&flag| !caps(flag).is_empty()).collect();
    for &flag in flags.iter().rev() {
        let mut without = needed;
        without.remove(flag);
        if validates(without) {
            needed = without;
        }
    }
    Ok(needed & flags.iter().fold(Features::empty(), |all, &flag| all | flag))
}

/// The binding of global `handle`, `None` for a global without one (private, workgroup), or the
/// error naming why it cannot be generated. `structs` receives the structs it reaches.
fn binding_def(
    module: &Module,
    info: &ModuleInfo,
    layouter: &Layouter,
    source: &str,
    handle: Handle<naga::GlobalVariable>,
    structs: &mut Vec<crate::model::StructDef>,
    path: &str,
) -> Result<Option<BindingDef>, CodegenError> {
    let var = &module.global_variables[handle];
    if var.space == AddressSpace::Immediate {
        return Err(CodegenError::unsupported(
            path,
            format!("immediate constant `{}`", var.name.as_deref().unwrap_or("?")),
            "var<immediate> is not generated yet; pass the values through a uniform",
        ));
    }
    let Some(res) = &var.binding else { return Ok(None) };
    let name = var.name.clone().unwrap_or_else(|| format!("binding_{}_{}", res.group, res.binding));
    let construct = || format!("binding `{name}` (group {}, binding {})", res.group, res.binding);
    if var.space == AddressSpace::Handle {
        let filtered = sampled_with_filtering(module, info, handle);
        let kind = handle_kind(module, var.ty, filtered).ok_or_else(|| {
            let reason = format!("`{}` bindings are not generated yet", wgsl_type_name(module, var.ty));
            CodegenError::unsupported(path, construct(), reason)
        })?;
        return Ok(Some(BindingDef {
            name,
            group: res.group,
            binding: res.binding,
            kind,
            wgsl_type: wgsl_type_name(module, var.ty),
            min_size: 0,
            stages: stages_using(module, info, handle),
        }));
    }
    let kind = match var.space {
        AddressSpace::Uniform => BufferKind::Uniform,
        AddressSpace::Storage { access } if access.contains(StorageAccess::STORE) => BufferKind::StorageReadWrite,
        AddressSpace::Storage { .. } => BufferKind::StorageReadOnly,
        _ => {
            let reason =
                format!("only uniform and storage buffers are supported, not `{}`", wgsl_type_name(module, var.ty));
            return Err(CodegenError::unsupported(path, construct(), reason));
        }
    };
    let min_size = match &module.types[var.ty].inner {
        TypeInner::Array { base, size: ArraySize::Dynamic, stride } => {
            // The element type still needs a host type (and its structs generated).
            layout::host_type(module, layouter, source, *base, structs, path)?;
            u64::from(*stride)
        }
        TypeInner::Struct { .. } => {
            layout::struct_def(module, layouter, source, var.ty, structs, path)?;
            // naga's size of the struct: with a runtime-sized tail, one element of it, rounded
            // up to the struct's alignment (what wgpu checks a binding against).
            u64::from(layouter[var.ty].size)
        }
        _ => {
            layout::host_type(module, layouter, source, var.ty, structs, path)?;
            u64::from(layouter[var.ty].size)
        }
    };
    // wgpu binds storage buffers in whole 4-byte words: a runtime array of f16 has a 2-byte
    // stride, but a buffer of 2 bytes cannot be bound; the minimum is one that can.
    let min_size = match kind {
        BufferKind::Uniform => min_size,
        _ => min_size.next_multiple_of(4),
    };
    Ok(Some(BindingDef {
        name,
        group: res.group,
        binding: res.binding,
        kind,
        wgsl_type: wgsl_type_name(module, var.ty),
        min_size,
        stages: stages_using(module, info, handle),
    }))
}

/// `error` located: a struct member's error at the struct's declaration, anything else at
/// `span` (the construct being generated when it arose).
pub(crate) fn locate(error: CodegenError, module: &Module, source: &str, span: naga::Span) -> CodegenError {
    let span = match &error {
        CodegenError::UnsupportedMemberType { structure, .. } => module
            .types
            .iter()
            .find(|(_, t)| t.name.as_deref() == Some(structure))
            .map_or(span, |(h, _)| module.types.get_span(h)),
        _ => span,
    };
    error.located(Location::of(span, source))
}

/// Builds the model of one shader.
pub fn reflect(source: &str, path: &str) -> Result<ShaderDef, CodegenError> {
    let (module, info) = parse_and_validate(source, path)?;
    let features = required_features(&module, path)?;
    let mut layouter = Layouter::default();
    layouter.update(module.to_ctx()).map_err(|e| CodegenError::Unsupported {
        path: path.to_string(),
        at: None,
        construct: "type layout".into(),
        reason: e.to_string(),
    })?;

    // Every problem of the shader is collected, each with its place, and reported together.
    let mut problems = Vec::new();
    let locate = |error: CodegenError, span: naga::Span| locate(error, &module, source, span);
    let mut structs = Vec::new();
    let mut bindings = Vec::new();
    for (handle, _) in module.global_variables.iter() {
        let span = module.global_variables.get_span(handle);
        match binding_def(&module, &info, &layouter, source, handle, &mut structs, path) {
            Ok(Some(binding)) => bindings.push((binding, span)),
            Ok(None) => {}
            Err(e) => problems.push(locate(e, span)),
        }
    }
    bindings.sort_by_key(|(b, _)| (b.group, b.binding));
    // WGSL lets two globals share a slot when no entry point uses both; the generated bind group
    // has one layout per group, which wgpu would reject ("conflicting binding"): say so here.
    for pair in bindings.windows(2).filter(|p| (p[0].0.group, p[0].0.binding) == (p[1].0.group, p[1].0.binding)) {
        let users = |name: &str| {
            let handle = module.global_variables.iter().find(|(_, v)| v.name.as_deref() == Some(name)).map(|(h, _)| h);
            let eps: Vec<String> = module
                .entry_points
                .iter()
                .enumerate()
                .filter(|(i, _)| handle.is_some_and(|h| !info.get_entry_point(*i)[h].is_empty()))
                .map(|(_, ep)| format!("`{}`", ep.name))
                .collect();
            if eps.is_empty() { "no entry point".to_string() } else { eps.join(", ") }
        };
        let ((a, _), (b, span)) = (&pair[0], &pair[1]);
        let error = CodegenError::unsupported(
            path,
            format!("bindings `{}` and `{}` (both @group({}) @binding({}))", a.name, b.name, a.group, a.binding),
            format!(
                "`{}` is used by {} and `{}` by {}; the generated bind group has one layout per group, so give them different bindings (or put the entry points in separate shaders)",
                a.name,
                users(&a.name),
                b.name,
                users(&b.name)
            ),
        );
        problems.push(locate(error, *span));
    }
    let bindings: Vec<BindingDef> = bindings.into_iter().map(|(b, _)| b).collect();

    let mut overrides = Vec::new();
    for (handle, o) in module.overrides.iter() {
        let span = module.overrides.get_span(handle);
        // Overrides naga makes for expressions (unnamed) are not the user's: their expressions
        // are inlined where they are used (`override_value`).
        let Some(name) = o.name.clone() else { continue };
        let ty = match &module.types[o.ty].inner {
            TypeInner::Scalar(s) => layout::scalar(*s),
            _ => None,
        };
        let Some(ty) = ty else {
            let reason = format!("type `{}` is not a scalar", wgsl_type_name(&module, o.ty));
            problems.push(locate(CodegenError::unsupported(path, format!("override `{name}`"), reason), span));
            continue;
        };
        let (default, depends) = match o.init {
            Some(init) => {
                let mut depends = false;
                match (HostExpr { module: &module, info: &info, path, owner: &name }).translate(init, &mut depends) {
                    Ok(tokens) => (Some(tokens), depends),
                    Err(e) => {
                        problems.push(locate(e, span));
                        continue;
                    }
                }
            }
            None => (None, false),
        };
        overrides.push(OverrideDef { name, id: o.id, ty, default, default_depends_on_overrides: depends });
    }

    let entry_points = module
        .entry_points
        .iter()
        .enumerate()
        .map(|(index, ep)| {
            let mut dims = [WorkgroupDim::Fixed(1), WorkgroupDim::Fixed(1), WorkgroupDim::Fixed(1)];
            for (i, dim) in dims.iter_mut().enumerate() {
                let expr = ep.workgroup_size_overrides.as_ref().and_then(|o| o[i]);
                *dim = match expr {
                    Some(e) => {
                        let span = module.global_expressions.get_span(e);
                        let host = HostExpr { module: &module, info: &info, path, owner: &ep.name };
                        WorkgroupDim::Expr(host.translate(e, &mut false).map_err(|e| locate(e, span))?)
                    }
                    None => WorkgroupDim::Fixed(ep.workgroup_size[i]),
                };
            }
            let workgroup_vars = workgroup_vars(&module, &info, &layouter, index, path)?;
            Ok(EntryPointDef {
                name: ep.name.clone(),
                stage: stage_name(ep.stage),
                workgroup_size: dims,
                workgroup_vars,
            })
        })
        .filter_map(|ep: Result<EntryPointDef, CodegenError>| ep.map_err(|e| problems.push(e)).ok())
        .collect::<Vec<_>>();

    let consts = consts(&module, &info, path);
    CodegenError::collect(path, problems)?;
    Ok(ShaderDef {
        path: path.to_string(),
        source: source.to_string(),
        structs,
        overrides,
        bindings,
        entry_points,
        consts,
        required_features: features.iter_names().map(|(name, _)| name.to_string()).collect(),
    })
}

/// The `var<workgroup>` globals entry point `index` uses, with their sizes. naga's per-entry-point
/// usage already includes the functions the entry point calls.
fn workgroup_vars(
    module: &Module,
    info: &ModuleInfo,
    layouter: &Layouter,
    index: usize,
    path: &str,
) -> Result<Vec<WorkgroupVarDef>, CodegenError> {
    let uses = info.get_entry_point(index);
    let mut vars = Vec::new();
    for (handle, var) in module.global_variables.iter() {
        if var.space != AddressSpace::WorkGroup || uses[handle].is_empty() {
            continue;
        }
        let name = var.name.clone().unwrap_or_default();
        let size = match module.types[var.ty].inner {
            // The only type whose size the Layouter cannot know: the length is an override.
            TypeInner::Array { size: ArraySize::Pending(length), stride, .. } => {
                // The length is an override, named or one naga made for an expression.
                let host = HostExpr { module, info, path, owner: &name };
                let count = host.override_value(length, &mut false)?;
                WorkgroupVarSize::PerElement { stride, count }
            }
            _ => WorkgroupVarSize::Fixed(layouter[var.ty].size),
        };
        vars.push(WorkgroupVarDef { name, wgsl_type: wgsl_type_name(module, var.ty), size });
    }
    Ok(vars)
}

/// The named module-scope constants of a host scalar type, with the values naga evaluated.
/// Constants of other types (vectors, arrays, abstract numbers), and those whose value naga keeps
/// as an expression the host does not evaluate, are left out.
fn consts(module: &Module, info: &ModuleInfo, path: &str) -> Vec<ConstDef> {
    let mut out = Vec::new();
    for (_, c) in module.constants.iter() {
        let Some(name) = c.name.clone() else { continue };
        let Some(ty) = (match module.types[c.ty].inner {
            TypeInner::Scalar(s) => layout::scalar(s),
            _ => None,
        }) else {
            continue;
        };
        // A const whose value naga left as an expression the host cannot evaluate is left out
        // too: it is a convenience, not something the bindings need.
        let host = HostExpr { module, info, path, owner: &name };
        let Ok(value) = host.translate(c.init, &mut false) else { continue };
        // A const's initializer stands alone: the parentheses of a negative literal would only
        // draw `unused_parens` in the user's crate.
        out.push(ConstDef { name, ty, value: without_outer_parens(value) });
    }
    out
}

fn stage_const(stage: ShaderStage) -> &'static str {
    match stage {
        ShaderStage::Vertex => "VERTEX",
        ShaderStage::Fragment => "FRAGMENT",
        ShaderStage::Compute => "COMPUTE",
        ShaderStage::Task => "TASK",
        ShaderStage::Mesh => "MESH",
        _ => "ALL",
    }
}

fn stage_name(stage: ShaderStage) -> &'static str {
    match stage {
        ShaderStage::Vertex => "vertex",
        ShaderStage::Fragment => "fragment",
        ShaderStage::Compute => "compute",
        ShaderStage::Task => "task",
        ShaderStage::Mesh => "mesh",
        _ => "other",
    }
}
