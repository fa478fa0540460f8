//! Typed field handles: `Tweet::likes()` returns a `Field<Tweet, i64>` naming the attribute.
//!
//! One scheme everywhere: an associated function named exactly after the Rust field, with the struct's
//! visibility. Because it is an inherent function, a user method of the same name on the model is a
//! "duplicate definitions" compile error, never a silent shadowing. Trait items (`Model::key`,
//! `Model::schema`) are unaffected: generated code calls them as `<T as Model>::…`, and method-call
//! syntax (`tweet.key()`) never picks an associated function without `self`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::ir::Container;

/// The inherent `impl` with one handle per stored field.
pub fn handles(container: &Container<'_>) -> TokenStream {
    let model = container.ident;
    let vis = container.vis;
    let functions = container.fields.iter().filter(|f| f.stored()).map(|field| {
        let ident = field.ident;
        let ty = field.ty;
        let name = &field.name;
        let doc = format!(
            "A typed handle on attribute `{name}` (field `{ident}`), for expressions and updates."
        );
        // Spanned at the field, so a clash with a user method points at the field, not at the derive.
        quote_spanned! {ident.span()=>
            #[doc = #doc]
            #[inline]
            #vis const fn #ident() -> ::dynomodel::Field<#model, #ty> {
                ::dynomodel::Field::new(#name)
            }
        }
    });
    // Handles are spanned at user fields, so without the allow every unused handle of a private model
    // would warn.
    quote! {
        #[automatically_derived]
        #[allow(dead_code)]
        impl #model {
            #(#functions)*
        }
    }
}
