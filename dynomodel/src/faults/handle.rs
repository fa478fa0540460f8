//! The armed rules, shared by the clones of a backend: arming, disarming, counting, and the one
//! check per request.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use super::error;
use super::fault::{Fault, Outcome};
use super::rule::{Effect, Operation, Rule, Timing, When};
use super::target::Request;
use super::Faults;

/// Which rule: returned by [`FaultHandle::add`], to remove it or ask how often it fired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuleId(pub u64);

/// An armed rule, as [`FaultHandle::armed`] lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct ArmedRule {
    /// Its id, to remove it.
    pub id: RuleId,
    /// The rule (its `Display` says it in words).
    pub rule: Rule,
    /// How many requests it fired on.
    pub fired: u64,
}

/// The rules armed on a backend, shared by its clones: add and clear them while it runs.
///
/// Rules are evaluated in the order they were added; every matching rule counts the request (so
/// "the 3rd PutItem" means the 3rd whatever other rules did), latencies add up, and the first
/// firing rule with another effect decides the answer.
///
/// ```
/// use dynomodel::faults::{FaultError, FaultHandle, Operation, Rule};
///
/// let faults = FaultHandle::default();
/// let id = faults.add(Rule::on(Operation::PutItem).times(1).fail(FaultError::Throttling));
/// assert_eq!((faults.len(), faults.fired(id)), (1, 0));
/// faults.clear();
/// assert!(faults.is_empty());
/// ```
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

impl From<Faults> for FaultHandle {
    /// A handle with `faults` armed, in order.
    fn from(faults: Faults) -> FaultHandle {
        let handle = FaultHandle::default();
        for rule in faults {
            handle.add(rule);
        }
        handle
    }
}

impl FaultHandle {
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

    /// Whether no rule is armed (one atomic load).
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

    /// The armed rules, in the order they are evaluated (for listings: the server's `GET
    /// /_dynomodel/faults`, its console).
    ///
    /// ```
    /// use dynomodel::faults::{FaultHandle, Operation, Rule};
    ///
    /// let faults = FaultHandle::default();
    /// let id = faults.add(Rule::on(Operation::Scan).times(1));
    /// let armed = faults.armed();
    /// assert_eq!((armed[0].id, armed[0].fired), (id, 0));
    /// assert_eq!(armed[0].rule, Rule::on(Operation::Scan).times(1));
    /// ```
    pub fn armed(&self) -> Vec<ArmedRule> {
        self.state()
            .rules
            .iter()
            .map(|r| ArmedRule {
                id: r.id,
                rule: r.rule.clone(),
                fired: r.fired,
            })
            .collect()
    }

    /// What the armed rules do to `request`: `None`, after one atomic load, when no rule is armed,
    /// and when none fires. Every matching rule counts the request.
    ///
    /// [`FaultyBackend`](super::FaultyBackend) calls it for each data-plane request; a backend
    /// that applies the rules itself (as the in-memory engine does, to keep its handle and a path
    /// without the wrapper's indirection) calls it too, and then [`Fault::apply`] or a batch's
    /// [`Fault::apply_batch_write`] / [`Fault::apply_batch_get`].
    ///
    /// ```
    /// use dynomodel::backend::PutItemInput;
    /// use dynomodel::faults::{FaultHandle, Request, Rule};
    ///
    /// let faults = FaultHandle::default();
    /// let input = PutItemInput { table_name: "t".into(), ..Default::default() };
    /// assert!(faults.check(Request::PutItem(&input)).is_none());
    /// faults.add(Rule::writes());
    /// assert!(faults.check(Request::PutItem(&input)).is_some());
    /// ```
    pub fn check(&self, request: Request<'_>) -> Option<Fault> {
        if !self.inner.armed.load(Ordering::Acquire) {
            return None;
        }
        let operation = request.operation();
        let target = request.target();
        let mut state = self.state();
        let mut fault = Fault::default();
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
                Effect::Latency(delay) => fault.latency = fault.latency.saturating_add(*delay),
                _ if decided => {}
                Effect::Fail(error) => {
                    decided = true;
                    fault.outcome = Some(Outcome::Fail {
                        error: error::render(error, operation, at, target.len()),
                        after: rule.timing == Timing::After && !operation.is_read(),
                    });
                }
                Effect::Unprocessed(portion) => {
                    decided = true;
                    if matches!(
                        operation,
                        Operation::BatchGetItem | Operation::BatchWriteItem
                    ) {
                        fault.outcome = Some(Outcome::Unprocessed(*portion));
                    }
                }
            }
        }
        (fault.latency > Duration::ZERO || fault.outcome.is_some()).then_some(fault)
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
