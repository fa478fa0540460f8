//! Seed and export (feature `server`): a table's items as DynamoDB JSON lines, and a whole engine —
//! table definitions and items — as one dump file that `dynomodel-mem serve --seed FILE` loads at
//! startup, so that a test fixture is one file.
//!
//! # The formats
//!
//! **A table's items** ([`export_table`], [`import_table`]): one item per line, exactly the lines of
//! DynamoDB's export to S3 in the `DYNAMODB_JSON` format (uncompressed): `{"Item":{"pk":{"S":"a"},
//! "n":{"N":"1.5"}}}`. Attribute values are DynamoDB's wire JSON (numbers as strings, binaries in
//! base64), attribute names in byte order, items in the engine's scan order, so that the same items
//! always export to the same bytes.
//!
//! **A full dump** ([`dump_all`], [`load_dump`], [`seed`]): JSON lines too —
//!
//! ```text
//! {"Format":"dynomodel-dump","Version":1}
//! {"Table":{…a CreateTable request…},"TimeToLive":{"AttributeName":"expires","Enabled":true}}
//! {"Item":{…}}                       ← that table's items, as in a table export
//! {"Table":{…}}                      ← the next table (no TimeToLive member: TTL disabled)
//! {"End":{"Tables":2,"Items":1}}
//! ```
//!
//! A `Table` line is the CreateTable request that recreates the table: key schema, attribute
//! definitions, billing mode and throughput, local and global secondary indexes, stream
//! specification, table class, deletion protection and tags. The `End` line tells a complete dump
//! from a truncated one. A dump of a newer `Version` than this crate reads is refused. Not in a dump:
//! stream records, transaction tokens and consumed capacity (a dump is a fixture, not a backup: the
//! durable `--data-dir` keeps those).
//!
//! # What the functions talk to
//!
//! A [`Target`]: the engine itself ([`MemBackend`]) or a DynamoDB endpoint over HTTP ([`HttpTarget`],
//! e.g. a running `dynomodel-mem serve`). Either way every request goes through DynamoDB's JSON API
//! (the server's own wire layer for the engine), so an import is validated exactly as the same
//! requests from an SDK would be.
//!
//! # Validation before writing
//!
//! [`import_table`] and [`load_dump`] read the whole input and apply it first to a scratch engine
//! with the same table definitions; only when every line passed do they write to the target. A bad
//! line is reported with its number ([`DumpError::Line`]) and nothing of the file has been written.
//! The target can still refuse afterwards for reasons of its own (a table that already exists,
//! throttling that outlasts the retries, a server that went away); then what was written before stays.
//!
//! ```
//! use dynomodel_mem::{dump, MemBackend};
//!
//! # tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap().block_on(async {
//! let fixture = r#"{"Format":"dynomodel-dump","Version":1}
//! {"Table":{"TableName":"users","AttributeDefinitions":[{"AttributeName":"id","AttributeType":"S"}],"KeySchema":[{"AttributeName":"id","KeyType":"HASH"}],"BillingMode":"PAY_PER_REQUEST"}}
//! {"Item":{"id":{"S":"u1"},"name":{"S":"Ada"}}}
//! {"End":{"Tables":1,"Items":1}}
//! "#;
//! let backend = MemBackend::new();
//! let loaded = dump::load_dump(&backend, &mut fixture.as_bytes()).await?;
//! assert_eq!((loaded.tables, loaded.items), (1, 1));
//!
//! let mut lines = Vec::new();
//! dump::export_table(&backend, "users", &mut lines).await?;
//! assert_eq!(lines, b"{\"Item\":{\"id\":{\"S\":\"u1\"},\"name\":{\"S\":\"Ada\"}}}\n");
//!
//! // A bad line: its number, and nothing written.
//! let bad = "{\"Item\":{\"id\":{\"S\":\"u2\"}}}\n{\"Item\":{\"name\":{\"S\":\"no key\"}}}\n";
//! let err = dump::import_table(&backend, "users", &mut bad.as_bytes()).await.unwrap_err();
//! assert!(err.to_string().starts_with("line 2: ValidationException"), "{err}");
//! let mut after = Vec::new();
//! assert_eq!(dump::export_table(&backend, "users", &mut after).await?, 1);
//! # Ok::<(), dump::DumpError>(())
//! # }).unwrap();
//! ```

mod definition;
mod file;
mod http;
mod progress;
#[cfg(test)]
mod tests;
mod write;

use std::fmt;
use std::io::{self, BufRead, Write};

use dynomodel::backend::{Backend, BatchWriteItemInput, WriteRequest};
use dynomodel::Item;
use serde_json::{json, Value};

use crate::protocol;
use crate::MemBackend;

pub use http::HttpTarget;
pub(crate) use progress::{Progress, Silent};

/// The dump format version this crate writes, and the newest it reads.
pub const FORMAT_VERSION: u64 = 1;

/// The `Format` member of a dump's first line.
pub const FORMAT_NAME: &str = "dynomodel-dump";

/// Why an export, import, dump or load stopped.
#[derive(Debug)]
pub enum DumpError {
    /// Reading the input or writing the output failed.
    Io(io::Error),
    /// Line `line` (from 1) of the input is malformed, or the engine refused what it holds: nothing
    /// of the input was written.
    Line {
        /// The line number, from 1.
        line: u64,
        /// What is wrong, e.g. `ValidationException: One or more parameter values were invalid: …`.
        message: String,
    },
    /// The target answered a DynamoDB error.
    Service {
        /// The error code, e.g. `ResourceInUseException`.
        code: String,
        /// The error message.
        message: String,
    },
    /// The HTTP endpoint could not be reached or answered something that is not DynamoDB's protocol.
    Connection(String),
}

impl fmt::Display for DumpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DumpError::Io(e) => write!(f, "{e}"),
            DumpError::Line { line, message } => write!(f, "line {line}: {message}"),
            DumpError::Service { code, message } => write!(f, "{code}: {message}"),
            DumpError::Connection(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for DumpError {}

impl From<io::Error> for DumpError {
    fn from(e: io::Error) -> DumpError {
        DumpError::Io(e)
    }
}

impl DumpError {
    /// The DynamoDB error code, for a [`DumpError::Service`].
    pub fn code(&self) -> Option<&str> {
        match self {
            DumpError::Service { code, .. } => Some(code),
            _ => None,
        }
    }

    /// The same error, attributed to input line `line`.
    fn at(self, line: u64) -> DumpError {
        match self {
            DumpError::Service { code, message } => DumpError::Line {
                line,
                message: format!("{code}: {message}"),
            },
            other => other,
        }
    }
}

/// Where tables are read from and written to: anything that answers DynamoDB's JSON 1.0 API.
///
/// Implemented for the engine ([`MemBackend`], through the server's wire layer, in process) and for
/// an HTTP endpoint ([`HttpTarget`]).
#[async_trait::async_trait]
pub trait Target: Send + Sync {
    /// Sends one request: `operation` is the `X-Amz-Target` suffix (`"Scan"`), `request` its JSON
    /// body; answers the JSON response or the DynamoDB error.
    async fn call(&self, operation: &str, request: Value) -> Result<Value, DumpError>;

    /// Puts `items` (DynamoDB JSON items, at most 25, no two with one key) into `table` with one
    /// BatchWriteItem; answers the items it left unprocessed. The default sends the request through
    /// [`Target::call`]; the engine decodes the items straight into its own types (no request to
    /// encode and parse again), with the same checks and errors.
    async fn put_batch(&self, table: &str, items: &[&Value]) -> Result<Vec<Value>, DumpError> {
        let requests: Vec<Value> = items
            .iter()
            .map(|item| json!({ "PutRequest": { "Item": item } }))
            .collect();
        let request = json!({ "RequestItems": { table: requests } });
        let mut answer = self.call("BatchWriteItem", request).await?;
        let left = match answer["UnprocessedItems"][table].take() {
            Value::Array(left) => left,
            _ => Vec::new(),
        };
        Ok(left
            .into_iter()
            .map(|mut request| request["PutRequest"]["Item"].take())
            .collect())
    }
}

#[async_trait::async_trait]
impl Target for MemBackend {
    async fn call(&self, operation: &str, request: Value) -> Result<Value, DumpError> {
        let body = serde_json::to_vec(&request)
            .map_err(|e| DumpError::Connection(format!("encoding a request: {e}")))?;
        protocol::call(self, operation, &body)
            .await
            .map_err(|fault| fault_error(&fault))
    }

    async fn put_batch(&self, table: &str, items: &[&Value]) -> Result<Vec<Value>, DumpError> {
        // What the wire layer's BatchWriteItem decoding does for these items (type errors first,
        // then attribute-value validation), without encoding and parsing the request again.
        let mut decoder = protocol::Decoder::default();
        let mut requests = Vec::with_capacity(items.len());
        for item in items {
            let Some(fields) = item.as_object() else {
                return Err(DumpError::Connection("an item is not a JSON object".into()));
            };
            let mut parsed = Item::new();
            for (name, value) in fields {
                let value = protocol::parse_attribute_value(value, &mut decoder)
                    .map_err(|fault| fault_error(&fault))?;
                parsed.insert(name.clone(), value);
            }
            requests.push(WriteRequest::Put { item: parsed });
        }
        decoder.finish(()).map_err(|fault| fault_error(&fault))?;
        let input = BatchWriteItemInput {
            request_items: [(table.to_owned(), requests)].into(),
            ..Default::default()
        };
        let output = self
            .batch_write_item(input)
            .await
            .map_err(|e| fault_error(&protocol::Fault::Backend(e)))?;
        let left = output.unprocessed_items.into_values().flatten();
        Ok(left
            .filter_map(|request| match request {
                WriteRequest::Put { item } => Some(protocol::item_to_json(&item)),
                WriteRequest::Delete { .. } => None,
            })
            .collect())
    }
}

/// A wire-layer fault as the DynamoDB error a client would read.
fn fault_error(fault: &protocol::Fault) -> DumpError {
    service_error(&protocol::error_response(fault).1)
}

/// A DynamoDB error body (`{"__type": "…#Code", "message": …}`) as a [`DumpError::Service`].
fn service_error(body: &Value) -> DumpError {
    let code = body["__type"]
        .as_str()
        .and_then(|t| t.rsplit('#').next())
        .unwrap_or("UnknownError")
        .to_owned();
    let message = body
        .get("message")
        .or_else(|| body.get("Message"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    DumpError::Service { code, message }
}

/// What a dump or load moved.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Tables.
    pub tables: u64,
    /// Items, over all tables.
    pub items: u64,
}

/// Writes every item of `table` to `out` as DynamoDB JSON lines (see the module documentation), in
/// the table's scan order; returns how many. `out` is written synchronously: wrap a file in a
/// `BufWriter`.
pub async fn export_table(
    target: &dyn Target,
    table: &str,
    out: &mut dyn Write,
) -> Result<u64, DumpError> {
    export_table_reporting(target, table, out, &Silent).await
}

/// [`export_table`], each page advancing `progress` (one stage, `exporting TABLE`).
pub(crate) async fn export_table_reporting(
    target: &dyn Target,
    table: &str,
    out: &mut dyn Write,
    progress: &dyn Progress,
) -> Result<u64, DumpError> {
    progress.stage(&format!("exporting {table}"), None);
    let mut count = 0;
    let mut start: Option<Value> = None;
    loop {
        let mut request = json!({ "TableName": table });
        if let Some(key) = start.take() {
            request["ExclusiveStartKey"] = key;
        }
        let mut page = write::call_retrying(target, "Scan", &request).await?;
        if let Some(Value::Array(items)) = page.get("Items") {
            for item in items {
                file::write_item(out, item)?;
            }
            count += items.len() as u64;
            progress.advance(items.len() as u64);
        }
        match page.get_mut("LastEvaluatedKey").map(Value::take) {
            Some(key) if !key.is_null() => start = Some(key),
            _ => break,
        }
    }
    out.flush()?;
    Ok(count)
}

/// Puts the items of a DynamoDB JSON lines file (as [`export_table`] writes, one `{"Item": …}` per
/// line; blank lines are skipped) into the existing table `table`; returns how many were put. An
/// item replaces one of the same key, as PutItem does; of two lines with the same key the later wins.
///
/// The whole input is read and validated on a scratch engine with `table`'s definition before the
/// first write (see the module documentation): an invalid line is [`DumpError::Line`] and nothing
/// is written.
pub async fn import_table(
    target: &dyn Target,
    table: &str,
    input: &mut dyn BufRead,
) -> Result<u64, DumpError> {
    import_table_reporting(target, table, input, &Silent).await
}

/// [`import_table`], reporting its two stages (`checking TABLE` on the scratch engine, `importing
/// TABLE`) to `progress`.
pub(crate) async fn import_table_reporting(
    target: &dyn Target,
    table: &str,
    input: &mut dyn BufRead,
    progress: &dyn Progress,
) -> Result<u64, DumpError> {
    let items = file::read_items(input)?;
    let described =
        write::call_retrying(target, "DescribeTable", &json!({"TableName": table})).await?;
    let create = definition::create_request(&described["Table"], Vec::new());
    let scratch = MemBackend::new();
    write::create_table(&scratch, &create, None)
        .await
        .map_err(|e| DumpError::Connection(format!("copying {table}'s definition: {e}")))?;
    let total = Some(items.len() as u64);
    progress.stage(&format!("checking {table}"), total);
    write::put_all(&scratch, table, &create, &items, true, progress).await?;
    progress.stage(&format!("importing {table}"), total);
    write::put_all(target, table, &create, &items, false, progress).await
}

/// Writes every table of `target` — its definition, TTL setting, tags and items — to `out` as one
/// dump (see the module documentation), tables in name order.
pub async fn dump_all(target: &dyn Target, out: &mut dyn Write) -> Result<Summary, DumpError> {
    dump_all_reporting(target, out, &Silent).await
}

/// [`dump_all`], each table a stage of `progress`.
pub(crate) async fn dump_all_reporting(
    target: &dyn Target,
    out: &mut dyn Write,
    progress: &dyn Progress,
) -> Result<Summary, DumpError> {
    let names = definition::table_names(target).await?;
    file::write_line(out, &file::header())?;
    let mut summary = Summary::default();
    for name in &names {
        let (create, ttl) = definition::describe(target, name).await?;
        file::write_line(out, &file::table_line(create, ttl))?;
        summary.items += export_table_reporting(target, name, out, progress).await?;
        summary.tables += 1;
    }
    file::write_line(out, &file::end_line(summary))?;
    out.flush()?;
    Ok(summary)
}

/// Creates the tables of a dump (see the module documentation) on `target` and puts their items.
///
/// The whole dump is read and applied to a scratch engine first: a malformed or incomplete dump, or
/// a definition or item the engine refuses, is reported with its line number before anything is
/// created on `target`. A table that already exists on `target` is
/// [`ResourceInUseException`](DumpError::Service) (the tables before it stay).
pub async fn load_dump(target: &dyn Target, input: &mut dyn BufRead) -> Result<Summary, DumpError> {
    load_dump_reporting(target, input, &Silent).await
}

/// [`load_dump`], each table's check and load a stage of `progress`.
pub(crate) async fn load_dump_reporting(
    target: &dyn Target,
    input: &mut dyn BufRead,
    progress: &dyn Progress,
) -> Result<Summary, DumpError> {
    let tables = file::read_dump(input)?;
    write::load(&MemBackend::new(), &tables, true, ("checking", progress)).await?;
    write::load(target, &tables, false, ("importing", progress)).await
}

/// [`load_dump`] into a fresh engine without the scratch pass: what `dynomodel-mem serve --seed`
/// runs, about twice as fast. The dump is still parsed whole before the first table is created; a
/// line the engine refuses is reported with its number, but `backend` then holds the tables and
/// items before it: discard it.
///
/// The seeded tables, indexes and TTL settings are `ACTIVE` (`ENABLED`) at once, whatever the
/// engine's [transition time](crate::MemBackendBuilder::transition_time): a fixture is ready when
/// the server starts (and a load never waits on a manual clock nobody can advance yet).
pub async fn seed(backend: &MemBackend, input: &mut dyn BufRead) -> Result<Summary, DumpError> {
    seed_reporting(backend, input, &Silent).await
}

/// [`seed`], each table a stage of `progress`.
pub(crate) async fn seed_reporting(
    backend: &MemBackend,
    input: &mut dyn BufRead,
    progress: &dyn Progress,
) -> Result<Summary, DumpError> {
    let tables = file::read_dump(input)?;
    let transition = backend
        .write()
        .replace_transition(std::time::Duration::ZERO);
    let loaded = write::load(backend, &tables, true, ("seeding", progress)).await;
    backend.write().replace_transition(transition);
    loaded
}
