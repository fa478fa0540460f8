//! Deterministic fault injection: make the engine fail on purpose, exactly where a test says.
//!
//! A [`Rule`] matches requests by [`Operation`], table and key, fires on some of them (the n-th,
//! the next n, every one, or a seeded fraction), and answers a DynamoDB error ([`FaultError`])
//! before or after the write, returns part of a batch unprocessed ([`Portion`]), or adds latency.
//! Rules are given when the engine is built ([`MemBackendBuilder::faults`]) or armed and cleared
//! while it runs through its [`FaultHandle`] ([`MemBackend::faults`]).
//!
//! Rules apply around the engine, never inside it: a request is either refused whole (`before`),
//! carried out whole and then answered with an error (`after`), or, for a batch, split into a part
//! carried out and a part returned unprocessed. No fault leaves a half-applied request.
//!
//! With no rule armed a request pays one atomic load.
//!
//! ```
//! use dynomodel::{Db, Model};
//! use dynomodel_mem::faults::{FaultError, Operation, Rule};
//! use dynomodel_mem::MemBackend;
//!
//! #[derive(Model, Debug, Clone, PartialEq)]
//! #[dynomodel(table = "tweets")]
//! struct Tweet { #[hash_key] id: String, text: String }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
//! let backend = MemBackend::new();
//! let db = Db::new(backend.clone());
//! db.create_schema::<Tweet>().await?;
//!
//! // The 2nd PutItem on `tweets` times out after the item was written.
//! backend.faults().add(
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
//! [`MemBackendBuilder::faults`]: crate::MemBackendBuilder::faults
//! [`MemBackend::faults`]: crate::MemBackend::faults

mod batch;
mod error;
mod rule;
mod target;
#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use dynomodel::{Error, Result};

pub(crate) use batch::{hold_back_keys, hold_back_writes};
pub use rule::{FaultError, Operation, Portion, Rule, Timing};
pub(crate) use target::Target;

use rule::{Effect, When};

/// A set of rules to build an engine with ([`MemBackendBuilder::faults`](crate::MemBackendBuilder::faults)).
///
/// ```
/// use dynomodel_mem::faults::{Faults, Operation, Portion, Rule};
/// use dynomodel_mem::MemBackend;
///
/// let backend = MemBackend::builder()
///     .faults(Faults::new().rule(Rule::on(Operation::BatchWriteItem).unprocessed(Portion::Half)))
///     .build();
/// assert_eq!(backend.faults().len(), 1);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Faults {
    pub(crate) rules: Vec<Rule>,
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

/// Which rule: returned by [`FaultHandle::add`], to remove it or ask how often it fired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuleId(pub u64);

/// The rules armed on an engine, shared by its clones: add and clear them while it runs.
///
/// Rules are evaluated in the order they were added; every matching rule counts the request (so
/// "the 3rd PutItem" means the 3rd whatever other rules did), latencies add up, and the first
/// firing rule with another effect decides the answer.
#[derive(Debug, Clone, Default)]
pub struct FaultHandle {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    /// Whether any rule is armed: the one check a request pays when none is.
    armed: AtomicBool,
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    next_id: u64,
    rules: Vec<Armed>,
}

/// A rule with its counters.
#[derive(Debug)]
struct Armed {
    id: RuleId,
    rule: Rule,
    /// Requests it matched.
    matched: u64,
    /// Requests it fired on.
    fired: u64,
    /// SplitMix64 state, for probabilistic rules.
    rng: u64,
}

impl FaultHandle {
    pub(crate) fn with(faults: Faults) -> FaultHandle {
        let handle = FaultHandle::default();
        for rule in faults.rules {
            handle.add(rule);
        }
        handle
    }

    fn state(&self) -> MutexGuard<'_, State> {
        // Counters only: a panic elsewhere cannot leave them inconsistent in a way that matters.
        self.inner
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Arms `rule` (after those already armed) and returns its id.
    pub fn add(&self, rule: Rule) -> RuleId {
        let mut state = self.state();
        state.next_id += 1;
        let id = RuleId(state.next_id);
        let rng = match rule.when {
            When::Probability { seed, .. } => seed,
            _ => 0,
        };
        state.rules.push(Armed {
            id,
            rule,
            matched: 0,
            fired: 0,
            rng,
        });
        self.inner.armed.store(true, Ordering::Release);
        id
    }

    /// Disarms rule `id`; whether it was armed.
    pub fn remove(&self, id: RuleId) -> bool {
        let mut state = self.state();
        let before = state.rules.len();
        state.rules.retain(|r| r.id != id);
        self.inner
            .armed
            .store(!state.rules.is_empty(), Ordering::Release);
        state.rules.len() != before
    }

    /// Disarms every rule.
    pub fn clear(&self) {
        let mut state = self.state();
        state.rules.clear();
        self.inner.armed.store(false, Ordering::Release);
    }

    /// How many rules are armed.
    pub fn len(&self) -> usize {
        self.state().rules.len()
    }

    /// Whether no rule is armed.
    pub fn is_empty(&self) -> bool {
        !self.inner.armed.load(Ordering::Acquire)
    }

    /// How many requests rule `id` fired on (0 for a rule not armed).
    pub fn fired(&self, id: RuleId) -> u64 {
        self.state()
            .rules
            .iter()
            .find(|r| r.id == id)
            .map_or(0, |r| r.fired)
    }

    /// What the armed rules do to one request of `operation`; `None` (after one atomic load) when
    /// no rule is armed or none fires. `target` is built only when rules are armed.
    pub(crate) fn check<'a>(
        &self,
        operation: Operation,
        target: impl FnOnce() -> Target<'a>,
    ) -> Option<Hit> {
        if !self.inner.armed.load(Ordering::Acquire) {
            return None;
        }
        let target = target();
        let mut state = self.state();
        let mut hit = Hit::default();
        let mut decided = false;
        for armed in &mut state.rules {
            let rule = &armed.rule;
            if !rule.operations.is_empty() && !rule.operations.contains(&operation) {
                continue;
            }
            let Some(at) = target.first_match(rule.table.as_deref(), rule.key.as_ref()) else {
                continue;
            };
            armed.matched += 1;
            let fires = match rule.when {
                When::Every => true,
                When::Nth(n) => armed.matched == n,
                When::Times(n) => armed.matched <= n,
                When::Probability { ratio, .. } => unit(splitmix64(&mut armed.rng)) < ratio,
            };
            if !fires {
                continue;
            }
            armed.fired += 1;
            match &rule.effect {
                Effect::Latency(delay) => hit.latency = hit.latency.saturating_add(*delay),
                _ if decided => {}
                Effect::Fail(fault) => {
                    decided = true;
                    hit.outcome = Some(Outcome::Fail {
                        error: error::render(fault, operation, at, target.len()),
                        after: rule.timing == Timing::After && !operation.is_read(),
                    });
                }
                Effect::Unprocessed(portion) => {
                    decided = true;
                    if matches!(
                        operation,
                        Operation::BatchGetItem | Operation::BatchWriteItem
                    ) {
                        hit.outcome = Some(Outcome::Unprocessed(*portion));
                    }
                }
            }
        }
        (hit.latency > Duration::ZERO || hit.outcome.is_some()).then_some(hit)
    }
}

/// What the firing rules do to one request.
#[derive(Debug, Default)]
pub(crate) struct Hit {
    latency: Duration,
    pub(crate) outcome: Option<Outcome>,
}

/// The effect that answers a request.
#[derive(Debug)]
pub(crate) enum Outcome {
    Fail { error: Error, after: bool },
    Unprocessed(Portion),
}

impl Hit {
    /// Waits out the latency (holding no lock), then runs `request` or answers the error, before
    /// or after it. An unprocessed outcome is the batch methods' to apply: here it runs `request`.
    ///
    /// Boxed: every request method of [`MemBackend`](crate::MemBackend) awaits this future on its
    /// fault path, so without the box each of their futures reserved room for it (a timer among
    /// other things) and grew past 1 KB, which glibc's allocator serves from its slow path,
    /// consolidating its free lists first: ~19,000 instructions per Query, the fault path taken or not.
    pub(crate) fn run<'r, T: Send + 'r>(
        self,
        request: impl FnOnce() -> Result<T> + Send + 'r,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<T>> + Send + 'r>> {
        Box::pin(async move {
            if !self.latency.is_zero() {
                tokio::time::sleep(self.latency).await;
            }
            match self.outcome {
                Some(Outcome::Fail {
                    error,
                    after: false,
                }) => Err(error),
                Some(Outcome::Fail { error, after: true }) => request().and(Err(error)),
                Some(Outcome::Unprocessed(_)) | None => request(),
            }
        })
    }

    /// The portion to return unprocessed, taking it out of the hit.
    pub(crate) fn take_unprocessed(&mut self) -> Option<Portion> {
        match self.outcome {
            Some(Outcome::Unprocessed(portion)) => {
                self.outcome = None;
                Some(portion)
            }
            _ => None,
        }
    }
}

/// SplitMix64's next value: a tiny, well-mixed generator, enough for "10% of requests".
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A draw in `[0, 1)` from 53 random bits.
fn unit(bits: u64) -> f64 {
    (bits >> 11) as f64 / (1u64 << 53) as f64
}
