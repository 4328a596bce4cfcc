//! Pipelines are compiled once per (shader, entry point, override values) and shared.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

/// Shader module and layouts of one generated shader (all kernels use `@group(0)` only).
#[derive(Debug)]
pub(crate) struct ShaderResources {
    pub module: wgpu::ShaderModule,
    pub group0: wgpu::BindGroupLayout,
    pub layout: wgpu::PipelineLayout,
}

/// The cached [`ShaderResources`] of a generated shader module (`$module`), created on first use.
/// A macro because every generated module has its own `BindGroupLayouts` type.
macro_rules! shader_resources {
    ($ctx:expr, $module:ident) => {
        $ctx.pipelines.shader($module::PATH, || {
            let layouts = $module::BindGroupLayouts::new(&$ctx.device);
            let layout = $module::create_pipeline_layout(&$ctx.device, &layouts);
            $crate::pipelines::ShaderResources {
                module: $module::create_shader_module(&$ctx.device),
                group0: layouts.group0,
                layout,
            }
        })
    };
}
pub(crate) use shader_resources;

/// A uniform buffer holding `value` (a generated, layout-checked struct).
pub(crate) fn uniform_buffer<T: bytemuck::Pod>(device: &wgpu::Device, label: &str, value: &T) -> wgpu::Buffer {
    use wgpu::util::DeviceExt;
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents: bytemuck::bytes_of(value),
        usage: wgpu::BufferUsages::UNIFORM,
    })
}

/// Cache key: shader path, entry point, and the exact bits of every override value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    shader: &'static str,
    entry: &'static str,
    constants: Vec<(&'static str, u64)>,
}

/// Thread-safe cache of shader resources and compute pipelines.
#[derive(Debug, Default)]
pub(crate) struct PipelineCache {
    shaders: Mutex<HashMap<&'static str, Arc<ShaderResources>>>,
    pipelines: Mutex<HashMap<Key, wgpu::ComputePipeline>>,
}

impl PipelineCache {
    /// The resources of `shader`, created by `make` on first use.
    pub fn shader(&self, shader: &'static str, make: impl FnOnce() -> ShaderResources) -> Arc<ShaderResources> {
        let mut map = self.shaders.lock().unwrap_or_else(|p| p.into_inner());
        map.entry(shader).or_insert_with(|| Arc::new(make())).clone()
    }

    /// The pipeline for (`shader`, `entry`, `constants`), created by `make` on first use.
    /// Creation happens under the lock so two threads never compile the same pipeline twice.
    pub fn pipeline(
        &self,
        shader: &'static str,
        entry: &'static str,
        constants: &[(&'static str, f64)],
        make: impl FnOnce() -> wgpu::ComputePipeline,
    ) -> wgpu::ComputePipeline {
        let key = Key { shader, entry, constants: constants.iter().map(|(k, v)| (*k, v.to_bits())).collect() };
        let mut map = self.pipelines.lock().unwrap_or_else(|p| p.into_inner());
        map.entry(key).or_insert_with(make).clone()
    }

    /// Number of compiled pipelines (for tests and diagnostics).
    pub fn len(&self) -> usize {
        self.pipelines.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}
