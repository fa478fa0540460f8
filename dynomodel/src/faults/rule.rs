//! What a fault rule says: which requests it matches ([`Operation`], table, key), when it fires
//! ([`Rule::nth`], [`Rule::times`], [`Rule::every`], [`Rule::probability`]), and what it does
//! ([`FaultError`], [`Portion`] unprocessed, latency), before or after the write.

use std::time::Duration;

use crate::value::{AttributeValue, Item};

/// A data-plane operation a [`Rule`] can match. Control-plane operations (CreateTable,
/// DescribeTable, …) and the Streams API are never faulted: tests fail the data path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operation {
    /// `PutItem`.
    PutItem,
    /// `GetItem`.
    GetItem,
    /// `UpdateItem`.
    UpdateItem,
    /// `DeleteItem`.
    DeleteItem,
    /// `Query`.
    Query,
    /// `Scan`.
    Scan,
    /// `BatchGetItem`.
    BatchGetItem,
    /// `BatchWriteItem`.
    BatchWriteItem,
    /// `TransactGetItems`.
    TransactGetItems,
    /// `TransactWriteItems`.
    TransactWriteItems,
}

impl Operation {
    /// Every operation a rule can match.
    pub const ALL: [Operation; 10] = [
        Operation::PutItem,
        Operation::GetItem,
        Operation::UpdateItem,
        Operation::DeleteItem,
        Operation::Query,
        Operation::Scan,
        Operation::BatchGetItem,
        Operation::BatchWriteItem,
        Operation::TransactGetItems,
        Operation::TransactWriteItems,
    ];

    /// Whether the operation only reads (a fault on it can only come before: there is no write to
    /// come after).
    pub fn is_read(self) -> bool {
        matches!(
            self,
            Operation::GetItem
                | Operation::Query
                | Operation::Scan
                | Operation::BatchGetItem
                | Operation::TransactGetItems
        )
    }

    /// The operation's name in DynamoDB's API, e.g. `"PutItem"`.
    pub fn name(self) -> &'static str {
        match self {
            Operation::PutItem => "PutItem",
            Operation::GetItem => "GetItem",
            Operation::UpdateItem => "UpdateItem",
            Operation::DeleteItem => "DeleteItem",
            Operation::Query => "Query",
            Operation::Scan => "Scan",
            Operation::BatchGetItem => "BatchGetItem",
            Operation::BatchWriteItem => "BatchWriteItem",
            Operation::TransactGetItems => "TransactGetItems",
            Operation::TransactWriteItems => "TransactWriteItems",
        }
    }

    /// The operation named `name` in DynamoDB's API.
    pub fn from_name(name: &str) -> Option<Operation> {
        Operation::ALL.into_iter().find(|op| op.name() == name)
    }
}

/// The error a firing rule answers, as DynamoDB answers it (code and message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FaultError {
    /// `ProvisionedThroughputExceededException` with the service's table message.
    ProvisionedThroughputExceeded,
    /// `ThrottlingException`, "Rate of requests exceeds the allowed throughput.".
    Throttling,
    /// `RequestLimitExceeded` (the account's throughput limit).
    RequestLimitExceeded,
    /// `InternalServerError` (HTTP 500 on the server): the one a client must treat as "maybe done".
    InternalServerError,
    /// A transaction conflict: on a transaction, `TransactionCanceledException` with the reason
    /// `TransactionConflict` at the first matching action and `None` at the others; on any other
    /// operation `TransactionConflictException` (the item is in a transaction in progress).
    TransactionConflict,
    /// A failed condition: `ConditionalCheckFailedException`, or on a transaction a
    /// `TransactionCanceledException` with the reason `ConditionalCheckFailed` at the first
    /// matching action.
    ConditionalCheckFailed,
    /// Any error by code and message (`ThrottlingException`, `ValidationException`, …), mapped
    /// onto [`Error`](crate::Error)'s variants as the AWS backend maps the service's.
    Custom {
        /// DynamoDB's error type name.
        code: String,
        /// The message.
        message: String,
    },
}

/// How many of a batch's requests (writes of a `BatchWriteItem`, keys of a `BatchGetItem`) a
/// [`Rule::unprocessed`] rule returns unprocessed: the *last* ones, in table-name order then
/// request order, so that which ones is deterministic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Portion {
    /// Half, rounded down (so a request of one entry always makes progress).
    Half,
    /// This many (or all, when the request has fewer).
    Count(usize),
}

/// When a firing rule's error is answered relative to the write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Timing {
    /// Nothing is written; the error is answered (the default).
    #[default]
    Before,
    /// The request is carried out (all of it: a transaction commits, a batch writes), then the
    /// error is answered: the client cannot tell whether it happened, the classic timeout bug.
    /// On reads the same as `Before`. If the request itself fails, its own error is answered.
    After,
}

/// Which of its matching requests a rule fires on, counted from when it was added.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum When {
    Every,
    Nth(u64),
    Times(u64),
    Probability { ratio: f64, seed: u64 },
}

/// What a firing rule does.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Effect {
    Fail(FaultError),
    Unprocessed(Portion),
    Latency(Duration),
}

/// One fault rule: which requests it matches, on which of them it fires, and what it does.
///
/// Built from an operation filter ([`Rule::on`], [`Rule::reads`], [`Rule::writes`],
/// [`Rule::any`]), narrowed by [`table`](Rule::table) and [`key`](Rule::key), counted with
/// [`nth`](Rule::nth) / [`times`](Rule::times) / [`every`](Rule::every) (the default) /
/// [`probability`](Rule::probability), and given an effect: [`fail`](Rule::fail) (the default is
/// `ProvisionedThroughputExceededException`), [`unprocessed`](Rule::unprocessed) or
/// [`latency`](Rule::latency), answered [`before`](Rule::before) (the default) or
/// [`after`](Rule::after) the write.
///
/// ```
/// use std::time::Duration;
/// use dynomodel::AttributeValue;
/// use dynomodel::faults::{FaultError, Operation, Portion, Rule};
///
/// // The 3rd PutItem on `tweets` times out after it was written.
/// let r1 = Rule::on(Operation::PutItem).table("tweets").nth(3).fail(FaultError::InternalServerError).after();
/// // Every BatchWriteItem leaves half of its writes unprocessed.
/// let r2 = Rule::on(Operation::BatchWriteItem).unprocessed(Portion::Half);
/// // The next transaction touching account `a1` conflicts.
/// let r3 = Rule::on(Operation::TransactWriteItems)
///     .key([("id", AttributeValue::S("a1".into()))])
///     .times(1)
///     .fail(FaultError::TransactionConflict);
/// // 10% of reads are throttled, the same ones on every run.
/// let r4 = Rule::reads().probability(0.1, 7).fail(FaultError::Throttling);
/// // Every write takes 20 ms longer.
/// let r5 = Rule::writes().latency(Duration::from_millis(20));
/// # let _ = (r1, r2, r3, r4, r5);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// Empty: every operation.
    pub(super) operations: Vec<Operation>,
    pub(super) table: Option<String>,
    pub(super) key: Option<Item>,
    pub(super) when: When,
    pub(super) effect: Effect,
    pub(super) timing: Timing,
}

impl Rule {
    fn of(operations: Vec<Operation>) -> Rule {
        Rule {
            operations,
            table: None,
            key: None,
            when: When::Every,
            effect: Effect::Fail(FaultError::ProvisionedThroughputExceeded),
            timing: Timing::Before,
        }
    }

    /// A rule matching requests of `operation`.
    pub fn on(operation: Operation) -> Rule {
        Rule::of(vec![operation])
    }

    /// A rule matching requests of any of `operations`.
    pub fn on_any(operations: impl IntoIterator<Item = Operation>) -> Rule {
        Rule::of(operations.into_iter().collect())
    }

    /// A rule matching every data-plane request.
    pub fn any() -> Rule {
        Rule::of(Vec::new())
    }

    /// A rule matching the reads: GetItem, Query, Scan, BatchGetItem, TransactGetItems.
    pub fn reads() -> Rule {
        Rule::of(Operation::ALL.into_iter().filter(|o| o.is_read()).collect())
    }

    /// A rule matching the writes: PutItem, UpdateItem, DeleteItem, BatchWriteItem,
    /// TransactWriteItems.
    pub fn writes() -> Rule {
        Rule::of(
            Operation::ALL
                .into_iter()
                .filter(|o| !o.is_read())
                .collect(),
        )
    }

    /// Only requests on table `name` (for a batch or a transaction: naming it in any entry).
    pub fn table(mut self, name: impl Into<String>) -> Rule {
        self.table = Some(name.into());
        self
    }

    /// Only requests on the item with this key: every attribute given must be in the request's key
    /// (or, for a put, its item) with an equal value. A batch or transaction matches when any of
    /// its entries does; Query and Scan, which name no key, never match a rule with a key.
    /// Through the engine's HTTP server, a put whose item is past the 400 KB item limit is read
    /// only up to that point (the rest is checked, not built, and the put is refused for its
    /// size): a key attribute sent after it is not seen, and the rule does not match.
    pub fn key<K: Into<String>>(
        mut self,
        key: impl IntoIterator<Item = (K, AttributeValue)>,
    ) -> Rule {
        self.key = Some(key.into_iter().map(|(k, v)| (k.into(), v)).collect());
        self
    }

    /// Fires on every matching request (the default).
    pub fn every(mut self) -> Rule {
        self.when = When::Every;
        self
    }

    /// Fires on the `n`-th matching request only (1 for the first), counted from when the rule
    /// was added.
    pub fn nth(mut self, n: u64) -> Rule {
        self.when = When::Nth(n);
        self
    }

    /// Fires on the next `n` matching requests, then never again.
    pub fn times(mut self, n: u64) -> Rule {
        self.when = When::Times(n);
        self
    }

    /// Fires on each matching request with probability `ratio` (0 to 1), drawn from a generator
    /// seeded with `seed`: the same seed and the same sequence of requests fire on the same
    /// requests, run after run.
    pub fn probability(mut self, ratio: f64, seed: u64) -> Rule {
        self.when = When::Probability {
            ratio: if ratio.is_nan() {
                0.0
            } else {
                ratio.clamp(0.0, 1.0)
            },
            seed,
        };
        self
    }

    /// Answers `error` when it fires.
    pub fn fail(mut self, error: FaultError) -> Rule {
        self.effect = Effect::Fail(error);
        self
    }

    /// Returns `portion` of a BatchWriteItem's writes or a BatchGetItem's keys unprocessed (the
    /// others are carried out; the unprocessed ones are not). Other operations are left alone.
    pub fn unprocessed(mut self, portion: Portion) -> Rule {
        self.effect = Effect::Unprocessed(portion);
        self
    }

    /// Delays the request by `delay` (a Tokio sleep before the request is sent; never while
    /// holding a lock). Latency rules add up and combine with another rule's effect.
    pub fn latency(mut self, delay: Duration) -> Rule {
        self.effect = Effect::Latency(delay);
        self
    }

    /// Answers the error with nothing written (the default).
    pub fn before(mut self) -> Rule {
        self.timing = Timing::Before;
        self
    }

    /// Carries out the request, then answers the error (see [`Timing::After`]).
    pub fn after(mut self) -> Rule {
        self.timing = Timing::After;
        self
    }

    /// Sets the timing.
    pub fn timing(mut self, timing: Timing) -> Rule {
        self.timing = timing;
        self
    }
}
