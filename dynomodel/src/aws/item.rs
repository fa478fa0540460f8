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
use super::item_json::item_json;
use super::legacy::{attribute_updates, conditional_operator, expected};
use super::page_hook::{take_page, Armed, Arms, PageSlot};
use super::request_body::WrittenMember;
use super::sent::{failed, sent, sent_written, BackendFuture};
use super::value::{from_sdk_opt_item, hand_over, hand_page, to_sdk_item, SdkItem};
use crate::backend::*;
use crate::error::ConversionError;
use crate::value::Item;

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

/// The SDK's map of `item`'s attributes, then those `writer` writes.
#[inline]
fn written(item: Item, writer: &dyn AttributeWriter) -> Result<SdkItem, ConversionError> {
    let mut sink = SdkItemSink(SdkItem::with_capacity(item.len() + writer.len_hint()));
    // The mapper's own requests leave `item` empty: its iterator not even made.
    if !item.is_empty() {
        for (name, value) in item {
            sink.insert(name, value);
        }
    }
    writer.write(&mut sink)?;
    Ok(sink.0)
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

/// `PutItem`; with a `writer`, its attributes are written after `input.item`'s
/// ([`Backend::put_item_from`]), and a value it cannot write fails before anything is sent. The
/// writer's item goes into the request's body as JSON (`request_body`: `client` is then the
/// hooked copy and `json` is set), or else (or when it names an attribute twice) through the SDK's
/// item map.
#[inline]
pub(crate) fn put_item<'a>(
    client: &Client,
    input: PutItemInput,
    writer: Option<&dyn AttributeWriter>,
    json: bool,
) -> BackendFuture<'a, PutItemOutput> {
    let (item, written) = match writer {
        None => (to_sdk_item(input.item), None),
        Some(writer) => match member(input.item, writer, json) {
            Ok(member) => member,
            Err(e) => return failed(e.into()),
        },
    };
    let written = written.map(WrittenMember::put_item);
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
    let arms = Arms {
        page: None,
        written: written.clone(),
    };
    sent_written(Armed::new(arms, request.send()), written, |output| {
        Ok(PutItemOutput {
            consumed_capacity: one_consumed_capacity(output.consumed_capacity()),
            item_collection_metrics: one_item_collection_metrics(output.item_collection_metrics())?,
            attributes: from_sdk_opt_item(output.attributes)?,
        })
    })
}

/// The item the writer writes after `item`'s attributes: with `json`, the SDK is given an empty
/// map and the item's JSON goes into the body (`Some`); without, or for attributes named twice,
/// the SDK's map.
#[inline]
fn member(
    item: Item,
    writer: &dyn AttributeWriter,
    json: bool,
) -> Result<(SdkItem, Option<String>), ConversionError> {
    if json && let Some(json) = item_json(&item, writer)? {
        return Ok((SdkItem::new(), Some(json)));
    }
    Ok((written(item, writer)?, None))
}

/// `GetItem`; with a `sink`, the item is handed to it ([`Backend::get_item_into`]) and `item` is `None`;
/// with a `writer`, the key is what it writes into the SDK's map after `input.key`'s attributes
/// ([`Backend::get_item_keyed_into`]), and a key it cannot write fails before anything is sent.
/// The typed read's item is read from the response body when it can be (`page_hook`: `client` is
/// then the hooked copy), or else converted from the SDK's map.
#[inline]
pub(crate) fn get_item<'a>(
    client: &Client,
    input: GetItemInput,
    writer: Option<&dyn AttributeWriter>,
    sink: Option<&'a mut dyn ItemSink>,
) -> BackendFuture<'a, GetItemOutput> {
    let key = match writer {
        None => to_sdk_item(input.key),
        Some(writer) => match written(input.key, writer) {
            Ok(key) => key,
            Err(e) => return failed(e.into()),
        },
    };
    let mut request = client
        .get_item()
        .table_name(input.table_name)
        .set_key(Some(key));
    present!(request
        .set_consistent_read(input.consistent_read)
        .set_projection_expression(input.projection_expression)
        .set_attributes_to_get(input.attributes_to_get)
        .set_expression_attribute_names(names(input.expression_attribute_names))
        .set_return_consumed_capacity(return_consumed_capacity(input.return_consumed_capacity)));
    let Some(sink) = sink else {
        return sent(request.send(), |output| {
            Ok(GetItemOutput {
                consumed_capacity: one_consumed_capacity(output.consumed_capacity()),
                item: from_sdk_opt_item(output.item)?,
            })
        });
    };
    let slot = PageSlot::default();
    let armed = Armed::new(Arms::page(&slot), request.send());
    sent(armed, move |output| {
        let consumed_capacity = one_consumed_capacity(output.consumed_capacity());
        // Read from the body, the SDK's item is the empty one it was given in its place.
        match (take_page(&slot), output.item) {
            (Some(page), _) => hand_page(page.attributes, page.lengths, sink),
            (None, Some(item)) => hand_over(vec![item], sink)?,
            (None, None) => {}
        }
        Ok(GetItemOutput {
            consumed_capacity,
            item: None,
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

#[cfg(test)]
pub(crate) mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::value::AttributeValue;
    use aws_sdk_dynamodb::types::AttributeValue as SdkValue;

    /// A key (or an item) that writes one attribute, then fails.
    pub(crate) struct Failing;

    impl Failing {
        /// The error it fails with.
        pub(crate) fn error() -> ConversionError {
            ConversionError::new("a key value", "nothing").at("sk")
        }
    }

    impl AttributeWriter for Failing {
        fn write(&self, sink: &mut dyn AttributeSink) -> Result<(), ConversionError> {
            sink.insert_static("pk", AttributeValue::S("a".into()));
            Err(Failing::error())
        }
    }

    #[test]
    fn a_key_is_written_after_the_inputs_attributes() {
        let input = Item::from([("pk".to_owned(), AttributeValue::S("a".into()))]);
        let writer = Item::from([("sk".to_owned(), AttributeValue::N(7.into()))]);
        let key = written(input, &writer).unwrap();
        assert_eq!(key.len(), 2);
        assert_eq!(key["pk"], SdkValue::S("a".into()));
        assert_eq!(key["sk"], SdkValue::N("7".into()));
    }

    #[test]
    fn an_empty_inputs_map_leaves_the_writers_attributes_alone() {
        let writer = Item::from([("sk".to_owned(), AttributeValue::N(7.into()))]);
        let item = written(Item::new(), &writer).unwrap();
        assert_eq!(item.len(), 1);
        assert_eq!(item["sk"], SdkValue::N("7".into()));
        // A writer that fails fails the same with an empty map.
        let err = written(Item::new(), &Failing).unwrap_err();
        assert_eq!(err.to_string(), Failing::error().to_string());
    }

    #[test]
    fn a_key_that_does_not_write_fails_before_anything_is_sent() {
        // A client with no endpoint and no credentials: a request that were sent would fail
        // otherwise, not with the key's error.
        let config = aws_sdk_dynamodb::Config::builder()
            .behavior_version(aws_sdk_dynamodb::config::BehaviorVersion::latest())
            .build();
        let client = Client::from_conf(config);
        let input = GetItemInput {
            table_name: "t".into(),
            ..Default::default()
        };
        let future = get_item(&client, input, Some(&Failing), None);
        let err = futures::executor::block_on(future).unwrap_err();
        let expected: crate::Error = Failing::error().into();
        assert_eq!(err.to_string(), expected.to_string());
    }
}
