//! The operations: each DynamoDB request's rules and effects over the storage layer, using the
//! expression language, validation, the read layer and metering. Single items ([`items`]), batches
//! ([`batch`]), transactions ([`transact`]), table creation ([`create`]) and changes
//! ([`update_table`]), Time to Live ([`ttl`]), tags ([`tags`]) and streams ([`streams`]).

pub(crate) mod batch;
pub(crate) mod create;
pub(crate) mod items;
pub(crate) mod streams;
pub(crate) mod tags;
pub(crate) mod transact;
pub(crate) mod ttl;
pub(crate) mod update_table;
