//! [`Definition`]: what a model declares about its table — the `CreateTableInput` of
//! [`Model::schema`] (keys, indexes, billing, stream, tags, table class) and the time-to-live
//! attribute of [`Model::TTL_ATTRIBUTE`] — independent of any database, so that a list of them can be
//! planned at once ([`Db::plan_all`](crate::Db::plan_all)).

use crate::backend::CreateTableInput;
use crate::migrate::data::ItemsDefinition;
use crate::model::Model;

/// The table a model declares: its schema and its time-to-live attribute, with the table name as the
/// model spells it (a [`Db`](crate::Db)'s namespace is applied when planning).
///
/// ```
/// use dynomodel::{migrate::Definition, Model};
///
/// #[derive(Model)]
/// #[dynomodel(table = "sessions")]
/// struct Session { #[hash_key] id: String, #[ttl] expires: u64 }
///
/// let definition = Definition::of::<Session>();
/// assert_eq!(definition.table_name(), "sessions");
/// assert_eq!(definition.ttl_attribute.as_deref(), Some("expires"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Definition {
    /// The table as CreateTable would create it (name without namespace).
    pub schema: CreateTableInput,
    /// The attribute DynamoDB's time to live reads, if any.
    pub ttl_attribute: Option<String>,
    /// What the model (each member, for a collection) knows of its items: the plan's data steps.
    pub(crate) items: Vec<ItemsDefinition>,
}

impl Definition {
    /// The definition `M` declares.
    pub fn of<M: Model>() -> Definition {
        Definition {
            schema: M::schema(),
            ttl_attribute: M::TTL_ATTRIBUTE.map(str::to_owned),
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
}
