//! One image too large for a storage binding, run in bands of output rows.
//!
//! A band of output rows reads a band of input rows (its halo included). Each band's input rows
//! are copied, channel plane by channel plane, into a scratch tensor `[1, IC, rows, W]` that fits
//! one binding; the band is convolved there as an ordinary convolution; its output rows are copied
//! back into the output's channel planes. The banded axis is H, or the length of a 1D convolution
//! (whose H is 1): the axis whose rows are contiguous within a channel plane, so a band is one copy
//! per channel.
//!
//! Padding along the banded axis cannot be given to the band's convolution, since padding is
//! symmetric and a band sees the top padding, the bottom, both or neither. So the band runs with
//! no padding along the axis and its scratch input holds the padding rows as zeros: the band reads
//! *virtual* input rows `[in_start, in_start + in_rows)`, and those outside the image are cleared.
//!
//! A transposed convolution is banded the same way: output row `r` gathers input rows `i` with
//! `i·s − p + t·d = r` for a tap `t`. A band reads every input row any of its output rows gathers
//! (virtual rows past either end again as zeros), its convolution (no padding, no output padding
//! along the axis) yields a few more rows than the band, and `out_offset` says which to keep.

use super::{
    conv::ConvCall, conv_encode::PackLayout, conv_geometry::ConvGeometry, conv_kernel::ConvKernel,
    conv_options::ConvOptions,
};
use crate::{
    batch::Batch,
    error::{Error, Result},
    tensor::{DType, Tensor},
};

/// Bytes of an f32.
const F32_BYTES: u64 = 4;

/// The banded axis of a convolution and what one row along it costs.
#[derive(Clone, Copy, Debug)]
struct Axis {
    out_len: i128,
    kernel: i128,
    stride: i128,
    padding: i128,
    dilation: i128,
    transposed: bool,
    /// Bytes of one input row of every channel.
    in_row_bytes: u128,
    /// Bytes of one output row of every channel.
    out_row_bytes: u128,
}

impl Axis {
    fn of(g: &ConvGeometry) -> Self {
        // H, or W for a 1D convolution (its H is 1): the axis of contiguous rows.
        let (i, in_unit, out_unit) = if g.one_d { (1, 1, 1) } else { (0, g.iw, g.ow) };
        let row_bytes = |channels: u32, unit: u32| u128::from(channels) * u128::from(unit) * u128::from(F32_BYTES);
        Self {
            out_len: i128::from([g.oh, g.ow][i]),
            kernel: i128::from([g.kh, g.kw][i]),
            stride: i128::from(g.stride[i]),
            padding: i128::from(g.padding[i]),
            dilation: i128::from(g.dilation[i]),
            transposed: g.transposed,
            in_row_bytes: row_bytes(g.ic, in_unit),
            out_row_bytes: row_bytes(g.oc, out_unit),
        }
    }

    /// The band of output rows `[start, start + rows)`, in i128 (no overflow for any u32 geometry).
    fn band(&self, start: i128, rows: i128) -> RawBand {
        let (s, span) = (self.stride, (self.kernel - 1) * self.dilation);
        if self.transposed {
            // Output row r gathers input rows i with r + p − span ≤ i·s ≤ r + p. Rounding the
            // first row down and the last up may add rows that only reach other output rows: the
            // band's convolution computes those too, and they are not copied back.
            let first = (start + self.padding - span).div_euclid(s);
            let last = ceil_div(start + rows - 1 + self.padding, s);
            let in_rows = last - first + 1;
            let band_out_rows = (in_rows - 1) * s + span + 1;
            RawBand {
                start,
                rows,
                in_start: first,
                in_rows,
                band_out_rows,
                out_offset: start + self.padding - first * s,
            }
        } else {
            let in_rows = (rows - 1) * s + span + 1;
            RawBand { start, rows, in_start: start * s - self.padding, in_rows, band_out_rows: rows, out_offset: 0 }
        }
    }

    /// Bytes of a band's scratch input and output.
    fn bytes(&self, b: &RawBand) -> (u128, u128) {
        (b.in_rows as u128 * self.in_row_bytes, b.band_out_rows as u128 * self.out_row_bytes)
    }
}

fn ceil_div(a: i128, b: i128) -> i128 {
    -((-a).div_euclid(b))
}

/// A band before it is known to fit (and so to fit u32).
#[derive(Clone, Copy, Debug)]
struct RawBand {
    start: i128,
    rows: i128,
    in_start: i128,
    in_rows: i128,
    band_out_rows: i128,
    out_offset: i128,
}

/// A band of output rows of one image and the input rows it reads, along the banded axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Band {
    /// First output row of the band.
    pub(super) out_start: u32,
    /// Output rows of the band.
    pub(super) out_rows: u32,
    /// First (virtual) input row it reads: before 0 or past the image are padding, read as zeros.
    pub(super) in_start: i64,
    /// Input rows it reads.
    pub(super) in_rows: u32,
    /// Output rows of the band's own convolution (more than `out_rows` when transposed).
    pub(super) band_out_rows: u32,
    /// Which of those is output row `out_start`.
    pub(super) out_offset: u32,
}

impl Band {
    fn new(b: RawBand) -> Self {
        // Callers checked that the band fits a binding, so every count is far within u32.
        let narrow = |v: i128| u32::try_from(v).expect("a band that fits a binding has u32 rows");
        Self {
            out_start: narrow(b.start),
            out_rows: narrow(b.rows),
            in_start: i64::try_from(b.in_start).expect("input rows are within u32 ± a band"),
            in_rows: narrow(b.in_rows),
            band_out_rows: narrow(b.band_out_rows),
            out_offset: narrow(b.out_offset),
        }
    }
}

/// Cuts one image's output rows into bands whose scratch input and output each fit `limit`
/// bytes, each band as tall as fits. A transposed convolution's bands (all but the last) are a
/// multiple of the stride tall where they can be, so they share one shape and one scratch.
/// An error names what does not fit when even one output row does not.
pub(super) fn plan_bands(g: &ConvGeometry, limit: u64) -> Result<Vec<Band>> {
    let axis = Axis::of(g);
    let limit128 = u128::from(limit);
    let fits = |b: &RawBand| {
        let (i, o) = axis.bytes(b);
        i <= limit128 && o <= limit128
    };
    let mut bands = Vec::new();
    let mut start = 0;
    while start < axis.out_len {
        let one = axis.band(start, 1);
        if !fits(&one) {
            let (in_bytes, out_bytes) = axis.bytes(&one);
            let (tensor, bytes) = if in_bytes > limit128 {
                ("input rows that one output row reads", in_bytes)
            } else {
                ("one output row of every channel", out_bytes)
            };
            let bytes = u64::try_from(bytes).unwrap_or(u64::MAX);
            return Err(Error::BindingTooLarge { tensor, bytes, limit });
        }
        // The largest band that fits: its bytes grow with its rows.
        let (mut lo, mut hi) = (1, axis.out_len - start);
        while lo < hi {
            let mid = lo + (hi - lo + 1) / 2;
            if fits(&axis.band(start, mid)) { lo = mid } else { hi = mid - 1 }
        }
        let remaining = axis.out_len - start;
        let rows = if axis.transposed && lo >= axis.stride && lo < remaining { lo - lo % axis.stride } else { lo };
        bands.push(Band::new(axis.band(start, rows)));
        start += rows;
    }
    Ok(bands)
}

/// The options of every band's convolution: no padding (and no output padding) along the
/// banded axis, whose padding rows the scratch input holds as zeros.
pub(super) fn band_options(g: &ConvGeometry, opts: &ConvOptions) -> ConvOptions {
    if g.one_d {
        opts.clone().padding(&[0]).output_padding(&[0])
    } else {
        opts.clone().padding(&[0, g.padding[1]]).output_padding(&[0, g.output_padding[1]])
    }
}

/// The shapes of a band's scratch input and output (rank 3 for a 1D convolution).
pub(super) fn band_shapes(g: &ConvGeometry, band: &Band) -> (Vec<usize>, Vec<usize>) {
    let (ic, oc) = (g.ic as usize, g.oc as usize);
    let (rows_in, rows_out) = (band.in_rows as usize, band.band_out_rows as usize);
    if g.one_d {
        (vec![1, ic, rows_in], vec![1, oc, rows_out])
    } else {
        (vec![1, ic, rows_in, g.iw as usize], vec![1, oc, rows_out, g.ow as usize])
    }
}

/// Where a band's input rows come from within one channel plane: `zeros_before` padding rows,
/// then `copied` rows of the image from row `first`, then padding rows to the band's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct RowSource {
    pub(super) zeros_before: u64,
    pub(super) first: u64,
    pub(super) copied: u64,
    pub(super) zeros_after: u64,
}

impl Band {
    /// The band's input rows, for an image `in_len` rows long.
    pub(super) fn row_source(&self, in_len: u32) -> RowSource {
        let (start, rows, len) = (self.in_start, i64::from(self.in_rows), i64::from(in_len));
        let (lo, hi) = (start.clamp(0, len), (start + rows).clamp(0, len));
        let zeros_before = (lo - start).clamp(0, rows);
        let copied = hi - lo;
        let zeros_after = rows - zeros_before - copied;
        let u = |v: i64| v as u64; // all non-negative by construction
        RowSource { zeros_before: u(zeros_before), first: u(lo), copied: u(copied), zeros_after: u(zeros_after) }
    }
}

impl Batch<'_> {
    /// Records a convolution whose single image's input or output exceeds one storage binding,
    /// every image of the batch in bands of output rows (see the module docs). Returns the kernel
    /// of the first band, the one that ran every band but (perhaps) the last of each image.
    ///
    /// Costs: one copy per input channel and one per output channel per band (plus a clear per
    /// channel where a band reads padding rows), and scratch tensors of up to one binding each for
    /// the two band shapes, alive until the batch completes.
    pub(super) fn encode_convolution_in_bands(
        &mut self,
        call: ConvCall<'_>,
        output: &Tensor,
        g: &ConvGeometry,
    ) -> Result<ConvKernel> {
        let ctx = self.ctx;
        let limit = ctx.limits().max_storage_buffer_binding_size;
        let bands = plan_bands(g, limit)?;
        let opts = band_options(g, call.opts);
        let bias_shape = call.bias.map(Tensor::shape);
        let (in_len, out_len, in_unit, out_unit) =
            if g.one_d { (g.iw, g.ow, 1, 1) } else { (g.ih, g.oh, u64::from(g.iw), u64::from(g.ow)) };
        // Bands are sized for f32 elements (`plan_bands`); f16 ones fill half of that.
        let dtype = call.input.dtype();
        let (in_row, out_row) = (in_unit * dtype.element_bytes(), out_unit * dtype.element_bytes());
        super::conv::check_word_aligned_parts("rows", [("input", in_row), ("output", out_row)], limit)?;
        let (in_plane, out_plane) = (u64::from(in_len) * in_row, u64::from(out_len) * out_row);
        let (in_image, out_image) = (in_plane * u64::from(g.ic), out_plane * u64::from(g.oc));
        // Scratch tensors by shape: bands of one shape reuse theirs (commands of one encoder run
        // in order, so a band's copies wait for the previous band's convolution).
        let mut scratch: Vec<Tensor> = Vec::new();
        // The GEMM kernels read a prepacked weight: pack it once for every band (a `Conv2d`
        // brings its own), not once per band. Packing does not depend on the padding.
        let packed = match call.packed {
            Some(packed) => Some(packed.clone()),
            None if call.forced.kernel.is_none_or(ConvKernel::is_gemm_shaped) => {
                Some(self.pack_weight(call.weight, PackLayout::for_weight(call.weight.shape(), &opts)?)?)
            }
            None => None,
        };
        // Winograd's transformed weight likewise (it does not depend on the padding either).
        let transformed = self.winograd_weight_for_parts(&call, g)?;
        let call = ConvCall { packed_winograd: transformed.as_ref(), ..call };
        let mut kernel = None;
        for image in 0..u64::from(g.n) {
            for band in &bands {
                let (in_shape, out_shape) = band_shapes(g, band);
                let band_in = scratch_tensor(ctx, &mut scratch, &in_shape, dtype)?;
                let band_out = scratch_tensor(ctx, &mut scratch, &out_shape, dtype)?;
                let rows = band.row_source(in_len);
                let band_plane = u64::from(band.in_rows) * in_row;
                for c in 0..u64::from(g.ic) {
                    let (src, dst) = (image * in_image + c * in_plane, c * band_plane);
                    // copy_buffer_to_buffer and clear_buffer need 4-byte multiples: f32 rows are.
                    if rows.zeros_before > 0 {
                        self.encoder().clear_buffer(band_in.buffer(), dst, Some(rows.zeros_before * in_row));
                    }
                    if rows.copied > 0 {
                        self.encoder().copy_buffer_to_buffer(
                            call.input.buffer(),
                            src + rows.first * in_row,
                            band_in.buffer(),
                            dst + rows.zeros_before * in_row,
                            rows.copied * in_row,
                        );
                    }
                    if rows.zeros_after > 0 {
                        let offset = dst + (rows.zeros_before + rows.copied) * in_row;
                        self.encoder().clear_buffer(band_in.buffer(), offset, Some(rows.zeros_after * in_row));
                    }
                }
                let geometry = ConvGeometry::new(&in_shape, call.weight.shape(), bias_shape, &opts)?;
                debug_assert_eq!(geometry.output_shape(), out_shape, "band geometry");
                let band_call = ConvCall { input: &band_in, opts: &opts, packed: packed.as_ref(), ..call };
                let ran = self.encode_convolution(band_call, &band_out, &geometry)?;
                kernel.get_or_insert(ran);
                let band_out_plane = u64::from(band.band_out_rows) * out_row;
                for o in 0..u64::from(g.oc) {
                    self.encoder().copy_buffer_to_buffer(
                        band_out.buffer(),
                        o * band_out_plane + u64::from(band.out_offset) * out_row,
                        output.buffer(),
                        image * out_image + o * out_plane + u64::from(band.out_start) * out_row,
                        u64::from(band.out_rows) * out_row,
                    );
                }
            }
        }
        // A validated geometry has at least one image and one output row, so a band ran.
        Ok(kernel.expect("at least one band"))
    }
}

/// The scratch tensor of `shape` in `cache`, created (inside an error scope) when new.
fn scratch_tensor(
    ctx: &crate::context::Context,
    cache: &mut Vec<Tensor>,
    shape: &[usize],
    dtype: DType,
) -> Result<Tensor> {
    if let Some(t) = cache.iter().find(|t| t.shape() == shape) {
        return Ok(t.clone());
    }
    let t = ctx.capture("row-band scratch", || Tensor::zeros(ctx, shape, dtype))?;
    cache.push(t.clone());
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference;

    /// Runs the convolution on the CPU whole and band by band (each band's input materialised as
    /// the GPU path does: copied rows, padding rows as zeros; its convolution with the band's
    /// options), and checks that the bands tile the output, fit `limit` and give the same values.
    /// Returns the number of bands.
    fn bands_match_the_whole(input: &[usize], weight: &[usize], opts: &ConvOptions, limit: u64) -> usize {
        let g = ConvGeometry::new(input, weight, None, opts).unwrap();
        let value = |i: usize, salt: f32| ((i as f32) * 0.37 + salt).sin() + 1.5;
        let x: Vec<f32> = (0..input.iter().product()).map(|i| value(i, 0.0)).collect();
        let w: Vec<f32> = (0..weight.iter().product()).map(|i| value(i, 1.0)).collect();
        let (whole, shape) = reference::convolution(&x, input, &w, weight, None, opts).unwrap();
        let bands = plan_bands(&g, limit).unwrap();
        let band_opts = band_options(&g, opts);
        let (in_len, out_len, in_unit, out_unit) =
            if g.one_d { (g.iw, g.ow, 1, 1) } else { (g.ih, g.oh, g.iw as usize, g.ow as usize) };
        let (in_len, out_len) = (in_len as usize, out_len as usize);
        let mut got = vec![f64::NAN; whole.len()];
        let mut next = 0;
        for band in &bands {
            assert_eq!(band.out_start as usize, next, "bands tile the output in order: {bands:?}");
            next += band.out_rows as usize;
            let (in_shape, out_shape) = band_shapes(&g, band);
            let numel = |s: &[usize]| s.iter().product::<usize>() as u64;
            assert!(numel(&in_shape) * F32_BYTES <= limit && numel(&out_shape) * F32_BYTES <= limit, "{band:?}");
            let rows = band.row_source(in_len as u32);
            let mut xb = Vec::new();
            for c in 0..g.ic as usize {
                let plane = &x[c * in_len * in_unit..][..in_len * in_unit];
                xb.extend(std::iter::repeat_n(0.0, rows.zeros_before as usize * in_unit));
                xb.extend_from_slice(&plane[rows.first as usize * in_unit..][..rows.copied as usize * in_unit]);
                xb.extend(std::iter::repeat_n(0.0, rows.zeros_after as usize * in_unit));
            }
            let (yb, yb_shape) = reference::convolution(&xb, &in_shape, &w, weight, None, &band_opts).unwrap();
            assert_eq!(yb_shape, out_shape);
            let (band_rows, keep) = (band.band_out_rows as usize * out_unit, band.out_rows as usize * out_unit);
            for o in 0..g.oc as usize {
                let src = &yb[o * band_rows + band.out_offset as usize * out_unit..][..keep];
                got[o * out_len * out_unit + band.out_start as usize * out_unit..][..keep].copy_from_slice(src);
            }
        }
        assert_eq!(next, out_len, "bands cover the output");
        // Zeros add exactly nothing and the sums run in the same order: equal, not just close.
        assert_eq!(got, whole, "banded {shape:?} with {bands:?}");
        bands.len()
    }

    fn opts() -> ConvOptions {
        ConvOptions::default()
    }

    #[test]
    fn direct_bands_read_their_halo_and_padding_as_zeros() {
        let row = |ic: u64, w: u64| ic * w * F32_BYTES;
        // 3×3, padding 1: bands of 4 output rows read 6 input rows.
        let n = bands_match_the_whole(&[1, 2, 17, 5], &[3, 2, 3, 3], &opts().padding(&[1]), row(2, 5) * 6);
        assert_eq!(n, 5);
        // Stride 2, dilation 2, padding 3 (H) and 1 (W), with a bias-free group split.
        let o = opts().stride(&[2]).dilation(&[2, 1]).padding(&[3, 1]).groups(2);
        bands_match_the_whole(&[1, 4, 23, 6], &[4, 2, 3, 2], &o, row(4, 6) * 7);
        // Padding wider than the filter: whole bands of zeros, and a band of one row.
        bands_match_the_whole(&[1, 1, 6, 3], &[2, 1, 2, 2], &opts().padding(&[4]), row(2, 11) * 2);
        bands_match_the_whole(&[1, 1, 6, 3], &[2, 1, 2, 2], &opts().padding(&[4]), row(2, 11));
        // 1D: bands along the length.
        let n = bands_match_the_whole(&[1, 3, 40], &[2, 3, 5], &opts().padding(&[2]).stride(&[3]), row(3, 1) * 8);
        assert!(n > 3, "{n}");
    }

    #[test]
    fn transposed_bands_gather_every_input_row_they_need() {
        let row = |c: u64, w: u64| c * w * F32_BYTES;
        let t = opts().transposed(true);
        // Stride 2, 3×3, padding 1, output padding 1: output 2× the input.
        let o = t.clone().stride(&[2]).padding(&[1]).output_padding(&[1]);
        let n = bands_match_the_whole(&[1, 2, 9, 4], &[2, 3, 3, 3], &o, row(3, 8) * 7);
        assert!(n > 2, "{n}");
        // Stride 3 over a 1-tap and a dilated 2-tap filter: output rows no input reaches.
        for (k, d) in [(1, 1), (2, 2)] {
            let o = t.clone().stride(&[3]).dilation(&[d]).padding(&[1]).output_padding(&[2]);
            assert!(bands_match_the_whole(&[1, 2, 7, 3], &[2, 2, k, 2], &o, row(2, 9) * 10) > 1);
        }
        // Grouped, large padding, and a 1D one.
        let o = t.clone().stride(&[2]).padding(&[3]).groups(2).dilation(&[2]);
        bands_match_the_whole(&[1, 4, 12, 3], &[4, 1, 4, 2], &o, row(2, 10) * 9);
        let o = t.stride(&[4]).padding(&[1]);
        bands_match_the_whole(&[1, 2, 20], &[2, 3, 6], &o, row(3, 1) * 20);
    }

    #[test]
    fn a_row_that_does_not_fit_is_a_typed_error() {
        let g = ConvGeometry::new(&[1, 2, 3, 100], &[4, 2, 3, 1], None, &opts()).unwrap();
        // Three input rows of two channels (2400 bytes) do not fit 2000 bytes.
        let err = plan_bands(&g, 2000).unwrap_err();
        assert!(
            matches!(
                err,
                Error::BindingTooLarge { tensor: "input rows that one output row reads", bytes: 2400, limit: 2000 }
            ),
            "{err:?}"
        );
        // One output row of four channels (1600 bytes) does not fit 1500 bytes.
        let g = ConvGeometry::new(&[1, 1, 3, 100], &[4, 1, 1, 1], None, &opts()).unwrap();
        let err = plan_bands(&g, 1500).unwrap_err();
        assert!(matches!(err, Error::BindingTooLarge { tensor: "one output row of every channel", .. }), "{err:?}");
    }

    #[test]
    fn transposed_bands_keep_one_shape() {
        // Bands a multiple of the stride tall: all but the last the same shape.
        let o = opts().transposed(true).stride(&[2]).padding(&[1]).output_padding(&[1]);
        let g = ConvGeometry::new(&[1, 2, 50, 4], &[2, 3, 3, 3], None, &o).unwrap();
        let bands = plan_bands(&g, 3 * 8 * 4 * 11).unwrap();
        let shapes: Vec<_> = bands[..bands.len() - 1].iter().map(|b| band_shapes(&g, b)).collect();
        assert!(shapes.windows(2).all(|w| w[0] == w[1]), "{bands:?}");
        assert!(bands.len() > 5 && bands.iter().all(|b| b.out_rows % 2 == 0 || b == bands.last().unwrap()));
    }
}
