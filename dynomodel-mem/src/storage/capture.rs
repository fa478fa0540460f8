//! Where the storage reports each change it makes, for whoever records the changes (durable mode's
//! log): at the few places every change passes, not in each operation, so that an operation added
//! tomorrow cannot forget to report one.
//!
//! - Items: [`Table::put`](super::table::Table::put) and `Table::delete`/`delete_as_service`, which
//!   every item write goes through (put, update, delete, batches, transactions, PartiQL, TTL expiry):
//!   [`put`], [`delete`], [`expire`].
//! - Transactions' `ClientRequestToken`s: [`Tokens::record`](super::tokens::Tokens::record):
//!   [`token`].
//!
//! The storage owns the interface ([`WriteCapture`]); what records implements it and installs itself
//! for the request running on this thread ([`install`]: a request runs on one thread from its first
//! check to its last write). Nothing is reported while nothing is installed, and without the
//! `durable` feature every hook is an empty inline function.

#[cfg(feature = "durable")]
pub(crate) use enabled::*;

#[cfg(not(feature = "durable"))]
pub(crate) use disabled::*;

#[cfg(feature = "durable")]
mod enabled {
    use std::cell::Cell;

    use dynomodel::backend::TransactWriteItem;

    use crate::storage::key::PrimaryKey;
    use crate::storage::stored::StoredItem;

    /// What is told of each change the storage makes.
    pub(crate) trait WriteCapture: Sync {
        /// `item` is being stored under `key` in `table` (as the table stores it: a put of an
        /// `Item` and one written straight into the stored form are reported alike).
        fn put(&self, table: &str, key: &PrimaryKey, item: &StoredItem);
        /// The item under `key` in `table` is being deleted by the application.
        fn delete(&self, table: &str, key: &PrimaryKey);
        /// The item under `key` in `table` is being deleted by Time to Live.
        fn expire(&self, table: &str, key: &PrimaryKey);
        /// A transaction's token is being remembered for `actions`.
        fn token(&self, token: &str, actions: &[TransactWriteItem]);
    }

    thread_local! {
        /// The capture of the request running on this thread.
        static CAPTURE: Cell<Option<&'static dyn WriteCapture>> = const { Cell::new(None) };
    }

    /// Reports this thread's changes to `capture` from now on (`None`: to no one).
    pub(crate) fn install(capture: Option<&'static dyn WriteCapture>) {
        CAPTURE.set(capture);
    }

    fn report(f: impl FnOnce(&dyn WriteCapture)) {
        if let Some(capture) = CAPTURE.get() {
            f(capture);
        }
    }

    /// `item` is being stored under `key` in `table`.
    pub(crate) fn put(table: &str, key: &PrimaryKey, item: &StoredItem) {
        report(|c| c.put(table, key, item));
    }

    /// The item under `key` in `table` is being deleted by the application.
    pub(crate) fn delete(table: &str, key: &PrimaryKey) {
        report(|c| c.delete(table, key));
    }

    /// The item under `key` in `table` is being deleted by Time to Live.
    pub(crate) fn expire(table: &str, key: &PrimaryKey) {
        report(|c| c.expire(table, key));
    }

    /// A transaction's token is being remembered for `actions`.
    pub(crate) fn token(token: &str, actions: &[TransactWriteItem]) {
        report(|c| c.token(token, actions));
    }
}

#[cfg(not(feature = "durable"))]
mod disabled {
    use dynomodel::backend::TransactWriteItem;

    use crate::storage::key::PrimaryKey;
    use crate::storage::stored::StoredItem;

    /// No durable mode: no one to report to.
    #[inline(always)]
    pub(crate) fn put(_: &str, _: &PrimaryKey, _: &StoredItem) {}

    /// No durable mode: no one to report to.
    #[inline(always)]
    pub(crate) fn delete(_: &str, _: &PrimaryKey) {}

    /// No durable mode: no one to report to.
    #[inline(always)]
    pub(crate) fn expire(_: &str, _: &PrimaryKey) {}

    /// No durable mode: no one to report to.
    #[inline(always)]
    pub(crate) fn token(_: &str, _: &[TransactWriteItem]) {}
}
