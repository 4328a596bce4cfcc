//! The device features a shader needs: `required_features()`, `missing_features(device)` and
//! the `MissingFeatures` error the `try_create_*_pipeline` constructors return.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::model::ShaderDef;

pub fn features_tokens(def: &ShaderDef) -> TokenStream {
    let path = &def.path;
    let names = &def.required_features;
    let flags = names.iter().map(|n| Ident::new(n, Span::call_site()));
    let listed = if names.is_empty() { "none".to_string() } else { names.join(", ") };
    let doc = format!("The `wgpu::Features` a device needs for `{path}`: {listed}.");
    quote! {
        /// Names of the `wgpu::Features` the shader needs, as wgpu spells them.
        pub const REQUIRED_FEATURE_NAMES: &[&str] = &[#(#names),*];

        #[doc = #doc]
        pub fn required_features() -> ::wgpu::Features {
            ::wgpu::Features::empty() #(| ::wgpu::Features::#flags)*
        }

        /// The required features `device` lacks (empty when it can run the shader).
        pub fn missing_features(device: &::wgpu::Device) -> ::wgpu::Features {
            let mut missing = required_features();
            missing.remove(device.features());
            missing
        }

        /// A pipeline of this shader asked of a device that lacks features it needs.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct MissingFeatures {
            /// The features the device lacks.
            pub missing: ::wgpu::Features,
        }

        impl ::core::fmt::Display for MissingFeatures {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                write!(f, "{} needs device features the device lacks: {:?}", PATH, self.missing)
            }
        }

        impl ::std::error::Error for MissingFeatures {}

        /// `Ok` when `device` has every feature the shader needs, else which it lacks.
        /// (Features named `EXPERIMENTAL_*` also need `wgpu::ExperimentalFeatures::enabled()`
        /// when the device is requested.)
        pub fn check_features(device: &::wgpu::Device) -> ::core::result::Result<(), MissingFeatures> {
            let missing = missing_features(device);
            if missing.is_empty() { Ok(()) } else { Err(MissingFeatures { missing }) }
        }

        /// [`create_shader_module`], or [`MissingFeatures`] before wgpu sees the source (on a
        /// device without them the module itself is invalid).
        pub fn try_create_shader_module(
            device: &::wgpu::Device,
        ) -> ::core::result::Result<::wgpu::ShaderModule, MissingFeatures> {
            check_features(device)?;
            Ok(create_shader_module(device))
        }
    }
}
