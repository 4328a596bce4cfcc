//! naga `Module` → [`ShaderDef`]: parse, validate with every flag, then collect what the emitters need.

use naga::{
    AddressSpace, ArraySize, Expression, Handle, Literal, Module, ShaderStage, StorageAccess, TypeInner,
    proc::Layouter,
    valid::{Capabilities, ModuleInfo, ValidationFlags, Validator},
};
use proc_macro2::TokenStream;
use quote::quote;

use crate::{
    CodegenError,
    error::Location,
    layout::{self, wgsl_type_name},
    model::{
        BindingDef, BufferKind, ConstDef, EntryPointDef, OverrideDef, ScalarType, ShaderDef, WorkgroupDim,
        WorkgroupVarDef, WorkgroupVarSize,
    },
    names::field_ident,
};

/// Parses and validates `source`; errors carry naga's diagnostic rendered against `path`.
pub fn parse_and_validate(source: &str, path: &str) -> Result<(Module, ModuleInfo), CodegenError> {
    let module = naga::front::wgsl::parse_str(source).map_err(|e| CodegenError::Parse {
        path: path.to_string(),
        diagnostic: e.emit_to_string_with_path(source, path),
    })?;
    let info = Validator::new(ValidationFlags::all(), Capabilities::all()).validate(&module).map_err(|e| {
        CodegenError::Validation { path: path.to_string(), diagnostic: e.emit_to_string_with_path(source, path) }
    })?;
    Ok((module, info))
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
            layout::host_type(module, layouter, *base, structs, path)?;
            u64::from(*stride)
        }
        TypeInner::Struct { .. } => {
            layout::struct_def(module, layouter, var.ty, structs, path)?;
            // naga's size of the struct: with a runtime-sized tail, one element of it, rounded
            // up to the struct's alignment (what wgpu checks a binding against).
            u64::from(layouter[var.ty].size)
        }
        _ => {
            layout::host_type(module, layouter, var.ty, structs, path)?;
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
fn locate(error: CodegenError, module: &Module, source: &str, span: naga::Span) -> CodegenError {
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
        match binding_def(&module, &info, &layouter, handle, &mut structs, path) {
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
                match translate_expr(&module, init, path, &name, &mut depends) {
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
                        let mut depends = false;
                        let span = module.global_expressions.get_span(e);
                        WorkgroupDim::Expr(
                            translate_expr(&module, e, path, &ep.name, &mut depends).map_err(|e| locate(e, span))?,
                        )
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

    let consts = consts(&module, path).map_err(|e| problems.push(e)).unwrap_or_default();
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
                let count = override_value(module, length, path, &name, &mut false)?;
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
fn consts(module: &Module, path: &str) -> Result<Vec<ConstDef>, CodegenError> {
    let mut out = Vec::new();
    for (_, c) in module.constants.iter() {
        let Some(name) = c.name.clone() else { continue };
        let Some(ty) = (match module.types[c.ty].inner {
            TypeInner::Scalar(s) => layout::scalar(s),
            _ => None,
        }) else {
            continue;
        };
        let mut depends = false;
        // A const whose value naga left as an expression the host cannot evaluate is left out
        // too: it is a convenience, not something the bindings need.
        let Ok(value) = translate_expr(module, c.init, path, &name, &mut depends) else { continue };
        // A const's initializer stands alone: the parentheses of a negative literal would only
        // draw `unused_parens` in the user's crate.
        out.push(ConstDef { name, ty, value: without_outer_parens(value) });
    }
    Ok(out)
}

/// `tokens` in parentheses when `wrap` (a negative literal is a minus and a literal to Rust).
fn parenthesised_if(wrap: bool, tokens: TokenStream) -> TokenStream {
    if wrap { quote!((#tokens)) } else { tokens }
}

/// `tokens` without one enclosing pair of parentheses, if that is all they are.
fn without_outer_parens(tokens: TokenStream) -> TokenStream {
    let mut trees = tokens.clone().into_iter();
    match (trees.next(), trees.next()) {
        (Some(proc_macro2::TokenTree::Group(g)), None) if g.delimiter() == proc_macro2::Delimiter::Parenthesis => {
            g.stream()
        }
        _ => tokens,
    }
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

/// Translates an override-expression into Rust evaluated over `o: &Overrides`.
/// `depends` is set when it reads another override. Every result is a single Rust primary
/// expression (a literal, a call, or parenthesised), so it can be an operand, a cast's subject
/// or a method receiver without Rust's precedence changing its meaning: `-4i32.max(k)` would
/// parse as `-(4i32.max(k))`.
/// The value of override `handle` as Rust over `o: &Overrides`: its getter, or for an override
/// naga made for an expression (an array length `lanes * 2u`, unnamed) that expression, inline.
fn override_value(
    module: &Module,
    handle: Handle<naga::Override>,
    path: &str,
    owner: &str,
    depends: &mut bool,
) -> Result<TokenStream, CodegenError> {
    let o = &module.overrides[handle];
    match (&o.name, o.init) {
        (Some(name), _) => {
            *depends = true;
            let getter = field_ident(name);
            Ok(quote!(o.#getter()))
        }
        (None, Some(init)) => translate_expr(module, init, path, owner, depends),
        (None, None) => Err(CodegenError::unsupported(
            path,
            format!("expression in `{owner}`"),
            "an unnamed override without a value",
        )),
    }
}

fn translate_expr(
    module: &Module,
    expr: Handle<Expression>,
    path: &str,
    owner: &str,
    depends: &mut bool,
) -> Result<TokenStream, CodegenError> {
    let unsupported = |what: String| CodegenError::Unsupported {
        path: path.to_string(),
        at: None,
        construct: format!("expression in `{owner}`"),
        reason: what,
    };
    Ok(match &module.global_expressions[expr] {
        // Negative literals are a minus and a literal to Rust: parenthesised.
        Expression::Literal(lit) => match *lit {
            Literal::U32(v) => quote!(#v),
            Literal::I32(v) => parenthesised_if(v < 0, quote!(#v)),
            Literal::F32(v) => parenthesised_if(v.is_sign_negative(), quote!(#v)),
            Literal::Bool(v) => quote!(#v),
            Literal::F16(v) => {
                let bits = v.to_bits();
                quote!(::half::f16::from_bits(#bits))
            }
            Literal::AbstractInt(v) => {
                let negative = v < 0;
                let v = proc_macro2::Literal::i64_unsuffixed(v);
                parenthesised_if(negative, quote!(#v))
            }
            Literal::AbstractFloat(v) => {
                let negative = v.is_sign_negative();
                let v = proc_macro2::Literal::f64_unsuffixed(v);
                parenthesised_if(negative, quote!(#v))
            }
            other => {
                return Err(unsupported(format!("a literal of type `{}`", layout::scalar_name(other.scalar()))));
            }
        },
        Expression::Override(h) => override_value(module, *h, path, owner, depends)?,
        Expression::Constant(h) => translate_expr(module, module.constants[*h].init, path, owner, depends)?,
        // `T()` of a scalar type: its zero.
        Expression::ZeroValue(ty) if matches!(module.types[*ty].inner, TypeInner::Scalar(_)) => {
            let TypeInner::Scalar(scalar) = module.types[*ty].inner else { unreachable!("matched above") };
            match layout::scalar(scalar) {
                Some(ScalarType::Bool) => quote!(false),
                Some(ScalarType::F16) => quote!(::half::f16::ZERO),
                Some(ScalarType::U32) => quote!(0u32),
                Some(ScalarType::I32) => quote!(0i32),
                Some(ScalarType::F32) => quote!(0.0f32),
                None => return Err(unsupported(format!("a zero of type `{}`", layout::scalar_name(scalar)))),
            }
        }
        Expression::Binary { op, left, right } => {
            let l = translate_expr(module, *left, path, owner, depends)?;
            let r = translate_expr(module, *right, path, owner, depends)?;
            use naga::BinaryOperator as B;
            let op = match op {
                B::Add => quote!(+),
                B::Subtract => quote!(-),
                B::Multiply => quote!(*),
                B::Divide => quote!(/),
                B::Modulo => quote!(%),
                B::Equal => quote!(==),
                B::NotEqual => quote!(!=),
                B::Less => quote!(<),
                B::LessEqual => quote!(<=),
                B::Greater => quote!(>),
                B::GreaterEqual => quote!(>=),
                B::And => quote!(&),
                B::ExclusiveOr => quote!(^),
                B::InclusiveOr => quote!(|),
                B::LogicalAnd => quote!(&&),
                B::LogicalOr => quote!(||),
                B::ShiftLeft => quote!(<<),
                B::ShiftRight => quote!(>>),
            };
            quote!((#l #op #r))
        }
        Expression::Unary { op, expr } => {
            let e = translate_expr(module, *expr, path, owner, depends)?;
            match op {
                naga::UnaryOperator::Negate => quote!((-#e)),
                naga::UnaryOperator::LogicalNot | naga::UnaryOperator::BitwiseNot => quote!((!#e)),
            }
        }
        Expression::Math { fun: naga::MathFunction::Max, arg, arg1: Some(b), .. } => {
            let a = translate_expr(module, *arg, path, owner, depends)?;
            let b = translate_expr(module, *b, path, owner, depends)?;
            quote!((#a).max(#b))
        }
        Expression::Math { fun: naga::MathFunction::Min, arg, arg1: Some(b), .. } => {
            let a = translate_expr(module, *arg, path, owner, depends)?;
            let b = translate_expr(module, *b, path, owner, depends)?;
            quote!((#a).min(#b))
        }
        Expression::As { expr, kind, convert: Some(width) } => {
            let e = translate_expr(module, *expr, path, owner, depends)?;
            let target = layout::scalar(naga::Scalar { kind: *kind, width: *width })
                .filter(|t| *t != ScalarType::F16 && *t != ScalarType::Bool)
                .ok_or_else(|| {
                    let target = layout::scalar_name(naga::Scalar { kind: *kind, width: *width });
                    unsupported(format!("a conversion to `{target}`"))
                })?;
            let ty = crate::emit::scalar_tokens(target);
            quote!((#e as #ty))
        }
        other => {
            return Err(unsupported(format!("{} is not evaluated on the host", expression_name(other))));
        }
    })
}

/// What an expression is, in WGSL's terms, for messages.
fn expression_name(expr: &Expression) -> String {
    match expr {
        Expression::Select { .. } => "`select(…)`".into(),
        Expression::Math { fun, .. } => format!("`{}(…)`", math_name(*fun)),
        Expression::As { convert: None, .. } => "`bitcast<…>(…)`".into(),
        Expression::As { .. } => "a conversion".into(),
        Expression::ZeroValue(_) => "a zero-value constructor `T()`".into(),
        Expression::Compose { .. } => "a constructor of a vector, matrix, array or struct".into(),
        Expression::Splat { .. } => "a vector splat `vecN(x)`".into(),
        Expression::Swizzle { .. } | Expression::AccessIndex { .. } | Expression::Access { .. } => {
            "a component or element access".into()
        }
        Expression::Relational { .. } => "`all(…)`/`any(…)`".into(),
        _ => "this kind of expression".into(),
    }
}

/// WGSL's name of a built-in math function (naga's variant name in snake case).
fn math_name(fun: naga::MathFunction) -> String {
    let debug = format!("{fun:?}");
    let mut name = String::new();
    for (i, c) in debug.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            name.push('_');
        }
        name.push(c.to_ascii_lowercase());
    }
    // naga's names that differ from WGSL's beyond the case.
    match name.as_str() {
        "inverse_sqrt" => "inverseSqrt".into(),
        "count_one_bits" => "countOneBits".into(),
        "count_leading_zeros" => "countLeadingZeros".into(),
        "count_trailing_zeros" => "countTrailingZeros".into(),
        "reverse_bits" => "reverseBits".into(),
        "extract_bits" => "extractBits".into(),
        "insert_bits" => "insertBits".into(),
        "first_leading_bit" => "firstLeadingBit".into(),
        "first_trailing_bit" => "firstTrailingBit".into(),
        "face_forward" => "faceForward".into(),
        "quantize_to_f16" => "quantizeToF16".into(),
        _ => name,
    }
}
