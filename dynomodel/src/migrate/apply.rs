//! Running a [`Plan`]: one request per step, in order, waiting between table changes until the table
//! and all its indexes are ACTIVE again (DynamoDB refuses an UpdateTable while anything is
//! CREATING, UPDATING or DELETING), with a timeout and progress reports.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::backend::{
    GlobalSecondaryIndexUpdate, PointInTimeRecoverySpecification, StreamSpecification, TableStatus,
    TagResourceInput, TimeToLiveSpecification, UntagResourceInput, UpdateContinuousBackupsInput,
    UpdateGlobalSecondaryIndexAction, UpdateTableInput, UpdateTimeToLiveInput,
};
use crate::backfill::BackfillOptions;
use crate::db::{Calls, Db};
use crate::error::{Error, Result};
use crate::migrate::error::{MigrationError, MigrationErrorKind};
use crate::migrate::live;
use crate::migrate::plan::Plan;
use crate::migrate::step::{Action, Step};

/// A report [`ApplyOptions::on_progress`] receives.
#[derive(Debug, Clone, Copy)]
pub enum Progress<'a> {
    /// Step `index` (from 0) of `total` is being sent.
    Started {
        /// Its position.
        index: usize,
        /// The number of steps.
        total: usize,
        /// The step.
        step: &'a Step,
    },
    /// The table is not ready yet (it or an index is not ACTIVE, or DynamoDB is still enabling its
    /// backups); apply polls again.
    Waiting {
        /// The table.
        table: &'a str,
        /// How long apply has waited for it so far.
        waited: Duration,
    },
    /// Step `index` was not run: the endpoint does not have its operation (point-in-time recovery on
    /// Amazon DynamoDB Local, which answers `UnknownOperationException`).
    Skipped {
        /// Its position.
        index: usize,
        /// The number of steps.
        total: usize,
        /// The step.
        step: &'a Step,
        /// The endpoint's answer.
        reason: &'a Error,
    },
    /// Step `index` is done (and, for a table change, the table is ACTIVE again).
    Done {
        /// Its position.
        index: usize,
        /// The number of steps.
        total: usize,
        /// The step.
        step: &'a Step,
    },
}

type ProgressFn = Arc<dyn Fn(Progress<'_>) + Send + Sync>;

/// How [`Plan::apply_with`] runs.
///
/// ```
/// use std::time::Duration;
/// use dynomodel::migrate::ApplyOptions;
///
/// let options = ApplyOptions::default()
///     .timeout(Duration::from_secs(600))
///     .poll_interval(Duration::from_secs(5))
///     .on_progress(|progress| eprintln!("{progress:?}"));
/// ```
#[derive(Clone)]
pub struct ApplyOptions {
    timeout: Duration,
    poll_interval: Duration,
    allow_index_drops: bool,
    allow_recovery_off: bool,
    progress: Option<ProgressFn>,
    backfills: Option<BackfillOptions>,
}

impl Default for ApplyOptions {
    /// A 30-minute timeout per wait (backfilling a large index takes a while), polls every 2 s,
    /// index drops refused, no progress reports.
    fn default() -> Self {
        ApplyOptions {
            timeout: Duration::from_secs(30 * 60),
            poll_interval: Duration::from_secs(2),
            allow_index_drops: false,
            allow_recovery_off: false,
            progress: None,
            backfills: None,
        }
    }
}

impl fmt::Debug for ApplyOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ApplyOptions")
            .field("timeout", &self.timeout)
            .field("poll_interval", &self.poll_interval)
            .field("allow_index_drops", &self.allow_index_drops)
            .field("allow_recovery_off", &self.allow_recovery_off)
            .field("progress", &self.progress.is_some())
            .field("backfills", &self.backfills)
            .finish()
    }
}

impl ApplyOptions {
    /// The longest apply waits for a table to be ACTIVE again after one step (measured on tokio's
    /// clock).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The pause between two DescribeTable polls while waiting.
    pub fn poll_interval(mut self, interval: Duration) -> Self {
        self.poll_interval = interval;
        self
    }

    /// Runs steps that delete global indexes. Without it, a plan holding one is refused before
    /// anything is sent: a dropped index breaks every query on it, so it takes an explicit yes.
    pub fn allow_index_drops(mut self) -> Self {
        self.allow_index_drops = true;
        self
    }

    /// Runs steps that turn point-in-time recovery off. Without it, a plan holding one is refused
    /// before anything is sent: turning it off discards the table's recovery window, which turning
    /// it on again does not bring back.
    pub fn allow_recovery_off(mut self) -> Self {
        self.allow_recovery_off = true;
        self
    }

    /// Runs the plan's [data steps](Plan::data_steps) after its schema steps, each a backfill with
    /// `options` (a checkpoint store serves one table: give none, or plan one table at a time).
    /// A backfill that fails an item or does not finish stops the run with its
    /// [`Error::Backfill`](crate::Error::Backfill). Without it, apply runs no data step (the dry
    /// run lists them).
    pub fn backfills(mut self, options: BackfillOptions) -> Self {
        self.backfills = Some(options);
        self
    }

    /// Calls `report` as steps start and finish, and while apply waits.
    pub fn on_progress(mut self, report: impl Fn(Progress<'_>) + Send + Sync + 'static) -> Self {
        self.progress = Some(Arc::new(report));
        self
    }

    fn report(&self, progress: Progress<'_>) {
        if let Some(report) = &self.progress {
            report(progress);
        }
    }
}

impl Plan {
    /// Runs the plan with the default [`ApplyOptions`].
    ///
    /// Refused before anything is sent (an [`Error::Migration`]) when the plan has blockers or,
    /// without [`ApplyOptions::allow_index_drops`], deletes an index. A step that fails stops the
    /// run with an error naming it; the steps before it stay applied, and planning again gives what
    /// is left.
    pub async fn apply(&self, db: &Db) -> Result<()> {
        self.apply_with(db, ApplyOptions::default()).await
    }

    /// Runs the plan with `options`.
    pub async fn apply_with(&self, db: &Db, options: ApplyOptions) -> Result<()> {
        if self.is_blocked() {
            return Err(
                MigrationError::new(MigrationErrorKind::Blocked(self.blockers.clone())).into(),
            );
        }
        let drops: Vec<Step> = self
            .steps
            .iter()
            .filter(|s| s.is_index_drop())
            .cloned()
            .collect();
        if !drops.is_empty() && !options.allow_index_drops {
            return Err(
                MigrationError::new(MigrationErrorKind::IndexDropsNotAllowed(drops)).into(),
            );
        }
        let recovery_off: Vec<Step> = self
            .steps
            .iter()
            .filter(|s| s.is_recovery_off())
            .cloned()
            .collect();
        if !recovery_off.is_empty() && !options.allow_recovery_off {
            return Err(
                MigrationError::new(MigrationErrorKind::RecoveryOffNotAllowed(recovery_off)).into(),
            );
        }
        let backend = &db.calls;
        let total = self.steps.len();
        for (index, step) in self.steps.iter().enumerate() {
            let creates = matches!(step.action, Action::CreateTable(_));
            if !creates {
                wait_ready(backend, &step.table, &options).await?;
            }
            options.report(Progress::Started { index, total, step });
            match run_when_available(backend, step, &options).await {
                Ok(()) => {}
                // A table just created cannot be planned against first, so its point-in-time
                // recovery is asked for blind: an endpoint without the operation (Amazon DynamoDB
                // Local) skips it, said through progress and a warning; `plan` notes it from then on.
                Err(source)
                    if matches!(step.action, Action::SetPointInTimeRecovery { .. })
                        && live::unsupported(&source) =>
                {
                    tracing::warn!(table = %step.table, "point-in-time recovery left alone: {source}");
                    options.report(Progress::Skipped {
                        index,
                        total,
                        step,
                        reason: &source,
                    });
                    continue;
                }
                Err(source) => {
                    return Err(MigrationError::new(MigrationErrorKind::StepFailed {
                        step: Box::new(step.clone()),
                        source: Box::new(source),
                    })
                    .into());
                }
            }
            if step.changes_table() {
                wait_ready(backend, &step.table, &options).await?;
            }
            options.report(Progress::Done { index, total, step });
        }
        if let Some(backfill) = &options.backfills {
            for data in &self.data {
                wait_ready(backend, &data.table, &options).await?;
                data.run(db, backfill.clone())
                    .await?
                    .into_result()
                    .map(drop)?;
            }
        }
        Ok(())
    }
}

/// Polls DescribeTable until the table and every global index are ACTIVE (a deleted index is gone).
async fn wait_ready(backend: &Calls, table: &str, options: &ApplyOptions) -> Result<()> {
    let start = tokio::time::Instant::now();
    loop {
        if let Some(description) = live::describe(backend, table).await?
            && description.table_status == TableStatus::Active
            && description
                .global_secondary_indexes
                .iter()
                .all(|index| index.index_status == TableStatus::Active)
        {
            return Ok(());
        }
        let waited = start.elapsed();
        if waited >= options.timeout {
            return Err(MigrationError::new(MigrationErrorKind::Timeout {
                table: table.to_owned(),
                waited,
            })
            .into());
        }
        options.report(Progress::Waiting { table, waited });
        tokio::time::sleep(options.poll_interval.min(options.timeout - waited)).await;
    }
}

/// Runs the step; while UpdateContinuousBackups answers `ContinuousBackupsUnavailableException`
/// (DynamoDB: "Backups are being enabled for the table", for a while after the table is created,
/// even once it is ACTIVE), polls again until the timeout, reporting the wait.
async fn run_when_available(backend: &Calls, step: &Step, options: &ApplyOptions) -> Result<()> {
    let start = tokio::time::Instant::now();
    loop {
        match run(backend, step).await {
            Err(e) if e.code() == "ContinuousBackupsUnavailableException" => {
                let waited = start.elapsed();
                if waited >= options.timeout {
                    return Err(e);
                }
                options.report(Progress::Waiting {
                    table: &step.table,
                    waited,
                });
                tokio::time::sleep(options.poll_interval.min(options.timeout - waited)).await;
            }
            other => return other,
        }
    }
}

/// The one request of a step.
async fn run(backend: &Calls, step: &Step) -> Result<()> {
    let table_name = step.table.clone();
    let update = |input: UpdateTableInput| UpdateTableInput {
        table_name: table_name.clone(),
        ..input
    };
    match &step.action {
        Action::CreateTable(input) => {
            backend.create_table((**input).clone()).await?;
        }
        Action::CreateIndex {
            index,
            attribute_definitions,
        } => {
            backend
                .update_table(update(UpdateTableInput {
                    attribute_definitions: attribute_definitions.clone(),
                    global_secondary_index_updates: vec![GlobalSecondaryIndexUpdate::Create(
                        index.clone(),
                    )],
                    ..Default::default()
                }))
                .await?;
        }
        Action::DeleteIndex { index_name } => {
            backend
                .update_table(update(UpdateTableInput {
                    global_secondary_index_updates: vec![GlobalSecondaryIndexUpdate::Delete {
                        index_name: index_name.clone(),
                    }],
                    ..Default::default()
                }))
                .await?;
        }
        Action::SetBillingMode {
            to,
            throughput,
            index_throughput,
            ..
        } => {
            let updates = index_throughput
                .iter()
                .map(|(index_name, throughput)| {
                    GlobalSecondaryIndexUpdate::Update(UpdateGlobalSecondaryIndexAction {
                        index_name: index_name.clone(),
                        provisioned_throughput: *throughput,
                    })
                })
                .collect();
            backend
                .update_table(update(UpdateTableInput {
                    billing_mode: Some(*to),
                    provisioned_throughput: *throughput,
                    global_secondary_index_updates: updates,
                    ..Default::default()
                }))
                .await?;
        }
        Action::SetThroughput { to, .. } => {
            backend
                .update_table(update(UpdateTableInput {
                    provisioned_throughput: Some(*to),
                    ..Default::default()
                }))
                .await?;
        }
        Action::SetIndexThroughput { index_name, to, .. } => {
            backend
                .update_table(update(UpdateTableInput {
                    global_secondary_index_updates: vec![GlobalSecondaryIndexUpdate::Update(
                        UpdateGlobalSecondaryIndexAction {
                            index_name: index_name.clone(),
                            provisioned_throughput: *to,
                        },
                    )],
                    ..Default::default()
                }))
                .await?;
        }
        Action::SetStream { to, .. } => {
            let spec = match to {
                Some(view) => StreamSpecification::enabled(*view),
                None => StreamSpecification::disabled(),
            };
            backend
                .update_table(update(UpdateTableInput {
                    stream_specification: Some(spec),
                    ..Default::default()
                }))
                .await?;
        }
        Action::SetTableClass { to, .. } => {
            backend
                .update_table(update(UpdateTableInput {
                    table_class: Some(*to),
                    ..Default::default()
                }))
                .await?;
        }
        Action::SetDeletionProtection { enabled } => {
            backend
                .update_table(update(UpdateTableInput {
                    deletion_protection_enabled: Some(*enabled),
                    ..Default::default()
                }))
                .await?;
        }
        Action::EnableTtl { attribute_name } | Action::DisableTtl { attribute_name } => {
            backend
                .update_time_to_live(UpdateTimeToLiveInput {
                    table_name: table_name.clone(),
                    time_to_live_specification: TimeToLiveSpecification {
                        enabled: matches!(step.action, Action::EnableTtl { .. }),
                        attribute_name: attribute_name.clone(),
                    },
                })
                .await?;
        }
        Action::SetPointInTimeRecovery {
            enabled,
            recovery_period_in_days,
        } => {
            backend
                .update_continuous_backups(UpdateContinuousBackupsInput {
                    table_name: table_name.clone(),
                    point_in_time_recovery_specification: PointInTimeRecoverySpecification {
                        point_in_time_recovery_enabled: *enabled,
                        recovery_period_in_days: *recovery_period_in_days,
                    },
                })
                .await?;
        }
        Action::Tag { resource_arn, tags } => {
            backend
                .tag_resource(TagResourceInput {
                    resource_arn: resource_arn.clone(),
                    tags: tags.clone(),
                })
                .await?;
        }
        Action::Untag { resource_arn, keys } => {
            backend
                .untag_resource(UntagResourceInput {
                    resource_arn: resource_arn.clone(),
                    tag_keys: keys.clone(),
                })
                .await?;
        }
    }
    Ok(())
}
