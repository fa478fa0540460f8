//! One `#[derive(Model)]` struct from the table's description and the sampled items it stores:
//! keys (plain or composite), indexes with their projections, time to live, table options, fields.

use std::collections::{BTreeMap, BTreeSet};

use super::names::{escape, pascal_case, snake_case, Names};
use super::shape::{Maps, Shape};
use super::types::{field_ident, number_type, FieldDef, Typer};
use super::TableSample;
use crate::backend::{
    BillingMode, KeySchemaElement, KeyType, Projection, ProjectionType, ScalarAttributeType,
    StreamViewType, TableClass,
};
use crate::value::Item;

/// What one model of the output stores: the whole table, or one entity type of a shared table.
#[derive(Debug)]
pub(crate) struct Member<'a> {
    /// The model's type name, unique in the file.
    pub(crate) name: String,
    /// The model's doc comment.
    pub(crate) doc: String,
    pub(crate) items: Vec<&'a Item>,
    /// The entity type and the attribute holding it.
    pub(crate) entity: Option<(String, String)>,
    /// The literal prefix (before `#`) of every sampled value of the hash and range keys.
    pub(crate) hash_prefix: Option<String>,
    pub(crate) range_prefix: Option<String>,
    /// Only the indexes whose keys its items hold (a member of a shared table), else every one.
    pub(crate) only_populated_indexes: bool,
}

/// A generated model struct.
#[derive(Debug)]
pub(crate) struct ModelDef {
    pub(crate) name: String,
    /// Its doc comment.
    pub(crate) doc: String,
    /// Comment lines above it.
    pub(crate) notes: Vec<String>,
    /// The options of its `#[dynomodel(...)]`.
    pub(crate) options: Vec<String>,
    /// `#[composite]`, `#[global_index]`, `#[local_index]` attributes.
    pub(crate) attrs: Vec<String>,
    pub(crate) fields: Vec<FieldDef>,
}

/// A secondary index as the generator sees it (local or global).
struct IndexDef<'a> {
    name: &'a str,
    key_schema: &'a [KeySchemaElement],
    projection: &'a Projection,
    global: bool,
    throughput: Option<(i64, i64)>,
}

fn key_name(schema: &[KeySchemaElement], key_type: KeyType) -> Option<&str> {
    schema
        .iter()
        .find(|k| k.key_type == key_type)
        .map(|k| k.attribute_name.as_str())
}

/// `"x"` as a Rust string literal.
pub(crate) fn lit(text: &str) -> String {
    format!("{text:?}")
}

/// The model for `member`; `types` holds the file's type names.
pub(crate) fn build(
    sample: &TableSample,
    member: &Member<'_>,
    types: &mut Names,
) -> (ModelDef, Vec<super::types::DocumentDef>) {
    let table = &sample.table;
    let mut maps = Maps::of_items(member.items.iter().copied());
    let total = maps.count;
    let mut notes = Vec::new();
    let mut options = vec![format!("table = {}", lit(&table.table_name))];
    let mut attrs = Vec::new();
    let mut fields = Names::default();
    let mut key_fields = Vec::new();
    // The Rust name of each attribute's field or composite, for the indexes' declarations.
    let mut idents: BTreeMap<String, String> = BTreeMap::new();

    if let Some((entity, attribute)) = &member.entity {
        options.push(format!("entity = {}", lit(entity)));
        if attribute != crate::DEFAULT_ENTITY_ATTRIBUTE {
            options.push(format!("entity_attribute = {}", lit(attribute)));
        }
        maps.keys.remove(attribute);
    }

    let mut indexes: Vec<IndexDef<'_>> = table
        .local_secondary_indexes
        .iter()
        .map(|i| IndexDef {
            name: &i.index_name,
            key_schema: &i.key_schema,
            projection: &i.projection,
            global: false,
            throughput: None,
        })
        .chain(table.global_secondary_indexes.iter().map(|i| {
            IndexDef {
                name: &i.index_name,
                key_schema: &i.key_schema,
                projection: &i.projection,
                global: true,
                throughput: i
                    .provisioned_throughput
                    .as_ref()
                    .map(|t| (t.read_capacity_units, t.write_capacity_units)),
            }
        }))
        .filter(|index| {
            !member.only_populated_indexes
                || index.key_schema.iter().all(|k| {
                    maps.keys.contains_key(&k.attribute_name)
                        || table
                            .key_schema
                            .iter()
                            .any(|t| t.attribute_name == k.attribute_name)
                })
        })
        .collect();
    // In name order, whatever order the description lists them in.
    indexes.sort_by_key(|index| (index.global, index.name));
    // Index handles are named after the indexes: no field may take their names.
    for index in &indexes {
        fields.reserve(&snake_case(index.name));
        if index.projection.projection_type != ProjectionType::All {
            types.reserve(&format!("{}{}Item", member.name, pascal_case(index.name)));
        }
    }
    types.reserve(&format!("{}Key", member.name));

    let scalar = |attribute: &str| {
        table
            .attribute_definitions
            .iter()
            .find(|d| d.attribute_name == attribute)
            .map(|d| d.attribute_type)
    };

    // The table's keys.
    let composites = member.hash_prefix.is_some() || member.range_prefix.is_some();
    for (key_type, prefix, marker) in [
        (KeyType::Hash, &member.hash_prefix, "hash_key"),
        (KeyType::Range, &member.range_prefix, "range_key"),
    ] {
        let Some(attribute) = key_name(&table.key_schema, key_type) else {
            continue;
        };
        let shape = maps.keys.remove(attribute).map(|(_, shape)| shape);
        match prefix {
            Some(prefix) => {
                let ident = field_ident(&mut fields, attribute);
                let part = escape(&fields.unique(&format!("{}_id", snake_case(prefix))));
                let rename = if ident != attribute {
                    format!(", rename = {}", lit(attribute))
                } else {
                    String::new()
                };
                attrs.push(format!(
                    "#[composite({ident} = ({}, {part}), {marker}{rename})]",
                    lit(prefix)
                ));
                let mut notes = vec![format!(
                    "stored in `{attribute}` after `{prefix}#` (every sampled value has that prefix)"
                )];
                let segmented = member
                    .items
                    .iter()
                    .find_map(|item| match item.get(attribute) {
                        Some(crate::AttributeValue::S(value)) => value
                            .split_once('#')
                            .map(|(_, rest)| rest)
                            .filter(|rest| rest.contains('#')),
                        _ => None,
                    });
                if let Some(example) = segmented {
                    notes.push(format!(
                        "its values hold more `#`-separated segments (`{example}`): split it into \
                         more parts (dates, zero-padded numbers) where they mean something"
                    ));
                }
                key_fields.push(FieldDef {
                    ident: part.clone(),
                    attribute: part.trim_start_matches("r#").to_owned(),
                    ty: "String".to_owned(),
                    attrs: Vec::new(),
                    notes,
                });
                idents.insert(attribute.to_owned(), ident);
            }
            None => {
                let mut field =
                    key_field(&mut fields, attribute, scalar(attribute), shape.as_ref());
                field.attrs.push(format!("#[{marker}]"));
                idents.insert(attribute.to_owned(), field.ident.clone());
                key_fields.push(field);
            }
        }
    }

    // The other attributes: index keys, the TTL, included attributes and what the sample holds.
    let index_keys: BTreeSet<&str> = indexes
        .iter()
        .flat_map(|i| i.key_schema.iter().map(|k| k.attribute_name.as_str()))
        .filter(|a| !idents.contains_key(*a))
        .collect();
    let includes: BTreeSet<&str> = indexes
        .iter()
        .flat_map(|i| i.projection.non_key_attributes.iter().map(String::as_str))
        .collect();
    let ttl = sample.time_to_live.as_deref().filter(|a| {
        !idents.contains_key(*a) && (!member.only_populated_indexes || maps.keys.contains_key(*a))
    });
    let mut attributes: BTreeSet<String> = maps.keys.keys().cloned().collect();
    attributes.extend(index_keys.iter().map(|a| (*a).to_owned()));
    attributes.extend(includes.iter().map(|a| (*a).to_owned()));
    attributes.extend(ttl.map(str::to_owned));

    let mut typer = Typer {
        types,
        documents: Vec::new(),
    };
    let mut other_fields = Vec::new();
    for attribute in &attributes {
        let seen = maps.keys.get(attribute.as_str());
        let mut field = if index_keys.contains(attribute.as_str()) {
            let mut field = key_field(
                &mut fields,
                attribute,
                scalar(attribute),
                seen.map(|(_, s)| s),
            );
            let present = seen.map_or(0, |(n, _)| *n);
            if present < total {
                field.ty = format!("Option<{}>", field.ty);
                field.notes.push(format!(
                    "in {present} of {total} sampled items: the items without it are not in its indexes"
                ));
            }
            field
        } else if let Some(seen) = seen {
            typer.field(
                &mut fields,
                &member.name,
                "",
                attribute,
                seen,
                (total, "items"),
            )
        } else {
            let ident = field_ident(&mut fields, attribute);
            FieldDef {
                ident,
                attribute: attribute.clone(),
                ty: if Some(attribute.as_str()) == ttl {
                    "Option<i64>".to_owned()
                } else {
                    "Option<dynomodel::AttributeValue>".to_owned()
                },
                attrs: Vec::new(),
                notes: vec!["not in the sample".to_owned()],
            }
        };
        if Some(attribute.as_str()) == ttl {
            let integer = match seen {
                None => true,
                Some((_, Shape::N(n))) => n.i64,
                Some(_) => false,
            };
            if integer {
                field.attrs.push("#[ttl]".to_owned());
            } else {
                notes.push(format!(
                    "The table's time to live reads `{attribute}`, whose sampled values are not all \
                     whole numbers: `#[ttl]` (epoch seconds) is left off that field."
                ));
            }
        }
        idents.insert(attribute.clone(), field.ident.clone());
        other_fields.push(field);
    }
    let documents = typer.documents;

    // Table options.
    let provisioned = table.billing_mode != Some(BillingMode::PayPerRequest);
    let table_throughput = (
        table.provisioned_throughput.read_capacity_units,
        table.provisioned_throughput.write_capacity_units,
    );
    if provisioned {
        options.push(format!(
            "throughput(read = {}, write = {})",
            table_throughput.0, table_throughput.1
        ));
    }
    if let Some(view) = table
        .stream_specification
        .as_ref()
        .filter(|s| s.stream_enabled)
        .and_then(|s| s.stream_view_type)
    {
        let view = match view {
            StreamViewType::KeysOnly => "keys_only",
            StreamViewType::NewImage => "new_image",
            StreamViewType::OldImage => "old_image",
            StreamViewType::NewAndOldImages => "new_and_old_images",
        };
        options.push(format!("stream = {}", lit(view)));
    }
    if table.table_class == Some(TableClass::StandardInfrequentAccess) {
        options.push(format!(
            "table_class = {}",
            lit("standard_infrequent_access")
        ));
    }
    if table.deletion_protection_enabled {
        options.push("deletion_protection".to_owned());
    }
    if !sample.tags.is_empty() {
        let tags: Vec<String> = sample
            .tags
            .iter()
            .map(|t| format!("{} = {}", lit(&t.key), lit(&t.value)))
            .collect();
        options.push(format!("tags({})", tags.join(", ")));
    }

    // Indexes.
    for index in &indexes {
        let (kind, field_kind) = match index.projection.projection_type {
            ProjectionType::All => ("all", "all"),
            ProjectionType::KeysOnly => ("keys", "keys"),
            ProjectionType::Include => ("include", "include"),
        };
        let ident = |attribute: &str| {
            idents
                .get(attribute)
                .cloned()
                .unwrap_or_else(|| escape(&snake_case(attribute)))
        };
        let includes = if index.projection.projection_type == ProjectionType::Include {
            let names: Vec<String> = index
                .projection
                .non_key_attributes
                .iter()
                .map(|a| ident(a))
                .collect();
            format!(", includes = [{}]", names.join(", "))
        } else {
            String::new()
        };
        let range = key_name(index.key_schema, KeyType::Range);
        if index.global {
            let hash = key_name(index.key_schema, KeyType::Hash)
                .map(ident)
                .unwrap_or_default();
            let range = range
                .map(|r| format!(", range = {}", ident(r)))
                .unwrap_or_default();
            let throughput = match index.throughput {
                Some(t) if provisioned && t != table_throughput => {
                    format!(", throughput(read = {}, write = {})", t.0, t.1)
                }
                _ => String::new(),
            };
            attrs.push(format!(
                "#[global_index({kind}({}, hash = {hash}{range}{includes}){throughput})]",
                lit(index.name)
            ));
        } else if let Some(range) = range {
            if composites {
                attrs.push(format!(
                    "#[local_index({kind}({}, range = {}{includes}))]",
                    lit(index.name),
                    ident(range)
                ));
            } else if let Some(field) = other_fields.iter_mut().find(|f| f.attribute == range) {
                field.attrs.push(format!(
                    "#[index({field_kind} = {}{includes})]",
                    lit(index.name)
                ));
            }
        }
    }

    let mut all_fields = key_fields;
    all_fields.extend(other_fields);
    (
        ModelDef {
            name: member.name.clone(),
            doc: member.doc.clone(),
            notes,
            options,
            attrs,
            fields: all_fields,
        },
        documents,
    )
}

/// A key attribute's field (of the table or an index): its type from the attribute definition,
/// numbers narrowed by the sampled values (never `f64`, which is no key type).
fn key_field(
    fields: &mut Names,
    attribute: &str,
    scalar: Option<ScalarAttributeType>,
    shape: Option<&Shape>,
) -> FieldDef {
    let mut notes = Vec::new();
    let ty = match (scalar, shape) {
        (Some(ScalarAttributeType::S), _) => "String".to_owned(),
        (Some(ScalarAttributeType::B), _) => "Vec<u8>".to_owned(),
        (_, Some(Shape::N(numbers))) => number_type(*numbers, true).to_owned(),
        (Some(ScalarAttributeType::N), _) => {
            notes.push("no value sampled: a whole number assumed".to_owned());
            "i64".to_owned()
        }
        (None, _) => {
            notes.push("no attribute definition and no value sampled".to_owned());
            "String".to_owned()
        }
    };
    FieldDef {
        ident: field_ident(fields, attribute),
        attribute: attribute.to_owned(),
        ty,
        attrs: Vec::new(),
        notes,
    }
}
