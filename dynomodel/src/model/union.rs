//! The schema of a table shared by several models: the union of their `CreateTableInput`s, refusing
//! every declaration two models make differently (so the table created is the one each expects).

use crate::backend::CreateTableInput;
use crate::error::{Error, Result};

/// Merges the schemas of the models sharing one table (`(model name, schema)` pairs, in order).
///
/// The key schema, billing mode, throughput, stream, table class and deletion protection must be
/// equal where more than one model sets them; attribute definitions are merged by name and must
/// agree on the type; indexes are merged by name and an index declared by several models must be
/// declared identically (keys, projection, throughput). Tags are merged (same key, same value).
///
/// ```
/// use dynomodel::{schema_union, Model};
///
/// #[derive(Model)]
/// #[dynomodel(table = "app", entity = "User")]
/// struct User { #[hash_key] pk: String, #[range_key] sk: String, name: String }
///
/// #[derive(Model)]
/// #[dynomodel(table = "app", entity = "Order")]
/// #[global_index(all("by-status", hash = status, range = sk))]
/// struct Order { #[hash_key] pk: String, #[range_key] sk: String, status: String }
///
/// let table = schema_union("UserData", &[("User", User::schema()), ("Order", Order::schema())])?;
/// assert_eq!(table.global_secondary_indexes.len(), 1);
///
/// #[derive(Model)]
/// #[dynomodel(table = "app", entity = "Other")]
/// struct Other { #[hash_key] pk: i64, #[range_key] sk: String }
/// let err = schema_union("Bad", &[("User", User::schema()), ("Other", Other::schema())]).unwrap_err();
/// assert!(err.to_string().contains("`User` and `Other`"), "{err}");
/// # Ok::<(), dynomodel::Error>(())
/// ```
///
/// Errors: [`Error::SchemaConflict`] naming the collection, the two models and the difference; or
/// when `members` is empty.
pub fn schema_union(
    collection: &str,
    members: &[(&str, CreateTableInput)],
) -> Result<CreateTableInput> {
    let Some(((first_name, first), rest)) = members.split_first() else {
        return Err(conflict(format!("{collection} has no models")));
    };
    let mut out = first.clone();
    for (name, schema) in rest {
        let clash = |what: &str| {
            conflict(format!(
                "{collection}: `{first_name}` and `{name}` declare {what} of table `{}` differently",
                out.table_name
            ))
        };
        if schema.table_name != out.table_name {
            return Err(conflict(format!(
                "{collection}: `{first_name}` is stored in table `{}` but `{name}` in `{}`",
                out.table_name, schema.table_name
            )));
        }
        if schema.key_schema != out.key_schema {
            return Err(clash("the key schema"));
        }
        if schema.billing_mode != out.billing_mode {
            return Err(clash("the billing mode"));
        }
        if schema.provisioned_throughput != out.provisioned_throughput {
            return Err(clash("the provisioned throughput"));
        }
        merge_option(&mut out.stream_specification, &schema.stream_specification)
            .map_err(|()| clash("the stream"))?;
        merge_option(&mut out.table_class, &schema.table_class)
            .map_err(|()| clash("the table class"))?;
        merge_option(
            &mut out.deletion_protection_enabled,
            &schema.deletion_protection_enabled,
        )
        .map_err(|()| clash("deletion protection"))?;
        for definition in &schema.attribute_definitions {
            match out
                .attribute_definitions
                .iter()
                .find(|d| d.attribute_name == definition.attribute_name)
            {
                Some(known) if known == definition => {}
                Some(_) => {
                    return Err(clash(&format!(
                        "the type of key attribute `{}`",
                        definition.attribute_name
                    )));
                }
                None => out.attribute_definitions.push(definition.clone()),
            }
        }
        for index in &schema.global_secondary_indexes {
            match out
                .global_secondary_indexes
                .iter()
                .find(|i| i.index_name == index.index_name)
            {
                Some(known) if known == index => {}
                Some(_) => {
                    return Err(clash(&format!("global index `{}`", index.index_name)));
                }
                None => out.global_secondary_indexes.push(index.clone()),
            }
        }
        for index in &schema.local_secondary_indexes {
            match out
                .local_secondary_indexes
                .iter()
                .find(|i| i.index_name == index.index_name)
            {
                Some(known) if known == index => {}
                Some(_) => return Err(clash(&format!("local index `{}`", index.index_name))),
                None => out.local_secondary_indexes.push(index.clone()),
            }
        }
        for tag in &schema.tags {
            match out.tags.iter().find(|t| t.key == tag.key) {
                Some(known) if known == tag => {}
                Some(_) => return Err(clash(&format!("tag `{}`", tag.key))),
                None => out.tags.push(tag.clone()),
            }
        }
    }
    Ok(out)
}

/// Takes `theirs` when `ours` is unset; `Err` when both are set and differ.
fn merge_option<T: Clone + PartialEq>(
    ours: &mut Option<T>,
    theirs: &Option<T>,
) -> std::result::Result<(), ()> {
    match (&*ours, theirs) {
        (_, None) => Ok(()),
        (None, Some(value)) => {
            *ours = Some(value.clone());
            Ok(())
        }
        (Some(a), Some(b)) if a == b => Ok(()),
        _ => Err(()),
    }
}

fn conflict(message: String) -> Error {
    Error::SchemaConflict { message }
}
