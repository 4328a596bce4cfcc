//! Cross-crate integration tests (in `tests/`) and what they share: the modules generated from
//! `tests/fixtures/shaders/` (compiled here, so the generator's output is proven to build) and a
//! test device.

#[rustfmt::skip]
pub mod generated;

/// A device for GPU tests: the first adapter wgpu finds (lavapipe in CI). Panics with the install
/// hint when there is none, so a machine without Vulkan fails loudly instead of skipping.
pub fn test_device() -> (wgpu::Device, wgpu::Queue) {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle());
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
        .expect("no GPU adapter: install a Vulkan driver (apt-get install -y mesa-vulkan-drivers libvulkan1)");
    pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor::default()))
        .expect("request_device failed")
}

/// Copies `bytes` of `buffer` back to the host (the buffer needs `COPY_SRC`).
pub fn read_back(device: &wgpu::Device, queue: &wgpu::Queue, buffer: &wgpu::Buffer) -> Vec<u8> {
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("read back"),
        size: buffer.size(),
        usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    encoder.copy_buffer_to_buffer(buffer, 0, &staging, 0, buffer.size());
    queue.submit([encoder.finish()]);
    staging
        .slice(..)
        .map_async(wgpu::MapMode::Read, |r| r.expect("map failed"));
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("poll failed");
    let data = staging
        .slice(..)
        .get_mapped_range()
        .expect("mapped range")
        .to_vec();
    staging.unmap();
    data
}
