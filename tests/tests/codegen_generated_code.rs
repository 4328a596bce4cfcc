//! Generated modules that once failed to build (or panicked the generator), built and used:
//! override defaults converting from bool and f16 (checked against naga's own evaluation), an
//! entry point named `SELF`, members starting with `_` that are not padding. The fixtures are
//! in `crates/wgconv-codegen/tests/fixtures/`.

#[path = "support/naga_overrides.rs"]
mod naga_overrides;

#[allow(dead_code)]
mod override_casts {
    wgconv_macros::include_wgsl_bindings!("../crates/wgconv-codegen/tests/fixtures/override_casts.wgsl");
}

#[allow(dead_code)]
mod self_entry {
    wgconv_macros::include_wgsl_bindings!("../crates/wgconv-codegen/tests/fixtures/self_entry.wgsl");
}

#[allow(dead_code)]
mod underscore_members {
    wgconv_macros::include_wgsl_bindings!("../crates/wgconv-codegen/tests/fixtures/underscore_members.wgsl");
}

/// naga's value of every override of `override_casts.wgsl` with `flag` and `h` set, by name.
fn evaluated(flag: bool, h: f64) -> Vec<(String, f64)> {
    naga_overrides::evaluated(override_casts::SOURCE, &[("flag", f64::from(u8::from(flag))), ("h", h)])
}

#[test]
fn conversions_from_bool_and_f16_match_nagas_evaluation() {
    for flag in [true, false] {
        for h in [2.5, 0.0, -1.75, 3.99, -0.0] {
            let o = override_casts::Overrides { flag, h: half::f16::from_f64(h), ..override_casts::Overrides::new() };
            let generated = [
                ("flag", f64::from(u8::from(o.flag()))),
                ("h", f64::from(o.h())),
                ("scale", f64::from(o.scale())),
                ("count", f64::from(o.count())),
                ("signed", f64::from(o.signed())),
                ("n", f64::from(o.n())),
                ("m", f64::from(o.m())),
                ("g", f64::from(o.g())),
                ("back", f64::from(o.back())),
                ("nonzero", f64::from(u8::from(o.nonzero()))),
                ("positive", f64::from(u8::from(o.positive()))),
            ];
            let naga = evaluated(flag, h);
            assert_eq!(naga.len(), generated.len(), "{naga:?}");
            for (name, value) in generated {
                let expected = naga.iter().find(|(n, _)| n == name).map(|&(_, v)| v);
                assert_eq!(Some(value), expected, "`{name}` with flag = {flag}, h = {h}");
            }
        }
    }
    // The defaults: f32(true) * 2.0, u32(2.5h).
    let o = override_casts::Overrides::new();
    assert_eq!((o.scale(), o.count(), o.n(), o.g()), (2.0, 2, 2, 5.0));
}

#[test]
fn an_entry_point_named_self() {
    use self_entry::Entry;
    assert_eq!(Entry::ALL, [Entry::Self_]);
    assert_eq!(Entry::Self_.name(), "SELF");
    assert_eq!(Entry::from_name("SELF"), Some(Entry::Self_));
    assert_eq!(self_entry::SELF_WORKGROUP_SIZE, [2, 1, 1]);
}

#[test]
fn underscore_members_that_are_not_padding_are_arguments() {
    use std::mem::{offset_of, size_of};
    use underscore_members::U;
    let u = U::new(3, 1.5, [1.0, 2.0]);
    assert_eq!((u._count, u._pad0, u.value, u._x), (3, 0, 1.5, [1.0, 2.0]));
    assert_eq!((offset_of!(U, value), offset_of!(U, _x), size_of::<U>()), (8, 16, 24));
}
