//! DynamoDB Streams' API: `ListStreams`, `DescribeStream`, `GetShardIterator`, `GetRecords`
//! ([`api`]) and the shard iterators they hand out ([`iterator`]), on the streams the tables record
//! (their data, shards and records, is the storage's: [`crate::storage::stream`]).

pub(crate) mod api;
pub(crate) mod iterator;
#[cfg(test)]
mod tests;

use chrono::TimeDelta;

/// How long a shard iterator can be used ("A shard iterator expires 15 minutes after it is retrieved
/// using the GetShardIterator action", the API reference's `ExpiredIteratorException`).
pub(crate) const ITERATOR_LIFETIME: TimeDelta = TimeDelta::minutes(15);
