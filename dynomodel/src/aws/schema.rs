//! The schema-lifecycle operations over the SDK: UpdateTable, Time to Live, tags, DescribeLimits and
//! DescribeEndpoints. Requests are built field by field and responses read field by field, as in
//! `table.rs`, whose conversions of indexes, throughput, streams and descriptions these reuse.

use aws_sdk_dynamodb::types as sdk;
use aws_sdk_dynamodb::Client;

use super::error::map_sdk_error;
use super::table::{
    attribute_definition, billing_mode, built, global_index_action, list, optional,
    required_description, stream_specification, table_class, tag, throughput,
};
use crate::backend::*;
use crate::error::{ConversionError, Error, Result};

fn index_update(update: &GlobalSecondaryIndexUpdate) -> Result<sdk::GlobalSecondaryIndexUpdate> {
    let builder = sdk::GlobalSecondaryIndexUpdate::builder();
    Ok(match update {
        GlobalSecondaryIndexUpdate::Create(index) => builder.create(global_index_action(index)?),
        GlobalSecondaryIndexUpdate::Update(action) => builder.update(built(
            sdk::UpdateGlobalSecondaryIndexAction::builder()
                .index_name(&action.index_name)
                .provisioned_throughput(throughput(&action.provisioned_throughput)?)
                .build(),
        )?),
        GlobalSecondaryIndexUpdate::Delete { index_name } => builder.delete(built(
            sdk::DeleteGlobalSecondaryIndexAction::builder()
                .index_name(index_name)
                .build(),
        )?),
    }
    .build())
}

pub(crate) async fn update_table(
    client: &Client,
    input: UpdateTableInput,
) -> Result<UpdateTableOutput> {
    let output = client
        .update_table()
        .table_name(input.table_name)
        .set_attribute_definitions(list(&input.attribute_definitions, attribute_definition)?)
        .set_billing_mode(input.billing_mode.map(billing_mode))
        .set_provisioned_throughput(optional(&input.provisioned_throughput, throughput)?)
        .set_global_secondary_index_updates(list(
            &input.global_secondary_index_updates,
            index_update,
        )?)
        .set_stream_specification(optional(&input.stream_specification, stream_specification)?)
        .set_table_class(input.table_class.map(table_class))
        .set_deletion_protection_enabled(input.deletion_protection_enabled)
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(UpdateTableOutput {
        table_description: required_description(output.table_description)?,
    })
}

fn ttl_specification_from(s: &sdk::TimeToLiveSpecification) -> TimeToLiveSpecification {
    TimeToLiveSpecification {
        enabled: s.enabled(),
        attribute_name: s.attribute_name().to_owned(),
    }
}

pub(crate) async fn update_time_to_live(
    client: &Client,
    input: UpdateTimeToLiveInput,
) -> Result<UpdateTimeToLiveOutput> {
    let spec = &input.time_to_live_specification;
    let output = client
        .update_time_to_live()
        .table_name(input.table_name)
        .time_to_live_specification(built(
            sdk::TimeToLiveSpecification::builder()
                .enabled(spec.enabled)
                .attribute_name(&spec.attribute_name)
                .build(),
        )?)
        .send()
        .await
        .map_err(map_sdk_error)?;
    let time_to_live_specification = output
        .time_to_live_specification()
        .map(ttl_specification_from)
        .ok_or_else(|| unexpected("a TimeToLiveSpecification", "nothing"))?;
    Ok(UpdateTimeToLiveOutput {
        time_to_live_specification,
    })
}

pub(crate) fn ttl_status_from(status: Option<&sdk::TimeToLiveStatus>) -> Result<TimeToLiveStatus> {
    Ok(match status {
        Some(sdk::TimeToLiveStatus::Enabling) => TimeToLiveStatus::Enabling,
        Some(sdk::TimeToLiveStatus::Disabling) => TimeToLiveStatus::Disabling,
        Some(sdk::TimeToLiveStatus::Enabled) => TimeToLiveStatus::Enabled,
        Some(sdk::TimeToLiveStatus::Disabled) => TimeToLiveStatus::Disabled,
        other => {
            return Err(unexpected(
                "a TimeToLiveStatus (ENABLING, DISABLING, ENABLED, DISABLED)",
                format!("{other:?}"),
            ))
        }
    })
}

pub(crate) async fn describe_time_to_live(
    client: &Client,
    input: DescribeTimeToLiveInput,
) -> Result<DescribeTimeToLiveOutput> {
    let output = client
        .describe_time_to_live()
        .table_name(input.table_name)
        .send()
        .await
        .map_err(map_sdk_error)?;
    let description = output
        .time_to_live_description()
        .ok_or_else(|| unexpected("a TimeToLiveDescription", "nothing"))?;
    Ok(DescribeTimeToLiveOutput {
        time_to_live_description: TimeToLiveDescription {
            time_to_live_status: ttl_status_from(description.time_to_live_status())?,
            attribute_name: description.attribute_name().map(str::to_owned),
        },
    })
}

pub(crate) async fn tag_resource(
    client: &Client,
    input: TagResourceInput,
) -> Result<TagResourceOutput> {
    client
        .tag_resource()
        .resource_arn(input.resource_arn)
        .set_tags(Some(input.tags.iter().map(tag).collect::<Result<_>>()?))
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(TagResourceOutput {})
}

pub(crate) async fn untag_resource(
    client: &Client,
    input: UntagResourceInput,
) -> Result<UntagResourceOutput> {
    client
        .untag_resource()
        .resource_arn(input.resource_arn)
        .set_tag_keys(Some(input.tag_keys))
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(UntagResourceOutput {})
}

pub(crate) async fn list_tags_of_resource(
    client: &Client,
    input: ListTagsOfResourceInput,
) -> Result<ListTagsOfResourceOutput> {
    let output = client
        .list_tags_of_resource()
        .resource_arn(input.resource_arn)
        .set_next_token(input.next_token)
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(ListTagsOfResourceOutput {
        tags: output
            .tags()
            .iter()
            .map(|t| Tag::new(t.key(), t.value()))
            .collect(),
        next_token: output.next_token,
    })
}

pub(crate) async fn describe_limits(
    client: &Client,
    _input: DescribeLimitsInput,
) -> Result<DescribeLimitsOutput> {
    let output = client
        .describe_limits()
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(DescribeLimitsOutput {
        account_max_read_capacity_units: output.account_max_read_capacity_units.unwrap_or(0),
        account_max_write_capacity_units: output.account_max_write_capacity_units.unwrap_or(0),
        table_max_read_capacity_units: output.table_max_read_capacity_units.unwrap_or(0),
        table_max_write_capacity_units: output.table_max_write_capacity_units.unwrap_or(0),
    })
}

pub(crate) async fn describe_endpoints(
    client: &Client,
    _input: DescribeEndpointsInput,
) -> Result<DescribeEndpointsOutput> {
    let output = client
        .describe_endpoints()
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(DescribeEndpointsOutput {
        endpoints: output
            .endpoints()
            .iter()
            .map(|e| Endpoint {
                address: e.address().to_owned(),
                cache_period_in_minutes: e.cache_period_in_minutes(),
            })
            .collect(),
    })
}

/// A member DynamoDB always sends was missing or held a value this crate has no variant for.
fn unexpected(expected: &str, found: impl Into<String>) -> Error {
    Error::Conversion(ConversionError::new(expected, found))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(name: &str) -> GlobalSecondaryIndex {
        GlobalSecondaryIndex {
            index_name: name.into(),
            key_schema: vec![
                KeySchemaElement::hash("city"),
                KeySchemaElement::range("ts"),
            ],
            projection: Projection {
                projection_type: ProjectionType::Include,
                non_key_attributes: vec!["text".into()],
            },
            provisioned_throughput: Some(ProvisionedThroughput {
                read_capacity_units: 5,
                write_capacity_units: 2,
            }),
        }
    }

    #[test]
    fn each_index_update_sets_exactly_its_member() {
        let create = index_update(&GlobalSecondaryIndexUpdate::Create(index("by-city"))).unwrap();
        let action = create.create().expect("a create action");
        assert_eq!(action.index_name(), "by-city");
        assert_eq!(action.key_schema().len(), 2);
        assert_eq!(action.key_schema()[1].key_type(), &sdk::KeyType::Range);
        let projection = action.projection().expect("a projection");
        assert_eq!(
            projection.projection_type(),
            Some(&sdk::ProjectionType::Include)
        );
        assert_eq!(projection.non_key_attributes(), ["text"]);
        assert_eq!(
            action
                .provisioned_throughput()
                .map(|t| t.read_capacity_units()),
            Some(5)
        );
        assert!(create.update().is_none() && create.delete().is_none());

        let update = index_update(&GlobalSecondaryIndexUpdate::Update(
            UpdateGlobalSecondaryIndexAction {
                index_name: "by-city".into(),
                provisioned_throughput: ProvisionedThroughput {
                    read_capacity_units: 7,
                    write_capacity_units: 3,
                },
            },
        ))
        .unwrap();
        let action = update.update().expect("an update action");
        assert_eq!(action.index_name(), "by-city");
        assert_eq!(
            action
                .provisioned_throughput()
                .map(|t| t.write_capacity_units()),
            Some(3)
        );
        assert!(update.create().is_none() && update.delete().is_none());

        let delete = index_update(&GlobalSecondaryIndexUpdate::Delete {
            index_name: "by-city".into(),
        })
        .unwrap();
        assert_eq!(delete.delete().map(|d| d.index_name()), Some("by-city"));
        assert!(delete.create().is_none() && delete.update().is_none());
    }

    #[test]
    fn ttl_statuses_convert_and_unknown_ones_are_errors() {
        for (sdk_status, status) in [
            (sdk::TimeToLiveStatus::Enabling, TimeToLiveStatus::Enabling),
            (
                sdk::TimeToLiveStatus::Disabling,
                TimeToLiveStatus::Disabling,
            ),
            (sdk::TimeToLiveStatus::Enabled, TimeToLiveStatus::Enabled),
            (sdk::TimeToLiveStatus::Disabled, TimeToLiveStatus::Disabled),
        ] {
            assert_eq!(ttl_status_from(Some(&sdk_status)).unwrap(), status);
            assert_eq!(sdk_status.as_str(), status.as_str());
        }
        assert!(ttl_status_from(None).is_err());
        assert!(ttl_status_from(Some(&sdk::TimeToLiveStatus::from("PAUSED"))).is_err());
    }

    #[test]
    fn ttl_specifications_round_trip() {
        let sdk_spec = sdk::TimeToLiveSpecification::builder()
            .enabled(true)
            .attribute_name("expires")
            .build()
            .unwrap();
        assert_eq!(
            ttl_specification_from(&sdk_spec),
            TimeToLiveSpecification {
                enabled: true,
                attribute_name: "expires".into()
            }
        );
    }
}
