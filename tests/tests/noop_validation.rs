//! Every module generated from `tests/fixtures/shaders/` (the generator's corpus: compute and
//! vertex/fragment entry points, textures of every dimension and sample type, samplers, storage
//! textures, atomics in storage and workgroup memory, workgroup arrays sized by overrides and by
//! expressions, runtime-sized arrays, f16 in uniforms, storage and overrides, overrides of every
//! type and expression form with ids, consts, camelCase and clashing names) checked by wgpu's own
//! validation on the no-op backend, on a device with just the module's `required_features()`:
//! the shader module, each bind group layout, a bind group of each built from the generated layout entries (buffers of exactly
//! `min_binding_size` bytes, textures and samplers of the declared kinds), the pipeline layout,
//! and every compute pipeline through the generated constructors (render pipelines by hand from
//! the generated pipeline layout). The modules themselves are compiled under `deny(warnings)`
//! (`tests/src/lib.rs`).

use wgconv_tests::generated;

/// A device on wgpu's no-op backend with `features` (a module's own `required_features()`, so
/// a feature the generator failed to list fails the check) and the adapter's limits. The no-op
/// adapter reports no format capabilities, so wgpu applies WebGPU's guaranteed ones.
fn noop_device(features: wgpu::Features) -> (wgpu::Device, wgpu::Queue) {
    let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle();
    descriptor.backends = wgpu::Backends::NOOP;
    descriptor.backend_options.noop = wgpu::NoopBackendOptions { enable: true, ..Default::default() };
    let instance = wgpu::Instance::new(descriptor);
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
        .expect("the no-op adapter");
    let descriptor = wgpu::DeviceDescriptor {
        required_features: features,
        required_limits: adapter.limits(),
        experimental_features: unsafe { wgpu::ExperimentalFeatures::enabled() },
        ..Default::default()
    };
    pollster::block_on(adapter.request_device(&descriptor)).expect("a no-op device")
}

/// A texture view of `dimension` (`sample_count` samples, `format`, `usage`).
fn texture_view(
    device: &wgpu::Device,
    dimension: wgpu::TextureViewDimension,
    format: wgpu::TextureFormat,
    sample_count: u32,
    usage: wgpu::TextureUsages,
) -> wgpu::TextureView {
    use wgpu::TextureViewDimension as D;
    let layers = match dimension {
        D::Cube => 6,
        D::CubeArray => 12,
        D::D2Array => 2,
        _ => 1,
    };
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: wgpu::Extent3d {
            width: 4,
            height: if dimension == D::D1 { 1 } else { 4 },
            depth_or_array_layers: layers,
        },
        mip_level_count: 1,
        sample_count,
        dimension: match dimension {
            D::D1 => wgpu::TextureDimension::D1,
            D::D3 => wgpu::TextureDimension::D3,
            _ => wgpu::TextureDimension::D2,
        },
        format,
        usage,
        view_formats: &[],
    });
    texture.create_view(&wgpu::TextureViewDescriptor { dimension: Some(dimension), ..Default::default() })
}

/// A bind group for `layout` from its generated `entries`: each buffer exactly its
/// `min_binding_size`, each texture and sampler of the declared kind.
fn bind_group(device: &wgpu::Device, layout: &wgpu::BindGroupLayout, entries: &[wgpu::BindGroupLayoutEntry]) {
    use wgpu::{BindingType as B, TextureSampleType as S};
    let mut buffers = Vec::new();
    let mut views = Vec::new();
    let mut samplers = Vec::new();
    for entry in entries {
        match entry.ty {
            B::Buffer { ty, min_binding_size, .. } => {
                let size = min_binding_size.expect("generated buffer entries state their minimum size").get();
                let usage = match ty {
                    wgpu::BufferBindingType::Uniform => wgpu::BufferUsages::UNIFORM,
                    wgpu::BufferBindingType::Storage { .. } => wgpu::BufferUsages::STORAGE,
                };
                buffers.push(device.create_buffer(&wgpu::BufferDescriptor {
                    label: None,
                    size,
                    usage,
                    mapped_at_creation: false,
                }));
            }
            B::Texture { sample_type, view_dimension, multisampled } => {
                // An unfilterable float entry gets a format that cannot be filtered, so a layout
                // that wrongly says "filterable" would not match it.
                let format = match sample_type {
                    S::Float { filterable: true } => wgpu::TextureFormat::Rgba8Unorm,
                    S::Float { filterable: false } => wgpu::TextureFormat::R32Float,
                    S::Depth => wgpu::TextureFormat::Depth32Float,
                    S::Sint => wgpu::TextureFormat::Rgba8Sint,
                    S::Uint => wgpu::TextureFormat::Rgba8Uint,
                };
                // Multisampled textures must be render attachments (and 1D and 3D ones cannot be).
                let usage = match multisampled {
                    true => wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT,
                    false => wgpu::TextureUsages::TEXTURE_BINDING,
                };
                views.push(texture_view(device, view_dimension, format, if multisampled { 4 } else { 1 }, usage));
            }
            B::StorageTexture { format, view_dimension, .. } => {
                views.push(texture_view(device, view_dimension, format, 1, wgpu::TextureUsages::STORAGE_BINDING));
            }
            B::Sampler(kind) => {
                let compare = (kind == wgpu::SamplerBindingType::Comparison).then_some(wgpu::CompareFunction::Less);
                samplers.push(device.create_sampler(&wgpu::SamplerDescriptor { compare, ..Default::default() }));
            }
            other => panic!("binding {} of a kind this test does not build: {other:?}", entry.binding),
        }
    }
    let (mut b, mut v, mut s) = (buffers.iter(), views.iter(), samplers.iter());
    let resources: Vec<wgpu::BindGroupEntry> = entries
        .iter()
        .map(|entry| wgpu::BindGroupEntry {
            binding: entry.binding,
            resource: match entry.ty {
                B::Buffer { .. } => b.next().unwrap().as_entire_binding(),
                B::Texture { .. } | B::StorageTexture { .. } => wgpu::BindingResource::TextureView(v.next().unwrap()),
                _ => wgpu::BindingResource::Sampler(s.next().unwrap()),
            },
        })
        .collect();
    let _ = device.create_bind_group(&wgpu::BindGroupDescriptor { label: None, layout, entries: &resources });
}

/// Runs `check` on a device with `features` inside a validation error scope and fails with wgpu's
/// message if any.
fn validated(name: &str, features: wgpu::Features, check: impl FnOnce(&wgpu::Device)) {
    let (device, _queue) = noop_device(features);
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    check(&device);
    if let Some(error) = pollster::block_on(scope.pop()) {
        panic!("{name}: wgpu's validation failed: {error}");
    }
}

/// The shader module, its layouts, a bind group per group, the pipeline layout and every compute
/// pipeline of generated module `$m` at overrides `$overrides` (its layouts' fields and bind
/// group types listed as `groupN => BindGroupN`); `$check` gets the device, shader
/// module and pipeline layout for whatever else the module has (render entry points).
macro_rules! check_module {
    ($m:ident, $overrides:expr, [$($group:ident => $bind_group:ident),*] $(, $check:expr)?) => {
        validated(stringify!($m), generated::$m::required_features(), |device| {
            use generated::$m as m;
            CHECKED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let shader = m::create_shader_module(device);
            let layouts = m::BindGroupLayouts::new(device);
            $(bind_group(device, &layouts.$group, &m::$bind_group::LAYOUT_ENTRIES);)*
            let layout = m::create_pipeline_layout(device, &layouts);
            let overrides = $overrides;
            for entry in m::Entry::ALL {
                entry.create_pipeline(device, &shader, &layout, &overrides);
            }
            $( ($check)(device, &shader, &layout); )?
        });
    };
}

/// Modules checked, against the generated `mod.rs`'s count: a new fixture must be added here.
static CHECKED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[test]
fn every_generated_module_passes_wgpus_validation() {
    check_module!(bare_compute, generated::bare_compute::Overrides::new(), []);
    check_module!(camel_case, generated::camel_case::Overrides::new(), [group0 => BindGroup0]);
    check_module!(layout_zoo, generated::layout_zoo::Overrides::new(), [group0 => BindGroup0]);
    check_module!(name_clashes, generated::name_clashes::Overrides::new(), [group0 => BindGroup0]);
    check_module!(override_expressions, generated::override_expressions::Overrides::new(), [group0 => BindGroup0]);
    // An override without a default must be given one.
    check_module!(overrides, generated::overrides::Overrides::new(4), [group0 => BindGroup0]);
    check_module!(storage_zoo, generated::storage_zoo::Overrides::new(), [group0 => BindGroup0, group1 => BindGroup1]);
    check_module!(workgroup_f16, generated::workgroup_f16::Overrides::new(), [group0 => BindGroup0]);
    check_module!(texture_kinds, generated::texture_kinds::Overrides::new(), [group0 => BindGroup0]);
    check_module!(
        textures,
        generated::textures::Overrides::new(),
        [group0 => BindGroup0, group1 => BindGroup1],
        |device: &wgpu::Device, shader: &wgpu::ShaderModule, layout: &wgpu::PipelineLayout| {
            use generated::textures as m;
            let _ = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("textures: full_screen + shade"),
                layout: Some(layout),
                vertex: wgpu::VertexState {
                    module: shader,
                    entry_point: Some(m::FULL_SCREEN_ENTRY),
                    compilation_options: Default::default(),
                    buffers: &[],
                },
                primitive: Default::default(),
                depth_stencil: None,
                multisample: Default::default(),
                fragment: Some(wgpu::FragmentState {
                    module: shader,
                    entry_point: Some(m::SHADE_ENTRY),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::TextureFormat::Rgba8Unorm.into())],
                }),
                multiview_mask: None,
                cache: None,
            });
        }
    );
    let generated_mod = include_str!("../src/generated/mod.rs");
    let modules = generated_mod.lines().filter(|l| l.starts_with("pub mod ")).count();
    assert_eq!(CHECKED.load(std::sync::atomic::Ordering::Relaxed), modules, "a generated module is not checked here");
}

/// The check has teeth: a bind group whose buffer is smaller than the generated minimum fails.
#[test]
fn a_buffer_under_the_minimum_size_fails_validation() {
    let (device, _queue) = noop_device(wgpu::Features::empty());
    use generated::storage_zoo as m;
    let layout = m::BindGroup1::create_layout(&device);
    let entry = m::BindGroup1::LAYOUT_ENTRIES[0];
    let wgpu::BindingType::Buffer { min_binding_size: Some(min), .. } = entry.ty else { panic!("a buffer entry") };
    let small = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: min.get() - 4,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let _ = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &layout,
        entries: &[wgpu::BindGroupEntry { binding: entry.binding, resource: small.as_entire_binding() }],
    });
    assert!(pollster::block_on(scope.pop()).is_some(), "a too-small buffer must fail");
}
