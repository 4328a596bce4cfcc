//! The generated override getters against naga's own constant evaluation (what a pipeline
//! compiled with those values would use), for defaults written to catch precedence slips in the
//! translation: `max(-4, k)` once became `-4i32.max(k)`, which Rust reads as `-(4.max(k))`.

use naga::{
    Literal,
    back::{PipelineConstants, pipeline_constants::process_overrides},
    valid::{Capabilities, ValidationFlags, Validator},
};
use wgconv_tests::generated::override_expressions as shader;

const SOURCE: &str = include_str!("../fixtures/shaders/override_expressions.wgsl");

/// naga's value of every override when `k` is set to `k`, by name.
fn evaluated(k: i32) -> Vec<(String, f64)> {
    let module = naga::front::wgsl::parse_str(SOURCE).expect("parses");
    let info = Validator::new(ValidationFlags::all(), Capabilities::all()).validate(&module).expect("validates");
    let mut constants = PipelineConstants::default();
    constants.insert("k".to_string(), f64::from(k));
    let (module, _) = process_overrides(&module, &info, None, &constants).expect("evaluates");
    module
        .constants
        .iter()
        .filter_map(|(_, c)| {
            let value = match module.global_expressions[c.init] {
                naga::Expression::Literal(Literal::I32(v)) => f64::from(v),
                naga::Expression::Literal(Literal::U32(v)) => f64::from(v),
                naga::Expression::Literal(Literal::F32(v)) => f64::from(v),
                naga::Expression::Literal(Literal::Bool(v)) => f64::from(u8::from(v)),
                ref other => panic!("{:?} evaluated to {other:?}", c.name),
            };
            Some((c.name.clone()?, value))
        })
        .collect()
}

#[test]
fn getters_match_nagas_evaluation() {
    for k in [10, -7, 0, 3, -1000, 12_345] {
        let o = shader::Overrides { k, ..shader::Overrides::new() };
        let generated = [
            ("k", f64::from(o.k())),
            ("low", f64::from(o.low())),
            ("high", f64::from(o.high())),
            ("sum_cast", f64::from(o.sum_cast())),
            ("neg_float", f64::from(o.neg_float())),
            ("shifted", f64::from(o.shifted())),
            ("wg", f64::from(o.wg())),
            ("lanes", f64::from(o.lanes())),
            ("parity", f64::from(u8::from(o.parity()))),
        ];
        let naga = evaluated(k);
        assert_eq!(naga.len(), generated.len(), "{naga:?}");
        for (name, value) in generated {
            let expected = naga.iter().find(|(n, _)| n == name).map(|&(_, v)| v);
            assert_eq!(Some(value), expected, "`{name}` with k = {k}");
        }
    }
    // The case that was wrong: max(-4, 10) is 10, not -(4.max(10)) = -10.
    assert_eq!(shader::Overrides::new().low(), 10);
}

#[test]
fn inferred_i32_overrides_size_workgroups_and_arrays() {
    let o = shader::Overrides { wg: 32, lanes: 12, ..shader::Overrides::new() };
    assert_eq!(shader::fill_workgroup_size(&o), [32, 1, 1]);
    // 12 f32s, rounded up to 16 bytes as WebGPU counts workgroup memory.
    assert_eq!(shader::fill_workgroup_memory_bytes(&o), 48);
    assert_eq!(shader::Entry::Fill.workgroup_size(&shader::Overrides::new()), [64, 1, 1]);
}
