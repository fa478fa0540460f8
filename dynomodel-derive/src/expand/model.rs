//! `#[derive(Model)]`: the `Model` impl (schema, item conversions, key), the key struct, the field
//! handles and the `Attribute` impl that lets a model be embedded in another item.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::expand::{
    attribute_impl, composite, entity, fields, index, item_version, key, lifecycle, required, size,
};
use crate::ir::{Container, Conversion, Field, HandleRole};

/// All the code for a model.
pub(super) fn generate(container: &Container<'_>) -> TokenStream {
    if !container.composites.is_empty() {
        return composite::generate(container);
    }
    // The checks guarantee a hash key; without one there is nothing sensible to generate.
    let Some(hash) = container.hash_key() else {
        return TokenStream::new();
    };
    let range = container.range_key();
    let key_struct = key::key_struct(container, hash, range);
    let key_impls = key::key_impls(container, hash, range);
    let model_impl = model_impl(container, hash, range);
    let attribute = attribute_impl(container);
    let handles = handles(container);
    let index_structs = index::item_structs(container);
    let index_impls = index::item_impls(container);
    let index_handles = index::handles(container);
    let assertions = lifecycle::assertions(container);
    quote! {
        #key_struct
        #index_structs
        const _: () = {
            #key_impls
            #model_impl
            #assertions
            #attribute
            #handles
            #index_impls
            #index_handles
        };
    }
}

/// `Model::HASH_KEY_SHAPE` of a hash key field: the trait's default `{}`, except for a field
/// written through another conversion than its type's (`epoch_seconds` writes a `DateTime` as a
/// number, not as text; `datetime = "millis"` as shorter text), which a collection must not mix
/// with the default.
pub(crate) fn hash_field_shape(hash: &Field<'_>) -> Option<TokenStream> {
    let shape = match hash.conversion {
        Conversion::EpochSeconds => "{epoch_seconds}".to_owned(),
        Conversion::DateTime(width) => format!("{{datetime={}}}", width.name()),
        _ => return None,
    };
    Some(quote!(const HASH_KEY_SHAPE: &'static str = #shape;))
}

fn model_impl(
    container: &Container<'_>,
    hash: &Field<'_>,
    range: Option<&Field<'_>>,
) -> TokenStream {
    let ident = container.ident;
    let key = key::key_ident(container);
    let table = &container.table_name;
    let schema = schema(container, hash, range);
    let write = fields::write_item(&container.fields);
    let read = fields::read_item(&container.fields);
    let key_fields = std::iter::once(hash).chain(range).map(|field| {
        let ident = field.ident;
        quote!(#ident: ::core::clone::Clone::clone(&self.#ident))
    });
    let hash_ty = hash.ty;
    let hash_name = &hash.name;
    let range_name = match range {
        Some(range) => {
            let name = &range.name;
            quote!(::core::option::Option::Some(#name))
        }
        None => quote!(::core::option::Option::None),
    };
    let hash_value = fields::to_attribute(hash, quote!(hash));
    let hash_shape = hash_field_shape(hash);
    let lifecycle = lifecycle::items(container);
    let entity_check = entity::check(container);
    // Decoding from attributes given one by one is the same pass as `from_item`'s (its loop takes
    // any iterator of names and values). A model with an entity type checks the whole item first, so
    // it keeps the trait's default (collect, then `from_item`); one with an item version keeps what
    // an older item's upcast needs as it goes.
    let read_attributes = match &container.attrs.item_version {
        Some(version) => {
            let attribute = item_version::attribute_name(container);
            fields::read_item_at(&container.fields, Some((&attribute, version.value)))
        }
        None => read.clone(),
    };
    let from_attributes = match container.attrs.entity.is_some() {
        true => TokenStream::new(),
        false => quote! {
            fn from_attributes(
                attributes: &mut dyn ::core::iter::Iterator<Item = (::dynomodel::__private::Cow<'_, str>, ::dynomodel::AttributeValue)>,
            ) -> ::core::result::Result<Self, ::dynomodel::ConversionError> {
                let __item = attributes;
                #read_attributes
            }
        },
    };
    let entity_write = entity::write(container);
    let entity_consts = entity::consts(container);
    let version_write = item_version::write(container);
    let version_consts = item_version::consts(container);
    let version_check = item_version::check(container);
    let upcast_fn = item_version::upcast_fn(container);
    let size_consts = size::consts(container);
    let required = required::required_attributes(container);
    quote! {
        #[automatically_derived]
        impl ::dynomodel::Model for #ident {
            type Key = #key;
            type Hash = #hash_ty;

            const TABLE_NAME: &'static str = #table;
            const HASH_KEY: &'static str = #hash_name;
            const RANGE_KEY: ::core::option::Option<&'static str> = #range_name;
            #hash_shape

            fn hash_key_value(hash: &#hash_ty) -> ::core::result::Result<::dynomodel::AttributeValue, ::dynomodel::ConversionError> {
                match #hash_value.map_err(|__e| __e.at(#hash_name))? {
                    ::core::option::Option::Some(__value) => ::core::result::Result::Ok(__value),
                    ::core::option::Option::None => ::core::result::Result::Err(
                        ::dynomodel::ConversionError::new("a key value", "nothing").at(#hash_name),
                    ),
                }
            }

            // `..Default::default()` fills what the options leave out; with every option set it
            // fills nothing.
            #[allow(clippy::needless_update)]
            fn schema() -> ::dynomodel::backend::CreateTableInput {
                #schema
            }

            fn to_item(&self) -> ::core::result::Result<::dynomodel::Item, ::dynomodel::ConversionError> {
                let mut __item = ::dynomodel::Item::new();
                <Self as ::dynomodel::Model>::write_attributes(self, &mut __item)?;
                ::core::result::Result::Ok(__item)
            }

            fn write_attributes(
                &self,
                __item: &mut dyn ::dynomodel::backend::AttributeSink,
            ) -> ::core::result::Result<(), ::dynomodel::ConversionError> {
                #write
                #entity_write
                #version_write
                ::core::result::Result::Ok(())
            }

            fn from_item(item: ::dynomodel::Item) -> ::core::result::Result<Self, ::dynomodel::ConversionError> {
                let mut __item = item;
                #entity_check
                #version_check
                #read
            }

            #from_attributes

            fn key(&self) -> #key {
                #key { #(#key_fields,)* }
            }

            #required
            #lifecycle
            #entity_consts
            #version_consts
            #size_consts
        }

        #upcast_fn
    }
}

/// The `#[version]` items of the `Model` impl (the trait's defaults say "no version" otherwise). The
/// trait path is spanned at the field's type, so a type that is not an integer is reported there
/// through `VersionAttribute`'s `on_unimplemented` message.
pub(crate) fn version_items(field: &Field<'_>) -> TokenStream {
    let ident = field.ident;
    let name = &field.name;
    let ty = field.ty;
    let version = quote_spanned!(ty.span()=> <#ty as ::dynomodel::VersionAttribute>);
    quote! {
        const VERSION_ATTRIBUTE: ::core::option::Option<&'static str> = ::core::option::Option::Some(#name);

        fn version(&self) -> ::core::result::Result<::core::option::Option<u64>, ::dynomodel::ConversionError> {
            #version::to_version(&self.#ident).map_err(|__e| __e.at(#name))
        }

        fn set_version(
            &mut self,
            version: ::core::option::Option<u64>,
        ) -> ::core::result::Result<(), ::dynomodel::ConversionError> {
            self.#ident = #version::from_version(version).map_err(|__e| __e.at(#name))?;
            ::core::result::Result::Ok(())
        }

        fn version_value(
            version: u64,
        ) -> ::core::result::Result<::dynomodel::AttributeValue, ::dynomodel::ConversionError> {
            #version::version_value(version).map_err(|__e| __e.at(#name))
        }
    }
}

/// The `CreateTableInput`: key schema, key attribute types (table and index keys), billing, indexes.
fn schema(container: &Container<'_>, hash: &Field<'_>, range: Option<&Field<'_>>) -> TokenStream {
    let table = &container.table_name;
    let definitions = std::iter::once(hash).chain(range).map(|field| {
        let name = &field.name;
        let scalar_type = fields::key_scalar_type(field);
        quote! {
            ::dynomodel::backend::AttributeDefinition {
                attribute_name: ::dynomodel::__private::String::from(#name),
                attribute_type: #scalar_type,
            }
        }
    });
    let definitions = definitions.chain(index::attribute_definitions(container));
    let indexes = index::schema_fields(container);
    let table_options = table_options(container);
    let hash_name = &hash.name;
    let range_element = range.map(|range| {
        let name = &range.name;
        quote!(::dynomodel::backend::KeySchemaElement::range(#name),)
    });
    let (billing_mode, throughput) = billing(container);
    quote! {
        ::dynomodel::backend::CreateTableInput {
            table_name: ::dynomodel::__private::String::from(#table),
            attribute_definitions: ::dynomodel::__private::Vec::from([#(#definitions,)*]),
            key_schema: ::dynomodel::__private::Vec::from([
                ::dynomodel::backend::KeySchemaElement::hash(#hash_name),
                #range_element
            ]),
            billing_mode: ::core::option::Option::Some(#billing_mode),
            provisioned_throughput: #throughput,
            #indexes
            #table_options
            ..::core::default::Default::default()
        }
    }
}

/// The `BillingMode` and `ProvisionedThroughput` of the table's `CreateTableInput`: provisioned with
/// `throughput(read, write)`, on demand otherwise.
pub(crate) fn billing(container: &Container<'_>) -> (TokenStream, TokenStream) {
    match &container.attrs.throughput {
        Some(throughput) => {
            let (read, write) = throughput.value;
            (
                quote!(::dynomodel::backend::BillingMode::Provisioned),
                quote! {
                    ::core::option::Option::Some(::dynomodel::backend::ProvisionedThroughput {
                        read_capacity_units: #read,
                        write_capacity_units: #write,
                    })
                },
            )
        }
        None => (
            quote!(::dynomodel::backend::BillingMode::PayPerRequest),
            quote!(::core::option::Option::None),
        ),
    }
}

/// The `CreateTableInput` members of the table options: tags, stream, table class, deletion
/// protection (each only when set, so the defaults stay DynamoDB's).
pub(crate) fn table_options(container: &Container<'_>) -> TokenStream {
    let attrs = &container.attrs;
    let mut out = TokenStream::new();
    if let Some(tags) = &attrs.tags {
        let tags = tags.tags.iter().map(|tag| {
            let (key, value) = (&tag.key.value, &tag.value.value);
            quote!(::dynomodel::backend::Tag::new(#key, #value))
        });
        out.extend(quote!(tags: ::dynomodel::__private::Vec::from([#(#tags,)*]),));
    }
    if let Some(stream) = &attrs.stream {
        let view = syn::Ident::new(stream.value.variant(), proc_macro2::Span::call_site());
        out.extend(quote! {
            stream_specification: ::core::option::Option::Some(
                ::dynomodel::backend::StreamSpecification::enabled(::dynomodel::backend::StreamViewType::#view),
            ),
        });
    }
    if let Some(class) = &attrs.table_class {
        let class = syn::Ident::new(class.value.variant(), proc_macro2::Span::call_site());
        out.extend(
            quote!(table_class: ::core::option::Option::Some(::dynomodel::backend::TableClass::#class),),
        );
    }
    if attrs.deletion_protection.is_some() {
        out.extend(quote!(deletion_protection_enabled: ::core::option::Option::Some(true),));
    }
    out
}

// Typed field handles: `Tweet::likes()` returns a `Field<Tweet, i64>` naming the attribute.
//
// One scheme everywhere: an associated function named exactly after the Rust field, with the struct's
// visibility. Because it is an inherent function, a user method of the same name on the model is a
// "duplicate definitions" compile error, never a silent shadowing. Trait items (`Model::key`,
// `Model::schema`) are unaffected: generated code calls them as `<T as Model>::…`, and method-call
// syntax (`tweet.key()`) never picks an associated function without `self`.
/// The inherent `impl` with one handle per stored field.
pub(crate) fn handles(container: &Container<'_>) -> TokenStream {
    let model = container.ident;
    let vis = container.vis;
    // A composite's parts are stored only inside it: no handle, so no filter or update can name them.
    let stored = |(_, f): &(usize, &Field<'_>)| f.stored() && !container.is_part_field(f);
    let functions = container
        .fields
        .iter()
        .enumerate()
        .filter(stored)
        .map(|(position, field)| {
            let ident = field.ident;
            // Operands must encode like the stored field: adapted fields get a wrapper type.
            let ty = fields::handle_type(field);
            // Keys refuse update actions and sort keys make `.range(..)` conditions, at compile time.
            let role = container.field_role(position);
            let name = &field.name;
            let doc = format!(
                "A typed handle on attribute `{name}` (field `{ident}`), {}.",
                role_uses(role)
            );
            let role = role_type(role);
            // Spanned at the field, so a clash with a user method points at the field, not at the derive.
            quote_spanned! {ident.span()=>
                #[doc = #doc]
                #[inline]
                #vis const fn #ident() -> ::dynomodel::Field<#model, #ty, #role> {
                    ::dynomodel::Field::with_role(#name)
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

/// What a handle of this role is for, in its doc.
pub(crate) fn role_uses(role: HandleRole) -> &'static str {
    match (role.table_key, role.sorts) {
        (false, false) => "for expressions and updates",
        (false, true) => "for expressions, updates and `.range(..)` conditions (it sorts an index)",
        (true, false) => "for expressions (a table key: no update action takes it)",
        (true, true) => {
            "for expressions and `.range(..)` conditions (a table key: no update action takes it)"
        }
    }
}

/// `::dynomodel::expression::role::KeySort` and the like: a handle's role type.
pub(crate) fn role_type(role: HandleRole) -> TokenStream {
    let ident = quote::format_ident!("{}", role.type_name());
    quote!(::dynomodel::expression::role::#ident)
}
