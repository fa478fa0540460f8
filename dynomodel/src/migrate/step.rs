//! [`Step`]: one change a [`Plan`](crate::migrate::Plan) makes to one table, and [`Blocker`]: a
//! difference DynamoDB cannot apply in place. Both print as one line of the dry run.

use std::fmt;

use crate::backend::{
    AttributeDefinition, BillingMode, CreateTableInput, GlobalSecondaryIndex, KeySchemaElement,
    Projection, ProjectionType, ProvisionedThroughput, StreamViewType, TableClass, Tag,
};

/// One change to one table.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The table's name (namespace included).
    pub table: String,
    /// What changes.
    pub action: Action,
}

/// What a [`Step`] changes. Each is one DynamoDB request (`CreateTable`, one `UpdateTable`,
/// `UpdateTimeToLive`, `UpdateContinuousBackups`, `TagResource` or `UntagResource`).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Action {
    /// Create the table with its indexes, stream, class and tags.
    CreateTable(Box<CreateTableInput>),
    /// Create a global secondary index (backfilled from the items already stored).
    CreateIndex {
        /// The index.
        index: GlobalSecondaryIndex,
        /// The types of its key attributes, which UpdateTable needs.
        attribute_definitions: Vec<AttributeDefinition>,
    },
    /// Delete a global secondary index: destructive for whoever queries it, so
    /// [`apply`](crate::migrate::Plan::apply) runs it only with
    /// [`ApplyOptions::allow_index_drops`](crate::migrate::ApplyOptions::allow_index_drops).
    DeleteIndex {
        /// The index's name.
        index_name: String,
    },
    /// Switch the billing mode; to provisioned with the table's and every index's capacity.
    SetBillingMode {
        /// The live mode.
        from: BillingMode,
        /// The model's mode.
        to: BillingMode,
        /// The table's capacity (provisioned only).
        throughput: Option<ProvisionedThroughput>,
        /// Each remaining index's capacity (provisioned only).
        index_throughput: Vec<(String, ProvisionedThroughput)>,
    },
    /// Change a provisioned table's capacity.
    SetThroughput {
        /// The live capacity.
        from: ProvisionedThroughput,
        /// The model's.
        to: ProvisionedThroughput,
    },
    /// Change a global index's provisioned capacity.
    SetIndexThroughput {
        /// The index's name.
        index_name: String,
        /// The live capacity.
        from: ProvisionedThroughput,
        /// The model's.
        to: ProvisionedThroughput,
    },
    /// Turn the stream on (`Some`) or off (`None`). A view-type change is off, then on.
    SetStream {
        /// The live view, if a stream is on.
        from: Option<StreamViewType>,
        /// The model's view, if any.
        to: Option<StreamViewType>,
    },
    /// Change the table class.
    SetTableClass {
        /// The live class.
        from: TableClass,
        /// The model's.
        to: TableClass,
    },
    /// Turn deletion protection on or off.
    SetDeletionProtection {
        /// The model's setting.
        enabled: bool,
    },
    /// Enable time to live on an attribute.
    EnableTtl {
        /// The attribute.
        attribute_name: String,
    },
    /// Disable time to live. DynamoDB allows one time-to-live change per table in about an hour, so
    /// when a plan disables one attribute and enables another, the enable fails on Amazon DynamoDB
    /// until that window has passed: apply stops there, and a later plan holds just the enable.
    DisableTtl {
        /// The attribute it was enabled on.
        attribute_name: String,
    },
    /// Turn point-in-time recovery on (with the model's window; DynamoDB's default is 35 days) or
    /// off. Off discards the table's recovery window, so [`apply`](crate::migrate::Plan::apply)
    /// runs it only with
    /// [`ApplyOptions::allow_recovery_off`](crate::migrate::ApplyOptions::allow_recovery_off).
    SetPointInTimeRecovery {
        /// On or off.
        enabled: bool,
        /// The window in days, when the model names one.
        recovery_period_in_days: Option<i32>,
    },
    /// Add tags, or change their values.
    Tag {
        /// The table's ARN.
        resource_arn: String,
        /// The tags to set.
        tags: Vec<Tag>,
    },
    /// Remove tags.
    Untag {
        /// The table's ARN.
        resource_arn: String,
        /// The keys to remove.
        keys: Vec<String>,
    },
}

impl Step {
    pub(crate) fn new(table: &str, action: Action) -> Step {
        Step {
            table: table.to_owned(),
            action,
        }
    }

    /// Whether the step removes something readers may depend on (a global index) or that cannot be
    /// had back (a point-in-time recovery window).
    pub fn is_destructive(&self) -> bool {
        self.is_index_drop() || self.is_recovery_off()
    }

    pub(crate) fn is_index_drop(&self) -> bool {
        matches!(self.action, Action::DeleteIndex { .. })
    }

    pub(crate) fn is_recovery_off(&self) -> bool {
        matches!(
            self.action,
            Action::SetPointInTimeRecovery { enabled: false, .. }
        )
    }

    /// Whether the step is an `UpdateTable` or `CreateTable`, after which the table and its indexes
    /// must be ACTIVE again before the next change.
    pub(crate) fn changes_table(&self) -> bool {
        !matches!(
            self.action,
            Action::EnableTtl { .. }
                | Action::DisableTtl { .. }
                | Action::SetPointInTimeRecovery { .. }
                | Action::Tag { .. }
                | Action::Untag { .. }
        )
    }
}

/// A difference between the model and the live table that DynamoDB cannot apply in place (a key
/// schema, a local index, the type of a key attribute). A plan holding one is never applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocker {
    /// The table's name (namespace included).
    pub table: String,
    /// What differs and why it cannot be changed.
    pub reason: String,
}

pub(crate) struct Keys<'a>(pub(crate) &'a [KeySchemaElement]);

impl fmt::Display for Keys<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, key) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{} {}", key.attribute_name, key.key_type.as_str())?;
        }
        Ok(())
    }
}

pub(crate) struct ShowProjection<'a>(pub(crate) &'a Projection);

impl fmt::Display for ShowProjection<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.projection_type.as_str())?;
        if self.0.projection_type == ProjectionType::Include {
            write!(f, " {}", self.0.non_key_attributes.join(", "))?;
        }
        Ok(())
    }
}

pub(crate) struct Capacity(pub(crate) ProvisionedThroughput);

impl fmt::Display for Capacity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}",
            self.0.read_capacity_units, self.0.write_capacity_units
        )
    }
}

fn stream(view: Option<StreamViewType>) -> &'static str {
    view.map_or("off", StreamViewType::as_str)
}

/// One line of the dry run: `+` adds, `-` removes, `~` changes.
impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let table = &self.table;
        match &self.action {
            Action::CreateTable(input) => {
                write!(
                    f,
                    "+ create table {table} ({}; {}",
                    Keys(&input.key_schema),
                    input
                        .billing_mode
                        .unwrap_or(BillingMode::Provisioned)
                        .as_str()
                )?;
                if let Some(throughput) = input.provisioned_throughput {
                    write!(f, " {}", Capacity(throughput))?;
                }
                f.write_str(")")?;
                for index in &input.local_secondary_indexes {
                    write!(
                        f,
                        ", LSI {} ({}; {})",
                        index.index_name,
                        Keys(&index.key_schema),
                        ShowProjection(&index.projection)
                    )?;
                }
                for index in &input.global_secondary_indexes {
                    write!(
                        f,
                        ", GSI {} ({}; {})",
                        index.index_name,
                        Keys(&index.key_schema),
                        ShowProjection(&index.projection)
                    )?;
                }
                if let Some(spec) = input.stream_specification.filter(|s| s.stream_enabled) {
                    write!(f, ", stream {}", stream(spec.stream_view_type))?;
                }
                if let Some(class) = input.table_class {
                    write!(f, ", class {}", class.as_str())?;
                }
                if input.deletion_protection_enabled == Some(true) {
                    f.write_str(", deletion protection")?;
                }
                for tag in &input.tags {
                    write!(f, ", tag {}={}", tag.key, tag.value)?;
                }
                Ok(())
            }
            Action::CreateIndex { index, .. } => {
                write!(
                    f,
                    "+ create GSI {} ({}; {}",
                    index.index_name,
                    Keys(&index.key_schema),
                    ShowProjection(&index.projection)
                )?;
                if let Some(throughput) = index.provisioned_throughput {
                    write!(f, "; {}", Capacity(throughput))?;
                }
                write!(f, ") on {table}")
            }
            Action::DeleteIndex { index_name } => {
                write!(
                    f,
                    "- delete GSI {index_name} on {table} (destructive: its queries fail)"
                )
            }
            Action::SetBillingMode {
                from,
                to,
                throughput,
                index_throughput,
            } => {
                write!(f, "~ billing {} -> {}", from.as_str(), to.as_str())?;
                if let Some(throughput) = throughput {
                    write!(f, " {}", Capacity(*throughput))?;
                }
                for (name, throughput) in index_throughput {
                    write!(f, ", GSI {name} {}", Capacity(*throughput))?;
                }
                write!(f, " on {table}")
            }
            Action::SetThroughput { from, to } => {
                write!(
                    f,
                    "~ throughput {} -> {} on {table}",
                    Capacity(*from),
                    Capacity(*to)
                )
            }
            Action::SetIndexThroughput {
                index_name,
                from,
                to,
            } => write!(
                f,
                "~ GSI {index_name} throughput {} -> {} on {table}",
                Capacity(*from),
                Capacity(*to)
            ),
            Action::SetStream { from, to } => {
                write!(
                    f,
                    "~ stream {} -> {} on {table}",
                    stream(*from),
                    stream(*to)
                )
            }
            Action::SetTableClass { from, to } => {
                write!(
                    f,
                    "~ table class {} -> {} on {table}",
                    from.as_str(),
                    to.as_str()
                )
            }
            Action::SetDeletionProtection { enabled } => write!(
                f,
                "~ deletion protection {} on {table}",
                if *enabled { "on" } else { "off" }
            ),
            Action::EnableTtl { attribute_name } => {
                write!(f, "+ enable TTL on {attribute_name} of {table}")
            }
            Action::DisableTtl { attribute_name } => {
                write!(f, "- disable TTL on {attribute_name} of {table}")
            }
            Action::SetPointInTimeRecovery {
                enabled: true,
                recovery_period_in_days,
            } => {
                f.write_str("+ point-in-time recovery")?;
                if let Some(days) = recovery_period_in_days {
                    write!(f, " ({days} days)")?;
                }
                write!(f, " on {table}")
            }
            Action::SetPointInTimeRecovery { enabled: false, .. } => write!(
                f,
                "- point-in-time recovery off on {table} (destructive: its recovery window is lost)"
            ),
            Action::Tag { tags, .. } => {
                f.write_str("+ tag")?;
                for tag in tags {
                    write!(f, " {}={}", tag.key, tag.value)?;
                }
                write!(f, " on {table}")
            }
            Action::Untag { keys, .. } => write!(f, "- untag {} on {table}", keys.join(", ")),
        }
    }
}

impl fmt::Display for Blocker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "! blocked: {} ({})", self.reason, self.table)
    }
}
