//! [`Definition`]: what a model declares about its table — the `CreateTableInput` of
//! [`Model::schema`] (keys, indexes, billing, stream, tags, table class, deletion protection), the
//! time-to-live attribute of [`Model::TTL_ATTRIBUTE`] and the point-in-time recovery of
//! [`Model::POINT_IN_TIME_RECOVERY`] — independent of any database, so that a list of them can be
//! planned at once ([`Db::plan_all`](crate::Db::plan_all)) or exported
//! ([`crate::migrate::export`]).

use std::collections::BTreeMap;

use crate::backend::{CreateTableInput, PointInTimeRecoverySpecification};
use crate::error::{Error, Result};
use crate::migrate::data::ItemsDefinition;
use crate::model::Model;

/// The table a model declares: its schema, its time-to-live attribute and its point-in-time
/// recovery, with the table name as the model spells it (a [`Db`](crate::Db)'s namespace is applied
/// when planning).
///
/// ```
/// use dynomodel::{migrate::Definition, Model};
///
/// #[derive(Model)]
/// #[dynomodel(table = "sessions", point_in_time_recovery(recovery_period_days = 7))]
/// struct Session { #[hash_key] id: String, #[ttl] expires: u64 }
///
/// let definition = Definition::of::<Session>();
/// assert_eq!(definition.table_name(), "sessions");
/// assert_eq!(definition.ttl_attribute.as_deref(), Some("expires"));
/// let recovery = definition.point_in_time_recovery.unwrap();
/// assert_eq!(recovery.recovery_period_in_days, Some(7));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Definition {
    /// The table as CreateTable would create it (name without namespace).
    pub schema: CreateTableInput,
    /// The attribute DynamoDB's time to live reads, if any.
    pub ttl_attribute: Option<String>,
    /// Point-in-time recovery, when the model turns it on (`None`: off, DynamoDB's default).
    pub point_in_time_recovery: Option<PointInTimeRecoverySpecification>,
    /// What the model (each member, for a collection) knows of its items: the plan's data steps.
    pub(crate) items: Vec<ItemsDefinition>,
}

impl Definition {
    /// The definition `M` declares.
    pub fn of<M: Model>() -> Definition {
        Definition {
            schema: M::schema(),
            ttl_attribute: M::TTL_ATTRIBUTE.map(str::to_owned),
            point_in_time_recovery: M::POINT_IN_TIME_RECOVERY,
            items: vec![ItemsDefinition::of::<M>()],
        }
    }

    /// The table's name (without namespace).
    pub fn table_name(&self) -> &str {
        &self.schema.table_name
    }

    /// The same definition for the table `namespace` + name.
    pub(crate) fn namespaced(&self, namespace: &str) -> Definition {
        let mut out = self.clone();
        out.schema.table_name = format!("{namespace}{}", self.schema.table_name);
        out
    }

    /// The definition of a table several models share (`(model name, definition)` pairs, in
    /// order): the union of their schemas ([`schema_union`](crate::schema_union)), and the time to
    /// live and point-in-time recovery that every model declaring one agrees on.
    ///
    /// Errors: [`Error::SchemaConflict`] naming `collection`, the two models and the difference.
    pub fn union(collection: &str, members: &[(&str, Definition)]) -> Result<Definition> {
        let schemas: Vec<_> = members
            .iter()
            .map(|(name, definition)| (*name, definition.schema.clone()))
            .collect();
        let schema = crate::schema_union(collection, &schemas)?;
        let conflict = |what: &str, first: &str, name: &str| Error::SchemaConflict {
            message: format!(
                "{collection}: `{first}` and `{name}` declare {what} of table `{}` differently",
                schema.table_name
            ),
        };
        let ttl_attribute = agreed(members, |d| d.ttl_attribute.as_ref())
            .map_err(|(first, name)| conflict("the time to live attribute", first, name))?;
        let point_in_time_recovery = agreed(members, |d| d.point_in_time_recovery.as_ref())
            .map_err(|(first, name)| conflict("point-in-time recovery", first, name))?;
        Ok(Definition {
            schema,
            ttl_attribute,
            point_in_time_recovery,
            items: members
                .iter()
                .flat_map(|(_, definition)| definition.items.iter().cloned())
                .collect(),
        })
    }

    /// The definitions of `definitions`' tables, one per table in table-name order: the models of
    /// one table merged by [`Definition::union`] (so a set of single-table models gives the table
    /// [`Collection::definition`](crate::Collection::definition) gives).
    ///
    /// Errors: [`Error::SchemaConflict`] when two models of one table disagree.
    pub fn by_table<'a>(
        definitions: impl IntoIterator<Item = (&'a str, &'a Definition)>,
    ) -> Result<Vec<Definition>> {
        let mut tables: BTreeMap<&str, Vec<(&str, Definition)>> = BTreeMap::new();
        for (name, definition) in definitions {
            tables
                .entry(definition.table_name())
                .or_default()
                .push((name, definition.clone()));
        }
        tables
            .into_iter()
            .map(|(table, members)| Definition::union(table, &members))
            .collect()
    }
}

/// The one value the members that set it agree on; `Err((first, other))` naming two that differ.
fn agreed<'m, T: Clone + PartialEq + 'm>(
    members: &'m [(&'m str, Definition)],
    get: impl Fn(&'m Definition) -> Option<&'m T>,
) -> std::result::Result<Option<T>, (&'m str, &'m str)> {
    let mut found: Option<(&str, &T)> = None;
    for (name, definition) in members {
        match (found, get(definition)) {
            (_, None) => {}
            (None, Some(value)) => found = Some((name, value)),
            (Some((_, known)), Some(value)) if known == value => {}
            (Some((first, _)), Some(_)) => return Err((first, name)),
        }
    }
    Ok(found.map(|(_, value)| value.clone()))
}
