//! Data steps: the backfills a [`Plan`](crate::migrate::Plan) lists after its schema steps, when
//! the items already stored fall behind the model — a new global index keyed on attributes older
//! items may lack (composites derived from other fields, fields with a default), or an item
//! version that moved on since the table's items were last brought up to date.
//!
//! What the items hold is not in any table description, so the plan judges from the model and
//! DescribeTable: an index's key attribute counts as present in every stored item only when it is
//! a table key or a plain field every item must hold to decode at all; the table's item version is
//! the one its last complete backfill recorded in the tag [`ITEM_VERSION_TAG`] (where the
//! endpoint has no tagging, the plan says it cannot tell, in a note). The estimate is the table's
//! `ItemCount`, which Amazon DynamoDB refreshes about every six hours.

use std::fmt;

use crate::backend::{Tag, TagResourceInput};
use crate::backfill::{BackfillOptions, BackfillReport};
use crate::db::{Db, DbFuture};
use crate::error::Result;
use crate::migrate::definition::Definition;
use crate::migrate::live::{self, LiveTable};
use crate::migrate::step::{Action, Step};
use crate::model::Model;

/// The prefix of the tag (`dynomodel:item-version:<Model>`) where a model with an item version
/// records the version every one of its items in the table is at: set when a plan creates the
/// table (no item is older) and by each complete backfill. Plans leave `dynomodel:` tags alone
/// when they compare tags.
pub const ITEM_VERSION_TAG: &str = "dynomodel:item-version:";

/// The tag key of `model`'s item version.
fn version_tag(model: &str) -> String {
    format!("{ITEM_VERSION_TAG}{model}")
}

/// Adds the item-version tag of each versioned model of `definition` to the plan's creation of
/// its table, if the plan creates it: a new table holds no older item. (Amazon DynamoDB Local
/// accepts and ignores the tags of CreateTable.)
pub(crate) fn tag_creation(definition: &Definition, steps: &mut [Step]) {
    for step in steps.iter_mut() {
        if let Action::CreateTable(input) = &mut step.action
            && input.table_name == definition.schema.table_name
        {
            for items in &definition.items {
                if let Some(version) = items.item_version {
                    input
                        .tags
                        .push(Tag::new(version_tag(items.model), version.to_string()));
                }
            }
        }
    }
}

/// Runs one model's backfill (the model is fixed when the definition is made).
type Runner = for<'a> fn(&'a Db, BackfillOptions) -> DbFuture<'a, BackfillReport>;

/// What a model's definition knows about its items, for data steps.
#[derive(Clone)]
pub(crate) struct ItemsDefinition {
    /// The model's name, for messages and comparison.
    model: &'static str,
    /// Attributes every item that decodes holds (the table keys and the plain required fields).
    stored_by_all: Vec<&'static str>,
    /// The model's item version, if it declares one.
    item_version: Option<u32>,
    run: Runner,
}

impl ItemsDefinition {
    pub(crate) fn of<M: Model>() -> ItemsDefinition {
        let stored_by_all = std::iter::once(M::HASH_KEY)
            .chain(M::RANGE_KEY)
            .chain(
                M::required_attributes()
                    .iter()
                    .filter(|r| !r.composite)
                    .map(|r| r.name),
            )
            .collect();
        ItemsDefinition {
            model: crate::db::names::model_name::<M>(),
            stored_by_all,
            item_version: M::ITEM_VERSION,
            run: crate::backfill::run_for::<M>,
        }
    }
}

impl fmt::Debug for ItemsDefinition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ItemsDefinition")
            .field("model", &self.model)
            .field("stored_by_all", &self.stored_by_all)
            .field("item_version", &self.item_version)
            .finish()
    }
}

impl PartialEq for ItemsDefinition {
    fn eq(&self, other: &Self) -> bool {
        self.model == other.model
            && self.stored_by_all == other.stored_by_all
            && self.item_version == other.item_version
    }
}

/// Why a table's items need a backfill.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DataReason {
    /// A global index the plan creates is keyed on attributes that items stored before it may
    /// lack: DynamoDB's own index backfill leaves those items out of it.
    IndexKeys {
        /// The index.
        index: String,
        /// Its key attributes that not every stored item holds.
        attributes: Vec<String>,
    },
    /// The model's item version is newer than the one the table's items were last brought to.
    ItemVersion {
        /// The version recorded on the table (`None`: none recorded, so older items may remain).
        recorded: Option<u32>,
        /// The model's.
        model: u32,
    },
}

/// A backfill a plan lists after its schema steps: [`Plan::apply_with`](crate::migrate::Plan::apply_with)
/// runs it when [`ApplyOptions::backfills`](crate::migrate::ApplyOptions::backfills) opts in.
#[derive(Debug, Clone)]
pub struct DataStep {
    /// The table (namespace included).
    pub table: String,
    /// The model whose items are rewritten.
    pub model: &'static str,
    /// Why (one or more reasons).
    pub reasons: Vec<DataReason>,
    /// About how many items the backfill will scan: the table's `ItemCount`.
    pub items_to_scan: i64,
    run: Runner,
}

impl PartialEq for DataStep {
    fn eq(&self, other: &Self) -> bool {
        self.table == other.table
            && self.model == other.model
            && self.reasons == other.reasons
            && self.items_to_scan == other.items_to_scan
    }
}

impl DataStep {
    /// Runs the backfill with `options`.
    pub(crate) fn run<'a>(
        &self,
        db: &'a Db,
        options: BackfillOptions,
    ) -> DbFuture<'a, BackfillReport> {
        (self.run)(db, options)
    }
}

impl fmt::Display for DataStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reasons: Vec<String> = self
            .reasons
            .iter()
            .map(|reason| match reason {
                DataReason::IndexKeys { index, attributes } => format!(
                    "index {index} is keyed on {} that older items may lack",
                    attributes.join(", ")
                ),
                DataReason::ItemVersion {
                    recorded: Some(recorded),
                    model,
                } => format!("items are at version {recorded}, the model writes {model}"),
                DataReason::ItemVersion {
                    recorded: None,
                    model,
                } => format!("no item version recorded, the model writes {model}"),
            })
            .collect();
        write!(
            f,
            "+ backfill {} ({}): {}; about {} items to scan (run by apply with ApplyOptions::backfills)",
            self.table,
            self.model,
            reasons.join("; "),
            self.items_to_scan
        )
    }
}

/// The data step `items` needs on `live` (none for a table the plan creates: it has no items),
/// given the plan's schema `steps` for it; and a note where the plan cannot tell.
pub(crate) fn data_step(
    table: &str,
    items: &ItemsDefinition,
    live: Option<&LiveTable>,
    steps: &[Step],
    notes: &mut Vec<String>,
) -> Option<DataStep> {
    let live = live?;
    let mut reasons = Vec::new();
    for step in steps.iter().filter(|s| s.table == table) {
        if let Action::CreateIndex { index, .. } = &step.action {
            let attributes: Vec<String> = index
                .key_schema
                .iter()
                .map(|k| k.attribute_name.as_str())
                .filter(|name| !items.stored_by_all.contains(name))
                .map(str::to_owned)
                .collect();
            if !attributes.is_empty() {
                reasons.push(DataReason::IndexKeys {
                    index: index.index_name.clone(),
                    attributes,
                });
            }
        }
    }
    if let Some(model) = items.item_version {
        match &live.tags {
            None => notes.push(format!(
                "item versions of {table}: this database has no tagging, so the plan cannot tell \
                 whether items older than version {model} remain; run db.backfill::<{}>() to \
                 bring them up to date",
                items.model
            )),
            Some(tags) => {
                let recorded = tags
                    .iter()
                    .find(|t| t.key == version_tag(items.model))
                    .and_then(|t| t.value.parse::<u32>().ok());
                if recorded.is_none_or(|v| v < model) {
                    reasons.push(DataReason::ItemVersion { recorded, model });
                }
            }
        }
    }
    if reasons.is_empty() {
        return None;
    }
    Some(DataStep {
        table: table.to_owned(),
        model: items.model,
        reasons,
        items_to_scan: live.table.item_count,
        run: items.run,
    })
}

/// Records on `table` that all its items are at item `version` (after a complete backfill). An
/// endpoint without tagging records nothing (its plans say so).
pub(crate) async fn record_item_version(
    db: &Db,
    table: &str,
    model: &str,
    version: u32,
) -> Result<()> {
    let Some(description) = live::describe(&db.calls, table).await? else {
        return Ok(());
    };
    match db
        .calls
        .tag_resource(TagResourceInput {
            resource_arn: description.table_arn,
            tags: vec![Tag::new(version_tag(model), version.to_string())],
        })
        .await
    {
        Ok(_) => Ok(()),
        Err(e) if e.code() == "UnknownOperationException" => Ok(()),
        Err(e) => Err(e),
    }
}
