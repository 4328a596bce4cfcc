//! The generated override getters against naga's own constant evaluation (what a pipeline
//! compiled with those values would use), for defaults written to catch precedence slips in the
//! translation: `max(-4, k)` once became `-4i32.max(k)`, which Rust reads as `-(4.max(k))`.

#[path = "support/naga_overrides.rs"]
mod naga_overrides;
use wgconv_tests::generated::override_expressions as shader;

const SOURCE: &str = include_str!("../fixtures/shaders/override_expressions.wgsl");

/// naga's value of every override when `k` is set to `k`, by name.
fn evaluated(k: i32) -> Vec<(String, f64)> {
    naga_overrides::evaluated(SOURCE, &[("k", f64::from(k))])
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
