//! WGSL names → Rust identifiers.

use proc_macro2::{Ident, Span};

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "else", "enum", "extern", "false", "fn", "for", "if", "impl", "in", "let",
    "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static", "struct", "trait", "true", "type",
    "unsafe", "use", "where", "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// A field or function identifier; Rust keywords become raw identifiers (`r#type`).
pub fn field_ident(name: &str) -> Ident {
    if matches!(name, "self" | "Self" | "super" | "crate") {
        Ident::new(&format!("{name}_"), Span::call_site())
    } else if KEYWORDS.contains(&name) {
        Ident::new_raw(name, Span::call_site())
    } else {
        Ident::new(name, Span::call_site())
    }
}

/// A type identifier (WGSL struct names are used as they are, keywords suffixed).
pub fn type_ident(name: &str) -> Ident {
    if KEYWORDS.contains(&name) || matches!(name, "Self" | "self" | "super" | "crate") {
        Ident::new(&format!("{name}_"), Span::call_site())
    } else {
        Ident::new(name, Span::call_site())
    }
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

/// Whether a WGSL member is padding the author wrote by hand (`_pad0`): zero-filled by constructors.
pub fn is_padding_name(name: &str) -> bool {
    name.starts_with('_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_become_raw_identifiers() {
        assert_eq!(field_ident("type").to_string(), "r#type");
        assert_eq!(field_ident("kh").to_string(), "kh");
        assert_eq!(field_ident("self").to_string(), "self_");
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
}
