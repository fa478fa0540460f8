//! The operations: each DynamoDB request's rules and effects over the storage layer, using the
//! expression language, validation, the read layer and metering. Single items ([`items`]), batches
//! ([`batch`]), Query and Scan ([`query_scan`]), the legacy parameters each operation translates
//! into expressions ([`legacy`]: `Expected`, `AttributeUpdates`, `KeyConditions`, …),
//! transactions ([`transact`]), the table operations ([`tables`], with CreateTable's validation in
//! [`create`], and [`update_table`]), Time to Live ([`ttl`]), tags ([`tags`]) and streams
//! ([`streams`]), on-demand backups and point-in-time recovery ([`backups`]).

pub(crate) mod backups;
pub(crate) mod batch;
pub(crate) mod context;
pub(crate) mod create;
pub(crate) mod items;
pub(crate) mod legacy;
pub(crate) mod new_item;
pub(crate) mod query_scan;
pub(crate) mod streams;
pub(crate) mod tables;
pub(crate) mod tags;
pub(crate) mod transact;
pub(crate) mod ttl;
pub(crate) mod update_table;
