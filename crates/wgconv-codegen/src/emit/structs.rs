//! Structs with explicit padding, a `new` constructor, and const asserts that pin every offset.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use super::host_type_tokens;
use crate::{
    model::{MemberDef, StructDef},
    names::{field_ident, is_padding_name, type_ident},
};

/// One field of a generated struct, in order.
pub(crate) enum Field<'a> {
    /// A WGSL member.
    Member(&'a MemberDef),
    /// Bytes WGSL's layout leaves unused, as the generated field `name`.
    Padding {
        /// `_wgsl_pad{N}`.
        name: String,
        /// Its size.
        bytes: u32,
        /// Its offset.
        at: u32,
    },
}

/// The fields of `def`'s host struct: its members, with a padding field before each gap and
/// at the end. `all` holds the structs it may nest.
pub(crate) fn fields<'a>(def: &'a StructDef, all: &[StructDef]) -> Vec<Field<'a>> {
    let mut fields = Vec::new();
    let mut cursor = 0u32;
    let pad = |fields: &mut Vec<Field>, bytes: u32, at: u32| {
        let name = format!("_wgsl_pad{}", fields.iter().filter(|f| matches!(f, Field::Padding { .. })).count());
        fields.push(Field::Padding { name, bytes, at });
    };
    for m in &def.members {
        if m.offset > cursor {
            pad(&mut fields, m.offset - cursor, cursor);
        }
        fields.push(Field::Member(m));
        cursor = m.offset + m.host.size(all);
    }
    if def.size > cursor {
        pad(&mut fields, def.size - cursor, cursor);
    }
    fields
}

/// One struct item plus its layout assertions (and, for a runtime-sized tail, its element alias).
pub fn struct_tokens(def: &StructDef, all: &[StructDef], path: &str) -> TokenStream {
    let name = type_ident(&def.name);
    let wgsl_name = &def.name;
    let mut fields = Vec::new();
    let mut asserts = Vec::new();
    let mut params = Vec::new();
    let mut inits = Vec::new();
    let mut checked_types = Vec::new();
    let mut checked_fields = Vec::new();
    for field in self::fields(def, all) {
        let m = match field {
            Field::Member(m) => m,
            Field::Padding { name: pad, bytes, at } => {
                let pad = Ident::new(&pad, Span::call_site());
                let bytes = bytes as usize;
                let doc = format!("Padding: {bytes} bytes at offset {at} that WGSL's layout rules leave unused.");
                fields.push(quote! { #[doc = #doc] pub #pad: [u8; #bytes] });
                inits.push(quote! { #pad: [0u8; #bytes] });
                continue;
            }
        };
        let field = field_ident(&m.name);
        let ty = host_type_tokens(&m.host);
        let doc = format!("WGSL `{}: {}` at offset {}.", m.name, m.wgsl_type, m.offset);
        fields.push(quote! { #[doc = #doc] pub #field: #ty });
        if is_padding_name(&m.name) {
            inits.push(quote! { #field: ::bytemuck::Zeroable::zeroed() });
        } else {
            params.push(quote! { #field: #ty });
            inits.push(quote! { #field });
        }
        let offset = m.offset as usize;
        let msg = format!(
            "field `{}` of `{}` must be at offset {} as in WGSL struct {} ({}); regenerate with `cargo xtask gen-shaders`",
            m.name, def.name, m.offset, wgsl_name, path
        );
        asserts.push(quote! {
            let offset = ::core::mem::offset_of!(#name, #field);
            assert!(offset == #offset, #msg);
        });
        checked_types.push(ty.clone());
        checked_fields.push(field.clone());
    }
    let size = def.size as usize;
    let size_msg = format!(
        "`{}` must be {} bytes as WGSL struct {} ({}); regenerate with `cargo xtask gen-shaders`",
        def.name, def.size, wgsl_name, path
    );
    let mut doc = format!(
        "Host copy of WGSL struct `{}` ({}): {} bytes, WGSL alignment {}.",
        def.name, path, def.size, def.align
    );
    let mut tail_items = TokenStream::new();
    if let Some(tail) = &def.tail {
        doc.push_str(&format!(
            " Followed in the buffer by the runtime-sized array `{}: array<{}>` (stride {}), whose elements are [`{}`].",
            tail.name, tail.wgsl_type, tail.stride, tail_alias_name(&def.name, &tail.name)
        ));
        let alias = Ident::new(&tail_alias_name(&def.name, &tail.name), Span::call_site());
        let elem = host_type_tokens(&tail.element);
        let stride = tail.stride as usize;
        let alias_doc =
            format!("Element of the runtime-sized array `{}.{}` (WGSL `{}`).", def.name, tail.name, tail.wgsl_type);
        let stride_msg =
            format!("element of `{}.{}` must be {} bytes (the WGSL array stride)", def.name, tail.name, tail.stride);
        tail_items = quote! {
            #[doc = #alias_doc]
            pub type #alias = #elem;
            const _: () = {
                let size = ::core::mem::size_of::<#alias>();
                assert!(size == #stride, #stride_msg);
            };
        };
    }
    let new_doc = format!("Builds a `{}` from its fields; padding is zeroed.", def.name);
    quote! {
        #[doc = #doc]
        #[repr(C)]
        #[derive(Clone, Copy, Debug, PartialEq, ::bytemuck::Pod, ::bytemuck::Zeroable)]
        // Names as in the WGSL (`particleState { positionX }`), so the two read alike.
        #[allow(non_snake_case, non_camel_case_types)]
        pub struct #name {
            #(#fields,)*
        }

        #[allow(non_snake_case)]
        impl #name {
            #[doc = #new_doc]
            #[allow(clippy::too_many_arguments)]
            pub fn new(#(#params),*) -> Self {
                Self { #(#inits,)* }
            }
        }

        const _: () = {
            let size = ::core::mem::size_of::<#name>();
            assert!(size == #size, #size_msg);
            #(#asserts)*
            // Field types as in WGSL: a changed type fails here even when sizes agree.
            #[allow(dead_code)]
            fn wgsl_field_types(s: &#name) {
                #(let _: &#checked_types = &s.#checked_fields;)*
            }
        };
        #tail_items
    }
}

/// The type alias of the elements of a struct's runtime-sized tail (`Batch.particles` →
/// `BatchParticlesElement`).
pub(crate) fn tail_alias_name(structure: &str, field: &str) -> String {
    let mut camel = String::new();
    let mut upper = true;
    for c in field.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            camel.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            camel.push(c);
        }
    }
    format!("{structure}{camel}Element")
}
