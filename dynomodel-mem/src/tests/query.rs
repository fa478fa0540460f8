//! Query on tables: key orderings, key conditions, paging by Limit and by 1 MB, filters, Select, and the
//! validation messages.
//!
//! KNOWN-DIFFERENCES of Query/Scan from Amazon DynamoDB Local 3.3.1 (probed; the engine follows real
//! DynamoDB as dynalite recorded it, or the AWS docs; the dual-backend suite must expect these to differ):
//! - 1 MB page: the engine applies it to the data read *before* the filter (docs); Local after the
//!   filter: 30 × 40 KB with a filter matching nothing gives Count 0, ScannedCount 27 + LEK here, Count 0,
//!   ScannedCount 30, no LEK on Local.
//! - Index pages: sized on the projected entry (docs, `GSI.html`); Local sizes the whole item (a KEYS_ONLY
//!   index of 30 × 40 KB items: one page of 30 here, 27 + LEK on Local).
//! - Limit 0: real "1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member
//!   must have value greater than or equal to 1" (no value, capital L; Scan's has `Value '0' at
//!   'limit'`); Local "Limit must be greater than or equal to 1".
//! - Missing key attribute in the key condition: real "Query condition missed key schema element: sk";
//!   Local "Query condition missed key schema element" (no name).
//! - ExclusiveStartKey: wrong attribute count — real "The provided starting key is invalid" (Scan of a
//!   table: "The provided starting key is invalid: The provided key element does not match the schema"),
//!   Local "Exclusive Start Key must have same size as table's key schema"; wrong type — real "The
//!   provided starting key is invalid: The provided key element does not match the schema", Local "Type
//!   mismatch for attribute to update"; another partition — real "The provided starting key is outside
//!   query boundaries based on provided conditions", Local "The provided starting key does not match the
//!   range key predicate"; empty key value on Scan — Local prefixes "The query can return at most one row
//!   and cannot be restarted. "; wrong segment — real "The provided starting key is invalid: Invalid
//!   ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment. TotalSegments: 2 Segment: 1",
//!   Local "Exclusive start key must lie within the segment"; unknown index on Scan with a start key —
//!   real "The provided starting key is invalid", Local "The table does not have the specified index: X".
//! - Segment without TotalSegments: real "The TotalSegments parameter is required but was not present in
//!   the request when Segment parameter is present", Local "If segment is specified, total segment must
//!   also be specified"; TotalSegments without Segment: real "The Segment parameter is required but was
//!   not present in the request when parameter TotalSegments is present", Local "If total segments is
//!   specified, a particular segment must also be specified for this request"; Segment ≥ TotalSegments:
//!   real "The Segment parameter is zero-based and must be less than parameter TotalSegments: Segment: 2
//!   is not less than TotalSegments: 2", Local "1 validation error detected: Value '2' at 'segment' failed
//!   to satisfy constraint: Member must have value less than or equal to 1" (TotalSegments 0: Local
//!   "Value '0' at 'segment' ... less than or equal to -1").
//! - ExpressionAttributeValues on a Scan without expressions: real (dynalite) "ExpressionAttributeValues
//!   can only be specified when using expressions"; Local appends ": FilterExpression is null".
//! - Scan of an LSI with a ProjectionExpression naming unprojected attributes: the engine fetches them
//!   from the table (docs: LSI reads fetch unprojected attributes); Local returns `{}` (its Query does
//!   fetch).
//! - Followed from Local for want of other evidence: GSI projection naming unprojected attributes ("One
//!   or more parameter values were invalid: Global secondary index gsi1 does not project [y]") and a
//!   filter on unprojected attributes of any index ("One or more parameter values were invalid: Secondary
//!   index gsi1 does not project one or more filter attributes: [y]").

use std::collections::BTreeMap;

use dynomodel::backend::{Backend, QueryInput, QueryOutput, ScalarAttributeType, Select};
use dynomodel::{AttributeValue, Item};

use super::{assert_validation, backend_with, item, n, s, table_input};
use crate::MemBackend;

/// A table `tbl` (pk S, sk of type `sk`).
pub(crate) async fn table(sk: ScalarAttributeType) -> MemBackend {
    backend_with(table_input("tbl", ScalarAttributeType::S, Some(sk))).await
}

pub(crate) async fn put(b: &MemBackend, table: &str, item: Item) {
    b.put_item(dynomodel::backend::PutItemInput {
        table_name: table.into(),
        item,
        ..Default::default()
    })
    .await
    .expect("put");
}

/// `pk = :p` on `tbl`, plus `sk_cond` (an expression using `:a`/`:b`) when given.
pub(crate) fn q(pk: &str, sk_cond: Option<(&str, Vec<(&str, AttributeValue)>)>) -> QueryInput {
    let mut vals: BTreeMap<String, AttributeValue> = BTreeMap::new();
    vals.insert(":p".into(), s(pk));
    let mut kce = "pk = :p".to_owned();
    if let Some((cond, vs)) = sk_cond {
        kce = format!("{kce} AND {cond}");
        for (k, v) in vs {
            vals.insert(k.into(), v);
        }
    }
    QueryInput {
        table_name: "tbl".into(),
        key_condition_expression: Some(kce),
        expression_attribute_values: Some(vals),
        ..Default::default()
    }
}

pub(crate) fn sks(out: &QueryOutput) -> Vec<AttributeValue> {
    out.items
        .iter()
        .flatten()
        .filter_map(|i| i.get("sk").cloned())
        .collect()
}

fn b(bytes: &[u8]) -> AttributeValue {
    AttributeValue::B(bytes.to_vec())
}

#[tokio::test]
async fn strings_sort_by_utf8_bytes_both_ways() {
    let be = table(ScalarAttributeType::S).await;
    // UTF-16 order would put U+1F600 before U+FF61.
    let keys = ["\u{1F600}", "a", "\u{FF61}", "é", "Z", "ab"];
    for k in keys {
        put(&be, "tbl", item(&[("pk", s("p")), ("sk", s(k))])).await;
    }
    let want: Vec<AttributeValue> = ["Z", "a", "ab", "é", "\u{FF61}", "\u{1F600}"]
        .iter()
        .map(|k| s(k))
        .collect();
    let out = be.query(q("p", None)).await.unwrap();
    assert_eq!(sks(&out), want);
    let mut rev = q("p", None);
    rev.scan_index_forward = Some(false);
    let out = be.query(rev).await.unwrap();
    assert_eq!(sks(&out), want.into_iter().rev().collect::<Vec<_>>());
}

#[tokio::test]
async fn numbers_sort_numerically_with_signs_and_exponents() {
    let be = table(ScalarAttributeType::N).await;
    for k in ["1e2", "-1.5", "12E3", "0.001", "-2", "0", "-1e5", "3"] {
        put(&be, "tbl", item(&[("pk", s("p")), ("sk", n(k))])).await;
    }
    let out = be.query(q("p", None)).await.unwrap();
    let want: Vec<AttributeValue> = ["-1e5", "-2", "-1.5", "0", "0.001", "3", "100", "12000"]
        .iter()
        .map(|k| n(k))
        .collect();
    assert_eq!(sks(&out), want);
}

#[tokio::test]
async fn binaries_sort_as_unsigned_bytes() {
    let be = table(ScalarAttributeType::B).await;
    for k in [&[0xff_u8][..], &[0x00], &[0xff, 0x00], &[0x80], &[0x7f]] {
        put(&be, "tbl", item(&[("pk", s("p")), ("sk", b(k))])).await;
    }
    let out = be.query(q("p", None)).await.unwrap();
    let want = vec![
        b(&[0x00]),
        b(&[0x7f]),
        b(&[0x80]),
        b(&[0xff]),
        b(&[0xff, 0x00]),
    ];
    assert_eq!(sks(&out), want);
    let cond = ("begins_with(sk, :a)", vec![(":a", b(&[0xff]))]);
    let out = be.query(q("p", Some(cond))).await.unwrap();
    assert_eq!(sks(&out), vec![b(&[0xff]), b(&[0xff, 0x00])]);
}

/// Placeholder values of a test case.
type Values = Vec<(&'static str, AttributeValue)>;

#[tokio::test]
async fn sort_key_conditions_select_ranges() {
    let be = table(ScalarAttributeType::S).await;
    for k in ["a", "b", "ba", "bz", "b\u{10FFFF}", "c", "\u{10FFFF}"] {
        put(&be, "tbl", item(&[("pk", s("p")), ("sk", s(k))])).await;
    }
    put(&be, "tbl", item(&[("pk", s("other")), ("sk", s("b"))])).await;
    let cases: Vec<(&str, Values, Vec<&str>)> = vec![
        ("sk = :a", vec![(":a", s("b"))], vec!["b"]),
        ("sk < :a", vec![(":a", s("b"))], vec!["a"]),
        ("sk <= :a", vec![(":a", s("b"))], vec!["a", "b"]),
        ("sk > :a", vec![(":a", s("c"))], vec!["\u{10FFFF}"]),
        ("sk >= :a", vec![(":a", s("c"))], vec!["c", "\u{10FFFF}"]),
        (":a < sk", vec![(":a", s("c"))], vec!["\u{10FFFF}"]),
        (
            "sk BETWEEN :a AND :b",
            vec![(":a", s("b")), (":b", s("bz"))],
            vec!["b", "ba", "bz"],
        ),
        (
            "begins_with(sk, :a)",
            vec![(":a", s("b"))],
            vec!["b", "ba", "bz", "b\u{10FFFF}"],
        ),
        (
            "begins_with(sk, :a)",
            vec![(":a", s("\u{10FFFF}"))],
            vec!["\u{10FFFF}"],
        ),
        ("begins_with(sk, :a)", vec![(":a", s("x"))], vec![]),
    ];
    for (cond, vals, want) in cases {
        let out = be.query(q("p", Some((cond, vals)))).await.unwrap();
        let want: Vec<AttributeValue> = want.iter().map(|k| s(k)).collect();
        assert_eq!(sks(&out), want, "{cond}");
        assert_eq!(out.count as usize, want.len());
    }
}

/// Pages through `input` and returns (items per page, LEK present per page).
pub(crate) async fn pages(be: &MemBackend, mut input: QueryInput) -> Vec<(QueryOutput, bool)> {
    let mut out = Vec::new();
    loop {
        let page = be.query(input.clone()).await.unwrap();
        let lek = page.last_evaluated_key.clone();
        out.push((page, lek.is_some()));
        match lek {
            Some(k) if out.len() < 100 => input.exclusive_start_key = Some(k),
            _ => return out,
        }
    }
}

#[tokio::test]
async fn limit_counts_items_evaluated_and_pages_resume_both_ways() {
    let be = table(ScalarAttributeType::N).await;
    for i in 0..10 {
        let odd = if i % 2 == 1 { "odd" } else { "even" };
        put(
            &be,
            "tbl",
            item(&[("pk", s("p")), ("sk", n(&i.to_string())), ("kind", s(odd))]),
        )
        .await;
    }
    let mut input = q("p", None);
    input.limit = Some(3);
    let got = pages(&be, input.clone()).await;
    let counts: Vec<(i32, bool)> = got.iter().map(|(p, l)| (p.count, *l)).collect();
    assert_eq!(counts, [(3, true), (3, true), (3, true), (1, false)]);
    let all: Vec<AttributeValue> = got.iter().flat_map(|(p, _)| sks(p)).collect();
    assert_eq!(all, (0..10).map(|i| n(&i.to_string())).collect::<Vec<_>>());
    // A page that ends exactly at the last item still carries a LastEvaluatedKey (DynamoDB Local too).
    input.limit = Some(5);
    let counts: Vec<(i32, bool)> = pages(&be, input.clone())
        .await
        .iter()
        .map(|(p, l)| (p.count, *l))
        .collect();
    assert_eq!(counts, [(5, true), (5, true), (0, false)]);
    input.limit = Some(4);
    input.scan_index_forward = Some(false);
    let all: Vec<AttributeValue> = pages(&be, input)
        .await
        .iter()
        .flat_map(|(p, _)| sks(p))
        .collect();
    assert_eq!(
        all,
        (0..10).rev().map(|i| n(&i.to_string())).collect::<Vec<_>>()
    );
    // Limit 3 with a filter that matches nothing: Count 0, ScannedCount 3, LEK present.
    let mut input = q("p", None);
    input.limit = Some(3);
    input.filter_expression = Some("kind = :k".into());
    input
        .expression_attribute_values
        .as_mut()
        .unwrap()
        .insert(":k".into(), s("none"));
    let page = be.query(input).await.unwrap();
    assert_eq!((page.count, page.scanned_count), (0, 3));
    assert_eq!(page.items, Some(vec![]));
    assert!(page.last_evaluated_key.is_some());
}

/// 30 items of about 40,000 bytes each (sized by `dynomodel::item_size`).
pub(crate) fn big_item(pk: &str, i: usize) -> Item {
    item(&[
        ("pk", s(pk)),
        ("sk", n(&i.to_string())),
        ("pl", s(&"x".repeat(39_982))),
    ])
}

#[tokio::test]
async fn one_megabyte_pages_count_items_before_the_filter() {
    let be = table(ScalarAttributeType::N).await;
    for i in 0..30 {
        put(&be, "tbl", big_item("p", i)).await;
    }
    assert!((39_990..40_010).contains(&dynomodel::item_size(&big_item("p", 10))));
    let got = pages(&be, q("p", None)).await;
    let counts: Vec<(i32, i32, bool)> = got
        .iter()
        .map(|(p, l)| (p.count, p.scanned_count, *l))
        .collect();
    // The item that crosses 1 MB is included: 27 + LEK (DynamoDB Local and dynalite measured alike).
    assert_eq!(counts, [(27, 27, true), (3, 3, false)]);
    // The limit applies before the filter: a filter that matches nothing still stops at 1 MB.
    let mut input = q("p", None);
    input.filter_expression = Some("attribute_not_exists(pl)".into());
    let page = be.query(input.clone()).await.unwrap();
    assert_eq!((page.count, page.scanned_count), (0, 27));
    assert!(page.last_evaluated_key.is_some());
    // Select=COUNT reads the same page.
    input.filter_expression = None;
    input.select = Some(Select::Count);
    let page = be.query(input).await.unwrap();
    assert_eq!((page.items, page.count, page.scanned_count), (None, 27, 27));
}

#[tokio::test]
async fn projection_and_select() {
    let be = table(ScalarAttributeType::N).await;
    put(
        &be,
        "tbl",
        item(&[
            ("pk", s("p")),
            ("sk", n("1")),
            ("a", s("x")),
            (
                "m",
                AttributeValue::M(item(&[("k", s("v")), ("j", s("w"))])),
            ),
        ]),
    )
    .await;
    let mut input = q("p", None);
    input.projection_expression = Some("a, m.k, nope".into());
    let out = be.query(input).await.unwrap();
    assert_eq!(
        out.items,
        Some(vec![item(&[
            ("a", s("x")),
            ("m", AttributeValue::M(item(&[("k", s("v"))])))
        ])])
    );
    let mut input = q("p", None);
    input.select = Some(Select::Count);
    let out = be.query(input).await.unwrap();
    assert_eq!((out.items, out.count, out.scanned_count), (None, 1, 1));
}

async fn fails(be: &MemBackend, input: QueryInput, message: &str) {
    assert_validation(be.query(input).await, message);
}

fn with(mut input: QueryInput, f: impl FnOnce(&mut QueryInput)) -> QueryInput {
    f(&mut input);
    input
}

#[tokio::test]
async fn validation_messages() {
    let be = table(ScalarAttributeType::N).await;
    let base = q("p", None);
    let num = |v: &str| vec![(":a", n(v))];
    fails(&be, with(base.clone(), |i| i.limit = Some(0)), "1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must have value greater than or equal to 1").await;
    // The placeholder maps are checked first (dynalite's `validateExpressionParams`).
    let no_kce = |i: &mut QueryInput| i.key_condition_expression = None;
    fails(
        &be,
        with(base.clone(), no_kce),
        "ExpressionAttributeValues can only be specified when using expressions",
    )
    .await;
    let no_kce = |i: &mut QueryInput| {
        i.key_condition_expression = None;
        i.expression_attribute_values = None;
    };
    fails(&be, with(base.clone(), no_kce), "Either the KeyConditions or KeyConditionExpression parameter must be specified in the request.").await;
    fails(
        &be,
        with(base.clone(), |i| i.index_name = Some("nope".into())),
        "The table does not have the specified index: nope",
    )
    .await;
    fails(
        &be,
        with(base.clone(), |i| {
            i.select = Some(Select::AllProjectedAttributes)
        }),
        "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName",
    )
    .await;
    fails(&be, with(base.clone(), |i| i.select = Some(Select::SpecificAttributes)), "Must specify the AttributesToGet or ProjectionExpression when choosing to get SPECIFIC_ATTRIBUTES").await;
    fails(
        &be,
        with(base.clone(), |i| {
            i.select = Some(Select::Count);
            i.projection_expression = Some("a".into())
        }),
        "Cannot specify the ProjectionExpression when choosing to get only the Count",
    )
    .await;
    fails(
        &be,
        with(base.clone(), |i| {
            i.select = Some(Select::AllAttributes);
            i.projection_expression = Some("a".into())
        }),
        "Cannot specify the ProjectionExpression when choosing to get ALL_ATTRIBUTES",
    )
    .await;
    fails(
        &be,
        q("p", Some(("x = :a", num("1")))),
        "Query condition missed key schema element: sk",
    )
    .await;
    fails(
        &be,
        with(q("p", None), |i| {
            i.key_condition_expression = Some("sk = :p".into())
        }),
        "Query condition missed key schema element: pk",
    )
    .await;
    fails(
        &be,
        with(q("p", None), |i| {
            i.key_condition_expression = Some("pk < :p".into())
        }),
        "Query key condition not supported",
    )
    .await;
    fails(&be, q("p", Some(("sk = :a", vec![(":a", s("1"))]))), "One or more parameter values were invalid: Condition parameter type does not match schema type").await;
    fails(&be, q("p", Some(("begins_with(sk, :a)", num("1")))), "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N").await;
    fails(&be, q("", None), "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk").await;
    fails(
        &be,
        with(base.clone(), |i| {
            i.filter_expression = Some("sk > :p".into())
        }),
        "Filter Expression can only contain non-primary key attributes: Primary key attribute: sk",
    )
    .await;
    // The key attribute named through a placeholder, alone or at the head of a path.
    for filter in ["#k > :p", "#k.x = :p"] {
        fails(
            &be,
            with(base.clone(), |i| {
                i.filter_expression = Some(filter.into());
                i.expression_attribute_names = Some([("#k".to_owned(), "sk".to_owned())].into());
            }),
            "Filter Expression can only contain non-primary key attributes: Primary key attribute: sk",
        )
        .await;
    }
    fails(&be, with(base.clone(), |i| i.projection_expression = Some("sk.x".into())), "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: sk").await;
    let esk = |pairs: &[(&str, AttributeValue)]| Some(item(pairs));
    fails(
        &be,
        with(base.clone(), |i| {
            i.exclusive_start_key = esk(&[("pk", s("p"))])
        }),
        "The provided starting key is invalid",
    )
    .await;
    fails(
        &be,
        with(base.clone(), |i| {
            i.exclusive_start_key = esk(&[("pk", s("p")), ("sk", s("1"))])
        }),
        "The provided starting key is invalid: The provided key element does not match the schema",
    )
    .await;
    fails(
        &be,
        with(base.clone(), |i| {
            i.exclusive_start_key = esk(&[("pk", s("q")), ("sk", n("1"))])
        }),
        "The provided starting key is outside query boundaries based on provided conditions",
    )
    .await;
    fails(
        &be,
        with(q("p", Some(("sk > :a", num("3")))), |i| {
            i.exclusive_start_key = esk(&[("pk", s("p")), ("sk", n("1"))])
        }),
        "The provided starting key does not match the range key predicate",
    )
    .await;
    fails(
        &be,
        q("p", Some(("sk BETWEEN :a AND :b", vec![(":a", n("5")), (":b", n("1"))]))),
        "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be greater than or \
         equal to lower bound; lower bound operand: AttributeValue: {N:5}, upper bound operand: \
         AttributeValue: {N:1}",
    )
    .await;
    let hash_only = backend_with(table_input("hsh", ScalarAttributeType::S, None)).await;
    let two_terms = with(q("p", Some(("x = :a", num("1")))), |i| {
        i.table_name = "hsh".into()
    });
    fails(&hash_only, two_terms, "Query key condition not supported").await;
    let err = be
        .query(with(base, |i| i.table_name = "missing".into()))
        .await
        .unwrap_err();
    assert_eq!(err.code(), "ResourceNotFoundException");
}
