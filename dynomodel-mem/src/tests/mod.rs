//! Backend-level tests: each operation through the `Backend` trait, as users call it.
//!
//! KNOWN-DIFFERENCES from Amazon DynamoDB Local 3.3 (the engine follows real DynamoDB; the dual-backend
//! suite must expect these to differ):
//! - Table name too short/long: real "TableName must be at least 3 characters long and at most 255
//!   characters long" (GetItem, Query, Scan, DescribeTable, DeleteTable); bad characters: real "1
//!   validation error detected: Value 'ab;c' at 'tableName' failed to satisfy constraint: Member must
//!   satisfy regular expression pattern: [a-zA-Z0-9_.-]+". CreateTable and the item writes answer the
//!   model's constraints alone instead (`request_wording.rs`, recorded on the service). Local: "Invalid
//!   table/index name.  Table/index names must be between 3 and 255 characters long, and may contain
//!   only the characters a-z, A-Z, 0-9, '_', '-', and '.'" (two spaces) for all of them.
//! - Missing table: real "Requested resource not found" (item operations) and "Requested resource not
//!   found: Table: NAME not found" (DescribeTable/DeleteTable). Local: "Cannot do operations on a
//!   non-existent table".
//! - Existing table: real "Table already exists: NAME"; Local "Cannot create preexisting table".
//! - DeleteTable's description: real TableStatus DELETING and only name, ARN, id, throughput, billing
//!   summary, size and count (recorded on the service); Local ACTIVE and the whole description.
//! - CreateTable with PAY_PER_REQUEST and ProvisionedThroughput: real rejects ("One or more parameter
//!   values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when
//!   BillingMode is PAY_PER_REQUEST"); Local accepts.
//! - CreateTable messages: real "One or more parameter values were invalid: ReadCapacityUnits and
//!   WriteCapacityUnits must both be specified when BillingMode is PROVISIONED" (Local "No provisioned
//!   throughput specified for the table"); "... Number of attributes in KeySchema does not exactly match
//!   number of attributes defined in AttributeDefinitions" (Local "The number of attributes in key schema
//!   must match the number of attributes defined in attribute definitions."); "Invalid KeySchema: The
//!   first KeySchemaElement is not a HASH key type" (Local "No Hash Key specified in schema.  All Dynamo
//!   DB tables must have exactly one hash key"); "Invalid KeySchema: The second KeySchemaElement is not a
//!   RANGE key type" (Local "Too many hash keys specified.  ..."); "Both the Hash Key and the Range Key
//!   element in the KeySchema have the same name" (Local "Two keys can not have the same name");
//!   "Attribute Name is duplicated: pk" (Local "Cannot have two attributes with the same name"); "... Some
//!   index key attributes are not defined in AttributeDefinitions. Keys: [pk], AttributeDefinitions: [x]"
//!   (Local "Hash Key not specified in Attribute Definitions.  Type unknown."); smithy "Value '0' at
//!   'provisionedThroughput.readCapacityUnits' ..." (Local "Table read and write throughput must be at
//!   least 1, and cannot be null"); "Given value N for ReadCapacityUnits is out of bounds" (Local "Cannot
//!   increase provisioned throughput to more than 40,000 units per table"); "1 validation error detected:
//!   Value '[]' at 'keySchema' ..." (Local "No defined key schema. ...").
//! - ListTables Limit: real smithy "1 validation error detected: Value '0' at 'limit' failed to satisfy
//!   constraint: Member must have value greater than or equal to 1" (and "less than or equal to 100");
//!   Local "Limit must be greater than or equal to 1" / "Limit in ListTables must be <= 100".
//! - PutItem missing key: real "One or more parameter values were invalid: Missing the key pk in the
//!   item"; Local "One of the required keys was not given a value".
//! - PutItem type mismatch: real "... Type mismatch for key pk expected: S actual: N"; Local stops after
//!   "Type mismatch for key".
//! - GetItem/DeleteItem wrong key: real "The provided key element does not match the schema" for a wrong
//!   count, name or type; Local "The number of conditions on the keys is invalid", "One of the required
//!   keys was not given a value", "One or more parameter values were invalid: Type mismatch for key".
//! - Key too large: real "One or more parameter values were invalid: Size of hashkey has exceeded the
//!   maximum size limit of2048 bytes" (sic) and "... Aggregated size of all range keys has exceeded the
//!   size limit of 1024 bytes"; Local "Hash primary key values must be under 2048 bytes, and range
//!   primary key values must be under 1024 bytes".
//! - Duplicate SS: real ends with "contains duplicates." (period); Local has no period.
//! - Order: real DynamoDB validates the request (attribute values, ReturnValues, item size) before it
//!   looks the table up; Local reports ResourceNotFoundException first.
//! - Index keys in PutItem: real "... Type mismatch for Index Key g Expected: S Actual: N IndexName:
//!   by-g" (Local stops after "Type mismatch for Index Key"); an index key over 2048/1024 bytes gets the
//!   table-key size messages (Local "One or more parameter values were invalid: Size limit exceeded").
//! - CreateTable, PAY_PER_REQUEST with a GSI ProvisionedThroughput: real rejects ("... ProvisionedThroughput
//!   should not be specified for index: by-g when BillingMode is PAY_PER_REQUEST"); Local accepts.
//!   PROVISIONED without GSI throughput: real "... ProvisionedThroughput is not specified for index:
//!   by-g"; Local "No provisioned throughput specified for the global secondary index".
//! - CreateTable with indexes and an unused attribute definition: real "... Some AttributeDefinitions are
//!   not used. AttributeDefinitions: [..], keys used: [..]"; Local "The number of attributes in key
//!   schema must match ...".
//! - DescribeTable: the engine reports a TableId (real DynamoDB does; Local omits it) and, for an
//!   on-demand table, GSI ProvisionedThroughput 0/0 (real; Local omits it).
//! - UpdateItem UPDATED_OLD/UPDATED_NEW with nested paths: real returns only the updated paths as
//!   partial documents (dynalite's recorded "should update nested attributes": `SET b.c = …, b.a = …,
//!   c[1] = …` gives `{b: {M: {a, c}}, c: {L: [c[1], c[2], c[4]]}}`); Local 3.3 returns the whole
//!   top-level attributes. UPDATED_NEW projects the paths as written from the new item: an append
//!   past a list's end (`SET a.c[100] = :v`) returns nothing, `REMOVE a.c[1]` returns the element
//!   that moved into index 1 (recorded on the service; Local agrees on the first).
//! - Expression requests on a missing table: real validates the placeholders and expressions first
//!   (ValidationException); Local answers "Cannot do operations on a non-existent table" first.
//! - Duplicate SS in ExpressionAttributeValues: real "ExpressionAttributeValues contains invalid value:
//!   One or more parameter values were invalid: Input collection [x, x] contains duplicates. for key
//!   :v" (dynalite's recording, period included); Local has no period.
//! - UpdateItem writing a mistyped index key: a value from the request (`SET g = :v`, AttributeUpdates
//!   PUT/ADD) is "One or more parameter values were invalid: Type mismatch for Index Key g Expected: S
//!   Actual: N IndexName: by-g" (recorded on the service), a value copied from another attribute (`SET g = e`)
//!   "The update expression attempted to update the secondary index key to unsupported type"
//!   (dynalite's recording); Local says "One or more parameter values were invalid: Type mismatch for
//!   Index Key" for both.
//! - A key value that can never be a key (BOOL, NULL, a list, a map, a set): real words it as any
//!   other type mismatch (recorded on the service); Local says "Invalid attribute value type".
//! - UpdateItem of a missing item that only removes (REMOVE, DELETE, AttributeUpdates DELETE): real
//!   writes nothing (recorded on the service); Local creates the key-only item.
//! - A value nested deeper than 32 levels in ExpressionAttributeValues: accepted as a value and
//!   rejected by the write that would store it, "Nesting Levels have exceeded supported limits", as on
//!   Local (real behaviour is unrecorded); beyond 128 levels the engine rejects the map itself, so
//!   nothing recursive walks an unbounded value.

mod batch;
mod capacity;
mod capacity_multi;
mod conditions;
mod consistency;
mod expression_depth;
mod fork;
mod indexes;
mod items;
mod linear_costs;
mod locking;
mod map_cap;
mod nesting;
mod query;
mod request_wording;
mod requests;
mod scan;
mod shims;
mod substitution_cap;
mod table_status;
mod tables;
mod transactions;
mod update_table;
mod updates;
mod written_puts;

use std::borrow::Cow;

use dynomodel::backend::{
    AttributeDefinition, Backend, BillingMode, CreateTableInput, DescribeStreamInput,
    GetRecordsInput, GetShardIteratorInput, ItemSink, KeySchemaElement, Record,
    ScalarAttributeType, ShardIteratorType,
};
use dynomodel::{AttributeValue, Error, Item};

use crate::MemBackend;

/// Collects the items a typed read hands over, as `Item`s.
#[derive(Default)]
pub(crate) struct Collect(pub(crate) Vec<Item>);

impl ItemSink for Collect {
    fn item(&mut self, attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>) {
        self.0
            .push(attributes.map(|(n, v)| (n.into_owned(), v)).collect());
    }
}

/// The prefix of most semantic validation messages.
pub(crate) const INVALID: &str = "One or more parameter values were invalid: ";

/// Real DynamoDB's text for a key that does not match the key schema.
pub(crate) const MISMATCH: &str = "The provided key element does not match the schema";

/// The message for an empty string in the table key attribute `name`.
pub(crate) fn empty_key(name: &str) -> String {
    format!(
        "One or more parameter values are not valid. The AttributeValue for a key attribute cannot \
         contain an empty string value. Key: {name}"
    )
}

pub(crate) fn def(name: &str, ty: ScalarAttributeType) -> AttributeDefinition {
    AttributeDefinition {
        attribute_name: name.into(),
        attribute_type: ty,
    }
}

/// A valid on-demand table definition with a hash key `pk` and optionally a range key `sk`.
pub(crate) fn table_input(
    name: &str,
    pk: ScalarAttributeType,
    sk: Option<ScalarAttributeType>,
) -> CreateTableInput {
    let mut attribute_definitions = vec![def("pk", pk)];
    let mut key_schema = vec![KeySchemaElement::hash("pk")];
    if let Some(sk) = sk {
        attribute_definitions.push(def("sk", sk));
        key_schema.push(KeySchemaElement::range("sk"));
    }
    CreateTableInput {
        table_name: name.into(),
        attribute_definitions,
        key_schema,
        billing_mode: Some(BillingMode::PayPerRequest),
        ..Default::default()
    }
}

pub(crate) async fn backend_with(input: CreateTableInput) -> MemBackend {
    let backend = MemBackend::new();
    backend.create_table(input).await.expect("create table");
    backend
}

/// Runs a transaction of `actions`, its output dropped (the caps' tests ask only whether it passes).
pub(crate) async fn transact(
    b: &MemBackend,
    actions: Vec<dynomodel::backend::TransactWriteItem>,
) -> Result<(), Error> {
    b.transact_write_items(dynomodel::backend::TransactWriteItemsInput {
        transact_items: actions,
        ..Default::default()
    })
    .await
    .map(|_| ())
}

/// Every record of the stream `stream_arn`, every shard read from its trim horizon to its end.
pub(crate) async fn stream_records(b: &MemBackend, stream_arn: &str) -> Vec<Record> {
    let shards = b
        .describe_stream(DescribeStreamInput {
            stream_arn: stream_arn.to_owned(),
            ..Default::default()
        })
        .await
        .expect("describe stream")
        .stream_description
        .shards;
    let mut out = Vec::new();
    for shard in shards {
        let mut iterator = b
            .get_shard_iterator(GetShardIteratorInput {
                stream_arn: stream_arn.to_owned(),
                shard_id: shard.shard_id,
                shard_iterator_type: ShardIteratorType::TrimHorizon,
                sequence_number: None,
            })
            .await
            .expect("iterator")
            .shard_iterator;
        while let Some(it) = iterator {
            let page = b
                .get_records(GetRecordsInput {
                    shard_iterator: it,
                    limit: None,
                })
                .await
                .expect("records");
            if page.records.is_empty() {
                break;
            }
            out.extend(page.records);
            iterator = page.next_shard_iterator;
        }
    }
    out
}

pub(crate) fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.into())
}

pub(crate) fn n(v: &str) -> AttributeValue {
    AttributeValue::N(v.parse().expect("number"))
}

pub(crate) fn item(attrs: &[(&str, AttributeValue)]) -> Item {
    attrs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

/// Asserts a ValidationException with exactly this message.
#[track_caller]
pub(crate) fn assert_validation<T: std::fmt::Debug>(r: Result<T, Error>, message: &str) {
    match r {
        Err(Error::Validation { message: m }) => assert_eq!(m, message),
        other => panic!("expected ValidationException({message}), got {other:?}"),
    }
}

/// Asserts the answer to more than 100 transaction actions: the list echoed in Java's `toString` form,
/// starting with `first` (see `transact/render.rs`).
pub(crate) fn assert_too_many<T: std::fmt::Debug>(r: Result<T, Error>, first: &str) {
    match r {
        Err(Error::Validation { message }) => assert!(
            message.starts_with(&format!("1 validation error detected: Value '{first}"))
                && message.ends_with(
                    "]' at 'transactItems' failed to satisfy constraint: Member must have length \
                     less than or equal to 100"
                ),
            "{message}"
        ),
        other => panic!("expected the too-many-actions ValidationException, got {other:?}"),
    }
}

/// `ExpressionAttributeNames` from pairs.
pub(crate) fn names(pairs: &[(&str, &str)]) -> Option<std::collections::BTreeMap<String, String>> {
    Some(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
    )
}

/// `ExpressionAttributeValues` from pairs.
pub(crate) fn values(pairs: &[(&str, AttributeValue)]) -> Option<Item> {
    Some(item(pairs))
}

/// A string set.
pub(crate) fn ss(v: &[&str]) -> AttributeValue {
    AttributeValue::Ss(v.iter().map(|s| (*s).to_owned()).collect())
}

/// A number set.
pub(crate) fn ns(v: &[&str]) -> AttributeValue {
    AttributeValue::Ns(v.iter().map(|s| s.parse().expect("number")).collect())
}

/// Asserts a ConditionalCheckFailedException carrying `item`.
#[track_caller]
pub(crate) fn assert_condition_failed<T: std::fmt::Debug>(r: Result<T, Error>, item: Option<Item>) {
    match r {
        Err(Error::ConditionalCheckFailed { message, item: got }) => {
            assert_eq!(message, "The conditional request failed");
            assert_eq!(got, item);
        }
        other => panic!("expected ConditionalCheckFailedException, got {other:?}"),
    }
}
