//! Metering: the capacity a request consumed ([`capacity`]: read and write units, reported when the
//! request asks) and provisioned throughput that can bite ([`throughput`]: token buckets per table
//! and index, when enforcement is on). Reads and operations report to it; it knows neither.

pub(crate) mod capacity;
pub(crate) mod throughput;
