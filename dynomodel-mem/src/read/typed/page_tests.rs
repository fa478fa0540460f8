//! `query_into` and `scan_into` against `query` and `scan` on the engine: the same pages (items in
//! the same order through the sink, counts, `LastEvaluatedKey`, capacity) and the same errors, over
//! requests that cut pages by `Limit` and by the 1 MB rule, resume from start keys, read backwards,
//! read indexes, and need the decoded item (filters, projections, an LSI fetch: the fallback).

use std::borrow::Cow;
use std::collections::BTreeMap;

use dynomodel::backend::{
    AttributeDefinition, Backend, BillingMode, CreateTableInput, GlobalSecondaryIndex, ItemSink,
    KeySchemaElement, LocalSecondaryIndex, Projection, ProjectionType, PutItemInput, QueryInput,
    QueryOutput, ReturnConsumedCapacity, ScalarAttributeType, ScanInput, Select,
};
use dynomodel::{AttributeValue, Item};

use crate::MemBackend;

/// The items a typed read hands over, and whether each came with borrowed names (from the stored
/// form) or owned ones (an `Item` handed over whole: the fallback).
#[derive(Default)]
struct Collect {
    items: Vec<Item>,
    /// `None` for an item without attributes.
    borrowed: Vec<Option<bool>>,
}

impl ItemSink for Collect {
    fn item(&mut self, attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>) {
        let mut borrowed = None;
        let item = attributes
            .map(|(n, v)| {
                let this = matches!(n, Cow::Borrowed(_));
                borrowed = Some(borrowed.unwrap_or(this) && this);
                (n.into_owned(), v)
            })
            .collect();
        self.items.push(item);
        self.borrowed.push(borrowed);
    }
}

fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.into())
}

fn n(v: i64) -> AttributeValue {
    AttributeValue::N(v.into())
}

fn definition(name: &str, ty: ScalarAttributeType) -> AttributeDefinition {
    AttributeDefinition {
        attribute_name: name.into(),
        attribute_type: ty,
    }
}

/// A table `pages` (pk S, sk N) with an LSI `by-l` (l N, keys only) and a GSI `by-g` (g S, all):
/// partitions `a` (30 small items), `b` (5), and `big` (60 items of ~40 KB: more than 1 MB).
async fn backend() -> MemBackend {
    let backend = MemBackend::new();
    backend
        .create_table(CreateTableInput {
            table_name: "pages".into(),
            attribute_definitions: vec![
                definition("pk", ScalarAttributeType::S),
                definition("sk", ScalarAttributeType::N),
                definition("l", ScalarAttributeType::N),
                definition("g", ScalarAttributeType::S),
            ],
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
            local_secondary_indexes: vec![LocalSecondaryIndex {
                index_name: "by-l".into(),
                key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("l")],
                projection: Projection {
                    projection_type: ProjectionType::KeysOnly,
                    non_key_attributes: vec![],
                },
            }],
            global_secondary_indexes: vec![GlobalSecondaryIndex {
                index_name: "by-g".into(),
                key_schema: vec![KeySchemaElement::hash("g")],
                projection: Projection {
                    projection_type: ProjectionType::All,
                    non_key_attributes: vec![],
                },
                provisioned_throughput: None,
            }],
            billing_mode: Some(BillingMode::PayPerRequest),
            ..Default::default()
        })
        .await
        .unwrap();
    let put = |pk: &str, i: i64, pad: usize| {
        let mut item = Item::from([
            ("pk".to_string(), s(pk)),
            ("sk".to_string(), n(i)),
            ("l".to_string(), n(100 - i)),
            ("g".to_string(), s(if i % 3 == 0 { "x" } else { "y" })),
            ("name".to_string(), s(&format!("item {pk} {i}"))),
            (
                "m".to_string(),
                AttributeValue::M(Item::from([("k".to_string(), n(i * 7))])),
            ),
        ]);
        if pad > 0 {
            item.insert("pad".to_string(), s(&"p".repeat(pad)));
        }
        // Every fifth item lacks `name`: items of two shapes.
        if i % 5 == 4 {
            item.remove("name");
        }
        backend.put_item(PutItemInput {
            table_name: "pages".into(),
            item,
            ..Default::default()
        })
    };
    for i in 0..30 {
        put("a", i, 0).await.unwrap();
    }
    for i in 0..5 {
        put("b", i, 0).await.unwrap();
    }
    for i in 0..60 {
        put("big", i, 40_000).await.unwrap();
    }
    backend
}

/// Compares one request's typed page with its plain page; returns the plain page's
/// `LastEvaluatedKey` and whether the typed read handed items over from their stored form.
fn same_page(
    what: &str,
    plain: dynomodel::Result<QueryOutput>,
    typed: dynomodel::Result<QueryOutput>,
    sink: Collect,
) -> Option<(Option<Item>, Option<bool>)> {
    match (plain, typed) {
        (Ok(mut plain), Ok(typed)) => {
            assert_eq!(sink.items, plain.items.take().unwrap_or_default(), "{what}");
            assert_eq!(typed.items, None, "{what}");
            assert_eq!(plain, typed, "{what}");
            let mut named = sink.borrowed.iter().flatten();
            let borrowed = named.next().copied();
            assert!(named.all(|b| Some(*b) == borrowed), "{what}");
            Some((plain.last_evaluated_key, borrowed))
        }
        (Err(plain), Err(typed)) => {
            assert_eq!(plain.to_string(), typed.to_string(), "{what}");
            assert_eq!(plain.code(), typed.code(), "{what}");
            assert!(sink.items.is_empty(), "{what}");
            None
        }
        (plain, typed) => panic!("{what}: {plain:?} against {typed:?}"),
    }
}

fn query(pk: &str) -> QueryInput {
    QueryInput {
        table_name: "pages".into(),
        key_condition_expression: Some("pk = :pk".into()),
        expression_attribute_values: Some(BTreeMap::from([(":pk".to_string(), s(pk))])),
        ..Default::default()
    }
}

/// Every page of `input` (following `LastEvaluatedKey`), typed and plain; whether the typed pages
/// came from the stored form (`None`: no items).
async fn query_pages(backend: &MemBackend, mut input: QueryInput) -> Option<bool> {
    let mut from_stored = None;
    for page in 0..200 {
        let what = format!("{input:?} (page {page})");
        let plain = backend.query(input.clone()).await;
        let mut sink = Collect::default();
        let typed = backend.query_into(input.clone(), &mut sink).await;
        // An error: no items.
        let (next, borrowed) = same_page(&what, plain, typed, sink)?;
        from_stored = from_stored.or(borrowed);
        assert!(borrowed.is_none() || borrowed == from_stored, "{what}");
        match next {
            Some(next) => input.exclusive_start_key = Some(next),
            None => return from_stored,
        }
    }
    panic!("{input:?}: more than 200 pages")
}

async fn scan_pages(backend: &MemBackend, mut input: ScanInput) -> Option<bool> {
    let mut from_stored = None;
    for page in 0..200 {
        let what = format!("{input:?} (page {page})");
        let plain = backend.scan(input.clone()).await;
        let mut sink = Collect::default();
        let typed = backend.scan_into(input.clone(), &mut sink).await;
        // An error: no items.
        let (next, borrowed) = same_page(&what, plain, typed, sink)?;
        from_stored = from_stored.or(borrowed);
        assert!(borrowed.is_none() || borrowed == from_stored, "{what}");
        match next {
            Some(next) => input.exclusive_start_key = Some(next),
            None => return from_stored,
        }
    }
    panic!("{input:?}: more than 200 pages")
}

#[tokio::test]
async fn typed_queries_are_queries() {
    let backend = backend().await;
    let with = |f: &dyn Fn(&mut QueryInput), pk: &str| {
        let mut input = query(pk);
        f(&mut input);
        input
    };
    let value = |input: &mut QueryInput, name: &str, v: AttributeValue| {
        input
            .expression_attribute_values
            .get_or_insert_with(BTreeMap::new)
            .insert(name.to_string(), v);
    };
    // (request, whether its items come from the stored form; `None`: no items)
    let plain: Vec<(QueryInput, Option<bool>)> = vec![
        (query("a"), Some(true)),
        (query("nothing"), None),
        (with(&|q| q.limit = Some(7), "a"), Some(true)),
        (with(&|q| q.limit = Some(1), "b"), Some(true)),
        (with(&|q| q.limit = Some(5), "b"), Some(true)),
        (
            with(&|q| q.scan_index_forward = Some(false), "a"),
            Some(true),
        ),
        (
            with(
                &|q| {
                    q.scan_index_forward = Some(false);
                    q.limit = Some(4);
                    q.return_consumed_capacity = Some(ReturnConsumedCapacity::Indexes);
                },
                "a",
            ),
            Some(true),
        ),
        (query("big"), Some(true)),
        (
            with(
                &|q| {
                    q.return_consumed_capacity = Some(ReturnConsumedCapacity::Total);
                    q.consistent_read = Some(true);
                },
                "big",
            ),
            Some(true),
        ),
        (
            with(
                &|q| {
                    q.key_condition_expression = Some("pk = :pk AND sk BETWEEN :lo AND :hi".into());
                    value(q, ":lo", n(3));
                    value(q, ":hi", n(17));
                    q.limit = Some(6);
                },
                "a",
            ),
            Some(true),
        ),
        // Indexes: the LSI's projected entries, the GSI's.
        (
            with(&|q| q.index_name = Some("by-l".into()), "a"),
            Some(true),
        ),
        (
            with(
                &|q| {
                    q.index_name = Some("by-l".into());
                    q.limit = Some(4);
                    q.scan_index_forward = Some(false);
                    q.return_consumed_capacity = Some(ReturnConsumedCapacity::Indexes);
                },
                "a",
            ),
            Some(true),
        ),
        (
            with(
                &|q| {
                    q.index_name = Some("by-g".into());
                    q.key_condition_expression = Some("g = :pk".into());
                    q.limit = Some(9);
                    q.return_consumed_capacity = Some(ReturnConsumedCapacity::Indexes);
                },
                "x",
            ),
            Some(true),
        ),
        (
            with(
                &|q| {
                    q.index_name = Some("by-g".into());
                    q.key_condition_expression = Some("g = :pk".into());
                    q.select = Some(Select::AllProjectedAttributes);
                },
                "y",
            ),
            Some(true),
        ),
    ];
    for (input, stored) in plain {
        assert_eq!(
            query_pages(&backend, input.clone()).await,
            stored,
            "{input:?}"
        );
    }
    // What needs the decoded item: a filter, a projection, an LSI read of the table's attributes.
    let fallback = vec![
        with(
            &|q| {
                q.filter_expression = Some("attribute_exists(#n)".into());
                q.expression_attribute_names =
                    Some(BTreeMap::from([("#n".to_string(), "name".to_string())]));
                q.limit = Some(6);
            },
            "a",
        ),
        with(
            &|q| {
                q.projection_expression = Some("sk, m.k".into());
                q.limit = Some(8);
            },
            "a",
        ),
        with(
            &|q| {
                q.index_name = Some("by-l".into());
                q.select = Some(Select::AllAttributes);
                q.limit = Some(5);
                q.return_consumed_capacity = Some(ReturnConsumedCapacity::Indexes);
            },
            "a",
        ),
        with(
            &|q| {
                q.attributes_to_get = Some(vec!["name".into()]);
                q.key_condition_expression = None;
                q.expression_attribute_values = None;
                q.key_conditions = Some(BTreeMap::from([(
                    "pk".to_string(),
                    dynomodel::backend::LegacyCondition {
                        comparison_operator: dynomodel::backend::ComparisonOperator::Eq,
                        attribute_value_list: Some(vec![s("a")]),
                    },
                )]));
            },
            "a",
        ),
    ];
    for input in fallback {
        assert_eq!(
            query_pages(&backend, input.clone()).await,
            Some(false),
            "{input:?}"
        );
    }
    // No items: COUNT; errors.
    let none = vec![
        with(&|q| q.select = Some(Select::Count), "a"),
        with(
            &|q| {
                q.select = Some(Select::Count);
                q.limit = Some(3);
            },
            "big",
        ),
        QueryInput {
            table_name: "missing".into(),
            ..query("a")
        },
        with(&|q| q.limit = Some(0), "a"),
        with(
            &|q| {
                q.index_name = Some("by-g".into());
                q.key_condition_expression = Some("g = :pk".into());
                q.consistent_read = Some(true);
            },
            "x",
        ),
        with(
            &|q| q.key_condition_expression = Some("sk = :pk".into()),
            "a",
        ),
        with(
            &|q| q.exclusive_start_key = Some(Item::from([("pk".to_string(), s("a"))])),
            "a",
        ),
        with(&|q| q.index_name = Some("nope".into()), "a"),
    ];
    for input in none {
        assert_eq!(
            query_pages(&backend, input.clone()).await,
            None,
            "{input:?}"
        );
    }
}

#[tokio::test]
async fn typed_scans_are_scans() {
    let backend = backend().await;
    let scan = |f: &dyn Fn(&mut ScanInput)| {
        let mut input = ScanInput {
            table_name: "pages".into(),
            ..Default::default()
        };
        f(&mut input);
        input
    };
    let plain = vec![
        scan(&|_| {}),
        scan(&|s| s.limit = Some(10)),
        scan(&|s| {
            s.limit = Some(33);
            s.return_consumed_capacity = Some(ReturnConsumedCapacity::Total);
        }),
        scan(&|s| {
            s.segment = Some(0);
            s.total_segments = Some(2);
            s.limit = Some(4);
        }),
        scan(&|s| s.index_name = Some("by-g".into())),
        scan(&|s| {
            s.index_name = Some("by-l".into());
            s.limit = Some(7);
            s.return_consumed_capacity = Some(ReturnConsumedCapacity::Indexes);
        }),
    ];
    for input in plain {
        assert_eq!(
            scan_pages(&backend, input.clone()).await,
            Some(true),
            "{input:?}"
        );
    }
    let fallback = vec![
        scan(&|s| {
            s.filter_expression = Some("sk > :n".into());
            s.expression_attribute_values = Some(BTreeMap::from([(":n".to_string(), n(10))]));
            s.limit = Some(9);
        }),
        scan(&|s| {
            s.projection_expression = Some("pk, #n".into());
            s.expression_attribute_names =
                Some(BTreeMap::from([("#n".to_string(), "name".to_string())]));
        }),
        scan(&|s| {
            s.index_name = Some("by-l".into());
            s.select = Some(Select::AllAttributes);
            s.limit = Some(11);
        }),
        scan(&|s| {
            s.scan_filter = Some(BTreeMap::from([(
                "sk".to_string(),
                dynomodel::backend::LegacyCondition {
                    comparison_operator: dynomodel::backend::ComparisonOperator::Lt,
                    attribute_value_list: Some(vec![n(3)]),
                },
            )]));
        }),
    ];
    for input in fallback {
        assert_eq!(
            scan_pages(&backend, input.clone()).await,
            Some(false),
            "{input:?}"
        );
    }
    let none = vec![
        scan(&|s| s.select = Some(Select::Count)),
        scan(&|s| {
            s.select = Some(Select::Count);
            s.limit = Some(20);
        }),
        scan(&|s| s.table_name = "missing".into()),
        scan(&|s| s.segment = Some(1)),
        scan(&|s| {
            s.index_name = Some("by-g".into());
            s.consistent_read = Some(true);
        }),
        scan(&|i| i.exclusive_start_key = Some(Item::from([("pk".to_string(), s("a"))]))),
    ];
    for input in none {
        assert_eq!(scan_pages(&backend, input.clone()).await, None, "{input:?}");
    }
}

/// An armed fault rule applies to the typed reads as to the plain ones.
#[tokio::test]
async fn fault_rules_apply_to_typed_pages() {
    use crate::faults::{FaultError, Operation, Rule};
    let backend = backend().await;
    for operation in [Operation::Query, Operation::Scan] {
        backend
            .faults()
            .add(Rule::on(operation).times(1).fail(FaultError::Throttling));
    }
    let mut sink = Collect::default();
    let err = backend.query_into(query("b"), &mut sink).await.unwrap_err();
    assert_eq!(err.code(), "ThrottlingException");
    let scan = ScanInput {
        table_name: "pages".into(),
        ..Default::default()
    };
    let err = backend.scan_into(scan, &mut sink).await.unwrap_err();
    assert_eq!(err.code(), "ThrottlingException");
    assert!(sink.items.is_empty());
    // While a rule is armed, the plain read's items are handed over; without, the stored ones.
    backend.faults().add(
        Rule::on(Operation::Query)
            .table("other")
            .fail(FaultError::Throttling),
    );
    assert_eq!(query_pages(&backend, query("b")).await, Some(false));
    backend.faults().clear();
    assert_eq!(query_pages(&backend, query("b")).await, Some(true));
}
