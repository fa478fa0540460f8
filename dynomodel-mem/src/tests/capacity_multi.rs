//! Batches and transactions: one ConsumedCapacity entry per table in DynamoDB's order (a batch's tables
//! by name, as its map; a transaction's by first appearance), the ×2 of transactions on the table and
//! inside the indexes, and the item-collection limit and ItemCollectionMetrics over several writes.

use dynomodel::backend::{
    Backend, BatchWriteItemInput, ConsumedCapacity, GetItemInput, ReturnConsumedCapacity,
    ReturnItemCollectionMetrics, ScalarAttributeType, TransactConditionCheck, TransactGet,
    TransactGetItemsInput, TransactPut, TransactWriteItem, TransactWriteItemsInput, WriteRequest,
};
use dynomodel::{Error, Item};

use super::capacity::schema;
use super::{item, s, table_input};
use crate::MemBackend;

/// `(table, CapacityUnits)` of each entry, in the response's order.
fn entries(reports: &[ConsumedCapacity]) -> Vec<(&str, Option<f64>)> {
    reports
        .iter()
        .map(|c| (c.table_name.as_str(), c.capacity_units))
        .collect()
}

/// An item of `cap` in collection `pk` with a 1,000-byte `d`: 1,012 bytes plus a 9-byte LSI entry.
fn member(pk: &str, sk: &str) -> Item {
    item(&[
        ("pk", s(pk)),
        ("sk", s(sk)),
        ("lk", s("l")),
        ("d", s(&"x".repeat(1000))),
    ])
}

fn tput(table: &str, item: Item) -> TransactWriteItem {
    TransactWriteItem::Put(TransactPut {
        table_name: table.into(),
        item,
        ..Default::default()
    })
}

async fn two_plain_tables() -> MemBackend {
    let db = MemBackend::new();
    for name in ["tbl-b", "tbl-a"] {
        db.create_table(table_input(name, ScalarAttributeType::S, None))
            .await
            .unwrap();
    }
    db
}

#[tokio::test]
async fn transactions_report_per_table_in_first_appearance_order_at_twice_the_units() {
    let db = two_plain_tables().await;
    let small = |pk: &str| item(&[("pk", s(pk))]);
    let big = item(&[("pk", s("big")), ("d", s(&"x".repeat(1100)))]);
    let out = db
        .transact_write_items(TransactWriteItemsInput {
            transact_items: vec![
                tput("tbl-b", small("1")),
                tput("tbl-a", big),
                tput("tbl-b", small("2")),
            ],
            return_consumed_capacity: Some(ReturnConsumedCapacity::Total),
            ..Default::default()
        })
        .await
        .unwrap();
    // tb: 2 × (1 + 1); ta: 2 × 2 (1,107 bytes).
    assert_eq!(
        entries(&out.consumed_capacity),
        [("tbl-b", Some(4.0)), ("tbl-a", Some(4.0))]
    );
    let get = |table: &str, pk: &str| TransactGet {
        table_name: table.into(),
        key: small(pk),
        ..Default::default()
    };
    let out = db
        .transact_get_items(TransactGetItemsInput {
            transact_items: vec![
                get("tbl-a", "big"),
                get("tbl-b", "1"),
                get("tbl-a", "missing"),
            ],
            return_consumed_capacity: Some(ReturnConsumedCapacity::Total),
        })
        .await
        .unwrap();
    // Each read 2 units per 4 KB, a missing item the minimum.
    assert_eq!(
        entries(&out.consumed_capacity),
        [("tbl-a", Some(4.0)), ("tbl-b", Some(2.0))]
    );
    // A batch lists its tables in its map's (name) order.
    let out = db
        .batch_write_item(BatchWriteItemInput {
            request_items: [
                (
                    "tbl-b".to_owned(),
                    vec![WriteRequest::Put { item: small("3") }],
                ),
                (
                    "tbl-a".to_owned(),
                    vec![WriteRequest::Delete { key: small("big") }],
                ),
            ]
            .into(),
            return_consumed_capacity: Some(ReturnConsumedCapacity::Total),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(
        entries(&out.consumed_capacity),
        [("tbl-a", Some(2.0)), ("tbl-b", Some(1.0))]
    );
}

#[tokio::test]
async fn transaction_index_units_are_doubled_too() {
    let db = MemBackend::new();
    db.create_table(schema()).await.unwrap();
    let big = item(&[
        ("pk", s("a")),
        ("sk", s("1")),
        ("lk", s("l")),
        ("gk", s("g")),
        ("d", s(&"x".repeat(1500))),
    ]);
    let out = db
        .transact_write_items(TransactWriteItemsInput {
            transact_items: vec![tput("cap", big)],
            return_consumed_capacity: Some(ReturnConsumedCapacity::Indexes),
            ..Default::default()
        })
        .await
        .unwrap();
    // As PutItem's 2 + 1 (KEYS_ONLY LSI) + 2 (ALL GSI), each doubled.
    let c = &out.consumed_capacity[0];
    assert_eq!(c.capacity_units, Some(10.0));
    assert_eq!(c.table.and_then(|t| t.capacity_units), Some(4.0));
    assert_eq!(c.local_secondary_indexes["lsi"].capacity_units, Some(2.0));
    assert_eq!(c.global_secondary_indexes["gsi"].capacity_units, Some(4.0));
    // A ConditionCheck costs a transactional write of its item and touches no index.
    let out = db
        .transact_write_items(TransactWriteItemsInput {
            transact_items: vec![TransactWriteItem::ConditionCheck(TransactConditionCheck {
                table_name: "cap".into(),
                key: item(&[("pk", s("a")), ("sk", s("1"))]),
                condition_expression: "attribute_exists(pk)".into(),
                ..Default::default()
            })],
            return_consumed_capacity: Some(ReturnConsumedCapacity::Indexes),
            ..Default::default()
        })
        .await
        .unwrap();
    let c = &out.consumed_capacity[0];
    assert_eq!(c.capacity_units, Some(4.0));
    assert!(c.local_secondary_indexes.is_empty() && c.global_secondary_indexes.is_empty());
}

#[tokio::test]
async fn batch_writes_count_together_against_the_collection_limit() {
    let db = MemBackend::builder()
        .item_collection_size_limit(4000)
        .build();
    db.create_table(schema()).await.unwrap();
    let batch = |items: Vec<Item>| BatchWriteItemInput {
        request_items: [(
            "cap".to_owned(),
            items
                .into_iter()
                .map(|item| WriteRequest::Put { item })
                .collect(),
        )]
        .into(),
        return_item_collection_metrics: Some(ReturnItemCollectionMetrics::Size),
        ..Default::default()
    };
    // Four items of 1,021 bytes into one collection: the fourth passes 4,000, and nothing is written.
    let four = ["1", "2", "3", "4"].map(|sk| member("a", sk)).to_vec();
    let err = db.batch_write_item(batch(four)).await.unwrap_err();
    assert_eq!(err.code(), "ItemCollectionSizeLimitExceededException");
    assert_eq!(err.message(), "Collection size exceeded.");
    let stored = db
        .get_item(GetItemInput {
            table_name: "cap".into(),
            key: item(&[("pk", s("a")), ("sk", s("1"))]),
            ..Default::default()
        })
        .await
        .unwrap();
    assert!(stored.item.is_none(), "no partial write");
    // Three fit; one entry per collection written, in the order of the first write.
    let out = db
        .batch_write_item(batch(vec![
            member("b", "1"),
            member("a", "1"),
            member("a", "2"),
            member("a", "3"),
        ]))
        .await
        .unwrap();
    let metrics = &out.item_collection_metrics["cap"];
    let keys: Vec<_> = metrics
        .iter()
        .map(|m| m.item_collection_key.clone())
        .collect();
    assert_eq!(keys, [item(&[("pk", s("b"))]), item(&[("pk", s("a"))])]);
    assert!(metrics
        .iter()
        .all(|m| m.size_estimate_range_gb == [0.0, 1.0]));
    // Without SIZE, no metrics.
    let mut plain = batch(vec![member("c", "1")]);
    plain.return_item_collection_metrics = None;
    assert!(db
        .batch_write_item(plain)
        .await
        .unwrap()
        .item_collection_metrics
        .is_empty());
}

#[tokio::test]
async fn a_transaction_growing_a_collection_past_the_limit_is_cancelled() {
    let db = MemBackend::builder()
        .item_collection_size_limit(4000)
        .build();
    db.create_table(schema()).await.unwrap();
    db.create_table(table_input("plain", ScalarAttributeType::S, None))
        .await
        .unwrap();
    let write = |items: Vec<TransactWriteItem>| TransactWriteItemsInput {
        transact_items: items,
        return_item_collection_metrics: Some(ReturnItemCollectionMetrics::Size),
        ..Default::default()
    };
    let out = db
        .transact_write_items(write(vec![
            tput("cap", member("a", "1")),
            tput("plain", item(&[("pk", s("p"))])),
            tput("cap", member("a", "2")),
        ]))
        .await
        .unwrap();
    // Only the LSI table has collections; one entry for "a".
    assert_eq!(out.item_collection_metrics.len(), 1);
    assert_eq!(
        out.item_collection_metrics["cap"][0].item_collection_key,
        item(&[("pk", s("a"))])
    );
    // Two more items into "a" pass 4,000 bytes at the second: its reason, the others None.
    let err = db
        .transact_write_items(write(vec![
            tput("plain", item(&[("pk", s("q"))])),
            tput("cap", member("a", "3")),
            tput("cap", member("a", "4")),
        ]))
        .await
        .unwrap_err();
    let Error::TransactionCanceled { reasons, .. } = &err else {
        panic!("expected a cancellation, got {err:?}");
    };
    let codes: Vec<_> = reasons
        .iter()
        .map(|r| (r.code.as_str(), r.message.as_deref()))
        .collect();
    assert_eq!(
        codes,
        [
            ("None", None),
            ("None", None),
            (
                "ItemCollectionSizeLimitExceeded",
                Some("Collection size exceeded")
            ),
        ]
    );
    // Nothing was written.
    let stored = db
        .get_item(GetItemInput {
            table_name: "plain".into(),
            key: item(&[("pk", s("q"))]),
            ..Default::default()
        })
        .await
        .unwrap();
    assert!(stored.item.is_none());
}
