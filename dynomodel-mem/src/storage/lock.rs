//! Per-table locking: what lets requests on different tables run at once.
//!
//! # The locks
//!
//! 1. **The catalog lock**: `MemBackend`'s `RwLock<State>`. Its *read* side is held by every item
//!    request (GetItem … TransactWriteItems, Query, Scan, and PartiQL, which goes through them) for its
//!    whole run, and by the read-only table operations; it only keeps the set of tables (and their
//!    metadata) still. Its *write* side is taken by what changes or walks the whole engine:
//!    CreateTable, DeleteTable, UpdateTable, UpdateTimeToLive, the tag operations, ListStreams and
//!    the reads of a deleted table's stream (reading a stream trims it), the TTL sweep, seeding and
//!    recovery. Under it every table is reached
//!    through `RwLock::get_mut`, without taking the table's lock (no one else can hold it).
//! 2. **The table locks**: one `RwLock<Table>` per table, inside the catalog. An item request locks
//!    the tables it names ([`State::lock`]): for reading (GetItem, Query, Scan, BatchGetItem,
//!    TransactGetItems: readers of one table run in parallel) or for writing (the writes: a table's
//!    writes are serialised by its lock alone; and DescribeStream, GetShardIterator and GetRecords
//!    on a table's stream, which trim it).
//! 3. **Small engine-wide locks**, always innermost and never held while waiting for another lock:
//!    the transaction tokens' `Mutex`, the engine's services' (the expression cache's, the
//!    throughput buckets': `ops/context.rs`), and the durable log's; counters (stream sequence numbers) are atomics.
//!
//! # The order (why nothing deadlocks)
//!
//! Catalog, then tables in ascending name order (each request's set sorted and deduplicated before the
//! first lock is taken, table ARNs resolved to names first), then the small locks. A request takes
//! its whole set at once, before it runs, and never takes the catalog lock twice (a read lock taken
//! again behind a queued writer would wait forever). Two transactions naming A and B in opposite
//! orders both lock A first.
//!
//! # The invariants
//!
//! - A request is atomic and isolated as before: it holds every table it reads or writes, for writing
//!   if it writes any of them, from its first check to its last write. A TransactWriteItems therefore
//!   checks and writes with no other request in between on any of its tables, and no reader of any of
//!   them sees half of it (TransactGetItems holds all its tables' read locks together).
//! - A table found by name stays that table for the whole request: creating and deleting tables needs
//!   the catalog's write lock, which waits for every running request.
//! - Durable mode appends a request's log record before the request releases its table locks, so the
//!   log holds each table's writes in the order they were applied; records of requests on disjoint
//!   tables may interleave in either order, and they commute. A snapshot takes the catalog's read lock
//!   and then every table's read lock in the fixed order before it cuts the log
//!   ([`State::read_all`]), so it holds exactly the writes logged before the cut.

use std::sync::{MutexGuard, RwLock, RwLockReadGuard, RwLockWriteGuard};

use dynomodel::{Error, Result};

use crate::storage::clock::EngineClock;
use crate::storage::settings::EngineConfig;
use crate::storage::state::{missing_table, read, write, State};
use crate::storage::stream::Stream;
use crate::storage::table::Table;
use crate::storage::tokens::Tokens;

/// How an item request holds its tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Shared: the request only reads.
    Read,
    /// Exclusive: the request writes (and may read) them.
    Write,
}

/// One table's lock, held.
enum Held<'a> {
    Read(RwLockReadGuard<'a, Table>),
    Write(RwLockWriteGuard<'a, Table>),
}

/// The tables an item request holds, with the catalog's clock, settings and tokens beside them
/// (the operations run on them with the engine's services: `ops/context.rs`).
pub(crate) struct Locked<'a> {
    state: &'a State,
    /// Sorted by name (the order they were locked in).
    tables: Tables<'a>,
}

/// The tables held: most requests name one, which then costs no allocation.
enum Tables<'a> {
    One(Option<(&'a str, Held<'a>)>),
    Many(Vec<(&'a str, Held<'a>)>),
}

impl<'a> Tables<'a> {
    fn as_slice(&self) -> &[(&'a str, Held<'a>)] {
        match self {
            Tables::One(one) => one.as_slice(),
            Tables::Many(many) => many,
        }
    }

    fn as_mut_slice(&mut self) -> &mut [(&'a str, Held<'a>)] {
        match self {
            Tables::One(one) => one.as_mut_slice(),
            Tables::Many(many) => many,
        }
    }
}

impl State {
    /// Locks the tables called `names` (names or table ARNs; repeats and missing tables are fine: a
    /// missing one answers [`missing_table`] when looked up) in ascending name order.
    pub(crate) fn lock<'a, 'n>(
        &'a self,
        names: impl IntoIterator<Item = &'n str>,
        mode: Mode,
    ) -> Locked<'a> {
        let hold = |(name, cell): (&'a str, &'a RwLock<Table>)| {
            let held = match mode {
                Mode::Read => Held::Read(read(cell)),
                Mode::Write => Held::Write(write(cell)),
            };
            (name, held)
        };
        // A run of one name is looked up once: a transaction of thousands of actions on one table
        // (refused for its length after the locks are taken) built, sorted and deduplicated a
        // vector of thousands of one table.
        let mut previous = None;
        let mut cells = names
            .into_iter()
            .filter(|n| previous.replace(*n) != Some(*n))
            .filter_map(|n| self.config().table_name_of(n))
            .filter_map(|name| self.cell(name));
        let tables = match (cells.next(), cells.next()) {
            (first, None) => Tables::One(first.map(hold)),
            (Some(first), Some(second)) => {
                let mut all: Vec<_> = [first, second].into_iter().chain(cells).collect();
                // The fixed order: by name, each table once.
                all.sort_unstable_by_key(|(name, _)| *name);
                all.dedup_by_key(|(name, _)| *name);
                Tables::Many(all.into_iter().map(hold).collect())
            }
            // A fused iterator: nothing after the end.
            (None, Some(_)) => Tables::One(None),
        };
        Locked {
            state: self,
            tables,
        }
    }

    /// Every table's read lock, in name order, all held together: a consistent view of every table.
    pub(crate) fn read_all(&self) -> Vec<RwLockReadGuard<'_, Table>> {
        self.cells().map(read).collect()
    }
}

impl<'a> Locked<'a> {
    /// The held table a request names (a name, or a table ARN of this engine's region and account).
    fn held(&self, name: &str) -> Option<&Table> {
        let name = self.state.config().table_name_of(name)?;
        let tables = self.tables.as_slice();
        let i = tables.binary_search_by(|(n, _)| (*n).cmp(name)).ok()?;
        Some(match &tables[i].1 {
            Held::Read(t) => t,
            Held::Write(t) => t,
        })
    }

    /// A table by name or table ARN, as [`State`]'s item operations looked it up: DynamoDB's
    /// ResourceNotFoundException when it is missing or not serving items.
    pub(crate) fn table(&self, name: &str) -> Result<&Table> {
        let clock = self.state.clock();
        self.held(name)
            .filter(|t| {
                t.lifecycle.serves_items_at_any_time() || t.lifecycle.serves_items(clock.now())
            })
            .ok_or_else(missing_table)
    }

    /// A table by name, for writing (see [`Locked::table`]).
    pub(crate) fn table_mut(&mut self, name: &str) -> Result<&mut Table> {
        let clock = self.state.clock();
        let name = self
            .state
            .config()
            .table_name_of(name)
            .ok_or_else(missing_table)?;
        let tables = self.tables.as_mut_slice();
        let i = tables
            .binary_search_by(|(n, _)| (*n).cmp(name))
            .map_err(|_| missing_table())?;
        let table = match &mut tables[i].1 {
            Held::Write(t) => &mut **t,
            // A write through a read lock is the engine's bug, never the request's: refuse it.
            Held::Read(_) => return Err(not_locked_for_writing(name)),
        };
        if table.lifecycle.serves_items_at_any_time() || table.lifecycle.serves_items(clock.now()) {
            Ok(table)
        } else {
            Err(missing_table())
        }
    }

    /// The engine's settings.
    pub(crate) fn config(&self) -> &'a EngineConfig {
        self.state.config()
    }

    /// The engine's clock.
    pub(crate) fn clock(&self) -> &'a EngineClock {
        self.state.clock()
    }

    /// The streams of the tables held for writing.
    pub(crate) fn streams_mut(&mut self) -> impl Iterator<Item = &mut Stream> + '_ {
        self.tables
            .as_mut_slice()
            .iter_mut()
            .filter_map(|(_, held)| match held {
                Held::Write(t) => Some(&mut **t),
                Held::Read(_) => None,
            })
            .flat_map(Table::streams_mut)
    }

    /// The `ClientRequestToken`s of recent transactions, locked (innermost: take no lock while
    /// holding it).
    pub(crate) fn tokens_mut(&self) -> MutexGuard<'a, Tokens> {
        self.state.tokens_locked()
    }
}

/// The engine's own error for a write attempted through a read lock (a bug, reported, not a panic).
fn not_locked_for_writing(name: &str) -> Error {
    Error::Service {
        code: "InternalServerError".into(),
        message: format!("internal error: table {name} is not locked for writing"),
    }
}
