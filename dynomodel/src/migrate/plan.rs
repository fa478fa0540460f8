//! [`Plan`]: the steps that bring a database's tables in line with the models, computed by
//! [`Db::plan`](crate::Db::plan) / [`Db::plan_all`](crate::Db::plan_all), printed as a dry run, run
//! by [`Plan::apply`].

use std::collections::BTreeMap;
use std::fmt;

use crate::db::Db;
use crate::error::Result;
use crate::migrate::data::{data_step, tag_creation, DataStep};
use crate::migrate::definition::Definition;
use crate::migrate::diff::{diff, TableDiff};
use crate::migrate::live;
use crate::migrate::step::{Blocker, Step};

/// What a migration would do, table by table, in the order it would do it.
///
/// `Display` is the dry run: one line per step (`+` adds, `-` removes, `~` changes), `! blocked: …`
/// for each difference DynamoDB cannot apply in place, `note: …` for what the plan leaves alone and
/// why; an empty plan prints `nothing to do`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Plan {
    pub(crate) steps: Vec<Step>,
    pub(crate) blockers: Vec<Blocker>,
    pub(crate) notes: Vec<String>,
    pub(crate) data: Vec<DataStep>,
}

impl Plan {
    /// The steps, in the order [`apply`](Plan::apply) runs them.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The differences DynamoDB cannot apply in place; a plan with any is never applied.
    pub fn blockers(&self) -> &[Blocker] {
        &self.blockers
    }

    /// The backfills the items need after the schema steps (see [`DataStep`]); `apply` runs them
    /// only with [`ApplyOptions::backfills`](crate::migrate::ApplyOptions::backfills).
    pub fn data_steps(&self) -> &[DataStep] {
        &self.data
    }

    /// What the plan leaves alone and why (an endpoint without tagging, a replaced index, a time to
    /// live that moves to another attribute).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// Whether there is nothing to do and nothing blocked: the tables match the models.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty() && self.blockers.is_empty() && self.data.is_empty()
    }

    /// Whether a difference blocks the plan.
    pub fn is_blocked(&self) -> bool {
        !self.blockers.is_empty()
    }

    /// The steps that delete global indexes (see [`ApplyOptions::allow_index_drops`](crate::migrate::ApplyOptions::allow_index_drops)).
    pub fn destructive_steps(&self) -> impl Iterator<Item = &Step> {
        self.steps.iter().filter(|s| s.is_destructive())
    }

    /// The plan that creates the definition's table (namespace applied), or `None` when it exists:
    /// what [`Db::create_schema`](crate::Db::create_schema) runs. Only DescribeTable is asked.
    pub(crate) async fn creation(db: &Db, definition: &Definition) -> Result<Option<Plan>> {
        let definition = definition.namespaced(db.namespace());
        if live::describe(&db.calls, definition.table_name())
            .await?
            .is_some()
        {
            return Ok(None);
        }
        let mut plan = Plan::default();
        let mut schema = diff(&definition, None);
        tag_creation(&definition, &mut schema.steps);
        plan.push(schema);
        Ok(Some(plan))
    }

    fn push(&mut self, diff: TableDiff) {
        self.steps.extend(diff.steps);
        self.blockers.extend(diff.blockers);
        self.notes.extend(diff.notes);
    }

    /// The plan for `definitions` in `db` (namespace applied), grouped by table. Two definitions of
    /// one table must agree (until models can share a table); otherwise that table is blocked.
    pub(crate) async fn compute(db: &Db, definitions: &[Definition]) -> Result<Plan> {
        let mut tables: BTreeMap<String, Vec<Definition>> = BTreeMap::new();
        for definition in definitions {
            let definition = definition.namespaced(db.namespace());
            tables
                .entry(definition.schema.table_name.clone())
                .or_default()
                .push(definition);
        }
        let mut plan = Plan::default();
        for (table, definitions) in tables {
            let first = &definitions[0];
            if definitions.iter().any(|d| d != first) {
                plan.blockers.push(Blocker {
                    table,
                    reason: "several definitions of this table differ; plan them one at a time"
                        .to_owned(),
                });
                continue;
            }
            let live = live::fetch(&db.calls, &table).await?;
            let mut schema = diff(first, live.as_ref());
            tag_creation(first, &mut schema.steps);
            for items in &first.items {
                let step = data_step(&table, items, live.as_ref(), &schema.steps, &mut plan.notes);
                plan.data.extend(step);
            }
            plan.push(schema);
        }
        Ok(plan)
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut lines: Vec<String> = Vec::new();
        if self.is_empty() {
            lines.push("nothing to do".to_owned());
        }
        lines.extend(self.blockers.iter().map(ToString::to_string));
        lines.extend(self.steps.iter().map(ToString::to_string));
        lines.extend(self.data.iter().map(ToString::to_string));
        lines.extend(self.notes.iter().map(|note| format!("note: {note}")));
        f.write_str(&lines.join("\n"))
    }
}
