//! What eventual consistency on demand leaves as DynamoDB does: conditions, transactions and
//! returned values on the current item; nothing lagging when off or with zero delays; the same seed
//! giving the same answers.

use dynomodel::backend::{
    PutItemInput, TransactConditionCheck, TransactGet, TransactGetItemsInput, TransactWriteItem,
    TransactWriteItemsInput,
};

use super::super::indexes::full;
use super::super::query::put;
use super::super::{item, s};
use super::*;

#[tokio::test]
async fn conditions_transactions_and_returned_values_see_the_current_item() {
    let (b, _clock) = engine(lagging()).await;
    put(&b, "tbl", full(1, "x", 1)).await;
    // The condition is evaluated on the current item, which exists.
    let err = b
        .put_item(PutItemInput {
            table_name: "tbl".into(),
            item: full(1, "y", 1),
            condition_expression: Some("attribute_not_exists(pk)".into()),
            ..Default::default()
        })
        .await
        .expect_err("the item exists");
    assert_eq!(err.code(), "ConditionalCheckFailedException");
    let out = b
        .put_item(PutItemInput {
            table_name: "tbl".into(),
            item: full(1, "y", 1),
            return_values: Some(dynomodel::backend::ReturnValue::AllOld),
            ..Default::default()
        })
        .await
        .expect("put");
    assert_eq!(out.attributes, Some(full(1, "x", 1)));
    let got = b
        .transact_get_items(TransactGetItemsInput {
            transact_items: vec![TransactGet {
                table_name: "tbl".into(),
                key: key(1),
                ..Default::default()
            }],
            ..Default::default()
        })
        .await
        .expect("transact get");
    assert_eq!(got.responses, [Some(full(1, "y", 1))]);
    b.transact_write_items(TransactWriteItemsInput {
        transact_items: vec![TransactWriteItem::ConditionCheck(TransactConditionCheck {
            table_name: "tbl".into(),
            key: key(1),
            condition_expression: "g = :g".into(),
            expression_attribute_values: Some(item(&[(":g", s("y"))])),
            ..Default::default()
        })],
        ..Default::default()
    })
    .await
    .expect("the condition sees the current item");
}

/// What each of 12 items looks like on GSI `gall` at each 50 ms step, with delays drawn between 0
/// and 500 ms from `seed`.
async fn timeline(seed: u64) -> Vec<Vec<String>> {
    let (b, clock) = engine(
        EventualConsistency::new()
            .gsi_delay_between(Duration::ZERO, Duration::from_millis(500))
            .seed(seed),
    )
    .await;
    for i in 0..12 {
        put(&b, "tbl", full(i, "x", i as i64)).await;
    }
    let mut seen = Vec::new();
    for _ in 0..11 {
        seen.push(scan_gsi(&b).await);
        clock.advance(Duration::from_millis(50));
    }
    seen
}

#[tokio::test]
async fn the_same_seed_gives_the_same_answers() {
    let first = timeline(7).await;
    assert_eq!(first, timeline(7).await);
    assert_ne!(first, timeline(8).await);
    assert!(first.first().is_some_and(|s| s.len() < 12), "{first:?}");
    assert_eq!(
        first.last().map(Vec::len),
        Some(12),
        "all arrived after 500 ms"
    );
    assert!(
        first.windows(2).all(|w| w[0].len() <= w[1].len()),
        "entries only arrive: {first:?}"
    );
}

#[tokio::test]
async fn off_by_default_and_with_zero_delays() {
    let b = MemBackend::new();
    b.create_table(schema()).await.expect("create");
    put(&b, "tbl", full(1, "x", 1)).await;
    assert_eq!(on_gsi(&b, "gsi1", "x").await, ["1"]);
    assert!(get(&b, 1, None).await.is_some());
    let (b, _clock) = engine(
        EventualConsistency::new()
            .gsi_delay(Duration::ZERO)
            .stale_reads(Duration::ZERO),
    )
    .await;
    put(&b, "tbl", full(1, "x", 1)).await;
    assert_eq!(on_gsi(&b, "gsi1", "x").await, ["1"]);
    assert!(get(&b, 1, None).await.is_some());
}
