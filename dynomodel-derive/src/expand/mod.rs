//! Code generation from the checked IR. Everything but the key struct goes inside `const _: () = { … };`
//! so helper items never leak into the user's namespace, and every path is fully qualified
//! (`::dynomodel::…`, `::core::…`) so user items named `Result` or `Option` cannot interfere.

pub(crate) mod collection;
mod composite;
mod composite_index;
mod composite_key;
mod composite_projection;
pub(crate) mod entity;
pub(crate) mod enums;
mod fields;
mod index;
pub(crate) mod item_version;
mod key;
mod lifecycle;
mod model;
mod required;
mod size;
mod stub;

pub(crate) use stub::stub;

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::{Container, Derive};

/// The code for a struct that passed every check.
pub(crate) fn generate(container: &Container<'_>) -> TokenStream {
    match container.derive {
        Derive::Model => model::generate(container),
        Derive::Document => {
            // Documents get field handles too, so expressions can reach into them:
            // `Tweet::address().then(Address::city())`.
            let attribute = attribute_impl(container);
            let handles = model::handles(container);
            quote!(const _: () = { #attribute #handles };)
        }
    }
}

/// `impl Attribute`: the struct stored as a map (M). A model delegates to its `Model` impl; a document
/// converts its fields here.
fn attribute_impl(container: &Container<'_>) -> TokenStream {
    let ident = container.ident;
    let expected = format!("a map ({ident})");
    let (to_item, from_item) = match container.derive {
        Derive::Model => (
            quote!(<Self as ::dynomodel::Model>::to_item(self)?),
            quote!(<Self as ::dynomodel::Model>::from_item(__item)),
        ),
        Derive::Document => {
            let write = fields::write_item(&container.fields);
            let read = fields::read_item(&container.fields);
            (
                quote!({
                    #[allow(unused_mut)]
                    let mut __map = ::dynomodel::Item::new();
                    #[allow(unused_variables)]
                    let __item: &mut dyn ::dynomodel::backend::AttributeSink = &mut __map;
                    #write
                    __map
                }),
                quote!({
                    #[allow(unused_mut, unused_variables)]
                    let mut __item = __item;
                    #read
                }),
            )
        }
    };
    quote! {
        /// Expressions compare and store a document as itself.
        #[automatically_derived]
        impl ::dynomodel::expression::FieldValue for #ident {
            type Value = Self;
        }

        #[automatically_derived]
        impl ::dynomodel::Attribute for #ident {
            fn to_attribute(
                &self,
            ) -> ::core::result::Result<::core::option::Option<::dynomodel::AttributeValue>, ::dynomodel::ConversionError> {
                ::core::result::Result::Ok(::core::option::Option::Some(::dynomodel::AttributeValue::M(#to_item)))
            }

            fn from_attribute(
                value: ::dynomodel::AttributeValue,
            ) -> ::core::result::Result<Self, ::dynomodel::ConversionError> {
                match value {
                    ::dynomodel::AttributeValue::M(__item) => #from_item,
                    __other => ::core::result::Result::Err(::dynomodel::ConversionError::new(
                        <Self as ::dynomodel::Attribute>::expected(),
                        __other.type_name(),
                    )),
                }
            }

            fn expected() -> ::dynomodel::__private::String {
                ::dynomodel::__private::String::from(#expected)
            }
        }
    }
}
