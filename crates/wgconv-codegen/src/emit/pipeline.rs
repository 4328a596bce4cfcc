//! Shader module, pipeline layout, entry points with their workgroup sizes, and compute pipelines.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use super::bindings::{group_type, groups};
use crate::{
    model::{ShaderDef, WorkgroupDim},
    names::{lower_snake, upper_snake},
};

pub fn pipeline_tokens(def: &ShaderDef) -> TokenStream {
    let path = &def.path;
    let groups = groups(def);
    let layout_fields: Vec<Ident> = groups.keys().map(|g| format_ident!("group{}", g)).collect();
    let group_types: Vec<Ident> = groups.keys().map(|g| group_type(*g)).collect();
    let max_group = groups.keys().next_back().map_or(0, |g| g + 1);
    let slots = (0..max_group).map(|g| {
        if groups.contains_key(&g) {
            let f = format_ident!("group{}", g);
            quote!(Some(&layouts.#f))
        } else {
            quote!(None)
        }
    });
    let layout_docs = groups.keys().map(|g| format!("Layout of `@group({g})`."));

    let mut entry_items = TokenStream::new();
    for ep in &def.entry_points {
        let name = &ep.name;
        let upper = upper_snake(name);
        let entry_const = Ident::new(&format!("{upper}_ENTRY"), Span::call_site());
        let entry_doc = format!("Name of the {} entry point `{name}`.", ep.stage);
        entry_items.extend(quote! { #[doc = #entry_doc] pub const #entry_const: &str = #name; });
        if ep.stage != "compute" {
            continue;
        }
        let uses_overrides = ep.workgroup_size.iter().any(|d| matches!(d, WorkgroupDim::Expr(_)));
        if uses_overrides {
            let f = Ident::new(&format!("{}_workgroup_size", lower_snake(name)), Span::call_site());
            let dims = ep.workgroup_size.iter().map(|d| match d {
                WorkgroupDim::Fixed(v) => quote!(#v),
                WorkgroupDim::Expr(e) => quote!(#e),
            });
            let doc = format!("Workgroup size of `{name}`, evaluated from the overrides it depends on.");
            entry_items.extend(quote! {
                #[doc = #doc]
                #[allow(unused_parens, clippy::all)]
                pub fn #f(o: &Overrides) -> [u32; 3] { [#(#dims),*] }
            });
        } else {
            let c = Ident::new(&format!("{upper}_WORKGROUP_SIZE"), Span::call_site());
            let dims = ep.workgroup_size.iter().map(|d| match d {
                WorkgroupDim::Fixed(v) => *v,
                WorkgroupDim::Expr(_) => unreachable!(),
            });
            let doc = format!("Workgroup size of `{name}`.");
            entry_items.extend(quote! { #[doc = #doc] pub const #c: [u32; 3] = [#(#dims),*]; });
        }
        let create = Ident::new(&format!("create_{}_pipeline", lower_snake(name)), Span::call_site());
        let doc = format!("Creates the compute pipeline of `{name}` with an explicit layout and typed overrides.");
        let label = format!("{path}:{name}");
        entry_items.extend(quote! {
            #[doc = #doc]
            pub fn #create(
                device: &::wgpu::Device,
                module: &::wgpu::ShaderModule,
                layout: &::wgpu::PipelineLayout,
                overrides: &Overrides,
            ) -> ::wgpu::ComputePipeline {
                let constants = overrides.constants();
                device.create_compute_pipeline(&::wgpu::ComputePipelineDescriptor {
                    label: Some(#label),
                    layout: Some(layout),
                    module,
                    entry_point: Some(#entry_const),
                    compilation_options: ::wgpu::PipelineCompilationOptions {
                        constants: &constants,
                        ..Default::default()
                    },
                    cache: None,
                })
            }
        });
    }

    quote! {
        /// Creates the shader module from [`SOURCE`].
        pub fn create_shader_module(device: &::wgpu::Device) -> ::wgpu::ShaderModule {
            device.create_shader_module(::wgpu::ShaderModuleDescriptor {
                label: Some(PATH),
                source: ::wgpu::ShaderSource::Wgsl(::std::borrow::Cow::Borrowed(SOURCE)),
            })
        }

        /// The bind group layouts of every `@group` the shader declares.
        #[derive(Debug)]
        pub struct BindGroupLayouts {
            #(#[doc = #layout_docs] pub #layout_fields: ::wgpu::BindGroupLayout,)*
        }

        impl BindGroupLayouts {
            /// Creates every layout.
            pub fn new(device: &::wgpu::Device) -> Self {
                Self { #(#layout_fields: #group_types::create_layout(device),)* }
            }
        }

        /// Creates the pipeline layout from the bind group layouts.
        pub fn create_pipeline_layout(device: &::wgpu::Device, layouts: &BindGroupLayouts) -> ::wgpu::PipelineLayout {
            let _ = layouts;
            device.create_pipeline_layout(&::wgpu::PipelineLayoutDescriptor {
                label: Some(PATH),
                bind_group_layouts: &[#(#slots),*],
                immediate_size: 0,
            })
        }

        #entry_items
    }
}
