//! Adapter and device selection, device capabilities, error capture and the pipeline cache.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use crate::{
    error::{Error, Result},
    ops::{conv_geometry::ConvGeometry, conv_tune::TunedConfig},
    pipelines::{PipelineCache, ShaderChecks},
    platform::{self, BoxFuture},
    tensor::{DType, Tensor},
};

/// Optional device features the crate asks for when the adapter has them.
const WANTED_FEATURES: wgpu::Features =
    wgpu::Features::TIMESTAMP_QUERY.union(wgpu::Features::SHADER_F16).union(wgpu::Features::SUBGROUP);

/// Which adapter to pick.
#[derive(Clone, Debug, Default)]
pub struct AdapterRequest {
    /// Only these backends (`None`: the primary ones — Vulkan, Metal, DX12 — falling back to all).
    /// `WGCONV_BACKEND=vulkan|gl|metal|dx12` sets it.
    pub backends: Option<wgpu::Backends>,
    /// Case-insensitive substring of the adapter name. `WGCONV_ADAPTER` sets it.
    pub name_contains: Option<String>,
    /// Prefer a low-power adapter (default: high performance).
    pub low_power: bool,
    /// Enable wgpu's experimental cooperative-matrix feature where the adapter has it, so
    /// convolutions with [`crate::Precision::AllowF16`] can run on tensor cores. Off by default:
    /// wgpu marks the feature experimental (its implementation may have bugs that break memory
    /// safety). `WGCONV_COOPERATIVE_MATRIX=1` (or `true`, `on`, `yes`) sets it.
    pub cooperative_matrix: bool,
    /// The device limits to ask for (`None`: the adapter's own, so every kernel that fits the
    /// hardware can run). `Some(wgpu::Limits::default())` asks for WebGPU's defaults — all a page
    /// may get without asking — to check that an app works within them.
    pub limits: Option<wgpu::Limits>,
    /// At most this many bytes per storage binding, below what `limits` (or the adapter) gives:
    /// to see how an app runs where bindings are small (a browser may give 128 MiB). Tensors and
    /// intermediates over it run in parts, or fail with a typed error naming the limit.
    /// `WGCONV_MAX_BINDING_BYTES` sets it.
    pub max_binding_bytes: Option<u64>,
}

impl AdapterRequest {
    /// Reads `WGCONV_BACKEND`, `WGCONV_ADAPTER`, `WGCONV_COOPERATIVE_MATRIX` and
    /// `WGCONV_MAX_BINDING_BYTES`, leaving out a value it cannot read;
    /// [`AdapterRequest::try_from_env`] (what [`Context::new`] uses) refuses such a value instead.
    pub fn from_env() -> Self {
        Self::read_env(|name| std::env::var(name).ok()).0
    }

    /// [`AdapterRequest::from_env`], with a value it cannot read an [`Error::InvalidOption`]
    /// naming the variable and the value: a backend list with an entry naming none of wgpu's
    /// backends, a `WGCONV_COOPERATIVE_MATRIX` other than `1`/`0`/`true`/`false`/`on`/`off`/`yes`/
    /// `no`, a `WGCONV_MAX_BINDING_BYTES` that is zero or not a byte count (digits, optionally
    /// with a `KiB`, `MiB` or `GiB` suffix).
    pub fn try_from_env() -> Result<Self> {
        match Self::read_env(|name| std::env::var(name).ok()) {
            (request, None) => Ok(request),
            (_, Some(error)) => Err(error),
        }
    }

    /// The request `var` (an environment) describes, without the values it cannot read, and the
    /// error naming the first of those.
    fn read_env(var: impl Fn(&str) -> Option<String>) -> (Self, Option<Error>) {
        let mut request = Self { name_contains: var("WGCONV_ADAPTER").filter(|s| !s.is_empty()), ..Self::default() };
        let mut first_error = None;
        let mut refuse = |option: &'static str, reason: String| {
            first_error.get_or_insert(Error::InvalidOption { option, reason });
        };
        if let Some(list) = var("WGCONV_BACKEND").filter(|s| !s.is_empty()) {
            // Each entry on its own: wgpu's list parser skips a name it does not know, so a typo
            // next to a good name would silently narrow the search.
            let parsed: Vec<_> =
                list.split(',').map(|name| (name.trim(), wgpu::Backends::from_comma_list(name.trim()))).collect();
            match parsed.iter().find(|(_, backends)| backends.is_empty()) {
                Some((name, _)) => {
                    let reason =
                        format!("WGCONV_BACKEND={list:?}: {name:?} names no backend (vulkan, metal, dx12, gl, webgpu)");
                    refuse("WGCONV_BACKEND", reason);
                }
                None => request.backends = Some(parsed.iter().fold(wgpu::Backends::empty(), |all, (_, b)| all | *b)),
            }
        }
        if let Some(flag) = var("WGCONV_COOPERATIVE_MATRIX") {
            match flag.trim().to_ascii_lowercase().as_str() {
                "1" | "true" | "on" | "yes" => request.cooperative_matrix = true,
                "" | "0" | "false" | "off" | "no" => {}
                _ => refuse("WGCONV_COOPERATIVE_MATRIX", format!("WGCONV_COOPERATIVE_MATRIX={flag:?} is not 1 or 0")),
            }
        }
        if let Some(bytes) = var("WGCONV_MAX_BINDING_BYTES").filter(|s| !s.is_empty()) {
            match parse_byte_count(&bytes) {
                Some(0) => refuse(
                    "WGCONV_MAX_BINDING_BYTES",
                    format!("WGCONV_MAX_BINDING_BYTES={bytes:?} is zero: no tensor would fit a binding"),
                ),
                Some(n) => request.max_binding_bytes = Some(n),
                None => refuse(
                    "WGCONV_MAX_BINDING_BYTES",
                    format!("WGCONV_MAX_BINDING_BYTES={bytes:?} is not a byte count (e.g. 134217728 or 128MiB)"),
                ),
            }
        }
        (request, first_error)
    }

    fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(b) = self.backends {
            parts.push(format!("backends {b:?}"));
        }
        if let Some(n) = &self.name_contains {
            parts.push(format!("adapter name containing {n:?}"));
        }
        if parts.is_empty() { String::new() } else { format!(" ({})", parts.join(", ")) }
    }
}

/// A byte count: digits, optionally followed by `KiB`, `MiB` or `GiB` (spaces allowed between).
fn parse_byte_count(text: &str) -> Option<u64> {
    let text = text.trim();
    let digits = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let unit = match text[digits..].trim() {
        "" => 1,
        "KiB" => 1 << 10,
        "MiB" => 1 << 20,
        "GiB" => 1 << 30,
        _ => return None,
    };
    text[..digits].parse::<u64>().ok()?.checked_mul(unit)
}

/// The limits `request` asks of an adapter whose own are `adapter`.
fn requested_limits(request: &AdapterRequest, adapter: wgpu::Limits) -> wgpu::Limits {
    let mut limits = request.limits.clone().unwrap_or(adapter);
    if let Some(cap) = request.max_binding_bytes {
        limits.max_storage_buffer_binding_size = limits.max_storage_buffer_binding_size.min(cap);
    }
    limits
}

/// Describes one adapter wgpu can see.
#[derive(Clone, Debug)]
pub struct AdapterSummary {
    /// wgpu's adapter info (name, backend, device type, driver).
    pub info: wgpu::AdapterInfo,
    /// Its limits.
    pub limits: wgpu::Limits,
    /// Its features.
    pub features: wgpu::Features,
}

/// Lists every adapter wgpu finds on the requested backends (on the web: the browser's one
/// adapter, if any).
pub async fn enumerate_adapters_async(backends: Option<wgpu::Backends>) -> Vec<AdapterSummary> {
    let instance = instance(backends);
    instance
        .enumerate_adapters(backends.unwrap_or(wgpu::Backends::all()))
        .await
        .into_iter()
        .map(|a| AdapterSummary { info: a.get_info(), limits: a.limits(), features: a.features() })
        .collect()
}

fn instance(backends: Option<wgpu::Backends>) -> wgpu::Instance {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    if let Some(b) = backends {
        desc.backends = b;
    }
    wgpu::Instance::new(desc)
}

/// Errors wgpu reported outside any error scope; drained into the next call's result.
type ErrorSink = Arc<Mutex<Vec<String>>>;

/// Error scopes popped but not yet resolved, in the order they were popped: each resolves to the
/// [`Error::Gpu`] its operation raised, if any. wgpu-core resolves a scope at once, so on native
/// this stays empty; on the web a scope resolves only after control returns to the event loop,
/// so [`Context::capture`] leaves it here for the next awaited call ([`Context::settle`]).
#[derive(Default)]
pub(crate) struct PendingScopes(Mutex<Vec<BoxFuture<Result<()>>>>);

impl PendingScopes {
    /// The outcome of `scopes` if it is known now; otherwise keeps it for [`PendingScopes::settle`].
    fn resolve_or_keep(&self, mut scopes: BoxFuture<Result<()>>) -> Result<()> {
        match platform::ready_now(&mut scopes) {
            Some(outcome) => outcome,
            None => {
                lock(&self.0).push(scopes);
                Ok(())
            }
        }
    }

    /// Awaits every kept scope, in order, taking them one at a time (so a concurrent `settle`
    /// awaits the ones after, and a dropped future loses at most the scope it was awaiting): the
    /// first error, if any (later ones are dropped); `None` when none was kept.
    async fn settle(&self) -> Option<Result<()>> {
        let mut outcome = None;
        loop {
            let next = {
                let mut pending = lock(&self.0);
                if pending.is_empty() { None } else { Some(pending.remove(0)) }
            };
            let Some(scopes) = next else { break };
            let result = scopes.await;
            if !matches!(outcome, Some(Err(_))) {
                outcome = Some(result);
            }
        }
        outcome
    }
}

/// A GPU device and queue plus what the ops need: limits, features, cached pipelines.
///
/// On native targets `Context` is `Send + Sync`; share it with `Arc` across threads.
///
/// ```no_run
/// let ctx = wgconv::Context::new()?;
/// println!("{}", ctx.describe());
/// # Ok::<(), wgconv::Error>(())
/// ```
pub struct Context {
    pub(crate) device: wgpu::Device,
    /// Which device the context's tensors belong to ([`crate::Tensor`] keeps it).
    pub(crate) device_key: DeviceKey,
    pub(crate) queue: wgpu::Queue,
    info: wgpu::AdapterInfo,
    pub(crate) pipelines: PipelineCache,
    pub(crate) uncaptured: ErrorSink,
    /// Error scopes of recorded work not resolved yet (only ever non-empty on the web).
    pending: PendingScopes,
    // Waits on the web are not bounded: nothing there may block (`set_timeout` documents it).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub(crate) timeout: Duration,
    zero_buffer: wgpu::Buffer,
    /// Intermediate buffers, one per [`Scratch`] use (split-K partial sums, Winograd's transformed
    /// input and products): buffers (f32, or f16 for `winograd_coop`'s and `winograd_4x4_coop`'s
    /// transformed input) reused
    /// by every op and grown on demand, so running a
    /// prepared convolution allocates no large buffer per call (docs/PERFORMANCE.md, rule R18:
    /// allocation churn slowed the kernels that followed too). Sharing
    /// is safe: an op writes and reads them within one batch, and wgpu orders those passes and
    /// successive submissions by their resource usage.
    scratch: Mutex<[Option<Tensor>; Scratch::COUNT]>,
    /// Configurations measured by `Conv2d::tune`, used by the planner for the same geometry.
    tuned: Mutex<HashMap<ConvGeometry, TunedConfig>>,
    /// The device runs the `coop_f16` kernel: cooperative matrices enabled, 16×16×16 f16 × f16 +
    /// f32 among the adapter's configurations, f16 in shaders, subgroups of exactly 32.
    cooperative_f16: bool,
    /// The one-workgroup no-op that `timing` dispatches in the passes holding its timestamps
    /// (made on first use).
    pub(crate) timing_marker: std::sync::OnceLock<wgpu::ComputePipeline>,
}

/// Which context's tensors a tensor belongs to: a token of its own for every context. wgpu
/// cannot bind another device's buffer (it panics when asked to), and its device handles compare
/// equal across instances (their ids restart), so the device itself cannot tell; two contexts
/// wrapping one device therefore do not share tensors either.
#[derive(Clone, Debug, Default)]
pub(crate) struct DeviceKey(Arc<()>);

impl PartialEq for DeviceKey {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// Who made the device a [`Context`] wraps.
#[derive(Clone, Copy, Debug)]
enum DeviceOrigin {
    /// [`Context::new`] and friends: the context installs its own error handlers and uses
    /// cooperative matrices where the adapter reports the configuration the kernel needs.
    Own {
        /// Whether the device runs the `coop_f16` kernel.
        cooperative_f16: bool,
    },
    /// [`Context::from_device`]: the application's handlers stay, and the adapter's
    /// cooperative-matrix configurations are unknown.
    Application,
}

/// What a shared scratch buffer of the context holds ([`Context::scratch`]); each use has its
/// own buffer, since one convolution may need several at once (Winograd's GEMM may split K).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scratch {
    /// Split-K partial sums of a GEMM kernel.
    SplitK = 0,
    /// Winograd's transformed input tiles.
    WinogradInput = 1,
    /// Winograd's products before the output transform.
    WinogradProducts = 2,
}

impl Scratch {
    /// How many uses there are.
    const COUNT: usize = 3;
}

/// Locks `mutex`, taking the data of a poisoned one: every value the crate guards stays valid if
/// a thread panics while holding it (maps of caches, a scratch buffer).
pub(crate) fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl std::fmt::Debug for Context {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context").field("adapter", &self.info).finish_non_exhaustive()
    }
}

impl Context {
    /// Picks an adapter per `WGCONV_BACKEND` / `WGCONV_ADAPTER` (high performance by default) and
    /// creates a device with the adapter's limits and the optional features it has
    /// (timestamp queries, f16, subgroups). On the web the environment is empty: the browser's
    /// adapter. [`Context::new`] is the blocking form (native only).
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), wgconv::Error> {
    /// let ctx = wgconv::Context::new_async().await?;
    /// println!("{}", ctx.describe());
    /// # Ok(()) }
    /// ```
    pub async fn new_async() -> Result<Self> {
        Self::with_request_async(&AdapterRequest::try_from_env()?).await
    }

    /// Like [`Context::new_async`] with an explicit request. [`Context::with_request`] is the
    /// blocking form (native only).
    pub async fn with_request_async(request: &AdapterRequest) -> Result<Self> {
        let adapter = match request.backends {
            Some(backends) => Self::find_adapter(request, backends).await,
            // GL is a last resort: probing it first prints display-server noise on headless machines.
            None => match Self::find_adapter(request, wgpu::Backends::PRIMARY).await {
                Ok(adapter) => Ok(adapter),
                Err(_) => Self::find_adapter(request, wgpu::Backends::all()).await,
            },
        }?;
        let info = adapter.get_info();
        let mut wanted = WANTED_FEATURES;
        let mut experimental = wgpu::ExperimentalFeatures::disabled();
        if request.cooperative_matrix && adapter.features().contains(wgpu::Features::EXPERIMENTAL_COOPERATIVE_MATRIX) {
            wanted |= wgpu::Features::EXPERIMENTAL_COOPERATIVE_MATRIX;
            // SAFETY: the caller opted in (`AdapterRequest::cooperative_matrix`, documented as
            // experimental); the tensor-core kernels (`coop_f16`, `coop_nhwc`, `q8_coop`) use
            // the feature. Neither wgpu nor naga checks a fragment's 16 rows against its array,
            // so each kernel keeps them in bounds by construction, its fragments loaded from and
            // stored to workgroup arrays sized for its largest tile. `coop_f16`, 32-deep
            // K-tiles: last A index 127·40 + 31 = 5111 < 5120, last B index 31·264 + 255 = 8439
            // < 8448; 16-deep: 127·24 + 15 = 3063 < 3072, 15·264 + 255 = 4215 < 4224; staging
            // 2047 < 2048. `q8_coop`: A 127·40 + 31 = 5111 < 5120, B 31·136 + 127 = 4343 < 4352,
            // staging 4095 < 4096. `coop_nhwc` says its own in its shader. bench/gpu_check.py
            // runs each against the reference on a device that has the feature.
            experimental = unsafe { wgpu::ExperimentalFeatures::enabled() };
        }
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("wgconv"),
                required_features: adapter.features() & wanted,
                required_limits: requested_limits(request, adapter.limits()),
                experimental_features: experimental,
                ..Default::default()
            })
            .await
            .map_err(|e| Error::RequestDevice { adapter: info.name.clone(), reason: e.to_string() })?;
        let cooperative_f16 = cooperative_f16_supported(
            device.features(),
            &adapter.cooperative_matrix_properties(),
            (info.subgroup_min_size, info.subgroup_max_size),
        );
        Ok(Self::build(device, queue, info, DeviceOrigin::Own { cooperative_f16 }))
    }

    async fn find_adapter(request: &AdapterRequest, backends: wgpu::Backends) -> Result<wgpu::Adapter> {
        let instance = instance(Some(backends));
        match &request.name_contains {
            Some(needle) => {
                let needle = needle.to_lowercase();
                instance
                    .enumerate_adapters(backends)
                    .await
                    .into_iter()
                    .find(|a| a.get_info().name.to_lowercase().contains(&needle))
            }
            None => instance
                .request_adapter(&wgpu::RequestAdapterOptions {
                    power_preference: if request.low_power {
                        wgpu::PowerPreference::LowPower
                    } else {
                        wgpu::PowerPreference::HighPerformance
                    },
                    ..Default::default()
                })
                .await
                .ok(),
        }
        .ok_or_else(|| Error::NoAdapter { filter: request.describe() })
    }

    /// Wraps a device and queue the application already has, so wgconv ops can run on it.
    /// The device's uncaptured-error handler is left as the application set it.
    /// Its convolutions do not use cooperative matrices (the adapter's configurations are not
    /// known from a device).
    pub fn from_device(device: wgpu::Device, queue: wgpu::Queue) -> Self {
        let info = device.adapter_info();
        Self::build(device, queue, info, DeviceOrigin::Application)
    }

    fn build(device: wgpu::Device, queue: wgpu::Queue, info: wgpu::AdapterInfo, origin: DeviceOrigin) -> Self {
        let (own_device, cooperative_f16) = match origin {
            DeviceOrigin::Own { cooperative_f16 } => (true, cooperative_f16),
            DeviceOrigin::Application => (false, false),
        };
        let uncaptured: ErrorSink = Arc::default();
        if own_device {
            // wgpu's default handler panics; ours records the error for the next call to return.
            let sink = uncaptured.clone();
            device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
                if let Ok(mut v) = sink.lock() {
                    v.push(e.to_string());
                }
            }));
            // A lost device fails every later call with the reason instead of hanging or panicking.
            let lost = uncaptured.clone();
            device.set_device_lost_callback(move |reason, message| {
                if let Ok(mut v) = lost.lock() {
                    v.push(format!("device lost ({reason:?}): {message}"));
                }
            });
        }
        let zero_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("wgconv zero"),
            size: 16,
            usage: wgpu::BufferUsages::STORAGE,
            mapped_at_creation: false,
        });
        let device_key = DeviceKey::default();
        Self {
            device,
            device_key,
            queue,
            info,
            pipelines: PipelineCache::new(ShaderChecks::from_env()),
            uncaptured,
            pending: PendingScopes::default(),
            timeout: Duration::from_secs(60),
            zero_buffer,
            scratch: Mutex::new([const { None }; Scratch::COUNT]),
            tuned: Mutex::new(HashMap::new()),
            cooperative_f16,
            timing_marker: std::sync::OnceLock::new(),
        }
    }

    /// Whether [`crate::Precision::AllowF16`] convolutions can run on cooperative matrices here
    /// (the `coop_f16` kernel): see [`AdapterRequest::cooperative_matrix`].
    pub fn cooperative_f16(&self) -> bool {
        self.cooperative_f16
    }

    /// The wgpu device.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The wgpu queue.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// Info on the adapter the device comes from (also for [`Context::from_device`]).
    pub fn adapter_info(&self) -> &wgpu::AdapterInfo {
        &self.info
    }

    /// The device's limits.
    pub fn limits(&self) -> wgpu::Limits {
        self.device.limits()
    }

    /// The device's enabled features.
    pub fn features(&self) -> wgpu::Features {
        self.device.features()
    }

    /// How long a wait on the GPU may take before it fails with [`Error::Timeout`] (default 60 s).
    ///
    /// Native only in effect: on the web nothing blocks, a wait is an awaited promise that the
    /// browser settles (a hung GPU loses the device, which fails the call), and no timeout applies.
    pub fn set_timeout(&mut self, timeout: Duration) {
        self.timeout = timeout;
    }

    /// The configuration `Conv2d::tune` measured fastest for `geometry` on this device, which
    /// the planner uses for it from then on (unless a call forces any choice: [`crate::ForcedPlan`]).
    pub fn tuned(&self, geometry: &ConvGeometry) -> Option<TunedConfig> {
        lock(&self.tuned).get(geometry).copied()
    }

    /// Drops the shared scratch buffers (each is recreated at the size the next op needs).
    pub(crate) fn release_scratch(&self) {
        *lock(&self.scratch) = [const { None }; Scratch::COUNT];
    }

    /// Remembers a measured configuration for `geometry`.
    pub(crate) fn remember_tuning(&self, geometry: ConvGeometry, config: TunedConfig) {
        lock(&self.tuned).insert(geometry, config);
    }

    /// Every remembered tuning, in no particular order.
    pub(crate) fn tuned_entries(&self) -> Vec<(ConvGeometry, TunedConfig)> {
        lock(&self.tuned).iter().map(|(g, c)| (g.clone(), *c)).collect()
    }

    /// Forgets every tuned configuration: the planner's rules apply again.
    pub fn forget_tuning(&self) {
        lock(&self.tuned).clear();
    }

    /// Number of compute pipelines compiled and cached so far.
    pub fn cached_pipelines(&self) -> usize {
        self.pipelines.len()
    }

    /// The compute pipelines compiled and cached so far: shader, entry point, override values.
    pub fn compiled_pipelines(&self) -> Vec<crate::CompiledPipeline> {
        self.pipelines.compiled()
    }

    /// A uniform buffer holding `value` (a generated, layout-checked struct named `label`),
    /// shared with every earlier op whose parameters were the same bytes.
    pub(crate) fn uniform<T: bytemuck::Pod>(&self, label: &'static str, value: &T) -> Result<wgpu::Buffer> {
        let contents = bytemuck::bytes_of(value);
        self.pipelines.uniform(label, contents, || {
            self.capture(&format!("creating the {label} uniform"), || {
                use wgpu::util::DeviceExt;
                Ok(self.device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some(label),
                    contents,
                    usage: wgpu::BufferUsages::UNIFORM,
                }))
            })
        })
    }

    /// Number of distinct uniform parameter blocks cached so far (ops with equal parameters
    /// share one buffer).
    pub fn cached_uniforms(&self) -> usize {
        self.pipelines.uniforms()
    }

    /// The runtime checks the crate's shaders are compiled with (`WGCONV_SHADER_CHECKS`).
    pub fn shader_checks(&self) -> ShaderChecks {
        self.pipelines.checks()
    }

    /// The adapter in words: name, backend, type and driver (also what a saved tuning is tied to).
    pub(crate) fn adapter_text(&self) -> String {
        let i = &self.info;
        format!("{} ({:?}, {:?}, driver {} {})", i.name, i.backend, i.device_type, i.driver, i.driver_info)
    }

    /// One line: adapter, backend, and the capabilities that matter to the ops.
    pub fn describe(&self) -> String {
        let l = self.limits();
        let f = self.features();
        let adapter = self.adapter_text();
        format!(
            "{adapter}; max invocations/workgroup {}, workgroup storage {} B, max storage binding {} B, timestamps {}, subgroups {}, f16 {}, f16 cooperative matrices {}, shader checks {:?}",
            l.max_compute_invocations_per_workgroup,
            l.max_compute_workgroup_storage_size,
            l.max_storage_buffer_binding_size,
            f.contains(wgpu::Features::TIMESTAMP_QUERY),
            f.contains(wgpu::Features::SUBGROUP),
            f.contains(wgpu::Features::SHADER_F16),
            self.cooperative_f16,
            self.shader_checks(),
        )
    }

    /// A small zero-filled storage buffer bound where an optional input (bias) is absent.
    pub(crate) fn zero_buffer(&self) -> &wgpu::Buffer {
        &self.zero_buffer
    }

    /// `bytes` fit one storage binding of this device, else an error naming `name`.
    pub(crate) fn check_binding(&self, name: &'static str, bytes: u64) -> Result<()> {
        let limit = self.limits().max_storage_buffer_binding_size;
        if bytes > limit {
            return Err(Error::BindingTooLarge { tensor: name, bytes, limit });
        }
        Ok(())
    }

    /// The shared scratch tensor of `dtype` for `use_`, at least `len` elements long; see the
    /// `scratch` field. A request over one storage binding is an error that leaves the current
    /// scratch in place, and a buffer is only kept once wgpu created it without error; one of
    /// another dtype is replaced.
    pub(crate) fn scratch(&self, use_: Scratch, name: &'static str, dtype: DType, len: usize) -> Result<Tensor> {
        self.check_binding(name, dtype.storage_bytes(len as u64))?;
        let mut slots = lock(&self.scratch);
        let slot = &mut slots[use_ as usize];
        if let Some(t) = slot.as_ref()
            && t.dtype() == dtype
            && t.numel() >= len
        {
            return Ok(t.clone());
        }
        let t = self.capture(name, || Tensor::zeros(self, &[len], dtype))?;
        *slot = Some(t.clone());
        Ok(t)
    }

    /// Runs `f` inside validation and out-of-memory error scopes; returns the first error wgpu
    /// reported (or one recorded by the uncaptured handler) as [`Error::Gpu`].
    ///
    /// The scopes are pushed and popped within this call, so they never stay open across
    /// calls (or mix with another batch's). What a popped scope caught is known at once on
    /// native; on the web it is known only later, so there the scopes are kept and their errors
    /// come back, with this `operation`'s name, from the next awaited call ([`Context::settle`]:
    /// `Batch::submit_async`, a read, `Context::synchronize_async`).
    pub(crate) fn capture<T>(&self, operation: &str, f: impl FnOnce() -> Result<T>) -> Result<T> {
        let oom = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let result = f();
        let (validation, oom) = (validation.pop(), oom.pop());
        let operation_name = operation.to_string();
        let scopes: BoxFuture<Result<()>> = Box::pin(async move {
            let validation = validation.await;
            let oom = oom.await;
            match validation.or(oom) {
                Some(e) => Err(Error::Gpu { operation: operation_name, message: e.to_string() }),
                None => Ok(()),
            }
        });
        let value = result?;
        self.pending.resolve_or_keep(scopes)?;
        self.take_uncaptured(operation)?;
        Ok(value)
    }

    /// Awaits the error scopes [`Context::capture`] kept (only ever any on the web) and returns
    /// the first error they caught, else — when there were any — one the uncaptured handler
    /// recorded meanwhile, as `operation`'s. A failed creation may have been the shared
    /// scratch's, so after an error the scratch is recreated on next use. On native there is
    /// nothing to await and this returns `Ok` at once.
    pub(crate) async fn settle(&self, operation: &str) -> Result<()> {
        let Some(outcome) = self.pending.settle().await else { return Ok(()) };
        if let Err(e) = outcome {
            // A buffer whose creation failed may be among those cached before its scope
            // resolved (the web): drop the caches of buffers, which are recreated on demand.
            self.release_scratch();
            self.pipelines.clear_uniforms();
            return Err(e);
        }
        self.take_uncaptured(operation)
    }

    pub(crate) fn take_uncaptured(&self, operation: &str) -> Result<()> {
        let mut errors = lock(&self.uncaptured);
        if errors.is_empty() {
            return Ok(());
        }
        let message = errors.drain(..).collect::<Vec<_>>().join("; ");
        Err(Error::Gpu { operation: operation.to_string(), message })
    }

    /// Maps `buffer` (MAP_READ, its work already submitted), copies it out and unmaps it.
    pub(crate) async fn read_mapped_async(&self, buffer: &wgpu::Buffer, operation: &str) -> Result<Vec<u8>> {
        let (tx, rx) = futures_channel::oneshot::channel();
        buffer.slice(..).map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        let mapped = platform::mapped(self, rx, operation).await?;
        mapped.map_err(|e| Error::Gpu { operation: operation.to_string(), message: e.to_string() })?;
        let data = buffer
            .slice(..)
            .get_mapped_range()
            .map_err(|e| Error::Gpu { operation: operation.to_string(), message: e.to_string() })?
            .to_vec();
        buffer.unmap();
        Ok(data)
    }
}

/// Whether a device with `features`, on an adapter reporting cooperative-matrix configurations
/// `configs` and subgroup sizes (min, max), can run the `coop_f16` kernel (which assumes
/// subgroups of 32: 8 per workgroup of 256).
fn cooperative_f16_supported(
    features: wgpu::Features,
    configs: &[wgpu::CooperativeMatrixProperties],
    subgroup_sizes: (u32, u32),
) -> bool {
    use wgpu::CooperativeScalarType as T;
    features.contains(wgpu::Features::EXPERIMENTAL_COOPERATIVE_MATRIX | wgpu::Features::SHADER_F16)
        && subgroup_sizes == (32, 32)
        && configs
            .iter()
            .any(|c| (c.m_size, c.n_size, c.k_size) == (16, 16, 16) && c.ab_type == T::F16 && c.cr_type == T::F32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_values_it_cannot_read_are_named() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
        };
        let (ok, none) = AdapterRequest::read_env(env(&[
            ("WGCONV_BACKEND", "vulkan, gl"),
            ("WGCONV_COOPERATIVE_MATRIX", "true"),
            ("WGCONV_MAX_BINDING_BYTES", "64 MiB"),
        ]));
        assert_eq!(none, None);
        assert_eq!(
            (ok.backends, ok.cooperative_matrix, ok.max_binding_bytes),
            (Some(wgpu::Backends::VULKAN | wgpu::Backends::GL), true, Some(64 << 20))
        );
        for (name, value) in [
            ("WGCONV_BACKEND", "bogus"),
            ("WGCONV_BACKEND", "vulkan,bogus"),
            ("WGCONV_COOPERATIVE_MATRIX", "maybe"),
            ("WGCONV_MAX_BINDING_BYTES", "64MB"),
            ("WGCONV_MAX_BINDING_BYTES", "99999999999999999999"),
            ("WGCONV_MAX_BINDING_BYTES", "0"),
        ] {
            let pairs: &'static [(&'static str, &'static str)] = Box::leak(Box::new([(name, value)]));
            let (partial, err) = AdapterRequest::read_env(env(pairs));
            let err = err.expect("an error");
            assert!(matches!(&err, Error::InvalidOption { option, .. } if *option == name), "{err:?}");
            assert!(err.to_string().contains(value), "{err}");
            // `from_env` leaves the value out.
            assert_eq!((partial.backends, partial.cooperative_matrix, partial.max_binding_bytes), (None, false, None));
        }
        assert_eq!(parse_byte_count("1GiB"), Some(1 << 30));
        assert_eq!(parse_byte_count("12"), Some(12));
        assert_eq!(parse_byte_count("KiB"), None);
    }

    #[test]
    fn context_is_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Context>();
    }

    #[test]
    fn cooperative_f16_needs_the_features_the_configuration_and_subgroups_of_32() {
        use wgpu::{CooperativeMatrixProperties as P, CooperativeScalarType as T, Features as F};
        let config =
            |m, ab, cr| P { m_size: m, n_size: m, k_size: m, ab_type: ab, cr_type: cr, saturating_accumulation: false };
        let h200 = [config(16, T::F16, T::F16), config(16, T::F16, T::F32)];
        let both = F::EXPERIMENTAL_COOPERATIVE_MATRIX | F::SHADER_F16;
        assert!(cooperative_f16_supported(both, &h200, (32, 32)));
        assert!(!cooperative_f16_supported(F::SHADER_F16, &h200, (32, 32)), "feature not enabled");
        assert!(!cooperative_f16_supported(F::EXPERIMENTAL_COOPERATIVE_MATRIX, &h200, (32, 32)), "no f16");
        assert!(!cooperative_f16_supported(both, &h200, (32, 64)), "subgroups may be 64");
        assert!(!cooperative_f16_supported(both, &h200[..1], (32, 32)), "f16 accumulation only");
        assert!(!cooperative_f16_supported(both, &[config(8, T::F16, T::F32)], (32, 32)), "8×8 only");
        assert!(!cooperative_f16_supported(both, &[config(16, T::F32, T::F32)], (32, 32)), "f32 inputs");
    }

    /// A future pending on its first poll, as the web resolves an error scope.
    struct Later(Option<Result<()>>, bool);

    impl std::future::Future for Later {
        type Output = Result<()>;
        fn poll(mut self: std::pin::Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> std::task::Poll<Result<()>> {
            if std::mem::replace(&mut self.1, true) {
                std::task::Poll::Ready(self.0.take().expect("polled after completion"))
            } else {
                cx.waker().wake_by_ref();
                std::task::Poll::Pending
            }
        }
    }

    #[test]
    fn scopes_resolved_at_once_fail_the_call_and_the_others_the_next_awaited_one() {
        let gpu = |op: &str| Error::Gpu { operation: op.into(), message: "caught".into() };
        let scopes = PendingScopes::default();
        // Native: known at once, returned by the recording call itself; nothing is kept.
        assert_eq!(scopes.resolve_or_keep(Box::pin(std::future::ready(Err(gpu("a"))))), Err(gpu("a")));
        assert_eq!(scopes.resolve_or_keep(Box::pin(std::future::ready(Ok(())))), Ok(()));
        assert_eq!(platform::block_on(scopes.settle()), None);
        // Web: the recording calls succeed; the awaited call gets the first error, in order.
        for outcome in [Ok(()), Err(gpu("b")), Err(gpu("c"))] {
            assert_eq!(scopes.resolve_or_keep(Box::pin(Later(Some(outcome), false))), Ok(()));
        }
        assert_eq!(platform::block_on(scopes.settle()), Some(Err(gpu("b"))));
        assert_eq!(platform::block_on(scopes.settle()), None, "every kept scope was awaited once");
    }

    #[test]
    fn request_description_names_filters() {
        let r = AdapterRequest { name_contains: Some("H200".into()), ..AdapterRequest::default() };
        assert_eq!(r.describe(), " (adapter name containing \"H200\")");
        assert_eq!(AdapterRequest::default().describe(), "");
    }

    #[test]
    fn a_binding_cap_lowers_only_the_binding_limit() {
        let adapter = wgpu::Limits { max_storage_buffer_binding_size: 1 << 31, ..wgpu::Limits::default() };
        let capped = AdapterRequest { max_binding_bytes: Some(128 << 20), ..AdapterRequest::default() };
        let limits = requested_limits(&capped, adapter.clone());
        assert_eq!(limits, wgpu::Limits { max_storage_buffer_binding_size: 128 << 20, ..adapter.clone() });
        // A cap above the limit leaves it; no cap asks for the adapter's own.
        let high = AdapterRequest { max_binding_bytes: Some(1 << 40), ..AdapterRequest::default() };
        assert_eq!(requested_limits(&high, adapter.clone()), adapter);
        assert_eq!(requested_limits(&AdapterRequest::default(), adapter.clone()), adapter);
        // Over the limits asked for, not the adapter's.
        let defaults =
            AdapterRequest { limits: Some(wgpu::Limits::default()), max_binding_bytes: Some(64 << 20), ..capped };
        let limits = requested_limits(&defaults, adapter);
        assert_eq!(limits, wgpu::Limits { max_storage_buffer_binding_size: 64 << 20, ..wgpu::Limits::default() });
    }
}
