//! [`HalfAnswering`]: the engine behind a backend that leaves half of every batch request
//! unprocessed, so that the data shows the mapper's retries completing the work.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use dynomodel::backend::*;
use dynomodel::*;
use dynomodel_mem::MemBackend;

/// A backend that forwards everything to the engine, except that of each batch request it
/// forwards only the first half (rounded up) of the keys or writes and reports the rest
/// unprocessed, as DynamoDB does when throttled. Writes to items with the id `stuck` are never
/// forwarded.
#[derive(Debug, Clone)]
pub(crate) struct HalfAnswering {
    engine: MemBackend,
    /// Writes to the item with this id are never forwarded.
    pub stuck: Option<String>,
    /// `false`: forward whole requests, only counting them.
    pub halve: bool,
    pub stats: Arc<Stats>,
}

/// What the wrapper saw and forwarded.
#[derive(Debug, Default)]
pub(crate) struct Stats {
    pub get_requests: AtomicUsize,
    pub write_requests: AtomicUsize,
    pub keys_forwarded: AtomicUsize,
    pub writes_forwarded: AtomicUsize,
}

impl HalfAnswering {
    /// Halving every batch request to `engine`.
    pub(crate) fn new(engine: MemBackend) -> Self {
        HalfAnswering {
            engine,
            stuck: None,
            halve: true,
            stats: Arc::default(),
        }
    }

    fn is_stuck(&self, item: &Item) -> bool {
        self.stuck
            .as_deref()
            .is_some_and(|stuck| item.get("id").and_then(AttributeValue::as_s) == Some(stuck))
    }
}

/// Keys or writes of a batch request with their table, in request order.
type Entries<T> = Vec<(String, T)>;

/// Splits entries into the first half (rounded up) and the rest; or, unless `halve`, into all
/// and nothing.
fn halves<T>(entries: Entries<T>, halve: bool) -> (Entries<T>, Entries<T>) {
    let mut entries = entries;
    let rest = match halve {
        true => entries.split_off(entries.len().div_ceil(2)),
        false => Vec::new(),
    };
    (entries, rest)
}

fn group<T>(entries: Entries<T>) -> BTreeMap<String, Vec<T>> {
    let mut grouped: BTreeMap<String, Vec<T>> = BTreeMap::new();
    for (table, entry) in entries {
        grouped.entry(table).or_default().push(entry);
    }
    grouped
}

#[async_trait::async_trait]
impl Backend for HalfAnswering {
    async fn batch_get_item(&self, input: BatchGetItemInput) -> Result<BatchGetItemOutput> {
        self.stats.get_requests.fetch_add(1, Ordering::SeqCst);
        let settings: BTreeMap<String, KeysAndAttributes> = input
            .request_items
            .iter()
            .map(|(table, k)| {
                (
                    table.clone(),
                    KeysAndAttributes {
                        keys: vec![],
                        ..k.clone()
                    },
                )
            })
            .collect();
        let keys = input
            .request_items
            .into_iter()
            .flat_map(|(table, k)| k.keys.into_iter().map(move |key| (table.clone(), key)))
            .collect();
        let (now, later) = halves(keys, self.halve);
        self.stats
            .keys_forwarded
            .fetch_add(now.len(), Ordering::SeqCst);
        let with_settings = |keys: Entries<Item>| -> BTreeMap<String, KeysAndAttributes> {
            group(keys)
                .into_iter()
                .map(|(table, keys)| {
                    let settings = KeysAndAttributes {
                        keys,
                        ..settings[&table].clone()
                    };
                    (table, settings)
                })
                .collect()
        };
        let mut output = self
            .engine
            .batch_get_item(BatchGetItemInput {
                request_items: with_settings(now),
                ..Default::default()
            })
            .await?;
        output.unprocessed_keys.extend(with_settings(later));
        Ok(output)
    }

    async fn batch_write_item(&self, input: BatchWriteItemInput) -> Result<BatchWriteItemOutput> {
        self.stats.write_requests.fetch_add(1, Ordering::SeqCst);
        let (stuck, writes): (Vec<_>, Vec<_>) = input
            .request_items
            .into_iter()
            .flat_map(|(table, requests)| requests.into_iter().map(move |r| (table.clone(), r)))
            .partition(|(_, r)| match r {
                WriteRequest::Put { item } => self.is_stuck(item),
                WriteRequest::Delete { key } => self.is_stuck(key),
            });
        let (now, mut later) = halves(writes, self.halve);
        later.extend(stuck);
        let mut output = BatchWriteItemOutput::default();
        if !now.is_empty() {
            self.stats
                .writes_forwarded
                .fetch_add(now.len(), Ordering::SeqCst);
            output = self
                .engine
                .batch_write_item(BatchWriteItemInput {
                    request_items: group(now),
                    ..Default::default()
                })
                .await?;
        }
        for (table, requests) in group(later) {
            output
                .unprocessed_items
                .entry(table)
                .or_default()
                .extend(requests);
        }
        Ok(output)
    }

    async fn create_table(&self, input: CreateTableInput) -> Result<CreateTableOutput> {
        self.engine.create_table(input).await
    }
    async fn describe_table(&self, input: DescribeTableInput) -> Result<DescribeTableOutput> {
        self.engine.describe_table(input).await
    }
    async fn list_tables(&self, input: ListTablesInput) -> Result<ListTablesOutput> {
        self.engine.list_tables(input).await
    }
    async fn delete_table(&self, input: DeleteTableInput) -> Result<DeleteTableOutput> {
        self.engine.delete_table(input).await
    }
    async fn put_item(&self, input: PutItemInput) -> Result<PutItemOutput> {
        self.engine.put_item(input).await
    }
    async fn get_item(&self, input: GetItemInput) -> Result<GetItemOutput> {
        self.engine.get_item(input).await
    }
    async fn delete_item(&self, input: DeleteItemInput) -> Result<DeleteItemOutput> {
        self.engine.delete_item(input).await
    }
    async fn update_item(&self, input: UpdateItemInput) -> Result<UpdateItemOutput> {
        self.engine.update_item(input).await
    }
    async fn query(&self, input: QueryInput) -> Result<QueryOutput> {
        self.engine.query(input).await
    }
    async fn scan(&self, input: ScanInput) -> Result<ScanOutput> {
        self.engine.scan(input).await
    }
    async fn transact_get_items(
        &self,
        input: TransactGetItemsInput,
    ) -> Result<TransactGetItemsOutput> {
        self.engine.transact_get_items(input).await
    }
    async fn transact_write_items(
        &self,
        input: TransactWriteItemsInput,
    ) -> Result<TransactWriteItemsOutput> {
        self.engine.transact_write_items(input).await
    }
}
