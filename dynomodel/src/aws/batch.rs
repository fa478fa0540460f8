//! BatchGetItem and BatchWriteItem, converted field by field in both directions (the unprocessed keys and
//! writes come back in the request's shape, so that they can be sent again as they are).

use std::collections::{BTreeMap, HashMap};

use aws_sdk_dynamodb::types as sdk;
use aws_sdk_dynamodb::Client;

use super::capacity::{
    all_consumed_capacity, all_item_collection_metrics, return_consumed_capacity,
    return_item_collection_metrics,
};
use super::error::map_sdk_error;
use super::item::names;
use super::table::built;
use super::value::{from_sdk_item, to_sdk_item};
use crate::backend::*;
use crate::error::Result;
use crate::value::Item;

fn keys_and_attributes(k: KeysAndAttributes) -> Result<sdk::KeysAndAttributes> {
    built(
        sdk::KeysAndAttributes::builder()
            .set_keys(Some(k.keys.into_iter().map(to_sdk_item).collect()))
            .set_consistent_read(k.consistent_read)
            .set_projection_expression(k.projection_expression)
            .set_attributes_to_get(k.attributes_to_get)
            .set_expression_attribute_names(names(k.expression_attribute_names))
            .build(),
    )
}

fn keys_and_attributes_from(k: sdk::KeysAndAttributes) -> Result<KeysAndAttributes> {
    Ok(KeysAndAttributes {
        keys: k
            .keys
            .into_iter()
            .map(from_sdk_item)
            .collect::<Result<_, _>>()?,
        consistent_read: k.consistent_read,
        projection_expression: k.projection_expression,
        attributes_to_get: k.attributes_to_get,
        expression_attribute_names: k
            .expression_attribute_names
            .map(|n| n.into_iter().collect()),
    })
}

fn write_request(w: WriteRequest) -> Result<sdk::WriteRequest> {
    Ok(match w {
        WriteRequest::Put { item } => sdk::WriteRequest::builder()
            .put_request(built(
                sdk::PutRequest::builder()
                    .set_item(Some(to_sdk_item(item)))
                    .build(),
            )?)
            .build(),
        WriteRequest::Delete { key } => sdk::WriteRequest::builder()
            .delete_request(built(
                sdk::DeleteRequest::builder()
                    .set_key(Some(to_sdk_item(key)))
                    .build(),
            )?)
            .build(),
    })
}

/// A returned write. DynamoDB sends back exactly the requests it did not process, each a put or a delete;
/// anything else would be a server bug, reported as a conversion error rather than dropped.
fn write_request_from(w: sdk::WriteRequest) -> Result<WriteRequest> {
    match (w.put_request, w.delete_request) {
        (Some(put), None) => Ok(WriteRequest::Put {
            item: from_sdk_item(put.item)?,
        }),
        (None, Some(delete)) => Ok(WriteRequest::Delete {
            key: from_sdk_item(delete.key)?,
        }),
        _ => Err(crate::ConversionError::new(
            "an unprocessed write with exactly one of PutRequest and DeleteRequest",
            "another shape",
        )
        .into()),
    }
}

fn items_from(items: Vec<HashMap<String, sdk::AttributeValue>>) -> Result<Vec<Item>> {
    Ok(items
        .into_iter()
        .map(from_sdk_item)
        .collect::<Result<_, _>>()?)
}

pub(crate) async fn batch_get_item(
    client: &Client,
    input: BatchGetItemInput,
) -> Result<BatchGetItemOutput> {
    let request_items = input
        .request_items
        .into_iter()
        .map(|(table, k)| Ok((table, keys_and_attributes(k)?)))
        .collect::<Result<HashMap<_, _>>>()?;
    let output = client
        .batch_get_item()
        .set_request_items(Some(request_items))
        .set_return_consumed_capacity(return_consumed_capacity(input.return_consumed_capacity))
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(BatchGetItemOutput {
        consumed_capacity: all_consumed_capacity(output.consumed_capacity()),
        responses: output
            .responses
            .unwrap_or_default()
            .into_iter()
            .map(|(table, items)| Ok((table, items_from(items)?)))
            .collect::<Result<BTreeMap<_, _>>>()?,
        unprocessed_keys: output
            .unprocessed_keys
            .unwrap_or_default()
            .into_iter()
            .map(|(table, k)| Ok((table, keys_and_attributes_from(k)?)))
            .collect::<Result<BTreeMap<_, _>>>()?,
    })
}

pub(crate) async fn batch_write_item(
    client: &Client,
    input: BatchWriteItemInput,
) -> Result<BatchWriteItemOutput> {
    let request_items = input
        .request_items
        .into_iter()
        .map(|(table, writes)| {
            let writes = writes
                .into_iter()
                .map(write_request)
                .collect::<Result<_>>()?;
            Ok((table, writes))
        })
        .collect::<Result<HashMap<_, _>>>()?;
    let output = client
        .batch_write_item()
        .set_request_items(Some(request_items))
        .set_return_consumed_capacity(return_consumed_capacity(input.return_consumed_capacity))
        .set_return_item_collection_metrics(return_item_collection_metrics(
            input.return_item_collection_metrics,
        ))
        .send()
        .await
        .map_err(map_sdk_error)?;
    Ok(BatchWriteItemOutput {
        consumed_capacity: all_consumed_capacity(output.consumed_capacity()),
        item_collection_metrics: all_item_collection_metrics(output.item_collection_metrics())?,
        unprocessed_items: output
            .unprocessed_items
            .unwrap_or_default()
            .into_iter()
            .map(|(table, writes)| {
                let writes = writes
                    .into_iter()
                    .map(write_request_from)
                    .collect::<Result<_>>()?;
                Ok((table, writes))
            })
            .collect::<Result<BTreeMap<_, _>>>()?,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::value::AttributeValue;

    fn key(id: &str) -> Item {
        [("id".to_owned(), AttributeValue::S(id.into()))].into()
    }

    #[test]
    fn keys_and_attributes_round_trip() {
        let k = KeysAndAttributes {
            attributes_to_get: None,
            keys: vec![key("a"), key("b")],
            consistent_read: Some(true),
            projection_expression: Some("#n".into()),
            expression_attribute_names: Some([("#n".to_owned(), "name".to_owned())].into()),
        };
        let sdk = keys_and_attributes(k.clone()).unwrap();
        assert_eq!(sdk.keys().len(), 2);
        assert_eq!(keys_and_attributes_from(sdk).unwrap(), k);
        let bare = KeysAndAttributes {
            keys: vec![],
            ..Default::default()
        };
        assert_eq!(
            keys_and_attributes_from(keys_and_attributes(bare.clone()).unwrap()).unwrap(),
            bare
        );
    }

    #[test]
    fn write_requests_round_trip() {
        for w in [
            WriteRequest::Put { item: key("a") },
            WriteRequest::Delete { key: key("b") },
        ] {
            assert_eq!(
                write_request_from(write_request(w.clone()).unwrap()).unwrap(),
                w
            );
        }
        let neither = sdk::WriteRequest::builder().build();
        assert!(write_request_from(neither).is_err());
    }
}
