//! Each rule kind firing exactly where specified, before and after the write, on the engine.

#![allow(clippy::unwrap_used)] // Tests: a panic is the failure report.

use std::time::{Duration, Instant};

use dynomodel::backend::{
    Backend, BatchGetItemInput, BatchWriteItemInput, GetItemInput, KeysAndAttributes, PutItemInput,
    ScanInput, TransactPut, TransactWriteItem, TransactWriteItemsInput, WriteRequest,
};
use dynomodel::{AttributeValue, CancellationCode, Error};

use dynomodel::faults::Request;

use super::{FaultError, Faults, Operation, Portion, Rule};
use crate::tests::{backend_with, def, item, s};
use crate::MemBackend;

/// An on-demand table keyed by the string `id`.
fn hash_table(name: &str) -> dynomodel::backend::CreateTableInput {
    dynomodel::backend::CreateTableInput {
        table_name: name.into(),
        attribute_definitions: vec![def("id", dynomodel::backend::ScalarAttributeType::S)],
        key_schema: vec![dynomodel::backend::KeySchemaElement::hash("id")],
        billing_mode: Some(dynomodel::backend::BillingMode::PayPerRequest),
        ..Default::default()
    }
}

async fn engine() -> MemBackend {
    let backend = backend_with(hash_table("tweets")).await;
    backend.create_table(hash_table("users")).await.unwrap();
    backend
}

fn put(table: &str, id: &str) -> PutItemInput {
    PutItemInput {
        table_name: table.into(),
        item: item(&[("id", s(id)), ("text", s("hi"))]),
        ..Default::default()
    }
}

fn get(table: &str, id: &str) -> GetItemInput {
    GetItemInput {
        table_name: table.into(),
        key: item(&[("id", s(id))]),
        ..Default::default()
    }
}

async fn count(backend: &MemBackend, table: &str) -> usize {
    let scan = ScanInput {
        table_name: table.into(),
        ..Default::default()
    };
    backend.scan(scan).await.unwrap().count as usize
}

fn key(id: &str) -> [(&'static str, AttributeValue); 1] {
    [("id", s(id))]
}

#[tokio::test]
async fn the_nth_put_on_a_table_fails_before_the_write() {
    let backend = engine().await;
    let rule = Rule::on(Operation::PutItem).table("tweets").nth(3);
    let id = backend.faults().add(rule);
    for i in 1..=2 {
        backend
            .put_item(put("tweets", &i.to_string()))
            .await
            .unwrap();
        // Another table's puts are not counted.
        backend
            .put_item(put("users", &i.to_string()))
            .await
            .unwrap();
    }
    let err = backend.put_item(put("tweets", "3")).await.unwrap_err();
    assert_eq!(err.code(), "ProvisionedThroughputExceededException");
    assert!(matches!(err, Error::Throughput { .. }));
    assert_eq!(err.message(), crate::metering::throughput::TABLE_EXCEEDED);
    backend.put_item(put("tweets", "4")).await.unwrap();
    assert_eq!(
        count(&backend, "tweets").await,
        3,
        "the 3rd was not written"
    );
    assert_eq!(backend.faults().fired(id), 1);
}

#[tokio::test]
async fn times_fires_on_the_next_n_then_never() {
    let backend = engine().await;
    backend.faults().add(
        Rule::on(Operation::GetItem)
            .times(2)
            .fail(FaultError::Throttling),
    );
    for _ in 0..2 {
        let err = backend.get_item(get("tweets", "x")).await.unwrap_err();
        assert_eq!(err.code(), "ThrottlingException");
        assert_eq!(
            err.message(),
            "Rate of requests exceeds the allowed throughput."
        );
    }
    for _ in 0..3 {
        backend.get_item(get("tweets", "x")).await.unwrap();
    }
}

#[tokio::test]
async fn after_the_write_the_item_is_there_although_the_call_failed() {
    let backend = engine().await;
    backend.faults().add(
        Rule::on(Operation::PutItem)
            .fail(FaultError::InternalServerError)
            .after(),
    );
    let err = backend.put_item(put("tweets", "1")).await.unwrap_err();
    assert_eq!(err.code(), "InternalServerError");
    assert!(matches!(err, Error::Service { .. }));
    backend.faults().clear();
    assert!(backend
        .get_item(get("tweets", "1"))
        .await
        .unwrap()
        .item
        .is_some());

    // A request that fails on its own answers its own error, after or not.
    backend
        .faults()
        .add(Rule::writes().fail(FaultError::InternalServerError).after());
    let err = backend.put_item(put("nope", "1")).await.unwrap_err();
    assert_eq!(err.code(), "ResourceNotFoundException");
}

#[tokio::test]
async fn after_on_a_read_is_before() {
    let backend = engine().await;
    backend.put_item(put("tweets", "1")).await.unwrap();
    backend
        .faults()
        .add(Rule::reads().fail(FaultError::Throttling).after());
    let err = backend.get_item(get("tweets", "1")).await.unwrap_err();
    assert_eq!(err.code(), "ThrottlingException");
    // Writes are not reads.
    backend.put_item(put("tweets", "2")).await.unwrap();
}

#[tokio::test]
async fn keys_match_single_items_and_batch_entries() {
    let backend = engine().await;
    backend.faults().add(
        Rule::any()
            .table("tweets")
            .key(key("u1"))
            .fail(FaultError::Throttling),
    );
    backend.get_item(get("tweets", "u2")).await.unwrap();
    backend.get_item(get("users", "u1")).await.unwrap();
    assert!(backend.get_item(get("tweets", "u1")).await.is_err());
    assert!(
        backend.put_item(put("tweets", "u1")).await.is_err(),
        "a put's item"
    );
    // Scans name no key: never matched by a keyed rule.
    backend
        .scan(ScanInput {
            table_name: "tweets".into(),
            ..Default::default()
        })
        .await
        .unwrap();
    let batch = |ids: &[&str]| BatchWriteItemInput {
        request_items: [(
            "tweets".to_owned(),
            ids.iter()
                .map(|id| WriteRequest::Put {
                    item: item(&[("id", s(id))]),
                })
                .collect(),
        )]
        .into(),
        ..Default::default()
    };
    backend.batch_write_item(batch(&["a", "b"])).await.unwrap();
    assert!(backend.batch_write_item(batch(&["a", "u1"])).await.is_err());
    assert_eq!(
        count(&backend, "tweets").await,
        2,
        "nothing of the refused batch"
    );
}

fn transfer(ids: &[&str]) -> TransactWriteItemsInput {
    TransactWriteItemsInput {
        transact_items: ids
            .iter()
            .map(|id| {
                TransactWriteItem::Put(TransactPut {
                    table_name: "users".into(),
                    item: item(&[("id", s(id))]),
                    ..Default::default()
                })
            })
            .collect(),
        ..Default::default()
    }
}

#[tokio::test]
async fn a_transaction_conflict_names_the_matching_action_and_writes_nothing() {
    let backend = engine().await;
    backend.faults().add(
        Rule::on(Operation::TransactWriteItems)
            .key(key("b"))
            .times(1)
            .fail(FaultError::TransactionConflict),
    );
    let err = backend
        .transact_write_items(transfer(&["a", "b", "c"]))
        .await
        .unwrap_err();
    let Error::TransactionCanceled { message, reasons } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(
        message,
        "Transaction cancelled, please refer cancellation reasons for specific reasons \
         [None, TransactionConflict, None]"
    );
    let codes: Vec<&str> = reasons.iter().map(|r| r.code.as_str()).collect();
    assert_eq!(codes, ["None", "TransactionConflict", "None"]);
    assert_eq!(
        reasons[1].message.as_deref(),
        Some("Transaction is ongoing for the item")
    );
    assert_eq!(count(&backend, "users").await, 0, "all or nothing");
    // Only the next one.
    backend
        .transact_write_items(transfer(&["a", "b", "c"]))
        .await
        .unwrap();
    assert_eq!(count(&backend, "users").await, 3);
}

#[tokio::test]
async fn conflicts_and_conditions_on_single_items_and_transactions_after_commit() {
    let backend = engine().await;
    backend.faults().add(
        Rule::on(Operation::PutItem)
            .times(1)
            .fail(FaultError::TransactionConflict),
    );
    let err = backend.put_item(put("users", "a")).await.unwrap_err();
    assert_eq!(err.code(), "TransactionConflictException");
    assert_eq!(err.message(), "Transaction is ongoing for the item");

    backend.faults().add(
        Rule::on(Operation::DeleteItem)
            .times(1)
            .fail(FaultError::ConditionalCheckFailed),
    );
    let err = backend
        .delete_item(dynomodel::backend::DeleteItemInput {
            table_name: "users".into(),
            key: item(&[("id", s("a"))]),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert!(err.is_conditional_check_failed(), "{err:?}");

    // After the commit: every action was applied, and the caller sees a cancellation.
    backend.faults().add(
        Rule::on(Operation::TransactWriteItems)
            .times(1)
            .fail(FaultError::ConditionalCheckFailed)
            .after(),
    );
    let err = backend
        .transact_write_items(transfer(&["x", "y"]))
        .await
        .unwrap_err();
    let codes: Vec<CancellationCode> = err
        .cancellation_reasons()
        .iter()
        .map(|r| r.code.clone())
        .collect();
    assert_eq!(
        codes,
        [
            CancellationCode::ConditionalCheckFailed,
            CancellationCode::None
        ]
    );
    assert_eq!(count(&backend, "users").await, 2);
}

#[tokio::test]
async fn half_of_a_batch_write_comes_back_unprocessed_and_only_the_rest_is_written() {
    let backend = engine().await;
    backend
        .faults()
        .add(Rule::on(Operation::BatchWriteItem).unprocessed(Portion::Half));
    let requests = |table: &str, ids: &[&str]| {
        (
            table.to_owned(),
            ids.iter()
                .map(|id| WriteRequest::Put {
                    item: item(&[("id", s(id))]),
                })
                .collect::<Vec<_>>(),
        )
    };
    let output = backend
        .batch_write_item(BatchWriteItemInput {
            request_items: [
                requests("tweets", &["t1", "t2"]),
                requests("users", &["u1", "u2", "u3"]),
            ]
            .into(),
            ..Default::default()
        })
        .await
        .unwrap();
    // 5 writes: the last 2 (table-name order, then request order) are held back.
    let left: Vec<(&str, usize)> = output
        .unprocessed_items
        .iter()
        .map(|(t, r)| (t.as_str(), r.len()))
        .collect();
    assert_eq!(left, [("users", 2)]);
    assert_eq!(
        output.unprocessed_items["users"],
        requests("users", &["u2", "u3"]).1
    );
    assert_eq!(
        (
            count(&backend, "tweets").await,
            count(&backend, "users").await
        ),
        (2, 1)
    );

    // A request of one write always makes progress; Count holds back that many.
    let one = BatchWriteItemInput {
        request_items: [requests("users", &["u9"])].into(),
        ..Default::default()
    };
    assert!(backend
        .batch_write_item(one.clone())
        .await
        .unwrap()
        .unprocessed_items
        .is_empty());
    backend.faults().clear();
    backend
        .faults()
        .add(Rule::on(Operation::BatchWriteItem).unprocessed(Portion::Count(5)));
    let output = backend
        .batch_write_item(BatchWriteItemInput {
            request_items: [requests("tweets", &["t7"])].into(),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(output.unprocessed_items["tweets"].len(), 1);
    assert_eq!(count(&backend, "tweets").await, 2, "t7 held back whole");
}

#[tokio::test]
async fn half_of_a_batch_get_comes_back_unprocessed_with_its_settings() {
    let backend = engine().await;
    for id in ["a", "b", "c", "d"] {
        backend.put_item(put("tweets", id)).await.unwrap();
    }
    backend
        .faults()
        .add(Rule::on(Operation::BatchGetItem).unprocessed(Portion::Half));
    let output = backend
        .batch_get_item(BatchGetItemInput {
            request_items: [(
                "tweets".to_owned(),
                KeysAndAttributes {
                    attributes_to_get: None,
                    keys: ["a", "b", "c", "d"]
                        .iter()
                        .map(|id| item(&[("id", s(id))]))
                        .collect(),
                    consistent_read: Some(true),
                    projection_expression: None,
                    expression_attribute_names: None,
                },
            )]
            .into(),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(output.responses["tweets"].len(), 2);
    let left = &output.unprocessed_keys["tweets"];
    assert_eq!(
        left.keys,
        [item(&[("id", s("c"))]), item(&[("id", s("d"))])]
    );
    assert_eq!(left.consistent_read, Some(true));
}

/// Which of 200 reads a "10% with seed 7" rule throttles.
async fn throttled(seed: u64) -> Vec<usize> {
    let backend = engine().await;
    backend.faults().add(
        Rule::reads()
            .probability(0.1, seed)
            .fail(FaultError::Throttling),
    );
    let mut throttled = Vec::new();
    for i in 0..200 {
        if backend.get_item(get("tweets", "x")).await.is_err() {
            throttled.push(i);
        }
    }
    throttled
}

#[tokio::test]
async fn a_seeded_probability_throttles_the_same_requests_every_run() {
    let first = throttled(7).await;
    assert_eq!(first, throttled(7).await);
    assert!(
        (8..=35).contains(&first.len()),
        "about 10%: {}",
        first.len()
    );
    assert_ne!(first, throttled(8).await, "another seed, another draw");
    assert!(throttled_all_or_none().await);
}

async fn throttled_all_or_none() -> bool {
    let backend = engine().await;
    let never = backend.faults().add(Rule::reads().probability(0.0, 1));
    let always = backend
        .faults()
        .add(Rule::reads().probability(1.0, 1).latency(Duration::ZERO));
    for _ in 0..20 {
        backend.get_item(get("tweets", "x")).await.unwrap();
    }
    backend.faults().fired(never) == 0 && backend.faults().fired(always) == 20
}

#[tokio::test]
async fn latency_delays_the_request_and_combines_with_an_error() {
    let backend = engine().await;
    backend
        .faults()
        .add(Rule::on(Operation::GetItem).latency(Duration::from_millis(30)));
    backend.faults().add(
        Rule::on(Operation::GetItem)
            .times(1)
            .fail(FaultError::RequestLimitExceeded),
    );
    let started = Instant::now();
    let err = backend.get_item(get("tweets", "x")).await.unwrap_err();
    assert!(started.elapsed() >= Duration::from_millis(30));
    assert_eq!(err.code(), "RequestLimitExceeded");
    assert!(matches!(err, Error::Throughput { .. }));
    backend.get_item(get("tweets", "x")).await.unwrap();
}

#[tokio::test]
async fn custom_errors_map_onto_the_variants() {
    let backend = engine().await;
    let custom = |code: &str| FaultError::Custom {
        code: code.into(),
        message: "m".into(),
    };
    for code in ["ValidationException", "SomethingElse"] {
        let id = backend
            .faults()
            .add(Rule::on(Operation::GetItem).fail(custom(code)));
        let err = backend.get_item(get("tweets", "x")).await.unwrap_err();
        assert_eq!((err.code(), err.message().as_str()), (code, "m"));
        assert!(backend.faults().remove(id));
        assert!(!backend.faults().remove(id));
    }
    backend
        .faults()
        .add(Rule::on(Operation::GetItem).fail(custom("ThrottlingException")));
    let err = backend.get_item(get("tweets", "x")).await.unwrap_err();
    assert!(matches!(err, Error::Throughput { .. }));
}

#[tokio::test]
async fn with_no_rules_nothing_fires() {
    let backend = MemBackend::builder().faults(Faults::new()).build();
    assert!(backend.faults().is_empty());
    let input = put("t", "1");
    assert!(backend.faults().check(Request::PutItem(&input)).is_none());

    // Armed then cleared: back on the fast path.
    backend.faults().add(Rule::any());
    assert!(backend.faults().check(Request::PutItem(&input)).is_some());
    backend.faults().clear();
    assert!(backend.faults().is_empty());
    assert!(backend.faults().check(Request::PutItem(&input)).is_none());
}

/// The rules (in `dynomodel`) answer the engine's own messages for a spent table and a cancelled
/// transaction.
#[tokio::test]
async fn fault_messages_are_the_engines() {
    let backend = engine().await;
    backend.faults().add(Rule::on(Operation::PutItem).times(1));
    let err = backend.put_item(put("tweets", "1")).await.unwrap_err();
    assert_eq!(err.message(), crate::metering::throughput::TABLE_EXCEEDED);
}

#[tokio::test]
async fn rules_given_to_the_builder_are_armed_from_the_start() {
    let backend = MemBackend::builder()
        .faults(Faults::new().rule(Rule::on(Operation::PutItem).nth(1)))
        .build();
    backend.create_table(hash_table("tweets")).await.unwrap();
    assert!(backend.put_item(put("tweets", "1")).await.is_err());
    backend.put_item(put("tweets", "1")).await.unwrap();
    // Clones share the rules.
    let clone = backend.clone();
    clone.faults().add(Rule::writes());
    assert_eq!(backend.faults().len(), 2);
}

#[test]
fn operations_round_trip_their_names() {
    for op in Operation::ALL {
        assert_eq!(Operation::from_name(op.name()), Some(op));
    }
    assert_eq!(Operation::from_name("CreateTable"), None);
}

/// `put_item_from` (the mapper's puts, written straight into the stored form while no rule is
/// armed) counts as a PutItem: a rule on the item's key fires on it, before or after the write.
#[tokio::test]
async fn a_put_written_from_a_model_is_a_put_to_the_rules() {
    let backend = engine().await;
    let written = |id: &str| {
        let mut input = put("tweets", id);
        let item = std::mem::take(&mut input.item);
        (input, item)
    };
    let (input, item) = written("1");
    backend.put_item_from(input, &item).await.unwrap();
    let rule = Rule::on(Operation::PutItem)
        .table("tweets")
        .key(key("2"))
        .fail(FaultError::InternalServerError)
        .after();
    let id = backend.faults().add(rule);
    let (input, item) = written("2");
    let err = backend.put_item_from(input, &item).await.unwrap_err();
    assert_eq!(err.code(), "InternalServerError");
    // After the write: the item is stored all the same.
    let stored = backend.get_item(get("tweets", "2")).await.unwrap().item;
    assert_eq!(stored, Some(item));
    let (input, item) = written("3");
    backend.put_item_from(input, &item).await.unwrap();
    backend.faults().remove(id);
    let (input, item) = written("2");
    backend.put_item_from(input, &item).await.unwrap();
    assert_eq!(count(&backend, "tweets").await, 3);
}
