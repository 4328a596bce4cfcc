//! The generated items that let a runtime stop copying facts by hand: consts, entry points,
//! workgroup memory, and the opt-in shader trait impl.

use crate::{CodegenError, Options, generate, generate_with};

/// One buffer binding and two compute entry points sharing an override-sized workgroup array,
/// one of them through a helper function.
const WORKGROUPS: &str = "
    @group(0) @binding(0) var<storage, read_write> data: array<f32>;
    override tile_n: u32 = 32u;
    override b_len: u32 = 2u * tile_n;
    var<workgroup> a_tile: array<vec4<f32>, 64>;
    var<workgroup> b_tile: array<vec4<f32>, b_len>;
    var<workgroup> unused: array<f32, 1000>;
    fn touch_b() { b_tile[0] = vec4<f32>(1.0); }
    @compute @workgroup_size(tile_n * 2u)
    fn gemm_wide(@builtin(local_invocation_index) i: u32) {
        a_tile[i % 64u] = vec4<f32>(data[i]);
        touch_b();
    }
    @compute @workgroup_size(64)
    fn gemmNarrow(@builtin(local_invocation_index) i: u32) { a_tile[i % 64u] = vec4<f32>(data[i]); }
    @compute @workgroup_size(1)
    fn no_shared() { data[0] = 1.0; }
";

fn parses(rust: &str) {
    syn::parse_file(rust).unwrap_or_else(|e| panic!("generated Rust does not parse: {e}\n{rust}"));
}

#[test]
fn scalar_consts_become_rust_consts() {
    let wgsl = "
        const GEMM_TILE_N_MIN: u32 = 32u;
        const GEMM_TILE_N_MAX: u32 = GEMM_TILE_N_MIN * 4u;
        const halfScale: f32 = 0.5;
        const OFFSET: i32 = -3;
        const ENABLED: bool = true;
        const PAIR: vec2<u32> = vec2<u32>(1u, 2u);
        @group(0) @binding(0) var<storage, read_write> data: array<u32>;
        @compute @workgroup_size(1)
        fn main() { data[0] = GEMM_TILE_N_MAX + PAIR.x + u32(OFFSET) + u32(halfScale) + u32(ENABLED); }
    ";
    let rust = generate(wgsl, "consts.wgsl").unwrap();
    parses(&rust);
    assert!(rust.contains("pub const GEMM_TILE_N_MIN: u32 = 32u32;"), "{rust}");
    // naga evaluated the expression; the Rust value is that number.
    assert!(rust.contains("pub const GEMM_TILE_N_MAX: u32 = 128u32;"), "{rust}");
    // Not SCREAMING_CASE in WGSL: made so, as Rust expects of a const.
    assert!(rust.contains("pub const HALF_SCALE: f32 = 0.5f32;"), "{rust}");
    assert!(rust.contains("pub const OFFSET: i32 = -3i32;"), "{rust}");
    assert!(rust.contains("pub const ENABLED: bool = true;"), "{rust}");
    // Vectors have no scalar host type: left out.
    assert!(!rust.contains("pub const PAIR"), "{rust}");
}

#[test]
fn a_const_named_like_a_generated_item_is_an_error() {
    // (Named with both items since the collision check names them; see `name_collisions_name_both_items`.)
    let wgsl = "
        const MAIN_ENTRY: u32 = 1u;
        @group(0) @binding(0) var<storage, read_write> data: array<u32>;
        @compute @workgroup_size(1) fn main() { data[0] = MAIN_ENTRY; }
    ";
    let err = generate(wgsl, "clash.wgsl").unwrap_err().to_string();
    assert!(err.contains("const `MAIN_ENTRY`") && err.contains("clash.wgsl"), "{err}");
}

#[test]
fn workgroup_memory_per_entry_point() {
    let rust = generate(WORKGROUPS, "wg.wgsl").unwrap();
    parses(&rust);
    // 64 vec4 = 1024 bytes fixed, plus 16 bytes per element of the override-sized array it
    // reaches through `touch_b`; `unused` counts for nobody.
    assert!(rust.contains("pub fn gemm_wide_workgroup_memory_bytes(o: &Overrides) -> u32"), "{rust}");
    assert!(rust.contains("1024u32") && rust.contains("(16u32"), "{rust}");
    assert!(rust.contains("<u32 as ::core::convert::TryFrom<_>>::try_from(o.b_len()).unwrap_or(0u32)"), "{rust}");
    assert!(rust.contains("pub const GEMM_NARROW_WORKGROUP_MEMORY_BYTES: u32 = 1024u32;"), "{rust}");
    assert!(rust.contains("pub const NO_SHARED_WORKGROUP_MEMORY_BYTES: u32 = 0u32;"), "{rust}");
    assert!(!rust.contains("4000u32"), "{rust}");
}

#[test]
fn workgroup_memory_counts_each_variable_rounded_to_16_bytes() {
    // WebGPU's limit counts each var<workgroup> rounded up to 16 bytes: 12 + 4 bytes count 32.
    let wgsl = "
        var<workgroup> three: array<f32, 3>;
        var<workgroup> one: f32;
        @compute @workgroup_size(1) fn main() { three[0] = 1.0; one = 2.0; }";
    let rust = generate(wgsl, "small.wgsl").unwrap();
    assert!(rust.contains("pub const MAIN_WORKGROUP_MEMORY_BYTES: u32 = 32u32;"), "{rust}");
}

#[test]
fn entry_points_as_a_list_and_an_enum() {
    let rust = generate(WORKGROUPS, "wg.wgsl").unwrap();
    assert!(
        rust.contains(r#"pub const ENTRY_POINTS: [&str; 3usize] = ["gemm_wide", "gemmNarrow", "no_shared"];"#),
        "{rust}"
    );
    assert!(rust.contains("pub enum Entry"), "{rust}");
    for variant in ["GemmWide", "GemmNarrow", "NoShared"] {
        assert!(rust.contains(&format!("Entry::{variant} =>")), "{variant}: {rust}");
    }
    let compact: String = rust.split_whitespace().collect();
    assert!(compact.contains("Entry::GemmWide=>gemm_wide_workgroup_memory_bytes(o)"), "{rust}");
    assert!(
        compact.contains("Entry::GemmNarrow=>{create_gemm_narrow_pipeline(device,module,layout,overrides)}"),
        "{rust}"
    );
}

#[test]
fn entry_points_whose_names_would_meet_are_an_error() {
    let wgsl = "
        @group(0) @binding(0) var<storage, read_write> data: array<u32>;
        @compute @workgroup_size(1) fn foo_bar() { data[0] = 1u; }
        @compute @workgroup_size(1) fn fooBar() { data[1] = 1u; }
    ";
    let err = generate(wgsl, "twins.wgsl").unwrap_err().to_string();
    assert!(err.contains("entry point `fooBar`") && err.contains("FOO_BAR_ENTRY"), "{err}");
}

#[test]
fn no_shader_trait_unless_asked() {
    let rust = generate(WORKGROUPS, "wg.wgsl").unwrap();
    assert!(!rust.contains("pub struct Shader"), "{rust}");
    assert!(!rust.contains(" for Shader"), "{rust}");
}

#[test]
fn the_shader_trait_impl_on_request() {
    let options = Options::default().with_shader_trait("crate::runtime::GeneratedShader");
    let rust = generate_with(WORKGROUPS, "wg.wgsl", &options).unwrap();
    parses(&rust);
    assert!(rust.contains("pub struct Shader;"), "{rust}");
    assert!(rust.contains("impl crate::runtime::GeneratedShader for Shader"), "{rust}");
    assert!(rust.contains(r#"const BINDINGS: &'static [&'static str] = &["data"];"#), "{rust}");
    assert!(rust.contains("type BindGroup<'a> = BindGroup0<'a>;"), "{rust}");
    // Both u32 overrides settable by name; the derived one becomes `Some`.
    assert!(rust.contains(r#""tile_n" => overrides.tile_n = value"#), "{rust}");
    assert!(rust.contains(r#""b_len" => overrides.b_len = Some(value)"#), "{rust}");
    assert!(rust.contains(r#"data: binding("data")"#), "{rust}");
    // No uniform: an empty layout.
    assert!(rust.contains("UNIFORM_LAYOUT: &'static [(&'static str, &'static str, u32)] = &[];"), "{rust}");
}

#[test]
fn the_uniform_layout_in_the_shader_trait_impl() {
    let wgsl = "
        struct Params { n: u32, scale: vec3<f32>, bias: f32 }
        @group(0) @binding(0) var<uniform> params: Params;
        @group(0) @binding(1) var<storage, read_write> data: array<f32>;
        @compute @workgroup_size(1) fn main() { data[0] = params.scale.x * f32(params.n) + params.bias; }
    ";
    let options = Options::default().with_shader_trait("Trait");
    let rust = generate_with(wgsl, "u.wgsl", &options).unwrap();
    let compact: String = rust.split_whitespace().collect();
    assert!(compact.contains(r#"&[("n","u32",0u32),("scale","vec3<f32>",16u32),("bias","f32",28u32),]"#), "{rust}");
}

#[test]
fn shaders_the_trait_cannot_describe_are_errors() {
    let options = Options::default().with_shader_trait("crate::Trait");
    let two_groups = "
        @group(0) @binding(0) var<storage, read_write> a: array<f32>;
        @group(1) @binding(0) var<storage, read_write> b: array<f32>;
        @compute @workgroup_size(1) fn main() { a[0] = b[0]; }
    ";
    let err = generate_with(two_groups, "g.wgsl", &options).unwrap_err().to_string();
    assert!(err.contains("binding `b` (group 1, binding 0)") && err.contains("@group(0)"), "{err}");
    let no_compute = "@vertex fn vs() -> @builtin(position) vec4<f32> { return vec4<f32>(0.0); }";
    let err = generate_with(no_compute, "v.wgsl", &options).unwrap_err().to_string();
    assert!(err.contains("no compute entry point"), "{err}");
    // Without the trait the same shaders generate.
    assert!(generate(two_groups, "g.wgsl").is_ok());
    assert!(generate(no_compute, "v.wgsl").is_ok());
    let bad = Options::default().with_shader_trait("not a path");
    let err = generate_with(WORKGROUPS, "wg.wgsl", &bad).unwrap_err();
    assert!(
        matches!(err, CodegenError::Unsupported { ref construct, .. } if construct.contains("not a path")),
        "{err}"
    );
}

#[test]
fn a_struct_named_like_a_generated_type_is_an_error() {
    let wgsl = "
        struct Entry { x: f32 }
        @group(0) @binding(0) var<storage, read_write> data: array<Entry>;
        @compute @workgroup_size(1) fn main() { data[0].x = 1.0; }
    ";
    let err = generate(wgsl, "e.wgsl").unwrap_err().to_string();
    assert!(err.contains("struct `Entry`"), "{err}");
}

/// Each collision is reported naming both items, never as generated code that fails to build.
#[test]
fn name_collisions_name_both_items() {
    let shader = |extra: &str, entry_points: &str| {
        format!("{extra}\n@group(0) @binding(0) var<storage, read_write> data: array<u32>;\n{entry_points}")
    };
    let main = "@compute @workgroup_size(1) fn main() { data[0] = 1u; }";
    let cases = [
        (
            shader("struct Overrides { a: u32 }\n@group(0) @binding(1) var<storage> s: Overrides;", main),
            ["the generated struct `Overrides`", "WGSL struct `Overrides`", "type `Overrides`"],
        ),
        (
            shader("struct BindGroup0 { a: u32 }\n@group(0) @binding(1) var<storage> s: BindGroup0;", main),
            ["the generated struct `BindGroup0`", "WGSL struct `BindGroup0`", "type `BindGroup0`"],
        ),
        (
            shader(
                "",
                "@compute @workgroup_size(1) fn fooBar() { data[0] = 1u; }\n@compute @workgroup_size(1) fn foo_bar() { data[1] = 1u; }",
            ),
            ["entry point `fooBar`", "entry point `foo_bar`", "`FOO_BAR_ENTRY`"],
        ),
        (
            shader("override constants: u32 = 1u;", "@compute @workgroup_size(constants) fn main() { data[0] = 1u; }"),
            ["the generated `Overrides::constants`", "override `constants`", "`constants`"],
        ),
        (
            shader("const MAIN_ENTRY: u32 = 1u;", "@compute @workgroup_size(1) fn main() { data[0] = MAIN_ENTRY; }"),
            ["entry point `main`", "WGSL const `MAIN_ENTRY`", "`MAIN_ENTRY`"],
        ),
        (
            shader("struct MissingFeatures { a: u32 }\n@group(0) @binding(1) var<storage> s: MissingFeatures;", main),
            ["the generated struct `MissingFeatures`", "WGSL struct `MissingFeatures`", "type `MissingFeatures`"],
        ),
        (
            shader(
                "const REQUIRED_FEATURE_NAMES: u32 = 1u;",
                "@compute @workgroup_size(1) fn main() { data[0] = REQUIRED_FEATURE_NAMES; }",
            ),
            [
                "the generated `REQUIRED_FEATURE_NAMES`",
                "WGSL const `REQUIRED_FEATURE_NAMES`",
                "`REQUIRED_FEATURE_NAMES`",
            ],
        ),
    ];
    for (wgsl, expected) in cases {
        let err = generate(&wgsl, "clash.wgsl").unwrap_err();
        assert!(matches!(err, crate::CodegenError::NameCollision { .. }), "{err:?}");
        let text = err.to_string();
        assert!(text.starts_with("clash.wgsl:"), "{text}");
        for part in expected {
            assert!(text.contains(part), "{part:?} missing from: {text}");
        }
    }
}

/// Structs named like Rust's prelude items generate code that names std's items by path.
#[test]
fn prelude_names_are_free_for_wgsl_structs() {
    let wgsl = "
        struct Vec { x: f32 }
        struct Option { y: u32 }
        struct Default { v: Vec, o: Option }
        override scale: f32 = 2.0;
        override doubled: f32 = scale * 2.0;
        @group(0) @binding(0) var<storage, read_write> data: array<Default>;
        @compute @workgroup_size(1) fn main() { data[0].v.x = doubled; }
    ";
    let rust = generate(wgsl, "prelude.wgsl").unwrap();
    parses(&rust);
    assert!(
        rust.contains("::core::option::Option<f32>") && rust.contains("impl ::core::default::Default for Overrides"),
        "{rust}"
    );
    assert!(!rust.contains(" Option<") && !rust.contains("-> Vec<"), "{rust}");
}

/// Two globals in one slot, each used by its own entry point (legal WGSL): an error naming both
/// and their entry points, instead of a layout wgpu rejects as conflicting.
#[test]
fn shared_binding_slots_are_reported() {
    let wgsl = "
        @group(0) @binding(0) var<storage, read_write> counts: array<u32>;
        @group(0) @binding(0) var<storage, read_write> sums: array<f32>;
        @compute @workgroup_size(1) fn count() { counts[0] = 1u; }
        @compute @workgroup_size(1) fn sum() { sums[0] = 1.0; }
    ";
    let err = generate(wgsl, "shared.wgsl").unwrap_err().to_string();
    for part in ["shared.wgsl", "`counts` and `sums`", "@group(0) @binding(0)", "`count`", "`sum`"] {
        assert!(err.contains(part), "{part:?} missing from: {err}");
    }
}

/// Each module names the device features its shader needs, found by validating it with naga
/// under wgpu's own feature → capability map.
#[test]
fn required_features_are_named() {
    let cases = [
        (
            "@group(0) @binding(0) var<storage, read_write> d: array<u32>;\n@compute @workgroup_size(1) fn main() { d[0] = 1u; }",
            vec![],
        ),
        (
            "enable f16;\n@group(0) @binding(0) var<storage, read_write> d: array<f16>;\n@compute @workgroup_size(1) fn main() { d[0] = 1.0h; }",
            vec!["SHADER_F16"],
        ),
        (
            "@group(0) @binding(0) var<storage, read_write> d: array<u32>;\n@compute @workgroup_size(32) fn main(@builtin(local_invocation_index) i: u32) { d[i] = subgroupAdd(i); }",
            vec!["SUBGROUP"],
        ),
        (
            "var<private> x: f64;\n@group(0) @binding(0) var<storage, read_write> d: array<f32>;\n@compute @workgroup_size(1) fn main() { x = f64(d[1]); d[0] = f32(x * 2.0lf); }",
            vec!["SHADER_F64"],
        ),
        (
            "@group(0) @binding(0) var t: texture_storage_2d<r32uint, atomic>;\n@compute @workgroup_size(1) fn main() { textureAtomicMax(t, vec2<i32>(0, 0), 1u); }",
            vec!["TEXTURE_ATOMIC"],
        ),
        (
            "var<private> x: i64;\n@group(0) @binding(0) var<storage, read_write> d: array<i32>;\n@compute @workgroup_size(1) fn main() { x = i64(d[1]); d[0] = i32(x >> 1u); }",
            vec!["SHADER_INT64"],
        ),
    ];
    for (wgsl, expected) in cases {
        let rust = generate(wgsl, "features.wgsl").unwrap_or_else(|e| panic!("{e}\n{wgsl}"));
        parses(&rust);
        let listed = format!(
            "pub const REQUIRED_FEATURE_NAMES: &[&str] = &[{}];",
            expected.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().join(", ")
        );
        let compact = |s: &str| s.split_whitespace().collect::<String>();
        assert!(compact(&rust).contains(&compact(&listed)), "expected {expected:?}:\n{rust}");
        assert!(rust.contains("pub fn try_create_main_pipeline"), "{rust}");
    }
}

/// Every problem of a shader is reported, each at `path:line:column` with its source line, in
/// WGSL's spelling of the types; not just the first one, and no naga-internal dump.
#[test]
fn every_unsupported_construct_is_reported_where_it_is() {
    let wgsl = "enable wgpu_binding_array;
struct Wide { big: u64 }
@group(0) @binding(0) var video: texture_external;
@group(0) @binding(1) var<storage, read> wide: Wide;
@group(0) @binding(2) var textures: binding_array<texture_2d<f32>, 4>;
@group(0) @binding(3) var<storage, read_write> out: array<f32>;
override ok: u32 = 1u;
@compute @workgroup_size(1) fn main() {
    out[0] = f32(wide.big) + textureLoad(video, vec2<u32>(0u)).x + textureLoad(textures[0], vec2<u32>(0u), 0).x + f32(ok);
}
";
    let err = generate(wgsl, "shaders/many.wgsl").unwrap_err();
    let CodegenError::Several { ref errors, .. } = err else { panic!("expected every problem: {err}") };
    assert_eq!(errors.len(), 3, "{err}");
    let text = err.to_string();
    for expected in [
        "shaders/many.wgsl: 3 problems",
        // The struct member's problem at the struct, the bindings' at their `var`, in source order.
        "shaders/many.wgsl:2:1: unsupported type `u64` for field `big` of struct `Wide`",
        "2 | struct Wide { big: u64 }",
        "shaders/many.wgsl:3:23: unsupported binding `video` (group 0, binding 0): `texture_external` bindings",
        "3 | @group(0) @binding(0) var video: texture_external;",
        "shaders/many.wgsl:5:23: unsupported binding `textures` (group 0, binding 2): `binding_array<texture_2d<f32>, 4>`",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    assert!(!text.contains("BindingArray") && !text.contains("Uint"), "naga's names leaked:\n{text}");
    // One problem is reported as itself, located.
    let one = "@group(0) @binding(0) var video: texture_external;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(1) fn main() { out[0] = textureLoad(video, vec2<u32>(0u)).x; }";
    let err = generate(one, "one.wgsl").unwrap_err();
    let CodegenError::Unsupported { at: Some(ref at), .. } = err else { panic!("expected a located error: {err}") };
    assert_eq!((at.line, at.column), (1, 23), "{err}");
    assert!(err.to_string().starts_with("one.wgsl:1:23: unsupported binding `video`"), "{err}");
}

/// An array sized by an override expression (naga makes an unnamed override for it) generates,
/// its size inlined; columns count characters, not bytes; expressions the host does not evaluate
/// are named as WGSL names them.
#[test]
fn unnamed_overrides_columns_and_expression_names() {
    let wgsl = "
        override lanes: u32 = 8u;
        var<workgroup> doubled: array<f32, lanes * 2u>;
        @group(0) @binding(0) var<storage, read_write> out: array<f32>;
        @compute @workgroup_size(1) fn main() { doubled[0] = 1.0; out[0] = doubled[0]; }
    ";
    let rust = generate(wgsl, "sized.wgsl").unwrap();
    assert!(rust.contains("o.lanes() * 2"), "{rust}");
    assert!(!rust.contains("pub fn ()") && !rust.contains("r#\"\""), "{rust}");

    let accented = "/* é */ @group(0) @binding(0) var video: texture_external;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(1) fn main() { out[0] = textureLoad(video, vec2<u32>(0u)).x; }";
    let err = generate(accented, "a.wgsl").unwrap_err();
    // `var` is the 31st character (the 32nd byte: `é` is two).
    assert!(err.to_string().starts_with("a.wgsl:1:31: unsupported binding `video`"), "{err}");

    let select = "
        override on: bool = true;
        override x: f32 = select(1.0, 2.0, on);
        @group(0) @binding(0) var<storage, read_write> out: array<f32>;
        @compute @workgroup_size(1) fn main() { out[0] = x; }
    ";
    let err = generate(select, "s.wgsl").unwrap_err().to_string();
    assert!(err.contains("`select(…)` is not evaluated on the host"), "{err}");
    assert!(err.starts_with("s.wgsl:3:"), "{err}");
}

/// naga places a struct aligned only by its members' `@align` where the WGSL spec does not
/// (gfx-rs/wgpu#4377): an error naming the struct and member, in storage and uniform alike (in
/// a uniform naga's own layout check fails first, on its wrong offset).
#[test]
fn nested_structs_naga_misaligns_are_errors() {
    for space in ["storage, read", "uniform"] {
        let wgsl = format!(
            "struct A {{ @align(16) x: f32 }}
struct C {{ p: f32, a: A, q: f32 }}
@group(0) @binding(0) var<{space}> u: C;
@group(0) @binding(1) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(1) fn main() {{ o[0] = u.a.x; }}"
        );
        let err = generate(&wgsl, "nest.wgsl").unwrap_err();
        let CodegenError::UnsupportedMemberType { ref structure, ref field, at: Some(ref at), .. } = err else {
            panic!("{space}: {err:?}")
        };
        assert_eq!((structure.as_str(), field.as_str(), at.line), ("C", "a", 2), "{err}");
        let text = err.to_string();
        for part in ["offset 4", "at 16", "gfx-rs/wgpu#4377", "`@align(16)` on field `a`"] {
            assert!(text.contains(part), "{space}: {part:?} missing from {text}");
        }
        assert!(!text.contains("not a multiple"), "{text}");
    }
    // The fix the message suggests generates, with `a` at 16 for both.
    let fixed = "struct A { @align(16) x: f32 }
struct C { p: f32, @align(16) a: A, q: f32 }
@group(0) @binding(0) var<uniform> u: C;
@group(0) @binding(1) var<storage, read_write> o: array<f32>;
@compute @workgroup_size(1) fn main() { o[0] = u.a.x; }";
    let rust = generate(fixed, "nest.wgsl").unwrap();
    assert!(rust.contains("WGSL `a: A` at offset 16."), "{rust}");
    assert!(rust.contains("48 bytes, WGSL alignment 16"), "{rust}");
}

/// Entry points whose UpperCamelCase name is `Self` get the variant `Self_`: no panic, Rust
/// that parses; two of them are a name collision.
#[test]
fn entry_points_named_like_self() {
    for name in ["SELF", "self_", "_self", "Self_"] {
        let wgsl = format!(
            "@group(0) @binding(0) var<storage, read_write> a: array<f32>;
            @compute @workgroup_size(1) fn {name}() {{ a[0] = 1.0; }}"
        );
        let rust = generate(&wgsl, "self.wgsl").unwrap_or_else(|e| panic!("{name}: {e}"));
        parses(&rust);
        assert!(rust.contains("Entry::Self_ =>"), "{name}: {rust}");
    }
    let both = "@group(0) @binding(0) var<storage, read_write> a: array<f32>;
        @compute @workgroup_size(1) fn SELF() { a[0] = 1.0; }
        @compute @workgroup_size(1) fn self_() { a[1] = 1.0; }";
    let err = generate(both, "self.wgsl").unwrap_err();
    assert!(matches!(err, CodegenError::NameCollision { .. }), "{err:?}");
    assert!(err.to_string().contains("`Entry` variant `Self_`"), "{err}");
}

/// Conversions from bool and f16 in override defaults become Rust that keeps WGSL's meaning
/// (their values are checked in tests/tests/codegen_generated_code.rs).
#[test]
fn override_conversions_from_bool_and_f16() {
    let wgsl = "enable f16;
        override flag: bool = true;
        override h: f16 = 2.5h;
        override scale: f32 = f32(flag) * 2.0;
        override count: u32 = u32(flag) + 1u;
        override n: u32 = u32(h);
        override g: f32 = f32(h);
        override back: f16 = f16(count);
        override nonzero: bool = bool(h);
        @group(0) @binding(0) var<storage, read_write> out: array<f32>;
        @compute @workgroup_size(1) fn main() {
            out[0] = scale + f32(count) + f32(n) + g + f32(back) + f32(nonzero);
        }";
    let rust = generate(wgsl, "casts.wgsl").unwrap();
    parses(&rust);
    let compact: String = rust.split_whitespace().collect();
    for expected in [
        "((ifo.flag(){1.0f32}else{0.0f32})*2f32)",
        "((ifo.flag(){1u32}else{0u32})+1u32)",
        "((o.h()).to_f32()asu32)",
        "(o.h()).to_f32()",
        "::half::f16::from_f32(o.count()asf32)",
        "(o.h()!=::half::f16::ZERO)",
    ] {
        assert!(compact.contains(expected), "{expected} missing from:\n{rust}");
    }
    assert!(!compact.contains("o.flag()asf32") && !compact.contains("o.h()asu32"), "{rust}");
}

/// Names the generator gives out itself are reserved: the element alias of a runtime-sized
/// tail, padding fields, the primitive types the generated code names.
#[test]
fn generated_names_are_reserved() {
    let tail = "struct BufItemsElement { v: u32 }
        struct Buf { count: u32, items: array<f32> }
        @group(0) @binding(0) var<storage, read_write> b: Buf;
        @group(0) @binding(1) var<storage, read_write> c: array<BufItemsElement>;
        @compute @workgroup_size(1) fn main() { b.items[0] = 1.0; c[0].v = 1u; }";
    let err = generate(tail, "tail.wgsl").unwrap_err();
    assert!(matches!(err, CodegenError::NameCollision { .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains("WGSL struct `BufItemsElement`") && text.contains("`Buf.items`"), "{text}");

    let pad = "struct S { a: u32, b: vec4<f32>, _wgsl_pad0: u32 }
        @group(0) @binding(0) var<storage, read_write> s: S;
        @compute @workgroup_size(1) fn main() { s.a = 1u; }";
    let err = generate(pad, "pad.wgsl").unwrap_err();
    assert!(matches!(err, CodegenError::NameCollision { .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains("member `_wgsl_pad0` of WGSL struct `S`") && text.contains("padding"), "{text}");

    for primitive in ["str", "u8", "f64"] {
        let wgsl = format!(
            "struct {primitive} {{ x: u32 }}
            @group(0) @binding(0) var<storage, read_write> d: {primitive};
            @compute @workgroup_size(1) fn main() {{ d.x = 1u; }}"
        );
        let err = generate(&wgsl, "prim.wgsl").unwrap_err();
        assert!(
            matches!(err, CodegenError::Unsupported { ref construct, .. } if *construct == format!("struct `{primitive}`")),
            "{err:?}"
        );
        assert!(err.to_string().contains("primitive type"), "{err}");
    }
}

/// Only `_pad`/`_padding` (with optional digits) are hand-written padding that `new` zeroes;
/// other members starting with `_` are arguments.
#[test]
fn underscore_members_are_arguments_unless_padding() {
    let wgsl = "struct U { _count: u32, _pad0: u32, value: f32, _padding: u32, _x: vec2<f32> }
        @group(0) @binding(0) var<uniform> u: U;
        @group(0) @binding(1) var<storage, read_write> out: array<f32>;
        @compute @workgroup_size(1) fn main() { out[0] = f32(u._count) + u.value + u._x.x; }";
    let rust = generate(wgsl, "u.wgsl").unwrap();
    assert!(rust.contains("pub fn new(_count: u32, value: f32, _x: [f32; 2usize]) -> Self"), "{rust}");
    assert!(rust.contains("_pad0: ::bytemuck::Zeroable::zeroed()"), "{rust}");
    assert!(rust.contains("_padding: ::bytemuck::Zeroable::zeroed()"), "{rust}");
}

/// A struct reached from two bindings is one problem, reported once.
#[test]
fn a_problem_reached_twice_is_reported_once() {
    let wgsl = "struct S { a: u32, b: i64 }
        @group(0) @binding(0) var<storage, read_write> s1: S;
        @group(0) @binding(1) var<storage, read_write> s2: array<S>;
        @compute @workgroup_size(1) fn main() { s1.a = 1u; s2[0].a = 2u; }";
    let err = generate(wgsl, "twice.wgsl").unwrap_err();
    assert!(matches!(err, CodegenError::UnsupportedMemberType { .. }), "{err:?}");
}

/// `struct_layout` (what `#[wgsl_layout]` checks against) lays out the struct asked for
/// whatever else the shader holds that `generate` rejects.
#[test]
fn struct_layout_ignores_the_rest_of_the_shader() {
    let wgsl = "struct Push { scale: f32, offset: vec2<f32> }
        struct Params { scale: f32, n: u32 }
        override bias: f32 = 0.5;
        override bias_abs: f32 = abs(bias);
        var<immediate> pc: Push;
        @group(0) @binding(0) var<uniform> p: Params;
        @group(0) @binding(1) var tex: texture_external;
        @group(0) @binding(2) var<storage, read_write> o: array<f32>;
        @compute @workgroup_size(1) fn main() {
            o[0] = p.scale + pc.scale + bias_abs + textureLoad(tex, vec2<u32>(0u)).x;
        }";
    assert!(generate(wgsl, "partial.wgsl").is_err());
    let push = crate::struct_layout(wgsl, "partial.wgsl", "Push").unwrap();
    assert_eq!((push.size, push.members[1].name.as_str(), push.members[1].offset), (16, "offset", 8));
    let params = crate::struct_layout(wgsl, "partial.wgsl", "Params").unwrap();
    assert_eq!(params.size, 8);
    let err = crate::struct_layout(wgsl, "partial.wgsl", "Missing").unwrap_err();
    assert!(
        matches!(err, CodegenError::NoSuchStruct { ref available, .. } if available.contains("Push, Params")),
        "{err:?}"
    );
}
