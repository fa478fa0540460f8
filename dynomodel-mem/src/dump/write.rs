//! Writing to a [`Target`]: tables (created, awaited, TTL set) and items (BatchWriteItem, 25 at a
//! time, unprocessed items and throttling retried), and finding the line of an item the engine
//! refuses.

use std::collections::HashSet;
use std::time::Duration;

use serde_json::{json, Value};

use super::definition::key_names;
use super::file::{Line, TableSection};
use super::progress::Progress;
use super::{DumpError, Summary, Target};

/// BatchWriteItem's limit of requests per call.
const BATCH: usize = 25;

/// How often a throttled or unprocessed request is retried before giving up (with the backoff
/// below, about a minute).
const ATTEMPTS: u32 = 60;

/// The backoff between retries: doubling from the first to the last.
const FIRST_BACKOFF: Duration = Duration::from_millis(20);
const MAX_BACKOFF: Duration = Duration::from_secs(1);

/// How long a new table may stay `CREATING` before the load gives up.
const CREATE_TIMEOUT: Duration = Duration::from_secs(120);

/// The errors after which DynamoDB's SDKs retry: the request did nothing and may succeed later.
fn retryable(error: &DumpError) -> bool {
    matches!(
        error.code(),
        Some(
            "ProvisionedThroughputExceededException"
                | "ThrottlingException"
                | "RequestLimitExceeded"
                | "InternalServerError"
        )
    )
}

fn backoff(attempt: u32) -> Duration {
    FIRST_BACKOFF
        .saturating_mul(1 << attempt.min(10))
        .min(MAX_BACKOFF)
}

/// [`Target::call`], retrying throttling as the SDKs do.
pub(crate) async fn call_retrying(
    target: &dyn Target,
    operation: &str,
    request: &Value,
) -> Result<Value, DumpError> {
    let mut attempt = 0;
    loop {
        match target.call(operation, request.clone()).await {
            Err(e) if retryable(&e) && attempt + 1 < ATTEMPTS => {
                tokio::time::sleep(backoff(attempt)).await;
                attempt += 1;
            }
            other => return other,
        }
    }
}

/// Creates a table from its CreateTable request, waits until it and its indexes are `ACTIVE`, and
/// enables TTL when `ttl` says so.
pub(crate) async fn create_table(
    target: &dyn Target,
    create: &Value,
    ttl: Option<&Value>,
) -> Result<(), DumpError> {
    call_retrying(target, "CreateTable", create).await?;
    let name = &create["TableName"];
    let started = tokio::time::Instant::now();
    loop {
        let described = call_retrying(target, "DescribeTable", &json!({"TableName": name})).await?;
        let table = &described["Table"];
        let indexes_active = table["GlobalSecondaryIndexes"]
            .as_array()
            .is_none_or(|gsis| gsis.iter().all(|i| i["IndexStatus"] == json!("ACTIVE")));
        if table["TableStatus"] == json!("ACTIVE") && indexes_active {
            break;
        }
        if started.elapsed() > CREATE_TIMEOUT {
            return Err(DumpError::Connection(format!(
                "table {name} is still not ACTIVE after {CREATE_TIMEOUT:?}"
            )));
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    if let Some(ttl) = ttl {
        let request = json!({ "TableName": name, "TimeToLiveSpecification": ttl });
        call_retrying(target, "UpdateTimeToLive", &request).await?;
    }
    Ok(())
}

/// Creates every table of a dump on `target` and puts its items; `pinpoint`: an item the engine
/// refuses is reported with its line. Each table is a stage of `progress`, named `verb TABLE`.
pub(crate) async fn load(
    target: &dyn Target,
    tables: &[TableSection],
    pinpoint: bool,
    (verb, progress): (&str, &dyn Progress),
) -> Result<Summary, DumpError> {
    let mut summary = Summary::default();
    for table in tables {
        create_table(target, &table.create, table.ttl.as_ref())
            .await
            .map_err(|e| e.at(table.line))?;
        let name = table.create["TableName"].as_str().unwrap_or("");
        progress.stage(&format!("{verb} {name}"), Some(table.items.len() as u64));
        let put = put_all(
            target,
            name,
            &table.create,
            &table.items,
            pinpoint,
            progress,
        );
        summary.items += put.await?;
        summary.tables += 1;
    }
    Ok(summary)
}

/// Puts `items` into `table` (whose CreateTable request is `create`) with BatchWriteItem, in order.
/// Of two items with the same key the later wins: a batch holding the first is sent before the
/// second is added (BatchWriteItem refuses duplicate keys in one call). With `pinpoint`, a batch the
/// engine refuses is retried item by item to report the line at fault (a refused batch wrote
/// nothing: BatchWriteItem validates all its requests first). Each batch sent advances `progress`.
pub(crate) async fn put_all(
    target: &dyn Target,
    table: &str,
    create: &Value,
    items: &[Line],
    pinpoint: bool,
    progress: &dyn Progress,
) -> Result<u64, DumpError> {
    let keys = key_names(create);
    let mut batch: Vec<&Line> = Vec::with_capacity(BATCH);
    let mut in_batch: HashSet<String> = HashSet::with_capacity(BATCH);
    for line in items {
        // A key's canonical JSON (maps are ordered) identifies it within the batch.
        let key = keys
            .iter()
            .map(|k| line.1.get(k).map(Value::to_string).unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\u{0}");
        if batch.len() == BATCH || in_batch.contains(&key) {
            send(target, table, &batch, pinpoint).await?;
            progress.advance(batch.len() as u64);
            batch.clear();
            in_batch.clear();
        }
        in_batch.insert(key);
        batch.push(line);
    }
    if !batch.is_empty() {
        send(target, table, &batch, pinpoint).await?;
        progress.advance(batch.len() as u64);
    }
    Ok(items.len() as u64)
}

/// One BatchWriteItem, with throttling and its unprocessed items retried.
async fn send(
    target: &dyn Target,
    table: &str,
    batch: &[&Line],
    pinpoint: bool,
) -> Result<(), DumpError> {
    let mut left: Option<Vec<Value>> = None;
    let mut attempt = 0;
    loop {
        let items: Vec<&Value> = match &left {
            None => batch.iter().map(|(_, item)| item).collect(),
            Some(left) => left.iter().collect(),
        };
        match target.put_batch(table, &items).await {
            Ok(unprocessed) if unprocessed.is_empty() => return Ok(()),
            Ok(unprocessed) => left = Some(unprocessed),
            Err(e) if retryable(&e) => {}
            Err(e) if pinpoint && e.code().is_some() => {
                return Err(culprit(target, table, batch, e).await)
            }
            Err(e) => return Err(e),
        }
        attempt += 1;
        if attempt >= ATTEMPTS {
            return Err(DumpError::Connection(format!(
                "{table}: items still unprocessed or throttled after {ATTEMPTS} attempts"
            )));
        }
        tokio::time::sleep(backoff(attempt - 1)).await;
    }
}

/// The line of the first item of a refused batch that PutItem refuses too, with its error; `error`
/// (the batch's) if each passes alone.
async fn culprit(target: &dyn Target, table: &str, batch: &[&Line], error: DumpError) -> DumpError {
    for (line, item) in batch {
        let request = json!({ "TableName": table, "Item": item });
        if let Err(e) = call_retrying(target, "PutItem", &request).await {
            return e.at(*line);
        }
    }
    match batch.first() {
        Some((line, _)) => error.at(*line),
        None => error,
    }
}
