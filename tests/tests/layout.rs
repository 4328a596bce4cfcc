//! Layout rules of the generated structs (fixture shaders in `tests/fixtures/shaders/`), the
//! generated overrides and bind group layouts, and the generator's errors on bad input.

use std::mem::{offset_of, size_of};

use wgconv_codegen::CodegenError;
use wgconv_tests::generated::{layout_zoo, overrides, storage_zoo};

#[test]
fn uniform_struct_offsets_follow_wgsl() {
    use layout_zoo::{Inner, Zoo};
    // vec3 is 16-aligned; the f32 after it packs into its tail.
    assert_eq!(offset_of!(Zoo, scale), 16);
    assert_eq!(offset_of!(Zoo, bias), 28);
    // mat3x3<f32> is three 16-byte columns.
    assert_eq!(offset_of!(Zoo, m), 32);
    assert_eq!(size_of::<[[f32; 4]; 3]>(), 48);
    // Uniform arrays of vec4 have stride 16; a nested struct is 16-aligned in a uniform.
    assert_eq!(offset_of!(Zoo, taps), 80);
    assert_eq!(offset_of!(Zoo, inner), 112);
    assert_eq!(size_of::<Inner>(), 16);
    assert_eq!(offset_of!(Zoo, flags), 128);
    assert_eq!(offset_of!(Zoo, last), 136);
    // array<vec3<f32>, 2>: elements padded to 16 bytes.
    assert_eq!(offset_of!(Zoo, points), 144);
    assert_eq!(offset_of!(Zoo, m2), 176);
    assert_eq!(size_of::<Zoo>(), 192);
}

#[test]
fn storage_structs_atomics_and_runtime_arrays() {
    use storage_zoo::{Batch, BatchParticlesElement, Counters, Particle};
    assert_eq!(offset_of!(Particle, mass), 12);
    assert_eq!(offset_of!(Particle, velocity), 16);
    assert_eq!(size_of::<Particle>(), 32);
    // Atomics are plain integers on the host.
    let c = Counters::new(3, -4);
    assert_eq!(bytemuck::bytes_of(&c).len(), 8);
    // The sized prefix of a struct ending in a runtime array stops where the array starts.
    assert_eq!(offset_of!(Batch, origin), 16);
    assert_eq!(size_of::<Batch>(), 32);
    assert_eq!(size_of::<BatchParticlesElement>(), 32);
    // min_binding_size counts the prefix plus one element; bare runtime arrays one element.
    let group0 = storage_zoo::BindGroup0::LAYOUT_ENTRIES;
    let min = |e: &wgpu::BindGroupLayoutEntry| match e.ty {
        wgpu::BindingType::Buffer { min_binding_size, .. } => min_binding_size.map(|n| n.get()),
        _ => None,
    };
    assert_eq!(min(&group0[0]), Some(64));
    assert_eq!(min(&group0[1]), Some(8));
    assert_eq!(min(&storage_zoo::BindGroup1::LAYOUT_ENTRIES[0]), Some(32));
    assert!(matches!(
        group0[0].ty,
        wgpu::BindingType::Buffer { ty: wgpu::BufferBindingType::Storage { read_only: true }, .. }
    ));
    assert!(matches!(
        group0[1].ty,
        wgpu::BindingType::Buffer { ty: wgpu::BufferBindingType::Storage { read_only: false }, .. }
    ));
    assert_eq!(storage_zoo::STEP_WORKGROUP_SIZE, [64, 1, 1]);
}

#[test]
fn f16_members_and_overrides() {
    use overrides::{Half, Overrides};
    assert_eq!(offset_of!(Half, v), 4);
    assert_eq!(offset_of!(Half, w), 8);
    assert_eq!(size_of::<Half>(), 16);

    // `rows` has no default, so it is a constructor argument.
    let mut o = Overrides::new(3);
    assert_eq!((o.tile, o.rows, o.use_bias, o.gain), (8, 3, true, 1.5));
    // `doubled = tile * 2` follows `tile` until it is set explicitly.
    assert_eq!(o.doubled(), 16);
    assert_eq!(overrides::tiled_workgroup_size(&o), [8, 3, 1]);
    assert_eq!(overrides::flat_fill_workgroup_size(&o), [16, 1, 1]);
    o.tile = 1;
    assert_eq!(overrides::flat_fill_workgroup_size(&o), [4, 1, 1], "max(doubled, 4)");
    o.doubled = Some(32);
    assert_eq!(overrides::flat_fill_workgroup_size(&o), [32, 1, 1]);
    // Keys: `@id` when given, else the name; bools as 0/1; unset computed defaults are omitted.
    let constants = o.constants();
    assert_eq!(constants, vec![("7", 1.0), ("rows", 3.0), ("use_bias", 1.0), ("gain", 1.5), ("doubled", 32.0)]);
    o.doubled = None;
    assert!(!o.constants().iter().any(|(k, _)| *k == "doubled"));
}

#[test]
fn malformed_wgsl_reports_path_line_and_source() {
    let err = wgconv_codegen::generate("struct P {\n    a: u32\n    b: f32,\n}\n", "shaders/bad.wgsl").unwrap_err();
    assert!(matches!(err, CodegenError::Parse { .. }));
    let text = err.to_string();
    assert!(text.contains("shaders/bad.wgsl:3:5"), "{text}");
    assert!(text.contains("b: f32,"), "{text}");
}

#[test]
fn validation_enforces_uniform_layout_rules() {
    // A uniform array needs a 16-byte stride: array<f32, 4> is rejected by STRUCT_LAYOUTS.
    let wgsl = "struct P { taps: array<f32, 4> }
        @group(0) @binding(0) var<uniform> p: P;
        @group(0) @binding(1) var<storage, read_write> o: array<f32>;
        @compute @workgroup_size(1) fn main() { o[0] = p.taps[0]; }";
    let err = wgconv_codegen::generate(wgsl, "shaders/stride.wgsl").unwrap_err();
    assert!(matches!(err, CodegenError::Validation { .. }), "{err}");
    assert!(err.to_string().contains("shaders/stride.wgsl"), "{err}");
}

#[test]
fn unsupported_member_type_names_shader_struct_and_field() {
    let wgsl = "struct P { a: u32, wide: i64 }
        @group(0) @binding(0) var<storage, read_write> p: P;
        @compute @workgroup_size(1) fn main() { p.a = 1u; }";
    let err = wgconv_codegen::generate(wgsl, "shaders/wide.wgsl").unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, CodegenError::UnsupportedMemberType { .. }), "{text}");
    assert!(text.contains("shaders/wide.wgsl") && text.contains("`wide`") && text.contains("`P`"), "{text}");
}

#[test]
fn unsupported_binding_kind_is_an_error() {
    // Textures are generated now (tests/tests/texture_bindings.rs); external ones are not.
    let wgsl = "@group(0) @binding(0) var tex: texture_external;
        @group(0) @binding(1) var<storage, read_write> o: array<f32>;
        @compute @workgroup_size(1) fn main() { o[0] = textureLoad(tex, vec2<u32>(0, 0)).x; }";
    let err = wgconv_codegen::generate(wgsl, "shaders/tex.wgsl").unwrap_err();
    let text = err.to_string();
    assert!(text.contains("binding `tex` (group 0, binding 0)") && text.contains("texture_external"), "{text}");
}

#[test]
fn missing_shader_directory_is_an_io_error() {
    let err = wgconv_codegen::fs::generate_dir(std::path::Path::new("/nonexistent/shaders"), "x").unwrap_err();
    assert!(matches!(err, CodegenError::Io { .. }));
    assert!(err.to_string().contains("/nonexistent/shaders"), "{err}");
}

/// `include_wgsl_bindings!` expands to the same module the xtask writes.
mod inline_layout_zoo {
    wgconv_macros::include_wgsl_bindings!("fixtures/shaders/layout_zoo.wgsl");
}

#[test]
fn include_wgsl_bindings_matches_the_generated_module() {
    use std::mem::{offset_of, size_of};
    assert_eq!(size_of::<inline_layout_zoo::Zoo>(), size_of::<layout_zoo::Zoo>());
    assert_eq!(offset_of!(inline_layout_zoo::Zoo, bias), offset_of!(layout_zoo::Zoo, bias));
    assert_eq!(offset_of!(inline_layout_zoo::Zoo, points), 144);
    assert_eq!(inline_layout_zoo::SOURCE, layout_zoo::SOURCE);
    assert_eq!(inline_layout_zoo::BindGroup0::LAYOUT_ENTRIES, layout_zoo::BindGroup0::LAYOUT_ENTRIES);
    assert_eq!(inline_layout_zoo::COPY_OUT_WORKGROUP_SIZE, [1, 1, 1]);
}
