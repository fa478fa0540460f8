//! Backfills: [`Db::backfill`] rewrites every stored item of a model that is *behind* what the
//! model writes today: written at an older item version, or missing (or holding a stale value of)
//! a composite or index key attribute that a newer model derives from its fields, such as the keys
//! of a global index added later, which DynamoDB's own index backfill cannot fill in.
//!
//! ```
//! use dynomodel::{Db, Model};
//! # use dynomodel_mem::MemoryDb;
//!
//! #[derive(Model, Debug, Clone, PartialEq)]
//! #[dynomodel(table = "users")]
//! struct UserV1 { #[hash_key] id: String, city: String }
//!
//! // The next release adds a field with a default, and an index on it.
//! fn free() -> String { "free".into() }
//! #[derive(Model, Debug, Clone, PartialEq)]
//! #[dynomodel(table = "users")]
//! #[global_index(all("by-tier", hash = tier))]
//! struct User {
//!     #[hash_key] id: String,
//!     city: String,
//!     #[dynomodel(default = "free")] tier: String,
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
//! let db = Db::memory();
//! db.create_schema::<UserV1>().await?;
//! for i in 0..10 {
//!     db.put(&UserV1 { id: format!("u{i}"), city: "Paris".into() }).await?;
//! }
//! db.plan::<User>().await?.apply(&db).await?; // adds the index: it holds none of the old items
//!
//! let dry = db.backfill::<User>().dry_run().await?;
//! assert_eq!((dry.progress.rewritten, dry.complete), (10, true));
//!
//! let report = db.backfill::<User>().segments(2).write_budget(100.0).await?;
//! assert_eq!(report.progress.rewritten, 10);
//! assert_eq!(report.progress.failed, 0);
//! let free = db.query_index(User::by_tier(), "free").all().await?;
//! assert_eq!(free.len(), 10); // before the backfill, the index held none of them
//! # Ok::<(), dynomodel::Error>(())
//! # }).unwrap();
//! ```
//!
//! # How an item is judged, and rewritten
//!
//! Each item is decoded through the model's read path (an older item version is upcast),
//! encoded again with [`Model::to_item`], and compared with what is stored; an item that differs
//! is rewritten with an `UpdateItem` of only what differs, conditional on the item being unchanged
//! since it was read (its `#[version]` and counters as read when the model has a version; every
//! stored attribute as read otherwise). A lost race is counted
//! ([`races`](BackfillProgress::races)) and the item judged again as it now is (the failed
//! condition's answer carries it), never overwritten. Attributes the model does not declare are
//! left alone. An item that does not decode, or whose rewrite DynamoDB refuses, is counted
//! [`failed`](BackfillProgress::failed) and named by key in [`BackfillReport::failures`]; the run
//! goes on with the others, and [`BackfillReport::into_result`] turns failures into an error.
//!
//! # Segments, budget, checkpoint, progress, stop
//!
//! - [`segments`](Backfill::segments): a parallel scan of `n` segments, run concurrently.
//! - [`write_budget`](Backfill::write_budget): write capacity units per second, counted from the
//!   units each rewrite reports; the segments share it. A throttled request
//!   (`ProvisionedThroughputExceededException`, `ThrottlingException`, …) is retried after an
//!   exponential backoff, up to [`max_retries`](Backfill::max_retries) times; past that, the run
//!   stops with an [`Error::Backfill`](crate::Error::Backfill) holding its report and cause.
//! - [`checkpoint`](Backfill::checkpoint): a [`CheckpointStore`] (a [file](FileCheckpoint), a
//!   [table](TableCheckpoint)) where each segment's position is saved after every page and when the
//!   run stops; a run with a saved checkpoint resumes from it, and a finished run clears it.
//! - [`on_progress`](Backfill::on_progress): called after each item with the running counts.
//! - [`stop_handle`](Backfill::stop_handle): a [`StopHandle`] another task (or the progress
//!   callback) stops the run with; each segment stops before its next item, saves its position,
//!   and the report says [`stopped`](BackfillReport::stopped).
//! - [`dry_run`](Backfill::dry_run): reads and judges every item, writes nothing (no checkpoint
//!   either), and counts in `rewritten` what a run would rewrite.
//!
//! A run costs the scan (½ RCU per 4 KB read, eventually consistent) plus, per rewritten item, an
//! `UpdateItem` (the larger of the item before and after, per KB, plus its index writes), and a
//! strongly consistent `GetItem` only after a lost race whose answer did not carry the item.

mod budget;
mod checkpoint;
mod clock;
mod error;
mod item;
mod report;
mod run;

use std::future::IntoFuture;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub use checkpoint::{
    Checkpoint, CheckpointStore, FileCheckpoint, MemoryCheckpoint, SegmentPosition, TableCheckpoint,
};
pub use clock::{BackfillClock, SimulatedClock, SystemClock};
pub use error::BackfillError;
pub use report::{BackfillFailure, BackfillProgress, BackfillReport, MAX_FAILURES_KEPT};

use crate::db::{Db, DbFuture};
use crate::error::Result;
use crate::model::Model;

/// The progress callback of a backfill.
pub(crate) type ProgressCallback = Arc<dyn Fn(&BackfillProgress) + Send + Sync>;

/// Stops a running backfill: each segment stops before its next item and saves its position in
/// the checkpoint. Clones share one flag.
///
/// ```
/// use dynomodel::backfill::StopHandle;
///
/// let stop = StopHandle::new();
/// let for_the_callback = stop.clone();
/// for_the_callback.stop();
/// assert!(stop.is_stopped());
/// ```
#[derive(Debug, Clone, Default)]
pub struct StopHandle {
    flag: Arc<AtomicBool>,
}

impl StopHandle {
    /// A handle not stopped yet.
    pub fn new() -> StopHandle {
        StopHandle::default()
    }

    /// Asks the backfill to stop.
    pub fn stop(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// Whether [`stop`](StopHandle::stop) was called.
    pub fn is_stopped(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }
}

/// How a backfill runs, whatever its model: what [`Backfill`]'s methods set, and what
/// [`ApplyOptions::backfills`](crate::migrate::ApplyOptions::backfills) runs a plan's data steps
/// with. The default: one segment, 1 MB pages, no budget, no checkpoint, no progress callback, the
/// system's clock, 10 retries.
///
/// ```
/// use dynomodel::backfill::BackfillOptions;
///
/// let options = BackfillOptions::default().segments(4).write_budget(100.0);
/// # let _ = options;
/// ```
#[derive(Clone)]
pub struct BackfillOptions {
    segments: u32,
    page_size: Option<u32>,
    write_budget: Option<f64>,
    checkpoint: Option<Arc<dyn CheckpointStore>>,
    on_progress: Option<ProgressCallback>,
    dry_run: bool,
    stop: Option<StopHandle>,
    clock: Arc<dyn BackfillClock>,
    max_retries: u32,
}

impl Default for BackfillOptions {
    fn default() -> Self {
        BackfillOptions {
            segments: 1,
            page_size: None,
            write_budget: None,
            checkpoint: None,
            on_progress: None,
            dry_run: false,
            stop: None,
            clock: Arc::new(SystemClock::new()),
            max_retries: 10,
        }
    }
}

impl std::fmt::Debug for BackfillOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BackfillOptions")
            .field("segments", &self.segments)
            .field("page_size", &self.page_size)
            .field("write_budget", &self.write_budget)
            .field("checkpoint", &self.checkpoint)
            .field("on_progress", &self.on_progress.is_some())
            .field("dry_run", &self.dry_run)
            .field("stop", &self.stop)
            .field("clock", &self.clock)
            .field("max_retries", &self.max_retries)
            .finish()
    }
}

/// The setters [`BackfillOptions`] and [`Backfill`] share.
macro_rules! setters {
    ($($field:ident)?) => {
        /// Scans in `n` parallel segments (1 to 1,000,000), run concurrently. A run resuming from a
        /// checkpoint keeps the checkpoint's number.
        pub fn segments(mut self, n: u32) -> Self {
            self$(.$field)?.segments = n;
            self
        }

        /// Reads at most `n` items per page (DynamoDB's `Limit`; without it, 1 MB pages): the
        /// checkpoint is saved after each page.
        pub fn page_size(mut self, n: u32) -> Self {
            self$(.$field)?.page_size = Some(n);
            self
        }

        /// Writes at most `units_per_second` write capacity units per second, all segments
        /// together.
        pub fn write_budget(mut self, units_per_second: f64) -> Self {
            self$(.$field)?.write_budget = Some(units_per_second);
            self
        }

        /// Keeps the run's position in `store`, and resumes from what it holds.
        pub fn checkpoint(mut self, store: impl CheckpointStore + 'static) -> Self {
            self$(.$field)?.checkpoint = Some(Arc::new(store));
            self
        }

        /// Calls `report` after each item with the running counts.
        pub fn on_progress(
            mut self,
            report: impl Fn(&BackfillProgress) + Send + Sync + 'static,
        ) -> Self {
            self$(.$field)?.on_progress = Some(Arc::new(report));
            self
        }

        /// Judges every item, writes nothing, and counts what a run would rewrite.
        pub fn dry_run(mut self) -> Self {
            self$(.$field)?.dry_run = true;
            self
        }

        /// Stops the run when `handle` is stopped.
        pub fn stop_handle(mut self, handle: &StopHandle) -> Self {
            self$(.$field)?.stop = Some(handle.clone());
            self
        }

        /// Paces and backs off on `clock`: by default the system's, which sleeps on tokio's timer
        /// (the runtime needs it enabled when the run has a budget or meets throttling); a
        /// [`SimulatedClock`] in tests.
        pub fn clock(mut self, clock: impl BackfillClock + 'static) -> Self {
            self$(.$field)?.clock = Arc::new(clock);
            self
        }

        /// Retries a throttled (or failed-in-transit) request up to `n` times (10 by default)
        /// before the run stops with the error.
        pub fn max_retries(mut self, n: u32) -> Self {
            self$(.$field)?.max_retries = n.max(1);
            self
        }
    };
}

impl BackfillOptions {
    setters!();
}

/// A backfill of model `M`'s items, built by [`Db::backfill`]; `.await` runs it (see
/// [the module](crate::backfill)).
#[must_use = "a backfill does nothing until awaited"]
pub struct Backfill<'a, M> {
    db: &'a Db,
    options: BackfillOptions,
    model: PhantomData<fn() -> M>,
}

impl Db {
    /// A backfill of `M`'s table: rewrites every item that is behind what `M` writes (see
    /// [`crate::backfill`]). One segment, no budget, no checkpoint until set.
    pub fn backfill<M: Model>(&self) -> Backfill<'_, M> {
        Backfill {
            db: self,
            options: BackfillOptions::default(),
            model: PhantomData,
        }
    }
}

impl<'a, M: Model> Backfill<'a, M> {
    setters!(options);

    /// Every option at once (replacing those set before).
    pub fn options(mut self, options: BackfillOptions) -> Self {
        self.options = options;
        self
    }
}

impl<'a, M: Model> IntoFuture for Backfill<'a, M> {
    type Output = Result<BackfillReport>;
    type IntoFuture = DbFuture<'a, BackfillReport>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(run::run(self.db, self.options, PhantomData::<M>))
    }
}

/// Runs `M`'s backfill with `options`: what a plan's data step holds for its model.
pub(crate) fn run_for<M: Model>(db: &Db, options: BackfillOptions) -> DbFuture<'_, BackfillReport> {
    Box::pin(run::run(db, options, PhantomData::<M>))
}
