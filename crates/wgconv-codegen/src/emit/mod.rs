//! Rust emission: one file per generated concern, assembled by [`module_tokens`].

pub(crate) mod bindings;
mod features;
mod overrides;
mod pipeline;
mod shader_impl;
pub(crate) mod structs;

use proc_macro2::TokenStream;
use quote::quote;

use crate::{
    model::{ConstDef, HostType, ScalarType, ShaderDef},
    names::upper_snake,
};

pub use structs::struct_tokens;

/// Tokens of a whole generated module (without the file header); with `shader_trait`, also the
/// unit type `Shader` implementing it.
pub fn module_tokens(def: &ShaderDef, shader_trait: Option<&syn::Path>) -> TokenStream {
    let path = &def.path;
    let source = &def.source;
    let consts = def.consts.iter().map(const_tokens);
    let structs = def.structs.iter().map(|s| struct_tokens(s, &def.structs, path));
    let overrides = overrides::overrides_tokens(def);
    let bindings = bindings::bind_group_tokens(def);
    let pipeline = pipeline::pipeline_tokens(def);
    let features = features::features_tokens(def);
    let shader_impl = shader_trait.map(|t| shader_impl::shader_impl_tokens(def, t));
    quote! {
        /// Path of the WGSL this module was generated from, relative to the workspace root.
        pub const PATH: &str = #path;
        /// The WGSL source, embedded so the crate needs no files at run time.
        pub const SOURCE: &str = #source;
        #(#consts)*
        #(#structs)*
        #overrides
        #bindings
        #features
        #pipeline
        #shader_impl
    }
}

/// The Rust name of a WGSL `const`: its own when SCREAMING_CASE (the convention), else that case.
pub fn const_name(wgsl: &str) -> String {
    upper_snake(wgsl)
}

/// `pub const NAME: T = value;` for one WGSL `const`.
fn const_tokens(c: &ConstDef) -> TokenStream {
    let name = proc_macro2::Ident::new(&const_name(&c.name), proc_macro2::Span::call_site());
    let ty = scalar_tokens(c.ty);
    let value = &c.value;
    let doc = format!("WGSL `const {}: {}`, as naga evaluated it.", c.name, c.ty.wgsl_name());
    quote! { #[doc = #doc] pub const #name: #ty = #value; }
}

/// The Rust scalar type.
pub fn scalar_tokens(s: ScalarType) -> TokenStream {
    match s {
        ScalarType::U32 => quote!(u32),
        ScalarType::I32 => quote!(i32),
        ScalarType::F32 => quote!(f32),
        ScalarType::F16 => quote!(::half::f16),
        ScalarType::Bool => quote!(bool),
    }
}

/// The Rust type of a host type.
pub fn host_type_tokens(t: &HostType) -> TokenStream {
    match t {
        HostType::Scalar(s) => scalar_tokens(*s),
        HostType::Array(elem, n) => {
            let elem = host_type_tokens(elem);
            let n = *n as usize;
            quote!([#elem; #n])
        }
        HostType::Struct(name) => {
            let ident = crate::names::type_ident(name);
            quote!(#ident)
        }
    }
}
