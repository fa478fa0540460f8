//! BatchGetItem's 16 MB of results: the boundary, the AWS example, and the continuation through
//! `UnprocessedKeys`.

use dynomodel::backend::{BatchGetItemInput, KeysAndAttributes};
use dynomodel::{item_size, Item};

use super::super::names;
use super::{found, get, h, keys, put, s, two_tables, write, MemBackend};
use crate::ops::batch::MAX_RESPONSE_BYTES;
use dynomodel::backend::Backend;

/// The `hash` item `k<i>` (two digits) of exactly `size` bytes: "pk" + "kNN" + "d" + the value.
fn sized(i: usize, size: usize) -> Item {
    let mut it = h(&format!("k{i:02}"));
    it.insert("d".into(), s(&"x".repeat(size - 2 - 3 - 1)));
    assert_eq!(item_size(&it), size);
    it
}

async fn store(b: &MemBackend, table: &str, items: Vec<Item>) {
    let mut items = items.into_iter().peekable();
    while items.peek().is_some() {
        let chunk: Vec<_> = items.by_ref().take(25).map(put).collect();
        write(b, vec![(table, chunk)]).await.unwrap();
    }
}

fn all_keys(count: usize) -> Vec<Item> {
    (0..count).map(|i| h(&format!("k{i:02}"))).collect()
}

/// The `pk`s of the `hash` items a response returned, sorted.
fn pks(out: &dynomodel::backend::BatchGetItemOutput) -> Vec<String> {
    let mut pks: Vec<String> = out.responses["hash"]
        .iter()
        .filter_map(|item| item.get("pk").and_then(|v| v.as_s()).map(str::to_owned))
        .collect();
    pks.sort();
    pks
}

/// The `pk`s `kNN` for `range`.
fn pk_range(range: std::ops::Range<usize>) -> Vec<String> {
    range.map(|i| format!("k{i:02}")).collect()
}

#[tokio::test]
async fn exactly_16_000_000_bytes_fit_and_one_more_does_not() {
    assert_eq!(MAX_RESPONSE_BYTES, 16_000_000);
    let b = two_tables().await;
    store(&b, "hash", (0..50).map(|i| sized(i, 320_000)).collect()).await;
    let out = get(&b, vec![("hash", keys(all_keys(50)))]).await.unwrap();
    assert_eq!(pks(&out), pk_range(0..50));
    assert!(out.unprocessed_keys.is_empty());
    // One byte more in the first item: the last key is left over, alone.
    store(&b, "hash", vec![sized(0, 320_001)]).await;
    let out = get(&b, vec![("hash", keys(all_keys(50)))]).await.unwrap();
    assert_eq!(pks(&out), pk_range(0..49));
    assert_eq!(out.unprocessed_keys["hash"].keys, vec![h("k49")]);
}

#[tokio::test]
async fn the_aws_example_returns_52_of_100_items_of_300_kb_and_continues() {
    let b = two_tables().await;
    store(&b, "hash", (0..100).map(|i| sized(i, 307_200)).collect()).await;
    let request = KeysAndAttributes {
        attributes_to_get: None,
        keys: all_keys(100),
        consistent_read: Some(true),
        projection_expression: Some("#p".into()),
        expression_attribute_names: names(&[("#p", "pk")]),
    };
    let out = get(&b, vec![("hash", request.clone())]).await.unwrap();
    // The projection returns only the key, but whole items count: the cut is the same.
    assert_eq!(pks(&out), pk_range(0..52));
    let rest = &out.unprocessed_keys["hash"];
    assert_eq!(rest.keys, all_keys(100)[52..].to_vec());
    assert_eq!(rest.consistent_read, Some(true));
    assert_eq!(rest.projection_expression, request.projection_expression);
    assert_eq!(
        rest.expression_attribute_names,
        request.expression_attribute_names
    );
    // Sending UnprocessedKeys back as RequestItems finishes the read.
    let next = b
        .batch_get_item(BatchGetItemInput {
            request_items: out.unprocessed_keys.clone(),
            ..Default::default()
        })
        .await
        .unwrap();
    assert!(next.unprocessed_keys.is_empty());
    let mut all = found(&out, "hash");
    all.extend(found(&next, "hash"));
    all.sort_by_key(|i| format!("{i:?}"));
    assert_eq!(all, all_keys(100));
}

#[tokio::test]
async fn the_cut_carries_over_to_the_following_tables() {
    let b = two_tables().await;
    store(&b, "hash", (0..60).map(|i| sized(i, 300_000)).collect()).await;
    let range_key = |i: i64| super::r("a", i);
    store(&b, "range", (0..3).map(range_key).collect()).await;
    let out = get(
        &b,
        vec![
            ("hash", keys(all_keys(60))),
            (
                "range",
                KeysAndAttributes {
                    keys: (0..3).map(range_key).collect(),
                    consistent_read: Some(false),
                    ..Default::default()
                },
            ),
        ],
    )
    .await
    .unwrap();
    // 53 items of 300,000 bytes are 15,900,000; the 54th would pass 16,000,000.
    assert_eq!(pks(&out), pk_range(0..53));
    assert_eq!(
        out.unprocessed_keys["hash"].keys,
        all_keys(60)[53..].to_vec()
    );
    // Every key of a later table waits too, with its own options; the table still answers (empty).
    assert_eq!(out.responses["range"], Vec::<Item>::new());
    assert_eq!(
        out.unprocessed_keys["range"],
        KeysAndAttributes {
            keys: (0..3).map(range_key).collect(),
            consistent_read: Some(false),
            ..Default::default()
        }
    );
    // Missing keys after the cut wait as well: they were not read.
    let mut with_missing = all_keys(60);
    with_missing.push(h("missing"));
    let out = get(&b, vec![("hash", keys(with_missing))]).await.unwrap();
    let mut rest = all_keys(60)[53..].to_vec();
    rest.push(h("missing"));
    assert_eq!(out.unprocessed_keys["hash"].keys, rest);
}
