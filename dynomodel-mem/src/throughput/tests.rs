//! Enforcement through the `Backend` trait, on a `ManualClock`: each operation kind, the burst and
//! its cap, GSIs, UpdateTable, on-demand tables, and that a throttled write writes nothing.

use std::time::Duration;

use dynomodel::{
    Backend, BillingMode, CreateTableInput, DeleteItemInput, Error, GetItemInput,
    GlobalSecondaryIndex, GlobalSecondaryIndexUpdate, Item, KeySchemaElement, Projection,
    ProjectionType, ProvisionedThroughput, PutItemInput, QueryInput, ScalarAttributeType,
    ScanInput, UpdateGlobalSecondaryIndexAction, UpdateItemInput, UpdateTableInput,
};

use crate::tests::{def, item, s, table_input, values};
use crate::{ManualClock, MemBackend, ThroughputEnforcement, INDEX_EXCEEDED, TABLE_EXCEEDED};

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
    be.delete_table(dynomodel::DeleteTableInput {
        table_name: "tbl".into(),
    })
    .await
    .unwrap();
    be.create_table(provisioned(1, 1, 1, 1)).await.unwrap();
    be.get_item(get("a")).await.unwrap();
}
