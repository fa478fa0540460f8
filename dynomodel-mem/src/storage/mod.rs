//! The engine's storage, its lowest layer: the catalog of tables ([`state`]), each table's schema
//! and items ([`table`], [`partition`], [`stored`]), its secondary indexes ([`index`]), item
//! collections ([`collection`]), key values and their order ([`key`], [`java_order`]), the table's
//! lifecycle ([`lifecycle`]: statuses and transitions), the locks ([`lock`]), the transactions'
//! `ClientRequestToken` store ([`tokens`]), the clock ([`clock`]), the engine's settings
//! ([`settings`]), and the consistency checker (`check.rs`: indexes and item counts rebuilt from
//! the items, which recovery's tests and the crash test assert), on-demand backups ([`backups`])
//! and point-in-time recovery's history of changes ([`pitr`]). It is meant to know nothing of the
//! layers built on it; `scripts/module-graph` lists the few imports that still run upward
//! (ARCHITECTURE.md says how they go).

pub(crate) mod backups;
mod check;
pub(crate) mod clock;
pub(crate) mod collection;
pub(crate) mod index;
pub(crate) mod java_order;
pub(crate) mod key;
pub(crate) mod lifecycle;
pub(crate) mod lock;
pub(crate) mod partition;
pub(crate) mod pitr;
pub(crate) mod settings;
pub(crate) mod state;
pub(crate) mod stored;
pub(crate) mod table;
pub(crate) mod tokens;
