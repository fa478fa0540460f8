//! `Model::MAX_ITEM_SIZE` of `#[dynomodel(max_item_size = "8KB")]`: the item size budget a write is
//! checked against (the trait's default says "DynamoDB's 400 KB only").

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::Container;

/// The `MAX_ITEM_SIZE` item of the `Model` impl, when the model sets a budget.
pub(crate) fn consts(container: &Container<'_>) -> TokenStream {
    match &container.attrs.max_item_size {
        Some(budget) => {
            let bytes = budget.value;
            quote!(const MAX_ITEM_SIZE: ::core::option::Option<usize> = ::core::option::Option::Some(#bytes);)
        }
        None => TokenStream::new(),
    }
}
