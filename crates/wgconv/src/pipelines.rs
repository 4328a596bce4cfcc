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
                module: $ctx.pipelines.create_module(&$ctx.device, $module::PATH, $module::SOURCE),
                group0: layouts.group0,
                layout,
            }
        })
    };
}
pub(crate) use shader_resources;

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
    /// Uniform buffers by (struct name, contents). Uniforms are never written after creation,
    /// so ops with equal parameters share one; a repeated call then creates no buffer, which
    /// spares the staging copy `create_buffer_init` queues and its clean-up on a later submit.
    uniforms: Mutex<HashMap<(&'static str, Vec<u8>), wgpu::Buffer>>,
    /// What wgpu injects into the shaders this cache compiles.
    checks: ShaderChecks,
}

/// Which runtime checks wgpu injects into the crate's shaders when it compiles them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ShaderChecks {
    /// The default: no clamp on every workgroup- and private-array index, no counter added to
    /// every loop; integer division guards stay. Buffer bounds are still enforced where the
    /// driver does it itself (Vulkan `robustBufferAccess2`: NVIDIA, AMD, Intel, lavapipe);
    /// elsewhere (Metal, DX12) the shaders' own bounds tests are what keeps accesses in range.
    /// Measured 3–39 % faster on 12 of the 16 benchmark layers on an H200, the rest within
    /// ±4 % (docs/PERFORMANCE.md, v13).
    #[default]
    Audited,
    /// Everything wgpu injects by default. `WGCONV_SHADER_CHECKS=full` selects it (debugging).
    Full,
}

impl ShaderChecks {
    /// Reads `WGCONV_SHADER_CHECKS` (`full` or `audited`; anything else is the default).
    pub fn from_env() -> Self {
        match std::env::var("WGCONV_SHADER_CHECKS") {
            Ok(v) if v.eq_ignore_ascii_case("full") => Self::Full,
            _ => Self::Audited,
        }
    }
}

impl PipelineCache {
    /// An empty cache whose shaders get `checks`.
    pub fn new(checks: ShaderChecks) -> Self {
        Self { checks, ..Self::default() }
    }

    /// The checks this cache compiles shaders with.
    pub fn checks(&self) -> ShaderChecks {
        self.checks
    }

    /// Compiles one of this crate's WGSL shaders (`source`, labelled `path`).
    pub fn create_module(&self, device: &wgpu::Device, path: &'static str, source: &'static str) -> wgpu::ShaderModule {
        let desc = wgpu::ShaderModuleDescriptor {
            label: Some(path),
            source: wgpu::ShaderSource::Wgsl(std::borrow::Cow::Borrowed(source)),
        };
        if self.checks == ShaderChecks::Full {
            return device.create_shader_module(desc);
        }
        let checks = wgpu::ShaderRuntimeChecks {
            bounds_checks: false,
            force_loop_bounding: false,
            int_div_checks: true,
            ..wgpu::ShaderRuntimeChecks::checked()
        };
        // SAFETY: wgpu's contract for dropping these checks is that the shader never indexes an
        // array or buffer out of bounds and has no infinite loop. The crate's shaders are only
        // ever dispatched with parameters the ops validated first: every workgroup-array index is
        // a local invocation id plus compile-time tile offsets (or, for the tiled depthwise
        // window, checked on the host to fit: `ConvKernel::DepthwiseTiled` falls back when it
        // does not); every buffer index is guarded by the shader's own bounds tests against the
        // operand sizes the host checked (`Context::check_binding`, tensor shapes); every loop
        // runs to a bound taken from those parameters. The test matrix and property tests run
        // every kernel with outputs poisoned — except `coop_f16`, which needs cooperative
        // matrices that CI's lavapipe lacks: its buffer loads use clamped indices, its stores
        // the same bounds tests, and it is checked on an H200 by bench/gpu_check.py —
        // and `WGCONV_SHADER_CHECKS=full` restores wgpu's checks.
        unsafe { device.create_shader_module_trusted(desc, checks) }
    }

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

    /// The uniform buffer holding `contents` (a generated struct named `label`): the one cached
    /// for them, else one `create` makes, cached only when that succeeded (a failed creation,
    /// out of memory say, must not be handed out again).
    pub fn uniform(
        &self,
        label: &'static str,
        contents: &[u8],
        create: impl FnOnce() -> crate::error::Result<wgpu::Buffer>,
    ) -> crate::error::Result<wgpu::Buffer> {
        /// Distinct parameter sets kept; a workload with more starts the cache over (each entry
        /// is one small buffer).
        const CAPACITY: usize = 1024;
        let key = (label, contents.to_vec());
        let mut map = self.uniforms.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(buffer) = map.get(&key) {
            return Ok(buffer.clone());
        }
        if map.len() >= CAPACITY {
            map.clear();
        }
        let buffer = create()?;
        map.insert(key, buffer.clone());
        Ok(buffer)
    }

    /// Number of cached uniform buffers (for tests and diagnostics).
    pub fn uniforms(&self) -> usize {
        self.uniforms.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Number of compiled pipelines (for tests and diagnostics).
    pub fn len(&self) -> usize {
        self.pipelines.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}
