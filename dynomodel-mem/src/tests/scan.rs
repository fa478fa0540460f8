//! Scan: deterministic order, paging, parallel segments covering the table exactly once, Scan's
//! validation messages, and a property test of Query and Scan against a naive reference (filter a Vec,
//! sort it).

use std::collections::BTreeSet;

use dynomodel::backend::{Backend, QueryInput, ScalarAttributeType, ScanInput, Select};
use dynomodel::{AttributeValue, Item};
use proptest::prelude::*;

use super::query::{big_item, put, table};
use super::{assert_validation, item, n, s};
use crate::MemBackend;

fn scan() -> ScanInput {
    ScanInput {
        table_name: "tbl".into(),
        ..Default::default()
    }
}

/// Every item of a (possibly segmented) scan, following `LastEvaluatedKey`; also the page count.
async fn scan_all(be: &MemBackend, mut input: ScanInput) -> (Vec<Item>, usize) {
    let mut items = Vec::new();
    let mut pages = 0;
    loop {
        let page = be.scan(input.clone()).await.unwrap();
        pages += 1;
        items.extend(page.items.unwrap_or_default());
        match page.last_evaluated_key {
            Some(k) if pages < 10_000 => input.exclusive_start_key = Some(k),
            _ => return (items, pages),
        }
    }
}

async fn filled(partitions: usize, per: usize) -> MemBackend {
    let be = table(ScalarAttributeType::N).await;
    for p in 0..partitions {
        for i in 0..per {
            put(
                &be,
                "tbl",
                item(&[
                    ("pk", s(&format!("p{p}"))),
                    ("sk", n(&i.to_string())),
                    ("v", n(&(p * per + i).to_string())),
                ]),
            )
            .await;
        }
    }
    be
}

#[tokio::test]
async fn scans_are_deterministic_and_resume_exactly() {
    let be = filled(20, 3).await;
    let (all, _) = scan_all(&be, scan()).await;
    assert_eq!(all.len(), 60);
    let (paged, pages) = scan_all(
        &be,
        ScanInput {
            limit: Some(7),
            ..scan()
        },
    )
    .await;
    assert_eq!(paged, all);
    assert_eq!(pages, 9);
    // Within a partition, sort-key order.
    for w in all.windows(2) {
        if w[0].get("pk") == w[1].get("pk") {
            assert!(
                w[0].get("sk").and_then(AttributeValue::as_n)
                    < w[1].get("sk").and_then(AttributeValue::as_n)
            );
        }
    }
}

#[tokio::test]
async fn parallel_segments_cover_the_table_exactly_once() {
    let be = filled(40, 2).await;
    let (all, _) = scan_all(&be, scan()).await;
    let everything: BTreeSet<String> = all.iter().map(|i| format!("{:?}", i.get("v"))).collect();
    for total in [1, 2, 3, 7, 16, 100] {
        let mut seen = Vec::new();
        for segment in 0..total {
            let input = ScanInput {
                segment: Some(segment),
                total_segments: Some(total),
                limit: Some(3),
                ..scan()
            };
            seen.extend(scan_all(&be, input).await.0);
        }
        let keys: BTreeSet<String> = seen.iter().map(|i| format!("{:?}", i.get("v"))).collect();
        assert_eq!(seen.len(), 80, "TotalSegments {total}");
        assert_eq!(keys, everything, "TotalSegments {total}");
    }
}

#[tokio::test]
async fn scan_pages_stop_after_one_megabyte() {
    let be = table(ScalarAttributeType::N).await;
    for i in 0..30 {
        put(&be, "tbl", big_item(&format!("p{i}"), i)).await;
    }
    let page = be
        .scan(ScanInput {
            select: Some(Select::Count),
            ..scan()
        })
        .await
        .unwrap();
    assert_eq!(
        (
            page.count,
            page.scanned_count,
            page.last_evaluated_key.is_some()
        ),
        (27, 27, true)
    );
    let mut input = scan();
    input.filter_expression = Some("attribute_not_exists(pl)".into());
    let page = be.scan(input).await.unwrap();
    assert_eq!(
        (
            page.count,
            page.scanned_count,
            page.last_evaluated_key.is_some()
        ),
        (0, 27, true)
    );
}

#[tokio::test]
async fn scan_validation_messages() {
    let be = filled(3, 1).await;
    let cases: Vec<(ScanInput, &str)> = vec![
        (ScanInput { limit: Some(0), ..scan() }, "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"),
        (ScanInput { segment: Some(0), ..scan() }, "The TotalSegments parameter is required but was not present in the request when Segment parameter is present"),
        (ScanInput { total_segments: Some(2), ..scan() }, "The Segment parameter is required but was not present in the request when parameter TotalSegments is present"),
        (ScanInput { segment: Some(2), total_segments: Some(2), ..scan() }, "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 2 is not less than TotalSegments: 2"),
        (ScanInput { segment: Some(0), total_segments: Some(1_000_001), ..scan() }, "1 validation error detected: Value '1000001' at 'totalSegments' failed to satisfy constraint: Member must have value less than or equal to 1000000"),
        (ScanInput { segment: Some(-1), total_segments: Some(2), ..scan() }, "1 validation error detected: Value '-1' at 'segment' failed to satisfy constraint: Member must have value greater than or equal to 0"),
        (ScanInput { segment: Some(0), total_segments: Some(0), ..scan() }, "1 validation error detected: Value '0' at 'totalSegments' failed to satisfy constraint: Member must have value greater than or equal to 1"),
        (ScanInput { select: Some(Select::AllProjectedAttributes), ..scan() }, "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName"),
        (ScanInput { exclusive_start_key: Some(item(&[("pk", s("p1"))])), ..scan() }, "The provided starting key is invalid: The provided key element does not match the schema"),
        (ScanInput { exclusive_start_key: Some(item(&[("pk", s("")), ("sk", n("1"))])), ..scan() }, "The provided starting key is invalid: One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk"),
        (ScanInput { filter_expression: Some("sk.x = :a".into()), expression_attribute_values: Some(item(&[(":a", n("1"))])), ..scan() }, "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: sk"),
        (ScanInput { expression_attribute_values: Some(item(&[(":a", n("1"))])), ..scan() }, "ExpressionAttributeValues can only be specified when using expressions"),
        (ScanInput { filter_expression: Some("v = :a".into()), expression_attribute_values: Some(item(&[(":a", n("1")), (":b", n("2"))])), ..scan() }, "Value provided in ExpressionAttributeValues unused in expressions: keys: {:b}"),
    ];
    for (input, message) in cases {
        assert_validation(be.scan(input).await, message);
    }
    // A start key from another segment.
    let (all, _) = scan_all(&be, scan()).await;
    let key = |i: &Item| item(&[("pk", i["pk"].clone()), ("sk", i["sk"].clone())]);
    let mut wrong = None;
    for segment in 0..2 {
        let page = be
            .scan(ScanInput {
                segment: Some(segment),
                total_segments: Some(2),
                ..scan()
            })
            .await
            .unwrap();
        if page.count == 0 {
            continue;
        }
        let other = 1 - segment;
        wrong = Some((key(&page.items.unwrap()[0]), other));
    }
    let (start, other) = wrong.expect("some segment is non-empty");
    let input = ScanInput {
        segment: Some(other),
        total_segments: Some(2),
        exclusive_start_key: Some(start),
        ..scan()
    };
    assert_validation(be.scan(input).await, &format!("The provided starting key is invalid: Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. TotalSegments: 2 Segment: {other}"));
    assert_eq!(all.len(), 3);
}

/// A query for the property test: partition, sort-key condition, filter threshold, direction, limit.
#[derive(Debug, Clone)]
struct Probe {
    pk: u8,
    op: u8,
    a: i16,
    b: i16,
    filter: Option<i16>,
    forward: bool,
    limit: Option<i32>,
}

fn reference(items: &[(u8, i16, i16)], q: &Probe) -> Vec<i16> {
    let mut hits: Vec<(i16, i16)> = items
        .iter()
        .filter(|(p, _, _)| *p == q.pk)
        .filter(|(_, sk, _)| match q.op {
            0 => true,
            1 => *sk == q.a,
            2 => *sk < q.a,
            3 => *sk <= q.a,
            4 => *sk > q.a,
            5 => *sk >= q.a,
            _ => q.a <= *sk && *sk <= q.b,
        })
        .map(|(_, sk, v)| (*sk, *v))
        .collect();
    hits.sort_unstable();
    if !q.forward {
        hits.reverse();
    }
    hits.into_iter()
        .filter(|(_, v)| q.filter.is_none_or(|f| *v > f))
        .map(|(sk, _)| sk)
        .collect()
}

fn to_input(q: &Probe) -> QueryInput {
    let mut vals = item(&[(":p", s(&format!("p{}", q.pk)))]);
    let cond = match q.op {
        0 => "",
        1 => " AND sk = :a",
        2 => " AND sk < :a",
        3 => " AND sk <= :a",
        4 => " AND sk > :a",
        5 => " AND sk >= :a",
        _ => " AND sk BETWEEN :a AND :b",
    };
    if q.op != 0 {
        vals.insert(":a".into(), n(&q.a.to_string()));
    }
    if q.op >= 6 {
        vals.insert(":b".into(), n(&q.b.to_string()));
    }
    if let Some(f) = q.filter {
        vals.insert(":f".into(), n(&f.to_string()));
    }
    QueryInput {
        table_name: "tbl".into(),
        key_condition_expression: Some(format!("pk = :p{cond}")),
        filter_expression: q.filter.map(|_| "v > :f".into()),
        expression_attribute_values: Some(vals),
        scan_index_forward: Some(q.forward),
        limit: q.limit,
        ..Default::default()
    }
}

fn probe() -> impl Strategy<Value = Probe> {
    (
        0u8..4,
        0u8..7,
        -20i16..20,
        0i16..30,
        proptest::option::of(-50i16..50),
        any::<bool>(),
        proptest::option::of(1i32..6),
    )
        .prop_map(|(pk, op, a, d, filter, forward, limit)| Probe {
            pk,
            op,
            a,
            b: a.saturating_add(d),
            filter,
            forward,
            limit,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn query_matches_a_naive_reference(
        rows in proptest::collection::vec((0u8..4, -25i16..25, -50i16..50), 0..40),
        probes in proptest::collection::vec(probe(), 1..6),
    ) {
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        rt.block_on(async {
            let be = table(ScalarAttributeType::N).await;
            // Later rows replace earlier ones with the same key, as in the table.
            let mut latest = std::collections::BTreeMap::new();
            for (p, sk, v) in &rows {
                put(&be, "tbl", item(&[("pk", s(&format!("p{p}"))), ("sk", n(&sk.to_string())), ("v", n(&v.to_string()))])).await;
                latest.insert((*p, *sk), *v);
            }
            let rows: Vec<(u8, i16, i16)> = latest.into_iter().map(|((p, sk), v)| (p, sk, v)).collect();
            for q in &probes {
                let mut input = to_input(q);
                let mut got = Vec::new();
                for _ in 0..100 {
                    let page = be.query(input.clone()).await.unwrap();
                    got.extend(page.items.unwrap_or_default().iter().filter_map(|i| i.get("sk").and_then(|v| v.as_n()).map(|n| n.to_string())));
                    match page.last_evaluated_key {
                        Some(k) => input.exclusive_start_key = Some(k),
                        None => break,
                    }
                }
                let want: Vec<String> = reference(&rows, q).iter().map(i16::to_string).collect();
                prop_assert_eq!(got, want, "{:?}", q);
            }
            // A scan sees every row once.
            let (all, _) = scan_all(&be, ScanInput { limit: Some(7), ..scan() }).await;
            prop_assert_eq!(all.len(), rows.len());
            Ok(())
        })?;
    }
}
