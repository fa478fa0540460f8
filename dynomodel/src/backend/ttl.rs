//! Time to Live: `UpdateTimeToLive` and `DescribeTimeToLive`.

/// TTL settings of a table: which attribute holds each item's expiry time (epoch seconds).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct TimeToLiveSpecification {
    /// Whether expiry is on.
    pub enabled: bool,
    /// The attribute holding the expiry time.
    pub attribute_name: String,
}

/// `UpdateTimeToLive`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UpdateTimeToLiveInput {
    /// The table's name.
    pub table_name: String,
    /// The new settings.
    pub time_to_live_specification: TimeToLiveSpecification,
}

/// `UpdateTimeToLive`'s response: the settings as requested.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UpdateTimeToLiveOutput {
    /// The settings.
    pub time_to_live_specification: TimeToLiveSpecification,
}

/// Where a table's TTL stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TimeToLiveStatus {
    /// Being turned on.
    Enabling,
    /// Being turned off.
    Disabling,
    /// On.
    Enabled,
    /// Off.
    Disabled,
}

impl TimeToLiveStatus {
    /// DynamoDB's name for it, e.g. `"ENABLED"`.
    pub fn as_str(self) -> &'static str {
        match self {
            TimeToLiveStatus::Enabling => "ENABLING",
            TimeToLiveStatus::Disabling => "DISABLING",
            TimeToLiveStatus::Enabled => "ENABLED",
            TimeToLiveStatus::Disabled => "DISABLED",
        }
    }
}

/// A table's TTL as described by DynamoDB.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeToLiveDescription {
    /// Where it stands.
    pub time_to_live_status: TimeToLiveStatus,
    /// The expiry attribute (absent while `DISABLED`).
    pub attribute_name: Option<String>,
}

/// `DescribeTimeToLive`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DescribeTimeToLiveInput {
    /// The table's name.
    pub table_name: String,
}

/// `DescribeTimeToLive`'s response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescribeTimeToLiveOutput {
    /// The table's TTL.
    pub time_to_live_description: TimeToLiveDescription,
}
