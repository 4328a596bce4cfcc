//! Compile-fail tests: a hand-written struct that disagrees with its WGSL struct, a missing or
//! malformed shader, and a generated struct edited out of sync all fail to build with a message
//! naming the offending field and values.
//!
//! Shader paths in `tests/ui/` are relative to trybuild's scratch crate in
//! `target/tests/trybuild/wgconv-macros`, which is the `CARGO_MANIFEST_DIR` the macros see there.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass_*.rs");
    t.compile_fail("tests/ui/wrong_*.rs");
    t.compile_fail("tests/ui/missing_*.rs");
    t.compile_fail("tests/ui/malformed_*.rs");
    t.compile_fail("tests/ui/no_such_*.rs");
    t.compile_fail("tests/ui/stale_*.rs");
}
