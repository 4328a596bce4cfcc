//! The generated `check_features` / `try_create_*_pipeline`: on a device without a feature the
//! shader needs (here `SHADER_F16` for `overrides.wgsl`), a typed error naming it, before wgpu
//! sees the pipeline; on a device that has it, the pipeline.

use wgconv_tests::generated::{overrides, storage_zoo};

#[test]
fn a_device_without_the_shaders_features_gets_a_typed_error() {
    let (device, _queue) = wgconv_tests::test_device(); // asks for no optional feature
    assert_eq!(overrides::required_features(), wgpu::Features::SHADER_F16);
    assert_eq!(overrides::REQUIRED_FEATURE_NAMES, ["SHADER_F16"]);
    let err = overrides::check_features(&device).unwrap_err();
    assert_eq!(err.missing, wgpu::Features::SHADER_F16);
    let text = err.to_string();
    assert!(text.contains("SHADER_F16") && text.contains("overrides.wgsl"), "{text}");

    // The module itself is refused before wgpu sees it; one made anyway (inside an error scope:
    // it is invalid here) gets its pipeline refused the same way.
    assert_eq!(overrides::try_create_shader_module(&device).unwrap_err(), err);
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let module = overrides::create_shader_module(&device);
    let layouts = overrides::BindGroupLayouts::new(&device);
    let layout = overrides::create_pipeline_layout(&device, &layouts);
    let _ = pollster::block_on(scope.pop());
    let o = overrides::Overrides::new(4);
    let refused = overrides::try_create_tiled_pipeline(&device, &module, &layout, &o).unwrap_err();
    assert_eq!(refused, err);

    // A shader that needs nothing is fine here.
    assert!(storage_zoo::check_features(&device).is_ok() && storage_zoo::required_features().is_empty());
}

#[test]
fn a_device_with_the_features_builds_the_pipeline() {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle());
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default())).unwrap();
    if !adapter.features().contains(wgpu::Features::SHADER_F16) {
        eprintln!("skipped: the adapter has no SHADER_F16");
        return;
    }
    let descriptor = wgpu::DeviceDescriptor { required_features: wgpu::Features::SHADER_F16, ..Default::default() };
    let (device, _queue) = pollster::block_on(adapter.request_device(&descriptor)).unwrap();
    assert!(overrides::missing_features(&device).is_empty());
    let module = overrides::create_shader_module(&device);
    let layouts = overrides::BindGroupLayouts::new(&device);
    let layout = overrides::create_pipeline_layout(&device, &layouts);
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let pipeline = overrides::try_create_tiled_pipeline(&device, &module, &layout, &overrides::Overrides::new(4));
    assert!(pipeline.is_ok());
    assert!(pollster::block_on(scope.pop()).is_none(), "wgpu rejected the pipeline");
}
