//! Reading one chunk of keys (≤ 100) with `BatchGetItem`, retrying its unprocessed keys: shared by
//! [`BatchGet`](crate::BatchGet) and [`BatchGetStream`](crate::BatchGetStream).

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::backend::{BatchGetItemInput, ExpressionAttributeNames, KeysAndAttributes};
use crate::db::batch::errors::BatchUnprocessed;
use crate::db::batch::key::KeyId;
use crate::db::batch::options::BatchOptions;
use crate::db::batch::retry::{with_retries, Retried};
use crate::db::names::model_name;
use crate::db::Calls;
use crate::db::Db;
use crate::error::ItemAction;
use crate::error::{Error, Result};
use crate::model::Model;
use crate::value::Item;

/// DynamoDB's limit on the keys of one `BatchGetItem` ("Too many items requested for the
/// BatchGetItem call").
pub(crate) const MAX_GET_KEYS: usize = 100;

/// How one model's table is read, the same in every chunk that has keys of it.
#[derive(Debug, Clone)]
pub(crate) struct ReadTable {
    pub(crate) model: &'static str,
    /// The table's name, namespace included.
    pub(crate) table: String,
    /// The key attributes, to tell which key a returned item answers.
    pub(crate) key_names: Vec<String>,
    pub(crate) consistent: bool,
    pub(crate) projection: Option<String>,
    pub(crate) names: Option<ExpressionAttributeNames>,
}

impl ReadTable {
    /// `M`'s table in `db`, read eventually consistent and whole until told otherwise.
    pub(crate) fn of<M: Model>(db: &Db) -> ReadTable {
        ReadTable {
            model: model_name::<M>(),
            table: db.table_name::<M>(),
            key_names: [M::HASH_KEY]
                .into_iter()
                .chain(M::RANGE_KEY)
                .map(str::to_owned)
                .collect(),
            consistent: false,
            projection: None,
            names: None,
        }
    }
}

/// One key to read.
#[derive(Debug, Clone)]
pub(crate) struct ReadEntry {
    /// Which of the batch's tables.
    pub(crate) table: usize,
    pub(crate) key: Item,
    pub(crate) id: KeyId,
    /// Where the batch was given it, to report leftovers in that order.
    pub(crate) position: usize,
}

/// What one chunk read: `(table, item)` for every item found, over all attempts.
pub(crate) type ChunkRead = Retried<Vec<(usize, Item)>, ReadEntry>;

/// Reads `entries` (1 to 100 keys), retrying what comes back unprocessed.
pub(crate) async fn read_chunk(
    backend: &Calls,
    tables: &[ReadTable],
    entries: Vec<ReadEntry>,
    options: &BatchOptions,
) -> Result<ChunkRead> {
    with_retries(options, entries, |entries| async move {
        // A whole request refused for throughput is retried like keys left unprocessed: the request
        // is rebuilt from the entries on every attempt anyway, so this costs nothing on success.
        let output = match backend.batch_get_item(request(tables, &entries)).await {
            Ok(output) => output,
            Err(Error::Throughput { .. }) => return Ok((Vec::new(), entries)),
            Err(e) => return Err(e),
        };
        let mut found = Vec::new();
        for (table_name, items) in output.responses {
            // A table the request did not name cannot answer any of its keys: ignored.
            if let Some(table) = tables.iter().position(|t| t.table == table_name) {
                found.extend(items.into_iter().map(|item| (table, item)));
            }
        }
        let unprocessed: HashMap<&str, HashSet<KeyId>> = output
            .unprocessed_keys
            .iter()
            .map(|(table, keys)| (table.as_str(), keys.keys.iter().map(KeyId::of).collect()))
            .collect();
        // Rebuilt from what was sent rather than resent as returned, so that a retry carries this
        // batch's per-table settings whatever the backend echoes.
        let left = match unprocessed.is_empty() {
            true => Vec::new(),
            false => entries
                .into_iter()
                .filter(|e| {
                    unprocessed
                        .get(tables[e.table].table.as_str())
                        .is_some_and(|ids| ids.contains(&e.id))
                })
                .collect(),
        };
        Ok((found, left))
    })
    .await
}

/// The `BatchGetItem` request for some keys: one `KeysAndAttributes` per table they belong to.
fn request(tables: &[ReadTable], entries: &[ReadEntry]) -> BatchGetItemInput {
    let mut request_items: BTreeMap<String, KeysAndAttributes> = BTreeMap::new();
    for entry in entries {
        let table = &tables[entry.table];
        request_items
            .entry(table.table.clone())
            .or_insert_with(|| KeysAndAttributes {
                keys: Vec::new(),
                consistent_read: table.consistent.then_some(true),
                projection_expression: table.projection.clone(),
                expression_attribute_names: table.names.clone(),
                attributes_to_get: None,
            })
            .keys
            .push(entry.key.clone());
    }
    BatchGetItemInput {
        request_items,
        ..Default::default()
    }
}

/// The error for keys still unprocessed after the last attempt, in the order they were given.
pub(crate) fn unprocessed_error(
    tables: &[ReadTable],
    mut left: Vec<ReadEntry>,
    attempts: u32,
    processed: usize,
) -> Error {
    left.sort_by_key(|e| e.position);
    let actions = left
        .into_iter()
        .map(|e| ItemAction {
            kind: "Get",
            model: tables[e.table].model,
            table: tables[e.table].table.clone(),
            key: e.key,
            version: None,
            existence: None,
        })
        .collect();
    Error::BatchUnprocessed(Box::new(BatchUnprocessed {
        operation: "BatchGetItem",
        attempts,
        processed,
        actions,
    }))
}
