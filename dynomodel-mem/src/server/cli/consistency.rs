//! `serve`'s eventual consistency flags: `--eventual-consistency` and the delays it models
//! ([`EventualConsistency`]).

use std::time::Duration;

use clap::Args;

use crate::EventualConsistency;

/// `--eventual-consistency`, `--gsi-delay`, `--stale-reads`, `--consistency-seed`.
#[derive(Debug, PartialEq, Default, Args)]
pub(super) struct ConsistencyOptions {
    /// Model DynamoDB's eventual consistency, deterministically on the engine's clock: a write
    /// reaches each global secondary index after --gsi-delay (a Query of the GSI right after it
    /// misses it or sees the old version), and reads without ConsistentRead (GetItem,
    /// BatchGetItem, Query, Scan of a table or LSI) see an item as it was before a write for
    /// --stale-reads after it. POST /_dynomodel/settle makes every pending change visible
    /// [default: off, every read strongly consistent, as DynamoDB Local]
    #[arg(long = "eventual-consistency")]
    pub(super) enabled: bool,
    /// With --eventual-consistency, how long a write takes to reach a GSI: SECONDS, or MIN..MAX
    /// for a delay drawn per write and index from --consistency-seed [default: 1]
    #[arg(long, value_name = "SECONDS|MIN..MAX", value_parser = parse_delay, requires = "enabled")]
    pub(super) gsi_delay: Option<(Duration, Duration)>,
    /// With --eventual-consistency, how long reads without ConsistentRead see an item as it was
    /// before a write; 0: never [default: 1]
    #[arg(long, value_name = "SECONDS", value_parser = super::options::parse_seconds, requires = "enabled")]
    pub(super) stale_reads: Option<Duration>,
    /// With --eventual-consistency, the seed the GSI delays are drawn from: the same writes in the
    /// same order get the same delays [default: 0]
    #[arg(long, value_name = "N", requires = "enabled")]
    pub(super) consistency_seed: Option<u64>,
}

impl ConsistencyOptions {
    /// The settings the flags describe; `None` without `--eventual-consistency`.
    pub(super) fn settings(&self) -> Option<EventualConsistency> {
        if !self.enabled {
            return None;
        }
        let mut settings = EventualConsistency::new();
        if let Some((min, max)) = self.gsi_delay {
            settings = settings.gsi_delay_between(min, max);
        }
        if let Some(window) = self.stale_reads {
            settings = settings.stale_reads(window);
        }
        if let Some(seed) = self.consistency_seed {
            settings = settings.seed(seed);
        }
        Some(settings)
    }
}

/// A GSI delay: `SECONDS` (fixed) or `MIN..MAX`.
fn parse_delay(text: &str) -> Result<(Duration, Duration), String> {
    let expected = || "expected SECONDS or MIN..MAX, e.g. 1 or 0.05..0.5".to_owned();
    let seconds = |s: &str| super::options::parse_seconds(s).map_err(|_| expected());
    match text.split_once("..") {
        None => seconds(text).map(|d| (d, d)),
        Some((min, max)) => {
            let (min, max) = (seconds(min)?, seconds(max)?);
            if min > max {
                return Err(format!("{text}: MIN is more than MAX"));
            }
            Ok((min, max))
        }
    }
}
