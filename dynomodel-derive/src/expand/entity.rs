//! The entity-type items of a model with `entity = "..."`: the `Model` constants, the write in
//! `to_item` and the check in `from_item` (an item of another entity type never decodes silently).

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::Container;

/// The attribute holding the entity type (must equal `dynomodel::DEFAULT_ENTITY_ATTRIBUTE`).
pub(crate) fn attribute_name(container: &Container<'_>) -> String {
    container
        .attrs
        .entity_attribute
        .as_ref()
        .map_or_else(|| "_et".to_owned(), |a| a.value.clone())
}

/// `ENTITY_TYPE` and `ENTITY_ATTRIBUTE` (nothing without an entity, so the trait's defaults apply).
pub(crate) fn consts(container: &Container<'_>) -> TokenStream {
    let Some(entity) = &container.attrs.entity else {
        return TokenStream::new();
    };
    let entity = &entity.value;
    let attribute = attribute_name(container);
    quote! {
        const ENTITY_TYPE: ::core::option::Option<&'static str> = ::core::option::Option::Some(#entity);
        const ENTITY_ATTRIBUTE: &'static str = #attribute;
    }
}

/// The statement of `write_attributes` writing the entity type into `__item` (the sink).
pub(crate) fn write(container: &Container<'_>) -> TokenStream {
    let Some(entity) = &container.attrs.entity else {
        return TokenStream::new();
    };
    let entity = &entity.value;
    let attribute = attribute_name(container);
    quote!(::dynomodel::__private::write_entity(__item, #attribute, #entity);)
}

/// The statement of `from_item` refusing an item of another entity type in `__item`.
pub(crate) fn check(container: &Container<'_>) -> TokenStream {
    let Some(entity) = &container.attrs.entity else {
        return TokenStream::new();
    };
    let entity = &entity.value;
    let attribute = attribute_name(container);
    quote!(::dynomodel::__private::check_entity(&__item, #attribute, #entity)?;)
}
