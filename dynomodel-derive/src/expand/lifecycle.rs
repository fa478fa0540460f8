//! The items of the `Model` impl for what the mapper maintains on writes: the `#[version]`, the
//! `#[ttl]` attribute, the `#[dynomodel(counter)]` fields, the `#[created_at]` / `#[updated_at]`
//! timestamps, and the list of stored attributes a whole-item update removes from. The trait's
//! defaults say "none" for each, so a model without them gets nothing here.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::expand::{entity, fields, model};
use crate::ir::{Container, Field};

/// Every item of the `Model` impl this module generates, plus (outside the impl, in
/// `assertions`) the check that counters have a counter type.
pub(super) fn items(container: &Container<'_>) -> TokenStream {
    let version = container.version().map(model::version_items);
    let ttl = container.ttl().map(|field| {
        let name = &field.name;
        quote!(const TTL_ATTRIBUTE: ::core::option::Option<&'static str> = ::core::option::Option::Some(#name);)
    });
    let recovery = container.attrs.point_in_time_recovery.as_ref().map(|p| {
        let days = match p.value.recovery_period_days {
            Some(days) => quote!(::core::option::Option::Some(#days)),
            None => quote!(::core::option::Option::None),
        };
        quote! {
            const POINT_IN_TIME_RECOVERY: ::core::option::Option<::dynomodel::backend::PointInTimeRecoverySpecification> =
                ::core::option::Option::Some(::dynomodel::backend::PointInTimeRecoverySpecification {
                    point_in_time_recovery_enabled: true,
                    recovery_period_in_days: #days,
                });
        }
    });
    let counters = container.counters().map(|f| &f.name);
    let attributes = stored_attributes(container);
    let timestamps = timestamps(container);
    quote! {
        #version
        #ttl
        #recovery
        const COUNTERS: &'static [&'static str] = &[#(#counters),*];
        const ATTRIBUTES: &'static [&'static str] = &[#(#attributes),*];
        #timestamps
    }
}

/// Statements that do not compile unless every counter's type is a `CounterAttribute`: the error is
/// spanned at the type, with the trait's message.
pub(super) fn assertions(container: &Container<'_>) -> TokenStream {
    let checks = container.counters().map(|field| {
        let ty = field.ty;
        quote_spanned!(ty.span()=> ::dynomodel::__private::assert_counter::<#ty>();)
    });
    quote! {
        #[allow(dead_code)]
        fn __dynomodel_counters() {
            #(#checks)*
        }
    }
}

/// The top-level attributes the model stores: the composites, the stored fields that are no part of
/// one, the entity attribute.
fn stored_attributes(container: &Container<'_>) -> Vec<String> {
    let composites = container.composites.iter().map(|c| c.name.clone());
    let fields = container
        .fields
        .iter()
        .filter(|f| f.stored() && !container.is_part_field(f))
        .map(|f| f.name.clone());
    let entity = container
        .attrs
        .entity
        .as_ref()
        .map(|_| entity::attribute_name(container));
    composites.chain(fields).chain(entity).collect()
}

/// `CREATED_AT`, `UPDATED_AT` and the three timestamp methods, for a model with either field.
fn timestamps(container: &Container<'_>) -> TokenStream {
    let (created, updated) = (container.created_at(), container.updated_at());
    if created.is_none() && updated.is_none() {
        return TokenStream::new();
    }
    let name = |field: Option<&Field<'_>>| match field {
        Some(field) => {
            let name = &field.name;
            quote!(::core::option::Option::Some(#name))
        }
        None => quote!(::core::option::Option::None),
    };
    let (created_name, updated_name) = (name(created), name(updated));
    let arms = |arm: fn(&Field<'_>) -> TokenStream, absent: TokenStream| {
        let one = |field: Option<&Field<'_>>| field.map_or_else(|| absent.clone(), arm);
        let (created, updated) = (one(created), one(updated));
        quote! {
            ::dynomodel::Timestamp::Created => #created,
            ::dynomodel::Timestamp::Updated => #updated,
        }
    };
    let read = arms(read_arm, quote!(::core::option::Option::None));
    let set = arms(set_arm, quote!(::core::result::Result::Ok(())));
    let value = arms(
        value_arm,
        quote!(::core::result::Result::Ok(::core::option::Option::None)),
    );
    let time = quote!(::dynomodel::__private::DateTimeUtc);
    quote! {
        const CREATED_AT: ::core::option::Option<&'static str> = #created_name;
        const UPDATED_AT: ::core::option::Option<&'static str> = #updated_name;

        fn timestamp(&self, which: ::dynomodel::Timestamp) -> ::core::option::Option<#time> {
            match which { #read }
        }

        fn set_timestamp(
            &mut self,
            which: ::dynomodel::Timestamp,
            at: #time,
        ) -> ::core::result::Result<(), ::dynomodel::ConversionError> {
            match which { #set }
        }

        fn timestamp_value(
            which: ::dynomodel::Timestamp,
            at: #time,
        ) -> ::core::result::Result<::core::option::Option<::dynomodel::AttributeValue>, ::dynomodel::ConversionError> {
            match which { #value }
        }
    }
}

/// `TimestampAttribute`, spanned at the field's type so that another type is reported there.
fn stamp_trait(field: &Field<'_>) -> TokenStream {
    let ty = field.ty;
    quote_spanned!(ty.span()=> <#ty as ::dynomodel::convert::TimestampAttribute>)
}

/// The time the field holds.
fn read_arm(field: &Field<'_>) -> TokenStream {
    let (stamp, ident) = (stamp_trait(field), field.ident);
    quote!(#stamp::stamp(&self.#ident))
}

/// Sets the field to `at` as it reads back once stored: through its conversion and back, so a
/// field stored at a coarser width holds what a read would give.
fn set_arm(field: &Field<'_>) -> TokenStream {
    let (stamp, ident, name, ty) = (stamp_trait(field), field.ident, &field.name, field.ty);
    let to = fields::to_attribute(field, quote!(&__value));
    let from = fields::from_attribute(field, quote!(__stored));
    quote!({
        let __value: #ty = #stamp::from_stamp(at);
        self.#ident = match #to.map_err(|__e| __e.at(#name))? {
            ::core::option::Option::Some(__stored) => #from.map_err(|__e| __e.at(#name))?,
            ::core::option::Option::None => __value,
        };
        ::core::result::Result::Ok(())
    })
}

/// How `at` is stored in the field's attribute.
fn value_arm(field: &Field<'_>) -> TokenStream {
    let (stamp, name, ty) = (stamp_trait(field), &field.name, field.ty);
    let to = fields::to_attribute(field, quote!(&__value));
    quote!({
        let __value: #ty = #stamp::from_stamp(at);
        #to.map_err(|__e| __e.at(#name))
    })
}
