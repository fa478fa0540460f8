//! The item-version items of a model with `item_version = N`: the `Model` constants, the write in
//! `write_attributes`, and the read in `from_item` that upcasts an older item (or refuses one it
//! cannot read).

use proc_macro2::TokenStream;
use quote::quote;

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
