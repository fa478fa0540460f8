//! Stale reads: GetItem, BatchGetItem, and Query and Scan of the table or of an LSI, without
//! `ConsistentRead`, see an item as it was before a write within the stale window only.

use dynomodel::backend::{BatchGetItemInput, DeleteItemInput, KeysAndAttributes};

use super::super::indexes::full;
use super::super::query::put;
use super::super::{item, s};
use super::*;

#[tokio::test]
async fn eventually_consistent_reads_are_stale_within_the_window_only() {
    let (b, clock) = engine(lagging()).await;
    put(&b, "tbl", full(1, "x", 1)).await;
    assert!(get(&b, 1, None).await.is_none(), "new: not seen yet");
    assert!(get(&b, 1, Some(false)).await.is_none());
    assert!(
        get(&b, 1, Some(true)).await.is_some(),
        "never for ConsistentRead"
    );
    clock.advance(STALE);
    assert_eq!(get(&b, 1, None).await, Some(full(1, "x", 1)));
    // An update: the previous version within the window.
    put(&b, "tbl", full(1, "y", 1)).await;
    assert_eq!(get(&b, 1, None).await, Some(full(1, "x", 1)));
    assert_eq!(get(&b, 1, Some(true)).await, Some(full(1, "y", 1)));
    let batch = |consistent: Option<bool>| BatchGetItemInput {
        request_items: [(
            "tbl".to_owned(),
            KeysAndAttributes {
                keys: vec![key(1)],
                consistent_read: consistent,
                ..Default::default()
            },
        )]
        .into(),
        ..Default::default()
    };
    let seen = |out: dynomodel::backend::BatchGetItemOutput| {
        out.responses.get("tbl").cloned().unwrap_or_default()
    };
    assert_eq!(
        seen(b.batch_get_item(batch(None)).await.expect("batch")),
        [full(1, "x", 1)]
    );
    assert_eq!(
        seen(b.batch_get_item(batch(Some(true))).await.expect("batch")),
        [full(1, "y", 1)]
    );
    // A deletion: the item is still read within the window.
    clock.advance(STALE);
    b.delete_item(DeleteItemInput {
        table_name: "tbl".into(),
        key: key(1),
        ..Default::default()
    })
    .await
    .expect("delete");
    assert_eq!(get(&b, 1, None).await, Some(full(1, "y", 1)));
    assert!(get(&b, 1, Some(true)).await.is_none());
    clock.advance(STALE - MS);
    assert!(get(&b, 1, None).await.is_some(), "one ms before the end");
    clock.advance(MS);
    assert!(get(&b, 1, None).await.is_none());
}

/// The `sk:x` of every item a Query of partition `a` (of the table, or of `index`) returns.
async fn query_a(
    b: &MemBackend,
    index: Option<&str>,
    consistent: Option<bool>,
    forward: bool,
) -> Vec<String> {
    let out = b
        .query(QueryInput {
            table_name: "tbl".into(),
            index_name: index.map(Into::into),
            key_condition_expression: Some("pk = :p".into()),
            expression_attribute_values: Some(item(&[(":p", s("a"))])),
            consistent_read: consistent,
            scan_index_forward: Some(forward),
            ..Default::default()
        })
        .await
        .expect("query");
    versions(out.items)
}

fn versions(items: Option<Vec<Item>>) -> Vec<String> {
    items
        .unwrap_or_default()
        .iter()
        .map(|i| {
            let sk = match i.get("sk") {
                Some(AttributeValue::N(n)) => n.to_string(),
                _ => "-".into(),
            };
            let l = match i.get("l") {
                Some(AttributeValue::S(v)) => v.clone(),
                _ => "-".into(),
            };
            format!("{sk}:{l}")
        })
        .collect()
}

/// Items 0..6 written and arrived, then 1 updated (`l` changes), 3 deleted and 7 created.
async fn written_within_the_window() -> (MemBackend, ManualClock) {
    let (b, clock) = engine(lagging()).await;
    for i in 0..6 {
        put(&b, "tbl", full(i, "x", 1)).await;
    }
    b.settle();
    let mut updated = full(1, "x", 1);
    updated.insert("l".into(), s("new"));
    put(&b, "tbl", updated).await;
    b.delete_item(DeleteItemInput {
        table_name: "tbl".into(),
        key: key(3),
        ..Default::default()
    })
    .await
    .expect("delete");
    put(&b, "tbl", full(7, "x", 1)).await;
    (b, clock)
}

#[tokio::test]
async fn table_queries_and_scans_without_consistent_read_are_stale_within_the_window() {
    let (b, clock) = written_within_the_window().await;
    let before = ["0:l0", "1:l1", "2:l2", "3:l3", "4:l4", "5:l5"];
    let after = ["0:l0", "1:new", "2:l2", "4:l4", "5:l5", "7:l7"];
    assert_eq!(query_a(&b, None, None, true).await, before);
    let mut backward = before.to_vec();
    backward.reverse();
    assert_eq!(query_a(&b, None, Some(false), false).await, backward);
    assert_eq!(query_a(&b, None, Some(true), true).await, after);
    let scan = |consistent: Option<bool>, limit: Option<i32>| ScanInput {
        table_name: "tbl".into(),
        consistent_read: consistent,
        limit,
        ..Default::default()
    };
    let scanned = b.scan(scan(None, None)).await.expect("scan");
    assert_eq!(versions(scanned.items), before);
    // Paged: each page resumes from the last key read, stale or not.
    let mut paged = Vec::new();
    let mut input = scan(None, Some(2));
    loop {
        let page = b.scan(input.clone()).await.expect("scan");
        paged.extend(versions(page.items));
        match page.last_evaluated_key {
            Some(lek) => input.exclusive_start_key = Some(lek),
            None => break,
        }
    }
    assert_eq!(paged, before);
    let consistent = b.scan(scan(Some(true), None)).await.expect("scan");
    assert_eq!(versions(consistent.items), after);
    clock.advance(STALE);
    assert_eq!(query_a(&b, None, None, true).await, after);
    let scanned = b.scan(scan(None, None)).await.expect("scan");
    assert_eq!(versions(scanned.items), after);
}

#[tokio::test]
async fn lsi_reads_without_consistent_read_are_stale_within_the_window() {
    let (b, clock) = written_within_the_window().await;
    // `lsi1` is KEYS_ONLY on `l`: entries in `l` order.
    let before = ["0:l0", "1:l1", "2:l2", "3:l3", "4:l4", "5:l5"];
    let after = ["0:l0", "2:l2", "4:l4", "5:l5", "7:l7", "1:new"];
    assert_eq!(query_a(&b, Some("lsi1"), None, true).await, before);
    assert_eq!(query_a(&b, Some("lsi1"), Some(true), true).await, after);
    clock.advance(STALE);
    assert_eq!(query_a(&b, Some("lsi1"), None, true).await, after);
}
