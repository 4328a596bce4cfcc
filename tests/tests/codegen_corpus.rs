//! The generator on a corpus of varied shaders (`tests/fixtures/corpus/`): each one either
//! generates Rust that parses, or fails with a clear message naming the construct — never a panic.
//! (The shaders in `tests/fixtures/shaders/` go further: their generated modules are compiled and
//! run in this crate.)

use std::path::Path;

/// (file, expected error text) — `None` means it must generate.
const EXPECTED: &[(&str, Option<&str>)] = &[
    ("textures_samplers.wgsl", None),
    ("external_texture.wgsl", Some("binding `video` (group 0, binding 0)")),
    ("immediates.wgsl", Some("immediate constant `push`")),
    ("workgroup_atomics.wgsl", None),
    ("vertex_fragment.wgsl", None),
    ("override_sized_array.wgsl", None),
    ("bool_in_buffer.wgsl", Some("failed validation")),
];

#[test]
fn corpus_generates_or_names_the_unsupported_construct() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/corpus");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let expected = EXPECTED.iter().find(|(f, _)| *f == name).unwrap_or_else(|| panic!("{name} has no expectation"));
        let source = std::fs::read_to_string(&path).unwrap();
        match (wgconv_codegen::generate(&source, &format!("corpus/{name}")), expected.1) {
            (Ok(rust), None) => {
                syn::parse_file(&rust).unwrap_or_else(|e| panic!("{name}: generated Rust does not parse: {e}"));
            }
            (Err(e), Some(text)) => {
                let message = e.to_string();
                assert!(message.contains(text) && message.contains(&name), "{name}: {message}");
            }
            (Ok(_), Some(text)) => panic!("{name}: expected an error mentioning {text:?}"),
            (Err(e), None) => panic!("{name}: {e}"),
        }
        seen += 1;
    }
    assert_eq!(seen, EXPECTED.len());
}

#[test]
fn derived_override_defaults_and_ids_in_the_corpus() {
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/corpus/override_sized_array.wgsl"),
    )
    .unwrap();
    let rust = wgconv_codegen::generate(&source, "corpus/override_sized_array.wgsl").unwrap();
    assert!(rust.contains("pub rows: ::core::option::Option<u32>"), "{rust}");
    assert!(rust.contains("(\"3\", f64::from(v))"), "{rust}");
    assert!(rust.contains("pub fn run_workgroup_size(o: &Overrides) -> [u32; 3]"), "{rust}");
}
