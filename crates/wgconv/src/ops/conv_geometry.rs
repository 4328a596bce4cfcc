//! Convolution arguments → validated geometry (pure; no GPU). Semantics of
//! `aten.convolution.default`: NCHW, weight `[OC, IC/groups, KH, KW]`, transposed weight
//! `[IC, OC/groups, KH, KW]`; rank-3 tensors are the 1D case run with H = 1.

use super::conv_plan::ConvKernel;
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

impl Activation {
    /// Checks the clamp bounds.
    pub fn validate(self) -> Result<()> {
        if let Activation::Clamp { min, max } = self
            && (min.is_nan() || max.is_nan() || min > max)
        {
            return Err(Error::invalid(format!("clamp activation needs min <= max, got min {min}, max {max}")));
        }
        Ok(())
    }

    /// Applies the activation on the host (reference semantics).
    pub fn apply(self, v: f64) -> f64 {
        match self {
            Activation::None => v,
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
    /// convolutions the planner gives to its GEMM kernels; everything else runs in fp32 as
    /// before. [`crate::ConvOutput::kernel`] says which ran.
    AllowF16,
}

/// Arguments of a convolution besides its tensors. Lists hold 1 value (both dims) or 2 (H, W);
/// 1D convolutions take 1.
#[derive(Clone, Debug, PartialEq)]
pub struct ConvOptions {
    /// Stride.
    pub stride: Vec<u32>,
    /// Zero padding on both sides.
    pub padding: Vec<u32>,
    /// Dilation.
    pub dilation: Vec<u32>,
    /// Extra rows/columns at the end of a transposed convolution's output.
    pub output_padding: Vec<u32>,
    /// Channel groups (IC and OC divisible by it; `groups == IC` is depthwise).
    pub groups: u32,
    /// Transposed convolution.
    pub transposed: bool,
    /// Fused output activation.
    pub activation: Activation,
    /// Force a kernel instead of letting the planner choose (benchmarks, tests).
    pub kernel: Option<ConvKernel>,
    /// Force the GEMM kernels' number of K-slices instead of the planner's (benchmarks, tests).
    pub split_k: Option<u32>,
    /// Force stream-K over this many workgroups on the GEMM kernels (benchmarks, tests, tuning).
    pub stream_k: Option<u32>,
    /// Force the GEMM kernels' tile width instead of the planner's (benchmarks, tests, tuning).
    pub tile_n: Option<u32>,
    /// The arithmetic allowed (fp32 by default).
    pub precision: Precision,
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
            kernel: None,
            split_k: None,
            stream_k: None,
            tile_n: None,
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
    /// Sets the padding.
    pub fn padding(mut self, p: &[u32]) -> Self {
        self.padding = p.to_vec();
        self
    }
    /// Sets the dilation.
    pub fn dilation(mut self, d: &[u32]) -> Self {
        self.dilation = d.to_vec();
        self
    }
    /// Sets the output padding (transposed only).
    pub fn output_padding(mut self, p: &[u32]) -> Self {
        self.output_padding = p.to_vec();
        self
    }
    /// Sets the groups.
    pub fn groups(mut self, g: u32) -> Self {
        self.groups = g;
        self
    }
    /// Makes it a transposed convolution.
    pub fn transposed(mut self, t: bool) -> Self {
        self.transposed = t;
        self
    }
    /// Forces a kernel (`None`: the planner chooses).
    pub fn kernel(mut self, k: Option<ConvKernel>) -> Self {
        self.kernel = k;
        self
    }
    /// Forces the GEMM kernels' K-slices (`None`: the planner chooses). It applies only when a
    /// GEMM kernel runs the convolution.
    pub fn split_k(mut self, splits: Option<u32>) -> Self {
        self.split_k = splits;
        self
    }
    /// Forces stream-K over `workgroups` workgroups on the GEMM kernels (`None`: no stream-K,
    /// unless `Conv2d::tune` chose it for this geometry; the planner never does). Cannot be
    /// combined with `split_k`. Like `split_k`, it applies only when a GEMM kernel runs the
    /// convolution.
    pub fn stream_k(mut self, workgroups: Option<u32>) -> Self {
        self.stream_k = workgroups;
        self
    }
    /// Forces the GEMM kernels' output tile width: columns of N·OH·OW per workgroup, a multiple
    /// of 8 in [`crate::GEMM_TILE_N`] (`None`: the planner chooses, or `Conv2d::tune` did for this
    /// geometry; forcing a width, like forcing K-slices, sets a tuned configuration aside). Like
    /// `split_k`, it applies only when a GEMM kernel runs the convolution; a width the kernels
    /// cannot take there, or whose tiles need more workgroup memory than the device has, is an
    /// error naming it.
    pub fn tile_n(mut self, columns: Option<u32>) -> Self {
        self.tile_n = columns;
        self
    }
    /// Sets the arithmetic allowed ([`Precision::AllowF16`]: tensor cores where available).
    pub fn precision(mut self, p: Precision) -> Self {
        self.precision = p;
        self
    }
    /// Sets the fused activation.
    pub fn activation(mut self, a: Activation) -> Self {
        self.activation = a;
        self
    }
}

/// A validated convolution: every size the kernels need, 1D already mapped to H = 1.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ConvGeometry {
    /// Batch.
    pub n: u32,
    /// Input channels.
    pub ic: u32,
    /// Input height (1 for 1D).
    pub ih: u32,
    /// Input width (length for 1D).
    pub iw: u32,
    /// Output channels.
    pub oc: u32,
    /// Output height.
    pub oh: u32,
    /// Output width.
    pub ow: u32,
    /// Kernel height.
    pub kh: u32,
    /// Kernel width.
    pub kw: u32,
    /// Stride (H, W).
    pub stride: [u32; 2],
    /// Padding (H, W).
    pub padding: [u32; 2],
    /// Dilation (H, W).
    pub dilation: [u32; 2],
    /// Output padding (H, W).
    pub output_padding: [u32; 2],
    /// Groups.
    pub groups: u32,
    /// Transposed.
    pub transposed: bool,
    /// Given as rank-3 (conv1d) tensors.
    pub one_d: bool,
}

fn pair(name: &str, values: &[u32], one_d: bool) -> Result<[u32; 2]> {
    match (values, one_d) {
        ([v], _) => Ok([*v, *v]),
        ([h, w], false) => Ok([*h, *w]),
        (_, true) => {
            Err(Error::invalid(format!("{name} for a 1D convolution takes 1 value, got {}: {values:?}", values.len())))
        }
        _ => Err(Error::invalid(format!(
            "{name} takes 1 value (both dims) or 2 (H, W), got {}: {values:?}",
            values.len()
        ))),
    }
}

fn to_u32(tensor: &'static str, dim: usize) -> Result<u32> {
    u32::try_from(dim).map_err(|_| Error::TooManyElements { tensor, count: dim as u64, limit: u64::from(u32::MAX) })
}

impl ConvGeometry {
    /// Validates shapes and options; `bias` is the bias shape when a bias is given.
    pub fn new(input: &[usize], weight: &[usize], bias: Option<&[usize]>, opts: &ConvOptions) -> Result<Self> {
        let one_d = match input.len() {
            4 => false,
            3 => true,
            r => {
                return Err(Error::Rank {
                    tensor: "input",
                    expected: "4 (NCHW) or 3 (NCL, 1D)".into(),
                    got: r,
                    shape: input.to_vec(),
                });
            }
        };
        if weight.len() != input.len() {
            let expected = if one_d {
                if opts.transposed {
                    "3 ([IC, OC/groups, K]) like the 1D input"
                } else {
                    "3 ([OC, IC/groups, K]) like the 1D input"
                }
            } else if opts.transposed {
                "4 ([IC, OC/groups, KH, KW]) like the input"
            } else {
                "4 ([OC, IC/groups, KH, KW]) like the input"
            };
            return Err(Error::Rank {
                tensor: "weight",
                expected: expected.into(),
                got: weight.len(),
                shape: weight.to_vec(),
            });
        }
        let spatial = |s: &[usize]| if one_d { [1, s[2]] } else { [s[2], s[3]] };
        for (tensor, shape) in [("input", input), ("weight", weight)] {
            if shape.contains(&0) {
                return Err(Error::invalid(format!("{tensor} shape {shape:?} has a zero dimension")));
            }
        }
        let (n, ic) = (to_u32("input", input[0])?, to_u32("input", input[1])?);
        let [ih, iw] = spatial(input);
        let (ih, iw) = (to_u32("input", ih)?, to_u32("input", iw)?);
        let [kh, kw] = spatial(weight);
        let (kh, kw) = (to_u32("weight", kh)?, to_u32("weight", kw)?);
        let groups = opts.groups;
        if groups == 0 {
            return Err(Error::invalid("groups must be at least 1, got 0"));
        }
        if ic % groups != 0 {
            return Err(Error::invalid(format!("groups {groups} does not divide the {ic} input channels")));
        }
        let w0 = to_u32("weight", weight[0])?;
        let w1 = to_u32("weight", weight[1])?;
        let oc = if opts.transposed {
            if w0 != ic {
                return Err(Error::invalid(format!(
                    "transposed weight {weight:?} has {w0} input channels in dim 0, the input has {ic}"
                )));
            }
            w1.checked_mul(groups).ok_or_else(|| Error::invalid("output channels overflow u32"))?
        } else {
            if w0 % groups != 0 {
                return Err(Error::invalid(format!(
                    "groups {groups} does not divide the {w0} output channels of weight {weight:?}"
                )));
            }
            if w1 != ic / groups {
                return Err(Error::invalid(format!(
                    "weight {weight:?} has {w1} channels per group in dim 1, expected input channels {ic} / groups {groups} = {}",
                    ic / groups
                )));
            }
            w0
        };
        let stride = pair("stride", &opts.stride, one_d)?;
        let padding = pair("padding", &opts.padding, one_d)?;
        let dilation = pair("dilation", &opts.dilation, one_d)?;
        let output_padding = pair("output_padding", &opts.output_padding, one_d)?;
        // The 1D case is H = 1 with a 1×K kernel and no stride, padding or dilation along H.
        let (stride, padding, dilation, output_padding) = if one_d {
            ([1, stride[1]], [0, padding[1]], [1, dilation[1]], [0, output_padding[1]])
        } else {
            (stride, padding, dilation, output_padding)
        };
        let dims: &[&str] = if one_d { &["", "length"] } else { &["height", "width"] };
        let dim_name = |i: usize| if one_d { dims[1] } else { dims[i] };
        for (name, v) in [("stride", stride), ("dilation", dilation)] {
            if let Some(i) = v.iter().position(|x| *x == 0) {
                return Err(Error::invalid(format!("{name} along {} must be at least 1, got 0", dim_name(i))));
            }
        }
        opts.activation.validate()?;
        let mut out = [0u32; 2];
        let (inp, ker) = ([ih, iw], [kh, kw]);
        for i in 0..2 {
            let extent = i64::from(dilation[i]) * (i64::from(ker[i]) - 1) + 1;
            let size = if opts.transposed {
                let op = output_padding[i];
                if op >= stride[i] && op >= dilation[i] {
                    return Err(Error::invalid(format!(
                        "output_padding {op} along {} must be smaller than stride {} or dilation {}",
                        dim_name(i),
                        stride[i],
                        dilation[i]
                    )));
                }
                (i64::from(inp[i]) - 1) * i64::from(stride[i]) - 2 * i64::from(padding[i]) + extent + i64::from(op)
            } else {
                if output_padding[i] != 0 {
                    return Err(Error::invalid(format!(
                        "output_padding {} along {} is only valid for a transposed convolution",
                        output_padding[i],
                        dim_name(i)
                    )));
                }
                let padded = i64::from(inp[i]) + 2 * i64::from(padding[i]);
                if padded < extent {
                    return Err(Error::invalid(format!(
                        "kernel {} of {} (dilation {}: extent {extent}) is larger than the padded input {} of {padded} (input {} + 2 × padding {}); the output would be empty",
                        dim_name(i),
                        ker[i],
                        dilation[i],
                        dim_name(i),
                        inp[i],
                        padding[i]
                    )));
                }
                (padded - extent) / i64::from(stride[i]) + 1
            };
            if size < 1 {
                return Err(Error::invalid(format!(
                    "transposed output {} would be {size}: input {}, stride {}, padding {}, kernel {}, dilation {}",
                    dim_name(i),
                    inp[i],
                    stride[i],
                    padding[i],
                    ker[i],
                    dilation[i]
                )));
            }
            out[i] = u32::try_from(size).map_err(|_| Error::TooManyElements {
                tensor: "output",
                count: size as u64,
                limit: u64::from(u32::MAX),
            })?;
        }
        let geometry = Self {
            n,
            ic,
            ih,
            iw,
            oc,
            oh: out[0],
            ow: out[1],
            kh,
            kw,
            stride,
            padding,
            dilation,
            output_padding,
            groups,
            transposed: opts.transposed,
            one_d,
        };
        let count = geometry.output_numel();
        if count > u64::from(u32::MAX) {
            return Err(Error::TooManyElements { tensor: "output", count, limit: u64::from(u32::MAX) });
        }
        if let Some(b) = bias
            && b != [oc as usize]
        {
            return Err(Error::invalid(format!(
                "bias must have shape [{oc}] (one value per output channel), got {b:?}"
            )));
        }
        Ok(geometry)
    }

    /// Output shape, rank 3 for 1D inputs.
    pub fn output_shape(&self) -> Vec<usize> {
        let (n, oc, oh, ow) = (self.n as usize, self.oc as usize, self.oh as usize, self.ow as usize);
        if self.one_d { vec![n, oc, ow] } else { vec![n, oc, oh, ow] }
    }

    /// Elements of the output.
    pub fn output_numel(&self) -> u64 {
        self.output_shape().iter().map(|d| *d as u64).product()
    }

    /// Multiply-accumulates the convolution performs (×2 for FLOPs).
    pub fn macs(&self) -> u64 {
        let per_output = u64::from(self.ic / self.groups) * u64::from(self.kh) * u64::from(self.kw);
        if self.transposed {
            // Every input element meets every tap once (some fall outside the output).
            u64::from(self.n)
                * u64::from(self.ic)
                * u64::from(self.ih)
                * u64::from(self.iw)
                * u64::from(self.oc / self.groups)
                * u64::from(self.kh)
                * u64::from(self.kw)
        } else {
            self.output_numel() * per_output
        }
    }

    /// Shape of the weight this geometry expects (rank 4).
    pub fn weight_shape(&self) -> [usize; 4] {
        let (kh, kw) = (self.kh as usize, self.kw as usize);
        if self.transposed {
            [self.ic as usize, (self.oc / self.groups) as usize, kh, kw]
        } else {
            [self.oc as usize, (self.ic / self.groups) as usize, kh, kw]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geo(input: &[usize], weight: &[usize], opts: ConvOptions) -> Result<ConvGeometry> {
        ConvGeometry::new(input, weight, None, &opts)
    }

    #[test]
    fn output_sizes_follow_pytorch() {
        let g = geo(&[1, 3, 768, 768], &[128, 3, 7, 7], ConvOptions::default().stride(&[4]).padding(&[3])).unwrap();
        assert_eq!(g.output_shape(), vec![1, 128, 192, 192]);
        let g = geo(
            &[2, 4, 9, 11],
            &[6, 2, 3, 2],
            ConvOptions::default().stride(&[2, 1]).padding(&[1, 0]).dilation(&[2, 3]).groups(2),
        )
        .unwrap();
        assert_eq!(g.output_shape(), vec![2, 6, 4, 8]);
        let g = geo(
            &[8, 256, 16, 16],
            &[256, 128, 4, 4],
            ConvOptions::default().stride(&[2]).padding(&[1]).transposed(true),
        )
        .unwrap();
        assert_eq!(g.output_shape(), vec![8, 128, 32, 32]);
        assert_eq!(g.reference_kernel(), ConvKernel::Transposed);
    }

    #[test]
    fn one_d_maps_to_h_equal_one() {
        let g = geo(&[2, 3, 10], &[4, 3, 3], ConvOptions::default().stride(&[2]).padding(&[1])).unwrap();
        assert_eq!((g.ih, g.kh, g.stride, g.padding), (1, 1, [1, 2], [0, 1]));
        assert_eq!(g.output_shape(), vec![2, 4, 5]);
        let err = geo(&[2, 3, 10], &[4, 3, 3], ConvOptions::default().stride(&[2, 2])).unwrap_err();
        assert!(err.to_string().contains("1D convolution takes 1 value"), "{err}");
        let err = geo(&[2, 3, 2], &[4, 3, 5], ConvOptions::default()).unwrap_err();
        assert!(err.to_string().contains("kernel length of 5"), "{err}");
    }
}
