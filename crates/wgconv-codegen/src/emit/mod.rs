//! Rust emission: one file per generated concern, assembled by [`module_tokens`].

mod bindings;
mod overrides;
mod pipeline;
mod structs;

use proc_macro2::TokenStream;
use quote::quote;

use crate::model::{HostType, ScalarType, ShaderDef};

pub use structs::struct_tokens;

/// Tokens of a whole generated module (without the file header).
pub fn module_tokens(def: &ShaderDef) -> TokenStream {
    let path = &def.path;
    let source = &def.source;
    let structs = def.structs.iter().map(|s| struct_tokens(s, &def.structs, path));
    let overrides = overrides::overrides_tokens(def);
    let bindings = bindings::bind_group_tokens(def);
    let pipeline = pipeline::pipeline_tokens(def);
    quote! {
        /// Path of the WGSL this module was generated from, relative to the workspace root.
        pub const PATH: &str = #path;
        /// The WGSL source, embedded so the crate needs no files at run time.
        pub const SOURCE: &str = #source;
        #(#structs)*
        #overrides
        #bindings
        #pipeline
    }
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
