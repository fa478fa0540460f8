//! `ReturnConsumedCapacity` / `ReturnItemCollectionMetrics` and what the responses report, converted
//! between dynomodel and `aws-sdk-dynamodb`.

use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::types as sdk;

use super::value::from_sdk_item;
use crate::backend::*;
use crate::error::Result;

#[inline]
pub(crate) fn return_consumed_capacity(
    r: Option<ReturnConsumedCapacity>,
) -> Option<sdk::ReturnConsumedCapacity> {
    r.map(|r| sdk::ReturnConsumedCapacity::from(r.as_str()))
}

#[inline]
pub(crate) fn return_item_collection_metrics(
    r: Option<ReturnItemCollectionMetrics>,
) -> Option<sdk::ReturnItemCollectionMetrics> {
    r.map(|r| sdk::ReturnItemCollectionMetrics::from(r.as_str()))
}

fn capacity_from(c: &sdk::Capacity) -> Capacity {
    Capacity {
        read_capacity_units: c.read_capacity_units(),
        write_capacity_units: c.write_capacity_units(),
        capacity_units: c.capacity_units(),
    }
}

fn capacities_from(indexes: Option<&HashMap<String, sdk::Capacity>>) -> BTreeMap<String, Capacity> {
    indexes
        .into_iter()
        .flatten()
        .map(|(name, c)| (name.clone(), capacity_from(c)))
        .collect()
}

/// One table's consumed capacity.
pub(crate) fn consumed_capacity_from(c: &sdk::ConsumedCapacity) -> ConsumedCapacity {
    ConsumedCapacity {
        table_name: c.table_name().unwrap_or_default().to_owned(),
        capacity_units: c.capacity_units(),
        read_capacity_units: c.read_capacity_units(),
        write_capacity_units: c.write_capacity_units(),
        table: c.table().map(capacity_from),
        local_secondary_indexes: capacities_from(c.local_secondary_indexes()),
        global_secondary_indexes: capacities_from(c.global_secondary_indexes()),
    }
}

/// The consumed capacity of a single-table response.
#[inline]
pub(crate) fn one_consumed_capacity(c: Option<&sdk::ConsumedCapacity>) -> Option<ConsumedCapacity> {
    c.map(consumed_capacity_from)
}

/// The consumed capacity of a multi-table response, in DynamoDB's order.
pub(crate) fn all_consumed_capacity(c: &[sdk::ConsumedCapacity]) -> Vec<ConsumedCapacity> {
    c.iter().map(consumed_capacity_from).collect()
}

/// One item collection's metrics.
pub(crate) fn item_collection_metrics_from(
    m: &sdk::ItemCollectionMetrics,
) -> Result<ItemCollectionMetrics> {
    Ok(ItemCollectionMetrics {
        item_collection_key: from_sdk_item(m.item_collection_key().cloned().unwrap_or_default())?,
        size_estimate_range_gb: m.size_estimate_range_gb().to_vec(),
    })
}

/// The item collection metrics of a single-item write.
#[inline]
pub(crate) fn one_item_collection_metrics(
    m: Option<&sdk::ItemCollectionMetrics>,
) -> Result<Option<ItemCollectionMetrics>> {
    m.map(item_collection_metrics_from).transpose()
}

/// The item collection metrics of a multi-item write, per table.
pub(crate) fn all_item_collection_metrics(
    m: Option<&HashMap<String, Vec<sdk::ItemCollectionMetrics>>>,
) -> Result<BTreeMap<String, Vec<ItemCollectionMetrics>>> {
    m.into_iter()
        .flatten()
        .map(|(table, metrics)| {
            let metrics = metrics
                .iter()
                .map(item_collection_metrics_from)
                .collect::<Result<_>>()?;
            Ok((table.clone(), metrics))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::AttributeValue;

    #[test]
    fn consumed_capacity_converts_every_member() {
        let sdk_capacity = sdk::ConsumedCapacity::builder()
            .table_name("users")
            .capacity_units(3.0)
            .read_capacity_units(1.0)
            .write_capacity_units(2.0)
            .table(sdk::Capacity::builder().capacity_units(1.0).build())
            .global_secondary_indexes(
                "by-city",
                sdk::Capacity::builder().write_capacity_units(2.0).build(),
            )
            .build();
        let c = consumed_capacity_from(&sdk_capacity);
        assert_eq!(c.table_name, "users");
        assert_eq!(
            (
                c.capacity_units,
                c.read_capacity_units,
                c.write_capacity_units
            ),
            (Some(3.0), Some(1.0), Some(2.0))
        );
        assert_eq!(c.table.and_then(|t| t.capacity_units), Some(1.0));
        assert_eq!(
            c.global_secondary_indexes["by-city"].write_capacity_units,
            Some(2.0)
        );
        assert!(c.local_secondary_indexes.is_empty());
        assert_eq!(
            return_consumed_capacity(Some(ReturnConsumedCapacity::Indexes)),
            Some(sdk::ReturnConsumedCapacity::Indexes)
        );
        assert_eq!(
            return_item_collection_metrics(Some(ReturnItemCollectionMetrics::Size)),
            Some(sdk::ReturnItemCollectionMetrics::Size)
        );
    }

    #[test]
    fn item_collection_metrics_convert_the_key() {
        let m = sdk::ItemCollectionMetrics::builder()
            .item_collection_key("pk", sdk::AttributeValue::S("p1".into()))
            .size_estimate_range_gb(0.0)
            .size_estimate_range_gb(1.0)
            .build();
        let out =
            all_item_collection_metrics(Some(&HashMap::from([("t".to_owned(), vec![m])]))).unwrap();
        assert_eq!(
            out["t"][0].item_collection_key["pk"],
            AttributeValue::S("p1".into())
        );
        assert_eq!(out["t"][0].size_estimate_range_gb, [0.0, 1.0]);
    }
}
