//! ConsumedCapacity and ItemCollectionMetrics through the `Backend` trait. The figures of the first
//! test were recorded on DynamoDB Local 3.3.1 with the same schema and items (the engine agrees with it
//! on every single-item, Query and Scan figure).

use dynomodel::backend::{
    Backend, CreateTableInput, DeleteItemInput, GetItemInput, GlobalSecondaryIndex,
    KeySchemaElement, LocalSecondaryIndex, Projection, ProjectionType, PutItemInput, QueryInput,
    ReturnConsumedCapacity, ReturnItemCollectionMetrics, ScalarAttributeType, ScanInput, Select,
    UpdateItemInput,
};
use dynomodel::Item;

use super::{def, item, s, table_input, values};
use crate::MemBackend;

/// Table `cap` (pk S, sk S), LSI `lsi` (pk, lk) KEYS_ONLY, GSI `gsi` (gk) ALL.
pub(super) fn schema() -> CreateTableInput {
    let mut input = table_input("cap", ScalarAttributeType::S, Some(ScalarAttributeType::S));
    input.attribute_definitions.extend([
        def("lk", ScalarAttributeType::S),
        def("gk", ScalarAttributeType::S),
    ]);
    input.local_secondary_indexes = vec![LocalSecondaryIndex {
        index_name: "lsi".into(),
        key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("lk")],
        projection: Projection {
            projection_type: ProjectionType::KeysOnly,
            non_key_attributes: vec![],
        },
    }];
    input.global_secondary_indexes = vec![GlobalSecondaryIndex {
        index_name: "gsi".into(),
        key_schema: vec![KeySchemaElement::hash("gk")],
        projection: Projection {
            projection_type: ProjectionType::All,
            non_key_attributes: vec![],
        },
        provisioned_throughput: None,
    }];
    input
}

fn key(pk: &str, sk: &str) -> Item {
    item(&[("pk", s(pk)), ("sk", s(sk))])
}

/// (total, table, lsi, gsi) of a report.
fn split(c: Option<dynomodel::backend::ConsumedCapacity>) -> (f64, f64, Option<f64>, Option<f64>) {
    let c = c.expect("a report");
    (
        c.capacity_units.unwrap_or(-1.0),
        c.table.and_then(|t| t.capacity_units).unwrap_or(-1.0),
        c.local_secondary_indexes
            .get("lsi")
            .and_then(|t| t.capacity_units),
        c.global_secondary_indexes
            .get("gsi")
            .and_then(|t| t.capacity_units),
    )
}

#[tokio::test]
async fn single_item_query_and_scan_figures() {
    let db = MemBackend::new();
    db.create_table(schema()).await.unwrap();
    let idx = Some(ReturnConsumedCapacity::Indexes);
    // 1,513 bytes: 2 WCU on the table, 1 on the KEYS_ONLY LSI entry, 2 on the ALL GSI entry.
    let big = item(&[
        ("pk", s("a")),
        ("sk", s("1")),
        ("lk", s("l")),
        ("gk", s("g")),
        ("d", s(&"x".repeat(1500))),
    ]);
    let put = db
        .put_item(PutItemInput {
            table_name: "cap".into(),
            item: big,
            return_consumed_capacity: idx,
            return_item_collection_metrics: Some(ReturnItemCollectionMetrics::Size),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(
        split(put.consumed_capacity),
        (5.0, 2.0, Some(1.0), Some(2.0))
    );
    let metrics = put
        .item_collection_metrics
        .expect("metrics on an LSI table");
    assert_eq!(metrics.item_collection_key, item(&[("pk", s("a"))]));
    assert_eq!(metrics.size_estimate_range_gb, vec![0.0, 1.0]);

    let get = |k: Item, consistent| GetItemInput {
        table_name: "cap".into(),
        key: k,
        consistent_read: consistent,
        return_consumed_capacity: idx,
        ..Default::default()
    };
    let g = db.get_item(get(key("a", "1"), None)).await.unwrap();
    assert_eq!(split(g.consumed_capacity), (0.5, 0.5, None, None));
    let g = db.get_item(get(key("a", "1"), Some(true))).await.unwrap();
    assert_eq!(split(g.consumed_capacity), (1.0, 1.0, None, None));
    let g = db.get_item(get(key("zz", "1"), None)).await.unwrap();
    assert_eq!(split(g.consumed_capacity), (0.5, 0.5, None, None));

    let query = |index: Option<&str>, select| QueryInput {
        table_name: "cap".into(),
        index_name: index.map(Into::into),
        select,
        key_condition_expression: Some(
            if index == Some("gsi") {
                "gk = :v"
            } else {
                "pk = :v"
            }
            .into(),
        ),
        expression_attribute_values: values(&[(
            ":v",
            s(if index == Some("gsi") { "g" } else { "a" }),
        )]),
        return_consumed_capacity: idx,
        ..Default::default()
    };
    let q = db.query(query(None, None)).await.unwrap();
    assert_eq!(split(q.consumed_capacity), (0.5, 0.5, None, None));
    let q = db.query(query(Some("lsi"), None)).await.unwrap();
    assert_eq!(split(q.consumed_capacity), (0.5, 0.0, Some(0.5), None));
    let q = db
        .query(query(Some("lsi"), Some(Select::AllAttributes)))
        .await
        .unwrap();
    assert_eq!(split(q.consumed_capacity), (1.0, 0.5, Some(0.5), None));
    let q = db.query(query(Some("gsi"), None)).await.unwrap();
    assert_eq!(split(q.consumed_capacity), (0.5, 0.0, None, Some(0.5)));
    let sc = db
        .scan(ScanInput {
            table_name: "cap".into(),
            return_consumed_capacity: Some(ReturnConsumedCapacity::Total),
            ..Default::default()
        })
        .await
        .unwrap();
    let total = sc.consumed_capacity.expect("report");
    assert_eq!(
        (total.table_name.as_str(), total.capacity_units),
        ("cap", Some(0.5))
    );
    assert!(total.table.is_none());

    // Moving the GSI key: the table's larger image (2) plus delete and put of the entry (2 + 2).
    let u = db
        .update_item(UpdateItemInput {
            table_name: "cap".into(),
            key: key("a", "1"),
            update_expression: Some("SET gk = :g".into()),
            expression_attribute_values: values(&[(":g", s("g2"))]),
            return_consumed_capacity: idx,
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(split(u.consumed_capacity), (6.0, 2.0, None, Some(4.0)));
    let del = |k| DeleteItemInput {
        table_name: "cap".into(),
        key: k,
        return_consumed_capacity: idx,
        ..Default::default()
    };
    let d = db.delete_item(del(key("a", "1"))).await.unwrap();
    assert_eq!(split(d.consumed_capacity), (5.0, 2.0, Some(1.0), Some(2.0)));
    let d = db.delete_item(del(key("a", "1"))).await.unwrap();
    assert_eq!(split(d.consumed_capacity), (1.0, 1.0, None, None));
    // Nothing asked, nothing reported.
    let plain = db.get_item(GetItemInput {
        table_name: "cap".into(),
        key: key("a", "1"),
        ..Default::default()
    });
    assert!(plain.await.unwrap().consumed_capacity.is_none());
}

#[tokio::test]
async fn a_collection_cannot_grow_past_the_limit() {
    let db = MemBackend::builder()
        .item_collection_size_limit(4000)
        .build();
    db.create_table(schema()).await.unwrap();
    let put = |sk: &str, pk: &str| PutItemInput {
        table_name: "cap".into(),
        item: item(&[
            ("pk", s(pk)),
            ("sk", s(sk)),
            ("lk", s("l")),
            ("d", s(&"x".repeat(1000))),
        ]),
        ..Default::default()
    };
    // Each item is 1,012 bytes plus a 9-byte LSI entry: three fit in 4,000 bytes, a fourth does not.
    for sk in ["1", "2", "3"] {
        db.put_item(put(sk, "a")).await.unwrap();
    }
    let err = db.put_item(put("4", "a")).await.unwrap_err();
    assert_eq!(err.code(), "ItemCollectionSizeLimitExceededException");
    // Another partition key is another collection; replacing an item by one of its size passes.
    db.put_item(put("4", "b")).await.unwrap();
    db.put_item(put("3", "a")).await.unwrap();
    // After a delete there is room again.
    db.delete_item(DeleteItemInput {
        table_name: "cap".into(),
        key: key("a", "1"),
        ..Default::default()
    })
    .await
    .unwrap();
    db.put_item(put("4", "a")).await.unwrap();
}
