//! The secondary indexes of a model with composites (global, and local ones declared on the struct):
//! their schema and their `Index` handles. A key is a field or a composite ([`Slot`]); entries decode
//! as the model for an `all` projection, else as the item struct of `composite_projection`.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use crate::attr::ProjectionKind;
use crate::expand::composite::{definition, Slot};
use crate::ir::{CompositeIndex, Container};

fn projection_type(index: &CompositeIndex) -> TokenStream {
    match index.projection.value {
        ProjectionKind::All => quote!(::dynomodel::ProjectionType::All),
        ProjectionKind::Keys => quote!(::dynomodel::ProjectionType::KeysOnly),
        ProjectionKind::Include => quote!(::dynomodel::ProjectionType::Include),
    }
}

/// The keys of each index that resolve.
fn keys<'c, 'a>(container: &'c Container<'a>) -> Vec<(usize, Slot<'c, 'a>, Option<Slot<'c, 'a>>)> {
    container
        .composite_indexes
        .iter()
        .enumerate()
        .filter_map(|(n, index)| {
            let hash = Slot::of_ref(container, index.hash)?;
            let range = match index.range {
                Some(key) => Some(Slot::of_ref(container, key)?),
                None => None,
            };
            Some((n, hash, range))
        })
        .collect()
}

/// The `AttributeDefinition`s of the index keys that are not table keys (once per name).
pub(super) fn attribute_definitions(
    container: &Container<'_>,
    table_keys: &[&str],
) -> Vec<TokenStream> {
    let mut seen: Vec<String> = table_keys.iter().map(|k| (*k).to_owned()).collect();
    let mut out = Vec::new();
    for (_, hash, range) in keys(container) {
        for slot in std::iter::once(&hash).chain(range.as_ref()) {
            if seen.iter().any(|s| s == slot.name()) {
                continue;
            }
            seen.push(slot.name().to_owned());
            out.push(definition(slot));
        }
    }
    out
}

/// The `(local_secondary_indexes, global_secondary_indexes)` of the schema. As for other models, a
/// global index without its own throughput takes a provisioned table's, an on-demand table's
/// indexes have none, and a local index shares the table's capacity.
pub(super) fn schema(container: &Container<'_>) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let table_throughput = container.attrs.throughput.as_ref().map(|t| t.value);
    let mut locals = Vec::new();
    let mut globals = Vec::new();
    for (n, hash, range) in keys(container) {
        let Some(index) = container.composite_indexes.get(n) else {
            continue;
        };
        let name = &index.name;
        let hash_name = hash.name();
        let range_element = range.as_ref().map(|r| {
            let name = r.name();
            quote!(::dynomodel::backend::KeySchemaElement::range(#name),)
        });
        let throughput = match index.throughput.or(table_throughput) {
            Some((read, write)) if table_throughput.is_some() => quote! {
                ::core::option::Option::Some(::dynomodel::backend::ProvisionedThroughput { read_capacity_units: #read, write_capacity_units: #write })
            },
            _ => quote!(::core::option::Option::None),
        };
        let projection_type = projection_type(index);
        let includes = index
            .includes
            .iter()
            .filter_map(|(key, _)| Slot::of_ref(container, *key))
            .map(|slot| slot.name().to_owned());
        let common = quote! {
            index_name: ::dynomodel::__private::String::from(#name),
            key_schema: ::dynomodel::__private::Vec::from([
                ::dynomodel::backend::KeySchemaElement::hash(#hash_name),
                #range_element
            ]),
            projection: ::dynomodel::backend::Projection {
                projection_type: #projection_type,
                non_key_attributes: ::dynomodel::__private::Vec::from([#(::dynomodel::__private::String::from(#includes),)*]),
            },
        };
        if index.local {
            locals.push(quote!(::dynomodel::backend::LocalSecondaryIndex { #common }));
        } else {
            globals.push(quote!(::dynomodel::backend::GlobalSecondaryIndex { #common provisioned_throughput: #throughput }));
        }
    }
    (locals, globals)
}

/// `Order::by_day() -> Index<Order, Hash, Range, Order>`: the hash type is the key's parts (one value
/// or a tuple), the range type a field's handle type, or `String` for a composite (whose conditions
/// come from its `Composite` handle).
pub(super) fn handles(container: &Container<'_>) -> TokenStream {
    let model = container.ident;
    let vis = container.vis;
    let functions = keys(container).into_iter().filter_map(|(n, hash, range)| {
        let index = container.composite_indexes.get(n)?;
        let hash_ty = hash.value_type();
        let hash_name = hash.name();
        let (range_ty, range_name) = match &range {
            Some(Slot::Field(field)) => {
                let ty = crate::expand::fields::handle_type(field);
                let name = &field.name;
                (ty, quote!(::core::option::Option::Some(#name)))
            }
            Some(slot @ Slot::Composite(..)) => {
                let name = slot.name();
                (
                    quote!(::dynomodel::__private::String),
                    quote!(::core::option::Option::Some(#name)),
                )
            }
            None => (quote!(()), quote!(::core::option::Option::None)),
        };
        let value = format_ident!("__value");
        let refs: Vec<TokenStream> = hash
            .destructure(&value)
            .into_iter()
            .map(|v| quote!(&#v))
            .collect();
        let convert = hash.attribute(&quote!(#model), &refs);
        let name = &index.name;
        let handle = &index.handle;
        let item = match index.projection.value {
            ProjectionKind::All => quote!(#model),
            _ => {
                let item = index.item_ident(model);
                quote!(#item)
            }
        };
        let projection = projection_type(index);
        let local = index.local;
        let doc = format!(
            "A typed handle on {} index {name:?}, for `Db::query_index`; queries return `{item}`.",
            if local { "local" } else { "global" }
        );
        Some(quote_spanned! {index.name_span=>
            #[doc = #doc]
            #vis fn #handle() -> ::dynomodel::Index<#model, #hash_ty, #range_ty, #item> {
                ::dynomodel::Index::new(
                    #name,
                    #local,
                    #hash_name,
                    #range_name,
                    #projection,
                    |#value: &#hash_ty| (#convert).map(::core::option::Option::Some),
                )
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
