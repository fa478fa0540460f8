//! The write path's hooks: one call at each place where the engine changes a table's items or a
//! transaction's token is remembered (`items.rs`, `batch/write.rs`, `transact/write.rs`, the TTL
//! sweep). They collect the *effects* of the request being run, which durable mode then writes to its
//! log before the request is acknowledged.
//!
//! The effects go to a thread-local journal rather than through `State`: a request runs on one thread
//! under the engine's write lock from start to finish, so the journal of the running thread holds
//! exactly that request's effects, and no call site has to thread an extra borrow through code that
//! already holds `&mut Table`. Nothing is recorded unless durable mode started a journal for the
//! request ([`begin`]); without the `durable` feature every hook is an empty inline function.

#[cfg(feature = "durable")]
pub(crate) use enabled::*;

#[cfg(not(feature = "durable"))]
pub(crate) use disabled::*;

/// One change to the engine's state, as the log records it.
#[cfg(feature = "durable")]
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Effect {
    /// An item stored (created or replaced) by the application.
    Put {
        /// The table's name.
        table: String,
        /// The item's key.
        key: crate::key::PrimaryKey,
        /// The whole new item.
        item: dynomodel::Item,
    },
    /// An item deleted by the application.
    Delete {
        /// The table's name.
        table: String,
        /// The deleted item's key.
        key: crate::key::PrimaryKey,
    },
    /// An item deleted by the service (Time to Live): its stream record names the service.
    Expire {
        /// The table's name.
        table: String,
        /// The deleted item's key.
        key: crate::key::PrimaryKey,
    },
    /// A transaction's `ClientRequestToken`, remembered with the actions it was used for.
    Token {
        /// The token.
        token: String,
        /// The transaction's actions (a retry with other actions is a mismatch).
        actions: Vec<dynomodel::TransactWriteItem>,
    },
}

#[cfg(feature = "durable")]
mod enabled {
    use std::cell::RefCell;

    use dynomodel::{Item, TransactWriteItem};

    use super::Effect;
    use crate::key::PrimaryKey;

    thread_local! {
        /// The effects of the request running on this thread, when durable mode asked for them.
        static JOURNAL: RefCell<Option<Vec<Effect>>> = const { RefCell::new(None) };
    }

    /// Starts collecting the effects of the request about to run on this thread.
    pub(crate) fn begin() {
        JOURNAL.with_borrow_mut(|j| *j = Some(Vec::new()));
    }

    /// Stops collecting and returns what the request did.
    pub(crate) fn take() -> Vec<Effect> {
        JOURNAL.with_borrow_mut(Option::take).unwrap_or_default()
    }

    fn push(effect: impl FnOnce() -> Effect) {
        JOURNAL.with_borrow_mut(|j| {
            if let Some(j) = j {
                j.push(effect());
            }
        });
    }

    /// `item` is about to be stored under `key` in `table`.
    pub(crate) fn put(table: &str, key: &PrimaryKey, item: &Item) {
        push(|| Effect::Put {
            table: table.to_owned(),
            key: key.clone(),
            item: item.clone(),
        });
    }

    /// The item under `key` in `table` is about to be deleted by the application.
    pub(crate) fn delete(table: &str, key: &PrimaryKey) {
        push(|| Effect::Delete {
            table: table.to_owned(),
            key: key.clone(),
        });
    }

    /// The item under `key` in `table` is about to be deleted by Time to Live.
    pub(crate) fn expire(table: &str, key: &PrimaryKey) {
        push(|| Effect::Expire {
            table: table.to_owned(),
            key: key.clone(),
        });
    }

    /// A transaction's token is being remembered for `actions`.
    pub(crate) fn token(token: &str, actions: &[TransactWriteItem]) {
        push(|| Effect::Token {
            token: token.to_owned(),
            actions: actions.to_vec(),
        });
    }
}

#[cfg(not(feature = "durable"))]
mod disabled {
    use dynomodel::{Item, TransactWriteItem};

    use crate::key::PrimaryKey;

    /// No durable mode: nothing to record.
    #[inline(always)]
    pub(crate) fn put(_: &str, _: &PrimaryKey, _: &Item) {}

    /// No durable mode: nothing to record.
    #[inline(always)]
    pub(crate) fn delete(_: &str, _: &PrimaryKey) {}

    /// No durable mode: nothing to record.
    #[inline(always)]
    pub(crate) fn expire(_: &str, _: &PrimaryKey) {}

    /// No durable mode: nothing to record.
    #[inline(always)]
    pub(crate) fn token(_: &str, _: &[TransactWriteItem]) {}
}
