//! Override expressions → Rust over `o: &Overrides`: the defaults of overrides, workgroup sizes
//! and override-sized arrays, evaluated on the host as naga would evaluate them in a pipeline.

use naga::{Expression, Handle, Literal, Module, TypeInner, valid::ModuleInfo};
use proc_macro2::TokenStream;
use quote::quote;

use crate::{CodegenError, emit::scalar_tokens, layout, model::ScalarType, names::field_ident};

/// What a translation reads: the validated module, and for messages the shader and the item
/// the expression belongs to.
pub(crate) struct HostExpr<'a> {
    /// The module.
    pub module: &'a Module,
    /// Its validation info, which types every global expression.
    pub info: &'a ModuleInfo,
    /// Shader path.
    pub path: &'a str,
    /// The override, entry point or workgroup variable the expression belongs to.
    pub owner: &'a str,
}

impl HostExpr<'_> {
    /// The value of override `handle`: its getter, or for an override naga made for an
    /// expression (an array length `lanes * 2u`, unnamed) that expression, inline. `depends` is
    /// set when it reads a named override.
    pub fn override_value(
        &self,
        handle: Handle<naga::Override>,
        depends: &mut bool,
    ) -> Result<TokenStream, CodegenError> {
        let o = &self.module.overrides[handle];
        match (&o.name, o.init) {
            (Some(name), _) => {
                *depends = true;
                let getter = field_ident(name);
                Ok(quote!(o.#getter()))
            }
            (None, Some(init)) => self.translate(init, depends),
            (None, None) => Err(self.unsupported("an unnamed override without a value".into())),
        }
    }

    /// Translates global expression `expr`. `depends` is set when it reads another override.
    /// Every result is a single Rust primary expression (a literal, a call, or parenthesised),
    /// so it can be an operand, a cast's subject or a method receiver without Rust's precedence
    /// changing its meaning: `-4i32.max(k)` would parse as `-(4i32.max(k))`.
    pub fn translate(&self, expr: Handle<Expression>, depends: &mut bool) -> Result<TokenStream, CodegenError> {
        let module = self.module;
        Ok(match &module.global_expressions[expr] {
            // Negative literals are a minus and a literal to Rust: parenthesised.
            Expression::Literal(lit) => match *lit {
                Literal::U32(v) => quote!(#v),
                Literal::I32(v) => parenthesised_if(v < 0, quote!(#v)),
                Literal::F32(v) => parenthesised_if(v.is_sign_negative(), quote!(#v)),
                Literal::Bool(v) => quote!(#v),
                Literal::F16(v) => {
                    let bits = v.to_bits();
                    quote!(::half::f16::from_bits(#bits))
                }
                Literal::AbstractInt(v) => {
                    let negative = v < 0;
                    let v = proc_macro2::Literal::i64_unsuffixed(v);
                    parenthesised_if(negative, quote!(#v))
                }
                Literal::AbstractFloat(v) => {
                    let negative = v.is_sign_negative();
                    let v = proc_macro2::Literal::f64_unsuffixed(v);
                    parenthesised_if(negative, quote!(#v))
                }
                other => {
                    let name = layout::scalar_name(other.scalar());
                    return Err(self.unsupported(format!("a literal of type `{name}`")));
                }
            },
            Expression::Override(h) => self.override_value(*h, depends)?,
            Expression::Constant(h) => self.translate(module.constants[*h].init, depends)?,
            // `T()` of a scalar type: its zero.
            Expression::ZeroValue(ty) if matches!(module.types[*ty].inner, TypeInner::Scalar(_)) => {
                let TypeInner::Scalar(scalar) = module.types[*ty].inner else { unreachable!("matched above") };
                match layout::scalar(scalar) {
                    Some(ScalarType::Bool) => quote!(false),
                    Some(ScalarType::F16) => quote!(::half::f16::ZERO),
                    Some(ScalarType::U32) => quote!(0u32),
                    Some(ScalarType::I32) => quote!(0i32),
                    Some(ScalarType::F32) => quote!(0.0f32),
                    None => {
                        let name = layout::scalar_name(scalar);
                        return Err(self.unsupported(format!("a zero of type `{name}`")));
                    }
                }
            }
            Expression::Binary { op, left, right } => {
                let l = self.translate(*left, depends)?;
                let r = self.translate(*right, depends)?;
                use naga::BinaryOperator as B;
                let op = match op {
                    B::Add => quote!(+),
                    B::Subtract => quote!(-),
                    B::Multiply => quote!(*),
                    B::Divide => quote!(/),
                    B::Modulo => quote!(%),
                    B::Equal => quote!(==),
                    B::NotEqual => quote!(!=),
                    B::Less => quote!(<),
                    B::LessEqual => quote!(<=),
                    B::Greater => quote!(>),
                    B::GreaterEqual => quote!(>=),
                    B::And => quote!(&),
                    B::ExclusiveOr => quote!(^),
                    B::InclusiveOr => quote!(|),
                    B::LogicalAnd => quote!(&&),
                    B::LogicalOr => quote!(||),
                    B::ShiftLeft => quote!(<<),
                    B::ShiftRight => quote!(>>),
                };
                quote!((#l #op #r))
            }
            Expression::Unary { op, expr } => {
                let e = self.translate(*expr, depends)?;
                match op {
                    naga::UnaryOperator::Negate => quote!((-#e)),
                    naga::UnaryOperator::LogicalNot | naga::UnaryOperator::BitwiseNot => quote!((!#e)),
                }
            }
            Expression::Math { fun: naga::MathFunction::Max, arg, arg1: Some(b), .. } => {
                let a = self.translate(*arg, depends)?;
                let b = self.translate(*b, depends)?;
                quote!((#a).max(#b))
            }
            Expression::Math { fun: naga::MathFunction::Min, arg, arg1: Some(b), .. } => {
                let a = self.translate(*arg, depends)?;
                let b = self.translate(*b, depends)?;
                quote!((#a).min(#b))
            }
            Expression::As { expr: operand, kind, convert: Some(width) } => {
                let target_scalar = naga::Scalar { kind: *kind, width: *width };
                let target = layout::scalar(target_scalar).ok_or_else(|| {
                    self.unsupported(format!("a conversion to `{}`", layout::scalar_name(target_scalar)))
                })?;
                let source = self.info[*operand].inner_with(&module.types).scalar();
                let e = self.translate(*operand, depends)?;
                self.conversion(source, target, e)?
            }
            other => {
                return Err(self.unsupported(format!("{} is not evaluated on the host", expression_name(other))));
            }
        })
    }

    /// `e`, of WGSL type `source`, converted to `target` as WGSL's value constructors `T(e)`
    /// convert: a bool is 1 or 0; a float becomes a number truncated toward zero and clamped
    /// to the integer's range (Rust's `as`, NaN 0); an f16 widens to f32 exactly first;
    /// `bool(x)` is `x != 0`; i32 ↔ u32 keeps the bits.
    fn conversion(
        &self,
        source: Option<naga::Scalar>,
        target: ScalarType,
        e: TokenStream,
    ) -> Result<TokenStream, CodegenError> {
        let ty = scalar_tokens(target);
        let (one, zero) = match target {
            ScalarType::U32 => (quote!(1u32), quote!(0u32)),
            ScalarType::I32 => (quote!(1i32), quote!(0i32)),
            ScalarType::F32 => (quote!(1.0f32), quote!(0.0f32)),
            ScalarType::F16 => (quote!(::half::f16::ONE), quote!(::half::f16::ZERO)),
            ScalarType::Bool => (quote!(true), quote!(false)),
        };
        // A source naga left abstract (a literal) takes any numeric type through `as`.
        let source = match source {
            Some(s) if s.is_abstract() => None,
            Some(s) => Some(
                layout::scalar(s)
                    .ok_or_else(|| self.unsupported(format!("a conversion from `{}`", layout::scalar_name(s))))?,
            ),
            None => None,
        };
        Ok(match (source, target) {
            (Some(s), t) if s == t => e,
            (Some(ScalarType::Bool), _) => quote!((if #e { #one } else { #zero })),
            (Some(ScalarType::F16), ScalarType::Bool) => quote!((#e != ::half::f16::ZERO)),
            (Some(ScalarType::F16), ScalarType::F32) => quote!((#e).to_f32()),
            (Some(ScalarType::F16), _) => quote!(((#e).to_f32() as #ty)),
            (Some(_), ScalarType::Bool) => {
                let zero = match source {
                    Some(ScalarType::F32) => quote!(0.0f32),
                    Some(ScalarType::I32) => quote!(0i32),
                    _ => quote!(0u32),
                };
                quote!((#e != #zero))
            }
            (Some(ScalarType::F32), ScalarType::F16) => quote!(::half::f16::from_f32(#e)),
            (_, ScalarType::F16) => quote!(::half::f16::from_f32(#e as f32)),
            (None, ScalarType::Bool) => {
                return Err(self.unsupported("a conversion of an abstract number to `bool`".into()));
            }
            _ => quote!((#e as #ty)),
        })
    }

    /// An unsupported expression of this owner.
    fn unsupported(&self, reason: String) -> CodegenError {
        CodegenError::unsupported(self.path, format!("expression in `{}`", self.owner), reason)
    }
}

/// `tokens` in parentheses when `wrap` (a negative literal is a minus and a literal to Rust).
fn parenthesised_if(wrap: bool, tokens: TokenStream) -> TokenStream {
    if wrap { quote!((#tokens)) } else { tokens }
}

/// `tokens` without one enclosing pair of parentheses, if that is all they are.
pub(crate) fn without_outer_parens(tokens: TokenStream) -> TokenStream {
    let mut trees = tokens.clone().into_iter();
    match (trees.next(), trees.next()) {
        (Some(proc_macro2::TokenTree::Group(g)), None) if g.delimiter() == proc_macro2::Delimiter::Parenthesis => {
            g.stream()
        }
        _ => tokens,
    }
}

/// What an expression is, in WGSL's terms, for messages.
fn expression_name(expr: &Expression) -> String {
    match expr {
        Expression::Select { .. } => "`select(…)`".into(),
        Expression::Math { fun, .. } => format!("`{}(…)`", math_name(*fun)),
        Expression::As { convert: None, .. } => "`bitcast<…>(…)`".into(),
        Expression::As { .. } => "a conversion".into(),
        Expression::ZeroValue(_) => "a zero-value constructor `T()`".into(),
        Expression::Compose { .. } => "a constructor of a vector, matrix, array or struct".into(),
        Expression::Splat { .. } => "a vector splat `vecN(x)`".into(),
        Expression::Swizzle { .. } | Expression::AccessIndex { .. } | Expression::Access { .. } => {
            "a component or element access".into()
        }
        Expression::Relational { .. } => "`all(…)`/`any(…)`".into(),
        _ => "this kind of expression".into(),
    }
}

/// WGSL's name of a built-in math function (naga's variant name in snake case).
fn math_name(fun: naga::MathFunction) -> String {
    let debug = format!("{fun:?}");
    let mut name = String::new();
    for (i, c) in debug.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            name.push('_');
        }
        name.push(c.to_ascii_lowercase());
    }
    // naga's names that differ from WGSL's beyond the case.
    match name.as_str() {
        "inverse_sqrt" => "inverseSqrt".into(),
        "count_one_bits" => "countOneBits".into(),
        "count_leading_zeros" => "countLeadingZeros".into(),
        "count_trailing_zeros" => "countTrailingZeros".into(),
        "reverse_bits" => "reverseBits".into(),
        "extract_bits" => "extractBits".into(),
        "insert_bits" => "insertBits".into(),
        "first_leading_bit" => "firstLeadingBit".into(),
        "first_trailing_bit" => "firstTrailingBit".into(),
        "face_forward" => "faceForward".into(),
        "quantize_to_f16" => "quantizeToF16".into(),
        _ => name,
    }
}
