//! Code generation from the checked IR. Everything but the key struct goes inside `const _: () = { … };`
//! so helper items never leak into the user's namespace, and every path is fully qualified
//! (`::dynomodel::…`, `::core::…`) so user items named `Result` or `Option` cannot interfere.

mod fields;
mod handles;
mod key;
mod model;

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use crate::ir::{Container, Derive};

/// The code for a struct that passed every check.
pub fn generate(container: &Container<'_>) -> TokenStream {
    match container.derive {
        Derive::Model => model::generate(container),
        Derive::Document => {
            let attribute = attribute_impl(container);
            quote!(const _: () = { #attribute };)
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
                    let mut __item = ::dynomodel::Item::new();
                    #write
                    __item
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

/// After a compile error: impls with the right shape but no behaviour, so the error the user sees is
/// the one that matters, not a cascade of "`Tweet` does not implement `Model`" wherever it is used.
/// Generic structs get no stub (its bounds would be guesses that produce errors of their own).
pub fn stub(input: &DeriveInput, derive: Derive) -> TokenStream {
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    let ident = &input.ident;
    let attribute = quote! {
        #[automatically_derived]
        impl ::dynomodel::Attribute for #ident {
            fn to_attribute(
                &self,
            ) -> ::core::result::Result<::core::option::Option<::dynomodel::AttributeValue>, ::dynomodel::ConversionError> {
                ::core::unimplemented!("#[derive] failed")
            }
            fn from_attribute(
                _: ::dynomodel::AttributeValue,
            ) -> ::core::result::Result<Self, ::dynomodel::ConversionError> {
                ::core::unimplemented!("#[derive] failed")
            }
            fn expected() -> ::dynomodel::__private::String {
                ::core::unimplemented!("#[derive] failed")
            }
        }
    };
    let model = (derive == Derive::Model).then(|| {
        quote! {
            #[derive(::core::fmt::Debug)]
            pub struct __StubKey;
            impl ::dynomodel::PrimaryKey for __StubKey {
                fn to_key_item(&self) -> ::core::result::Result<::dynomodel::Item, ::dynomodel::ConversionError> {
                    ::core::unimplemented!("#[derive(Model)] failed")
                }
            }
            #[automatically_derived]
            impl ::dynomodel::Model for #ident {
                type Key = __StubKey;
                const TABLE_NAME: &'static str = "";
                fn schema() -> ::dynomodel::CreateTableInput {
                    ::core::unimplemented!("#[derive(Model)] failed")
                }
                fn to_item(&self) -> ::core::result::Result<::dynomodel::Item, ::dynomodel::ConversionError> {
                    ::core::unimplemented!("#[derive(Model)] failed")
                }
                fn from_item(
                    _: ::dynomodel::Item,
                ) -> ::core::result::Result<Self, ::dynomodel::ConversionError> {
                    ::core::unimplemented!("#[derive(Model)] failed")
                }
                fn key(&self) -> __StubKey {
                    ::core::unimplemented!("#[derive(Model)] failed")
                }
            }
        }
    });
    quote!(const _: () = { #attribute #model };)
}
