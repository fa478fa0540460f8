//! Unit tests of transactions and optimistic locking: the requests the builders render and how
//! answers (cancellations, failed conditions) are read, against the [`Recorder`] of the single-item
//! tests, which records requests and replies from a queue of canned answers.

mod lifecycle;
mod reads;
mod versions;
mod writes;

pub(crate) use crate::db::testing::{conditional_failure, item, n, names, s, Recorder, Request};
use crate::error::{CancellationReason, Error};
use crate::value::Item;
use crate::Model;

/// A versioned model (hash key only).
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "accounts")]
pub(crate) struct Account {
    #[hash_key]
    pub id: String,
    pub balance: i64,
    #[version]
    #[dynomodel(rename = "v")]
    pub version: u64,
}

/// An unversioned model with a range key.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "transfers")]
pub(crate) struct Transfer {
    #[hash_key]
    pub id: String,
    #[range_key]
    pub seq: u32,
    pub amount: i64,
}

/// A versioned model whose version is an `Option` of a small integer.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "tiny")]
pub(crate) struct Tiny {
    #[hash_key]
    pub id: String,
    #[version]
    pub version: Option<u8>,
}

pub(crate) fn account(id: &str, balance: i64, version: u64) -> Account {
    Account {
        id: id.into(),
        balance,
        version,
    }
}

/// The stored form of an account.
pub(crate) fn stored(id: &str, balance: i64, version: i64) -> Item {
    item(&[("id", s(id)), ("balance", n(balance)), ("v", n(version))])
}

/// The conflict of a [`Error::VersionConflict`].
pub(crate) fn conflict(error: &Error) -> Option<&crate::error::VersionConflict> {
    match error {
        Error::VersionConflict(conflict) => Some(conflict),
        _ => None,
    }
}

/// The (expected, stored) versions of a [`Error::VersionConflict`].
pub(crate) fn versions(error: &Error) -> Option<(Option<u64>, Option<u64>)> {
    conflict(error).map(|c| (c.expected, c.stored))
}

/// DynamoDB's cancellation with these reasons (the message lists their codes).
pub(crate) fn canceled(reasons: Vec<CancellationReason>) -> Error {
    let codes: Vec<&str> = reasons.iter().map(|r| r.code.as_str()).collect();
    Error::TransactionCanceled {
        message: format!(
            "Transaction cancelled, please refer cancellation reasons for specific reasons [{}]",
            codes.join(", ")
        ),
        reasons,
    }
}

/// A reason of a failed condition, with the item when given.
pub(crate) fn failed_condition(item: Option<Item>) -> CancellationReason {
    CancellationReason::new("ConditionalCheckFailed", "The conditional request failed")
        .with_item(item)
}
