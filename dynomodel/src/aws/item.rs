//! The single-item operations (PutItem, GetItem, DeleteItem, UpdateItem), converted field by field.
//!
//! Optional request fields stay optional on the wire: `None` is not sent and `Some(empty map)` is sent as an
//! empty map, so that DynamoDB (not this module) answers e.g. "ExpressionAttributeValues must not be empty"
//! exactly as it would for any other client.

use std::collections::HashMap;

use aws_sdk_dynamodb::types as sdk;
use aws_sdk_dynamodb::Client;

use super::capacity::{
    one_consumed_capacity, one_item_collection_metrics, return_consumed_capacity,
    return_item_collection_metrics,
};
use super::convert::SdkItemSink;
use super::legacy::{attribute_updates, conditional_operator, expected};
use super::sent::{failed, sent, BackendFuture};
use super::value::{from_sdk_opt_item, hand_over, to_sdk_item, SdkItem};
use crate::backend::*;

/// `ExpressionAttributeNames` in the SDK's shape.
#[inline]
pub(crate) fn names(names: Option<ExpressionAttributeNames>) -> Option<HashMap<String, String>> {
    names.map(|n| n.into_iter().collect())
}

/// `ExpressionAttributeValues` in the SDK's shape.
#[inline]
pub(crate) fn values(values: Option<ExpressionAttributeValues>) -> Option<SdkItem> {
    values.map(to_sdk_item)
}

#[inline]
fn return_value(r: Option<ReturnValue>) -> Option<sdk::ReturnValue> {
    r.map(|r| sdk::ReturnValue::from(r.as_str()))
}

#[inline]
pub(crate) fn on_failure(
    r: Option<ReturnValuesOnConditionCheckFailure>,
) -> Option<sdk::ReturnValuesOnConditionCheckFailure> {
    r.map(|r| sdk::ReturnValuesOnConditionCheckFailure::from(r.as_str()))
}

/// `PutItem`; with a `writer`, its attributes are written into the SDK's item map after
/// `input.item`'s ([`Backend::put_item_from`]), and a value it cannot write fails before anything
/// is sent.
#[inline]
pub(crate) fn put_item<'a>(
    client: &Client,
    input: PutItemInput,
    writer: Option<&dyn AttributeWriter>,
) -> BackendFuture<'a, PutItemOutput> {
    let item = match writer {
        None => to_sdk_item(input.item),
        Some(writer) => {
            let mut sink =
                SdkItemSink(SdkItem::with_capacity(input.item.len() + writer.len_hint()));
            for (name, value) in input.item {
                sink.insert(name, value);
            }
            if let Err(e) = writer.write(&mut sink) {
                return failed(e.into());
            }
            sink.0
        }
    };
    let mut request = client
        .put_item()
        .table_name(input.table_name)
        .set_item(Some(item));
    present!(request
        .set_condition_expression(input.condition_expression)
        .set_expected(expected(input.expected))
        .set_conditional_operator(conditional_operator(input.conditional_operator))
        .set_expression_attribute_names(names(input.expression_attribute_names))
        .set_expression_attribute_values(values(input.expression_attribute_values))
        .set_return_values(return_value(input.return_values))
        .set_return_values_on_condition_check_failure(on_failure(
            input.return_values_on_condition_check_failure,
        ))
        .set_return_consumed_capacity(return_consumed_capacity(input.return_consumed_capacity))
        .set_return_item_collection_metrics(return_item_collection_metrics(
            input.return_item_collection_metrics,
        )));
    sent(request.send(), |output| {
        Ok(PutItemOutput {
            consumed_capacity: one_consumed_capacity(output.consumed_capacity()),
            item_collection_metrics: one_item_collection_metrics(output.item_collection_metrics())?,
            attributes: from_sdk_opt_item(output.attributes)?,
        })
    })
}

/// `GetItem`; with a `sink`, the item is handed to it ([`Backend::get_item_into`]) and `item` is `None`.
#[inline]
pub(crate) fn get_item<'a>(
    client: &Client,
    input: GetItemInput,
    sink: Option<&'a mut dyn ItemSink>,
) -> BackendFuture<'a, GetItemOutput> {
    let mut request = client
        .get_item()
        .table_name(input.table_name)
        .set_key(Some(to_sdk_item(input.key)));
    present!(request
        .set_consistent_read(input.consistent_read)
        .set_projection_expression(input.projection_expression)
        .set_attributes_to_get(input.attributes_to_get)
        .set_expression_attribute_names(names(input.expression_attribute_names))
        .set_return_consumed_capacity(return_consumed_capacity(input.return_consumed_capacity)));
    sent(request.send(), |output| {
        let consumed_capacity = one_consumed_capacity(output.consumed_capacity());
        let item = match (output.item, sink) {
            (Some(item), Some(sink)) => {
                hand_over(vec![item], sink)?;
                None
            }
            (item, _) => from_sdk_opt_item(item)?,
        };
        Ok(GetItemOutput {
            consumed_capacity,
            item,
        })
    })
}

pub(crate) fn delete_item<'a>(
    client: &Client,
    input: DeleteItemInput,
) -> BackendFuture<'a, DeleteItemOutput> {
    let mut request = client
        .delete_item()
        .table_name(input.table_name)
        .set_key(Some(to_sdk_item(input.key)));
    present!(request
        .set_condition_expression(input.condition_expression)
        .set_expected(expected(input.expected))
        .set_conditional_operator(conditional_operator(input.conditional_operator))
        .set_expression_attribute_names(names(input.expression_attribute_names))
        .set_expression_attribute_values(values(input.expression_attribute_values))
        .set_return_values(return_value(input.return_values))
        .set_return_values_on_condition_check_failure(on_failure(
            input.return_values_on_condition_check_failure,
        ))
        .set_return_consumed_capacity(return_consumed_capacity(input.return_consumed_capacity))
        .set_return_item_collection_metrics(return_item_collection_metrics(
            input.return_item_collection_metrics,
        )));
    sent(request.send(), |output| {
        Ok(DeleteItemOutput {
            consumed_capacity: one_consumed_capacity(output.consumed_capacity()),
            item_collection_metrics: one_item_collection_metrics(output.item_collection_metrics())?,
            attributes: from_sdk_opt_item(output.attributes)?,
        })
    })
}

pub(crate) fn update_item<'a>(
    client: &Client,
    input: UpdateItemInput,
) -> BackendFuture<'a, UpdateItemOutput> {
    let mut request = client
        .update_item()
        .table_name(input.table_name)
        .set_key(Some(to_sdk_item(input.key)));
    present!(request
        .set_update_expression(input.update_expression)
        .set_condition_expression(input.condition_expression)
        .set_expected(expected(input.expected))
        .set_conditional_operator(conditional_operator(input.conditional_operator))
        .set_attribute_updates(attribute_updates(input.attribute_updates))
        .set_expression_attribute_names(names(input.expression_attribute_names))
        .set_expression_attribute_values(values(input.expression_attribute_values))
        .set_return_values(return_value(input.return_values))
        .set_return_values_on_condition_check_failure(on_failure(
            input.return_values_on_condition_check_failure,
        ))
        .set_return_consumed_capacity(return_consumed_capacity(input.return_consumed_capacity))
        .set_return_item_collection_metrics(return_item_collection_metrics(
            input.return_item_collection_metrics,
        )));
    sent(request.send(), |output| {
        Ok(UpdateItemOutput {
            consumed_capacity: one_consumed_capacity(output.consumed_capacity()),
            item_collection_metrics: one_item_collection_metrics(output.item_collection_metrics())?,
            attributes: from_sdk_opt_item(output.attributes)?,
        })
    })
}
