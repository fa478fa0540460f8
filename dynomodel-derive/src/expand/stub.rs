//! What to emit after a compile error, next to the errors: impls with the right shape but no behaviour,
//! so the user sees the mistake that matters rather than a cascade of "`Tweet` does not implement
//! `Model`", "no function `likes`" or "no type `TweetKey`" wherever the struct is used.
//!
//! When the struct's shape was understood (the errors came from options or rules), the key struct, its
//! conversions and the field handles are generated for real, from the first hash and range key; only
//! the `Model` and `Attribute` bodies are stubs. The stub bodies never run: the crate does not compile.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use crate::expand::{composite, key, model};
use crate::ir::{Container, Derive};

/// The stub items for a struct whose derive failed.
pub(crate) fn stub(
    input: &DeriveInput,
    derive: Derive,
    container: Option<&Container<'_>>,
) -> TokenStream {
    // Generic structs get nothing: their bounds would be guesses that produce errors of their own.
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    let ident = &input.ident;
    let attribute = attribute_stub(ident);
    if derive == Derive::Document {
        return quote!(const _: () = { #attribute };);
    }
    let hash = container.and_then(|c| c.hash_key().map(|hash| (c, hash)));
    let (key_items, key_type, helpers) = match hash {
        Some((container, hash)) => {
            let range = container.range_key();
            let key_struct = key::key_struct(container, hash, range);
            let key_impls = key::key_impls(container, hash, range);
            let handles = model::handles(container);
            let key_ident = key::key_ident(container);
            (key_struct, quote!(#key_ident), quote!(#key_impls #handles))
        }
        None => (
            TokenStream::new(),
            quote!(__StubKey),
            quote! {
                #[derive(::core::fmt::Debug)]
                pub struct __StubKey;
                impl ::dynomodel::PrimaryKey for __StubKey {
                    fn to_key_item(&self) -> ::core::result::Result<::dynomodel::Item, ::dynomodel::ConversionError> {
                        ::core::unimplemented!("#[derive(Model)] failed")
                    }
                }
            },
        ),
    };
    // A model with composites: its key struct and handles come from the composite expansion.
    let (key_items, key_type, helpers) = container
        .filter(|c| !c.composites.is_empty())
        .and_then(composite::stub_items)
        .unwrap_or((key_items, key_type, helpers));
    quote! {
        #key_items
        const _: () = {
            #attribute
            #helpers
            #[automatically_derived]
            impl ::dynomodel::Model for #ident {
                type Key = #key_type;
                type Hash = ();
                const TABLE_NAME: &'static str = "";
                const HASH_KEY: &'static str = "";
                const RANGE_KEY: ::core::option::Option<&'static str> = ::core::option::Option::None;
                fn hash_key_value(
                    _: &(),
                ) -> ::core::result::Result<::dynomodel::AttributeValue, ::dynomodel::ConversionError> {
                    ::core::unimplemented!("#[derive(Model)] failed")
                }
                fn schema() -> ::dynomodel::backend::CreateTableInput {
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
                fn key(&self) -> #key_type {
                    ::core::unimplemented!("#[derive(Model)] failed")
                }
                fn required_attributes() -> &'static [::dynomodel::RequiredAttribute] {
                    ::core::unimplemented!("#[derive(Model)] failed")
                }
            }
        };
    }
}

/// `FieldValue` and `Attribute` with bodies that never run (shared by the derives' stubs).
pub(super) fn attribute_stub(ident: &syn::Ident) -> TokenStream {
    quote! {
        #[automatically_derived]
        impl ::dynomodel::expression::FieldValue for #ident {
            type Value = Self;
        }

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
    }
}
