//! WGSL names → Rust identifiers. Every identifier the generator derives from a WGSL name is made
//! here, so that `check_names` (lib.rs) claims exactly the names the emitters write.

use proc_macro2::{Ident, Span};

/// Rust's strict and reserved keywords (2024 edition, so `gen` too).
const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self", "static", "struct", "super",
    "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box",
    "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// The keywords that cannot be raw identifiers (`r#self` is not allowed): suffixed with `_` instead.
const NOT_RAW: &[&str] = &["self", "Self", "super", "crate"];

/// Rust's primitive types. A generated struct of one of these names would shadow the primitive
/// in the generated code (`[u8; 4]` padding, `&str`, `f64` constants), so `check_names`
/// reserves them.
pub const PRIMITIVE_TYPES: &[&str] = &[
    "bool", "char", "str", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
    "f16", "f32", "f64", "f128",
];

/// Whether `name` is a Rust keyword (strict or reserved).
pub fn is_keyword(name: &str) -> bool {
    KEYWORDS.contains(&name)
}

/// A field, function or parameter identifier: the WGSL name, a keyword as a raw identifier
/// (`r#type`), or with a `_` appended where Rust has no raw form (`self` → `self_`).
pub fn field_ident(name: &str) -> Ident {
    if NOT_RAW.contains(&name) {
        Ident::new(&format!("{name}_"), Span::call_site())
    } else if is_keyword(name) {
        Ident::new_raw(name, Span::call_site())
    } else {
        Ident::new(name, Span::call_site())
    }
}

/// [`field_ident`] as text, without the `r#` of a raw identifier: the name a hand-written struct
/// spells (`r#in` is the field `in`).
pub fn field_name(name: &str) -> String {
    if NOT_RAW.contains(&name) { format!("{name}_") } else { name.to_string() }
}

/// A type identifier: WGSL struct names are used as they are, keywords suffixed (`type` → `type_`).
pub fn type_ident(name: &str) -> Ident {
    Ident::new(&type_name(name), Span::call_site())
}

/// [`type_ident`] as text.
pub fn type_name(name: &str) -> String {
    if is_keyword(name) { format!("{name}_") } else { name.to_string() }
}

/// The `Entry` variant of a compute entry point: its name in UpperCamelCase, `Self_` where that
/// is `Self` (`fn self_()`, `fn SELF()`), the one keyword an UpperCamelCase name can be.
pub fn variant_ident(name: &str) -> Ident {
    Ident::new(&variant_name(name), Span::call_site())
}

/// [`variant_ident`] as text.
pub fn variant_name(name: &str) -> String {
    let camel = upper_camel(name);
    if is_keyword(&camel) { format!("{camel}_") } else { camel }
}

/// `wg_size` → `WG_SIZE`, `mainImage` → `MAIN_IMAGE`.
pub fn upper_snake(name: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if c.is_ascii_uppercase() && prev_lower {
            out.push('_');
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// `main` → `main`, `mainImage` → `main_image`.
pub fn lower_snake(name: &str) -> String {
    upper_snake(name).to_ascii_lowercase()
}

/// `conv2d_gemm_m64` → `Conv2dGemmM64`, `mainImage` → `MainImage`.
pub fn upper_camel(name: &str) -> String {
    let mut out = String::new();
    for word in lower_snake(name).split('_').filter(|w| !w.is_empty()) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    // A name of underscores only, or one starting with a digit after them, still needs a letter.
    if !out.starts_with(|c: char| c.is_ascii_alphabetic()) {
        out.insert(0, 'E');
    }
    out
}

/// Whether a WGSL member is padding the author wrote by hand, which constructors zero instead of
/// taking as an argument: `_pad` or `_padding`, optionally followed by decimal digits (`_pad0`,
/// `_padding12`). Other names starting with `_` (`_count`) are ordinary members.
pub fn is_padding_name(name: &str) -> bool {
    let digits = |rest: &str| rest.bytes().all(|b| b.is_ascii_digit());
    // `_padding` first: `_padding1` also starts with `_pad`, followed by "ding1".
    name.strip_prefix("_padding").or_else(|| name.strip_prefix("_pad")).is_some_and(digits)
}

/// Why `stem` (a shader's file name without `.wgsl`) cannot name the Rust module generated from
/// it, or `None` when it can. Modules are found by file name (`pub mod stem;` → `stem.rs`), which
/// Rust allows only for ASCII identifiers; `mod` would be the generated `mod.rs` itself.
pub fn module_name_problem(stem: &str) -> Option<&'static str> {
    let mut chars = stem.chars();
    match chars.next() {
        None => Some("it is empty"),
        Some(c) if !(c.is_ascii_alphabetic() || c == '_') => Some("a Rust module name starts with a letter or `_`"),
        _ if !stem.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
            Some("a Rust module name has only ASCII letters, digits and `_`")
        }
        _ if stem == "_" => Some("`_` is not a Rust identifier"),
        _ if stem == "mod" => Some("`mod.rs` is the generated module list"),
        _ if is_keyword(stem) => Some("it is a Rust keyword"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_become_raw_identifiers() {
        assert_eq!(field_ident("type").to_string(), "r#type");
        assert_eq!(field_ident("kh").to_string(), "kh");
        assert_eq!(field_ident("self").to_string(), "self_");
        assert_eq!(field_name("in"), "in");
        assert_eq!(field_name("Self"), "Self_");
        assert_eq!(type_ident("type").to_string(), "type_");
        assert_eq!(type_ident("Self").to_string(), "Self_");
    }

    #[test]
    fn snake_cases() {
        assert_eq!(upper_snake("wg_size"), "WG_SIZE");
        assert_eq!(upper_snake("mainImage"), "MAIN_IMAGE");
        assert_eq!(lower_snake("conv2dVec4"), "conv2d_vec4");
        assert_eq!(upper_camel("conv2d_gemm_m64_k16"), "Conv2dGemmM64K16");
        assert_eq!(upper_camel("mainImage"), "MainImage");
        assert_eq!(upper_camel("_"), "E");
    }

    /// Every spelling that camel-cases to `Self` gets a variant Rust accepts.
    #[test]
    fn variants_are_never_keywords() {
        for name in ["SELF", "self_", "_self", "Self_", "self", "Self"] {
            let variant = variant_ident(name);
            assert_eq!(variant.to_string(), "Self_", "{name}");
            syn::parse_str::<syn::Variant>(&variant.to_string()).unwrap();
        }
        assert_eq!(variant_name("main"), "Main");
        // No WGSL name camel-cases to any other keyword: they are all lower case.
        assert!(KEYWORDS.iter().filter(|k| k.starts_with(|c: char| c.is_ascii_uppercase())).eq(["Self"].iter()));
    }

    #[test]
    fn padding_names() {
        for name in ["_pad", "_pad0", "_pad12", "_padding", "_padding1"] {
            assert!(is_padding_name(name), "{name}");
        }
        for name in ["_count", "_x", "_pad_x", "_padx", "pad0", "_Pad0", "_", "_paddings"] {
            assert!(!is_padding_name(name), "{name}");
        }
    }

    #[test]
    fn module_names() {
        for ok in ["blur", "conv2d_gemm", "_private", "Blur"] {
            assert_eq!(module_name_problem(ok), None, "{ok}");
        }
        for bad in ["my-blur", "2d_blur", "type", "mod", "self", "_", "", "blür", "a.b"] {
            assert!(module_name_problem(bad).is_some(), "{bad}");
        }
    }
}
