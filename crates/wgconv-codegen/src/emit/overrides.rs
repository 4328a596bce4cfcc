//! `Overrides`: one typed field per WGSL `override`, and the constants list wgpu takes.

use proc_macro2::TokenStream;
use quote::quote;

use super::scalar_tokens;
use crate::{
    model::{OverrideDef, ScalarType, ShaderDef},
    names::field_ident,
};

/// Whether an override is kept as `Option` (its default is computed by the shader from others).
fn is_optional(o: &OverrideDef) -> bool {
    o.default.is_some() && o.default_depends_on_overrides
}

pub fn overrides_tokens(def: &ShaderDef) -> TokenStream {
    let path = &def.path;
    let mut fields = Vec::new();
    let mut params = Vec::new();
    let mut inits = Vec::new();
    let mut getters = Vec::new();
    let mut pushes = Vec::new();
    let mut optional_pushes = Vec::new();
    for o in &def.overrides {
        let field = field_ident(&o.name);
        let ty = scalar_tokens(o.ty);
        let key = o.key();
        let id_note = o.id.map_or_else(String::new, |id| format!(" (`@id({id})`)"));
        let value_to_f64 = |v: TokenStream| match o.ty {
            ScalarType::Bool => quote!(if #v { 1.0 } else { 0.0 }),
            ScalarType::F16 => quote!(f64::from(#v)),
            _ => quote!(f64::from(#v)),
        };
        if is_optional(o) {
            let default = o.default.as_ref().expect("optional implies a default");
            let doc = format!(
                "WGSL `override {}: {}`{id_note}; `None` leaves the shader's own default, computed from other overrides.",
                o.name,
                o.ty.wgsl_name()
            );
            fields.push(quote! { #[doc = #doc] pub #field: ::core::option::Option<#ty> });
            inits.push(quote! { #field: None });
            let getter_doc = format!("The value `{}` takes: the one set, else the WGSL default.", o.name);
            getters.push(quote! {
                #[doc = #getter_doc]
                #[allow(unused_parens, clippy::all)]
                pub fn #field(&self) -> #ty {
                    let o = self;
                    o.#field.unwrap_or_else(|| #default)
                }
            });
            let v = value_to_f64(quote!(v));
            optional_pushes.push(quote! { if let Some(v) = self.#field { constants.push((#key, #v)); } });
        } else {
            let doc = match &o.default {
                Some(_) => format!(
                    "WGSL `override {}: {}`{id_note}, defaulting to the WGSL initializer.",
                    o.name,
                    o.ty.wgsl_name()
                ),
                None => format!(
                    "WGSL `override {}: {}`{id_note}; it has no default, so it is required.",
                    o.name,
                    o.ty.wgsl_name()
                ),
            };
            fields.push(quote! { #[doc = #doc] pub #field: #ty });
            match &o.default {
                Some(default) => inits.push(quote! { #field: #default }),
                None => {
                    params.push(quote! { #field: #ty });
                    inits.push(quote! { #field });
                }
            }
            let getter_doc = format!("The value of `{}`.", o.name);
            getters.push(quote! {
                #[doc = #getter_doc]
                pub fn #field(&self) -> #ty { self.#field }
            });
            let v = value_to_f64(quote!(self.#field));
            pushes.push(quote! { (#key, #v) });
        }
    }
    let doc = format!("Pipeline-overridable constants of `{path}`.");
    let new_doc = if params.is_empty() {
        "All overrides at their WGSL defaults.".to_string()
    } else {
        "Overrides without a WGSL default are arguments; the rest take their WGSL defaults.".to_string()
    };
    let default_impl = params.is_empty().then(|| {
        quote! {
            impl ::core::default::Default for Overrides {
                fn default() -> Self { Self::new() }
            }
        }
    });
    let constants_mut = if optional_pushes.is_empty() { quote!() } else { quote!(mut) };
    // Fields and getters keep the WGSL names (`tileWidth`), so they read like the shader.
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq)]
        #[allow(non_snake_case)]
        pub struct Overrides {
            #(#fields,)*
        }

        #[allow(non_snake_case)]
        impl Overrides {
            #[doc = #new_doc]
            #[allow(unused_parens, clippy::all)]
            pub fn new(#(#params),*) -> Self {
                Self { #(#inits,)* }
            }

            #(#getters)*

            /// `(key, value)` pairs for `wgpu::PipelineCompilationOptions::constants`, keyed by `@id` or name.
            pub fn constants(&self) -> ::std::vec::Vec<(&'static str, f64)> {
                let #constants_mut constants = vec![#(#pushes),*];
                #(#optional_pushes)*
                constants
            }
        }

        #default_impl
    }
}
