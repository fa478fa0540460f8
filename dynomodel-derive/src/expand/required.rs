//! `Model::required_attributes`: the attributes `from_item` fails without, besides the table keys.
//!
//! Whether a field is required depends on its type (a `String` is, an `Option` or a set is not),
//! which the macro cannot see: the generated code asks the same `from_missing` that `from_item`
//! calls for an absent attribute, once per model, so the list cannot disagree with the decoding.

use proc_macro2::TokenStream;
use quote::quote;

use crate::expand::{entity, fields};
use crate::ir::{Container, FieldDefault};

/// The `required_attributes` item of the `Model` impl (plain and composite models alike).
pub(super) fn required_attributes(container: &Container<'_>) -> TokenStream {
    let fields = container
        .fields
        .iter()
        .enumerate()
        .filter(|&(i, field)| {
            field.stored()
                && field.key.is_none()
                && !container.is_part(i)
                && matches!(field.default, FieldDefault::None)
        })
        .map(|(_, field)| {
            let name = &field.name;
            let missing = fields::from_missing(field);
            quote! {
                if (#missing).is_err() {
                    __required.push(::dynomodel::RequiredAttribute::field(#name));
                }
            }
        });
    // A composite that keys no table key is read (split) when some part is read from it.
    let read_from = |n: usize| {
        (0..container.fields.len()).any(|i| container.part_source(i).is_some_and(|(c, _)| c == n))
    };
    let composites = container
        .composites
        .iter()
        .enumerate()
        .filter(|&(n, composite)| composite.role.is_none() && read_from(n))
        .map(|(_, composite)| {
            let name = &composite.name;
            quote!(__required.push(::dynomodel::RequiredAttribute::composite(#name));)
        });
    let entity = container.attrs.entity.as_ref().map(|_| {
        let attribute = entity::attribute_name(container);
        quote!(__required.push(::dynomodel::RequiredAttribute::field(#attribute));)
    });
    quote! {
        fn required_attributes() -> &'static [::dynomodel::RequiredAttribute] {
            static __REQUIRED: ::dynomodel::__private::OnceLock<
                ::dynomodel::__private::Vec<::dynomodel::RequiredAttribute>,
            > = ::dynomodel::__private::OnceLock::new();
            __REQUIRED.get_or_init(|| {
                #[allow(unused_mut)]
                let mut __required = ::dynomodel::__private::Vec::new();
                #(#fields)*
                #(#composites)*
                #entity
                __required
            })
        }
    }
}
