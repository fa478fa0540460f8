//! `#[derive(Attribute)]` with `tag = "type"`: serde's internally tagged form. Every variant is a map
//! holding its name under the tag attribute: a unit variant only that, a struct variant its fields
//! beside it, a newtype variant its content's map (which must be one) with the tag added. Tuple
//! variants are rejected by the checks. Errors inside a variant are located at the field, as the
//! fields sit directly in the enum's map.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::Ident;

use super::{attribute_impl, quoted, read_fields, write_fields};
use crate::ir::enums::{Shape, Variant};

/// The `Attribute` impl of an internally tagged enum.
pub(super) fn internally_tagged(ident: &Ident, variants: &[Variant<'_>], key: &str) -> TokenStream {
    let tags: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    let expected = format!("a {ident}: a map whose {key:?} is one of {}", quoted(&tags));
    let to_arms = variants.iter().map(|v| write_variant(v, key));
    let from_arms = variants.iter().map(read_variant);
    let v = quote!(::dynomodel::convert::variant);
    attribute_impl(
        ident,
        quote! {
            ::core::result::Result::Ok(::core::option::Option::Some(match self { #(#to_arms)* }))
        },
        quote! {
            #[allow(unused_mut, unused_variables)]
            let (__tag, mut __item) = #v::split_internal(
                value,
                #key,
                <Self as ::dynomodel::Attribute>::expected,
            )?;
            match __tag.as_str() {
                #(#from_arms)*
                __other => ::core::result::Result::Err(#v::unknown(
                    <Self as ::dynomodel::Attribute>::expected(), __other, &[#(#tags),*], false,
                )
                .at(#key)),
            }
        },
        quote! {
            fn expected() -> ::dynomodel::__private::String {
                ::dynomodel::__private::String::from(#expected)
            }
        },
    )
}

fn write_variant(variant: &Variant<'_>, key: &str) -> TokenStream {
    let (ident, tag) = (variant.ident, &variant.name);
    let v = quote!(::dynomodel::convert::variant);
    match &variant.shape {
        Shape::Unit => quote! {
            Self::#ident => #v::with_tag(#key, #tag, ::dynomodel::Item::new()),
        },
        Shape::Newtype(ty) => {
            let to = quote_spanned!(ty.span()=> #v::to_element::<#ty>);
            quote! {
                Self::#ident(__0) => #v::content_with_tag(#key, #tag, #to(__0)?)?,
            }
        }
        Shape::Struct(fields) => {
            let names = fields.iter().filter(|f| f.stored()).map(|f| f.ident);
            let writes = write_fields(fields, None);
            quote! {
                Self::#ident { #(#names,)* .. } => {
                    #[allow(unused_mut)]
                    let mut __item = ::dynomodel::Item::new();
                    #(#writes)*
                    #v::with_tag(#key, #tag, __item)
                }
            }
        }
        // Rejected by the checks; nothing is generated after an error.
        Shape::Tuple(_) => TokenStream::new(),
    }
}

fn read_variant(variant: &Variant<'_>) -> TokenStream {
    let (ident, tag) = (variant.ident, &variant.name);
    let v = quote!(::dynomodel::convert::variant);
    match &variant.shape {
        Shape::Unit => quote! {
            #tag => ::core::result::Result::Ok(Self::#ident),
        },
        Shape::Newtype(ty) => {
            let from = quote_spanned!(ty.span()=> #v::element::<#ty>);
            quote! {
                #tag => ::core::result::Result::Ok(Self::#ident(#from(
                    ::core::option::Option::Some(::dynomodel::AttributeValue::M(__item)),
                )?)),
            }
        }
        Shape::Struct(fields) => {
            let inits = read_fields(fields, None);
            quote! {
                #tag => ::core::result::Result::Ok(Self::#ident { #(#inits,)* }),
            }
        }
        Shape::Tuple(_) => TokenStream::new(),
    }
}
