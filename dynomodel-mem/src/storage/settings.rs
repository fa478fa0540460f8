//! The settings an engine keeps for its lifetime (its region and account, which make its ARNs, the
//! transition time of table changes, the limits it enforces), as the builder
//! ([`MemBackendBuilder`](crate::MemBackendBuilder)) gathered them, among them how provisioned
//! throughput is enforced ([`ThroughputEnforcement`]; the meter itself is `metering/throughput/`);
//! and the ARN parsing they need.

use std::time::Duration;

/// The settings an engine keeps for its lifetime.
#[derive(Debug, Clone)]
pub(crate) struct EngineConfig {
    /// The region in ARNs.
    pub region: String,
    /// The region was set ([`MemBackendBuilder::region`]): the engine is that region's alone. Without
    /// one, the engine answers every region (see [`EngineConfig::table_name_of`]) and its server
    /// names each client's own region in its answers.
    pub region_pinned: bool,
    /// The account id in ARNs.
    pub account: String,
    /// How long a table or index stays `CREATING`, `UPDATING` or `DELETING` (by the engine's clock).
    pub transition: Duration,
    /// The largest item collection (table items plus LSI entries of one partition key) of a table
    /// with local secondary indexes, in bytes.
    pub item_collection_size_limit: usize,
    /// Provisioned throughput enforcement (`None`: off, the default).
    pub throughput: Option<ThroughputEnforcement>,
    /// Eventual consistency on demand (`None`: off, the default: every read is strongly
    /// consistent).
    pub consistency: Option<std::sync::Arc<crate::storage::consistency::EventualConsistency>>,
}

impl Default for EngineConfig {
    /// DynamoDB Local's region and account (so ARNs compare equal in the dual-backend suite), and
    /// transitions that finish at once, as on DynamoDB Local.
    fn default() -> EngineConfig {
        EngineConfig {
            region: "ddblocal".into(),
            region_pinned: false,
            account: "000000000000".into(),
            transition: Duration::ZERO,
            item_collection_size_limit: crate::storage::collection::DEFAULT_LIMIT,
            throughput: None,
            consistency: None,
        }
    }
}

impl EngineConfig {
    /// The ARN of table `name`: `arn:aws:dynamodb:<region>:<account>:table/<name>`.
    pub(crate) fn table_arn(&self, name: &str) -> String {
        format!(
            "arn:aws:dynamodb:{}:{}:table/{name}",
            self.region, self.account
        )
    }

    /// The table a request names: `name`, or the table of an ARN of this engine's account and region.
    /// `None` for an ARN of another account (or of something other than a table), which no table here
    /// can match, or of another region when the region is pinned. An engine without a region of its
    /// own is one database that answers every region (the server names each client's region in its
    /// answers, `protocol/region.rs`), so an ARN of any region names its table.
    pub(crate) fn table_name_of<'a>(&self, name: &'a str) -> Option<&'a str> {
        if !name.starts_with("arn:") {
            return Some(name);
        }
        let (region, account, resource) = split_arn(name)?;
        if account != self.account || !self.serves_region(region) {
            return None;
        }
        resource
            .strip_prefix("table/")
            .filter(|table| !table.is_empty() && !table.contains('/'))
    }

    /// Whether an ARN of `region` may name this engine's resources: any region unless pinned.
    pub(crate) fn serves_region(&self, region: &str) -> bool {
        !self.region_pinned || region == self.region
    }

    /// `arn` (one of this engine's ARNs, as a client sends it back) with the engine's own region in
    /// it, as the engine stores its ARNs: a client of an engine without a region of its own holds ARNs
    /// that name its region. Any other string is returned as it is.
    pub(crate) fn own_arn<'a>(&self, arn: &'a str) -> std::borrow::Cow<'a, str> {
        match split_arn(arn) {
            Some((region, account, resource))
                if region != self.region && self.serves_region(region) =>
            {
                format!("arn:aws:dynamodb:{}:{account}:{resource}", self.region).into()
            }
            _ => arn.into(),
        }
    }
}

/// How provisioned throughput is enforced (see [`MemBackendBuilder::throughput_enforcement`]).
///
/// ```
/// use std::time::Duration;
/// use dynomodel_mem::ThroughputEnforcement;
///
/// let strict = ThroughputEnforcement::default()
///     .burst_window(Duration::ZERO)
///     .initial_credit(Duration::from_secs(1));
/// assert_eq!(ThroughputEnforcement::default().burst(), Duration::from_secs(300));
/// # let _ = strict;
/// ```
///
/// [`MemBackendBuilder::throughput_enforcement`]: crate::MemBackendBuilder::throughput_enforcement
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThroughputEnforcement {
    burst: Duration,
    initial: Duration,
}

impl Default for ThroughputEnforcement {
    /// DynamoDB's five-minute burst; a new bucket holds one second of capacity.
    fn default() -> ThroughputEnforcement {
        ThroughputEnforcement {
            burst: Duration::from_secs(300),
            initial: Duration::from_secs(1),
        }
    }
}

impl ThroughputEnforcement {
    /// How many seconds of unused capacity a bucket keeps (default: 300, DynamoDB's burst capacity).
    /// A window shorter than a second still lets a bucket refill to one second of capacity, or no
    /// request of a full second's units could ever pass.
    pub fn burst_window(mut self, window: Duration) -> Self {
        self.burst = window;
        self
    }

    /// How many seconds of capacity a new bucket starts with (default: one; at most the burst
    /// window).
    pub fn initial_credit(mut self, credit: Duration) -> Self {
        self.initial = credit;
        self
    }

    /// The burst window.
    pub fn burst(&self) -> Duration {
        self.burst
    }

    /// The initial credit.
    pub fn initial(&self) -> Duration {
        self.initial
    }

    /// The most a bucket of `rate` units per second holds.
    pub(crate) fn cap(&self, rate: f64) -> f64 {
        rate * self.burst.as_secs_f64().max(1.0)
    }

    /// What a new bucket of `rate` units per second holds.
    pub(crate) fn start(&self, rate: f64) -> f64 {
        (rate * self.initial.as_secs_f64()).min(self.cap(rate))
    }
}

/// The region, account and resource (`table/NAME…`) of a DynamoDB ARN.
pub(crate) fn split_arn(arn: &str) -> Option<(&str, &str, &str)> {
    let rest = arn.strip_prefix("arn:aws:dynamodb:")?;
    let (region, rest) = rest.split_once(':')?;
    let (account, resource) = rest.split_once(':')?;
    Some((region, account, resource))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arns_name_tables_of_this_account_only() {
        let config = EngineConfig::default();
        assert_eq!(config.table_name_of("users"), Some("users"));
        let arn = config.table_arn("users");
        assert_eq!(arn, "arn:aws:dynamodb:ddblocal:000000000000:table/users");
        assert_eq!(config.table_name_of(&arn), Some("users"));
        // No region of its own: every region's ARN names the table.
        assert_eq!(
            config.table_name_of("arn:aws:dynamodb:us-east-1:000000000000:table/users"),
            Some("users")
        );
        for other in [
            "arn:aws:dynamodb:us-east-1:123456789012:table/users",
            "arn:aws:dynamodb:ddblocal:000000000000:table/users/index/gsi",
            "arn:aws:dynamodb:ddblocal:000000000000:table/",
            "arn:aws:s3:::bucket",
        ] {
            assert_eq!(config.table_name_of(other), None, "{other}");
        }
    }

    #[test]
    fn a_pinned_region_is_the_only_one() {
        let mine = EngineConfig {
            region: "eu-west-1".into(),
            region_pinned: true,
            account: "123456789012".into(),
            ..EngineConfig::default()
        };
        let arn = "arn:aws:dynamodb:eu-west-1:123456789012:table/t1";
        assert_eq!(mine.table_name_of(arn), Some("t1"));
        let elsewhere = "arn:aws:dynamodb:us-east-1:123456789012:table/t1";
        assert_eq!(mine.table_name_of(elsewhere), None);
        assert_eq!(mine.own_arn(elsewhere), elsewhere);
    }

    #[test]
    fn arns_a_client_holds_map_to_the_engine_s_own() {
        let config = EngineConfig::default();
        let held = "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/2026-01-01T00:00:00.000";
        assert_eq!(
            config.own_arn(held),
            "arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/2026-01-01T00:00:00.000"
        );
        let own = config.table_arn("t");
        assert_eq!(config.own_arn(&own), own);
        assert_eq!(config.own_arn("garbage"), "garbage");
    }
}
