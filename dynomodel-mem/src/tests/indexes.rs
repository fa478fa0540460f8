//! Secondary indexes: maintenance on every write (sparse, moves, deletes), DescribeTable totals,
//! projections, ties ordered by table key, LastEvaluatedKey round trips, LSI fetches, and the index
//! validation messages.

use dynomodel::backend::{
    Backend, CreateTableInput, DeleteItemInput, DescribeTableInput, GlobalSecondaryIndex,
    KeySchemaElement, LocalSecondaryIndex, Projection, ProjectionType, QueryInput,
    ScalarAttributeType, ScanInput, Select,
};
use dynomodel::{AttributeValue, Item};

use super::query::{pages, put};
use super::{assert_validation, backend_with, def, item, n, s, table_input};
use crate::MemBackend;

fn projection(ty: ProjectionType, include: &[&str]) -> Projection {
    Projection {
        projection_type: ty,
        non_key_attributes: include.iter().map(|s| (*s).to_owned()).collect(),
    }
}

/// Table `tbl` (pk S, sk N) with LSI `lsi1` (pk, l S) KEYS_ONLY, GSI `gsi1` (g S, gs N) INCLUDE [x] and
/// GSI `gall` (g S) ALL — the schema the DynamoDB Local probes used.
pub(crate) fn schema() -> CreateTableInput {
    let mut input = table_input("tbl", ScalarAttributeType::S, Some(ScalarAttributeType::N));
    input.attribute_definitions.extend([
        def("l", ScalarAttributeType::S),
        def("g", ScalarAttributeType::S),
        def("gs", ScalarAttributeType::N),
    ]);
    input.local_secondary_indexes = vec![LocalSecondaryIndex {
        index_name: "lsi1".into(),
        key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("l")],
        projection: projection(ProjectionType::KeysOnly, &[]),
    }];
    input.global_secondary_indexes = vec![
        GlobalSecondaryIndex {
            index_name: "gsi1".into(),
            key_schema: vec![KeySchemaElement::hash("g"), KeySchemaElement::range("gs")],
            projection: projection(ProjectionType::Include, &["x"]),
            provisioned_throughput: None,
        },
        GlobalSecondaryIndex {
            index_name: "gall".into(),
            key_schema: vec![KeySchemaElement::hash("g")],
            projection: projection(ProjectionType::All, &[]),
            provisioned_throughput: None,
        },
    ];
    input
}

pub(crate) fn full(i: usize, g: &str, gs: i64) -> Item {
    item(&[
        ("pk", s("a")),
        ("sk", n(&i.to_string())),
        ("l", s(&format!("l{i}"))),
        ("g", s(g)),
        ("gs", n(&gs.to_string())),
        ("x", s("x")),
        ("y", s("y")),
    ])
}

fn gq(g: &str) -> QueryInput {
    QueryInput {
        table_name: "tbl".into(),
        index_name: Some("gsi1".into()),
        key_condition_expression: Some("g = :g".into()),
        expression_attribute_values: Some(item(&[(":g", s(g))])),
        ..Default::default()
    }
}

fn lq() -> QueryInput {
    QueryInput {
        table_name: "tbl".into(),
        index_name: Some("lsi1".into()),
        key_condition_expression: Some("pk = :p".into()),
        expression_attribute_values: Some(item(&[(":p", s("a"))])),
        ..Default::default()
    }
}

async fn totals(be: &MemBackend) -> Vec<(String, i64, i64)> {
    let d = be
        .describe_table(DescribeTableInput {
            table_name: "tbl".into(),
        })
        .await
        .unwrap()
        .table;
    let l = d
        .local_secondary_indexes
        .iter()
        .map(|i| (i.index_name.clone(), i.item_count, i.index_size_bytes));
    let g = d
        .global_secondary_indexes
        .iter()
        .map(|i| (i.index_name.clone(), i.item_count, i.index_size_bytes));
    l.chain(g).collect()
}

#[tokio::test]
async fn sparse_indexes_follow_puts_replacements_and_deletes() {
    let be = backend_with(schema()).await;
    put(&be, "tbl", full(1, "G", 5)).await;
    // No `l`, no `gs`: only in `gall`.
    put(
        &be,
        "tbl",
        item(&[("pk", s("a")), ("sk", n("2")), ("g", s("G"))]),
    )
    .await;
    let keys_only = dynomodel::item_size(&item(&[("pk", s("a")), ("sk", n("1")), ("l", s("l1"))]));
    let include = dynomodel::item_size(&item(&[
        ("pk", s("a")),
        ("sk", n("1")),
        ("g", s("G")),
        ("gs", n("5")),
        ("x", s("x")),
    ]));
    let all = dynomodel::item_size(&full(1, "G", 5))
        + dynomodel::item_size(&item(&[("pk", s("a")), ("sk", n("2")), ("g", s("G"))]));
    let want = |k: i64, i: i64, a: i64, ks: usize, is: usize, al: usize| {
        vec![
            ("lsi1".to_owned(), k, ks as i64),
            ("gsi1".to_owned(), i, is as i64),
            ("gall".to_owned(), a, al as i64),
        ]
    };
    assert_eq!(totals(&be).await, want(1, 1, 2, keys_only, include, all));
    // Replacing item 1 with one that lacks `g` removes it from both GSIs.
    put(
        &be,
        "tbl",
        item(&[("pk", s("a")), ("sk", n("1")), ("l", s("l1"))]),
    )
    .await;
    let all2 = dynomodel::item_size(&item(&[("pk", s("a")), ("sk", n("2")), ("g", s("G"))]));
    assert_eq!(totals(&be).await, want(1, 0, 1, keys_only, 0, all2));
    assert_eq!(be.query(gq("G")).await.unwrap().count, 0);
    // Moving an item to another index key moves its entry.
    put(&be, "tbl", full(1, "H", 7)).await;
    assert_eq!(be.query(gq("G")).await.unwrap().count, 0);
    assert_eq!(be.query(gq("H")).await.unwrap().count, 1);
    for sk in ["1", "2"] {
        be.delete_item(DeleteItemInput {
            table_name: "tbl".into(),
            key: item(&[("pk", s("a")), ("sk", n(sk))]),
            ..Default::default()
        })
        .await
        .unwrap();
    }
    assert_eq!(totals(&be).await, want(0, 0, 0, 0, 0, 0));
}

#[tokio::test]
async fn projections_shape_the_entries() {
    let be = backend_with(schema()).await;
    put(&be, "tbl", full(1, "G", 5)).await;
    let out = be.query(gq("G")).await.unwrap();
    assert_eq!(
        out.items,
        Some(vec![item(&[
            ("pk", s("a")),
            ("sk", n("1")),
            ("g", s("G")),
            ("gs", n("5")),
            ("x", s("x"))
        ])])
    );
    let out = be.query(lq()).await.unwrap();
    assert_eq!(
        out.items,
        Some(vec![item(&[
            ("pk", s("a")),
            ("sk", n("1")),
            ("l", s("l1"))
        ])])
    );
    let mut all = gq("G");
    all.index_name = Some("gall".into());
    assert_eq!(
        be.query(all).await.unwrap().items,
        Some(vec![full(1, "G", 5)])
    );
    // An LSI fetches what it does not hold from the table: ALL_ATTRIBUTES, or a projection naming it.
    let mut input = lq();
    input.select = Some(Select::AllAttributes);
    assert_eq!(
        be.query(input).await.unwrap().items,
        Some(vec![full(1, "G", 5)])
    );
    let mut input = lq();
    input.projection_expression = Some("y".into());
    assert_eq!(
        be.query(input).await.unwrap().items,
        Some(vec![item(&[("y", s("y"))])])
    );
}

#[tokio::test]
async fn ties_are_ordered_by_table_key_and_index_pages_resume() {
    let be = backend_with(schema()).await;
    // gs values collide: 5 items share gs=1, ordered then by the table key (sk).
    for i in 0..10 {
        put(&be, "tbl", full(i, "G", i64::from(i >= 5))).await;
    }
    let mut input = gq("G");
    input.limit = Some(3);
    let got = pages(&be, input.clone()).await;
    let order: Vec<AttributeValue> = got
        .iter()
        .flat_map(|(p, _)| p.items.clone().unwrap_or_default())
        .filter_map(|i| i.get("sk").cloned())
        .collect();
    assert_eq!(
        order,
        (0..10).map(|i| n(&i.to_string())).collect::<Vec<_>>()
    );
    let lek = got[0].0.last_evaluated_key.clone().unwrap();
    assert_eq!(
        lek,
        item(&[
            ("pk", s("a")),
            ("sk", n("2")),
            ("g", s("G")),
            ("gs", n("0"))
        ])
    );
    input.scan_index_forward = Some(false);
    let order: Vec<AttributeValue> = pages(&be, input)
        .await
        .iter()
        .flat_map(|(p, _)| p.items.clone().unwrap_or_default())
        .filter_map(|i| i.get("sk").cloned())
        .collect();
    assert_eq!(
        order,
        (0..10).rev().map(|i| n(&i.to_string())).collect::<Vec<_>>()
    );
    // Hash-only GSI: ties all the way, still exactly once each.
    let mut input = gq("G");
    input.index_name = Some("gall".into());
    input.limit = Some(4);
    let got = pages(&be, input).await;
    assert_eq!(got.iter().map(|(p, _)| p.count).sum::<i32>(), 10);
    assert_eq!(
        got[0].0.last_evaluated_key.as_ref().map(|k| k.len()),
        Some(3)
    );
}

#[tokio::test]
async fn index_scan_walks_entries() {
    let be = backend_with(schema()).await;
    for i in 0..6 {
        put(&be, "tbl", full(i, &format!("G{}", i % 3), 1)).await;
    }
    put(&be, "tbl", item(&[("pk", s("b")), ("sk", n("1"))])).await;
    let scan = |index: &str| ScanInput {
        table_name: "tbl".into(),
        index_name: Some(index.into()),
        limit: Some(2),
        ..Default::default()
    };
    for index in ["gsi1", "gall", "lsi1"] {
        let mut input = scan(index);
        let mut seen = 0;
        loop {
            let page = be.scan(input.clone()).await.unwrap();
            seen += page.count;
            match page.last_evaluated_key {
                Some(k) => input.exclusive_start_key = Some(k),
                None => break,
            }
        }
        assert_eq!(seen, 6, "{index}");
    }
}

#[tokio::test]
async fn index_validation_messages() {
    let be = backend_with(schema()).await;
    put(&be, "tbl", full(1, "G", 5)).await;
    let with = |f: &dyn Fn(&mut QueryInput)| {
        let mut q = gq("G");
        f(&mut q);
        q
    };
    let cases: Vec<(QueryInput, &str)> = vec![
        (with(&|q| q.consistent_read = Some(true)), "Consistent reads are not supported on global secondary indexes"),
        (with(&|q| { q.select = Some(Select::AllProjectedAttributes); q.projection_expression = Some("x".into()) }), "Cannot specify the ProjectionExpression when choosing to get ALL_PROJECTED_ATTRIBUTES"),
        (with(&|q| q.expression_attribute_names = Some(Default::default())), "ExpressionAttributeNames must not be empty"),
        (with(&|q| q.index_name = Some("no".into())), "1 validation error detected: Value 'no' at 'indexName' failed to satisfy constraint: Member must have length greater than or equal to 3"),
        (with(&|q| q.select = Some(Select::AllAttributes)), "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index gsi1 because its projection type is not ALL"),
        (with(&|q| q.projection_expression = Some("y, x".into())), "One or more parameter values were invalid: Global secondary index gsi1 does not project [y]"),
        (with(&|q| { q.filter_expression = Some("y = :g".into()) }), "One or more parameter values were invalid: Secondary index gsi1 does not project one or more filter attributes: [y]"),
        (with(&|q| q.filter_expression = Some("gs > :g".into())), "Filter Expression can only contain non-primary key attributes: Primary key attribute: gs"),
        // The key-attribute rule comes before the document-path rule (dynalite's order).
        (with(&|q| q.filter_expression = Some("g.x = :g".into())), "Filter Expression can only contain non-primary key attributes: Primary key attribute: g"),
        (with(&|q| { q.index_name = None; q.key_condition_expression = Some("pk = :g".into()); q.filter_expression = Some("g.x = :g".into()) }), "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: IndexKey: g"),
        (with(&|q| q.key_condition_expression = Some("pk = :g".into())), "Query condition missed key schema element: g"),
        (with(&|q| q.exclusive_start_key = Some(item(&[("pk", s("a")), ("sk", n("3"))]))), "The provided starting key is invalid"),
        (with(&|q| q.exclusive_start_key = Some(item(&[("pk", s("a")), ("sk", n("3")), ("g", s("G")), ("gs", s("7"))]))), "The provided starting key is invalid: The provided key element does not match the schema"),
        (with(&|q| q.exclusive_start_key = Some(item(&[("pk", s("a")), ("sk", n("3")), ("g", s("H")), ("gs", n("7"))]))), "The provided starting key is outside query boundaries based on provided conditions"),
    ];
    for (input, message) in cases {
        assert_validation(be.query(input).await, message);
    }
    // A filter on the table key is fine on a GSI (DynamoDB Local agrees); an LSI allows consistent reads.
    let ok = with(&|q| {
        q.filter_expression = Some("sk > :n".into());
        q.expression_attribute_values
            .as_mut()
            .unwrap()
            .insert(":n".into(), n("0"));
    });
    assert_eq!(be.query(ok).await.unwrap().count, 1);
    let mut lsi = lq();
    lsi.consistent_read = Some(true);
    assert_eq!(be.query(lsi).await.unwrap().count, 1);
    let scan = ScanInput {
        table_name: "tbl".into(),
        index_name: Some("nope".into()),
        ..Default::default()
    };
    assert_validation(
        be.scan(scan.clone()).await,
        "The table does not have the specified index: nope",
    );
    let with_start = ScanInput {
        exclusive_start_key: Some(item(&[("pk", s("a")), ("sk", n("1"))])),
        ..scan
    };
    assert_validation(
        be.scan(with_start).await,
        "The provided starting key is invalid",
    );
}

#[tokio::test]
async fn index_pages_are_sized_on_projected_entries() {
    let be = backend_with(schema()).await;
    for i in 0..30 {
        let mut it = super::query::big_item("b", i);
        it.insert("g".into(), s("B"));
        it.insert("gs".into(), n(&i.to_string()));
        put(&be, "tbl", it).await;
    }
    // The KEYS_ONLY entries are small: one page, no LastEvaluatedKey (DynamoDB Local sizes the whole item
    // and stops at 27). The ALL index holds the full items: 27 + LEK.
    let mut input = gq("B");
    input.select = Some(Select::Count);
    let page = be.query(input.clone()).await.unwrap();
    assert_eq!((page.count, page.last_evaluated_key.is_some()), (30, false));
    input.index_name = Some("gall".into());
    let page = be.query(input).await.unwrap();
    assert_eq!((page.count, page.last_evaluated_key.is_some()), (27, true));
}
