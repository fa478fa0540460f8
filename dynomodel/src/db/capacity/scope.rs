//! `.with_capacity()`: the capacity every request a future (or stream) sends consumed.
//!
//! While a [`WithCapacity`] polls the future it wraps, its tally is on a thread-local stack; each
//! request [`Calls`](super::Calls) sends reads the stack when it starts, asks for the strongest
//! `ReturnConsumedCapacity` any enclosing tally wants, and adds its response's report to each of them.
//! Every request of a mapper operation starts inside the poll of that operation's future (batches run
//! their chunks concurrently but within the one future, never on spawned tasks), so this covers
//! queries over many pages, batches over many chunks and retries, and transactions alike, without a
//! parameter threaded through every builder, and without any cost for a request outside a tally
//! beyond one thread-local read.

use std::cell::RefCell;
use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use futures::Stream;

use super::consumed::{Consumed, Kind};
use crate::backend::{ConsumedCapacity, ReturnConsumedCapacity};
use crate::error::Result;

/// What one `.with_capacity()` collects.
#[derive(Debug)]
pub(crate) struct Tally {
    ask: ReturnConsumedCapacity,
    consumed: Mutex<Consumed>,
}

impl Tally {
    fn new(ask: ReturnConsumedCapacity) -> Arc<Tally> {
        Arc::new(Tally {
            ask,
            consumed: Mutex::new(Consumed::default()),
        })
    }

    fn snapshot(&self) -> Consumed {
        self.consumed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

thread_local! {
    /// The tallies of the `WithCapacity` futures being polled on this thread, innermost last.
    static ACTIVE: RefCell<Vec<Arc<Tally>>> = const { RefCell::new(Vec::new()) };
}

/// The tallies a request starting now reports to (none, without allocating, outside any).
pub(crate) struct Scope(Vec<Arc<Tally>>);

impl Scope {
    pub(crate) fn current() -> Scope {
        ACTIVE.with(|active| match active.try_borrow() {
            Ok(active) if !active.is_empty() => Scope(active.clone()),
            _ => Scope(Vec::new()),
        })
    }

    /// The strongest `ReturnConsumedCapacity` the tallies want.
    pub(crate) fn ask(&self) -> ReturnConsumedCapacity {
        self.0
            .iter()
            .map(|t| t.ask)
            .fold(ReturnConsumedCapacity::None, strongest)
    }

    pub(crate) fn record(&self, kind: Kind, reported: &[ConsumedCapacity]) {
        for tally in &self.0 {
            let mut consumed = tally
                .consumed
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            consumed.add(kind, reported);
        }
    }
}

/// The one of two settings that reports more.
pub(crate) fn strongest(
    a: ReturnConsumedCapacity,
    b: ReturnConsumedCapacity,
) -> ReturnConsumedCapacity {
    use ReturnConsumedCapacity::*;
    match (a, b) {
        (Indexes, _) | (_, Indexes) => Indexes,
        (Total, _) | (_, Total) => Total,
        _ => None,
    }
}

/// Puts a tally on the stack for one poll; takes it off again even if the poll panics.
struct Entered;

impl Entered {
    fn enter(tally: &Arc<Tally>) -> Entered {
        ACTIVE.with(|active| active.borrow_mut().push(tally.clone()));
        Entered
    }
}

impl Drop for Entered {
    fn drop(&mut self) {
        ACTIVE.with(|active| {
            active.borrow_mut().pop();
        });
    }
}

/// A request future that also reports the capacity its requests consumed: `.await` it for
/// `(value, Consumed)`. Made by [`CapacityExt::with_capacity`].
#[must_use = "futures do nothing unless awaited"]
pub struct WithCapacity<F> {
    inner: Pin<Box<F>>,
    tally: Arc<Tally>,
}

impl<F, T> Future for WithCapacity<F>
where
    F: Future<Output = Result<T>>,
{
    type Output = Result<(T, Consumed)>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        let polled = {
            let _entered = Entered::enter(&this.tally);
            this.inner.as_mut().poll(cx)
        };
        polled.map(|result| result.map(|value| (value, this.tally.snapshot())))
    }
}

/// `.with_capacity()` on any request of a [`Db`](crate::Db): a builder (`db.get::<M>(key)`,
/// `db.put(&item)`, `db.batch_write()`, `db.transact()`, …), a finisher's future
/// (`.returning_old()`), or a query's or scan's `.all()`, `.page(n, cursor)`, `.first()`, `.count()`.
///
/// The request asks DynamoDB for `ReturnConsumedCapacity=TOTAL` (or `INDEXES`), and the output
/// becomes `(value, Consumed)`: every request the operation sent, summed per table (a query's
/// pages, a batch's chunks and retries). Without it, nothing is asked and nothing is kept.
///
/// ```
/// use dynomodel::{CapacityExt, Db, Model};
/// use dynomodel_mem::MemoryDb;
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "users")]
/// struct User { #[hash_key] id: String, name: String }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = Db::memory();
/// db.create_schema::<User>().await?;
/// let ((), put) = db.put(&User { id: "u1".into(), name: "Ada".into() }).with_capacity().await?;
/// let (user, get) = db.get::<User>("u1").with_capacity().await?;
/// assert_eq!(user.map(|u| u.name), Some("Ada".to_owned()));
/// assert_eq!(put.write_units(), 1.0); // a small item: 1 KB or less
/// assert_eq!(get.read_units(), 0.5); // 4 KB or less, eventually consistent
/// assert_eq!(put.table(&db.table_name::<User>()).and_then(|t| t.capacity_units), Some(1.0));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
pub trait CapacityExt<T>: IntoFuture<Output = Result<T>> + Sized {
    /// Asks for `ReturnConsumedCapacity=TOTAL` and gives `(value, Consumed)`.
    fn with_capacity(self) -> WithCapacity<Self::IntoFuture> {
        self.with_capacity_as(ReturnConsumedCapacity::Total)
    }

    /// Asks for `ReturnConsumedCapacity=INDEXES` (the table's and each index's share as well) and
    /// gives `(value, Consumed)`.
    fn with_capacity_by_index(self) -> WithCapacity<Self::IntoFuture> {
        self.with_capacity_as(ReturnConsumedCapacity::Indexes)
    }

    /// Asks for `ask` (`NONE` still collects what any response reports) and gives `(value, Consumed)`.
    fn with_capacity_as(self, ask: ReturnConsumedCapacity) -> WithCapacity<Self::IntoFuture> {
        WithCapacity {
            inner: Box::pin(self.into_future()),
            tally: Tally::new(ask),
        }
    }
}

impl<F, T> CapacityExt<T> for F where F: IntoFuture<Output = Result<T>> {}

/// A stream of results (a query's or scan's `.stream()`, a batch get stream) that also counts the
/// capacity its requests consumed so far: read it with [`consumed`](CapacityStream::consumed)
/// between items or at the end. Made by [`StreamCapacityExt::with_capacity`].
#[must_use = "streams do nothing unless polled"]
pub struct CapacityStream<S> {
    inner: Pin<Box<S>>,
    tally: Arc<Tally>,
}

impl<S> CapacityStream<S> {
    /// The capacity of every request sent so far, summed per table.
    pub fn consumed(&self) -> Consumed {
        self.tally.snapshot()
    }
}

impl<S: Stream> Stream for CapacityStream<S> {
    type Item = S::Item;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        let this = self.get_mut();
        let _entered = Entered::enter(&this.tally);
        this.inner.as_mut().poll_next(cx)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

/// `.with_capacity()` on a stream of a [`Db`](crate::Db)'s results: each page it requests asks for
/// `ReturnConsumedCapacity`, and [`CapacityStream::consumed`] sums them.
///
/// ```
/// use dynomodel::{Db, Model, StreamCapacityExt};
/// use dynomodel_mem::MemoryDb;
/// use futures::TryStreamExt;
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Tweet { #[hash_key] userid: String, #[range_key] id: String }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = Db::memory();
/// db.create_schema::<Tweet>().await?;
/// for i in 0..15 {
///     db.put(&Tweet { userid: "ada".into(), id: format!("{i:02}") }).await?;
/// }
/// let mut tweets = db.query::<Tweet>("ada").page_size(10).stream().with_capacity();
/// let mut read = 0;
/// while tweets.try_next().await?.is_some() {
///     read += 1;
///     if read == 1 {
///         assert_eq!(tweets.consumed().read_units(), 0.5); // the first page so far
///     }
/// }
/// assert_eq!(tweets.consumed().read_units(), 1.0); // two pages of small items, 0.5 each
/// assert_eq!(tweets.consumed().requests(), 2);
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
pub trait StreamCapacityExt: Stream + Sized {
    /// Asks for `ReturnConsumedCapacity=TOTAL` on every request of the stream.
    fn with_capacity(self) -> CapacityStream<Self> {
        self.with_capacity_as(ReturnConsumedCapacity::Total)
    }

    /// Asks for `ReturnConsumedCapacity=INDEXES` on every request of the stream.
    fn with_capacity_by_index(self) -> CapacityStream<Self> {
        self.with_capacity_as(ReturnConsumedCapacity::Indexes)
    }

    /// Asks for `ask` on every request of the stream.
    fn with_capacity_as(self, ask: ReturnConsumedCapacity) -> CapacityStream<Self> {
        CapacityStream {
            inner: Box::pin(self),
            tally: Tally::new(ask),
        }
    }
}

impl<S: Stream> StreamCapacityExt for S {}
