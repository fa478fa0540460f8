//! `#[derive(Model)]` of a struct with composite keys: the same items as [`crate::expand::model`]
//! (key struct, `Model`, `Attribute`, field handles) plus one `Composite` handle per composite.
//!
//! Each key is a [`Slot`]: a plain field, or a composite whose parts are fields. The parts are not
//! stored on their own: `to_item` writes the composite, `from_item` splits it and decodes each part
//! (a malformed value is a `ConversionError` naming the attribute and its shape).

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::ext::IdentExt as _;

use crate::expand::composite_key::{key_conversions, key_impls, key_struct};
use crate::expand::{
    attribute_impl, composite_index, composite_projection, entity, fields, item_version, lifecycle,
    model, required, size,
};
use crate::ir::{Composite, Container, Conversion, Field, KeyRef, KeyRole};

/// One key of the table or of a global index.
pub(crate) enum Slot<'c, 'a> {
    Field(&'c Field<'a>),
    Composite(&'c Composite, Vec<&'c Field<'a>>),
}

impl<'c, 'a> Slot<'c, 'a> {
    pub(crate) fn composite(container: &'c Container<'a>, composite: &'c Composite) -> Self {
        let parts = composite
            .parts
            .iter()
            .filter_map(|&i| container.fields.get(i))
            .collect();
        Slot::Composite(composite, parts)
    }

    pub(crate) fn of_ref(container: &'c Container<'a>, key: KeyRef) -> Option<Self> {
        match key {
            KeyRef::Field(i) => container.fields.get(i).map(Slot::Field),
            KeyRef::Composite(i) => container
                .composites
                .get(i)
                .map(|c| Slot::composite(container, c)),
        }
    }

    pub(crate) fn of(container: &'c Container<'a>, role: KeyRole) -> Option<Self> {
        if let Some(composite) = container.composite_key(role) {
            let parts = composite
                .parts
                .iter()
                .filter_map(|&i| container.fields.get(i))
                .collect();
            return Some(Slot::Composite(composite, parts));
        }
        let field = match role {
            KeyRole::Hash => container.hash_key(),
            KeyRole::Range => container.range_key(),
        };
        field.map(Slot::Field)
    }

    pub(crate) fn name(&self) -> &str {
        match self {
            Slot::Field(field) => &field.name,
            Slot::Composite(composite, _) => &composite.name,
        }
    }

    /// The fields the key struct holds for this key.
    pub(crate) fn fields(&self) -> Vec<&'c Field<'a>> {
        match self {
            Slot::Field(field) => vec![*field],
            Slot::Composite(_, parts) => parts.clone(),
        }
    }

    /// The type a query or key conversion takes: the field's, the only part's, or a tuple of the
    /// parts'.
    pub(crate) fn value_type(&self) -> TokenStream {
        match self {
            Slot::Field(field) => {
                let ty = field.ty;
                quote!(#ty)
            }
            Slot::Composite(_, parts) if parts.len() == 1 => {
                let ty = parts[0].ty;
                quote!(#ty)
            }
            Slot::Composite(_, parts) => {
                let tys = parts.iter().map(|f| f.ty);
                quote!((#(#tys,)*))
            }
        }
    }

    /// `Result<AttributeValue, ConversionError>` of the key from its fields' values, given as
    /// expressions of type `&T` (one per field of [`Slot::fields`]). `model` names the model (the
    /// composite handles are its inherent functions).
    pub(crate) fn attribute(&self, model: &TokenStream, values: &[TokenStream]) -> TokenStream {
        match self {
            Slot::Field(field) => {
                let name = &field.name;
                let value = fields::to_attribute(field, values[0].clone());
                quote! {
                    #value.map_err(|__e| __e.at(#name)).and_then(|__value| match __value {
                        ::core::option::Option::Some(__value) => ::core::result::Result::Ok(__value),
                        ::core::option::Option::None => ::core::result::Result::Err(
                            ::dynomodel::ConversionError::new("a key value", "nothing").at(#name),
                        ),
                    })
                }
            }
            Slot::Composite(composite, parts) => {
                let handle = &composite.ident;
                let parts = parts
                    .iter()
                    .zip(values)
                    .map(|(field, value)| fields::to_part(field, value));
                quote!(#model::#handle().attribute(&[#(#parts),*]))
            }
        }
    }

    /// The values of [`Slot::fields`] from a value of [`Slot::value_type`] named `value` (owned).
    pub(crate) fn destructure(&self, value: &Ident) -> Vec<TokenStream> {
        match self {
            Slot::Composite(_, parts) if parts.len() > 1 => (0..parts.len())
                .map(syn::Index::from)
                .map(|i| quote!(#value.#i))
                .collect(),
            _ => vec![quote!(#value)],
        }
    }
}

/// All the code for a model with composite keys.
pub(super) fn generate(container: &Container<'_>) -> TokenStream {
    let Some(hash) = Slot::of(container, KeyRole::Hash) else {
        return TokenStream::new();
    };
    let range = Slot::of(container, KeyRole::Range);
    let key = format_ident!("{}Key", container.ident);
    let key_struct = key_struct(container, &key, &hash, range.as_ref());
    let key_impls = key_impls(container, &key, &hash, range.as_ref());
    let model_impl = model_impl(container, &key, &hash, range.as_ref());
    let attribute = attribute_impl(container);
    let handles = model::handles(container);
    let composite_handles = composite_handles(container, |_| true);
    let index_handles = composite_index::handles(container);
    let item_structs = composite_projection::item_structs(container);
    let item_impls = composite_projection::item_impls(container);
    let assertions = lifecycle::assertions(container);
    quote! {
        #key_struct
        #item_structs
        const _: () = {
            #item_impls
            #key_impls
            #model_impl
            #assertions
            #attribute
            #handles
            #composite_handles
            #index_handles
        };
    }
}

/// After a compile error: the key struct, its conversions and every handle, for real (only the
/// `Model` body is a stub), so that uses of `OrderKey` or `Order::sk()` do not add errors of their
/// own. `None` when there is no hash key to build them from.
pub(super) fn stub_items(
    container: &Container<'_>,
) -> Option<(TokenStream, TokenStream, TokenStream)> {
    let hash = Slot::of(container, KeyRole::Hash)?;
    let range = Slot::of(container, KeyRole::Range);
    // Keys sharing a field would declare it twice in the key struct: fall back to the plain stub.
    let hash_fields: Vec<&Ident> = hash.fields().iter().map(|f| f.ident).collect();
    if range
        .as_ref()
        .is_some_and(|r| r.fields().iter().any(|f| hash_fields.contains(&f.ident)))
    {
        return None;
    }
    let key = format_ident!("{}Key", container.ident);
    let key_struct = key_struct(container, &key, &hash, range.as_ref());
    let conversions = key_conversions(&key, &hash, range.as_ref());
    let handles = model::handles(container);
    // A composite named like a field (an error already) would add a duplicate definition.
    let composite_handles = composite_handles(container, |c| {
        !container
            .fields
            .iter()
            .any(|f| f.ident.unraw() == c.ident.unraw())
    });
    // No part is converted here: the error may be that a part's type does not convert.
    let helpers = quote! {
        #conversions
        #handles
        #composite_handles
        #[automatically_derived]
        impl ::dynomodel::PrimaryKey for #key {
            fn to_key_item(&self) -> ::core::result::Result<::dynomodel::Item, ::dynomodel::ConversionError> {
                ::core::unimplemented!("#[derive(Model)] failed")
            }
        }
    };
    Some((key_struct, quote!(#key), helpers))
}

/// `Order::sk() -> Composite<Order, (NaiveDate, u32), role::KeySort>`, one per composite. The part types are spanned
/// at the fields, so a type that cannot be a part is reported there.
fn composite_handles(container: &Container<'_>, only: impl Fn(&Composite) -> bool) -> TokenStream {
    let model = container.ident;
    let vis = container.vis;
    let functions = container.composites.iter().enumerate().filter(|(_, c)| only(c)).map(|(position, composite)| {
        let ident = &composite.ident;
        let name = &composite.name;
        let prefix = &composite.prefix;
        let separator = &composite.separator;
        let parts: Vec<&Field<'_>> =
            composite.parts.iter().filter_map(|&i| container.fields.get(i)).collect();
        let names = parts.iter().map(|f| f.ident.to_string());
        let tys = parts.iter().map(|f| fields::part_type(f));
        let role = container.composite_role(position);
        let doc = format!(
            "A typed handle on composite attribute `{name}`, `{}`: its key conditions and its text{}.",
            shape(composite, &parts),
            if role.sorts { " (it sorts the table or an index: `.range(..)` takes them)" } else { "" }
        );
        let role = model::role_type(role);
        quote_spanned! {ident.span()=>
            #[doc = #doc]
            #[inline]
            #vis const fn #ident() -> ::dynomodel::Composite<#model, (#(#tys,)*), #role> {
                ::dynomodel::Composite::new(#name, #prefix, #separator, &[#(#names),*])
            }
        }
    });
    quote! {
        #[automatically_derived]
        #[allow(dead_code)]
        impl #model {
            #(#functions)*
        }
    }
}

fn shape(composite: &Composite, parts: &[&Field<'_>]) -> String {
    let mut pieces: Vec<String> = Vec::new();
    if !composite.prefix.is_empty() {
        pieces.push(composite.prefix.clone());
    }
    pieces.extend(parts.iter().map(|f| format!("{{{}}}", f.ident)));
    pieces.join(&composite.separator)
}

/// How a key composite is written, without its parts' names (`USER#{}`): two models writing the
/// same shape from the same part types write the same text for the same values. A part written at
/// another width than its type's (`datetime = "millis"`) says so (`{datetime=millis}`).
fn key_shape(composite: &Composite, parts: &[&Field<'_>]) -> String {
    let mut pieces: Vec<String> = Vec::new();
    if !composite.prefix.is_empty() {
        pieces.push(composite.prefix.clone());
    }
    pieces.extend(parts.iter().map(|field| match field.conversion {
        Conversion::DateTime(width) => format!("{{datetime={}}}", width.name()),
        _ => "{}".to_owned(),
    }));
    pieces.join(&composite.separator)
}

fn model_impl(
    container: &Container<'_>,
    key: &Ident,
    hash: &Slot<'_, '_>,
    range: Option<&Slot<'_, '_>>,
) -> TokenStream {
    let ident = container.ident;
    let table = &container.table_name;
    let hash_ty = hash.value_type();
    let hash_name = hash.name();
    let range_name = match range {
        Some(range) => {
            let name = range.name();
            quote!(::core::option::Option::Some(#name))
        }
        None => quote!(::core::option::Option::None),
    };
    let hash_var = format_ident!("hash");
    let hash_refs: Vec<TokenStream> = hash
        .destructure(&hash_var)
        .into_iter()
        .map(|v| quote!(&#v))
        .collect();
    let hash_value = hash.attribute(&quote!(Self), &hash_refs);
    let schema = schema(container, hash, range);
    // Every composite (keys and others), then the fields that are not parts.
    let composite_writes = container.composites.iter().map(|composite| {
        let slot = Slot::composite(container, composite);
        let name = &composite.name;
        let values: Vec<TokenStream> = slot
            .fields()
            .iter()
            .map(|f| {
                let ident = f.ident;
                quote!(&self.#ident)
            })
            .collect();
        let value = slot.attribute(&quote!(Self), &values);
        quote!(__item.insert_static(#name, #value?);)
    });
    let plain = container
        .fields
        .iter()
        .enumerate()
        .filter(|&(i, _)| !container.is_part(i))
        .map(|(_, f)| f);
    let write = fields::write_item(plain.clone());
    // Each part is read from one composite (`part_source`); only those composites are split, so a
    // composite that no part is read from need not be there.
    let sources: Vec<(usize, usize, usize)> = (0..container.fields.len())
        .filter_map(|i| container.part_source(i).map(|(n, k)| (i, n, k)))
        .collect();
    let splits = container
        .composites
        .iter()
        .enumerate()
        .filter(|(n, _)| sources.iter().any(|s| s.1 == *n))
        .map(|(n, composite)| {
            let handle = &composite.ident;
            let name = &composite.name;
            let pieces = format_ident!("__pieces{n}");
            quote!(let #pieces = Self::#handle().split(__item.remove(#name))?;)
        });
    let part_inits = sources.iter().filter_map(|&(i, n, k)| {
        let composite = container.composites.get(n)?;
        let field = container.fields.get(i)?;
        let handle = &composite.ident;
        let pieces = format_ident!("__pieces{n}");
        let ident = field.ident;
        let from = fields::from_part(field);
        Some(quote!(#ident: Self::#handle().decoded(#k, #from(Self::#handle().piece(&#pieces, #k)))?))
    });
    let plain_inits = fields::read_inits(plain);
    let key_fields = std::iter::once(hash)
        .chain(range)
        .flat_map(|slot| slot.fields())
        .map(|field| {
            let ident = field.ident;
            quote!(#ident: ::core::clone::Clone::clone(&self.#ident))
        });
    let lifecycle = lifecycle::items(container);
    let entity_check = entity::check(container);
    let entity_write = entity::write(container);
    let entity_consts = entity::consts(container);
    let version_write = item_version::write(container);
    let version_consts = item_version::consts(container);
    let version_check = item_version::check(container);
    let upcast_fn = item_version::upcast_fn(container);
    let size_consts = size::consts(container);
    let required = required::required_attributes(container);
    let hash_shape = match hash {
        Slot::Composite(composite, parts) => {
            let shape = key_shape(composite, parts);
            Some(quote!(const HASH_KEY_SHAPE: &'static str = #shape;))
        }
        Slot::Field(field) => model::hash_field_shape(field),
    };
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
                #hash_value
            }

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
                #(#composite_writes)*
                #write
                #entity_write
                #version_write
                ::core::result::Result::Ok(())
            }

            fn from_item(item: ::dynomodel::Item) -> ::core::result::Result<Self, ::dynomodel::ConversionError> {
                let mut __item = item;
                #entity_check
                #version_check
                #(#splits)*
                ::core::result::Result::Ok(Self { #(#part_inits,)* #(#plain_inits,)* })
            }

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

/// The `CreateTableInput`: a composite key is an S; local and global indexes from `composite_index`.
fn schema(
    container: &Container<'_>,
    hash: &Slot<'_, '_>,
    range: Option<&Slot<'_, '_>>,
) -> TokenStream {
    let table = &container.table_name;
    let table_keys: Vec<&str> = std::iter::once(hash).chain(range).map(Slot::name).collect();
    let definitions = std::iter::once(hash).chain(range).map(definition).chain(
        composite_index::attribute_definitions(container, &table_keys),
    );
    let (locals, globals) = composite_index::schema(container);
    let hash_name = hash.name();
    let range_element = range.map(|range| {
        let name = range.name();
        quote!(::dynomodel::backend::KeySchemaElement::range(#name),)
    });
    let (billing_mode, throughput) = model::billing(container);
    let table_options = model::table_options(container);
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
            local_secondary_indexes: ::dynomodel::__private::Vec::from([#(#locals,)*]),
            global_secondary_indexes: ::dynomodel::__private::Vec::from([#(#globals,)*]),
            #table_options
            ..::core::default::Default::default()
        }
    }
}

/// The `AttributeDefinition` of a key: a composite is an S, a field has its key type's.
pub(crate) fn definition(slot: &Slot<'_, '_>) -> TokenStream {
    let name = slot.name();
    let scalar_type = match slot {
        Slot::Field(field) => fields::key_scalar_type(field),
        Slot::Composite(..) => quote!(::dynomodel::ScalarAttributeType::S),
    };
    quote! {
        ::dynomodel::backend::AttributeDefinition {
            attribute_name: ::dynomodel::__private::String::from(#name),
            attribute_type: #scalar_type,
        }
    }
}
