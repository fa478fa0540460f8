//! Secondary indexes: their part of the schema, their typed handles (`Tweet::rt_index()`) and, for
//! KEYS_ONLY and INCLUDE projections, the generated struct a query on the index returns.
//!
//! An ALL index returns the model itself. A KEYS_ONLY or INCLUDE index returns `<Model><Index>Item`
//! holding exactly what the index projects (table keys, index keys, included fields), so a query on it
//! never yields a model with silently defaulted fields; `fetch_full()` on the query reads the full items.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use crate::attr::ProjectionKind;
use crate::expand::{fields, key};
use crate::ir::{Container, Field, Index};

/// The fields an index projects, in struct order: the table keys, the index keys, the includes.
fn projected_fields<'c, 'a>(container: &'c Container<'a>, index: &Index) -> Vec<&'c Field<'a>> {
    let table_keys = container
        .hash_key()
        .into_iter()
        .chain(container.range_key());
    let mut positions: Vec<usize> = table_keys
        .map(|f| {
            container
                .fields
                .iter()
                .position(|g| g.ident == f.ident)
                .unwrap_or(0)
        })
        .chain(index.key_positions())
        .chain(index.includes.iter().map(|(p, _)| *p))
        .collect();
    positions.sort_unstable();
    positions.dedup();
    positions
        .into_iter()
        .map(|p| &container.fields[p])
        .collect()
}

fn projection_type(index: &Index) -> TokenStream {
    match index.projection {
        ProjectionKind::All => quote!(::dynomodel::ProjectionType::All),
        ProjectionKind::Keys => quote!(::dynomodel::ProjectionType::KeysOnly),
        ProjectionKind::Include => quote!(::dynomodel::ProjectionType::Include),
    }
}

/// The `AttributeDefinition`s of the index keys that are not table keys (deduplicated by name).
pub(super) fn attribute_definitions(container: &Container<'_>) -> Vec<TokenStream> {
    let mut seen: Vec<&str> = container
        .hash_key()
        .into_iter()
        .chain(container.range_key())
        .map(|f| f.name.as_str())
        .collect();
    let mut out = Vec::new();
    for index in &container.indexes {
        for position in index.key_positions() {
            let field = &container.fields[position];
            if seen.contains(&field.name.as_str()) {
                continue;
            }
            seen.push(&field.name);
            let name = &field.name;
            let scalar_type = fields::index_key_scalar_type(field);
            out.push(quote! {
                ::dynomodel::backend::AttributeDefinition {
                    attribute_name: ::dynomodel::__private::String::from(#name),
                    attribute_type: #scalar_type,
                }
            });
        }
    }
    out
}

/// `local_secondary_indexes: ..., global_secondary_indexes: ...` for the `CreateTableInput`.
pub(super) fn schema_fields(container: &Container<'_>) -> TokenStream {
    let table_throughput = container.attrs.throughput.as_ref().map(|t| t.value);
    let mut locals = Vec::new();
    let mut globals = Vec::new();
    for index in &container.indexes {
        let name = &index.name;
        let key_names = index.key_positions().map(|p| &container.fields[p].name);
        let key_schema = key_names
            .zip([quote!(hash), quote!(range)])
            .map(|(name, role)| quote!(::dynomodel::backend::KeySchemaElement::#role(#name)));
        let includes = index
            .includes
            .iter()
            .map(|(p, _)| &container.fields[*p].name);
        let projection_type = projection_type(index);
        let common = quote! {
            index_name: ::dynomodel::__private::String::from(#name),
            key_schema: ::dynomodel::__private::Vec::from([#(#key_schema,)*]),
            projection: ::dynomodel::backend::Projection {
                projection_type: #projection_type,
                non_key_attributes: ::dynomodel::__private::Vec::from([#(::dynomodel::__private::String::from(#includes),)*]),
            },
        };
        if index.local {
            locals.push(quote!(::dynomodel::backend::LocalSecondaryIndex { #common }));
        } else {
            // DynamoDB requires a throughput on every index of a provisioned table and rejects one on an
            // on-demand table; an index without its own takes the table's.
            let throughput = match index
                .throughput
                .as_ref()
                .map(|t| t.value)
                .or(table_throughput)
            {
                Some((read, write)) if table_throughput.is_some() => quote! {
                    ::core::option::Option::Some(::dynomodel::backend::ProvisionedThroughput { read_capacity_units: #read, write_capacity_units: #write })
                },
                _ => quote!(::core::option::Option::None),
            };
            globals.push(quote!(::dynomodel::backend::GlobalSecondaryIndex { #common provisioned_throughput: #throughput }));
        }
    }
    quote! {
        local_secondary_indexes: ::dynomodel::__private::Vec::from([#(#locals,)*]),
        global_secondary_indexes: ::dynomodel::__private::Vec::from([#(#globals,)*]),
    }
}

/// The item structs of the KEYS_ONLY and INCLUDE indexes (outside the `const _` block: users name them).
pub(super) fn item_structs(container: &Container<'_>) -> TokenStream {
    let model = container.ident;
    let vis = container.vis;
    let structs = container.indexes.iter().filter(|i| i.projection != ProjectionKind::All).map(|index| {
        let item = index.item_ident(model);
        let doc = format!(
            "What index {:?} of [`{model}`] holds (projection {}): the table and index keys{}. Returned by queries on `{model}::{}()`; generated by `#[derive(Model)]`.",
            index.name,
            if index.projection == ProjectionKind::Keys { "KEYS_ONLY" } else { "INCLUDE" },
            if index.projection == ProjectionKind::Include { " and the included fields" } else { "" },
            index.handle,
        );
        let members = projected_fields(container, index).into_iter().map(|field| {
            let ident = field.ident;
            let ty = field.ty;
            let doc = format!("Attribute `{}`.", field.name);
            quote!(#[doc = #doc] pub #ident: #ty)
        });
        quote! {
            #[doc = #doc]
            #[derive(::core::fmt::Debug, ::core::clone::Clone, ::core::cmp::PartialEq)]
            #vis struct #item {
                #(#members,)*
            }
        }
    });
    quote!(#(#structs)*)
}

/// `Projected` for the item structs and their `key()` (inside the `const _` block).
pub(super) fn item_impls(container: &Container<'_>) -> TokenStream {
    let model = container.ident;
    let key = key::key_ident(container);
    let impls = container.indexes.iter().filter(|i| i.projection != ProjectionKind::All).map(|index| {
        let item = index.item_ident(model);
        let read = fields::read_item(projected_fields(container, index));
        let key_fields = container.hash_key().into_iter().chain(container.range_key()).map(|field| {
            let ident = field.ident;
            quote!(#ident: ::core::clone::Clone::clone(&self.#ident))
        });
        let vis = container.vis;
        let key_attributes = key_attributes_impl(container, index, &item);
        quote! {
            #[automatically_derived]
            impl ::dynomodel::Projected for #item {
                fn from_projection(item: ::dynomodel::Item) -> ::core::result::Result<Self, ::dynomodel::ConversionError> {
                    #[allow(unused_mut)]
                    let mut __item = item;
                    #read
                }
            }

            #key_attributes

            #[automatically_derived]
            #[allow(dead_code)]
            impl #item {
                /// The primary key of the table item this index entry stands for.
                #vis fn key(&self) -> #key {
                    #key { #(#key_fields,)* }
                }
            }
        }
    });
    quote!(#(#impls)*)
}

/// `KeyAttributes` for an item struct: the table's keys and the index's, as stored (a cursor after
/// an entry holds them).
fn key_attributes_impl(container: &Container<'_>, index: &Index, item: &syn::Ident) -> TokenStream {
    let table_keys = container
        .hash_key()
        .into_iter()
        .chain(container.range_key());
    let index_keys = index
        .key_positions()
        .filter_map(|p| container.fields.get(p));
    let mut names: Vec<&str> = Vec::new();
    let writes = table_keys.chain(index_keys).filter(|field| {
        let new = !names.contains(&field.name.as_str());
        names.push(&field.name);
        new
    });
    let writes: Vec<TokenStream> = writes
        .map(|field| {
            let ident = field.ident;
            let name = &field.name;
            let value = fields::to_attribute(field, quote!(&self.#ident));
            quote! {
                if __names.contains(&#name) {
                    if let ::core::option::Option::Some(__value) = #value.map_err(|__e| __e.at(#name))? {
                        __item.insert(::dynomodel::__private::String::from(#name), __value);
                    }
                }
            }
        })
        .collect();
    quote! {
        #[automatically_derived]
        impl ::dynomodel::KeyAttributes for #item {
            fn key_attributes(
                &self,
                __names: &[&str],
            ) -> ::core::result::Result<::dynomodel::Item, ::dynomodel::ConversionError> {
                let mut __item = ::dynomodel::Item::new();
                #(#writes)*
                ::core::result::Result::Ok(__item)
            }
        }
    }
}

/// The index handles, `Tweet::rt_index() -> Index<Tweet, Hash, Range, Item>`, in an inherent impl.
pub(super) fn handles(container: &Container<'_>) -> TokenStream {
    let model = container.ident;
    let vis = container.vis;
    let functions = container.indexes.iter().filter_map(|index| {
        let (hash_position, _) = index.hash?;
        let hash = &container.fields[hash_position];
        let hash_ty = hash.ty;
        let hash_name = &hash.name;
        let (range_ty, range_name) = match index.range {
            Some((p, _)) => {
                // The sort key's handle type, as `Tweet::ts()` has: `range_field()` builds conditions.
                let ty = fields::handle_type(&container.fields[p]);
                let name = &container.fields[p].name;
                (ty, quote!(::core::option::Option::Some(#name)))
            }
            None => (quote!(()), quote!(::core::option::Option::None)),
        };
        let item = match index.projection {
            ProjectionKind::All => quote!(#model),
            _ => {
                let item = index.item_ident(model);
                quote!(#item)
            }
        };
        let name = &index.name;
        let local = index.local;
        let projection = projection_type(index);
        let convert = fields::to_attribute(hash, quote!(__value));
        let handle = &index.handle;
        let doc = format!(
            "A typed handle on {} index {name:?}, for `Db::query_index`; queries return `{item}`.",
            if local { "local" } else { "global" },
        );
        Some(quote_spanned! {index.name_span=>
            #[doc = #doc]
            #vis fn #handle() -> ::dynomodel::Index<#model, #hash_ty, #range_ty, #item> {
                ::dynomodel::Index::new(#name, #local, #hash_name, #range_name, #projection, |__value: &#hash_ty| #convert)
            }
        })
    });
    quote! {
        #[automatically_derived]
        #[allow(dead_code)]
        impl #model {
            #(#functions)*
        }
    }
}
