//! Real DynamoDB's first validation step: every request checked against its service model's member
//! constraints, all violations reported at once.
//!
//! The constraints are botocore's service models (`dynamodb` and `dynamodbstreams`), turned into
//! static tables by `scripts/gen-service-model.py` (`generated.rs`, checked in; a test runs the script
//! and compares). [`check`] walks a request's JSON against its operation's input shape and reports, in
//! one `ValidationException` in the service's form (see [`super::Decoder`], whose formatting it shares):
//!
//! - `Value null at 'tableName' failed to satisfy constraint: Member must not be null` (a required
//!   member, a `null` list element or structure-valued map entry);
//! - `Member must have length greater than or equal to N` / `less than or equal to N` (strings in
//!   characters, lists and maps in elements);
//! - `Member must have value greater than or equal to N` / `less than or equal to N` (numbers);
//! - `Member must satisfy regular expression pattern: P` (see `pattern.rs`);
//! - `Member must satisfy enum value set: [A, B]` (in the service's order: see the generator);
//! - for a map's keys and values, one message at the map's path listing all of the key's (or value's)
//!   constraints: `Map keys must satisfy constraint: [Member must have length less than or equal to
//!   255, Member must have length greater than or equal to 3, Member must satisfy regular expression
//!   pattern: [a-zA-Z0-9_.-]+]` (dynalite's `test/batchWriteItem.js`, recorded against the service).
//!
//! Paths are the members' names in lower camel case, list positions from 1 and map keys as
//! themselves: `keySchema.1.member.keyType`, `requestItems.users.member.keys`,
//! `requestItems.aa;.member.1.member.putRequest.item` (dynalite's recordings; moto's captured
//! `requestItems.users.member.keys`).
//!
//! Serialization errors win over every validation error (DynamoDB type-checks the whole request
//! first): when the walk meets a member of the wrong JSON type it reports nothing and leaves the
//! request to the operation's decoder, which answers with the deserialiser's message. The service's
//! per-operation exceptions to the pattern are in `quirks.rs`.

mod pattern;
mod quirks;
mod walk;

#[rustfmt::skip]
mod generated;

#[cfg(test)]
mod tests;

use serde_json::{Map, Value};

use super::streams::STREAMS_TARGET_PREFIX;
use super::WireResult;

pub(crate) use pattern::matches;

/// One service model: its operations (name, input shape) and the shapes reachable from the inputs.
pub(crate) struct Service {
    /// Operation name and the index of its input shape in `shapes`, sorted by name.
    pub(crate) operations: &'static [(&'static str, Option<usize>)],
    /// The shapes, referred to by index.
    pub(crate) shapes: &'static [Shape],
}

/// A named shape of the model.
pub(crate) struct Shape {
    /// The model's name (`TableArn`, `PutItemInput`).
    pub(crate) name: &'static str,
    /// What the shape is, with its constraints.
    pub(crate) kind: Kind,
}

/// The model's `min` and `max` of a length or a value.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bounds {
    /// The smallest allowed length or value.
    pub(crate) min: Option<i64>,
    /// The largest allowed length or value.
    pub(crate) max: Option<i64>,
}

/// A structure's member.
pub(crate) struct Member {
    /// Its JSON name (`TableName`).
    pub(crate) name: &'static str,
    /// Index of its shape.
    pub(crate) shape: usize,
    /// Whether the model lists it in `required`.
    pub(crate) required: bool,
}

/// A shape's type and constraints.
pub(crate) enum Kind {
    /// A JSON object with named members, in the order the service reports them.
    Structure(&'static [Member]),
    /// A JSON array of `member` shapes.
    List {
        /// Index of the element shape.
        member: usize,
        /// Bounds on the number of elements.
        length: Bounds,
    },
    /// A JSON object of `value` shapes keyed by `key` strings.
    Map {
        /// Index of the key shape (a string).
        key: usize,
        /// Index of the value shape.
        value: usize,
        /// Bounds on the number of entries.
        length: Bounds,
    },
    /// A JSON string.
    String {
        /// Bounds on the number of characters.
        length: Bounds,
        /// The model's regular expression, matched by [`matches`].
        pattern: Option<&'static str>,
        /// The enum's values, in the order the service lists them; empty for a free string.
        values: &'static [&'static str],
    },
    /// A 32-bit JSON number.
    Integer(Bounds),
    /// A 64-bit JSON number.
    Long(Bounds),
    /// A floating-point JSON number.
    Double,
    /// A JSON boolean.
    Boolean,
    /// Base64 text.
    Blob,
    /// Epoch seconds as a JSON number.
    Timestamp,
}

impl Service {
    /// The index of `operation`'s input shape, if the model has the operation and it has an input.
    pub(crate) fn input(&self, operation: &str) -> Option<usize> {
        let i = self
            .operations
            .binary_search_by(|(name, _)| (*name).cmp(operation))
            .ok()?;
        self.operations[i].1
    }
}

/// The model and the operation's name within it, for an operation as [`super::call_in`] takes it
/// (`PutItem`, or `DynamoDBStreams_20120810.GetRecords`).
fn service_of(operation: &str) -> (&'static Service, &str) {
    match operation.strip_prefix(STREAMS_TARGET_PREFIX) {
        Some(streams) => (&generated::DYNAMODB_STREAMS, streams),
        None => (&generated::DYNAMODB, operation),
    }
}

/// Checks `request` against `operation`'s input shape: `Ok` when it satisfies every member constraint
/// (or has a member of the wrong JSON type, which its decoder reports), else the
/// `ValidationException` listing the violations.
pub(crate) fn check(operation: &str, request: &Map<String, Value>) -> WireResult<()> {
    let (service, name) = service_of(operation);
    let Some(input) = service.input(name) else {
        return Ok(());
    };
    walk::check(service, name, input, request)
}

/// Whether the skeleton of a request that `wire::fast` decoded in one pass passes [`check`] without a
/// type error or a broken constraint (its markers stand for attribute values checked already).
pub(crate) fn passes_decoded(operation: &str, skeleton: &Map<String, Value>) -> bool {
    let (service, name) = service_of(operation);
    match service.input(name) {
        Some(input) => walk::passes_decoded(service, name, input, skeleton),
        None => true,
    }
}

/// The shapes of `operation`'s model and the index of its input shape, for `wire::fast`.
pub(crate) fn input_of(operation: &str) -> Option<(&'static Service, usize)> {
    let (service, name) = service_of(operation);
    service.input(name).map(|input| (service, input))
}

/// The model's name of the `ExpressionAttributeNames` shape, which `wire::fast` decodes and marks.
pub(crate) const NAME_MAP: &str = "ExpressionAttributeNameMap";

/// The model's name of PartiQL's `Parameters` shape, which `wire::fast` decodes and marks.
pub(crate) const PARAMETER_LIST: &str = "PreparedStatementParameters";

/// The model's names of the legacy parameters' shapes, which `wire::fast` decodes and marks.
pub(crate) const LEGACY_SHAPES: &[&str] = &[
    "ExpectedAttributeMap",
    "KeyConditions",
    "FilterConditionMap",
    "AttributeUpdates",
    "AttributeNameList",
];

/// Whether `key` breaks none of the constraints of the string shape `shape` (a map's key).
pub(crate) fn key_is_valid(service: &Service, shape: usize, key: &str) -> bool {
    match &service.shapes[shape].kind {
        Kind::String {
            length,
            pattern,
            values,
        } => walk::string_is_valid(key, *length, *pattern, values),
        _ => false,
    }
}
