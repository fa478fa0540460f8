//! How a request reaches the engine's state: the locks it takes (the catalog's, then the tables it
//! names, in name order: `lock.rs`), and in durable mode the log record of what it did before its
//! locks are released. Every operation of the [`Backend`](dynomodel::backend::Backend) implementation
//! (`backend.rs`) goes through one of these.

use std::sync::{RwLockReadGuard, RwLockWriteGuard};

use dynomodel::backend::{BatchWriteItemInput, BatchWriteItemOutput, PutItemInput, PutItemOutput};
use dynomodel::Result;

use crate::ops::context::ItemRequest;
use crate::storage::state::State;
use crate::{durable, ops::streams, storage::lock, MemBackend};

impl MemBackend {
    /// The request of the engine-wide write `command`, encoded for the log when in durable mode
    /// (before the operation takes its input).
    pub(crate) fn logged(&self, command: durable::Command<'_>) -> durable::Logged {
        #[cfg(feature = "durable")]
        {
            self.durable.as_ref().and_then(|_| command.encode())
        }
        #[cfg(not(feature = "durable"))]
        {
            let _ = command;
            durable::Logged
        }
    }

    /// Runs the engine-wide write `op` (a table operation, the TTL sweep) under the catalog's write
    /// lock (every table to itself); in durable mode, logs what it did (its request `command`, from
    /// [`MemBackend::logged`], and its effects on items) before returning.
    pub(crate) fn mutate_logged<T>(
        &self,
        command: durable::Logged,
        op: impl FnOnce(&mut State) -> Result<T>,
    ) -> Result<T> {
        let mut state = self.write();
        #[cfg(feature = "durable")]
        if let Some(durable) = &self.durable {
            let (result, ticket) = durable.run(&mut *state, command, op);
            // The fsync waits outside the lock, so that writers arriving meanwhile share it.
            drop(state);
            return durable.settle(ticket).and(result);
        }
        let _ = command;
        op(&mut state)
    }

    /// Runs the item write `op` with the tables `tables` locked for writing (and the catalog for
    /// reading: requests on other tables go on meanwhile); in durable mode, logs what it did before
    /// the locks are released, so the log holds each table's writes in the order they were applied.
    #[inline]
    pub(crate) fn writing<'n, T>(
        &self,
        tables: impl IntoIterator<Item = &'n str>,
        op: impl FnOnce(&mut ItemRequest<'_>) -> Result<T>,
    ) -> Result<T> {
        let state = self.read();
        let mut locked = self.request(&state, tables, lock::Mode::Write);
        #[cfg(feature = "durable")]
        if let Some(durable) = &self.durable {
            let (result, ticket) = durable.run(&mut locked, None, op);
            // The fsync waits outside the locks, so that writers arriving meanwhile share it.
            drop(locked);
            drop(state);
            return durable.settle(ticket).and(result);
        }
        op(&mut locked)
    }

    /// Runs the item read `op` with the tables `tables` locked for reading; in durable mode
    /// (`--sync always`), answers only once every write it may have seen is on disk, and never with
    /// a write that failed to reach it.
    #[inline]
    pub(crate) fn reading_tables<'n, T>(
        &self,
        tables: impl IntoIterator<Item = &'n str>,
        op: impl FnOnce(&ItemRequest<'_>) -> Result<T>,
    ) -> Result<T> {
        let state = self.read();
        let locked = self.request(&state, tables, lock::Mode::Read);
        let result = op(&locked);
        #[cfg(feature = "durable")]
        if let Some(durable) = &self.durable {
            let ticket = durable.read_ticket();
            drop(locked);
            drop(state);
            return durable.settle(ticket).and(result);
        }
        result
    }

    /// Runs the read `op` under the read lock; in durable mode (`--sync always`), answers only once
    /// every write it may have seen is on disk.
    pub(crate) fn reading<T>(&self, op: impl FnOnce(&State) -> Result<T>) -> Result<T> {
        let state = self.read();
        let result = op(&state);
        #[cfg(feature = "durable")]
        if let Some(durable) = &self.durable {
            let ticket = durable.read_ticket();
            drop(state);
            return durable.settle(ticket).and(result);
        }
        result
    }

    /// [`MemBackend::reading`] for the Streams API, which takes the write lock (reading a stream
    /// trims it) but writes nothing to the log.
    pub(crate) fn reading_streams<T>(&self, op: impl FnOnce(&mut State) -> Result<T>) -> Result<T> {
        let mut state = self.write();
        let result = op(&mut state);
        #[cfg(feature = "durable")]
        if let Some(durable) = &self.durable {
            let ticket = durable.read_ticket();
            drop(state);
            return durable.settle(ticket).and(result);
        }
        result
    }

    /// [`MemBackend::writing`] for an operation that takes its request by value: the input moves
    /// into `op` once the table `table` names is locked (no copy of the name on the hot write paths,
    /// and the operation may move the request's names and values rather than copy them).
    #[inline]
    pub(crate) fn writing_owned<I, T>(
        &self,
        input: I,
        table: fn(&I) -> &str,
        op: impl FnOnce(&mut ItemRequest<'_>, I) -> Result<T>,
    ) -> Result<T> {
        let state = self.read();
        let mut locked = self.request(&state, [table(&input)], lock::Mode::Write);
        #[cfg(feature = "durable")]
        if let Some(durable) = &self.durable {
            let (result, ticket) = durable.run(&mut locked, None, |s| op(s, input));
            drop(locked);
            drop(state);
            return durable.settle(ticket).and(result);
        }
        op(&mut locked, input)
    }

    /// `PutItem` with its table locked.
    #[inline]
    pub(crate) fn put(&self, input: PutItemInput) -> Result<PutItemOutput> {
        self.writing_owned(input, |i| &i.table_name, |s, i| s.put_item(i))
    }

    /// `PutItem` of an item a writer wrote straight into the stored form (`put_item_from`), with
    /// its table locked.
    pub(crate) fn put_written(
        &self,
        input: &PutItemInput,
        item: crate::storage::stored::WrittenItem,
    ) -> Result<PutItemOutput> {
        self.writing([input.table_name.as_str()], |s| s.put_written(input, item))
    }

    /// `BatchWriteItem` with its tables locked (the input moves into the operation: the names are
    /// copied first).
    pub(crate) fn write_batch(&self, input: BatchWriteItemInput) -> Result<BatchWriteItemOutput> {
        let names: Vec<String> = input.request_items.keys().cloned().collect();
        self.writing(names.iter().map(String::as_str), |s| {
            s.batch_write_item(input)
        })
    }

    /// A stream operation on the stream `arn`: under the write lock of its table alone when the
    /// table holds it, else (a deleted table's stream, or no such stream) as
    /// [`MemBackend::reading_streams`], which finds it, or answers its error, as before.
    pub(crate) fn reading_stream<T>(
        &self,
        arn: Option<&str>,
        op: impl FnOnce(&mut dyn streams::api::StreamSource) -> Result<T>,
    ) -> Result<T> {
        use streams::api::StreamSource;
        if let Some(arn) = arn
            && let Some(table) = streams::api::stream_table(arn)
        {
            let state = self.read();
            let mut locked = state.lock([table], lock::Mode::Write);
            let now = locked.now();
            if locked.find_stream(arn, now).is_some() {
                let result = op(&mut locked);
                #[cfg(feature = "durable")]
                if let Some(durable) = &self.durable {
                    let ticket = durable.read_ticket();
                    drop(locked);
                    drop(state);
                    return durable.settle(ticket).and(result);
                }
                return result;
            }
        }
        self.reading_streams(|s| op(s))
    }

    /// An item request on the tables `tables` of the catalog `state` (locked in `mode`), with the
    /// engine's services.
    fn request<'a, 'n>(
        &'a self,
        state: &'a State,
        tables: impl IntoIterator<Item = &'n str>,
        mode: lock::Mode,
    ) -> ItemRequest<'a> {
        ItemRequest::new(state.lock(tables, mode), &self.services)
    }

    /// The catalog's read lock. A panic in another thread while it held the lock cannot leave the
    /// state half written (each operation validates before it mutates), so a poisoned lock is
    /// recovered.
    pub(crate) fn read(&self) -> RwLockReadGuard<'_, State> {
        self.state
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The catalog's write lock, recovering from poisoning as [`MemBackend::read`] does.
    pub(crate) fn write(&self) -> RwLockWriteGuard<'_, State> {
        self.state
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}
