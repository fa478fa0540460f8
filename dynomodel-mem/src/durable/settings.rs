//! Durable mode's settings: the sync policy and when to snapshot.

use std::fmt;
use std::time::Duration;

/// When a write's log record reaches the disk (see the [module docs](crate::durable) for what each
/// can lose).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SyncPolicy {
    /// Fsync every record before the write is acknowledged (the default).
    #[default]
    Always,
    /// Write every record before the write is acknowledged; fsync at this interval.
    Every(Duration),
}

impl std::str::FromStr for SyncPolicy {
    type Err = String;

    /// `always`, or an interval: `10ms`, `1s`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use dynomodel_mem::SyncPolicy;
    ///
    /// assert_eq!("always".parse(), Ok(SyncPolicy::Always));
    /// assert_eq!("10ms".parse(), Ok(SyncPolicy::Every(Duration::from_millis(10))));
    /// assert_eq!("2s".parse(), Ok(SyncPolicy::Every(Duration::from_secs(2))));
    /// assert!("sometimes".parse::<SyncPolicy>().is_err());
    /// ```
    fn from_str(s: &str) -> std::result::Result<SyncPolicy, String> {
        let bad = || {
            format!("invalid sync policy {s:?}: expected `always` or an interval such as `10ms` or `1s`")
        };
        if s == "always" {
            return Ok(SyncPolicy::Always);
        }
        let (digits, unit) = match s.strip_suffix("ms") {
            Some(d) => (d, 1),
            None => (s.strip_suffix('s').ok_or_else(bad)?, 1000),
        };
        let n: u64 = digits.parse().map_err(|_| bad())?;
        if n == 0 {
            return Err(bad());
        }
        Ok(SyncPolicy::Every(Duration::from_millis(
            n.saturating_mul(unit),
        )))
    }
}

impl fmt::Display for SyncPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyncPolicy::Always => f.write_str("always"),
            SyncPolicy::Every(d) => write!(f, "{}ms", d.as_millis()),
        }
    }
}

/// Durable mode's settings.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    /// When records reach the disk.
    pub sync: SyncPolicy,
    /// Log bytes after which a snapshot is taken in the background.
    pub compact_after: u64,
    /// Whether opening may cut a damaged log at its last good record (files kept aside).
    pub repair: bool,
    /// How often a degraded directory is probed for whether it can be written again.
    pub probe_interval: Duration,
    /// The file system (the operating system's; tests use one that fails on purpose).
    pub storage: std::sync::Arc<dyn super::storage::Storage>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            sync: SyncPolicy::Always,
            compact_after: 64 << 20,
            repair: false,
            probe_interval: Duration::from_secs(1),
            storage: std::sync::Arc::new(super::storage::OsStorage),
        }
    }
}
