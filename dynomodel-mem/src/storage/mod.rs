//! The engine's storage, its lowest layer: the catalog of tables ([`state`]), each table's schema
//! ([`schema`]) and items ([`table`], [`partition`], [`stored`]), its secondary indexes ([`index`]),
//! item collections ([`collection`]), its Time to Live setting and expiry index ([`ttl`]), its
//! streams' shards and records and the engine's sequence numbers ([`stream`]), key values and their
//! order ([`key`], [`java_order`]), the table's lifecycle ([`lifecycle`]: statuses and transitions),
//! the locks ([`lock`]), the transactions' `ClientRequestToken` store ([`tokens`]), the clock
//! ([`clock`]), the engine's settings ([`settings`]), the write capture every change is reported to
//! ([`capture`]: durable mode's log implements it), and the consistency checker (`check.rs`: indexes
//! and item counts rebuilt from the items, which recovery's tests and the crash test assert),
//! on-demand backups ([`backups`]), point-in-time recovery's history of changes ([`pitr`]), and the
//! keyed hash tables of what a request sends ([`request_hash`]). It
//! knows nothing of the layers built on it (`scripts/module-graph` checks it).

pub(crate) mod backups;
pub(crate) mod capture;
mod check;
pub(crate) mod clock;
pub(crate) mod collection;
pub(crate) mod consistency;
pub(crate) mod index;
pub(crate) mod java_order;
pub(crate) mod key;
pub(crate) mod lifecycle;
pub(crate) mod lock;
pub(crate) mod partition;
pub(crate) mod pitr;
pub(crate) mod request_hash;
pub(crate) mod schema;
pub(crate) mod settings;
pub(crate) mod state;
pub(crate) mod stored;
pub(crate) mod stream;
pub(crate) mod table;
pub(crate) mod tokens;
pub(crate) mod ttl;
