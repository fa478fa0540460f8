//! Where writes are captured for the log: at the few places every change to the engine's state
//! passes, not in each operation, so that an operation added tomorrow cannot forget to log.
//!
//! - Items and transactions' `ClientRequestToken`s: the storage reports every change at its one write
//!   path (`storage/capture.rs`: `Table::put`, `Table::delete`/`delete_as_service`, `Tokens::record`)
//!   to a [`WriteCapture`]; the journal is that capture,
//!   installed on the request's thread from [`begin`] to [`end`]: [`put`], [`delete`], [`expire`],
//!   [`token`].
//! - Table operations (CreateTable, DeleteTable, UpdateTable, UpdateTimeToLive, tags, the TTL sweep):
//!   the catalog's write path in `access.rs`, which takes a [`Command`](super::Command) naming the
//!   operation, so that none runs without one.
//!
//! The effects are encoded straight into the record being built for the running request (a
//! thread-local buffer: a request runs on one thread from start to finish, and its tables stay locked
//! until its record is in the log), in the log's binary form and behind room for the frame's header,
//! so the log numbers, seals and appends it where it was encoded: no copy of an item, no second
//! encoding. Nothing is captured unless durable mode started a record for the request ([`begin`]).
//! The whole module exists only with the `durable` feature.

use std::cell::RefCell;

use crate::storage::stored::StoredItem;
use chrono::{DateTime, Utc};
use dynomodel::backend::TransactWriteItem;

use crate::durable::codec::Writer;
use crate::durable::frame::HEADER;
use crate::durable::record::{COMMAND, DELETE, EXPIRE, PUT, TOKEN};
use crate::protocol::records as codec;
use crate::storage::capture::{install, WriteCapture};
use crate::storage::key::PrimaryKey;

/// The record of the request running on this thread.
struct Capture {
    /// Whether a request is being captured.
    active: bool,
    /// Room for the frame's header, then the record (`record.rs`).
    frame: Vec<u8>,
    /// Entries (effects and a command) captured.
    entries: usize,
}

thread_local! {
    static CAPTURE: RefCell<Capture> = const {
        RefCell::new(Capture { active: false, frame: Vec::new(), entries: 0 })
    };
}

/// A buffer grown past this by one large request is not kept for the next.
const KEEP: usize = 1 << 20;

/// Starts the record of the request about to run on this thread, at `at` (the engine's time
/// for it): the frame header and the sequence number are left for the log to fill in.
pub(crate) fn begin(at: DateTime<Utc>) {
    CAPTURE.with_borrow_mut(|c| {
        if c.frame.capacity() > KEEP {
            c.frame = Vec::new();
        }
        c.frame.clear();
        c.frame.resize(HEADER + 8, 0);
        let mut w = Writer(&mut c.frame);
        w.i64(at.timestamp());
        w.u32(at.timestamp_subsec_nanos() as usize);
        c.active = true;
        c.entries = 0;
    });
    install(Some(&JOURNAL));
}

/// The journal as the storage's [`WriteCapture`]: each change goes into the running record.
struct Journal;

/// What [`begin`] installs.
static JOURNAL: Journal = Journal;

impl WriteCapture for Journal {
    fn put(&self, table: &str, key: &PrimaryKey, item: &StoredItem) {
        self::put(table, key, item);
    }

    fn delete(&self, table: &str, key: &PrimaryKey) {
        self::delete(table, key);
    }

    fn expire(&self, table: &str, key: &PrimaryKey) {
        self::expire(table, key);
    }

    fn token(&self, token: &str, actions: &[TransactWriteItem]) {
        self::token(token, actions);
    }
}

fn capture(write: impl FnOnce(&mut Writer<'_>)) {
    CAPTURE.with_borrow_mut(|c| {
        if c.active {
            write(&mut Writer(&mut c.frame));
            c.entries += 1;
        }
    });
}

/// `item` is being stored under `key` in `table`.
pub(crate) fn put(table: &str, key: &PrimaryKey, item: &StoredItem) {
    capture(|w| {
        w.u8(PUT);
        w.str(table);
        w.key(key);
        w.stored_item(item);
    });
}

/// The item under `key` in `table` is being deleted by the application.
pub(crate) fn delete(table: &str, key: &PrimaryKey) {
    capture(|w| {
        w.u8(DELETE);
        w.str(table);
        w.key(key);
    });
}

/// The item under `key` in `table` is being deleted by Time to Live.
pub(crate) fn expire(table: &str, key: &PrimaryKey) {
    capture(|w| {
        w.u8(EXPIRE);
        w.str(table);
        w.key(key);
    });
}

/// A transaction's token is being remembered for `actions`.
pub(crate) fn token(token: &str, actions: &[TransactWriteItem]) {
    capture(|w| {
        w.u8(TOKEN);
        w.str(token);
        let json = serde_json::to_vec(&codec::write_actions_json(actions)).unwrap_or_default();
        w.bytes(&json);
    });
}

/// The running request is the table operation `op` with this request (DynamoDB JSON).
pub(crate) fn command(op: &str, request: &[u8]) {
    capture(|w| {
        w.u8(COMMAND);
        w.str(op);
        w.bytes(request);
    });
}

/// Stops capturing; whether the request changed anything (and so has a record to log).
pub(crate) fn end() -> bool {
    install(None);
    CAPTURE.with_borrow_mut(|c| {
        c.active = false;
        c.entries > 0
    })
}

/// Runs `f` on the record just captured on this thread ([`end`]ed): the frame, its header and
/// sequence number still to fill in.
pub(crate) fn with_frame<R>(f: impl FnOnce(&mut Vec<u8>) -> R) -> R {
    CAPTURE.with_borrow_mut(|c| f(&mut c.frame))
}
