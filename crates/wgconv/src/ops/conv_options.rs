//! What a convolution does besides its tensors: [`ConvOptions`] (`aten.convolution.default`'s
//! arguments, the fused activation and the precision allowed) and [`ForcedPlan`], the choices
//! the planner would make, forced for benchmarks, tests and tuning.

use super::conv_kernel::ConvKernel;
use crate::error::{Error, Result};

/// Output activation fused into the kernel's epilogue.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Activation {
    /// Identity.
    #[default]
    None,
    /// `max(x, 0)`.
    Relu,
    /// `clamp(x, min, max)` (e.g. ReLU6 is `Clamp { min: 0.0, max: 6.0 }`).
    Clamp {
        /// Lower bound.
        min: f32,
        /// Upper bound.
        max: f32,
    },
}

impl std::str::FromStr for Activation {
    type Err = String;

    /// `none`, `relu` or `clamp:MIN,MAX` (finite, MIN <= MAX), as the CLI and suite files write it.
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "none" => Ok(Activation::None),
            "relu" => Ok(Activation::Relu),
            _ => {
                let bounds = s
                    .strip_prefix("clamp:")
                    .ok_or_else(|| format!("unknown activation {s:?}: use none, relu or clamp:MIN,MAX"))?;
                let parsed: Result<Vec<f32>, _> = bounds.split(',').map(|v| v.trim().parse::<f32>()).collect();
                match parsed.as_deref() {
                    Ok([min, max]) if min.is_finite() && max.is_finite() && min <= max => {
                        Ok(Activation::Clamp { min: *min, max: *max })
                    }
                    _ => Err(format!("clamp needs two finite bounds MIN <= MAX, got {bounds:?}")),
                }
            }
        }
    }
}

impl Activation {
    /// Checks the clamp bounds: finite (the kernels take them as pipeline constants, which
    /// must be; `f32::MIN` / `f32::MAX` bound one side only for every finite value), min <= max.
    pub fn validate(self) -> Result<()> {
        if let Activation::Clamp { min, max } = self
            && !(min.is_finite() && max.is_finite() && min <= max)
        {
            return Err(Error::option(
                "activation",
                format!("clamp activation needs finite bounds with min <= max, got min {min}, max {max}"),
            ));
        }
        Ok(())
    }

    /// Applies the activation on the host (reference semantics: PyTorch's, NaN stays NaN).
    pub fn apply(self, v: f64) -> f64 {
        match self {
            Activation::None => v,
            // f64::max would return 0 for a NaN.
            Activation::Relu if v.is_nan() => v,
            Activation::Relu => v.max(0.0),
            Activation::Clamp { min, max } => v.clamp(f64::from(min), f64::from(max)),
        }
    }
}

/// The arithmetic a convolution may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Precision {
    /// fp32 multiplies and sums throughout (the default).
    #[default]
    F32,
    /// Allows f16 multiplicands with f32 accumulation on cooperative matrices (tensor cores):
    /// inputs and weights are rounded to f16 as they are loaded, products and sums stay f32 —
    /// what cuDNN's TF32 mode does, with the same 11 significant bits but f16's range: inputs
    /// of magnitude 65520 and up become ±∞, below 6.1e-5 they lose bits (subnormals). Used where
    /// the context enabled cooperative matrices ([`crate::AdapterRequest::cooperative_matrix`])
    /// and the device reports 16×16×16 f16 × f16 + f32 on subgroups of 32, for the direct
    /// convolutions the planner gives to its GEMM kernels for their GEMM shape (not the layers
    /// of under 16 output channels per group it gives a small-grid kernel for its K split);
    /// everything else runs in fp32 as before. [`crate::ConvOutput::kernel`] says which ran.
    /// The Winograd kernels on the tensor cores round their transformed operands instead: their
    /// input transform sums up to 4 (`WinogradCoop`) or 6.1 (`Winograd4x4Coop`, after its
    /// scaling) times the largest input of a window, so they overflow f16 from inputs of about
    /// 16 000 and 10 700, and `Winograd4x4Coop`'s rounding is about 4 times `WinogradCoop`'s.
    AllowF16,
}

/// Arguments of a convolution besides its tensors, set through the builder methods (the
/// default is a plain 2D convolution: stride 1, no padding, dilation 1, one group, fp32). Lists
/// hold 1 value (both dims) or 2 (H, W); 1D convolutions take 1. Any values are accepted here:
/// [`ConvGeometry::new`](crate::ConvGeometry::new) and the ops validate them against the tensors.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvOptions {
    pub(crate) stride: Vec<u32>,
    pub(crate) padding: Vec<u32>,
    pub(crate) dilation: Vec<u32>,
    pub(crate) output_padding: Vec<u32>,
    pub(crate) groups: u32,
    pub(crate) transposed: bool,
    pub(crate) activation: Activation,
    pub(crate) precision: Precision,
}

impl Default for ConvOptions {
    fn default() -> Self {
        Self {
            stride: vec![1],
            padding: vec![0],
            dilation: vec![1],
            output_padding: vec![0],
            groups: 1,
            transposed: false,
            activation: Activation::None,
            precision: Precision::F32,
        }
    }
}

impl ConvOptions {
    /// Sets the stride.
    pub fn stride(mut self, s: &[u32]) -> Self {
        self.stride = s.to_vec();
        self
    }
    /// Sets the zero padding on both sides.
    pub fn padding(mut self, p: &[u32]) -> Self {
        self.padding = p.to_vec();
        self
    }
    /// Sets the dilation.
    pub fn dilation(mut self, d: &[u32]) -> Self {
        self.dilation = d.to_vec();
        self
    }
    /// Sets the extra rows/columns at the end of a transposed convolution's output.
    pub fn output_padding(mut self, p: &[u32]) -> Self {
        self.output_padding = p.to_vec();
        self
    }
    /// Sets the channel groups (IC and OC divisible by it; `groups == IC` is depthwise).
    pub fn groups(mut self, g: u32) -> Self {
        self.groups = g;
        self
    }
    /// Makes it a transposed convolution (weight `[IC, OC/groups, KH, KW]`).
    pub fn transposed(mut self, t: bool) -> Self {
        self.transposed = t;
        self
    }
    /// Sets the arithmetic allowed ([`Precision::AllowF16`]: tensor cores where available).
    pub fn precision(mut self, p: Precision) -> Self {
        self.precision = p;
        self
    }
    /// Sets the fused output activation.
    pub fn activation(mut self, a: Activation) -> Self {
        self.activation = a;
        self
    }
}

/// How a GEMM kernel shares K among its workgroups, as forced ([`ForcedPlan::schedule`]) or
/// chosen by tuning ([`crate::TunedConfig::schedule`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GemmSchedule {
    /// K cut into this many slices, one workgroup per tile and slice, their partial sums added
    /// by a reduce pass (1: no split).
    SplitK(u32),
    /// Stream-K over this many workgroups: they share every (tile, K-tile) iteration equally,
    /// so a grid of tiles that does not fill whole waves keeps every multiprocessor busy.
    /// Direct convolutions only.
    StreamK(u32),
}

/// When the staged 16-deep GEMM tiles (`GemmK16`, `GemmM64K16`, `GemmN64K16`) load a K-tile
/// from global memory, as forced ([`ForcedPlan::k_tile_loads`]) or chosen by tuning
/// ([`crate::TunedConfig::k_tile_loads`]). Both compute the same sums; which is faster depends
/// on the tile and the device (the planner's choice, fitted on an H100, is in
/// docs/PERFORMANCE.md, v50).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KTileLoads {
    /// The next K-tile's loads are issued before this K-tile's multiply-adds and held in
    /// registers across them.
    Ahead,
    /// Each K-tile is loaded, staged and multiplied in its own iteration: nothing loaded is held
    /// across the multiply-adds, and other workgroups cover the loads' latency.
    InIteration,
}

impl KTileLoads {
    /// Both, [`KTileLoads::Ahead`] first.
    pub const ALL: [KTileLoads; 2] = [KTileLoads::Ahead, KTileLoads::InIteration];

    /// The name the CLI and tuning files use: `ahead` or `in_iteration`.
    pub fn name(self) -> &'static str {
        match self {
            KTileLoads::Ahead => "ahead",
            KTileLoads::InIteration => "in_iteration",
        }
    }

    /// The value named `name` ([`KTileLoads::name`]).
    pub fn from_name(name: &str) -> Option<KTileLoads> {
        KTileLoads::ALL.into_iter().find(|l| l.name() == name)
    }
}

/// The order in which the staged GEMM tiles take their workgroups' output tiles (K-slice
/// launches; stream-K keeps its own order), as forced ([`ForcedPlan::tile_order`]). Both compute
/// the same sums; which is faster depends on whether the input fits the GPU's L2 cache (the
/// planner's choice, fitted on an H100, is rule R55 in docs/PERFORMANCE.md, v51).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TileOrder {
    /// Tiles along N (the output pixels) fastest: the workgroups that run at once share the
    /// rows of A (the weights) they read.
    NFastest,
    /// Tiles along M (the output channels) fastest: the workgroups that run at once share the
    /// columns of B (the input) they read, so an input larger than the L2 cache is read from
    /// memory once rather than once per M tile.
    MFastest,
}

impl TileOrder {
    /// Both, [`TileOrder::NFastest`] first.
    pub const ALL: [TileOrder; 2] = [TileOrder::NFastest, TileOrder::MFastest];

    /// The name the CLI uses: `n_fastest` or `m_fastest`.
    pub fn name(self) -> &'static str {
        match self {
            TileOrder::NFastest => "n_fastest",
            TileOrder::MFastest => "m_fastest",
        }
    }

    /// The value named `name` ([`TileOrder::name`]).
    pub fn from_name(name: &str) -> Option<TileOrder> {
        TileOrder::ALL.into_iter().find(|o| o.name() == name)
    }
}

/// The choices the planner makes — kernel, GEMM tile width, K schedule, K-tile loads, tile order
/// — forced instead, for benchmarks, tests and tuning (`Default`: nothing forced). Each applies
/// only where it can: a tile width or schedule only when a GEMM kernel runs, the K-tile loads
/// only on the 16-deep staged tiles, the fp32 Winograd kernels' products on them included (the
/// other entry points always load ahead; unforced, those products load as R69 or R70 sets), the
/// tile order only on the staged tiles' K-slice launches (Winograd's products always take N
/// tiles fastest). A forced choice that cannot run the
/// convolution on the device is an error naming it, never a silent fallback; forcing anything
/// also sets aside what [`crate::Conv2d::tune`] chose for the geometry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ForcedPlan {
    /// The kernel (`None`: the planner's, or the tuned one).
    pub kernel: Option<ConvKernel>,
    /// The GEMM kernels' output tile width: columns of N·OH·OW per workgroup, a multiple of 8 in
    /// [`crate::GEMM_TILE_N`].
    pub tile_n: Option<u32>,
    /// The GEMM kernels' K schedule (`None`: the planner's K-slices; it never picks stream-K).
    pub schedule: Option<GemmSchedule>,
    /// When the 16-deep staged tiles load a K-tile (`None`: the planner's choice for the tile),
    /// those of the products of the fp32 Winograd kernels included (`None`: R69's choice by
    /// their K, or R70's).
    pub k_tile_loads: Option<KTileLoads>,
    /// The order in which the staged tiles take their output tiles (`None`: the planner's, R55).
    pub tile_order: Option<TileOrder>,
}

impl ForcedPlan {
    /// Forces `kernel` only.
    pub fn kernel(kernel: ConvKernel) -> Self {
        Self { kernel: Some(kernel), ..Self::default() }
    }

    /// Whether nothing is forced.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// Whether a kernel, tile width or K schedule is forced: the choices that set aside the
    /// f16 paths (tensor cores, f16 Winograd). The K-tile loads and the tile order alone do
    /// not: they apply wherever the staged tiles run.
    pub(crate) fn forces_launch(&self) -> bool {
        self.kernel.is_some() || self.tile_n.is_some() || self.schedule.is_some()
    }
}
