//! Enforcement through the `Backend` trait, on a `ManualClock`: each operation kind, the burst and
//! its cap, GSIs, UpdateTable, on-demand tables, and that a throttled write writes nothing.

use std::time::Duration;

use dynomodel::backend::{
    Backend, BillingMode, CreateTableInput, DeleteItemInput, GetItemInput, GlobalSecondaryIndex,
    GlobalSecondaryIndexUpdate, KeySchemaElement, Projection, ProjectionType,
    ProvisionedThroughput, PutItemInput, QueryInput, ScalarAttributeType, ScanInput,
    UpdateGlobalSecondaryIndexAction, UpdateItemInput, UpdateTableInput,
};
use dynomodel::{CancellationCode, Error, Item};

use crate::metering::throughput::{INDEX_EXCEEDED, TABLE_EXCEEDED};
use crate::tests::{def, item, s, table_input, values};
use crate::{ManualClock, MemBackend, ThroughputEnforcement};

fn capacity(read: i64, write: i64) -> Option<ProvisionedThroughput> {
    Some(ProvisionedThroughput {
        read_capacity_units: read,
        write_capacity_units: write,
    })
}

/// Table `t` (pk S) with `rcu`/`wcu`, and GSI `by-g` (g S, ALL) with `gsi_rcu`/`gsi_wcu`.
fn provisioned(rcu: i64, wcu: i64, gsi_rcu: i64, gsi_wcu: i64) -> CreateTableInput {
    let mut input = table_input("tbl", ScalarAttributeType::S, None);
    input.billing_mode = None;
    input.provisioned_throughput = capacity(rcu, wcu);
    input
        .attribute_definitions
        .push(def("g", ScalarAttributeType::S));
    input.global_secondary_indexes = vec![GlobalSecondaryIndex {
        index_name: "by-g".into(),
        key_schema: vec![KeySchemaElement::hash("g")],
        projection: Projection {
            projection_type: ProjectionType::All,
            non_key_attributes: vec![],
        },
        provisioned_throughput: capacity(gsi_rcu, gsi_wcu),
    }];
    input
}

pub(crate) async fn enforced(input: CreateTableInput) -> (MemBackend, ManualClock) {
    let clock = ManualClock::default();
    let backend = MemBackend::builder()
        .clock(clock.clone())
        .enforce_provisioned_throughput(true)
        .build();
    backend.create_table(input).await.expect("create table");
    (backend, clock)
}

pub(crate) fn put(pk: &str, extra: &[(&str, &str)]) -> PutItemInput {
    let mut attrs = vec![("pk", s(pk))];
    attrs.extend(extra.iter().map(|(k, v)| (*k, s(v))));
    PutItemInput {
        table_name: "tbl".into(),
        item: item(&attrs),
        ..Default::default()
    }
}

fn key(pk: &str) -> Item {
    item(&[("pk", s(pk))])
}

fn get(pk: &str) -> GetItemInput {
    GetItemInput {
        table_name: "tbl".into(),
        key: key(pk),
        consistent_read: Some(true),
        ..Default::default()
    }
}

pub(crate) fn assert_throttled<T: std::fmt::Debug>(r: Result<T, Error>, message: &str) {
    match r {
        Err(Error::Throughput { code, message: m }) => {
            assert_eq!(code, "ProvisionedThroughputExceededException");
            assert_eq!(m, message);
        }
        other => panic!("expected a throttle, got {other:?}"),
    }
}

const SECOND: Duration = Duration::from_secs(1);

#[tokio::test]
async fn reads_are_refused_once_the_bucket_is_empty_and_pass_again_after_the_refill() {
    let (be, clock) = enforced(provisioned(1, 5, 5, 5)).await;
    // A new table holds one second of capacity: one strongly consistent read of 1 RCU.
    be.get_item(get("a")).await.unwrap();
    assert_throttled(be.get_item(get("a")).await, TABLE_EXCEEDED);
    clock.advance(SECOND / 2);
    // Eventually consistent reads cost half: 0.5 RCU refilled admits one, which empties it again.
    let eventual = GetItemInput {
        consistent_read: None,
        ..get("a")
    };
    be.get_item(eventual.clone()).await.unwrap();
    assert_throttled(be.get_item(eventual).await, TABLE_EXCEEDED);
    clock.advance(SECOND);
    be.get_item(get("a")).await.unwrap();
}

#[tokio::test]
async fn writes_of_every_kind_draw_from_the_write_bucket() {
    let (be, clock) = enforced(provisioned(5, 1, 5, 5)).await;
    be.put_item(put("a", &[])).await.unwrap();
    assert_throttled(be.put_item(put("b", &[])).await, TABLE_EXCEEDED);
    let update = UpdateItemInput {
        table_name: "tbl".into(),
        key: key("a"),
        update_expression: Some("SET x = :x".into()),
        expression_attribute_values: values(&[(":x", s("1"))]),
        ..Default::default()
    };
    assert_throttled(be.update_item(update.clone()).await, TABLE_EXCEEDED);
    let delete = DeleteItemInput {
        table_name: "tbl".into(),
        key: key("a"),
        ..Default::default()
    };
    assert_throttled(be.delete_item(delete.clone()).await, TABLE_EXCEEDED);
    clock.advance(SECOND);
    be.update_item(update).await.unwrap();
    clock.advance(SECOND);
    be.delete_item(delete).await.unwrap();
}

#[tokio::test]
async fn a_throttled_write_writes_nothing() {
    let (be, _clock) = enforced(provisioned(5, 1, 5, 5)).await;
    be.put_item(put("a", &[])).await.unwrap();
    assert_throttled(be.put_item(put("b", &[("g", "x")])).await, TABLE_EXCEEDED);
    let got = be
        .get_item(GetItemInput {
            consistent_read: None,
            ..get("b")
        })
        .await
        .unwrap();
    assert_eq!(got.item, None);
    let by_g = be
        .scan(ScanInput {
            table_name: "tbl".into(),
            index_name: Some("by-g".into()),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(by_g.count, 0);
}

#[tokio::test]
async fn a_large_query_takes_the_balance_below_zero_and_later_reads_wait() {
    let (be, clock) = enforced(provisioned(2, 1000, 5, 5)).await;
    // 8 items of ~2 KB: 16 KB read at once costs 4 RCU strongly consistent; the bucket holds 2.
    let big = "x".repeat(2000);
    for i in 0..8 {
        be.put_item(put(&format!("p{i}"), &[("d", &big)]))
            .await
            .unwrap();
    }
    let scan = ScanInput {
        table_name: "tbl".into(),
        consistent_read: Some(true),
        ..Default::default()
    };
    assert_eq!(be.scan(scan.clone()).await.unwrap().count, 8);
    // Balance 2 - 4 = -2: one second later it is 0, still refused; two seconds later, 2.
    clock.advance(SECOND);
    assert_throttled(be.scan(scan.clone()).await, TABLE_EXCEEDED);
    clock.advance(SECOND);
    let query = QueryInput {
        table_name: "tbl".into(),
        key_condition_expression: Some("pk = :p".into()),
        expression_attribute_values: values(&[(":p", s("p1"))]),
        consistent_read: Some(true),
        ..Default::default()
    };
    be.query(query.clone()).await.unwrap();
    be.query(query.clone()).await.unwrap();
    assert_throttled(be.query(query).await, TABLE_EXCEEDED);
}

#[tokio::test]
async fn unused_capacity_accumulates_for_at_most_300_seconds() {
    let (be, clock) = enforced(provisioned(1, 5, 5, 5)).await;
    clock.advance(Duration::from_secs(3600));
    // An hour idle keeps 300 s of 1 RCU: 300 strongly consistent reads, then a throttle.
    for _ in 0..300 {
        be.get_item(get("a")).await.unwrap();
    }
    assert_throttled(be.get_item(get("a")).await, TABLE_EXCEEDED);
}

#[tokio::test]
async fn the_burst_window_is_configurable() {
    let clock = ManualClock::default();
    let be = MemBackend::builder()
        .clock(clock.clone())
        .throughput_enforcement(
            ThroughputEnforcement::default()
                .burst_window(Duration::from_secs(10))
                .initial_credit(Duration::from_secs(3)),
        )
        .build();
    be.create_table(provisioned(1, 5, 5, 5)).await.unwrap();
    for _ in 0..3 {
        be.get_item(get("a")).await.unwrap();
    }
    assert_throttled(be.get_item(get("a")).await, TABLE_EXCEEDED);
    clock.advance(Duration::from_secs(60));
    for _ in 0..10 {
        be.get_item(get("a")).await.unwrap();
    }
    assert_throttled(be.get_item(get("a")).await, TABLE_EXCEEDED);
}

#[tokio::test]
async fn gsi_reads_draw_from_the_index_and_an_exhausted_gsi_throttles_table_writes() {
    let (be, clock) = enforced(provisioned(1, 10, 1, 1)).await;
    let query = QueryInput {
        table_name: "tbl".into(),
        index_name: Some("by-g".into()),
        key_condition_expression: Some("g = :g".into()),
        expression_attribute_values: values(&[(":g", s("x"))]),
        ..Default::default()
    };
    // GSI reads are eventually consistent: 0.5 RCU each, two per second.
    be.query(query.clone()).await.unwrap();
    be.query(query.clone()).await.unwrap();
    assert_throttled(be.query(query.clone()).await, INDEX_EXCEEDED);
    // ... while the table's own read bucket is untouched.
    be.get_item(get("a")).await.unwrap();

    // A write that reaches the GSI spends its single WCU; the next one is refused with the GSI's
    // message although the table has capacity left, and writes nothing.
    be.put_item(put("a", &[("g", "x")])).await.unwrap();
    assert_throttled(be.put_item(put("b", &[("g", "y")])).await, INDEX_EXCEEDED);
    clock.advance(SECOND);
    assert_eq!(be.query(query.clone()).await.unwrap().count, 1);
    // A write that does not touch the index is admitted while the index is spent.
    be.put_item(put("c", &[("g", "z")])).await.unwrap();
    be.put_item(put("d", &[])).await.unwrap();
}

#[tokio::test]
async fn update_table_changes_the_rates_and_the_billing_mode() {
    let (be, clock) = enforced(provisioned(1, 1, 1, 1)).await;
    be.get_item(get("a")).await.unwrap();
    assert_throttled(be.get_item(get("a")).await, TABLE_EXCEEDED);
    be.update_table(UpdateTableInput {
        table_name: "tbl".into(),
        provisioned_throughput: capacity(10, 1),
        global_secondary_index_updates: vec![GlobalSecondaryIndexUpdate::Update(
            UpdateGlobalSecondaryIndexAction {
                index_name: "by-g".into(),
                provisioned_throughput: ProvisionedThroughput {
                    read_capacity_units: 2,
                    write_capacity_units: 1,
                },
            },
        )],
        ..Default::default()
    })
    .await
    .unwrap();
    // The balance was 0 at the change; a second at 10 RCU brings 10 reads.
    clock.advance(SECOND);
    for _ in 0..10 {
        be.get_item(get("a")).await.unwrap();
    }
    assert_throttled(be.get_item(get("a")).await, TABLE_EXCEEDED);

    // On demand: never throttled.
    be.update_table(UpdateTableInput {
        table_name: "tbl".into(),
        billing_mode: Some(BillingMode::PayPerRequest),
        ..Default::default()
    })
    .await
    .unwrap();
    for _ in 0..50 {
        be.get_item(get("a")).await.unwrap();
        be.put_item(put("a", &[("g", "x")])).await.unwrap();
    }
}

#[tokio::test]
async fn on_demand_tables_are_never_throttled() {
    let (be, _clock) = enforced(table_input("tbl", ScalarAttributeType::S, None)).await;
    for i in 0..100 {
        be.put_item(put(&format!("p{i}"), &[])).await.unwrap();
        be.get_item(get("p0")).await.unwrap();
    }
    assert_eq!(
        be.scan(ScanInput {
            table_name: "tbl".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .count,
        100
    );
}

#[tokio::test]
async fn enforcement_is_off_by_default() {
    let be = MemBackend::new();
    be.create_table(provisioned(1, 1, 1, 1)).await.unwrap();
    for i in 0..20 {
        be.put_item(put(&format!("p{i}"), &[("g", "x")]))
            .await
            .unwrap();
        be.get_item(get("p0")).await.unwrap();
    }
}

#[tokio::test]
async fn a_table_created_again_starts_afresh() {
    let (be, _clock) = enforced(provisioned(1, 1, 1, 1)).await;
    be.get_item(get("a")).await.unwrap();
    assert_throttled(be.get_item(get("a")).await, TABLE_EXCEEDED);
    be.delete_table(dynomodel::backend::DeleteTableInput {
        table_name: "tbl".into(),
    })
    .await
    .unwrap();
    be.create_table(provisioned(1, 1, 1, 1)).await.unwrap();
    be.get_item(get("a")).await.unwrap();
}

#[tokio::test]
async fn batches_return_throttled_items_unprocessed_and_fail_only_when_nothing_was_done() {
    use dynomodel::backend::{
        BatchGetItemInput, BatchWriteItemInput, KeysAndAttributes, WriteRequest,
    };
    let (be, clock) = enforced(provisioned(1, 2, 5, 5)).await;
    let writes = |ids: &[&str]| BatchWriteItemInput {
        request_items: [(
            "tbl".to_owned(),
            ids.iter()
                .map(|id| WriteRequest::Put {
                    item: item(&[("pk", s(id))]),
                })
                .collect(),
        )]
        .into(),
        ..Default::default()
    };
    // 2 WCU: two of four writes are made, two come back.
    let out = be
        .batch_write_item(writes(&["a", "b", "c", "d"]))
        .await
        .unwrap();
    assert_eq!(out.unprocessed_items["tbl"].len(), 2);
    // Nothing can be written now: the whole request is refused.
    assert_throttled(
        be.batch_write_item(writes(&["c", "d"])).await,
        TABLE_EXCEEDED,
    );
    clock.advance(SECOND);
    let retry = BatchWriteItemInput {
        request_items: out.unprocessed_items,
        ..Default::default()
    };
    let out = be.batch_write_item(retry).await.unwrap();
    assert!(out.unprocessed_items.is_empty());

    // Reads: 1 RCU, two seconds' worth saved; strongly consistent reads of small items cost 1 each.
    let keys = KeysAndAttributes {
        keys: ["a", "b", "c", "d"].iter().map(|id| key(id)).collect(),
        consistent_read: Some(true),
        ..Default::default()
    };
    let gets = BatchGetItemInput {
        request_items: [("tbl".to_owned(), keys)].into(),
        ..Default::default()
    };
    let out = be.batch_get_item(gets.clone()).await.unwrap();
    assert_eq!(out.responses["tbl"].len(), 2);
    assert_eq!(out.unprocessed_keys["tbl"].keys.len(), 2);
    assert_throttled(be.batch_get_item(gets).await, TABLE_EXCEEDED);
}

#[tokio::test]
async fn a_batch_write_throttled_by_a_gsi_answers_the_gsi_message() {
    use dynomodel::backend::{BatchWriteItemInput, WriteRequest};
    let (be, _clock) = enforced(provisioned(5, 10, 5, 1)).await;
    be.put_item(put("a", &[("g", "x")])).await.unwrap();
    let batch = BatchWriteItemInput {
        request_items: [(
            "tbl".to_owned(),
            vec![WriteRequest::Put {
                item: item(&[("pk", s("b")), ("g", s("y"))]),
            }],
        )]
        .into(),
        ..Default::default()
    };
    assert_throttled(be.batch_write_item(batch).await, INDEX_EXCEEDED);
}

#[tokio::test]
async fn transactions_are_cancelled_with_the_throttled_actions_reasons() {
    use dynomodel::backend::TransactWriteItemsInput;
    use dynomodel::backend::{TransactGet, TransactGetItemsInput, TransactPut, TransactWriteItem};
    let (be, clock) = enforced(provisioned(2, 2, 5, 1)).await;
    let tx_put = |id: &str, g: Option<&str>| {
        let mut attrs = vec![("pk", s(id))];
        if let Some(g) = g {
            attrs.push(("g", s(g)));
        }
        TransactWriteItem::Put(TransactPut {
            table_name: "tbl".into(),
            item: item(&attrs),
            ..Default::default()
        })
    };
    let tx = |items| TransactWriteItemsInput {
        transact_items: items,
        ..Default::default()
    };
    // A transactional write costs 2 WCU: the first spends the table's two, and the GSI's one
    // (2 units: the bucket goes to -1).
    be.transact_write_items(tx(vec![tx_put("a", Some("x"))]))
        .await
        .unwrap();
    clock.advance(SECOND);
    // One second later the table has 2 WCU again but the GSI is at 0: the action that reaches the
    // GSI is throttled, the other is not.
    let err = be
        .transact_write_items(tx(vec![tx_put("b", None), tx_put("c", Some("y"))]))
        .await
        .unwrap_err();
    let Error::TransactionCanceled { reasons, .. } = err else {
        panic!("expected a cancellation, got {err:?}");
    };
    assert_eq!(reasons[0].code, CancellationCode::None);
    assert_eq!(
        reasons[1].code,
        CancellationCode::ProvisionedThroughputExceeded
    );
    assert_eq!(reasons[1].message.as_deref(), Some(INDEX_EXCEEDED));
    // Nothing was written.
    let got = be
        .get_item(GetItemInput {
            consistent_read: None,
            ..get("b")
        })
        .await
        .unwrap();
    assert_eq!(got.item, None);

    let read = TransactGetItemsInput {
        transact_items: vec![TransactGet {
            table_name: "tbl".into(),
            key: key("a"),
            ..Default::default()
        }],
        ..Default::default()
    };
    // Transactional reads cost 2 RCU per item. The read bucket has saved 3 seconds of 2 RCU, less
    // the 0.5 of the GetItem above: 5.5, enough for three.
    clock.advance(SECOND);
    for _ in 0..2 {
        be.transact_get_items(read.clone()).await.unwrap();
    }
    be.transact_get_items(read.clone()).await.unwrap();
    let err = be.transact_get_items(read).await.unwrap_err();
    let Error::TransactionCanceled { reasons, .. } = err else {
        panic!("expected a cancellation, got {err:?}");
    };
    assert_eq!(
        reasons[0].code,
        CancellationCode::ProvisionedThroughputExceeded
    );
    assert_eq!(reasons[0].message.as_deref(), Some(TABLE_EXCEEDED));
}
