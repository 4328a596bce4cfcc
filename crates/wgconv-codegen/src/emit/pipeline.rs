//! Shader module, pipeline layout, entry points with their workgroup sizes, and compute pipelines.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use super::bindings::{group_type, groups};
use crate::{
    model::{EntryPointDef, ShaderDef, WorkgroupDim, WorkgroupVarSize},
    names::{lower_snake, upper_snake, variant_ident},
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
                // An override typed by inference (`override wg = 64;`) is an i32; a negative size
                // (a pipeline wgpu rejects anyway) reads as 0 rather than wrapping.
                WorkgroupDim::Expr(e) => quote!(::core::convert::TryFrom::try_from(#e).unwrap_or(0u32)),
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
        entry_items.extend(workgroup_memory_tokens(ep));
        let create = Ident::new(&format!("create_{}_pipeline", lower_snake(name)), Span::call_site());
        let try_create = Ident::new(&format!("try_create_{}_pipeline", lower_snake(name)), Span::call_site());
        let doc = format!(
            "Creates the compute pipeline of `{name}` with an explicit layout and typed overrides (on a device without [`required_features`], wgpu's validation fails: [`{try_create}`] says so first)."
        );
        let try_doc = format!(
            "[`{create}`], or [`MissingFeatures`] naming what the device lacks (checked before wgpu sees the pipeline)."
        );
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
                        ..::core::default::Default::default()
                    },
                    cache: None,
                })
            }

            #[doc = #try_doc]
            pub fn #try_create(
                device: &::wgpu::Device,
                module: &::wgpu::ShaderModule,
                layout: &::wgpu::PipelineLayout,
                overrides: &Overrides,
            ) -> ::core::result::Result<::wgpu::ComputePipeline, MissingFeatures> {
                check_features(device)?;
                Ok(#create(device, module, layout, overrides))
            }
        });
    }

    let (entry_list, entry_enum) = entry_list_tokens(def);
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
                // (A shader without bindings has no layout to create.)
                let _ = device;
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
        #entry_list
        #entry_enum
    }
}

/// `{ENTRY}_WORKGROUP_MEMORY_BYTES`, or `{entry}_workgroup_memory_bytes(o)` when an override
/// sizes one of the arrays. Each variable counts rounded up to 16 bytes, as WebGPU's
/// `maxComputeWorkgroupStorageSize` limit counts them.
fn workgroup_memory_tokens(ep: &EntryPointDef) -> TokenStream {
    let name = &ep.name;
    let fixed: u32 = ep
        .workgroup_vars
        .iter()
        .filter_map(|v| match v.size {
            WorkgroupVarSize::Fixed(bytes) => Some(bytes.next_multiple_of(16)),
            WorkgroupVarSize::PerElement { .. } => None,
        })
        .sum();
    let terms: Vec<TokenStream> = ep
        .workgroup_vars
        .iter()
        .filter_map(|v| match &v.size {
            WorkgroupVarSize::Fixed(_) => None,
            // The length override may be signed (an inferred `override n = 64;` is an i32); a
            // negative length (an invalid pipeline) counts as 0.
            WorkgroupVarSize::PerElement { stride, count } => Some(quote!(
                (#stride * <u32 as ::core::convert::TryFrom<_>>::try_from(#count).unwrap_or(0u32)).next_multiple_of(16)
            )),
        })
        .collect();
    let vars = if ep.workgroup_vars.is_empty() {
        "none".to_string()
    } else {
        ep.workgroup_vars.iter().map(|v| format!("`{}: {}`", v.name, v.wgsl_type)).collect::<Vec<_>>().join(", ")
    };
    if terms.is_empty() {
        let c = Ident::new(&format!("{}_WORKGROUP_MEMORY_BYTES", upper_snake(name)), Span::call_site());
        let doc = format!("Bytes of workgroup memory `{name}` declares (the `var<workgroup>`s it uses: {vars}).");
        quote! { #[doc = #doc] pub const #c: u32 = #fixed; }
    } else {
        let f = Ident::new(&format!("{}_workgroup_memory_bytes", lower_snake(name)), Span::call_site());
        let doc = format!(
            "Bytes of workgroup memory `{name}` declares at these overrides (the `var<workgroup>`s it uses: {vars})."
        );
        quote! {
            #[doc = #doc]
            #[allow(unused_parens, clippy::all)]
            pub fn #f(o: &Overrides) -> u32 { #fixed #(+ #terms)* }
        }
    }
}

/// `ENTRY_POINTS` (every entry point's name) and, when the shader has compute entry points,
/// the `Entry` enum that picks one by value.
fn entry_list_tokens(def: &ShaderDef) -> (TokenStream, TokenStream) {
    let names: Vec<&str> = def.entry_points.iter().map(|e| e.name.as_str()).collect();
    let count = names.len();
    let list = quote! {
        /// Names of every entry point, in declaration order.
        pub const ENTRY_POINTS: [&str; #count] = [#(#names),*];
    };
    let compute: Vec<&EntryPointDef> = def.entry_points.iter().filter(|e| e.stage == "compute").collect();
    if compute.is_empty() {
        return (list, TokenStream::new());
    }
    let variants = entry_variants(def);
    let count = compute.len();
    let mut docs = Vec::new();
    let mut names = Vec::new();
    let mut sizes = Vec::new();
    let mut memory = Vec::new();
    let mut creates = Vec::new();
    for ep in &compute {
        let name = &ep.name;
        let upper = upper_snake(name);
        let lower = lower_snake(name);
        docs.push(format!("The compute entry point `{name}`."));
        let entry_const = Ident::new(&format!("{upper}_ENTRY"), Span::call_site());
        names.push(quote!(#entry_const));
        sizes.push(if ep.workgroup_size.iter().any(|d| matches!(d, WorkgroupDim::Expr(_))) {
            let f = Ident::new(&format!("{lower}_workgroup_size"), Span::call_site());
            quote!(#f(o))
        } else {
            let c = Ident::new(&format!("{upper}_WORKGROUP_SIZE"), Span::call_site());
            quote!(#c)
        });
        memory.push(if ep.workgroup_vars.iter().any(|v| matches!(v.size, WorkgroupVarSize::PerElement { .. })) {
            let f = Ident::new(&format!("{lower}_workgroup_memory_bytes"), Span::call_site());
            quote!(#f(o))
        } else {
            let c = Ident::new(&format!("{upper}_WORKGROUP_MEMORY_BYTES"), Span::call_site());
            quote!(#c)
        });
        let f = Ident::new(&format!("create_{lower}_pipeline"), Span::call_site());
        creates.push(quote!(#f));
    }
    let v = &variants;
    let enum_doc = format!("The compute entry points of `{}`, to pick one by value.", def.path);
    let entry = quote! {
        #[doc = #enum_doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        // The variants are the WGSL entry points' names, whatever they share.
        #[allow(clippy::enum_variant_names)]
        pub enum Entry {
            #(#[doc = #docs] #v,)*
        }

        impl Entry {
            /// Every compute entry point, in declaration order.
            pub const ALL: [Entry; #count] = [#(Entry::#v),*];

            /// The WGSL name.
            pub const fn name(self) -> &'static str {
                match self { #(Entry::#v => #names,)* }
            }

            /// The entry point called `name`, if it is a compute entry point of this shader.
            pub fn from_name(name: &str) -> ::core::option::Option<Self> {
                Self::ALL.into_iter().find(|e| e.name() == name)
            }

            /// Its workgroup size at these overrides.
            pub fn workgroup_size(self, o: &Overrides) -> [u32; 3] {
                let _ = o;
                match self { #(Entry::#v => #sizes,)* }
            }

            /// Bytes of workgroup memory it declares at these overrides.
            pub fn workgroup_memory_bytes(self, o: &Overrides) -> u32 {
                let _ = o;
                match self { #(Entry::#v => #memory,)* }
            }

            /// Creates its compute pipeline (as the `create_*_pipeline` function of the entry point).
            pub fn create_pipeline(
                self,
                device: &::wgpu::Device,
                module: &::wgpu::ShaderModule,
                layout: &::wgpu::PipelineLayout,
                overrides: &Overrides,
            ) -> ::wgpu::ComputePipeline {
                match self { #(Entry::#v => #creates(device, module, layout, overrides),)* }
            }
        }
    };
    (list, entry)
}

/// The `Entry` variant of each compute entry point (distinct, as `check_names` rejected entry
/// points whose generated names meet).
fn entry_variants(def: &ShaderDef) -> Vec<Ident> {
    def.entry_points.iter().filter(|e| e.stage == "compute").map(|e| variant_ident(&e.name)).collect()
}
