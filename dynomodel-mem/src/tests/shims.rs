//! The item operations on a bare [`State`], for unit tests that drive one directly (below the
//! `Backend` impl): each locks every table for writing and runs the operation.

use std::sync::LazyLock;

use dynomodel::Result;

use crate::ops::context::{ItemRequest, Services};

use crate::storage::state::State;

/// The item operations on the whole engine, for unit tests that drive a `State` directly: every
/// table locked for writing.
impl State {
    /// `PutItem`.
    pub(crate) fn put_item(
        &mut self,
        input: dynomodel::backend::PutItemInput,
    ) -> Result<dynomodel::backend::PutItemOutput> {
        self.everything().put_item(input)
    }

    /// `GetItem`.
    pub(crate) fn get_item(
        &self,
        input: &dynomodel::backend::GetItemInput,
    ) -> Result<dynomodel::backend::GetItemOutput> {
        self.everything()
            .get_item(input, input.attributes_to_get.clone())
    }

    /// `DeleteItem`.
    pub(crate) fn delete_item(
        &mut self,
        input: &dynomodel::backend::DeleteItemInput,
    ) -> Result<dynomodel::backend::DeleteItemOutput> {
        self.everything().delete_item(input.clone())
    }

    /// `UpdateItem`.
    pub(crate) fn update_item(
        &mut self,
        input: &dynomodel::backend::UpdateItemInput,
    ) -> Result<dynomodel::backend::UpdateItemOutput> {
        self.everything().update_item(input.clone())
    }

    /// `Query`.
    pub(crate) fn query(
        &self,
        input: &dynomodel::backend::QueryInput,
    ) -> Result<dynomodel::backend::QueryOutput> {
        let mut input = input.clone();
        let taken = crate::ops::legacy::Taken::query(&mut input);
        self.everything().query(&input, taken)
    }

    /// `BatchWriteItem`.
    pub(crate) fn batch_write_item(
        &mut self,
        input: dynomodel::backend::BatchWriteItemInput,
    ) -> Result<dynomodel::backend::BatchWriteItemOutput> {
        self.everything().batch_write_item(input)
    }

    /// `TransactWriteItems`.
    pub(crate) fn transact_write_items(
        &mut self,
        input: &dynomodel::backend::TransactWriteItemsInput,
    ) -> Result<dynomodel::backend::TransactWriteItemsOutput> {
        self.everything().transact_write_items(input)
    }

    /// Every table locked for writing, with services of their own (the expression cache, no
    /// throughput enforcement), as an engine's item request runs.
    pub(crate) fn everything(&self) -> ItemRequest<'_> {
        static SERVICES: LazyLock<Services> = LazyLock::new(Services::default);
        let locked = self.lock(self.table_names(), crate::storage::lock::Mode::Write);
        ItemRequest::new(locked, &SERVICES)
    }
}
