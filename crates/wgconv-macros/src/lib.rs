//! Proc-macros over `wgconv-codegen`:
//!
//! - [`macro@wgsl_layout`] checks a hand-written `#[repr(C)]` struct against a WGSL struct at compile
//!   time: a missing or extra field, a wrong type, size or offset is a `compile_error!` naming it.
//! - [`include_wgsl_bindings!`] expands to the same module `cargo xtask gen-shaders` writes, for
//!   your own shaders.
//!
//! Paths are relative to the `CARGO_MANIFEST_DIR` of the crate using the macro.

mod layout_check;

use proc_macro::TokenStream;
use quote::quote;
use syn::{LitStr, parse_macro_input};

/// The path of a shader named relative to the calling crate's manifest directory.
fn shader_path(path: &LitStr) -> std::path::PathBuf {
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    std::path::Path::new(&dir).join(path.value())
}

/// An item that makes cargo rebuild the calling crate when the shader at `full` changes: a
/// proc-macro's own file reads are invisible to cargo, `include_str!`'s are tracked.
fn rebuild_when_changed(full: &std::path::Path) -> proc_macro2::TokenStream {
    match full.to_str() {
        Some(full) if full.is_empty() || !std::path::Path::new(full).exists() => quote!(),
        Some(full) => quote!(
            const _: &str = include_str!(#full);
        ),
        None => quote!(),
    }
}

/// Reads a shader named relative to the calling crate's manifest directory.
pub(crate) fn read_shader(path: &LitStr) -> syn::Result<(String, String)> {
    let full = shader_path(path);
    match std::fs::read_to_string(&full) {
        Ok(source) => Ok((source, full.display().to_string())),
        Err(e) => Err(syn::Error::new(
            path.span(),
            format!("cannot read WGSL shader `{}` (resolved to {}): {e}", path.value(), full.display()),
        )),
    }
}

/// Checks the struct it annotates against a WGSL struct; see the crate docs.
///
/// Only that struct (and those it nests) is laid out, so the rest of the shader may use what
/// [`include_wgsl_bindings!`] does not generate: a `var<immediate>`'s struct, for one, is
/// exactly what to mirror by hand. Fields match WGSL members by name (`r#in` matches `in`,
/// `self_` WGSL's `self`); fields WGSL does not have must start with `_` (padding), and
/// `#[repr(C, align(N))]` may leave the trailing padding to the alignment. `f16` members are
/// `half::f16` fields (`half` with its `bytemuck` feature, to derive `Pod`).
///
/// ```
/// # use wgconv_macros::wgsl_layout;
/// #[wgsl_layout(shader = "tests/fixtures/params.wgsl", ty = "Params")]
/// #[repr(C)]
/// #[derive(Clone, Copy)]
/// struct Params {
///     in_ch: u32,
///     out_ch: u32,
///     _pad: [u8; 8],
///     scale: [f32; 3],
///     bias: f32,
/// }
/// ```
#[proc_macro_attribute]
pub fn wgsl_layout(attr: TokenStream, item: TokenStream) -> TokenStream {
    let item = parse_macro_input!(item as syn::ItemStruct);
    let mut shader: Option<LitStr> = None;
    let mut ty: Option<LitStr> = None;
    let parser = syn::meta::parser(|meta| {
        if meta.path.is_ident("shader") {
            shader = Some(meta.value()?.parse()?);
            Ok(())
        } else if meta.path.is_ident("ty") {
            ty = Some(meta.value()?.parse()?);
            Ok(())
        } else {
            Err(meta.error("expected `shader = \"path.wgsl\"` or `ty = \"WgslStruct\"`"))
        }
    });
    parse_macro_input!(attr with parser);
    let Some(shader) = shader else {
        return syn::Error::new_spanned(&item.ident, "#[wgsl_layout] needs `shader = \"path.wgsl\"`")
            .to_compile_error()
            .into();
    };
    let ty_name = ty.map_or_else(|| item.ident.to_string(), |t| t.value());
    let checks = layout_check::check(&item, &shader, &ty_name).unwrap_or_else(|e| e.to_compile_error());
    // Whether the check passed or failed, an edit of the shader must run it again.
    let track = rebuild_when_changed(&shader_path(&shader));
    quote!(#item #checks #track).into()
}

/// Expands to the typed bindings of a WGSL shader (what `cargo xtask gen-shaders` writes).
///
/// Use it inside a module: `mod blur { wgconv_macros::include_wgsl_bindings!("shaders/blur.wgsl"); }`.
/// The expansion needs `wgpu` and `bytemuck` in the calling crate, and for a shader using `f16`
/// also `half` with its `bytemuck` feature (`half = { version = "2", features = ["bytemuck"] }`):
/// the generated structs derive `bytemuck::Pod` over `half::f16` fields.
#[proc_macro]
pub fn include_wgsl_bindings(input: TokenStream) -> TokenStream {
    let path = parse_macro_input!(input as LitStr);
    let expanded = read_shader(&path).and_then(|(source, _)| {
        wgconv_codegen::generate_tokens(&source, &path.value()).map_err(|e| syn::Error::new(path.span(), e.to_string()))
    });
    let track = rebuild_when_changed(&shader_path(&path));
    let tokens = expanded.unwrap_or_else(|e| e.to_compile_error());
    quote!(#tokens #track).into()
}
