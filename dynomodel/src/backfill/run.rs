//! Running a backfill: the segments scanned concurrently, each item's rewrite (paced by the
//! budget, retried after a throttle or a lost race), the checkpoint saved after each page and when
//! the run stops, the progress reported after each item.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use futures::lock::Mutex as AsyncMutex;

use super::budget::{backoff, Pacer};
use super::checkpoint::{Checkpoint, CheckpointStore, SegmentPosition};
use super::clock::BackfillClock;
use super::error::BackfillError;
use super::item::{needs, Needs};
use super::report::{BackfillFailure, BackfillProgress, BackfillReport, MAX_FAILURES_KEPT};
use super::{BackfillOptions, ProgressCallback};
use crate::backend::{ConsumedCapacity, GetItemInput, ReturnConsumedCapacity, ScanInput};
use crate::db::decode::TableKey;
use crate::db::Db;
use crate::error::{Error, Result};
use crate::model::{entity_filter, Model};
use crate::value::{AttributeValue, Item};

/// How many times one item's rewrite is retried after losing a race before it is reported failed.
const MAX_RACES_PER_ITEM: u32 = 10;

/// What the segments share.
struct Run<'a> {
    db: &'a Db,
    table: String,
    keys: TableKey,
    entity: Option<(&'static str, &'static str)>,
    total_segments: u32,
    page_size: Option<u32>,
    dry_run: bool,
    max_retries: u32,
    clock: Arc<dyn BackfillClock>,
    pacer: Pacer,
    store: Option<Arc<dyn CheckpointStore>>,
    checkpoint: AsyncMutex<Checkpoint>,
    counts: Mutex<(BackfillProgress, Vec<BackfillFailure>)>,
    on_progress: Option<ProgressCallback>,
    stop: Option<Arc<AtomicBool>>,
    /// Set when a segment is interrupted by an error: the others stop at their next item.
    abort: AtomicBool,
}

/// How a segment ended.
enum SegmentEnd {
    Done,
    Stopped,
}

pub(crate) async fn run<M: Model>(
    db: &Db,
    options: BackfillOptions,
    _model: std::marker::PhantomData<M>,
) -> Result<BackfillReport> {
    let table = db.table_name::<M>();
    if !(1..=1_000_000).contains(&options.segments) {
        return Err(Error::validation(format!(
            "a backfill of `{table}` needs 1 to 1,000,000 segments, not {}",
            options.segments
        )));
    }
    let store = if options.dry_run {
        None
    } else {
        options.checkpoint.clone()
    };
    let saved = match &store {
        Some(store) => store.load().await?,
        None => None,
    };
    let resumed = saved.is_some();
    let checkpoint = match saved {
        Some(saved) if saved.table != table => {
            return Err(BackfillError::checkpoint(format!(
                "the checkpoint belongs to a backfill of `{}`, not of `{table}`: clear it or use \
                 another",
                saved.table
            )))
        }
        Some(saved) => saved,
        None => Checkpoint {
            table: table.clone(),
            segments: vec![SegmentPosition::Start; options.segments as usize],
        },
    };
    let total_segments = u32::try_from(checkpoint.segments.len()).unwrap_or(u32::MAX);
    let run = Run {
        db,
        table: table.clone(),
        keys: TableKey::of::<M>(),
        entity: entity_filter::<M>(),
        total_segments,
        page_size: options.page_size,
        dry_run: options.dry_run,
        max_retries: options.max_retries,
        clock: options.clock.clone(),
        pacer: Pacer::new(options.write_budget),
        store,
        checkpoint: AsyncMutex::new(checkpoint),
        counts: Mutex::new((BackfillProgress::default(), Vec::new())),
        on_progress: options.on_progress.clone(),
        stop: options.stop.as_ref().map(|s| s.flag.clone()),
        abort: AtomicBool::new(false),
    };
    let started = run.clock.now();

    let segments = (0..total_segments).map(|segment| run.segment::<M>(segment));
    let ends = futures::future::join_all(segments).await;

    let (progress, failures) = {
        let counts = run.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.clone()
    };
    let elapsed = run
        .clock
        .now()
        .max(run.pacer.reserved_until())
        .saturating_sub(started);
    let mut report = BackfillReport {
        table,
        progress,
        failures,
        dry_run: options.dry_run,
        resumed,
        complete: false,
        stopped: false,
        elapsed,
    };
    let mut interrupted = None;
    for end in ends {
        match end {
            Ok(SegmentEnd::Done) => {}
            Ok(SegmentEnd::Stopped) => report.stopped = true,
            Err(e) => interrupted = interrupted.or(Some(e)),
        }
    }
    if let Some(cause) = interrupted {
        report.stopped = true;
        return Err(BackfillError::interrupted(cause, report));
    }
    report.complete = !report.stopped;
    if report.complete {
        if let Some(store) = &run.store {
            store.clear().await?;
        }
        // Every item is now at the model's item version: plans stop listing the backfill.
        if let (Some(version), false, 0) =
            (M::ITEM_VERSION, options.dry_run, report.progress.failed)
        {
            let model = crate::db::names::model_name::<M>();
            crate::migrate::record_item_version(db, &report.table, model, version).await?;
        }
    }
    Ok(report)
}

impl Run<'_> {
    fn stopping(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
            || self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Moves `segment` to `position` and saves the checkpoint (not in a dry run).
    async fn save(&self, segment: u32, position: SegmentPosition) -> Result<()> {
        let mut checkpoint = self.checkpoint.lock().await;
        if let Some(slot) = checkpoint.segments.get_mut(segment as usize) {
            *slot = position;
        }
        match &self.store {
            Some(store) => store.save(&checkpoint).await,
            None => Ok(()),
        }
    }

    fn count(&self, change: impl FnOnce(&mut BackfillProgress, &mut Vec<BackfillFailure>)) {
        let progress = {
            let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
            let (progress, failures) = &mut *counts;
            change(progress, failures);
            *progress
        };
        if let Some(report) = &self.on_progress {
            report(&progress);
        }
    }

    fn units(consumed: Option<&ConsumedCapacity>) -> Option<f64> {
        consumed.and_then(|c| c.capacity_units)
    }

    /// A retryable error (throttling, a service fault, the network): counted, and paused after.
    async fn pause_after(&self, error: &Error, attempt: u32, segment: u32) -> bool {
        let retryable = match error {
            Error::Throughput { .. } => {
                self.count(|p, _| p.throttled += 1);
                true
            }
            Error::Transport(_) => true,
            Error::Service { code, .. } => {
                matches!(code.as_str(), "InternalServerError" | "ServiceUnavailable")
            }
            _ => false,
        };
        if !retryable || attempt >= self.max_retries {
            return false;
        }
        let deadline = self.clock.now() + backoff(attempt, segment);
        self.clock.sleep_until(deadline).await;
        true
    }

    async fn segment<M: Model>(&self, segment: u32) -> Result<SegmentEnd> {
        let mut position = {
            let checkpoint = self.checkpoint.lock().await;
            checkpoint
                .segments
                .get(segment as usize)
                .cloned()
                .unwrap_or(SegmentPosition::Done)
        };
        loop {
            let start = match position {
                SegmentPosition::Done => return Ok(SegmentEnd::Done),
                SegmentPosition::Start => None,
                SegmentPosition::After(ref key) => Some(key.clone()),
            };
            if self.stopping() {
                return Ok(SegmentEnd::Stopped);
            }
            let page = self.scan_page(segment, start).await?;
            let mut last = None;
            for item in page.items.unwrap_or_default() {
                if self.stopping() {
                    if let Some(key) = last {
                        self.save(segment, SegmentPosition::After(key)).await?;
                    }
                    return Ok(SegmentEnd::Stopped);
                }
                let key = self.keys.key_of(&item);
                if let Err(e) = self.item::<M>(item, segment).await {
                    // Save what was done before the error, so a new run resumes at this item.
                    if let Some(key) = last {
                        self.save(segment, SegmentPosition::After(key)).await?;
                    }
                    self.abort.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                last = Some(key);
            }
            position = match page.last_evaluated_key {
                Some(key) => SegmentPosition::After(key),
                None => SegmentPosition::Done,
            };
            self.save(segment, position.clone()).await?;
        }
    }

    async fn scan_page(
        &self,
        segment: u32,
        start: Option<Item>,
    ) -> Result<crate::backend::QueryOutput> {
        let mut input = ScanInput {
            table_name: self.table.clone(),
            exclusive_start_key: start,
            limit: self.page_size.map(|n| i32::try_from(n).unwrap_or(i32::MAX)),
            return_consumed_capacity: Some(ReturnConsumedCapacity::Total),
            ..Default::default()
        };
        if self.total_segments > 1 {
            input.segment = Some(segment as i32);
            input.total_segments = Some(self.total_segments as i32);
        }
        if let Some((attribute, entity)) = self.entity {
            input.filter_expression = Some("#e = :e".to_owned());
            input.expression_attribute_names = Some([("#e".into(), attribute.into())].into());
            input.expression_attribute_values =
                Some([(":e".into(), AttributeValue::S(entity.into()))].into());
        }
        let mut attempt = 0;
        loop {
            attempt += 1;
            match self.db.calls.scan(input.clone()).await {
                Ok(page) => {
                    let units = Self::units(page.consumed_capacity.as_ref()).unwrap_or(0.0);
                    self.count(|p, _| p.read_units += units);
                    return Ok(page);
                }
                Err(e) => {
                    if !self.pause_after(&e, attempt, segment).await {
                        return Err(e);
                    }
                }
            }
        }
    }

    /// One item: counted scanned, then unchanged, rewritten, vanished or failed. An `Err` is an
    /// error the run cannot go past (retries exhausted, the table gone).
    async fn item<M: Model>(&self, mut stored: Item, segment: u32) -> Result<()> {
        self.count(|p, _| p.scanned += 1);
        let mut races = 0;
        loop {
            let (mut input, estimate) = match needs::<M>(&self.table, &stored) {
                Ok(Needs::Nothing) => {
                    self.count(|p, _| p.unchanged += 1);
                    return Ok(());
                }
                Ok(Needs::Rewrite { input, estimate }) => (input, estimate),
                Err(e) => {
                    self.fail(self.keys.key_of(&stored), e);
                    return Ok(());
                }
            };
            if self.dry_run {
                self.count(|p, _| p.rewritten += 1);
                return Ok(());
            }
            let mut attempt = 0;
            let outcome = loop {
                attempt += 1;
                self.pacer.reserve(&*self.clock, estimate).await;
                let result = self.db.calls.update_item((*input).clone()).await;
                let consumed = match &result {
                    Ok(output) => Self::units(output.consumed_capacity.as_ref()),
                    Err(_) => None,
                };
                // A failed write consumes nothing the backend reports; a condition failure costs
                // a unit in DynamoDB, which the estimate stands for.
                let units = consumed.unwrap_or(match &result {
                    Err(Error::ConditionalCheckFailed { .. }) | Ok(_) => estimate,
                    Err(_) => 0.0,
                });
                self.pacer.settle(estimate, units);
                self.count(|p, _| p.write_units += units);
                match result {
                    Err(e) if self.pause_after(&e, attempt, segment).await => continue,
                    other => break other,
                }
            };
            match outcome {
                Ok(_) => {
                    self.count(|p, _| p.rewritten += 1);
                    return Ok(());
                }
                Err(Error::ConditionalCheckFailed { item, .. }) => {
                    races += 1;
                    self.count(|p, _| p.races += 1);
                    let current = match item {
                        Some(item) => Some(item),
                        None => self.reread(std::mem::take(&mut input.key), segment).await?,
                    };
                    match current {
                        None => {
                            self.count(|p, _| p.vanished += 1);
                            return Ok(());
                        }
                        Some(_) if races >= MAX_RACES_PER_ITEM => {
                            let key = self.keys.key_of(&stored);
                            self.fail(
                                key,
                                Error::validation(format!(
                                    "the item kept changing: {races} rewrites lost a race with \
                                     other writers"
                                )),
                            );
                            return Ok(());
                        }
                        Some(current) => stored = current,
                    }
                }
                Err(e @ (Error::Validation { .. } | Error::Conversion(_))) => {
                    self.fail(self.keys.key_of(&stored), e);
                    return Ok(());
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// The item under `key` as it is now (a strongly consistent read), after a lost race whose
    /// answer did not carry it.
    async fn reread(&self, key: Item, segment: u32) -> Result<Option<Item>> {
        let input = GetItemInput {
            table_name: self.table.clone(),
            key,
            consistent_read: Some(true),
            return_consumed_capacity: Some(ReturnConsumedCapacity::Total),
            ..Default::default()
        };
        let mut attempt = 0;
        loop {
            attempt += 1;
            match self.db.calls.get_item(input.clone()).await {
                Ok(output) => {
                    let units = Self::units(output.consumed_capacity.as_ref()).unwrap_or(0.0);
                    self.count(|p, _| p.read_units += units);
                    return Ok(output.item);
                }
                Err(e) => {
                    if !self.pause_after(&e, attempt, segment).await {
                        return Err(e);
                    }
                }
            }
        }
    }

    fn fail(&self, key: Item, error: Error) {
        self.count(|p, failures| {
            p.failed += 1;
            if failures.len() < MAX_FAILURES_KEPT {
                failures.push(BackfillFailure { key, error });
            }
        });
    }
}
