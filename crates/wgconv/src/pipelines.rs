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

/// One generated shader module in generic code: `cargo xtask gen-shaders` has the codegen
/// implement this on each module's unit type `Shader` (`wgconv_codegen::Options::shader_trait`
/// documents the contract), so [`crate::Batch::record`] records any of them.
pub(crate) trait GeneratedShader {
    /// Path of the WGSL (the cache key of the module and its pipelines).
    const PATH: &'static str;
    /// The WGSL source.
    const SOURCE: &'static str;
    /// Names of the `@group(0)` bindings, in binding order.
    const BINDINGS: &'static [&'static str];
    /// `(field, WGSL type, offset)` of the struct bound as the shader's one `var<uniform>`
    /// (empty when it has none or several), to prove at compile time that two shaders take the
    /// same uniform bytes.
    const UNIFORM_LAYOUT: &'static [(&'static str, &'static str, u32)];
    /// Names of the `u32` overrides `set_u32` sets, so generic code can require some at compile
    /// time.
    const U32_OVERRIDES: &'static [&'static str];
    /// The module's `Overrides`.
    type Overrides;
    /// The module's `Entry`: its compute entry points.
    type Entry: Copy;
    /// The module's `BindGroup0`: one field per binding.
    type BindGroup<'a>;

    /// Sets the `u32` override `name`; false when the shader has none of that name.
    fn set_u32(overrides: &mut Self::Overrides, name: &str, value: u32) -> bool;
    /// The WGSL name of `entry`.
    fn entry_name(entry: Self::Entry) -> &'static str;
    /// `(key, value)` pairs for `wgpu::PipelineCompilationOptions::constants`.
    fn constants(overrides: &Self::Overrides) -> Vec<(&'static str, f64)>;
    /// Bytes of workgroup memory `entry` declares at `overrides`.
    fn workgroup_memory_bytes(entry: Self::Entry, overrides: &Self::Overrides) -> u32;
    /// The `@group(0)` layout and the pipeline layout.
    fn create_layouts(device: &wgpu::Device) -> (wgpu::BindGroupLayout, wgpu::PipelineLayout);
    /// Compiles `entry` at `overrides`.
    fn create_pipeline(
        device: &wgpu::Device,
        module: &wgpu::ShaderModule,
        layout: &wgpu::PipelineLayout,
        entry: Self::Entry,
        overrides: &Self::Overrides,
    ) -> wgpu::ComputePipeline;
    /// Creates the bind group of `group`.
    fn create_bind_group(
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
        group: &Self::BindGroup<'_>,
    ) -> wgpu::BindGroup;
    /// The bind group with each binding from `binding(name)`: for shaders that share binding
    /// names, so one function builds the bind group of them all.
    fn bind_group_with<'a>(binding: impl FnMut(&'static str) -> wgpu::BufferBinding<'a>) -> Self::BindGroup<'a>;
}

/// Whether two binding lists (or uniform layouts) are the same; `const` so generic code can
/// assert it at compile time.
pub(crate) const fn same_names(a: &[&str], b: &[&str]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !same_str(a[i], b[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether every one of `names` is in `set`; `const` for compile-time checks of override names.
pub(crate) const fn contains_all(set: &[&str], names: &[&str]) -> bool {
    let mut i = 0;
    while i < names.len() {
        let mut found = false;
        let mut j = 0;
        while j < set.len() {
            found |= same_str(set[j], names[i]);
            j += 1;
        }
        if !found {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether two [`GeneratedShader::UNIFORM_LAYOUT`]s are the same.
pub(crate) const fn same_layout(a: &[(&str, &str, u32)], b: &[(&str, &str, u32)]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if !same_str(a[i].0, b[i].0) || !same_str(a[i].1, b[i].1) || a[i].2 != b[i].2 {
            return false;
        }
        i += 1;
    }
    true
}

const fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
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
    /// Each pipeline with its shader's WGSL (for `compiled`).
    pipelines: Mutex<HashMap<Key, (wgpu::ComputePipeline, &'static str)>>,
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
    /// Faster on most benchmark layers, the others within run-to-run spread (docs/PERFORMANCE.md,
    /// rule R1).
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

    /// The resources of `S` (module compiled with this cache's checks), created on first use.
    pub fn shader<S: GeneratedShader>(&self, device: &wgpu::Device) -> Arc<ShaderResources> {
        let mut map = crate::context::lock(&self.shaders);
        map.entry(S::PATH)
            .or_insert_with(|| {
                let (group0, layout) = S::create_layouts(device);
                Arc::new(ShaderResources { module: self.create_module(device, S::PATH, S::SOURCE), group0, layout })
            })
            .clone()
    }

    /// `entry` of `S` at `overrides`, compiled on first use (keyed by path, entry name and
    /// override bits).
    pub fn compute_pipeline<S: GeneratedShader>(
        &self,
        device: &wgpu::Device,
        resources: &ShaderResources,
        entry: S::Entry,
        overrides: &S::Overrides,
    ) -> wgpu::ComputePipeline {
        self.pipeline(S::PATH, S::SOURCE, S::entry_name(entry), &S::constants(overrides), || {
            S::create_pipeline(device, &resources.module, &resources.layout, entry, overrides)
        })
    }

    /// The pipeline for (`shader`, `entry`, `constants`), created by `make` on first use.
    /// Creation happens under the lock so two threads never compile the same pipeline twice.
    fn pipeline(
        &self,
        shader: &'static str,
        source: &'static str,
        entry: &'static str,
        constants: &[(&'static str, f64)],
        make: impl FnOnce() -> wgpu::ComputePipeline,
    ) -> wgpu::ComputePipeline {
        let key = Key { shader, entry, constants: constants.iter().map(|(k, v)| (*k, v.to_bits())).collect() };
        let mut map = crate::context::lock(&self.pipelines);
        map.entry(key).or_insert_with(|| (make(), source)).0.clone()
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
        let mut map = crate::context::lock(&self.uniforms);
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

    /// Drops every cached uniform buffer (they are recreated on demand).
    pub fn clear_uniforms(&self) {
        crate::context::lock(&self.uniforms).clear();
    }

    /// Number of cached uniform buffers (for tests and diagnostics).
    pub fn uniforms(&self) -> usize {
        crate::context::lock(&self.uniforms).len()
    }

    /// Number of compiled pipelines (for tests and diagnostics).
    pub fn len(&self) -> usize {
        crate::context::lock(&self.pipelines).len()
    }

    /// Every compiled pipeline's shader, entry point and override values, sorted.
    pub fn compiled(&self) -> Vec<CompiledPipeline> {
        let mut all: Vec<CompiledPipeline> = crate::context::lock(&self.pipelines)
            .iter()
            .map(|(key, (_, source))| CompiledPipeline {
                shader: key.shader,
                source,
                entry: key.entry,
                constants: key.constants.iter().map(|(name, bits)| (*name, f64::from_bits(*bits))).collect(),
            })
            .collect();
        all.sort_by(|a, b| {
            (a.shader, a.entry)
                .cmp(&(b.shader, b.entry))
                .then(a.constants.partial_cmp(&b.constants).unwrap_or(std::cmp::Ordering::Equal))
        });
        all
    }
}

/// A compute pipeline a [`crate::Context`] compiled: which shader (its path in the repository,
/// e.g. `shaders/conv2d_gemm.wgsl`; the WGSL is embedded in the crate), which entry point, and
/// the override values it was specialised with. The list lets an application compile the same
/// pipelines ahead of time (on another thread, or before a latency-sensitive first call), and lets
/// the repository check that another WebGPU implementation (Dawn) accepts every one of them,
/// or a tool lower each one as wgpu does and ask the driver what it compiled to.
#[derive(Clone)]
pub struct CompiledPipeline {
    /// Path of the shader.
    pub shader: &'static str,
    /// The shader's WGSL, as compiled.
    pub source: &'static str,
    /// Entry point.
    pub entry: &'static str,
    /// `(override key, value)`, as passed to `wgpu::PipelineCompilationOptions::constants`.
    pub constants: Vec<(&'static str, f64)>,
}

/// Equal when the shader, entry point and override values' bits are (the pipeline cache's key;
/// the path names the source).
impl PartialEq for CompiledPipeline {
    fn eq(&self, other: &Self) -> bool {
        let bits = |p: &Self| p.constants.iter().map(|(k, v)| (*k, v.to_bits())).collect::<Vec<_>>();
        (self.shader, self.entry) == (other.shader, other.entry) && bits(self) == bits(other)
    }
}

/// The source's length, not its text: a list of pipelines prints (and sorts by its print) quickly.
impl std::fmt::Debug for CompiledPipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CompiledPipeline")
            .field("shader", &self.shader)
            .field("source", &format_args!("<{} bytes of WGSL>", self.source.len()))
            .field("entry", &self.entry)
            .field("constants", &self.constants)
            .finish()
    }
}
