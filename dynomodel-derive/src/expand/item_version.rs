//! The item-version items of a model with `item_version = N`: the `Model` constants, the write in
//! `write_attributes`, and the read in `from_item` that upcasts an older item (or refuses one it
//! cannot read).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned as _;

use crate::attr::item_version::{UpcastAttr, UpcastStep};
use crate::ir::Container;

/// The attribute holding the item version (must equal `dynomodel::DEFAULT_ITEM_VERSION_ATTRIBUTE`).
pub(crate) fn attribute_name(container: &Container<'_>) -> String {
    container
        .attrs
        .item_version_attribute
        .as_ref()
        .map_or_else(|| "_v".to_owned(), |a| a.value.clone())
}

/// `ITEM_VERSION` and `ITEM_VERSION_ATTRIBUTE` (nothing without a version: the trait's defaults).
pub(crate) fn consts(container: &Container<'_>) -> TokenStream {
    let Some(version) = &container.attrs.item_version else {
        return TokenStream::new();
    };
    let version = version.value;
    let attribute = attribute_name(container);
    quote! {
        const ITEM_VERSION: ::core::option::Option<u32> = ::core::option::Option::Some(#version);
        const ITEM_VERSION_ATTRIBUTE: &'static str = #attribute;
    }
}

/// The statement of `write_attributes` writing the item version into `__item` (the sink).
pub(crate) fn write(container: &Container<'_>) -> TokenStream {
    let Some(version) = &container.attrs.item_version else {
        return TokenStream::new();
    };
    let version = version.value;
    let attribute = attribute_name(container);
    quote!(::dynomodel::__private::write_item_version(__item, #attribute, #version);)
}

/// The statement of `from_item` that hands an item of another version than the model's (in
/// `__item`) to the upcast function: one attribute read and one comparison when it is current.
pub(crate) fn check(container: &Container<'_>) -> TokenStream {
    let Some(version) = &container.attrs.item_version else {
        return TokenStream::new();
    };
    let version = version.value;
    let attribute = attribute_name(container);
    quote! {
        let __found = ::dynomodel::__private::item_version_in(&__item, #attribute)?;
        if __found != #version {
            return __dynomodel_upcast(__found, __item);
        }
    }
}

/// `fn __dynomodel_upcast(found, item) -> Result<Model, ConversionError>` (in the derive's
/// `const _` block): the chain of `#[upcast]`s from the item's version to the model's.
///
/// The `item = fn` steps come first (the checks make sure), each turning the item of its version
/// into the next one's; the version attribute is then set to the version reached, so that a
/// `model = Type` that is itself a versioned model reads it as its own. From a `model = Type`
/// step on, the item is decoded as that struct and converted with `From` through the following
/// steps' structs into the model.
pub(crate) fn upcast_fn(container: &Container<'_>) -> TokenStream {
    let Some(version) = &container.attrs.item_version else {
        return TokenStream::new();
    };
    let version = version.value;
    let attribute = attribute_name(container);
    let model = container.ident;
    let mut steps: Vec<&UpcastAttr> = container.attrs.upcasts.iter().collect();
    steps.sort_by_key(|s| s.from.value);
    let lowest = steps.first().map_or(version, |s| s.from.value);
    let item_steps = steps.iter().filter_map(|step| {
        let UpcastStep::Item(path) = &step.step else {
            return None;
        };
        let from = step.from.value;
        let to = from + 1;
        let span = path.span();
        let function = quote_spanned! {span=>
            let __step: fn(::dynomodel::Item) -> ::core::result::Result<::dynomodel::Item, ::dynomodel::ConversionError> = #path;
        };
        Some(quote! {
            if __version == #from {
                #function
                __item = __step(__item)
                    .map_err(|__e| ::dynomodel::__private::upcast_failed(__e, #from, #to))?;
                __version = #to;
            }
        })
    });
    let model_steps: Vec<(u32, &syn::Path)> = steps
        .iter()
        .filter_map(|step| match &step.step {
            UpcastStep::Model(path) => Some((step.from.value, path)),
            UpcastStep::Item(_) => None,
        })
        .collect();
    let model_arms = model_steps.iter().enumerate().map(|(i, (from, path))| {
        let span = path.span();
        let decode = quote_spanned! {span=>
            let __value = <#path as ::dynomodel::Attribute>::from_attribute(::dynomodel::AttributeValue::M(__item))
                .map_err(|__e| ::dynomodel::__private::upcast_failed(__e, #from, #from + 1))?;
        };
        let conversions = model_steps[i + 1..].iter().map(|(_, next)| {
            let span = next.span();
            quote_spanned!(span=> let __value: #next = ::core::convert::From::from(__value);)
        });
        // Into the model, from the last step's struct (this one's when it is the last).
        let last_path = model_steps.last().map_or(*path, |(_, last)| *last);
        let span = last_path.span();
        // Spanned at the path, so that a missing `From` is reported at `model = Type`.
        let last = quote_spanned! {span=> {
            let __value: #model = ::core::convert::From::from(__value);
            __value
        }};
        quote! {
            #from => {
                #decode
                #(#conversions)*
                ::core::result::Result::Ok(#last)
            }
        }
    });
    quote! {
        fn __dynomodel_upcast(
            __found: u32,
            __item: ::dynomodel::Item,
        ) -> ::core::result::Result<#model, ::dynomodel::ConversionError> {
            if __found > #version || __found < #lowest {
                return ::core::result::Result::Err(::dynomodel::__private::unreadable_item_version(
                    #attribute, __found, #lowest, #version,
                ));
            }
            #[allow(unused_mut)]
            let mut __item = __item;
            #[allow(unused_mut)]
            let mut __version = __found;
            #(#item_steps)*
            // The version reached: what the next reader (the model, or an older struct) expects.
            ::dynomodel::__private::write_item_version(&mut __item, #attribute, __version);
            match __version {
                #version => <#model as ::dynomodel::Model>::from_item(__item),
                #(#model_arms)*
                // The chain is checked at compile time to lead every version from the lowest to the
                // model's; any other is refused above.
                __other => ::core::result::Result::Err(::dynomodel::__private::unreadable_item_version(
                    #attribute, __other, #lowest, #version,
                )),
            }
        }
    }
}
