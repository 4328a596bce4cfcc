//! Texture, storage-texture and sampler bindings from the generated module of
//! `tests/fixtures/shaders/textures.wgsl`: wgpu accepts its layouts, bind groups built from
//! real views and samplers, and its compute pipeline, and the compute entry point reads a
//! texture array layer and writes a storage texture with the values put there.

use wgconv_tests::{generated::textures as shader, read_back, test_device};

fn texture(
    device: &wgpu::Device,
    format: wgpu::TextureFormat,
    layers: u32,
    samples: u32,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: wgpu::Extent3d { width: 8, height: 8, depth_or_array_layers: layers },
        mip_level_count: 1,
        sample_count: samples,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    })
}

fn view(texture: &wgpu::Texture, dimension: wgpu::TextureViewDimension) -> wgpu::TextureView {
    texture.create_view(&wgpu::TextureViewDescriptor { dimension: Some(dimension), ..Default::default() })
}

#[test]
fn texture_bindings_validate_and_run() {
    let (device, queue) = test_device();
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let sampled = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
    // r32float: bindable only because `source` is never sampled with a filtering sampler.
    let source = texture(&device, wgpu::TextureFormat::R32Float, 1, 1, sampled);
    let layers = texture(&device, wgpu::TextureFormat::R32Uint, 2, 1, sampled);
    let target = texture(&device, wgpu::TextureFormat::Rgba8Unorm, 1, 1, wgpu::TextureUsages::STORAGE_BINDING);
    let shadow = texture(&device, wgpu::TextureFormat::Depth32Float, 1, 1, wgpu::TextureUsages::TEXTURE_BINDING);
    let sky = texture(&device, wgpu::TextureFormat::Rgba8Unorm, 6, 1, wgpu::TextureUsages::TEXTURE_BINDING);
    let msaa_usage = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT;
    let msaa = texture(&device, wgpu::TextureFormat::Rgba8Unorm, 1, 4, msaa_usage);
    let counts = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("counts"),
        size: 4 * 8,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let color_sampler = device.create_sampler(&wgpu::SamplerDescriptor::default());
    let shadow_sampler = device
        .create_sampler(&wgpu::SamplerDescriptor { compare: Some(wgpu::CompareFunction::Less), ..Default::default() });

    // Layer 1 of the array holds 100 + x at (x, 0).
    let values: Vec<u32> = (0..64).map(|i| 100 + (i % 8)).collect();
    queue.write_texture(
        wgpu::TexelCopyTextureInfo {
            texture: &layers,
            mip_level: 0,
            origin: wgpu::Origin3d { x: 0, y: 0, z: 1 },
            aspect: wgpu::TextureAspect::All,
        },
        bytemuck::cast_slice(&values),
        wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(32), rows_per_image: Some(8) },
        wgpu::Extent3d { width: 8, height: 8, depth_or_array_layers: 1 },
    );

    let layouts = shader::BindGroupLayouts::new(&device);
    let (source_view, layers_view, target_view) = (
        view(&source, wgpu::TextureViewDimension::D2),
        view(&layers, wgpu::TextureViewDimension::D2Array),
        view(&target, wgpu::TextureViewDimension::D2),
    );
    let group0 = shader::BindGroup0 {
        source: &source_view,
        layers: &layers_view,
        target_image: &target_view,
        counts: counts.as_entire_buffer_binding(),
    }
    .create(&device, &layouts.group0);
    let (shadow_view, sky_view, msaa_view) = (
        view(&shadow, wgpu::TextureViewDimension::D2),
        view(&sky, wgpu::TextureViewDimension::Cube),
        view(&msaa, wgpu::TextureViewDimension::D2),
    );
    let group1 = shader::BindGroup1 {
        color_sampler: &color_sampler,
        shadow_map: &shadow_view,
        shadow_sampler: &shadow_sampler,
        sky: &sky_view,
        msaa: &msaa_view,
    }
    .create(&device, &layouts.group1);
    let module = shader::create_shader_module(&device);
    let layout = shader::create_pipeline_layout(&device, &layouts);
    let pipeline = shader::try_create_blit_pipeline(&device, &module, &layout, &shader::Overrides::new()).unwrap();

    // The fragment entry point against group 1's layout, through a render pipeline.
    let _render = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("textures.wgsl:shade"),
        layout: Some(&layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some(shader::FULL_SCREEN_ENTRY),
            compilation_options: Default::default(),
            buffers: &[],
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some(shader::SHADE_ENTRY),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::TextureFormat::Rgba8Unorm.into())],
        }),
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        multiview_mask: None,
        cache: None,
    });

    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group0, &[]);
        pass.set_bind_group(1, &group1, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }
    queue.submit([encoder.finish()]);
    let error = pollster::block_on(scope.pop());
    assert!(error.is_none(), "wgpu rejected the generated bindings: {error:?}");

    // counts[x] = layer 1 at (x, y) for the row the last writer had: 100 + x either way.
    let got: Vec<u32> = bytemuck::cast_slice(&read_back(&device, &queue, &counts)).to_vec();
    assert_eq!(got, (100..108).collect::<Vec<u32>>());
    // Every entry as wgpu needs it; group 0 is used by compute, group 1 by the fragment stage.
    use wgpu::{BindingType as B, TextureSampleType as S, TextureViewDimension as D};
    let texture = |sample_type, view_dimension, multisampled| B::Texture { sample_type, view_dimension, multisampled };
    let group0: Vec<_> = shader::BindGroup0::LAYOUT_ENTRIES.iter().map(|e| (e.ty, e.visibility)).collect();
    let compute = wgpu::ShaderStages::COMPUTE;
    assert_eq!(group0[0], (texture(S::Float { filterable: false }, D::D2, false), compute));
    assert_eq!(group0[1], (texture(S::Uint, D::D2Array, false), compute));
    let storage = B::StorageTexture {
        access: wgpu::StorageTextureAccess::WriteOnly,
        format: wgpu::TextureFormat::Rgba8Unorm,
        view_dimension: D::D2,
    };
    assert_eq!(group0[2], (storage, compute));
    let group1: Vec<_> = shader::BindGroup1::LAYOUT_ENTRIES.iter().map(|e| (e.ty, e.visibility)).collect();
    let fragment = wgpu::ShaderStages::FRAGMENT;
    assert_eq!(
        group1,
        [
            (B::Sampler(wgpu::SamplerBindingType::Filtering), fragment),
            (texture(S::Depth, D::D2, false), fragment),
            (B::Sampler(wgpu::SamplerBindingType::Comparison), fragment),
            (texture(S::Float { filterable: true }, D::Cube, false), fragment),
            (texture(S::Float { filterable: false }, D::D2, true), fragment),
        ]
    );
}
