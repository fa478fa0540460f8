//! Migrations: the tables the models declare, compared with the tables a database has, as a
//! [`Plan`] of steps that [`Plan::apply`] runs.
//!
//! ```
//! use dynomodel::{Db, Model};
//! use dynomodel::migrate::Definition;
//! # use dynomodel_mem::MemoryDb;
//!
//! #[derive(Model)]
//! #[dynomodel(table = "tweets")]
//! #[global_index(all("by-city", hash = city))]
//! struct Tweet { #[hash_key] userid: String, #[range_key] id: String, city: String }
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let db = Db::memory().with_namespace("test-");
//! let plan = db.plan::<Tweet>().await?;
//! assert_eq!(
//!     plan.to_string(),
//!     "+ create table test-tweets (userid HASH, id RANGE; PAY_PER_REQUEST), GSI by-city (city HASH; ALL)"
//! );
//! plan.apply(&db).await?;
//! assert!(db.plan_all(&[Definition::of::<Tweet>()]).await?.is_empty());
//! # Ok::<(), dynomodel::Error>(())
//! # }).unwrap();
//! ```
//!
//! # What is compared
//!
//! A [`Definition`] is a model's [`Model::schema`] plus its `#[ttl]` attribute and its
//! point-in-time recovery; the live side is DescribeTable, DescribeTimeToLive,
//! DescribeContinuousBackups and ListTagsOfResource. The model is the truth: what it does not
//! declare is DynamoDB's default (no stream, class STANDARD, no deletion protection, no time to
//! live, no point-in-time recovery, no tags besides the `aws:` ones AWS assigns, which are never
//! touched). Steps, in the order they run:
//!
//! | difference | step |
//! |---|---|
//! | no table | create it with its indexes, stream, class, protection and tags; then enable its time to live and point-in-time recovery |
//! | a GSI on the table, not in the model | delete it (destructive: refused by `apply` unless [`ApplyOptions::allow_index_drops`]) |
//! | a GSI whose keys, key types or projection differ | delete it, then create it again (DynamoDB cannot change them in place) |
//! | billing mode | switch; to provisioned with the table's and every kept index's capacity in the same request |
//! | capacity of a provisioned table or GSI | change it |
//! | a GSI in the model, not on the table | create it (backfilled from the stored items), one per UpdateTable |
//! | stream on, off, or another view | on, off, or off then on (DynamoDB refuses to enable a second stream) |
//! | table class, deletion protection | change them |
//! | time to live | enable, disable, or disable then enable another attribute: Amazon DynamoDB allows one change per hour, so that enable fails until the hour has passed; plan again then |
//! | point-in-time recovery | on, another window, or off (destructive: refused by `apply` unless [`ApplyOptions::allow_recovery_off`]) |
//! | tags | tag what is missing or has another value, untag what the model does not have |
//!
//! After the schema steps come the *data steps* ([`DataStep`], [`Plan::data_steps`]): the backfill
//! the items need when a new global index is keyed on attributes older items may lack, or when the
//! model's item version is newer than the one recorded on the table. The dry run lists them with an
//! estimate (the table's `ItemCount`); [`Plan::apply_with`] runs them only with
//! [`ApplyOptions::backfills`] (see [`crate::backfill`]).
//!
//! Blocking differences (a plan holding one is never applied, see [`Plan::blockers`]): the table's
//! key schema or a key attribute's type, and any local index added, removed or changed; DynamoDB
//! fixes them at CreateTable, so the remedy is a new table. Where an endpoint lacks an operation
//! (Amazon DynamoDB Local has no tagging and no continuous backups) that part is left alone and said
//! so in [`Plan::notes`].
//!
//! The same definitions export as a CloudFormation template, Terraform resources or API requests:
//! see [`export`] and [`Models`].
//!
//! Applying waits after each table change until the table and all its indexes are ACTIVE (polling
//! DescribeTable), with a timeout and progress reports ([`ApplyOptions`]).

mod apply;
mod data;
mod definition;
mod describe;
mod diff;
mod error;
pub mod export;
mod live;
mod plan;
mod step;
#[cfg(test)]
mod tests;

pub use apply::{ApplyOptions, Progress};
pub(crate) use data::record_item_version;
pub use data::{DataReason, DataStep, ITEM_VERSION_TAG};
pub use definition::Definition;
pub use error::{MigrationError, MigrationErrorKind};
pub use export::{Format, Models};
pub use live::LiveTable;
pub use plan::Plan;
pub use step::{Action, Blocker, Step};

use crate::db::Db;
use crate::error::Result;
use crate::model::Model;

impl Db {
    /// The plan that makes `M`'s table (namespace applied) match `M`; see [`crate::migrate`].
    pub async fn plan<M: Model>(&self) -> Result<Plan> {
        Plan::compute(self, &[Definition::of::<M>()]).await
    }

    /// The plan for several models' tables at once, table by table (in table-name order).
    pub async fn plan_all(&self, definitions: &[Definition]) -> Result<Plan> {
        Plan::compute(self, definitions).await
    }

    /// What the database says about the table named `table_name` exactly (no namespace added):
    /// DescribeTable, DescribeTimeToLive, DescribeContinuousBackups and ListTagsOfResource, or
    /// `None` when it does not exist. Its `Display` is what `dynomodel describe` prints.
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// #[derive(Model)]
    /// #[dynomodel(table = "tweets")]
    /// struct Tweet { #[hash_key] id: String }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let db = Db::memory();
    /// assert!(db.live_table("tweets").await?.is_none());
    /// db.create_schema::<Tweet>().await?;
    /// let live = db.live_table("tweets").await?.unwrap();
    /// assert!(live.to_string().starts_with("table tweets (ACTIVE), 0 items"));
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub async fn live_table(&self, table_name: &str) -> Result<Option<LiveTable>> {
        live::fetch(&self.calls, table_name).await
    }
}
