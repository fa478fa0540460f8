//! DynamoDB's JSON 1.0 wire format, by hand: `serde_json::Value` → [`dynomodel`]'s request types →
//! [`Backend`] → response types → the response's JSON text.
//!
//! Responses that carry items or attribute values (the item operations, Query and Scan, the batches and
//! transactions, PartiQL, GetRecords) are written straight to their bytes by a small JSON writer
//! (`json.rs`), the bytes serde_json printed for the `Value` the server built before, without the tree:
//! on a Query of 20 items building and printing that tree was two thirds of the server's own CPU. The
//! table, TTL, tag, account and other streams operations answer small, fixed shapes and keep building a
//! `Value`, printed by serde_json. The requests of the operations that carry attribute values are
//! decoded in one pass (`fast`): their attribute values go straight from the parser into the request
//! types. Any other request, and any request with an anomaly, is parsed to a `Value` first: the
//! service model's constraint check (`model`) and DynamoDB's order of errors walk the whole tree
//! before decoding (the exact path, which reports every error, and against which test builds check
//! the one pass on every request).
//!
//! Written by hand rather than derived because DynamoDB answers a badly *typed* request differently from
//! a badly *valued* one, and clients (and tests) see the difference:
//!
//! - `SerializationException` — the body is not JSON, or a member has the wrong JSON type (`{"N": 123}`,
//!   a list where a map belongs). The messages are those of DynamoDB's Java deserialiser, as recorded by
//!   dynalite's `validations/index.js` (`checkTypes`) and its tests: "class java.lang.Short can not be
//!   converted to an String", "Start of structure or map found where not expected.", "Expected list or
//!   null", …
//! - `ValidationException` — well-typed but invalid: a required member missing ("1 validation error
//!   detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null"), an enum
//!   value outside its set, an attribute value with no or several types, an `N` that is not a number
//!   ([`dynomodel::NumberError`]'s text, the engine's own).
//!
//! Before any operation's own decoding, every request is checked against botocore's service model
//! (see `model`, generated from the model by `scripts/gen-service-model.py`): all member constraints
//! (required members, lengths, ranges, patterns, enums, at any depth) are reported at once, in
//! DynamoDB's "N validation errors detected: …" form, unless the request has a member of the wrong
//! JSON type, which its decoder then reports.
//!
//! Every serialization error anywhere in the request wins over every validation error (DynamoDB
//! type-checks the whole request before validating it), so decoding returns type errors at once and
//! only *records* validation errors in a [`Decoder`], which reports them after the whole request was
//! read: the operation-specific ones (attribute values, actions), and member constraints where the
//! model check leaves a member to the decoder (the service's per-operation quirks, `model/quirks.rs`).
//! Everything else (table names' own message, key schemas, item rules, the limits of batches and
//! transactions) is left to the backend, which has DynamoDB's messages, so that Rust users of the
//! engine get the same checks. The tag operations answer their keys and values in the service's own
//! words, which are the backend's (see `tags.rs`).

mod account;
mod backups;
mod batch;
mod capacity;
mod description;
mod error;
mod fast;
mod item;
mod json;
mod legacy;
mod model;
mod partiql;
#[cfg(feature = "durable")]
pub(crate) mod records;
pub(crate) mod region;
mod streams;
mod table;
mod tags;
#[cfg(test)]
mod tests;
mod transact;
mod tree;
mod ttl;
mod types;
mod update_table;
mod value;

use std::sync::Arc;

use dynomodel::backend::Backend;
use dynomodel::Error;
use serde_json::{Map, Value};

use crate::validate::{violation, LISTED};

#[cfg(feature = "server")]
pub(crate) use error::error_body;
pub use error::error_response;
pub(crate) use streams::{STREAMS_TARGET_PREFIX, STREAM_OPERATIONS};
pub use value::item_to_json;
#[cfg(feature = "server")]
pub(crate) use value::parse_attribute_value;

/// Why a request produced no result.
#[derive(Debug, Clone, PartialEq)]
pub enum Fault {
    /// `SerializationException`: malformed JSON (no message, as DynamoDB sends it) or a member of the
    /// wrong JSON type (with the deserialiser's message).
    Serialization(Option<String>),
    /// `UnknownOperationException`: the `X-Amz-Target` names no operation this server knows.
    UnknownOperation,
    /// An error with DynamoDB's code and message: validation by the wire layer, or the backend's answer.
    Backend(Error),
}

impl From<Error> for Fault {
    fn from(e: Error) -> Fault {
        Fault::Backend(e)
    }
}

/// The result of decoding or running one request.
pub type WireResult<T> = Result<T, Fault>;

/// The operations this server dispatches, by their `X-Amz-Target` suffix.
pub const OPERATIONS: &[&str] = &[
    "CreateTable",
    "DescribeTable",
    "ListTables",
    "DeleteTable",
    "PutItem",
    "GetItem",
    "DeleteItem",
    "UpdateItem",
    "Query",
    "Scan",
    "BatchGetItem",
    "BatchWriteItem",
    "TransactGetItems",
    "TransactWriteItems",
    "UpdateTable",
    "UpdateTimeToLive",
    "DescribeTimeToLive",
    "TagResource",
    "UntagResource",
    "ListTagsOfResource",
    "DescribeLimits",
    "DescribeEndpoints",
    "ExecuteStatement",
    "BatchExecuteStatement",
    "ExecuteTransaction",
    "CreateBackup",
    "DescribeBackup",
    "ListBackups",
    "DeleteBackup",
    "RestoreTableFromBackup",
    "DescribeContinuousBackups",
    "UpdateContinuousBackups",
    "RestoreTableToPointInTime",
];

/// What the server knows about a request beyond its body.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Context {
    /// The server's own address (`host:port`), answered by DescribeEndpoints in place of the
    /// backend's AWS endpoint; `None` keeps the backend's answer.
    pub endpoint: Option<String>,
    /// The region to answer in: the ARNs of table and stream descriptions and the `awsRegion` of
    /// stream records name it (the server sets it to the region a request is signed for, when its
    /// engine has no region of its own; see `region.rs`). `None` keeps the backend's answers.
    pub region: Option<String>,
}

/// The `X-Amz-Target` prefix of DynamoDB's current API version.
pub(crate) const TARGET_PREFIX: &str = "DynamoDB_20120810.";

/// The operation an `X-Amz-Target` names, as [`call`] takes it: DynamoDB's own without the prefix
/// (`PutItem`), a DynamoDB Streams one whole (`DynamoDBStreams_20120810.GetRecords`, see
/// `STREAM_OPERATIONS`); `None` for another service's target.
pub fn operation_of(target: &str) -> Option<&str> {
    match target.strip_prefix(TARGET_PREFIX) {
        Some(operation) => Some(operation),
        None => target.starts_with(STREAMS_TARGET_PREFIX).then_some(target),
    }
}

/// Runs one request: `operation` is the target's suffix (e.g. `PutItem`), `body` the raw request body.
/// Returns the response body as a JSON [`Value`], or the fault to report ([`error_response`] turns it
/// into DynamoDB's status and error body). The server's whole protocol, without HTTP; the server itself
/// answers with [`respond`]'s bytes, which this parses back, for tests and tools (examples in
/// `tests/entry_points.rs`).
pub async fn call(backend: &dyn Backend, operation: &str, body: &[u8]) -> WireResult<Value> {
    call_in(&Context::default(), backend, operation, body).await
}

/// [`call`] with what the server knows about the request (its own address, for DescribeEndpoints; the
/// region to answer in). An answer without a body (TagResource's, UntagResource's) is `{}`.
pub(crate) async fn call_in(
    context: &Context,
    backend: &dyn Backend,
    operation: &str,
    body: &[u8],
) -> WireResult<Value> {
    let text = respond(context, backend, operation, body).await?;
    if text.is_empty() {
        return Ok(Value::Object(Map::new()));
    }
    // The writer's output is JSON (its tests parse it back); an internal error rather than a panic
    // should that ever break.
    serde_json::from_slice(&text).map_err(|e| {
        Fault::Backend(Error::Service {
            code: "InternalServerError".into(),
            message: format!("unparsable response: {e}"),
        })
    })
}

/// Runs one request as the server does: the response body's JSON text, exactly the bytes DynamoDB's
/// clients receive (see the module docs), or the fault to report. `context` is what the server knows
/// about the request (its own address, for DescribeEndpoints).
pub async fn respond(
    context: &Context,
    backend: &dyn Backend,
    operation: &str,
    body: &[u8],
) -> WireResult<Vec<u8>> {
    if !OPERATIONS.contains(&operation) && !STREAM_OPERATIONS.contains(&operation) {
        return Err(Fault::UnknownOperation);
    }
    // A well-formed request of the operations that carry attribute values is decoded in one pass;
    // anything else, or any anomaly, takes the exact path, which reports it (see `fast`).
    let decoded = fast::decode(operation, body);
    #[cfg(test)]
    fast::oracle::verify(operation, body, &decoded);
    let (request, mut predecoded) = match decoded {
        fast::Outcome::Decoded(skeleton, predecoded) => (skeleton, predecoded),
        fast::Outcome::Exact(tree) => (model_checked(operation, tree)?, Default::default()),
        fast::Outcome::Malformed => return Err(Fault::Serialization(None)),
        fast::Outcome::Fallback => (exact_request(operation, body)?, Default::default()),
    };
    let request = &request;
    let region = context.region.as_deref();
    if let Some(streams_operation) = operation.strip_prefix(STREAMS_TARGET_PREFIX) {
        return streams::call(backend, streams_operation, request, region).await;
    }
    // A top-level `ExpressionAttributeNames` with unused keys reaches the engine reduced; its
    // message about them is put back as the whole map's (see `fast::unused`).
    let unused = predecoded.take_unused();
    let restored = |answer: WireResult<Vec<u8>>| match (answer, unused) {
        (Err(Fault::Backend(e)), Some(unused)) => Err(Fault::Backend(unused.restore(e))),
        (answer, _) => answer,
    };
    // Operations answered by the JSON writer return bytes; the others a `Value` to print.
    let mut value = match operation {
        "PutItem" => return restored(item::put_item(backend, request, predecoded).await),
        "GetItem" => return restored(item::get_item(backend, request, predecoded).await),
        "DeleteItem" => return restored(item::delete_item(backend, request, predecoded).await),
        "UpdateItem" => return restored(item::update_item(backend, request, predecoded).await),
        "Query" => return restored(item::query(backend, request, predecoded).await),
        "Scan" => return restored(item::scan(backend, request, predecoded).await),
        "BatchGetItem" => return batch::batch_get_item(backend, request, predecoded).await,
        "BatchWriteItem" => return batch::batch_write_item(backend, request, predecoded).await,
        "TransactGetItems" => {
            return transact::transact_get_items(backend, request, predecoded).await
        }
        "TransactWriteItems" => {
            return transact::transact_write_items(backend, request, predecoded).await
        }
        "ExecuteStatement" => {
            return partiql::execute_statement(backend, request, predecoded).await
        }
        "BatchExecuteStatement" => {
            return partiql::batch_execute_statement(backend, request, predecoded).await
        }
        "ExecuteTransaction" => {
            return partiql::execute_transaction(backend, request, predecoded).await
        }
        "CreateTable" => table::create_table(backend, request).await,
        "DescribeTable" => table::describe_table(backend, request).await,
        "ListTables" => table::list_tables(backend, request).await,
        "DeleteTable" => table::delete_table(backend, request).await,
        "UpdateTable" => update_table::update_table(backend, request).await,
        "UpdateTimeToLive" => ttl::update_time_to_live(backend, request).await,
        "DescribeTimeToLive" => ttl::describe_time_to_live(backend, request).await,
        // Answered without a body, as DynamoDB answers them.
        "TagResource" => {
            return tags::tag_resource(backend, request)
                .await
                .map(|()| Vec::new())
        }
        "UntagResource" => {
            return tags::untag_resource(backend, request)
                .await
                .map(|()| Vec::new())
        }
        "ListTagsOfResource" => tags::list_tags_of_resource(backend, request).await,
        "DescribeLimits" => account::describe_limits(backend, request).await,
        "DescribeEndpoints" => account::describe_endpoints(context, backend, request).await,
        "CreateBackup" => backups::create_backup(backend, request).await,
        "DescribeBackup" => backups::describe_backup(backend, request).await,
        "ListBackups" => backups::list_backups(backend, request).await,
        "DeleteBackup" => backups::delete_backup(backend, request).await,
        "RestoreTableFromBackup" => backups::restore_table_from_backup(backend, request).await,
        "DescribeContinuousBackups" => backups::describe_continuous_backups(backend, request).await,
        "UpdateContinuousBackups" => backups::update_continuous_backups(backend, request).await,
        "RestoreTableToPointInTime" => {
            backups::restore_table_to_point_in_time(backend, request).await
        }
        _ => Err(Fault::UnknownOperation),
    }?;
    if let Some(region) = region {
        region::present(&mut value, region);
    }
    Ok(encode(&value))
}

/// The request's members as the exact path parses them: the whole body as a `Value`, checked
/// against the service model.
fn exact_request(operation: &str, body: &[u8]) -> WireResult<Map<String, Value>> {
    // DynamoDB parses before it validates: malformed JSON (or an empty body) is a bare
    // SerializationException without a message.
    let parsed = tree::parse(body).map_err(|_| Fault::Serialization(None))?;
    let request = match parsed {
        Value::Object(map) => map,
        Value::Array(_) => return Err(Fault::Serialization(Some(types::START_OF_LIST.to_owned()))),
        _ => return Err(Fault::Serialization(None)),
    };
    model_checked(operation, request)
}

/// `request`, the exact path's tree of a request of `operation`, if it passes the service model's
/// member constraints: all of them reported at once, before any check of the operation's own (see
/// `model`).
fn model_checked(operation: &str, request: Map<String, Value>) -> WireResult<Map<String, Value>> {
    model::check(operation, &request)?;
    Ok(request)
}

/// A response built as a `Value`, printed as serde_json prints it.
fn encode(value: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    json::value(&mut out, value);
    out
}

/// Validation errors found while decoding, reported once the whole request is read.
///
/// Two kinds, in DynamoDB's order: member constraints (smithy's "N validation error(s) detected: …",
/// at most 10 listed), then the first operation-specific message (e.g. about attribute values).
#[derive(Debug, Default)]
pub(crate) struct Decoder {
    /// The first [`LISTED`] constraint messages. Only these are kept: a 16 MB body of `null` list
    /// elements breaks millions of constraints, whose messages would take hundreds of megabytes.
    constraints: Vec<String>,
    /// How many constraints were broken, listed or not.
    broken: usize,
    custom: Option<String>,
    /// The attribute values and items of a request decoded in one pass (`fast`), which its
    /// skeleton's markers stand for; empty for a request decoded from its whole `Value`.
    predecoded: fast::Predecoded,
}

impl Decoder {
    /// A decoder of a request whose attribute values were decoded in one pass (`fast`).
    pub(crate) fn with(predecoded: fast::Predecoded) -> Decoder {
        Decoder {
            predecoded,
            ..Decoder::default()
        }
    }

    /// A required member is absent (or JSON `null`).
    pub(crate) fn null(&mut self, path: &str) {
        self.record(|| violation(Some("null"), path, "Member must not be null"));
    }

    /// A present member breaks a constraint: `value` is shown quoted, as DynamoDB does.
    pub(crate) fn constraint(&mut self, value: &str, path: &str, message: &str) {
        self.record(|| violation(Some(&format!("'{value}'")), path, message));
    }

    /// Counts a broken constraint, and keeps its message while fewer than [`LISTED`] are kept.
    fn record(&mut self, message: impl FnOnce() -> String) {
        self.broken += 1;
        if self.constraints.len() < LISTED {
            self.constraints.push(message());
        }
    }

    /// An operation-specific validation message; only the first one is reported.
    pub(crate) fn custom(&mut self, message: impl Into<String>) {
        if self.custom.is_none() {
            self.custom = Some(message.into());
        }
    }

    /// `Ok(value)` when nothing was recorded, else the `ValidationException` to report.
    pub(crate) fn finish<T>(self, value: T) -> WireResult<T> {
        if self.broken > 0 {
            let message = crate::validate::detected(self.broken, &self.constraints);
            return Err(Error::validation(message).into());
        }
        match self.custom {
            Some(message) => Err(Error::validation(message).into()),
            None => Ok(value),
        }
    }
}

/// The members of the request, or of a structure nested in it, with the type checks of DynamoDB's
/// deserialiser and the structure's constraint path, from which each member's path in a message is made.
pub(crate) struct Members<'a> {
    map: &'a Map<String, Value>,
    path: StructurePath<'a>,
}

/// The constraint path of a structure, from which its members' paths are made.
enum StructurePath<'a> {
    /// Empty for the request itself; else e.g. `transactItems.1.member.put` or
    /// `requestItems.users.member`.
    Built(String),
    /// `<map>.<key>.member`: a structure in a map of them (`expected.price.member`), made only when a
    /// message names it. Such maps (the legacy parameters) can hold hundreds of thousands of entries,
    /// nearly all valid, and a path built for each was a third of decoding them.
    Entry { map: &'a str, key: &'a str },
    /// `<list>.<index>.member`, then `.<member>` in lower camel case when set: a list's element
    /// (`transactItems.7.member`) or a structure in it (`transactItems.7.member.put`), made only
    /// when a message names it. An over-long TransactWriteItems or BatchWriteItem list holds
    /// hundreds of thousands of them, nearly always without a message.
    Element {
        list: Arc<str>,
        index: usize,
        member: Option<&'static str>,
    },
}

impl<'a> Members<'a> {
    /// The request's own members.
    pub(crate) fn new(map: &'a Map<String, Value>) -> Self {
        Members::at(map, String::new())
    }

    /// The members of a nested structure whose constraint path is `path`.
    pub(crate) fn at(map: &'a Map<String, Value>, path: String) -> Self {
        Members {
            map,
            path: StructurePath::Built(path),
        }
    }

    /// The members of the structure under `key` in the map of structures whose constraint path is
    /// `map_path`: their paths are `<map_path>.<key>.member.<name>`, made only when asked for.
    pub(crate) fn entry(fields: &'a Map<String, Value>, map_path: &'a str, key: &'a str) -> Self {
        Members {
            map: fields,
            path: StructurePath::Entry { map: map_path, key },
        }
    }

    /// The constraint path of the member `name`: DynamoDB names members in lower camel case, after the
    /// path of the structure that holds them (`tableName`, `transactItems.1.member.put.tableName`).
    pub(crate) fn path_of(&self, name: &str) -> String {
        let mut path = match &self.path {
            StructurePath::Built(built) => {
                let mut path = String::with_capacity(built.len() + 1 + name.len());
                if !built.is_empty() {
                    path.push_str(built);
                    path.push('.');
                }
                path
            }
            StructurePath::Entry { map, key } => {
                let mut path = entry_path(map, key);
                path.push('.');
                path
            }
            StructurePath::Element {
                list,
                index,
                member,
            } => {
                let mut path = element_path(list, *index);
                if let Some(member) = member {
                    path.push('.');
                    types::push_lower_first(&mut path, member);
                }
                path.push('.');
                path
            }
        };
        types::push_lower_first(&mut path, name);
        path
    }

    /// A member; JSON `null` counts as absent (as in DynamoDB).
    pub(crate) fn get(&self, name: &str) -> Option<&'a Value> {
        self.map.get(name).filter(|v| !v.is_null())
    }

    /// An optional string member.
    pub(crate) fn string(&self, name: &str) -> WireResult<Option<String>> {
        self.get(name).map(types::string).transpose()
    }

    /// A required string member: a placeholder `""` is returned after recording the null constraint.
    pub(crate) fn required_string(&self, name: &str, d: &mut Decoder) -> WireResult<String> {
        match self.string(name)? {
            Some(s) => Ok(s),
            None => {
                d.null(&self.path_of(name));
                Ok(String::new())
            }
        }
    }

    /// An optional boolean member.
    pub(crate) fn boolean(&self, name: &str) -> WireResult<Option<bool>> {
        self.get(name).map(types::boolean).transpose()
    }

    /// An optional `Integer` member (DynamoDB truncates fractions).
    pub(crate) fn integer(&self, name: &str) -> WireResult<Option<i32>> {
        self.get(name).map(types::integer).transpose()
    }

    /// An optional string member that must be one of `allowed` (DynamoDB's enum constraint).
    pub(crate) fn enumeration<T: Copy>(
        &self,
        name: &str,
        allowed: &[(&str, T)],
        d: &mut Decoder,
    ) -> WireResult<Option<T>> {
        let Some(value) = self.get(name) else {
            return Ok(None);
        };
        let text = types::str(value)?;
        Ok(types::enum_value(text, || self.path_of(name), allowed, d))
    }

    /// [`Members::enumeration`] of a required member: an absent one is recorded as null.
    pub(crate) fn required_enumeration<T: Copy>(
        &self,
        name: &str,
        allowed: &[(&str, T)],
        d: &mut Decoder,
    ) -> WireResult<Option<T>> {
        if self.get(name).is_none() {
            d.null(&self.path_of(name));
        }
        self.enumeration(name, allowed, d)
    }

    /// An optional list member.
    pub(crate) fn list(&self, name: &str) -> WireResult<Option<&'a Vec<Value>>> {
        Ok(self.get(name).map(types::list).transpose()?.flatten())
    }

    /// An optional map member (`Item`, `RequestItems`, …).
    pub(crate) fn map(&self, name: &str) -> WireResult<Option<&'a Map<String, Value>>> {
        Ok(self.get(name).map(types::map).transpose()?.flatten())
    }

    /// An optional structure member, with its own members at its path.
    pub(crate) fn structure(&self, name: &'static str) -> WireResult<Option<Members<'a>>> {
        self.get(name)
            .map_or(Ok(None), |value| self.nested(name, value))
    }

    /// The members of this structure that are set (not JSON `null`), in the request's order.
    pub(crate) fn present(&self) -> impl Iterator<Item = (&'a str, &'a Value)> {
        self.map
            .iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(name, v)| (name.as_str(), v))
    }

    /// The structure `value`, this structure's member `name` (set), with its own members at its path
    /// ([`Members::structure`] without the lookup).
    pub(crate) fn nested(
        &self,
        name: &'static str,
        value: &'a Value,
    ) -> WireResult<Option<Members<'a>>> {
        let Some(fields) = types::structure(value)? else {
            return Ok(None);
        };
        let path = match &self.path {
            // A list's element names its member without a path of its own until a message asks.
            StructurePath::Element {
                list,
                index,
                member: None,
            } => StructurePath::Element {
                list: Arc::clone(list),
                index: *index,
                member: Some(name),
            },
            _ => StructurePath::Built(self.path_of(name)),
        };
        Ok(Some(Members { map: fields, path }))
    }

    /// The elements of the list member `name`, each a structure decoded by `decode` (see
    /// [`each_structure`]); `None` when the list is absent.
    pub(crate) fn each<T>(
        &self,
        name: &str,
        d: &mut Decoder,
        decode: impl FnMut(Members<'a>, &mut Decoder) -> WireResult<T>,
    ) -> WireResult<Option<Vec<T>>> {
        let Some(elements) = self.list(name)? else {
            return Ok(None);
        };
        each_structure(elements, &self.path_of(name), d, decode).map(Some)
    }
}

/// `<map_path>.<key>.member`: the constraint path of a structure in a map of them.
pub(crate) fn entry_path(map_path: &str, key: &str) -> String {
    let mut path = String::with_capacity(map_path.len() + key.len() + 8);
    path.push_str(map_path);
    path.push('.');
    path.push_str(key);
    path.push_str(".member");
    path
}

/// The elements of the list at `list_path`, each a structure decoded by `decode` in list order (so that
/// the first type error reported is the first in the body, as DynamoDB's deserialiser meets it and
/// dynalite's `checkTypes` records it), with its path `<list_path>.<n>.member`, counting from 1 as
/// DynamoDB's messages do. A JSON `null` element is recorded as a null constraint at its path and
/// skipped.
pub(crate) fn each_structure<'a, T>(
    elements: &'a [Value],
    list_path: &str,
    d: &mut Decoder,
    mut decode: impl FnMut(Members<'a>, &mut Decoder) -> WireResult<T>,
) -> WireResult<Vec<T>> {
    let mut out = Vec::with_capacity(elements.len());
    let list: Arc<str> = Arc::from(list_path);
    for (i, element) in elements.iter().enumerate() {
        match types::structure(element)? {
            Some(fields) => out.push(decode(
                Members {
                    map: fields,
                    path: StructurePath::Element {
                        list: Arc::clone(&list),
                        index: i + 1,
                        member: None,
                    },
                },
                d,
            )?),
            None => d.null(&element_path(list_path, i + 1)),
        }
    }
    Ok(out)
}

/// `<list_path>.<index>.member`: the constraint path of a list's element.
fn element_path(list_path: &str, index: usize) -> String {
    // Built by hand: `format!` was a tenth of decoding a request of many small elements.
    let mut path = String::with_capacity(list_path.len() + 16);
    path.push_str(list_path);
    path.push('.');
    types::push_index(&mut path, index);
    path.push_str(".member");
    path
}
