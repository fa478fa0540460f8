//! The futures of `AwsBackend`'s item, query and scan methods: the SDK's `send()` future boxed
//! once, with the conversion of its response, and nothing around it.
//!
//! Each operation's send is one small out-of-line function here, beside the conversion of its
//! response: the code a request runs between its builder and the SDK (the box, the `Map`, the
//! conversion) sits together rather than spread over the units of the modules that build the
//! requests (`docs/performance.md`, "The mapper on the AWS path").
//!
//! An `#[async_trait]` method boxes an `async` block that holds the SDK's future by value: the
//! block is as large as that future (3.6–7 KB: the SDK's request state machine), it is copied whole
//! into its box (whatever of it is initialised), and when it awaits the SDK's future it moves it
//! once more into a slot of its own — once per `async fn` between the two. Built here with
//! combinators, the one box holds the SDK's future and the closure that converts its output, and
//! polls it in place: the SDK's future is moved once, into the box, as hand-written code moves it
//! once into its caller's future. The request is converted before the SDK's future is built, so a
//! request that cannot be converted fails before anything is sent, as it did.

use std::future::Future;
use std::pin::Pin;

use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::operation::{delete_item, get_item, put_item, query, scan, update_item};
use aws_sdk_dynamodb::types as sdk;
use futures::FutureExt;

use super::capacity::{one_consumed_capacity, one_item_collection_metrics};
use super::error::{map_sdk_error, ErrorDetails};
use super::value::{from_sdk_item, from_sdk_opt_item, hand_over, SdkItem};
use crate::backend::*;
use crate::error::{Error, Result};

/// What an `#[async_trait]` method of [`Backend`](crate::Backend) returns.
pub(crate) type BackendFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T>> + Send + 'a>>;

/// `send` (an SDK operation's `send()`), its error mapped as every SDK error is (`map_sdk_error`)
/// and its output converted by `finish`, in one box.
fn sent<'a, O, E, R, T>(
    send: impl Future<Output = std::result::Result<O, SdkError<E, R>>> + Send + 'a,
    finish: impl FnOnce(O) -> Result<T> + Send + 'a,
) -> BackendFuture<'a, T>
where
    E: ProvideErrorMetadata + ErrorDetails + std::error::Error + Send + Sync + 'static,
    R: std::fmt::Debug,
{
    Box::pin(send.map(move |sent| finish(sent.map_err(map_sdk_error)?)))
}

/// The future of a request that failed before it was sent (it could not be converted).
pub(crate) fn failed<'a, T: Send + 'a>(error: Error) -> BackendFuture<'a, T> {
    Box::pin(std::future::ready(Err(error)))
}

/// `PutItem` sent.
#[inline(never)]
pub(crate) fn send_put_item<'a>(
    request: put_item::builders::PutItemFluentBuilder,
) -> BackendFuture<'a, PutItemOutput> {
    sent(request.send(), |output| {
        Ok(PutItemOutput {
            consumed_capacity: one_consumed_capacity(output.consumed_capacity()),
            item_collection_metrics: one_item_collection_metrics(output.item_collection_metrics())?,
            attributes: from_sdk_opt_item(output.attributes)?,
        })
    })
}

/// `GetItem` sent; with a `sink`, the item is handed to it and `item` is `None`.
#[inline(never)]
pub(crate) fn send_get_item<'a>(
    request: get_item::builders::GetItemFluentBuilder,
    sink: Option<&'a mut dyn ItemSink>,
) -> BackendFuture<'a, GetItemOutput> {
    sent(request.send(), |output| {
        let consumed_capacity = one_consumed_capacity(output.consumed_capacity());
        let item = match (output.item, sink) {
            (Some(item), Some(sink)) => {
                hand_over(vec![item], sink)?;
                None
            }
            (item, _) => from_sdk_opt_item(item)?,
        };
        Ok(GetItemOutput {
            consumed_capacity,
            item,
        })
    })
}

/// `DeleteItem` sent.
#[inline(never)]
pub(crate) fn send_delete_item<'a>(
    request: delete_item::builders::DeleteItemFluentBuilder,
) -> BackendFuture<'a, DeleteItemOutput> {
    sent(request.send(), |output| {
        Ok(DeleteItemOutput {
            consumed_capacity: one_consumed_capacity(output.consumed_capacity()),
            item_collection_metrics: one_item_collection_metrics(output.item_collection_metrics())?,
            attributes: from_sdk_opt_item(output.attributes)?,
        })
    })
}

/// `UpdateItem` sent.
#[inline(never)]
pub(crate) fn send_update_item<'a>(
    request: update_item::builders::UpdateItemFluentBuilder,
) -> BackendFuture<'a, UpdateItemOutput> {
    sent(request.send(), |output| {
        Ok(UpdateItemOutput {
            consumed_capacity: one_consumed_capacity(output.consumed_capacity()),
            item_collection_metrics: one_item_collection_metrics(output.item_collection_metrics())?,
            attributes: from_sdk_opt_item(output.attributes)?,
        })
    })
}

/// `Query` sent; with a `sink`, its items are handed to it.
#[inline(never)]
pub(crate) fn send_query<'a>(
    request: query::builders::QueryFluentBuilder,
    sink: Option<&'a mut dyn ItemSink>,
) -> BackendFuture<'a, QueryOutput> {
    sent(request.send(), |out| {
        let consumed_capacity = out.consumed_capacity.clone();
        page(
            out.items,
            out.count,
            out.scanned_count,
            out.last_evaluated_key,
            consumed_capacity.as_ref(),
            sink,
        )
    })
}

/// `Scan` sent; with a `sink`, its items are handed to it.
#[inline(never)]
pub(crate) fn send_scan<'a>(
    request: scan::builders::ScanFluentBuilder,
    sink: Option<&'a mut dyn ItemSink>,
) -> BackendFuture<'a, ScanOutput> {
    sent(request.send(), |out| {
        let consumed_capacity = out.consumed_capacity.clone();
        page(
            out.items,
            out.count,
            out.scanned_count,
            out.last_evaluated_key,
            consumed_capacity.as_ref(),
            sink,
        )
    })
}

/// Builds the common response from the SDK's fields (Query and Scan outputs are distinct SDK types with
/// the same four fields); with a `sink` (the typed reads), the items go to it and `items` is `None`.
fn page(
    items: Option<Vec<SdkItem>>,
    count: i32,
    scanned_count: i32,
    last_evaluated_key: Option<SdkItem>,
    consumed_capacity: Option<&sdk::ConsumedCapacity>,
    sink: Option<&mut dyn ItemSink>,
) -> Result<QueryOutput> {
    let items = match (items, sink) {
        (Some(items), Some(sink)) => {
            hand_over(items, sink)?;
            None
        }
        (items, _) => items
            .map(|items| {
                items
                    .into_iter()
                    .map(from_sdk_item)
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?,
    };
    Ok(QueryOutput {
        items,
        count,
        scanned_count,
        last_evaluated_key: from_sdk_opt_item(last_evaluated_key)?,
        consumed_capacity: one_consumed_capacity(consumed_capacity),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use aws_sdk_dynamodb::types::AttributeValue as SdkValue;

    #[test]
    fn count_only_pages_keep_items_absent_and_the_last_key() {
        let key: SdkItem = [("pk".to_owned(), SdkValue::S("a".into()))].into();
        let out = page(None, 3, 5, Some(key), None, None).unwrap();
        assert_eq!(out.items, None);
        assert_eq!((out.count, out.scanned_count), (3, 5));
        assert_eq!(out.last_evaluated_key.unwrap()["pk"].as_s(), Some("a"));
        // An empty page is not the same as no page: it stays `Some(vec![])`.
        let empty = page(Some(vec![]), 0, 1, None, None, None).unwrap();
        assert_eq!(empty.items, Some(vec![]));
        assert_eq!(empty.last_evaluated_key, None);
    }
}
