//! The host writes a uniform through the generated struct; the shader copies every field into a
//! flat buffer; the host compares. Proves the generated layout is the one the driver reads.

use wgconv_tests::{generated::layout_zoo, read_back, test_device};
use wgpu::util::DeviceExt;

#[test]
fn generated_layout_matches_the_driver() {
    let (device, queue) = test_device();
    let zoo = layout_zoo::Zoo::new(
        7,
        11,
        [1.5, -2.25, 3.125],
        0.75,
        [[1.0, 2.0, 3.0, 0.0], [4.0, 5.0, 6.0, 0.0], [7.0, 8.0, 9.0, 0.0]],
        [[10.0, 11.0, 12.0, 13.0], [14.0, 15.0, 16.0, 17.0]],
        layout_zoo::Inner::new([18.5, 19.5], 20),
        [-21, 22],
        23.5,
        [[24.0, 25.0, 26.0, 0.0], [27.0, 28.0, 29.0, 0.0]],
        [[30.0, 31.0], [32.0, 33.0]],
    );
    let uniform = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("zoo"),
        contents: bytemuck::bytes_of(&zoo),
        usage: wgpu::BufferUsages::UNIFORM,
    });
    let count = 39usize;
    let flat = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("flat"),
        contents: bytemuck::cast_slice(&vec![0xdead_beef_u32; count]),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    });

    let layouts = layout_zoo::BindGroupLayouts::new(&device);
    let pipeline_layout = layout_zoo::create_pipeline_layout(&device, &layouts);
    let module = layout_zoo::create_shader_module(&device);
    let pipeline =
        layout_zoo::create_copy_out_pipeline(&device, &module, &pipeline_layout, &layout_zoo::Overrides::new());
    let group =
        layout_zoo::BindGroup0 { zoo: uniform.as_entire_buffer_binding(), flat: flat.as_entire_buffer_binding() }
            .create(&device, &layouts.group0);
    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }
    queue.submit([encoder.finish()]);
    let got: Vec<u32> = bytemuck::cast_slice(&read_back(&device, &queue, &flat)).to_vec();

    let f = |v: f32| v.to_bits();
    let mut expected = vec![zoo.in_ch, zoo.out_ch];
    expected.extend(zoo.scale.map(f));
    expected.push(f(zoo.bias));
    expected.extend(zoo.m.iter().flat_map(|c| c[..3].iter().map(|v| f(*v))));
    expected.extend(zoo.taps.iter().flatten().map(|v| f(*v)));
    expected.extend(zoo.inner.a.map(f));
    expected.push(zoo.inner.b);
    expected.extend(zoo.flags.map(|v| v as u32));
    expected.push(f(zoo.last));
    expected.extend(zoo.points.iter().flat_map(|p| p[..3].iter().map(|v| f(*v))));
    expected.extend(zoo.m2.iter().flatten().map(|v| f(*v)));
    assert_eq!(expected.len(), count);
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(
            g,
            e,
            "flat[{i}]: shader read {g:#x} ({}), host wrote {e:#x} ({})",
            f32::from_bits(*g),
            f32::from_bits(*e)
        );
    }
}
