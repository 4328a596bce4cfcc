//! One typed bind-group struct per `@group`: a named field per binding, layout entries with
//! `min_binding_size`, and helpers creating the layout and the bind group.

use std::collections::BTreeMap;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::{
    model::{BindingDef, BufferKind, ShaderDef},
    names::field_ident,
};

/// `BindGroup{g}`
pub fn group_type(group: u32) -> Ident {
    format_ident!("BindGroup{}", group)
}

/// The bindings grouped by `@group`, in order.
pub fn groups(def: &ShaderDef) -> BTreeMap<u32, Vec<&BindingDef>> {
    let mut map: BTreeMap<u32, Vec<&BindingDef>> = BTreeMap::new();
    for b in &def.bindings {
        map.entry(b.group).or_default().push(b);
    }
    map
}

/// A binding's field doc, field type, layout `BindingType` and `BindingResource`.
fn binding_parts(b: &BindingDef, field: &Ident) -> (String, TokenStream, TokenStream, TokenStream) {
    let path = |text: &str| -> TokenStream { text.parse().expect("a wgpu variant name parses") };
    let buffer = |space: &str, kind: TokenStream| {
        let min = b.min_size;
        (
            format!("`@binding({}) var<{space}> {}: {}` — at least {min} bytes.", b.binding, b.name, b.wgsl_type),
            quote!(::wgpu::BufferBinding<'a>),
            quote!(::wgpu::BindingType::Buffer {
                ty: #kind,
                has_dynamic_offset: false,
                min_binding_size: ::core::num::NonZeroU64::new(#min),
            }),
            quote!(::wgpu::BindingResource::Buffer(self.#field.clone())),
        )
    };
    let handle_doc = format!("`@binding({}) var {}: {}`.", b.binding, b.name, b.wgsl_type);
    match b.kind {
        BufferKind::Uniform => buffer("uniform", quote!(::wgpu::BufferBindingType::Uniform)),
        BufferKind::StorageReadOnly => {
            buffer("storage, read", quote!(::wgpu::BufferBindingType::Storage { read_only: true }))
        }
        BufferKind::StorageReadWrite => {
            buffer("storage, read_write", quote!(::wgpu::BufferBindingType::Storage { read_only: false }))
        }
        BufferKind::Texture { sample_type, view_dimension, multisampled } => {
            let (sample_type, view_dimension) = (path(sample_type), path(view_dimension));
            (
                handle_doc,
                quote!(&'a ::wgpu::TextureView),
                quote!(::wgpu::BindingType::Texture {
                    sample_type: ::wgpu::TextureSampleType::#sample_type,
                    view_dimension: ::wgpu::TextureViewDimension::#view_dimension,
                    multisampled: #multisampled,
                }),
                quote!(::wgpu::BindingResource::TextureView(self.#field)),
            )
        }
        BufferKind::StorageTexture { access, format, view_dimension } => {
            // Storage formats are plain variants of `wgpu::TextureFormat` (`Rgba8Unorm`).
            let format = format!("{:?}", wgpu_naga_bridge::map_storage_format_from_naga(format));
            let (access, format, view_dimension) = (path(access), path(&format), path(view_dimension));
            (
                handle_doc,
                quote!(&'a ::wgpu::TextureView),
                quote!(::wgpu::BindingType::StorageTexture {
                    access: ::wgpu::StorageTextureAccess::#access,
                    format: ::wgpu::TextureFormat::#format,
                    view_dimension: ::wgpu::TextureViewDimension::#view_dimension,
                }),
                quote!(::wgpu::BindingResource::TextureView(self.#field)),
            )
        }
        BufferKind::Sampler(kind) => {
            let kind = path(kind);
            (
                handle_doc,
                quote!(&'a ::wgpu::Sampler),
                quote!(::wgpu::BindingType::Sampler(::wgpu::SamplerBindingType::#kind)),
                quote!(::wgpu::BindingResource::Sampler(self.#field)),
            )
        }
    }
}

pub fn bind_group_tokens(def: &ShaderDef) -> TokenStream {
    let mut out = TokenStream::new();
    for (group, bindings) in groups(def) {
        let ty = group_type(group);
        let count = bindings.len();
        let mut fields = Vec::new();
        let mut entries = Vec::new();
        let mut resources = Vec::new();
        for b in &bindings {
            let field = field_ident(&b.name);
            let binding = b.binding;
            let mut names = b.stages.iter().map(|s| Ident::new(s, Span::call_site()));
            let stages = match names.next() {
                None => quote!(::wgpu::ShaderStages::NONE),
                Some(first) => {
                    quote!(::wgpu::ShaderStages::#first #(.union(::wgpu::ShaderStages::#names))*)
                }
            };
            let (doc, field_type, ty, resource) = binding_parts(b, &field);
            fields.push(quote! { #[doc = #doc] pub #field: #field_type });
            entries.push(quote! {
                ::wgpu::BindGroupLayoutEntry { binding: #binding, visibility: #stages, ty: #ty, count: None }
            });
            resources.push(quote! { ::wgpu::BindGroupEntry { binding: #binding, resource: #resource } });
        }
        let doc = format!(
            "Resources of `@group({group})` in `{}`, one field per binding, so a missing or extra binding does not compile.",
            def.path
        );
        let label = format!("{} group {group}", def.path);
        out.extend(quote! {
            #[doc = #doc]
            #[derive(Clone, Debug)]
            // One field per binding, named as in the WGSL (`particleStates`).
            #[allow(non_snake_case)]
            pub struct #ty<'a> {
                #(#fields,)*
            }

            #[allow(non_snake_case)]
            impl<'a> #ty<'a> {
                /// Layout entries derived from the WGSL declarations.
                pub const LAYOUT_ENTRIES: [::wgpu::BindGroupLayoutEntry; #count] = [#(#entries),*];

                /// Creates the bind group layout of this group.
                pub fn create_layout(device: &::wgpu::Device) -> ::wgpu::BindGroupLayout {
                    device.create_bind_group_layout(&::wgpu::BindGroupLayoutDescriptor {
                        label: Some(#label),
                        entries: &Self::LAYOUT_ENTRIES,
                    })
                }

                /// Creates a bind group from these resources.
                pub fn create(&self, device: &::wgpu::Device, layout: &::wgpu::BindGroupLayout) -> ::wgpu::BindGroup {
                    device.create_bind_group(&::wgpu::BindGroupDescriptor {
                        label: Some(#label),
                        layout,
                        entries: &[#(#resources),*],
                    })
                }
            }
        });
    }
    out
}
