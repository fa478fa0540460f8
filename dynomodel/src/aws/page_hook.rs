//! The typed Query and Scan pages read straight from the response body, past the SDK's item maps.
//!
//! For a page of a typed read ([`Backend::query_into`](crate::Backend::query_into),
//! [`scan_into`](crate::Backend::scan_into)), the SDK's own deserializer would build a
//! `HashMap<String, AttributeValue>` per item (about half of a Query's client CPU) that the sink
//! then converts again. Here the page's `Items` are read from the body into the page buffer the
//! sink reads ([`read_items`]), and the SDK's deserializer is given the same response with
//! `"Items":[]` for everything else (Count, ScannedCount, LastEvaluatedKey, ConsumedCapacity, the
//! request id), so the output it builds is the one it always built, without the items.
//! The typed GetItem ([`Backend::get_item_into`](crate::Backend::get_item_into)) alike: its
//! `Item` read as a page of one item ([`read_item`]), the SDK given `"Item":{}`.
//!
//! How it is wired: [`PageHook`], an interceptor installed once on a copy of `AwsBackend`'s client
//! that only the typed pages and the mapper's puts use ([`hooked`]), wraps the operation's
//! response deserializer ([`PageDeserializer`]) for one execution when the request is armed: a
//! typed page's future ([`Armed`]) moves its [`Arms`] into a thread-local slot while it polls the
//! SDK's future, inside which the SDK runs its interceptors and its deserializer, and the hook
//! takes them from there. The same hook writes a put's item into its request (`request_body`).
//! Installing an interceptor per request (`customize()`) would cost the SDK ~10–16k instructions a
//! request (1–1.6 % of a Query of 20) for its per-request configuration; the client-level hook,
//! with the SDK's dispatch hint, costs its client's requests little more than its two hooks' calls
//! (docs/performance.md, "The mapper on the AWS path").
//!
//! The fallback: whatever the reader does not read exactly as the SDK would (`None`), a status
//! other than 200, an error, an untyped read, a GetItem without an `Item` or any other operation
//! goes to the SDK's deserializer as it is, and the page then comes from the SDK's items as before.

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::task::{Context, Poll};

use aws_sdk_dynamodb::operation::{get_item::GetItem, query::Query, scan::Scan};
use aws_sdk_dynamodb::Client;
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::{
    BeforeSerializationInterceptorContextRef, BeforeTransmitInterceptorContextMut, OutputOrError,
};
use aws_smithy_runtime_api::client::interceptors::{Intercept, SharedInterceptor};
use aws_smithy_runtime_api::client::orchestrator::{HttpResponse, Metadata};
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_runtime_api::client::runtime_plugin::RuntimePlugin;
use aws_smithy_runtime_api::client::ser_de::{DeserializeResponse, SharedResponseDeserializer};
use aws_smithy_types::body::SdkBody;
use aws_smithy_types::config_bag::{ConfigBag, FrozenLayer};

use super::page_body::{read_item, read_items, BodyPage};
use super::request_body::WrittenMember;

/// Where a typed page's deserializer leaves the page it read: `None` until an attempt's response
/// deserializes with its items read here (each attempt replaces what an earlier one left).
pub(crate) type PageSlot = Arc<Mutex<Option<BodyPage>>>;

/// Takes the page an armed request's deserializer left, if any.
pub(crate) fn take_page(slot: &PageSlot) -> Option<BodyPage> {
    slot.lock().unwrap_or_else(PoisonError::into_inner).take()
}

/// What the hook does for an armed request: read its response's items into `page`, and put the
/// member the model `written` into its request's body (`request_body`). The hook takes each once.
#[derive(Default)]
pub(crate) struct Arms {
    pub(crate) page: Option<PageSlot>,
    pub(crate) written: Option<Arc<WrittenMember>>,
}

impl Arms {
    /// A typed page's: its items read into `slot`.
    pub(crate) fn page(slot: &PageSlot) -> Arms {
        Arms {
            page: Some(Arc::clone(slot)),
            written: None,
        }
    }
}

thread_local! {
    /// The arms of the request whose future is polling on this thread (`Armed`), if any.
    static ARMED: RefCell<Option<Arms>> = const { RefCell::new(None) };
}

/// A copy of `client` with [`PageHook`] installed (as a permanent interceptor: no per-hook
/// look-up of a disabling flag in the configuration), rebuilt from `client`'s own configuration:
/// its settings and credentials provider, and its HTTP client and identity cache where the
/// configuration names them (otherwise the SDK builds the copy a default of each: connections and
/// a credentials cache of its own).
pub(crate) fn hooked(client: &Client) -> Client {
    let mut config = client.config().to_builder();
    config.push_interceptor(SharedInterceptor::permanent(PageHook));
    Client::from_conf(config.build())
}

/// The interceptor that, for an armed Query, Scan or GetItem, wraps the operation's response
/// deserializer in a [`PageDeserializer`] for the execution.
#[derive(Debug)]
pub(crate) struct PageHook;

// The hint makes the SDK call only the hooks this implements (`overridden_hooks`): without it,
// every request of the client paid a dynamic call of each of the ~20 empty hooks. It is the SDK's
// own attribute, which its generated interceptors carry (hidden from its docs): were it dropped,
// this would not build; were it ignored, every hook would be called again, as before.
#[aws_smithy_runtime_api::client::interceptors::dyn_dispatch_hint]
impl Intercept for PageHook {
    fn name(&self) -> &'static str {
        "dynomodel::PageHook"
    }

    /// Once per execution, after the operation's configuration (its deserializer and metadata)
    /// is in `cfg`, and before the retry loop: every attempt goes through the wrapper. The page
    /// is taken from the arms, so a client hooked twice wraps once.
    fn read_before_serialization(
        &self,
        _context: &BeforeSerializationInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let Some(slot) = take_armed(|arms| arms.page.take()) else {
            return Ok(());
        };
        let wrapper = cfg
            .load::<Metadata>()
            .and_then(|op| sdk_deserializer(op.name()))
            .map(|(inner, member)| PageDeserializer {
                inner,
                member,
                slot,
            });
        if let Some(wrapper) = wrapper {
            cfg.interceptor_state()
                .store_put(SharedResponseDeserializer::new(wrapper));
        }
        Ok(())
    }

    /// Once per execution, the request serialized and before the retry loop (every attempt
    /// signs and sends this request): the member the model wrote goes into its body.
    fn modify_before_retry_loop(
        &self,
        context: &mut BeforeTransmitInterceptorContextMut<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let Some(written) = take_armed(|arms| arms.written.take()) else {
            return Ok(());
        };
        match cfg.load::<Metadata>() {
            Some(op) => written.write_into(op.name(), context.request_mut()),
            None => Ok(()),
        }
    }
}

/// What `take` takes from the arms of the request polling on this thread, if any.
fn take_armed<T>(take: impl FnOnce(&mut Arms) -> Option<T>) -> Option<T> {
    ARMED.with(|armed| armed.borrow_mut().as_mut().and_then(take))
}

/// The SDK's own response deserializer of operation `op` and the member read from its body,
/// `None` unless it is Query, Scan or GetItem: the deserializer its operation's runtime plugin
/// stores (the plugins are public, their deserializers are not, and the config bag lends the one
/// it holds only by reference), made once.
fn sdk_deserializer(op: &str) -> Option<(&'static SharedResponseDeserializer, Member)> {
    static QUERY: OnceLock<Option<FrozenLayer>> = OnceLock::new();
    static SCAN: OnceLock<Option<FrozenLayer>> = OnceLock::new();
    static GET_ITEM: OnceLock<Option<FrozenLayer>> = OnceLock::new();
    let (layer, member) = match op {
        "Query" => (QUERY.get_or_init(|| Query::new().config()), Member::Items),
        "Scan" => (SCAN.get_or_init(|| Scan::new().config()), Member::Items),
        "GetItem" => (
            GET_ITEM.get_or_init(|| GetItem::new().config()),
            Member::Item,
        ),
        _ => return None,
    };
    Some((
        layer.as_ref()?.load::<SharedResponseDeserializer>()?,
        member,
    ))
}

/// The member of a response read from its body: a page's `Items` or a GetItem's `Item`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Member {
    Items,
    Item,
}

impl Member {
    /// The member read from `body`, if the reader reads it.
    fn read(self, body: &[u8]) -> Option<BodyPage> {
        match self {
            Member::Items => read_items(body),
            Member::Item => read_item(body),
        }
    }

    /// What the SDK is given in place of the member's value once it is read: an empty page, or
    /// an empty item (which the SDK reads as `Some(empty map)`, left unused).
    fn emptied(self) -> &'static [u8] {
        match self {
            Member::Items => b"[]",
            Member::Item => b"{}",
        }
    }
}

/// The operation's own deserializer, given a successful response's body with its `Items` (or
/// `Item`) emptied once they are read into `slot`; any other response as it came.
pub(crate) struct PageDeserializer {
    inner: &'static SharedResponseDeserializer,
    member: Member,
    slot: PageSlot,
}

impl std::fmt::Debug for PageDeserializer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageDeserializer")
            .field("inner", &self.inner)
            .field("member", &self.member)
            .finish_non_exhaustive()
    }
}

impl DeserializeResponse for PageDeserializer {
    fn deserialize_streaming_with_config(
        &self,
        response: &mut HttpResponse,
        cfg: &ConfigBag,
    ) -> Option<OutputOrError> {
        self.inner.deserialize_streaming_with_config(response, cfg)
    }

    fn deserialize_nonstreaming_with_config(
        &self,
        response: &HttpResponse,
        cfg: &ConfigBag,
    ) -> OutputOrError {
        let page = match response.body().bytes() {
            Some(body) if response.status().as_u16() == 200 => {
                let member = self.member;
                member
                    .read(body)
                    .map(|page| (emptied(response, body, &page.items, member), page))
            }
            _ => None,
        };
        let (output, page) = match page {
            Some((emptied, page)) => {
                match self
                    .inner
                    .deserialize_nonstreaming_with_config(&emptied, cfg)
                {
                    Ok(output) => (Ok(output), Some(page)),
                    // A member beside the items the SDK refuses: its error from the body as it
                    // came (the error's text gives a byte offset, which the emptied body moves).
                    Err(_) => (
                        self.inner
                            .deserialize_nonstreaming_with_config(response, cfg),
                        None,
                    ),
                }
            }
            None => (
                self.inner
                    .deserialize_nonstreaming_with_config(response, cfg),
                None,
            ),
        };
        // An attempt's page replaces an earlier attempt's; one that did not deserialize leaves
        // none (the SDK retries it or fails the request).
        *self.slot.lock().unwrap_or_else(PoisonError::into_inner) = page;
        output
    }
}

/// `response` with its body's `items` range replaced by `member`'s empty value: the same status and
/// headers (the request id, the checksum the SDK reads from them).
fn emptied(
    response: &HttpResponse,
    body: &[u8],
    items: &std::ops::Range<usize>,
    member: Member,
) -> HttpResponse {
    let mut rest = Vec::with_capacity(body.len() - items.len() + 2);
    rest.extend_from_slice(&body[..items.start]);
    rest.extend_from_slice(member.emptied());
    rest.extend_from_slice(&body[items.end..]);
    let mut emptied = HttpResponse::new(response.status(), SdkBody::from(rest));
    *emptied.headers_mut() = response.headers().clone();
    emptied
}

pin_project_lite::pin_project! {
    /// A request's SDK future, armed: while it polls, the thread's [`ARMED`] arms are its own, so
    /// that [`PageHook`] takes them (the SDK runs the interceptors, the serializer and the
    /// deserializer inside this poll). Were one ever run outside it, the request would simply not
    /// be armed: the SDK's items would answer a read, and a written member's caller would see it
    /// was not written.
    pub(crate) struct Armed<F> {
        arms: Arms,
        #[pin]
        inner: F,
    }
}

impl<F> Armed<F> {
    /// `inner`, armed with `arms`.
    pub(crate) fn new(arms: Arms, inner: F) -> Armed<F> {
        Armed { arms, inner }
    }
}

impl<F: Future> Future for Armed<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        let _armed = Arming::new(this.arms);
        this.inner.poll(cx)
    }
}

/// The request's arms moved into the thread's slot for one poll, and when the poll ends
/// (returning or unwinding) what the hook left of them moved back, and the slot's previous
/// arms put back, so that no other request on the thread is ever armed by this one.
struct Arming<'a> {
    arms: &'a mut Arms,
    previous: Option<Arms>,
}

impl<'a> Arming<'a> {
    fn new(arms: &'a mut Arms) -> Arming<'a> {
        let previous = ARMED.with(|armed| armed.replace(Some(std::mem::take(arms))));
        Arming { arms, previous }
    }
}

impl Drop for Arming<'_> {
    fn drop(&mut self) {
        let previous = self.previous.take();
        *self.arms = ARMED
            .with(|armed| armed.replace(previous))
            .unwrap_or_default();
    }
}

#[cfg(test)]
mod tests;
