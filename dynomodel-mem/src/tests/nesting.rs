//! Hostile nesting: a value nested far deeper than DynamoDB allows is refused by every multi-item
//! operation, wherever it sits in the request, with the nesting error and without anything walking it
//! recursively first (a stack overflow would abort the whole test binary, not just fail this test).

use dynomodel::backend::{
    Backend, BatchGetItemInput, BatchWriteItemInput, KeysAndAttributes, ScalarAttributeType as T,
    TransactDelete, TransactGet, TransactGetItemsInput, TransactPut, TransactUpdate,
    TransactWriteItem, TransactWriteItemsInput, WriteRequest,
};
use dynomodel::{AttributeValue, Item};

use super::{assert_validation, backend_with, s, table_input};

const NESTING: &str = "Nesting Levels have exceeded supported limits: Attributes in the item have \
                       nested levels beyond supported limit";

/// A list nested 10,000 levels deep, built afresh each time (`Clone` itself would recurse).
fn deep() -> AttributeValue {
    let mut v = s("leaf");
    for _ in 0..10_000 {
        v = AttributeValue::L(vec![v]);
    }
    v
}

/// The key `pk = a`, with `attr` holding a [`deep`] value when given.
fn key_with(attr: Option<&str>) -> Item {
    let mut item = Item::from([("pk".to_owned(), s("a"))]);
    if let Some(name) = attr {
        item.insert(name.to_owned(), deep());
    }
    item
}

#[tokio::test]
async fn transact_write_items_refuses_deep_values_anywhere() {
    let b = backend_with(table_input("tbl", T::S, None)).await;
    let write = |action: TransactWriteItem| {
        b.transact_write_items(TransactWriteItemsInput {
            transact_items: vec![action],
            client_request_token: None,
            ..Default::default()
        })
    };
    let put = TransactWriteItem::Put(TransactPut {
        table_name: "tbl".into(),
        item: key_with(Some("d")),
        ..Default::default()
    });
    assert_validation(write(put).await, NESTING);
    let delete = TransactWriteItem::Delete(TransactDelete {
        table_name: "tbl".into(),
        key: key_with(Some("pk2")),
        ..Default::default()
    });
    assert_validation(write(delete).await, NESTING);
    let update = TransactWriteItem::Update(TransactUpdate {
        table_name: "tbl".into(),
        key: key_with(None),
        update_expression: "SET d = :v".into(),
        expression_attribute_values: Some(Item::from([(":v".to_owned(), deep())])),
        ..Default::default()
    });
    assert_validation(
        write(update).await,
        &format!("ExpressionAttributeValues contains invalid value: {NESTING} for key :v"),
    );
}

#[tokio::test]
async fn the_other_multi_item_operations_refuse_deep_values() {
    let b = backend_with(table_input("tbl", T::S, None)).await;
    let get = b
        .transact_get_items(TransactGetItemsInput {
            transact_items: vec![TransactGet {
                table_name: "tbl".into(),
                key: key_with(Some("d")),
                ..Default::default()
            }],
            ..Default::default()
        })
        .await;
    assert_validation(get, NESTING);
    for request in [
        WriteRequest::Put {
            item: key_with(Some("d")),
        },
        WriteRequest::Delete {
            key: key_with(Some("d")),
        },
    ] {
        let write = b
            .batch_write_item(BatchWriteItemInput {
                request_items: [("tbl".to_owned(), vec![request])].into(),
                ..Default::default()
            })
            .await;
        assert_validation(write, NESTING);
    }
    let batch_get = b
        .batch_get_item(BatchGetItemInput {
            request_items: [(
                "tbl".to_owned(),
                KeysAndAttributes {
                    keys: vec![key_with(Some("d"))],
                    ..Default::default()
                },
            )]
            .into(),
            ..Default::default()
        })
        .await;
    assert_validation(batch_get, NESTING);
}
