//! TransactGetItems and TransactWriteItems, converted field by field. A cancelled transaction's reasons
//! are read in `error.rs`, with the other error payloads.

use aws_sdk_dynamodb::types as sdk;
use aws_sdk_dynamodb::Client;

use super::capacity::{
    all_consumed_capacity, all_item_collection_metrics, return_consumed_capacity,
    return_item_collection_metrics,
};
use super::error::map_sdk_error;
use super::item::{names, on_failure, values};
use super::table::built;
use super::value::{from_sdk_opt_item, to_sdk_item};
use crate::backend::*;
use crate::error::Result;

fn get(g: TransactGet) -> Result<sdk::TransactGetItem> {
    let get = built(
        sdk::Get::builder()
            .table_name(g.table_name)
            .set_key(Some(to_sdk_item(g.key)))
            .set_projection_expression(g.projection_expression)
            .set_expression_attribute_names(names(g.expression_attribute_names))
            .build(),
    )?;
    Ok(sdk::TransactGetItem::builder().get(get).build())
}

fn write_item(action: TransactWriteItem) -> Result<sdk::TransactWriteItem> {
    let builder = sdk::TransactWriteItem::builder();
    Ok(match action {
        TransactWriteItem::ConditionCheck(a) => builder.condition_check(built(
            sdk::ConditionCheck::builder()
                .table_name(a.table_name)
                .set_key(Some(to_sdk_item(a.key)))
                .condition_expression(a.condition_expression)
                .set_expression_attribute_names(names(a.expression_attribute_names))
                .set_expression_attribute_values(values(a.expression_attribute_values))
                .set_return_values_on_condition_check_failure(on_failure(
                    a.return_values_on_condition_check_failure,
                ))
                .build(),
        )?),
        TransactWriteItem::Put(a) => builder.put(built(
            sdk::Put::builder()
                .table_name(a.table_name)
                .set_item(Some(to_sdk_item(a.item)))
                .set_condition_expression(a.condition_expression)
                .set_expression_attribute_names(names(a.expression_attribute_names))
                .set_expression_attribute_values(values(a.expression_attribute_values))
                .set_return_values_on_condition_check_failure(on_failure(
                    a.return_values_on_condition_check_failure,
                ))
                .build(),
        )?),
        TransactWriteItem::Delete(a) => builder.delete(built(
            sdk::Delete::builder()
                .table_name(a.table_name)
                .set_key(Some(to_sdk_item(a.key)))
                .set_condition_expression(a.condition_expression)
                .set_expression_attribute_names(names(a.expression_attribute_names))
                .set_expression_attribute_values(values(a.expression_attribute_values))
                .set_return_values_on_condition_check_failure(on_failure(
                    a.return_values_on_condition_check_failure,
                ))
                .build(),
        )?),
        TransactWriteItem::Update(a) => builder.update(built(
            sdk::Update::builder()
                .table_name(a.table_name)
                .set_key(Some(to_sdk_item(a.key)))
                .update_expression(a.update_expression)
                .set_condition_expression(a.condition_expression)
                .set_expression_attribute_names(names(a.expression_attribute_names))
                .set_expression_attribute_values(values(a.expression_attribute_values))
                .set_return_values_on_condition_check_failure(on_failure(
                    a.return_values_on_condition_check_failure,
                ))
                .build(),
        )?),
    }
    .build())
}

pub(crate) async fn transact_get_items(
    client: &Client,
    input: TransactGetItemsInput,
) -> Result<TransactGetItemsOutput> {
    let items = input
        .transact_items
        .into_iter()
        .map(get)
        .collect::<Result<Vec<_>>>()?;
    let output = client
        .transact_get_items()
        .set_transact_items(Some(items))
        .set_return_consumed_capacity(return_consumed_capacity(input.return_consumed_capacity))
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(TransactGetItemsOutput {
        consumed_capacity: all_consumed_capacity(output.consumed_capacity()),
        responses: output
            .responses
            .unwrap_or_default()
            .into_iter()
            .map(|r| from_sdk_opt_item(r.item))
            .collect::<Result<_>>()?,
    })
}

pub(crate) async fn transact_write_items(
    client: &Client,
    input: TransactWriteItemsInput,
) -> Result<TransactWriteItemsOutput> {
    let items = input
        .transact_items
        .into_iter()
        .map(write_item)
        .collect::<Result<Vec<_>>>()?;
    let output = client
        .transact_write_items()
        .set_transact_items(Some(items))
        .set_client_request_token(input.client_request_token)
        .set_return_consumed_capacity(return_consumed_capacity(input.return_consumed_capacity))
        .set_return_item_collection_metrics(return_item_collection_metrics(
            input.return_item_collection_metrics,
        ))
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(TransactWriteItemsOutput {
        consumed_capacity: all_consumed_capacity(output.consumed_capacity()),
        item_collection_metrics: all_item_collection_metrics(output.item_collection_metrics())?,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::value::{AttributeValue, Item};

    fn key() -> Item {
        [("id".to_owned(), AttributeValue::S("a".into()))].into()
    }

    #[test]
    fn every_action_kind_converts() {
        let actions = [
            TransactWriteItem::ConditionCheck(TransactConditionCheck {
                table_name: "t".into(),
                key: key(),
                condition_expression: "attribute_exists(id)".into(),
                return_values_on_condition_check_failure: Some(
                    ReturnValuesOnConditionCheckFailure::AllOld,
                ),
                ..Default::default()
            }),
            TransactWriteItem::Put(TransactPut {
                table_name: "t".into(),
                item: key(),
                ..Default::default()
            }),
            TransactWriteItem::Delete(TransactDelete {
                table_name: "t".into(),
                key: key(),
                condition_expression: Some("#n = :v".into()),
                expression_attribute_names: Some([("#n".to_owned(), "x".to_owned())].into()),
                expression_attribute_values: Some(
                    [(":v".to_owned(), AttributeValue::Bool(true))].into(),
                ),
                ..Default::default()
            }),
            TransactWriteItem::Update(TransactUpdate {
                table_name: "t".into(),
                key: key(),
                update_expression: "REMOVE x".into(),
                ..Default::default()
            }),
        ];
        let converted: Vec<sdk::TransactWriteItem> = actions
            .into_iter()
            .map(|a| write_item(a).unwrap())
            .collect();
        let check = converted[0].condition_check().unwrap();
        assert_eq!(check.condition_expression(), "attribute_exists(id)");
        assert_eq!(
            check.return_values_on_condition_check_failure(),
            Some(&sdk::ReturnValuesOnConditionCheckFailure::AllOld)
        );
        assert!(converted[1].put().is_some_and(|p| p.table_name() == "t"));
        let delete = converted[2].delete().unwrap();
        assert_eq!(
            delete.expression_attribute_values().unwrap()[":v"],
            sdk::AttributeValue::Bool(true)
        );
        assert_eq!(
            converted[3].update().unwrap().update_expression(),
            "REMOVE x"
        );
        assert!(converted.iter().all(|c| [
            c.condition_check().is_some(),
            c.put().is_some(),
            c.delete().is_some(),
            c.update().is_some()
        ]
        .iter()
        .filter(|set| **set)
        .count()
            == 1));
    }

    #[test]
    fn gets_convert() {
        let g = get(TransactGet {
            table_name: "t".into(),
            key: key(),
            projection_expression: Some("id".into()),
            expression_attribute_names: None,
        })
        .unwrap();
        let g = g.get().unwrap();
        assert_eq!(
            (g.table_name(), g.projection_expression()),
            ("t", Some("id"))
        );
        assert_eq!(g.key()["id"], sdk::AttributeValue::S("a".into()));
    }
}
