//! A [`LiveTable`] as text: what `dynomodel describe` prints, one line per part of the table.

use std::fmt;

use crate::backend::{BillingMode, PointInTimeRecoveryStatus, ProvisionedThroughput};
use crate::migrate::live::LiveTable;
use crate::migrate::step::{Capacity, Keys, ShowProjection};

/// ```text
/// table tweets (ACTIVE), 12 items, 3456 bytes
///   keys: userid HASH, id RANGE
///   billing: PROVISIONED 10/2
///   GSI by-city (city HASH, ts RANGE; ALL) ACTIVE 10/2
///   stream: NEW_IMAGE
///   ...
/// ```
impl fmt::Display for LiveTable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.table;
        writeln!(
            f,
            "table {} ({}), {} items, {} bytes",
            t.table_name,
            t.table_status.as_str(),
            t.item_count,
            t.table_size_bytes
        )?;
        writeln!(f, "  keys: {}", Keys(&t.key_schema))?;
        let billing = t.billing_mode.unwrap_or(BillingMode::Provisioned);
        write!(f, "  billing: {}", billing.as_str())?;
        if billing == BillingMode::Provisioned {
            write!(
                f,
                " {}",
                Capacity(ProvisionedThroughput {
                    read_capacity_units: t.provisioned_throughput.read_capacity_units,
                    write_capacity_units: t.provisioned_throughput.write_capacity_units,
                })
            )?;
        }
        writeln!(f)?;
        for index in &t.global_secondary_indexes {
            write!(
                f,
                "  GSI {} ({}; {}) {}",
                index.index_name,
                Keys(&index.key_schema),
                ShowProjection(&index.projection),
                index.index_status.as_str()
            )?;
            if let Some(throughput) = index
                .provisioned_throughput
                .as_ref()
                .filter(|_| billing == BillingMode::Provisioned)
            {
                write!(
                    f,
                    " {}",
                    Capacity(ProvisionedThroughput {
                        read_capacity_units: throughput.read_capacity_units,
                        write_capacity_units: throughput.write_capacity_units,
                    })
                )?;
            }
            writeln!(f)?;
        }
        for index in &t.local_secondary_indexes {
            writeln!(
                f,
                "  LSI {} ({}; {})",
                index.index_name,
                Keys(&index.key_schema),
                ShowProjection(&index.projection)
            )?;
        }
        match t
            .stream_specification
            .filter(|s| s.stream_enabled)
            .and_then(|s| s.stream_view_type)
        {
            Some(view) => writeln!(f, "  stream: {}", view.as_str())?,
            None => writeln!(f, "  stream: off")?,
        }
        if let Some(class) = t.table_class {
            writeln!(f, "  class: {}", class.as_str())?;
        }
        writeln!(
            f,
            "  deletion protection: {}",
            if t.deletion_protection_enabled {
                "on"
            } else {
                "off"
            }
        )?;
        match &self.ttl {
            Some(ttl) => writeln!(
                f,
                "  time to live: {} {}",
                ttl.time_to_live_status.as_str(),
                ttl.attribute_name.as_deref().unwrap_or("")
            )?,
            None => writeln!(
                f,
                "  time to live: unknown (DescribeTimeToLive is unknown here)"
            )?,
        }
        match &self.point_in_time_recovery {
            Some(r) if r.point_in_time_recovery_status == PointInTimeRecoveryStatus::Enabled => {
                write!(f, "  point-in-time recovery: on")?;
                if let Some(days) = r.recovery_period_in_days {
                    write!(f, ", {days} days")?;
                }
                writeln!(f)?;
            }
            Some(_) => writeln!(f, "  point-in-time recovery: off")?,
            None => writeln!(
                f,
                "  point-in-time recovery: unknown (DescribeContinuousBackups is unknown here)"
            )?,
        }
        match &self.tags {
            Some(tags) if tags.is_empty() => write!(f, "  tags: none"),
            Some(tags) => {
                f.write_str("  tags:")?;
                for tag in tags {
                    write!(f, " {}={}", tag.key, tag.value)?;
                }
                Ok(())
            }
            None => write!(f, "  tags: unknown (ListTagsOfResource is unknown here)"),
        }
    }
}
