//! Convolution arguments → validated geometry (pure; no GPU). Semantics of
//! `aten.convolution.default`: NCHW, weight `[OC, IC/groups, KH, KW]`, transposed weight
//! `[IC, OC/groups, KH, KW]`; rank-3 tensors are the 1D case run with H = 1.

use super::conv_options::ConvOptions;
use crate::error::{Error, Result};

/// A validated convolution: every size the kernels need, 1D already mapped to H = 1. Made only
/// by [`ConvGeometry::new`], so every geometry the planner and encoders see was validated.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ConvGeometry {
    /// Batch.
    pub(crate) n: u32,
    /// Input channels.
    pub(crate) ic: u32,
    /// Input height (1 for 1D).
    pub(crate) ih: u32,
    /// Input width (length for 1D).
    pub(crate) iw: u32,
    /// Output channels.
    pub(crate) oc: u32,
    /// Output height.
    pub(crate) oh: u32,
    /// Output width.
    pub(crate) ow: u32,
    /// Kernel height.
    pub(crate) kh: u32,
    /// Kernel width.
    pub(crate) kw: u32,
    /// Stride (H, W).
    pub(crate) stride: [u32; 2],
    /// Padding (H, W).
    pub(crate) padding: [u32; 2],
    /// Dilation (H, W).
    pub(crate) dilation: [u32; 2],
    /// Output padding (H, W).
    pub(crate) output_padding: [u32; 2],
    /// Groups.
    pub(crate) groups: u32,
    /// Transposed.
    pub(crate) transposed: bool,
    /// Given as rank-3 (conv1d) tensors.
    pub(crate) one_d: bool,
}

/// An option's values per axis (H, W): one for both, or two (2D only); a typed error naming it
/// otherwise.
pub(super) fn pair(name: &'static str, values: &[u32], one_d: bool) -> Result<[u32; 2]> {
    match (values, one_d) {
        ([v], _) => Ok([*v, *v]),
        ([h, w], false) => Ok([*h, *w]),
        (_, true) => Err(Error::option(
            name,
            format!("{name} for a 1D convolution takes 1 value, got {}: {values:?}", values.len()),
        )),
        _ => Err(Error::option(
            name,
            format!("{name} takes 1 value (both dims) or 2 (H, W), got {}: {values:?}", values.len()),
        )),
    }
}

/// The groups option: at least 1.
fn check_groups(groups: u32) -> Result<u32> {
    if groups == 0 {
        return Err(Error::option("groups", "groups must be at least 1, got 0"));
    }
    Ok(groups)
}

/// A bias of shape `bias` for `oc` output channels: one value per channel.
pub(crate) fn check_bias(bias: &[usize], oc: u32) -> Result<()> {
    if bias != [oc as usize] {
        return Err(Error::shape(format!("bias must have shape [{oc}] (one value per output channel), got {bias:?}")));
    }
    Ok(())
}

/// A convolution weight's sizes, checked against the options alone (what a weight prepared
/// before any input, as `Conv2d::new` does, can be checked for): rank 3 or 4, no zero
/// dimension, each within u32, dim 0 divisible by the groups.
#[derive(Clone, Copy, Debug)]
pub(crate) struct WeightDims {
    /// Dim 0: output channels (input channels when transposed).
    pub dim0: u32,
    /// Dim 1: input channels per group (output channels per group when transposed).
    pub dim1: u32,
    /// Output channels of the convolution.
    pub oc: u32,
    /// Kernel height (1 for 1D).
    pub kh: u32,
    /// Kernel width.
    pub kw: u32,
}

impl WeightDims {
    /// Checks `weight` for a convolution with `opts`.
    pub(crate) fn new(weight: &[usize], opts: &ConvOptions) -> Result<Self> {
        if !(3..=4).contains(&weight.len()) {
            return Err(Error::Rank {
                tensor: "weight",
                expected: "4 ([OC, IC/groups, KH, KW]; transposed [IC, OC/groups, KH, KW]) or 3 for 1D".into(),
                got: weight.len(),
                shape: weight.to_vec(),
            });
        }
        if weight.contains(&0) {
            return Err(Error::shape(format!("weight shape {weight:?} has a zero dimension")));
        }
        let groups = check_groups(opts.groups)?;
        let (dim0, dim1) = (to_u32("weight", weight[0])?, to_u32("weight", weight[1])?);
        let [kh, kw] = if weight.len() == 3 { [1, weight[2]] } else { [weight[2], weight[3]] };
        let (kh, kw) = (to_u32("weight", kh)?, to_u32("weight", kw)?);
        let what = if opts.transposed { "input channels of transposed weight" } else { "output channels of weight" };
        if dim0 % groups != 0 {
            return Err(Error::shape(format!("groups {groups} does not divide the {dim0} {what} {weight:?}")));
        }
        let oc = if opts.transposed {
            dim1.checked_mul(groups).ok_or_else(|| Error::shape("output channels overflow u32"))?
        } else {
            dim0
        };
        Ok(Self { dim0, dim1, oc, kh, kw })
    }
}

fn to_u32(tensor: &'static str, dim: usize) -> Result<u32> {
    crate::error::fits_u32(tensor, dim as u64)
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
        if input.contains(&0) {
            return Err(Error::shape(format!("input shape {input:?} has a zero dimension")));
        }
        let (n, ic) = (to_u32("input", input[0])?, to_u32("input", input[1])?);
        let [ih, iw] = spatial(input);
        let (ih, iw) = (to_u32("input", ih)?, to_u32("input", iw)?);
        let groups = check_groups(opts.groups)?;
        if ic % groups != 0 {
            return Err(Error::shape(format!("groups {groups} does not divide the {ic} input channels")));
        }
        let WeightDims { dim0: w0, dim1: w1, oc, kh, kw } = WeightDims::new(weight, opts)?;
        if opts.transposed && w0 != ic {
            return Err(Error::shape(format!(
                "transposed weight {weight:?} has {w0} input channels in dim 0, the input has {ic}"
            )));
        }
        if !opts.transposed && w1 != ic / groups {
            return Err(Error::shape(format!(
                "weight {weight:?} has {w1} channels per group in dim 1, expected input channels {ic} / groups {groups} = {}",
                ic / groups
            )));
        }
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
                return Err(Error::option(name, format!("{name} along {} must be at least 1, got 0", dim_name(i))));
            }
        }
        // The kernels compute input coordinates as signed 32-bit integers: every value that
        // enters them, and every extent below, stays under 2^31.
        let coordinate_limit = i64::from(i32::MAX);
        for (name, v) in
            [("stride", stride), ("padding", padding), ("dilation", dilation), ("output_padding", output_padding)]
        {
            if let Some(i) = v.iter().position(|x| i64::from(*x) > coordinate_limit) {
                return Err(Error::option(
                    name,
                    format!("{name} {} along {} is over the kernels' limit of 2^31 - 1", v[i], dim_name(i)),
                ));
            }
        }
        opts.activation.validate()?;
        let mut out = [0u32; 2];
        let (inp, ker) = ([ih, iw], [kh, kw]);
        for i in 0..2 {
            let extent = i64::from(dilation[i]) * (i64::from(ker[i]) - 1) + 1;
            if extent > coordinate_limit {
                return Err(Error::option(
                    "dilation",
                    format!(
                        "dilation {} × (kernel {} - 1) + 1 = {extent} along {} is over the kernels' limit of 2^31 - 1",
                        dilation[i],
                        ker[i],
                        dim_name(i)
                    ),
                ));
            }
            let size = if opts.transposed {
                let op = output_padding[i];
                if op >= stride[i] && op >= dilation[i] {
                    return Err(Error::option(
                        "output_padding",
                        format!(
                            "output_padding {op} along {} must be smaller than stride {} or dilation {}",
                            dim_name(i),
                            stride[i],
                            dilation[i]
                        ),
                    ));
                }
                let unpadded = (i64::from(inp[i]) - 1) * i64::from(stride[i]) + extent + i64::from(op);
                if unpadded > coordinate_limit {
                    let message = format!(
                        "(input {} - 1) × stride {} + kernel extent {extent} + output_padding {op} = {unpadded} along {} is over the kernels' limit of 2^31 - 1",
                        inp[i],
                        stride[i],
                        dim_name(i)
                    );
                    // Blame the stride only where it is what multiplies the input past the limit.
                    return Err(if stride[i] > 1 { Error::option("stride", message) } else { Error::shape(message) });
                }
                unpadded - 2 * i64::from(padding[i])
            } else {
                if output_padding[i] != 0 {
                    return Err(Error::option(
                        "output_padding",
                        format!(
                            "output_padding {} along {} is only valid for a transposed convolution",
                            output_padding[i],
                            dim_name(i)
                        ),
                    ));
                }
                let padded = i64::from(inp[i]) + 2 * i64::from(padding[i]);
                if padded > coordinate_limit {
                    let message = format!(
                        "the padded input {} + 2 × padding {} = {padded} along {} is over the kernels' limit of 2^31 - 1",
                        inp[i],
                        padding[i],
                        dim_name(i)
                    );
                    // An input already at the limit is a shape error, not the padding's.
                    return Err(if padding[i] > 0 { Error::option("padding", message) } else { Error::shape(message) });
                }
                if padded < extent {
                    return Err(Error::shape(format!(
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
                return Err(Error::shape(format!(
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
        if let Some(bias) = bias {
            check_bias(bias, oc)?;
        }
        Ok(geometry)
    }

    /// Batch size (N).
    pub fn batch(&self) -> u32 {
        self.n
    }

    /// Input channels (IC).
    pub fn in_channels(&self) -> u32 {
        self.ic
    }

    /// Output channels (OC).
    pub fn out_channels(&self) -> u32 {
        self.oc
    }

    /// Input height and width (height 1 for a 1D convolution).
    pub fn input_size(&self) -> [u32; 2] {
        [self.ih, self.iw]
    }

    /// Output height and width (height 1 for a 1D convolution).
    pub fn output_size(&self) -> [u32; 2] {
        [self.oh, self.ow]
    }

    /// Filter height and width (height 1 for a 1D convolution).
    pub fn kernel_size(&self) -> [u32; 2] {
        [self.kh, self.kw]
    }

    /// Stride (H, W).
    pub fn stride(&self) -> [u32; 2] {
        self.stride
    }

    /// Zero padding on both sides (H, W).
    pub fn padding(&self) -> [u32; 2] {
        self.padding
    }

    /// Dilation (H, W).
    pub fn dilation(&self) -> [u32; 2] {
        self.dilation
    }

    /// Extra output rows and columns of a transposed convolution (H, W).
    pub fn output_padding(&self) -> [u32; 2] {
        self.output_padding
    }

    /// Channel groups.
    pub fn groups(&self) -> u32 {
        self.groups
    }

    /// Whether it is a transposed convolution.
    pub fn is_transposed(&self) -> bool {
        self.transposed
    }

    /// Whether it was given as rank-3 (conv1d) tensors.
    pub fn is_1d(&self) -> bool {
        self.one_d
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
    use crate::ops::conv_kernel::ConvKernel;

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
        let sizes = (g.input_size(), g.kernel_size(), g.output_size(), g.stride(), g.padding());
        assert_eq!(sizes, ([1, 10], [1, 3], [1, 5], [1, 2], [0, 1]));
        assert!(
            g.is_1d()
                && !g.is_transposed()
                && (g.batch(), g.in_channels(), g.out_channels(), g.groups()) == (2, 3, 4, 1)
        );
        let err = geo(&[2, 3, 10], &[4, 3, 3], ConvOptions::default().stride(&[2, 2])).unwrap_err();
        assert!(err.to_string().contains("1D convolution takes 1 value"), "{err}");
        let err = geo(&[2, 3, 2], &[4, 3, 5], ConvOptions::default()).unwrap_err();
        assert!(err.to_string().contains("kernel length of 5"), "{err}");
    }
}

#[cfg(test)]
mod error_kinds {
    use super::*;
    use crate::ops::conv_options::Activation;

    /// Each bad argument comes back as the variant of its concern, naming the option, with the
    /// whole message pinned for a few representative cases.
    #[test]
    fn errors_name_their_concern() {
        let geo = |input: &[usize], weight: &[usize], opts: ConvOptions| ConvGeometry::new(input, weight, None, &opts);
        let err = geo(&[1, 4, 8, 8], &[4, 4, 3, 3], ConvOptions::default().stride(&[0])).unwrap_err();
        assert!(matches!(err, Error::InvalidOption { option: "stride", .. }), "{err:?}");
        assert_eq!(err.to_string(), "stride along height must be at least 1, got 0");
        let err = geo(&[1, 4, 8, 8], &[4, 4, 3, 3], ConvOptions::default().groups(0)).unwrap_err();
        assert!(matches!(err, Error::InvalidOption { option: "groups", .. }), "{err:?}");
        let err = geo(&[1, 4, 8, 8], &[4, 4, 3, 3], ConvOptions::default().padding(&[1, 2, 3])).unwrap_err();
        assert!(matches!(err, Error::InvalidOption { option: "padding", .. }), "{err:?}");
        let err = geo(&[1, 4, 8, 8], &[6, 2, 3, 3], ConvOptions::default().groups(4)).unwrap_err();
        assert!(matches!(err, Error::InvalidShape { .. }), "{err:?}");
        assert_eq!(err.to_string(), "groups 4 does not divide the 6 output channels of weight [6, 2, 3, 3]");
        let err = ConvGeometry::new(&[1, 4, 8, 8], &[4, 4, 3, 3], Some(&[3]), &ConvOptions::default()).unwrap_err();
        assert!(matches!(err, Error::InvalidShape { .. }), "{err:?}");
        assert_eq!(err.to_string(), "bias must have shape [4] (one value per output channel), got [3]");
        let clamp = Activation::Clamp { min: 1.0, max: 0.0 };
        let err = geo(&[1, 4, 8, 8], &[4, 4, 3, 3], ConvOptions::default().activation(clamp)).unwrap_err();
        assert!(matches!(err, Error::InvalidOption { option: "activation", .. }), "{err:?}");
    }

    /// Values whose coordinates would not fit the kernels' signed 32-bit arithmetic are refused,
    /// naming the option; the largest that fit are accepted.
    #[test]
    fn coordinates_stay_under_2_31() {
        let geo = |opts: ConvOptions| ConvGeometry::new(&[1, 2, 4, 4], &[3, 2, 3, 3], None, &opts);
        let huge = u32::MAX - 1;
        let err = geo(ConvOptions::default().padding(&[huge]).stride(&[huge])).unwrap_err();
        assert!(matches!(err, Error::InvalidOption { option: "stride", .. }), "{err:?}");
        assert!(err.to_string().contains("4294967294"), "{err}");
        let err = geo(ConvOptions::default().padding(&[1 << 30])).unwrap_err();
        assert!(matches!(err, Error::InvalidOption { option: "padding", .. }), "{err:?}");
        assert!(err.to_string().contains("4 + 2 × padding 1073741824"), "{err}");
        let err = geo(ConvOptions::default().dilation(&[1 << 30])).unwrap_err();
        assert!(matches!(err, Error::InvalidOption { option: "dilation", .. }), "{err:?}");
        let transposed = ConvOptions::default().transposed(true).stride(&[1 << 30]);
        let err = ConvGeometry::new(&[1, 2, 4, 4], &[2, 3, 3, 3], None, &transposed).unwrap_err();
        assert!(matches!(err, Error::InvalidOption { option: "stride", .. }), "{err:?}");
        let g = geo(ConvOptions::default().padding(&[(1 << 29) + 1]).stride(&[1 << 30])).unwrap();
        assert_eq!(g.output_shape(), vec![1, 3, 2, 2]);
        // An input at the limit by itself is a shape error, not the padding's or the stride's.
        let long = [1, 1, 1 << 31];
        let err = ConvGeometry::new(&long, &[1, 1, 3], None, &ConvOptions::default()).unwrap_err();
        assert!(matches!(err, Error::InvalidShape { .. }), "{err:?}");
        assert!(err.to_string().contains("2147483648 + 2 × padding 0"), "{err}");
        let transposed = ConvOptions::default().transposed(true);
        let err = ConvGeometry::new(&[1, 1, 1 << 31], &[1, 1, 3], None, &transposed).unwrap_err();
        assert!(matches!(err, Error::InvalidShape { .. }), "{err:?}");
    }

    /// Clamp bounds are finite: the kernels take them as pipeline constants, which must be.
    #[test]
    fn clamp_bounds_are_finite() {
        for (min, max) in [(f32::NEG_INFINITY, 6.0), (0.0, f32::INFINITY), (f32::NAN, 1.0), (1.0, 0.0)] {
            let err = Activation::Clamp { min, max }.validate().unwrap_err();
            assert!(matches!(err, Error::InvalidOption { option: "activation", .. }), "{err:?}");
            assert!(err.to_string().contains(&format!("min {min}, max {max}")), "{err}");
        }
        Activation::Clamp { min: f32::MIN, max: f32::MAX }.validate().unwrap();
    }

    /// The weight alone (as `Conv2d::new` checks it) and with an input give the same answers.
    #[test]
    fn weight_checks_are_shared() {
        let opts = ConvOptions::default().groups(2);
        let alone = WeightDims::new(&[3, 2, 3], &opts).unwrap_err();
        let with_input = ConvGeometry::new(&[1, 4, 5], &[3, 2, 3], None, &opts).unwrap_err();
        assert_eq!(alone, with_input);
        let transposed = ConvOptions::default().transposed(true).groups(3);
        let dims = WeightDims::new(&[6, 5, 2, 2], &transposed).unwrap();
        assert_eq!((dims.oc, dims.kh, dims.kw), (15, 2, 2));
    }
}
