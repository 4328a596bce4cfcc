//! Cross-crate integration tests (in `tests/`) and what they share: the modules generated from
//! `tests/fixtures/shaders/` (compiled here, so the generator's output is proven to build) and a
//! test device.

// Generated code must build warning-free in a user's crate that denies warnings.
#[rustfmt::skip]
#[deny(warnings)]
pub mod generated;

/// A device for GPU tests: the first adapter wgpu finds (lavapipe in CI). Panics with the install
/// hint when there is none, so a machine without Vulkan fails loudly instead of skipping.
pub fn test_device() -> (wgpu::Device, wgpu::Queue) {
    device_with_limits(|_| wgpu::Limits::default())
}

/// A device of the test adapter with the limits `limits` makes of the adapter's own (WebGPU's
/// defaults for [`test_device`]).
pub fn device_with_limits(limits: impl FnOnce(wgpu::Limits) -> wgpu::Limits) -> (wgpu::Device, wgpu::Queue) {
    device_with(wgpu::Features::empty(), limits)
}

/// A device of the test adapter with `features` (which it must have) and the limits `limits`
/// makes of the adapter's.
pub fn device_with(
    features: wgpu::Features,
    limits: impl FnOnce(wgpu::Limits) -> wgpu::Limits,
) -> (wgpu::Device, wgpu::Queue) {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle());
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
        .expect("no GPU adapter: install a Vulkan driver (apt-get install -y mesa-vulkan-drivers libvulkan1)");
    let descriptor = wgpu::DeviceDescriptor {
        required_features: features,
        required_limits: limits(adapter.limits()),
        ..Default::default()
    };
    pollster::block_on(adapter.request_device(&descriptor)).expect("request_device failed")
}

/// A context on a device of the test adapter with the limits `limits` makes of the adapter's.
pub fn context_with_limits(limits: impl FnOnce(wgpu::Limits) -> wgpu::Limits) -> wgconv::Context {
    let (device, queue) = device_with_limits(limits);
    wgconv::Context::from_device(device, queue)
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
    staging.slice(..).map_async(wgpu::MapMode::Read, |r| r.expect("map failed"));
    device.poll(wgpu::PollType::wait_indefinitely()).expect("poll failed");
    let data = staging.slice(..).get_mapped_range().expect("mapped range").to_vec();
    staging.unmap();
    data
}

/// A seeded xorshift64 stream: deterministic test data without a dependency.
fn xorshift(seed: u64) -> impl Iterator<Item = u64> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    std::iter::repeat_with(move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    })
}

/// Seeded pseudo-random values in [-1, -0.05] ∪ [0.05, 1] (never zero, so every tap matters).
pub fn random_f32(seed: u64, count: usize) -> Vec<f32> {
    xorshift(seed)
        .take(count)
        .map(|bits| {
            let unit = (bits >> 40) as f32 / (1u64 << 24) as f32; // [0, 1)
            let magnitude = 0.05 + 0.95 * unit;
            if bits & 1 == 0 { magnitude } else { -magnitude }
        })
        .collect()
}

/// Seeded pseudo-random int8 values over the whole range.
pub fn random_i8(seed: u64, count: usize) -> Vec<i8> {
    xorshift(seed).take(count).map(|bits| (bits >> 56) as u8 as i8).collect()
}

/// One `wgconv::Context` per test binary: pipelines compile once and are shared by every test.
/// Native only: the web's contexts are neither `Sync` nor made by blocking (the web suite in
/// `tests/web` uses this crate's data helpers only).
#[cfg(not(target_arch = "wasm32"))]
pub fn context() -> &'static wgconv::Context {
    static CONTEXT: std::sync::OnceLock<wgconv::Context> = std::sync::OnceLock::new();
    CONTEXT.get_or_init(|| wgconv::Context::new().unwrap_or_else(|e| panic!("{e}")))
}
