//! Deterministic fault injection over any [`Backend`](crate::Backend): make requests fail on
//! purpose, exactly where a test says.
//!
//! A [`Rule`] matches requests by [`Operation`], table and key, fires on some of them (the n-th,
//! the next n, every one, or a seeded fraction), and answers a DynamoDB error ([`FaultError`])
//! before or after the write, returns part of a batch unprocessed ([`Portion`]), or adds latency.
//! Rules are armed and cleared while the backend runs through a [`FaultHandle`].
//!
//! Two backends carry one: [`FaultyBackend`] wraps any backend (so the same rules run over
//! [`AwsBackend`](crate::AwsBackend) against DynamoDB Local or Amazon DynamoDB), and the in-memory
//! engine of `dynomodel-mem` checks them itself (`MemBackend::faults()`, its builder's `.faults(…)`
//! and its server's `/_dynomodel/faults` endpoint), with the same rules and the same code.
//!
//! Rules apply around the backend, never inside it: a request is either refused whole (`before`),
//! carried out whole and then answered with an error (`after`), or, for a batch, split into a part
//! sent and a part returned unprocessed. No fault leaves a half-applied request. Over a remote
//! backend, `after` means the backend answered success, and that answer is replaced by the error;
//! when the backend itself fails, its own error is answered.
//!
//! With no rule armed a request pays one atomic load.
//!
//! ```
//! use dynomodel::faults::{FaultError, FaultyBackend, Operation, Rule};
//! use dynomodel::{Db, Model};
//!
//! #[derive(Model, Debug, Clone, PartialEq)]
//! #[dynomodel(table = "tweets")]
//! struct Tweet { #[hash_key] id: String, text: String }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
//! let backend = FaultyBackend::new(dynomodel_mem::MemBackend::new());
//! let faults = backend.faults().clone();
//! let db = Db::new(backend);
//! db.create_schema::<Tweet>().await?;
//!
//! // The 2nd PutItem on `tweets` times out after the item was written.
//! faults.add(
//!     Rule::on(Operation::PutItem).table("tweets").nth(2).fail(FaultError::InternalServerError).after(),
//! );
//! db.put(&Tweet { id: "1".into(), text: "first".into() }).await?;
//! let err = db.put(&Tweet { id: "2".into(), text: "second".into() }).await.unwrap_err();
//! assert_eq!(err.code(), "InternalServerError");
//! // The write happened although the call failed.
//! assert!(db.get::<Tweet>("2").await?.is_some());
//! # Ok::<(), dynomodel::Error>(())
//! # }).unwrap();
//! ```
//!
//! The same over DynamoDB Local (or Amazon DynamoDB) with feature `aws`: the error is answered by
//! the wrapper, after the service wrote the item.
//!
//! ```no_run
//! # #[cfg(feature = "aws")]
//! # async fn demo() -> dynomodel::Result<()> {
//! use dynomodel::faults::{FaultError, FaultyBackend, Operation, Rule};
//! use dynomodel::{AwsBackend, Db};
//!
//! let backend = FaultyBackend::new(AwsBackend::local("http://127.0.0.1:8000"));
//! backend.faults().add(Rule::on(Operation::PutItem).nth(2).fail(FaultError::InternalServerError).after());
//! let db = Db::new(backend);
//! # let _ = db;
//! # Ok(()) }
//! ```

mod batch;
mod describe;
mod error;
mod fault;
mod faulty;
mod handle;
mod rule;
mod target;
#[cfg(test)]
mod tests;

pub use fault::Fault;
pub use faulty::FaultyBackend;
pub use handle::{ArmedRule, FaultHandle, RuleId};
pub use rule::{FaultError, Operation, Portion, Rule, Timing};
pub use target::Request;

/// A set of rules to arm at once: [`FaultHandle::from`], [`FaultyBackend::with_faults`], or the
/// in-memory engine's builder (`MemBackend::builder().faults(…)`).
///
/// ```
/// use dynomodel::faults::{FaultHandle, Faults, Operation, Portion, Rule};
///
/// let faults = Faults::new().rule(Rule::on(Operation::BatchWriteItem).unprocessed(Portion::Half));
/// assert_eq!(FaultHandle::from(faults).len(), 1);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Faults {
    rules: Vec<Rule>,
}

impl Faults {
    /// No rules.
    pub fn new() -> Faults {
        Faults::default()
    }

    /// These rules and `rule`.
    pub fn rule(mut self, rule: Rule) -> Faults {
        self.rules.push(rule);
        self
    }
}

impl From<Rule> for Faults {
    fn from(rule: Rule) -> Faults {
        Faults { rules: vec![rule] }
    }
}

impl FromIterator<Rule> for Faults {
    fn from_iter<I: IntoIterator<Item = Rule>>(rules: I) -> Faults {
        Faults {
            rules: rules.into_iter().collect(),
        }
    }
}

impl IntoIterator for Faults {
    type Item = Rule;
    type IntoIter = std::vec::IntoIter<Rule>;

    fn into_iter(self) -> Self::IntoIter {
        self.rules.into_iter()
    }
}
