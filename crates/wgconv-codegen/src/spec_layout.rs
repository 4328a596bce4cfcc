//! Structs whose layout naga and the WGSL spec disagree on, reported instead of generated.
//!
//! naga's front end honours a member's `@align` when it places that member, but its `Layouter`
//! aligns a struct to its members' *types* only, ignoring their `@align` ([gfx-rs/wgpu#4377]).
//! So `struct A { @align(16) x: f32 }` is 16-aligned by the spec ([WGSL §14.4.1 Alignment and
//! Size]) but 4-aligned in naga, and in `struct C { p: f32, a: A }` naga puts `a` at offset 4
//! where the spec puts it at 16. wgpu's backends write naga's offsets, while implementations
//! following the spec (Dawn, browsers) use the spec's: no host struct is right for both, and
//! the uniform rules (naga's "offset 4 is not a multiple of 16") then fail on the wrong numbers.
//!
//! naga's IR does not keep `@align`, and offsets alone cannot tell an `@align` from a `@size` on
//! the member before. So the explicit alignments are read from the struct's declaration (its
//! span in the source), their values evaluated by naga itself, and the spec's alignment of every
//! member compared with naga's. Where a member's type is more aligned by the spec than by naga
//! (and the member has no `@align` of its own, which both would honour), naga's offset is the
//! spec's exactly when it is a multiple of the spec's alignment (both are powers of two, and the
//! members before it agree), and likewise the struct's size. The first disagreement is an
//! [`CodegenError::UnsupportedMemberType`] naming the struct, the member and both numbers.
//!
//! [gfx-rs/wgpu#4377]: https://github.com/gfx-rs/wgpu/issues/4377
//! [WGSL §14.4.1 Alignment and Size]: https://www.w3.org/TR/WGSL/#alignment-and-size

use naga::{Handle, Module, Type, TypeInner, proc::Layouter};

use crate::{CodegenError, layout::wgsl_type_name};

/// Checks that naga lays out struct `ty` as the WGSL spec does (see the module docs) and returns
/// its alignment by the spec. Only `ty`'s own members are compared; the structs it nests are
/// checked when they are laid out themselves.
pub(crate) fn check_struct(
    module: &Module,
    layouter: &Layouter,
    source: &str,
    ty: Handle<Type>,
    path: &str,
) -> Result<u32, CodegenError> {
    let spec = Spec { module, layouter, source, path };
    let TypeInner::Struct { members, span } = &module.types[ty].inner else {
        unreachable!("check_struct called on a non-struct");
    };
    let explicit = spec.explicit_aligns(ty)?;
    let mut align = 1;
    // The member more aligned by the spec than by naga that aligns the struct most.
    let mut widest: Option<(usize, u32, u32)> = None;
    for (index, member) in members.iter().enumerate() {
        let by_naga = layouter[member.ty].alignment.round_up(1);
        let by_spec = spec.natural(member.ty)?;
        let error = |reason: String| spec.member_error(ty, index, reason);
        let field = member.name.as_deref().unwrap_or("?");
        match explicit[index] {
            Some(value) if value < by_spec => {
                return Err(error(format!(
                    "its `@align({value})` is below the alignment {by_spec} the WGSL spec requires of `{}`, so \
                     WebGPU implementations reject the shader{}; write `@align({by_spec})`",
                    wgsl_type_name(module, member.ty),
                    why_naga_differs(module, member.ty, by_naga, by_spec),
                )));
            }
            Some(value) => align = align.max(value),
            None => {
                align = align.max(by_spec);
                if by_spec == by_naga {
                    continue;
                }
                if member.offset % by_spec != 0 {
                    return Err(error(format!(
                        "naga (wgpu) puts it at offset {}, the WGSL spec (WebGPU implementations such as Dawn) at {}{}; \
                         write `@align({by_spec})` on field `{field}` so that both agree",
                        member.offset,
                        member.offset.next_multiple_of(by_spec),
                        why_naga_differs(module, member.ty, by_naga, by_spec),
                    )));
                }
                if widest.is_none_or(|(_, _, widest)| by_spec > widest) {
                    widest = Some((index, by_naga, by_spec));
                }
            }
        }
    }
    if span % align != 0
        && let Some((index, by_naga, by_spec)) = widest
    {
        let name = module.types[ty].name.as_deref().unwrap_or("?");
        let field = members[index].name.as_deref().unwrap_or("?");
        return Err(spec.member_error(
            ty,
            index,
            format!(
                "it makes `{name}` {} bytes by the WGSL spec (WebGPU implementations such as Dawn) but {span} in naga \
                 (wgpu){}; write `@align({by_spec})` on field `{field}` so that both agree",
                span.next_multiple_of(align),
                why_naga_differs(module, members[index].ty, by_naga, by_spec),
            ),
        ));
    }
    Ok(align)
}

/// The middle of each message: which alignments differ and why.
fn why_naga_differs(module: &Module, ty: Handle<Type>, by_naga: u32, by_spec: u32) -> String {
    format!(
        ": `{}` is {by_spec}-aligned by the spec but {by_naga}-aligned in naga, which ignores the `@align` of a \
         struct's members when it aligns the struct (gfx-rs/wgpu#4377)",
        wgsl_type_name(module, ty)
    )
}

/// What the spec's alignments are computed from.
struct Spec<'a> {
    module: &'a Module,
    layouter: &'a Layouter,
    source: &'a str,
    path: &'a str,
}

impl Spec<'_> {
    /// The spec's alignment of a member of type `ty` without `@align`: a struct's counts its
    /// members' `@align`, an array's is its element's, other types' are naga's.
    fn natural(&self, ty: Handle<Type>) -> Result<u32, CodegenError> {
        match self.module.types[ty].inner {
            TypeInner::Struct { ref members, .. } => {
                let explicit = self.explicit_aligns(ty)?;
                let mut align = 1;
                for (member, explicit) in members.iter().zip(explicit) {
                    align = align.max(match explicit {
                        Some(value) => value,
                        None => self.natural(member.ty)?,
                    });
                }
                Ok(align)
            }
            TypeInner::Array { base, .. } => self.natural(base),
            _ => Ok(self.layouter[ty].alignment.round_up(1)),
        }
    }

    /// The `@align` value of each member of struct `ty`, read from its declaration. Without a
    /// span (a module not parsed from this source) nothing can be read: naga's view stands.
    fn explicit_aligns(&self, ty: Handle<Type>) -> Result<Vec<Option<u32>>, CodegenError> {
        let TypeInner::Struct { ref members, .. } = self.module.types[ty].inner else {
            unreachable!("explicit_aligns of a non-struct");
        };
        let mut aligns = vec![None; members.len()];
        let Some(text) = self.module.types.get_span(ty).to_range().and_then(|range| self.source.get(range)) else {
            return Ok(aligns);
        };
        if !text.contains("align") {
            return Ok(aligns);
        }
        for (name, argument) in align_attributes(text) {
            let Some(index) = members.iter().position(|m| m.name.as_deref() == Some(name)) else { continue };
            let value = evaluate(self.source, argument).ok_or_else(|| {
                self.member_error(
                    ty,
                    index,
                    format!(
                        "the generator could not evaluate its `@align({argument})`; write the alignment as a number"
                    ),
                )
            })?;
            aligns[index] = Some(value);
        }
        Ok(aligns)
    }

    /// A problem with member `index` of struct `ty`.
    fn member_error(&self, ty: Handle<Type>, index: usize, reason: String) -> CodegenError {
        let TypeInner::Struct { ref members, .. } = self.module.types[ty].inner else {
            unreachable!("member_error of a non-struct");
        };
        let member = &members[index];
        CodegenError::UnsupportedMemberType {
            path: self.path.to_string(),
            at: None,
            structure: self.module.types[ty].name.clone().unwrap_or_default(),
            field: member.name.clone().unwrap_or_else(|| format!("member{index}")),
            wgsl_type: wgsl_type_name(self.module, member.ty),
            reason,
        }
    }
}

/// The value of an `@align` argument: a number, or else whatever const-expression naga
/// evaluates it to, in the shader's own scope (it may name the shader's `const`s).
fn evaluate(source: &str, argument: &str) -> Option<u32> {
    let argument = argument.trim().trim_end_matches(',').trim();
    let digits = argument.trim_end_matches(['u', 'i']);
    let number = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => digits.parse().ok(),
    };
    if number.is_some() {
        return number;
    }
    const PROBE: &str = "wgconv_codegen_align_probe";
    let probe = format!("{source}\nconst {PROBE}: u32 = u32({argument});\n");
    let module = naga::front::wgsl::parse_str(&probe).ok()?;
    let (_, constant) = module.constants.iter().find(|(_, c)| c.name.as_deref() == Some(PROBE))?;
    match module.global_expressions[constant.init] {
        naga::Expression::Literal(naga::Literal::U32(value)) => Some(value),
        _ => None,
    }
}

/// One token of a struct declaration: where it is in the text, and its first character.
#[derive(Clone, Copy)]
struct Token {
    start: usize,
    end: usize,
    first: char,
}

/// WGSL tokens of `text` (identifiers and numbers whole, everything else one character at a
/// time), without blank space and comments (`/* */` nests).
fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, first)) = chars.next() {
        let rest = &text[start..];
        if first.is_whitespace() {
            continue;
        }
        if rest.starts_with("//") {
            while chars.next_if(|&(_, c)| c != '\n').is_some() {}
            continue;
        }
        if rest.starts_with("/*") {
            chars.next();
            let mut depth = 1;
            while depth > 0 {
                match chars.next() {
                    Some((i, '*')) if text[i..].starts_with("*/") => {
                        chars.next();
                        depth -= 1;
                    }
                    Some((i, '/')) if text[i..].starts_with("/*") => {
                        chars.next();
                        depth += 1;
                    }
                    Some(_) => {}
                    None => break,
                }
            }
            continue;
        }
        let mut end = start + first.len_utf8();
        if first.is_alphanumeric() || first == '_' {
            // An identifier, or a number with its suffix (`16u`, `0x10`, `1.5e3f`).
            while let Some((i, c)) = chars.next_if(|&(_, c)| c.is_alphanumeric() || c == '_' || c == '.') {
                end = i + c.len_utf8();
            }
        }
        out.push(Token { start, end, first });
    }
    out
}

/// (member name, argument text) of each `@align(…)` on a member of the struct declared in `text`.
fn align_attributes(text: &str) -> Vec<(&str, &str)> {
    let tokens = tokens(text);
    let token = |i: usize| tokens.get(i).map(|t: &Token| &text[t.start..t.end]);
    let Some(open) = tokens.iter().position(|t| t.first == '{') else { return Vec::new() };
    let mut out = Vec::new();
    let mut align = None;
    let mut i = open + 1;
    while let Some(current) = tokens.get(i) {
        match current.first {
            '}' => break,
            '@' => {
                let name = token(i + 1);
                i += 2;
                if token(i) == Some("(") {
                    // The argument runs to the matching parenthesis.
                    let mut depth = 0;
                    let start = tokens[i].end;
                    while let Some(t) = tokens.get(i) {
                        depth += match t.first {
                            '(' => 1,
                            ')' => -1,
                            _ => 0,
                        };
                        i += 1;
                        if depth == 0 {
                            if name == Some("align") {
                                align = Some(&text[start..t.start]);
                            }
                            break;
                        }
                    }
                }
            }
            c if c.is_alphabetic() || c == '_' => {
                // The member's name; then its type, to the `,` or `}` outside any `<>` or `()`.
                if let Some(argument) = align.take() {
                    out.push((&text[current.start..current.end], argument));
                }
                i += 1;
                let (mut angles, mut parens) = (0, 0);
                while let Some(t) = tokens.get(i) {
                    match t.first {
                        '(' => parens += 1,
                        ')' => parens -= 1,
                        '<' if parens == 0 => angles += 1,
                        '>' if parens == 0 => angles -= 1,
                        ',' | '}' if parens == 0 && angles <= 0 => break,
                        _ => {}
                    }
                    i += 1;
                }
                if token(i) == Some(",") {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The layouts of the struct `name` in `source`, or the error.
    fn check(source: &str, name: &str) -> Result<u32, CodegenError> {
        let module = naga::front::wgsl::parse_str(source).unwrap();
        let mut layouter = Layouter::default();
        layouter.update(module.to_ctx()).unwrap();
        let (ty, _) = module.types.iter().find(|(_, t)| t.name.as_deref() == Some(name)).unwrap();
        check_struct(&module, &layouter, source, ty, "s.wgsl")
    }

    #[test]
    fn align_attributes_are_read_past_comments_and_templates() {
        let text = "struct S {
            a: array<vec4<f32>, 2>, // @align(64) in a comment
            /* @align(32) /* nested */ b: u32, */
            @size(8) @align(16) b: f32,
            @location(0) @align( K * 2u ) c: vec2<f32>,
            @align(8,) d: array<f32, (1 + 1)>,
            e: f32
        }";
        assert_eq!(align_attributes(text), vec![("b", "16"), ("c", " K * 2u "), ("d", "8,")]);
    }

    #[test]
    fn align_arguments_are_evaluated_in_the_shader() {
        let source = "const K: u32 = 8u; const L = K * 4;";
        assert_eq!(evaluate(source, "16"), Some(16));
        assert_eq!(evaluate(source, "0x20u"), Some(32));
        assert_eq!(evaluate(source, "8i,"), Some(8));
        assert_eq!(evaluate(source, " K * 2u "), Some(16));
        assert_eq!(evaluate(source, "L"), Some(32));
        assert_eq!(evaluate(source, "missing"), None);
    }

    /// The reviewer's case: naga puts `a` at 4, the spec at 16.
    #[test]
    fn a_nested_struct_aligned_by_its_members_is_an_error() {
        let source = "struct A { @align(16) x: f32 }\nstruct C { p: f32, a: A, q: f32 }";
        assert_eq!(check(source, "A").unwrap(), 16);
        let err = check(source, "C").unwrap_err();
        let CodegenError::UnsupportedMemberType { ref structure, ref field, ref wgsl_type, ref reason, .. } = err
        else {
            panic!("{err:?}")
        };
        assert_eq!((structure.as_str(), field.as_str(), wgsl_type.as_str()), ("C", "a", "A"));
        for part in ["offset 4", "at 16", "16-aligned by the spec but 4-aligned in naga", "#4377", "`@align(16)`"] {
            assert!(reason.contains(part), "{part:?} missing from {reason}");
        }
    }

    #[test]
    fn arrays_and_deeper_nesting_and_named_constants() {
        let source = "const AL = 32;
            struct A { @align(AL) d: vec2<f32> }
            struct B { a: A }
            struct C { p: f32, arr: array<B, 2> }";
        // B is aligned by A's member too; it is laid out the same by both (offset 0, 32 bytes).
        assert_eq!(check(source, "B").unwrap(), 32);
        let err = check(source, "C").unwrap_err().to_string();
        assert!(
            err.contains("field `arr` of struct `C`") && err.contains("offset 8") && err.contains("at 32"),
            "{err}"
        );
    }

    /// Offsets that agree by chance leave the size to disagree.
    #[test]
    fn a_size_only_disagreement_is_an_error() {
        let source = "struct A { @align(16) x: f32 }\nstruct C { a: A, q: f32 }";
        let err = check(source, "C").unwrap_err().to_string();
        assert!(err.contains("field `a` of struct `C`") && err.contains("`C` 32 bytes by the WGSL spec"), "{err}");
        assert!(err.contains("but 20 in naga"), "{err}");
    }

    #[test]
    fn agreeing_layouts_pass() {
        for (source, name, align) in [
            // An explicit @align on the member itself: both place it there.
            ("struct A { @align(16) x: f32 }\nstruct C { p: f32, @align(16) a: A, q: f32 }", "C", 16),
            // @align on a top-level struct's members is honoured by naga's offsets.
            ("struct A { p: f32, @align(16) x: f32, @size(12) y: f32 }", "A", 16),
            // Aligned by chance: offset 0, and the size a multiple of 16 anyway.
            ("struct A { @align(16) x: f32 }\nstruct C { a: A, b: vec4<f32> }", "C", 16),
            ("struct P { a: u32, v: vec3<f32> }", "P", 16),
        ] {
            assert_eq!(check(source, name).unwrap(), align, "{source}");
        }
    }

    #[test]
    fn an_align_below_the_spec_requirement_is_an_error() {
        let source = "struct A { @align(16) x: f32 }\nstruct C { p: f32, @align(8) a: A }";
        let err = check(source, "C").unwrap_err().to_string();
        assert!(err.contains("`@align(8)` is below the alignment 16"), "{err}");
    }
}
