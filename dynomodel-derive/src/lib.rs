//! Derive macros for dynomodel: `#[derive(Model)]` and `#[derive(Document)]`.
//!
//! Placeholder while the real implementation lands.

use proc_macro::TokenStream;

/// Derives `dynomodel::Model`.
#[proc_macro_derive(Model, attributes(dynomodel, hash_key, range_key, index, global_index))]
pub fn derive_model(_input: TokenStream) -> TokenStream {
    TokenStream::new()
}

/// Derives `dynomodel::Attribute` for a struct stored as a map.
#[proc_macro_derive(Document, attributes(dynomodel))]
pub fn derive_document(_input: TokenStream) -> TokenStream {
    TokenStream::new()
}
