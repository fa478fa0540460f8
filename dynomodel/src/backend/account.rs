//! Account-level operations: `DescribeLimits` and `DescribeEndpoints`.

/// `DescribeLimits` (no parameters).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DescribeLimitsInput {}

/// `DescribeLimits`' response: the account's and each table's capacity quotas.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DescribeLimitsOutput {
    /// Read capacity the account's provisioned tables and indexes may hold in this region.
    pub account_max_read_capacity_units: i64,
    /// Write capacity the account's provisioned tables and indexes may hold in this region.
    pub account_max_write_capacity_units: i64,
    /// Read capacity one table (or one of its indexes) may hold.
    pub table_max_read_capacity_units: i64,
    /// Write capacity one table (or one of its indexes) may hold.
    pub table_max_write_capacity_units: i64,
}

/// `DescribeEndpoints` (no parameters).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DescribeEndpointsInput {}

/// One endpoint of the service.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// Host name (and port, for a local server).
    pub address: String,
    /// How long a client may cache it.
    pub cache_period_in_minutes: i64,
}

/// `DescribeEndpoints`' response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DescribeEndpointsOutput {
    /// The endpoints.
    pub endpoints: Vec<Endpoint>,
}
