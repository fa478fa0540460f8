//! The futures of `AwsBackend`'s item, query and scan methods: the SDK's `send()` future boxed
//! once, with the conversion of its response, and nothing around it.
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
use std::sync::Arc;

use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use futures::FutureExt;

use super::error::{map_sdk_error, ErrorDetails};
use super::request_body::WrittenMember;
use crate::error::{Error, Result};

/// What an `#[async_trait]` method of [`Backend`](crate::Backend) returns.
pub(crate) type BackendFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T>> + Send + 'a>>;

/// `send` (an SDK operation's `send()`), its error mapped as every SDK error is (`map_sdk_error`)
/// and its output converted by `finish`, in one box.
pub(crate) fn sent<'a, O, E, R, T>(
    send: impl Future<Output = std::result::Result<O, SdkError<E, R>>> + Send + 'a,
    finish: impl FnOnce(O) -> Result<T> + Send + 'a,
) -> BackendFuture<'a, T>
where
    E: ProvideErrorMetadata + ErrorDetails + std::error::Error + Send + Sync + 'static,
    R: std::fmt::Debug,
{
    Box::pin(send.map(move |sent| finish(sent.map_err(map_sdk_error)?)))
}

/// `sent`, for a request whose member the model wrote as JSON (`request_body`): when the member
/// did not go into the request's body, the answer is `not_written`, whatever the SDK answered.
pub(crate) fn sent_written<'a, O, E, R, T>(
    send: impl Future<Output = std::result::Result<O, SdkError<E, R>>> + Send + 'a,
    written: Option<Arc<WrittenMember>>,
    finish: impl FnOnce(O) -> Result<T> + Send + 'a,
) -> BackendFuture<'a, T>
where
    E: ProvideErrorMetadata + ErrorDetails + std::error::Error + Send + Sync + 'static,
    R: std::fmt::Debug,
{
    Box::pin(send.map(move |sent| {
        let sent = sent.map_err(map_sdk_error);
        match written {
            Some(member) if !member.written() => Err(member.not_written(sent.as_ref().err())),
            _ => finish(sent?),
        }
    }))
}

/// The future of a request that failed before it was sent (it could not be converted); cold, so
/// that the code of a request that converts is laid out without it.
#[cold]
#[inline(never)]
pub(crate) fn failed<'a, T: Send + 'a>(error: Error) -> BackendFuture<'a, T> {
    Box::pin(std::future::ready(Err(error)))
}
