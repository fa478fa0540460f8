//! [`LiveTable`]: what a database says about a table — DescribeTable, DescribeTimeToLive,
//! DescribeContinuousBackups and ListTagsOfResource — gathered for the planner.

use crate::backend::{
    DescribeContinuousBackupsInput, DescribeTableInput, DescribeTimeToLiveInput,
    ListTagsOfResourceInput, PointInTimeRecoveryDescription, PointInTimeRecoveryStatus,
    TableDescription, Tag, TimeToLiveDescription,
};
use crate::db::Calls;
use crate::error::{Error, Result};

/// A table as the database describes it.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveTable {
    /// DescribeTable's answer.
    pub table: TableDescription,
    /// DescribeTimeToLive's answer; `None` when the backend does not implement it.
    pub ttl: Option<TimeToLiveDescription>,
    /// The table's tags; `None` when the backend has no tagging (Amazon DynamoDB Local answers
    /// `UnknownOperationException`, "Tagging is not currently supported in DynamoDB Local."), in
    /// which case the plan leaves tags alone.
    pub tags: Option<Vec<Tag>>,
    /// DescribeContinuousBackups' point-in-time recovery; `None` when the backend does not
    /// implement it (Amazon DynamoDB Local answers `UnknownOperationException`), in which case the
    /// plan leaves it alone.
    pub point_in_time_recovery: Option<PointInTimeRecoveryDescription>,
}

/// Whether an answer says the operation does not exist on this endpoint.
pub(crate) fn unsupported(error: &Error) -> bool {
    error.code() == "UnknownOperationException"
}

/// DescribeTable, or `None` when the table does not exist.
pub(crate) async fn describe(backend: &Calls, table: &str) -> Result<Option<TableDescription>> {
    match backend
        .describe_table(DescribeTableInput {
            table_name: table.to_owned(),
        })
        .await
    {
        Ok(output) => Ok(Some(output.table)),
        Err(Error::ResourceNotFound { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Everything the planner compares, or `None` when the table does not exist.
pub(crate) async fn fetch(backend: &Calls, table: &str) -> Result<Option<LiveTable>> {
    let Some(description) = describe(backend, table).await? else {
        return Ok(None);
    };
    let ttl = match backend
        .describe_time_to_live(DescribeTimeToLiveInput {
            table_name: table.to_owned(),
        })
        .await
    {
        Ok(output) => Some(output.time_to_live_description),
        Err(e) if unsupported(&e) => None,
        Err(e) => return Err(e),
    };
    let tags = list_tags(backend, &description.table_arn).await?;
    let point_in_time_recovery = match backend
        .describe_continuous_backups(DescribeContinuousBackupsInput {
            table_name: table.to_owned(),
        })
        .await
    {
        // A description without its recovery part is recovery off.
        Ok(output) => Some(
            output
                .continuous_backups_description
                .point_in_time_recovery_description
                .unwrap_or(PointInTimeRecoveryDescription {
                    point_in_time_recovery_status: PointInTimeRecoveryStatus::Disabled,
                    recovery_period_in_days: None,
                    earliest_restorable_date_time: None,
                    latest_restorable_date_time: None,
                }),
        ),
        Err(e) if unsupported(&e) => None,
        Err(e) => return Err(e),
    };
    Ok(Some(LiveTable {
        table: description,
        ttl,
        tags,
        point_in_time_recovery,
    }))
}

async fn list_tags(backend: &Calls, arn: &str) -> Result<Option<Vec<Tag>>> {
    let mut tags = Vec::new();
    let mut next_token = None;
    loop {
        let page = match backend
            .list_tags_of_resource(ListTagsOfResourceInput {
                resource_arn: arn.to_owned(),
                next_token,
            })
            .await
        {
            Ok(page) => page,
            Err(e) if unsupported(&e) => return Ok(None),
            Err(e) => return Err(e),
        };
        tags.extend(page.tags);
        match page.next_token {
            Some(token) => next_token = Some(token),
            None => return Ok(Some(tags)),
        }
    }
}
