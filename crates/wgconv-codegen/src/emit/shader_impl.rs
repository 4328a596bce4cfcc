//! The opt-in `impl <runtime trait> for Shader`: what lets a runtime record any generated shader
//! through one generic function (see [`crate::Options::shader_trait`] for the items it provides).

use proc_macro2::TokenStream;
use quote::quote;

use super::bindings::groups;
use crate::{
    model::{BufferKind, ScalarType, ShaderDef},
    names::field_ident,
};

/// `pub struct Shader;` and its impl of `trait_path`. The caller checked the shader has compute
/// entry points and bindings in `@group(0)` only.
pub fn shader_impl_tokens(def: &ShaderDef, trait_path: &syn::Path) -> TokenStream {
    let group0 = groups(def).remove(&0).unwrap_or_default();
    let names: Vec<&str> = group0.iter().map(|b| b.name.as_str()).collect();
    let fields = group0.iter().map(|b| field_ident(&b.name));
    let field_names = names.clone();
    // The layout of the one uniform struct, so generic code can prove two shaders take the
    // same bytes (empty when the shader has no uniform, or more than one).
    let uniforms: Vec<_> = group0.iter().filter(|b| b.kind == BufferKind::Uniform).collect();
    let layout = match uniforms.as_slice() {
        [only] => def.structs.iter().find(|s| s.name == only.wgsl_type).map(|s| {
            s.members.iter().map(|m| {
                let (name, ty, offset) = (&m.name, &m.wgsl_type, m.offset);
                quote!((#name, #ty, #offset))
            })
        }),
        _ => None,
    }
    .into_iter()
    .flatten();
    // Optional overrides (defaults derived from others) hold `Some` once set.
    let u32_setters: Vec<TokenStream> = def
        .overrides
        .iter()
        .filter(|o| o.ty == ScalarType::U32)
        .map(|o| {
            let (name, field) = (&o.name, field_ident(&o.name));
            if o.default.is_some() && o.default_depends_on_overrides {
                quote!(#name => overrides.#field = Some(value))
            } else {
                quote!(#name => overrides.#field = value)
            }
        })
        .collect();
    let u32_names: Vec<&str> =
        def.overrides.iter().filter(|o| o.ty == ScalarType::U32).map(|o| o.name.as_str()).collect();
    let set_u32 = if u32_setters.is_empty() {
        quote! { let _ = (overrides, name, value); false }
    } else {
        quote! {
            match name {
                #(#u32_setters,)*
                _ => return false,
            }
            true
        }
    };
    let doc = format!("`{}` in generic code: implements `{}`.", def.path, path_text(trait_path));
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct Shader;

        impl #trait_path for Shader {
            const PATH: &'static str = PATH;
            const SOURCE: &'static str = SOURCE;
            const BINDINGS: &'static [&'static str] = &[#(#names),*];
            const UNIFORM_LAYOUT: &'static [(&'static str, &'static str, u32)] = &[#(#layout),*];
            const U32_OVERRIDES: &'static [&'static str] = &[#(#u32_names),*];
            type Overrides = Overrides;
            type Entry = Entry;
            type BindGroup<'a> = BindGroup0<'a>;

            fn set_u32(overrides: &mut Overrides, name: &str, value: u32) -> bool {
                #set_u32
            }

            fn entry_name(entry: Entry) -> &'static str {
                entry.name()
            }

            fn constants(overrides: &Overrides) -> ::std::vec::Vec<(&'static str, f64)> {
                overrides.constants()
            }

            fn workgroup_memory_bytes(entry: Entry, overrides: &Overrides) -> u32 {
                entry.workgroup_memory_bytes(overrides)
            }

            fn create_layouts(device: &::wgpu::Device) -> (::wgpu::BindGroupLayout, ::wgpu::PipelineLayout) {
                let layouts = BindGroupLayouts::new(device);
                let pipeline = create_pipeline_layout(device, &layouts);
                (layouts.group0, pipeline)
            }

            fn create_pipeline(
                device: &::wgpu::Device,
                module: &::wgpu::ShaderModule,
                layout: &::wgpu::PipelineLayout,
                entry: Entry,
                overrides: &Overrides,
            ) -> ::wgpu::ComputePipeline {
                entry.create_pipeline(device, module, layout, overrides)
            }

            fn create_bind_group(
                device: &::wgpu::Device,
                layout: &::wgpu::BindGroupLayout,
                group: &BindGroup0<'_>,
            ) -> ::wgpu::BindGroup {
                group.create(device, layout)
            }

            fn bind_group_with<'a>(
                mut binding: impl FnMut(&'static str) -> ::wgpu::BufferBinding<'a>,
            ) -> BindGroup0<'a> {
                BindGroup0 { #(#fields: binding(#field_names),)* }
            }
        }
    }
}

/// `a::b::C` without the spaces `to_string` puts around `::`.
fn path_text(path: &syn::Path) -> String {
    quote!(#path).to_string().replace(' ', "")
}
