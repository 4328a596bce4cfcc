//! The `#[wgsl_layout]` check: Rust struct vs WGSL struct, field by field.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{ItemStruct, LitStr, Type, ext::IdentExt};
use wgconv_codegen::model::{HostType, ScalarType};

/// Size and alignment of a Rust type, when the macro can tell from its spelling.
#[derive(Clone, Debug, PartialEq)]
enum Shape {
    Scalar { name: String, size: u32 },
    Array(Box<Shape>, u32),
}

impl Shape {
    fn size(&self) -> u32 {
        match self {
            Shape::Scalar { size, .. } => *size,
            Shape::Array(e, n) => e.size() * n,
        }
    }
    fn align(&self) -> u32 {
        match self {
            Shape::Scalar { size, .. } => *size,
            Shape::Array(e, _) => e.align(),
        }
    }
    fn describe(&self) -> String {
        match self {
            Shape::Scalar { name, .. } => name.clone(),
            Shape::Array(e, n) => format!("[{}; {n}]", e.describe()),
        }
    }
}

fn shape_of(ty: &Type) -> Option<Shape> {
    match ty {
        Type::Path(p) => {
            let last = p.path.segments.last()?.ident.to_string();
            let size = match last.as_str() {
                "u8" | "i8" => 1,
                "u16" | "i16" | "f16" => 2,
                "u32" | "i32" | "f32" => 4,
                "u64" | "i64" | "f64" => 8,
                _ => return None,
            };
            Some(Shape::Scalar { name: last, size })
        }
        Type::Array(a) => {
            let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(n), .. }) = &a.len else {
                return None;
            };
            Some(Shape::Array(Box::new(shape_of(&a.elem)?), n.base10_parse().ok()?))
        }
        Type::Paren(p) => shape_of(&p.elem),
        _ => None,
    }
}

fn host_shape(t: &HostType) -> Option<Shape> {
    match t {
        HostType::Scalar(s) => Some(Shape::Scalar {
            name: match s {
                ScalarType::U32 => "u32",
                ScalarType::I32 => "i32",
                ScalarType::F32 => "f32",
                ScalarType::F16 => "f16",
                ScalarType::Bool => "bool",
            }
            .into(),
            size: s.size(),
        }),
        HostType::Array(e, n) => Some(Shape::Array(Box::new(host_shape(e)?), *n)),
        HostType::Struct(_) => None,
    }
}

pub fn check(item: &ItemStruct, shader: &LitStr, ty_name: &str) -> syn::Result<TokenStream> {
    let (source, _) = crate::read_shader(shader)?;
    let path = shader.value();
    let wgsl = wgconv_codegen::struct_layout(&source, &path, ty_name)
        .map_err(|e| syn::Error::new(shader.span(), e.to_string()))?;
    let syn::Fields::Named(fields) = &item.fields else {
        return Err(syn::Error::new_spanned(&item.ident, "#[wgsl_layout] needs a struct with named fields"));
    };
    let repr = repr_items(item);
    let is_repr_c = repr.iter().any(|m| m.path().is_ident("C"));
    // `#[repr(align(N))]` rounds the size up as WGSL rounds it up to the struct's alignment.
    let repr_align = repr.iter().filter_map(repr_align).max().unwrap_or(1);
    let where_ = format!("WGSL struct {} ({path})", wgsl.name);
    let mut errors: Option<syn::Error> = None;
    let mut add = |e: syn::Error| match &mut errors {
        Some(all) => all.combine(e),
        None => errors = Some(e),
    };
    if !is_repr_c {
        add(syn::Error::new_spanned(
            &item.ident,
            format!("#[wgsl_layout] needs #[repr(C)] so Rust keeps the field order of {where_}"),
        ));
    }
    // Syntactic repr(C) layout; None once a field's type is not one the macro can size.
    let mut rust_offset: Option<u32> = Some(0);
    let mut max_align = repr_align;
    let mut asserts = Vec::new();
    let ident = &item.ident;
    // Fields match members by the name the generated code gives them: a raw `r#in` is `in`,
    // and `self_` is WGSL's `self`, which Rust cannot name.
    let rust_name = |field: &syn::Field| field.ident.as_ref().expect("named").unraw().to_string();
    for field in &fields.named {
        let name = rust_name(field);
        let shape = shape_of(&field.ty);
        let offset_here = match (&shape, rust_offset) {
            (Some(s), Some(o)) => {
                let aligned = o.div_ceil(s.align()) * s.align();
                max_align = max_align.max(s.align());
                rust_offset = Some(aligned + s.size());
                Some(aligned)
            }
            _ => {
                rust_offset = None;
                None
            }
        };
        let Some(member) = wgsl.members.iter().find(|m| wgconv_codegen::field_name(&m.name) == name) else {
            if !name.starts_with('_') {
                add(syn::Error::new_spanned(
                    field,
                    format!("field `{name}` is not in {where_}; padding fields must start with `_`"),
                ));
            }
            continue;
        };
        if let (Some(rust), Some(expected)) = (&shape, host_shape(&member.host)) {
            // As in the generated structs, a vec3 is `[T; 3]` and the 4 bytes after it a padding
            // field or the next member (`[T; 4]` is a vec4).
            if rust.describe() != expected.describe() {
                add(syn::Error::new_spanned(
                    &field.ty,
                    format!(
                        "field `{name}` has type {} in Rust but WGSL `{}` (host type {}) in {where_}",
                        rust.describe(),
                        member.wgsl_type,
                        expected.describe()
                    ),
                ));
                continue;
            }
        }
        if let Some(o) = offset_here.filter(|o| *o != member.offset) {
            add(syn::Error::new_spanned(
                field,
                format!("field `{name}` is at offset {o} in Rust but {} in {where_}", member.offset),
            ));
            continue;
        }
        let fident = field.ident.as_ref().expect("named");
        let off = member.offset as usize;
        let msg = format!("field `{name}` is not at offset {} as in {where_}", member.offset);
        asserts.push(quote! { assert!(::core::mem::offset_of!(#ident, #fident) == #off, #msg); });
    }
    for member in &wgsl.members {
        if !fields.named.iter().any(|f| rust_name(f) == wgconv_codegen::field_name(&member.name)) {
            add(syn::Error::new_spanned(
                &item.ident,
                format!(
                    "field `{}: {}` (offset {}) of {where_} is missing",
                    member.name, member.wgsl_type, member.offset
                ),
            ));
        }
    }
    if let Some(end) = rust_offset {
        let size = end.div_ceil(max_align) * max_align;
        if size != wgsl.size {
            add(syn::Error::new_spanned(
                &item.ident,
                format!("struct is {size} bytes in Rust but {} in {where_}; add trailing padding", wgsl.size),
            ));
        }
    }
    if let Some(e) = errors {
        return Err(e);
    }
    let size = wgsl.size as usize;
    let msg = format!("struct is not {} bytes as {where_}", wgsl.size);
    Ok(quote! {
        const _: () = {
            assert!(::core::mem::size_of::<#ident>() == #size, #msg);
            #(#asserts)*
        };
    })
}

/// The items of the struct's `#[repr(…)]` attributes.
fn repr_items(item: &ItemStruct) -> Vec<syn::Meta> {
    item.attrs
        .iter()
        .filter(|a| a.path().is_ident("repr"))
        .filter_map(|a| {
            a.parse_args_with(syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated).ok()
        })
        .flatten()
        .collect()
}

/// N of a `repr` item `align(N)`.
fn repr_align(meta: &syn::Meta) -> Option<u32> {
    let syn::Meta::List(list) = meta else { return None };
    if !list.path.is_ident("align") {
        return None;
    }
    list.parse_args::<syn::LitInt>().ok()?.base10_parse().ok()
}
