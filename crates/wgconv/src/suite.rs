//! Benchmark suites: model layers as JSON (`bench/suites/*.json`), read by `wgconv bench`, the web
//! example and `bench/torch_reference.py` alike.
//!
//! A layer is an object:
//!
//! ```json
//! {"name": "resnet50_conv1", "op": "conv2d", "n": 1, "ic": 3, "oc": 64, "h": 224, "w": 224,
//!  "k": 7, "stride": 2, "padding": 3, "count": 1, "model": "resnet50"}
//! ```
//!
//! - `op`: `conv2d`, `conv_transpose2d`, `conv1d`, `conv_transpose1d` (rank-3 tensors: no `h`, `w`
//!   is the length) or `q8_conv_pw` (int8 pointwise).
//! - The filter: `k` (square), or `kh` and `kw` (`kw` alone for 1D).
//! - `stride`, `padding`, `dilation`, `output_padding`: a number for every axis or `[h, w]`;
//!   defaults 1, 0, 1, 0.
//! - `groups` (default 1), `bias` (default false), `activation` (`none`, `relu` or
//!   `clamp:MIN,MAX`; default none).
//! - `count`: how many times the layer occurs in its model (default 1), and `model`: which model,
//!   for whole-model sums.
//!
//! A suite file is a JSON array of layers, or an object `{"about": "...", "layers": [...]}` whose
//! `about` says where the layers come from (bench/export_suite.py writes that form). Files written
//! before these fields existed (square kernels, one stride and padding) load as they are.

use serde::{Deserialize, Serialize};

use crate::{
    error::{Error, Result},
    ops::conv_options::{Activation, ConvOptions},
};

/// What a suite layer runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SuiteOp {
    /// A direct 2D convolution.
    Conv2d,
    /// A transposed 2D convolution.
    ConvTranspose2d,
    /// A direct 1D convolution (rank-3 tensors).
    Conv1d,
    /// A transposed 1D convolution (rank-3 tensors).
    ConvTranspose1d,
    /// `q8ta_conv2d_pw`: int8 pointwise convolution.
    Q8ConvPw,
}

impl SuiteOp {
    /// Whether this is one of the float convolutions.
    pub fn is_float(self) -> bool {
        self != SuiteOp::Q8ConvPw
    }

    /// Whether the convolution is transposed.
    pub fn is_transposed(self) -> bool {
        matches!(self, SuiteOp::ConvTranspose2d | SuiteOp::ConvTranspose1d)
    }

    /// Whether the tensors are rank 3.
    pub fn is_1d(self) -> bool {
        matches!(self, SuiteOp::Conv1d | SuiteOp::ConvTranspose1d)
    }
}

/// A per-axis setting: one number for every axis, or `[h, w]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Axes {
    /// The same for every axis.
    All(u32),
    /// Height, then width.
    PerAxis([u32; 2]),
}

impl Axes {
    /// As the ops take it: one value, or two.
    pub fn to_vec(&self) -> Vec<u32> {
        match self {
            Axes::All(v) => vec![*v],
            Axes::PerAxis(v) => v.to_vec(),
        }
    }

    /// The value along `axis` (0 height, 1 width).
    pub fn along(&self, axis: usize) -> u32 {
        match self {
            Axes::All(v) => *v,
            Axes::PerAxis(v) => v[axis.min(1)],
        }
    }
}

fn one() -> Axes {
    Axes::All(1)
}

fn zero() -> Axes {
    Axes::All(0)
}

fn is_one(a: &Axes) -> bool {
    *a == Axes::All(1)
}

fn is_zero(a: &Axes) -> bool {
    *a == Axes::All(0)
}

fn one_u32() -> u32 {
    1
}

/// One layer of a suite (the format is in the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuiteLayer {
    /// Name.
    pub name: String,
    /// What it runs.
    pub op: SuiteOp,
    /// Batch.
    pub n: usize,
    /// Input channels.
    pub ic: usize,
    /// Output channels.
    pub oc: usize,
    /// Input height (none for 1D).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub h: Option<usize>,
    /// Input width (the length for 1D).
    pub w: usize,
    /// Square filter size (or `kh` and `kw`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k: Option<usize>,
    /// Filter height.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kh: Option<usize>,
    /// Filter width.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kw: Option<usize>,
    /// Stride.
    #[serde(default = "one")]
    pub stride: Axes,
    /// Padding.
    #[serde(default = "zero")]
    pub padding: Axes,
    /// Dilation.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub dilation: Axes,
    /// Output padding (transposed convolutions).
    #[serde(default = "zero", skip_serializing_if = "is_zero")]
    pub output_padding: Axes,
    /// Groups.
    #[serde(default = "one_u32")]
    pub groups: u32,
    /// Whether the layer adds a bias.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bias: bool,
    /// Fused activation: `none`, `relu` or `clamp:MIN,MAX`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub activation: Option<String>,
    /// How many times the layer occurs in its model.
    #[serde(default = "one_u32")]
    pub count: u32,
    /// The model it belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

/// A suite file's described form.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DescribedSuite {
    /// Where the layers come from: read by people, not by the bench.
    #[allow(dead_code, reason = "read by people, not by the bench")]
    #[serde(default)]
    about: String,
    layers: Vec<SuiteLayer>,
}

impl SuiteLayer {
    /// Parses a suite file's text: a JSON array of layers, or `{"about": ..., "layers": [...]}`.
    /// Errors name the layer at fault.
    pub fn parse_suite(text: &str) -> Result<Vec<SuiteLayer>> {
        let not_a_suite = |e: serde_json::Error| Error::option("suite", format!("not a suite: {e}"));
        let layers = if text.trim_start().starts_with('{') {
            serde_json::from_str::<DescribedSuite>(text).map_err(not_a_suite)?.layers
        } else {
            serde_json::from_str::<Vec<SuiteLayer>>(text).map_err(not_a_suite)?
        };
        let mut names = std::collections::HashSet::new();
        for layer in &layers {
            layer.check()?;
            // Results are keyed by name (the bench's JSON, torch_reference.py's tables).
            if !names.insert(layer.name.as_str()) {
                return Err(Error::option("suite", format!("layer {}: the name is used twice", layer.name)));
            }
        }
        Ok(layers)
    }

    fn check(&self) -> Result<()> {
        let bad = |reason: String| Err(Error::option("suite", format!("layer {}: {reason}", self.name)));
        if self.op.is_1d() != self.h.is_none() {
            return bad(if self.op.is_1d() { "a 1D layer has no `h`".into() } else { "a 2D layer needs `h`".into() });
        }
        if self.k.is_some() == (self.kh.is_some() || self.kw.is_some()) {
            return bad("give the filter as `k` or as `kh` and `kw`, not both or neither".into());
        }
        if !self.op.is_1d() && self.k.is_none() && (self.kh.is_none() || self.kw.is_none()) {
            return bad("a rectangular filter needs both `kh` and `kw`".into());
        }
        if self.count == 0 {
            return bad("`count` must be at least 1".into());
        }
        // The weight's shape divides the channels by the groups: a remainder would silently run
        // another layer than the one written.
        let groups = self.groups as usize;
        if groups == 0 || !self.ic.is_multiple_of(groups) || !self.oc.is_multiple_of(groups) {
            return bad(format!(
                "groups {} must divide the {} input and {} output channels",
                self.groups, self.ic, self.oc
            ));
        }
        self.activation().map(|_| ())
    }

    /// The filter's height and width (height 1 for 1D).
    pub fn filter(&self) -> (usize, usize) {
        match self.k {
            Some(k) if self.op.is_1d() => (1, k),
            Some(k) => (k, k),
            None => (self.kh.unwrap_or(1), self.kw.unwrap_or(1)),
        }
    }

    /// The input shape: `[n, ic, h, w]`, or `[n, ic, w]` for 1D.
    pub fn input_shape(&self) -> Vec<usize> {
        match self.h {
            Some(h) => vec![self.n, self.ic, h, self.w],
            None => vec![self.n, self.ic, self.w],
        }
    }

    /// The weight shape as PyTorch stores it: `[oc, ic/groups, kh, kw]`, transposed
    /// `[ic, oc/groups, kh, kw]` (without `kh` for 1D); `[oc, ic]` for `q8_conv_pw`.
    pub fn weight_shape(&self) -> Vec<usize> {
        let g = self.groups.max(1) as usize;
        let (kh, kw) = self.filter();
        let mut shape = match self.op {
            SuiteOp::Q8ConvPw => return vec![self.oc, self.ic],
            op if op.is_transposed() => vec![self.ic, self.oc / g],
            _ => vec![self.oc, self.ic / g],
        };
        if !self.op.is_1d() {
            shape.push(kh);
        }
        shape.push(kw);
        shape
    }

    /// The fused activation.
    pub fn activation(&self) -> Result<Activation> {
        match self.activation.as_deref() {
            None => Ok(Activation::None),
            Some(text) => text.parse().map_err(|reason| Error::option("activation", reason)),
        }
    }

    /// The convolution's options (f32 precision; the caller may allow f16).
    pub fn options(&self) -> Result<ConvOptions> {
        Ok(ConvOptions::default()
            .stride(&self.stride.to_vec())
            .padding(&self.padding.to_vec())
            .dilation(&self.dilation.to_vec())
            .output_padding(&self.output_padding.to_vec())
            .groups(self.groups)
            .transposed(self.op.is_transposed())
            .activation(self.activation()?))
    }

    /// A short description: `N, IC→OC, H×W, kKH×KW sS pP gG`.
    pub fn shape_text(&self) -> String {
        let (kh, kw) = self.filter();
        let filter = if kh == kw { format!("k{kh}") } else { format!("k{kh}×{kw}") };
        let size = match self.h {
            Some(h) => format!("{h}×{}", self.w),
            None => format!("{}", self.w),
        };
        let axes = |a: &Axes| match a {
            Axes::All(v) => v.to_string(),
            Axes::PerAxis([h, w]) => format!("{h},{w}"),
        };
        format!(
            "{}, {}→{}, {size}, {filter} s{} p{} g{}",
            self.n,
            self.ic,
            self.oc,
            axes(&self.stride),
            axes(&self.padding),
            self.groups
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_and_new_layers_load() {
        let text = r#"[
            {"name": "old", "op": "conv2d", "n": 8, "ic": 64, "oc": 64, "h": 56, "w": 56, "k": 3, "stride": 1, "padding": 1, "groups": 1},
            {"name": "rect", "op": "conv_transpose2d", "n": 1, "ic": 16, "oc": 8, "h": 9, "w": 7, "kh": 3, "kw": 5,
             "stride": [2, 1], "padding": [1, 2], "dilation": [1, 2], "output_padding": [1, 0], "groups": 2,
             "bias": true, "activation": "clamp:-1,1", "count": 4, "model": "toy"},
            {"name": "audio", "op": "conv1d", "n": 1, "ic": 80, "oc": 384, "w": 3000, "k": 3, "padding": 1, "activation": "relu"}
        ]"#;
        let layers = SuiteLayer::parse_suite(text).unwrap();
        assert_eq!(layers[0].input_shape(), [8, 64, 56, 56]);
        assert_eq!(layers[0].weight_shape(), [64, 64, 3, 3]);
        assert_eq!((layers[0].count, layers[0].bias), (1, false));
        let rect = &layers[1];
        assert_eq!(rect.weight_shape(), [16, 4, 3, 5]);
        let opts = rect.options().unwrap();
        let g = crate::ConvGeometry::new(&rect.input_shape(), &rect.weight_shape(), Some(&[8]), &opts).unwrap();
        assert_eq!((g.stride, g.padding, g.dilation, g.output_padding), ([2, 1], [1, 2], [1, 2], [1, 0]));
        assert_eq!(rect.activation().unwrap(), Activation::Clamp { min: -1.0, max: 1.0 });
        assert_eq!((rect.count, rect.model.as_deref()), (4, Some("toy")));
        assert_eq!(rect.shape_text(), "1, 16→8, 9×7, k3×5 s2,1 p1,2 g2");
        let audio = &layers[2];
        assert_eq!((audio.input_shape(), audio.weight_shape()), (vec![1, 80, 3000], vec![384, 80, 3]));
        assert!(
            crate::ConvGeometry::new(&audio.input_shape(), &audio.weight_shape(), None, &audio.options().unwrap())
                .is_ok()
        );
        // Serialised back, the defaults stay out and it loads again the same.
        let again = serde_json::to_string(&layers).unwrap();
        assert!(!again.contains("dilation\":1") && !again.contains("\"bias\":false"), "{again}");
        assert_eq!(SuiteLayer::parse_suite(&again).unwrap(), layers);
    }

    #[test]
    fn bad_layers_are_named() {
        let cases = [
            (
                r#"{"name": "a", "op": "conv2d", "n": 1, "ic": 1, "oc": 1, "w": 4, "k": 1}"#,
                "layer a: a 2D layer needs `h`",
            ),
            (
                r#"{"name": "b", "op": "conv1d", "n": 1, "ic": 1, "oc": 1, "h": 4, "w": 4, "k": 1}"#,
                "layer b: a 1D layer has no `h`",
            ),
            (
                r#"{"name": "c", "op": "conv2d", "n": 1, "ic": 1, "oc": 1, "h": 4, "w": 4, "k": 1, "kh": 1}"#,
                "layer c: give the filter",
            ),
            (
                r#"{"name": "d", "op": "conv2d", "n": 1, "ic": 1, "oc": 1, "h": 4, "w": 4, "kh": 3}"#,
                "layer d: a rectangular filter",
            ),
            (
                r#"{"name": "e", "op": "conv2d", "n": 1, "ic": 1, "oc": 1, "h": 4, "w": 4, "k": 1, "count": 0}"#,
                "layer e: `count`",
            ),
            (
                r#"{"name": "f", "op": "conv2d", "n": 1, "ic": 1, "oc": 1, "h": 4, "w": 4, "k": 1, "activation": "gelu"}"#,
                "unknown activation",
            ),
            (
                r#"{"name": "g", "op": "conv2d", "n": 1, "ic": 1, "oc": 1, "h": 4, "w": 4, "k": 1, "colour": 1}"#,
                "unknown field `colour`",
            ),
        ];
        for (layer, expected) in cases {
            let err = SuiteLayer::parse_suite(&format!("[{layer}]")).unwrap_err().to_string();
            assert!(err.contains(expected), "{layer}: {err}");
        }
        let twice = r#"{"name": "t", "op": "conv2d", "n": 1, "ic": 1, "oc": 1, "h": 4, "w": 4, "k": 1}"#;
        let err = SuiteLayer::parse_suite(&format!("[{twice}, {twice}]")).unwrap_err().to_string();
        assert!(err.contains("layer t: the name is used twice"), "{err}");
    }

    #[test]
    fn described_suites_load() {
        let layer = r#"{"name": "a", "op": "conv2d", "n": 1, "ic": 3, "oc": 8, "h": 8, "w": 8, "k": 3}"#;
        let text = format!(r#"{{"about": "from a test", "layers": [{layer}]}}"#);
        assert_eq!(SuiteLayer::parse_suite(&text).unwrap(), SuiteLayer::parse_suite(&format!("[{layer}]")).unwrap());
        let bare = format!(r#"{{"layers": [{layer}]}}"#);
        assert_eq!(SuiteLayer::parse_suite(&bare).unwrap().len(), 1);
        let stray = format!(r#"{{"about": "x", "layers": [{layer}], "extra": 1}}"#);
        assert!(SuiteLayer::parse_suite(&stray).unwrap_err().to_string().contains("unknown field `extra`"));
        let bad_layer = r#"{"about": "x", "layers": [{"name": "b", "op": "conv3d"}]}"#;
        assert!(SuiteLayer::parse_suite(bad_layer).unwrap_err().to_string().contains("conv3d"));
    }

    #[test]
    fn groups_must_divide_the_channels() {
        let layer = |op: &str, groups: u32| {
            format!(
                r#"[{{"name": "g", "op": "{op}", "n": 1, "ic": 6, "oc": 10, "h": 4, "w": 4, "k": 3, "groups": {groups}}}]"#
            )
        };
        for (op, groups) in [("conv_transpose2d", 3), ("conv2d", 4), ("conv2d", 0)] {
            let err = SuiteLayer::parse_suite(&layer(op, groups)).unwrap_err().to_string();
            assert!(
                err.contains(&format!("layer g: groups {groups} must divide the 6 input and 10 output channels")),
                "{err}"
            );
        }
        assert_eq!(SuiteLayer::parse_suite(&layer("conv_transpose2d", 2)).unwrap()[0].weight_shape(), vec![6, 5, 3, 3]);
    }
}
