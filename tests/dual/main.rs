//! The dual-backend suite: every scenario runs on the in-memory engine and on Amazon DynamoDB Local.
//!
//! Run the DynamoDB Local half with
//! `scripts/dynamodb-local.sh run -- cargo test -p dynomodel-tests --test dual -- dynamodb_local`.
//!
//! Deviations of DynamoDB Local from the AWS documentation are marked `// KNOWN DIFFERENCE:` where they
//! are asserted, and listed in `deviations.md` next to this file.

#![allow(clippy::unwrap_used)]

#[allow(unused_imports)]
use dynomodel::ScalarAttributeType::{B, N, S};
use dynomodel::{AttributeValue, Item, Number};
#[allow(unused_imports)]
use dynomodel_tests::{dual_test, Dual, Target};

mod backfill;
mod backfill_plans;
mod backups;
mod batch;
mod borrowed_writes;
mod capacity;
mod cli;
mod codegen;
mod composite;
mod composite_local_indexes;
mod composite_projections;
mod composite_reply;
mod compressed;
mod conditions;
mod counters;
mod cursor_reads;
mod cursors;
mod enums;
mod expression_limits;
mod expressions_invalid;
mod faults;
mod indexes;
mod item_size;
mod item_versions;
mod items;
mod key_roles;
mod key_types;
mod keys;
mod legacy;
mod legacy_errors;
mod legacy_limits;
mod map_cap;
mod members;
mod migrate;
mod migrate_recovery;
mod migrate_waiting;
mod numbers_raw;
mod partiql;
mod partiql_caps;
mod partiql_errors;
mod partiql_multi;
mod projections;
mod query;
mod regions;
mod request_wording;
mod requests;
mod scan;
mod single_table;
mod streams;
mod streams_api;
mod streams_retention;
mod substitution_cap;
mod table_answers;
mod tables;
mod tags;
mod timestamps;
mod transactions;
mod ttl;
mod typed_reads;
mod typed_writes;
mod update_semantics;
mod update_table;
mod updates;
mod upserts;
mod validation;
mod values;

/// A number from its text (panics on invalid text: test data only).
fn num(text: &str) -> AttributeValue {
    AttributeValue::N(text.parse::<Number>().unwrap())
}

/// A string value.
fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.to_owned())
}

/// An item from name/value pairs.
fn item<const LEN: usize>(pairs: [(&str, AttributeValue); LEN]) -> Item {
    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}
