//! Deep expressions through whole requests, on a small stack: the deepest texts 4 KB can hold, the
//! deepest valid ones (300 operators), and legacy parameters of any length (which have no expression
//! limits), in every operation that evaluates or walks an expression. A stack overflow would abort
//! the whole test binary, so each request runs on its own thread with a quarter of the 2 MB stack
//! that test, Tokio and blocking-pool threads get by default.

use dynomodel::backend::{
    Backend, ComparisonOperator, ConditionalOperator, Conditions, Expected, ExpectedAttributeValue,
    GetItemInput, LegacyCondition, PutItemInput, QueryInput, ScanInput, TransactUpdate,
    TransactWriteItem, TransactWriteItemsInput, UpdateItemInput,
};
use dynomodel::Error;

use super::{backend_with, item, n, s, table_input, values};
use crate::MemBackend;

/// The 4 KB limit on an expression's text.
const MAX: usize = 4096;

/// Runs `request` against a fresh table `tbl` (key `pk`, item `a` stored) on a 512 KB stack.
fn on_a_small_stack<T: Send + 'static>(
    request: impl FnOnce(MemBackend) -> std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send>>
        + Send
        + 'static,
) -> T {
    std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let b = backend_with(table_input(
                    "tbl",
                    dynomodel::backend::ScalarAttributeType::S,
                    None,
                ))
                .await;
                b.put_item(PutItemInput {
                    table_name: "tbl".into(),
                    item: item(&[("pk", s("a")), ("n", n("1"))]),
                    ..Default::default()
                })
                .await
                .expect("seed");
                request(b).await
            })
        })
        .expect("spawns")
        .join()
        .expect("no stack overflow")
}

fn nest(open: &str, inner: &str, close: &str, depth: usize) -> String {
    format!("{}{inner}{}", open.repeat(depth), close.repeat(depth))
}

/// The error's message, or "OK".
fn outcome<T>(r: Result<T, Error>) -> String {
    match r {
        Ok(_) => "OK".to_owned(),
        Err(e) => e.message(),
    }
}

fn put_if(condition: String) -> PutItemInput {
    PutItemInput {
        table_name: "tbl".into(),
        item: item(&[("pk", s("a")), ("n", n("1"))]),
        condition_expression: Some(condition),
        expression_attribute_values: values(&[(":one", n("1"))]),
        ..Default::default()
    }
}

#[test]
fn deep_conditions_in_every_request() {
    let too_many = "Invalid ConditionExpression: The expression contains too many operators; \
                    operator count: 301";
    let cases = [
        (nest("n = :one OR (", "n = :one", ")", 149), "OK"),
        (format!("{}n = :one", "NOT ".repeat(298)), "OK"),
        (nest("(NOT ", "n = :one", ")", 298), "OK"),
        (
            nest("(", "n = :one", ")", (MAX - 8) / 2),
            "Invalid ConditionExpression: The expression has redundant parentheses;",
        ),
        (
            format!("{}n = :one", "NOT ".repeat((MAX - 8) / 4)),
            too_many,
        ),
        (vec!["n = :one"; MAX / 14].join(" AND "), too_many),
        (nest("n = :one OR (", "n = :one", ")", MAX / 14), too_many),
    ];
    for (condition, want) in cases {
        let head = condition[..30].to_owned();
        let put = condition.clone();
        let got = on_a_small_stack(move |b| {
            Box::pin(async move { outcome(b.put_item(put_if(put)).await) })
        });
        assert_eq!(got, want, "PutItem {head}…");
        // The same as a filter, of a Query and of a Scan.
        let filter = condition.clone();
        let got = on_a_small_stack(move |b| {
            Box::pin(async move {
                outcome(
                    b.query(QueryInput {
                        table_name: "tbl".into(),
                        key_condition_expression: Some("pk = :a".into()),
                        filter_expression: Some(filter),
                        expression_attribute_values: values(&[(":one", n("1")), (":a", s("a"))]),
                        ..Default::default()
                    })
                    .await,
                )
            })
        });
        assert_eq!(
            got,
            want.replace("ConditionExpression", "FilterExpression"),
            "Query {head}…"
        );
        let filter = condition;
        let got = on_a_small_stack(move |b| {
            Box::pin(async move {
                outcome(
                    b.scan(ScanInput {
                        table_name: "tbl".into(),
                        filter_expression: Some(filter),
                        expression_attribute_values: values(&[(":one", n("1"))]),
                        ..Default::default()
                    })
                    .await,
                )
            })
        });
        assert_eq!(
            got,
            want.replace("ConditionExpression", "FilterExpression"),
            "Scan {head}…"
        );
    }
}

#[test]
fn deep_updates_in_every_request() {
    let calls = |depth: usize| {
        format!(
            "SET v = {}",
            nest("if_not_exists(v, (", ":one", "))", depth)
        )
    };
    for (update, want) in [
        (calls(150), "OK"),
        (
            format!(
                "SET v = {}",
                nest("if_not_exists(v, ", ":one", ")", (MAX - 12) / 18)
            ),
            "OK",
        ),
    ] {
        let head = update[..30].to_owned();
        let text = update.clone();
        let got = on_a_small_stack(move |b| {
            Box::pin(async move {
                outcome(
                    b.update_item(UpdateItemInput {
                        table_name: "tbl".into(),
                        key: item(&[("pk", s("a"))]),
                        update_expression: Some(text),
                        condition_expression: Some(format!("{}n = :one", "NOT NOT ".repeat(100))),
                        expression_attribute_values: values(&[(":one", n("1"))]),
                        ..Default::default()
                    })
                    .await,
                )
            })
        });
        assert_eq!(got, want, "UpdateItem {head}…");
        let got = on_a_small_stack(move |b| {
            Box::pin(async move {
                let update = TransactUpdate {
                    table_name: "tbl".into(),
                    key: item(&[("pk", s("a"))]),
                    update_expression: update,
                    expression_attribute_values: values(&[(":one", n("1"))]),
                    ..Default::default()
                };
                outcome(
                    b.transact_write_items(TransactWriteItemsInput {
                        transact_items: vec![TransactWriteItem::Update(update)],
                        ..Default::default()
                    })
                    .await,
                )
            })
        });
        assert_eq!(got, want, "TransactWriteItems {head}…");
    }
}

/// Legacy conditions have no operator limit: 20,000 of them, ANDed or ORed, are one request.
#[test]
fn long_legacy_conditions_in_every_request() {
    const COUNT: usize = 20_000;
    let holds = |i: usize| ExpectedAttributeValue {
        value: (i == 0).then(|| n("1")),
        exists: (i > 0).then_some(false),
        ..Default::default()
    };
    let expected: Expected = (0..COUNT)
        .map(|i| {
            (
                if i == 0 {
                    "n".to_owned()
                } else {
                    format!("x{i}")
                },
                holds(i),
            )
        })
        .collect();
    let got = on_a_small_stack(move |b| {
        Box::pin(async move {
            outcome(
                b.put_item(PutItemInput {
                    table_name: "tbl".into(),
                    item: item(&[("pk", s("a")), ("n", n("1"))]),
                    expected: Some(expected),
                    ..Default::default()
                })
                .await,
            )
        })
    });
    assert_eq!(got, "OK", "PutItem, {COUNT} Expected entries");
    let filter: Conditions = (0..COUNT)
        .map(|i| {
            let c = LegacyCondition {
                comparison_operator: ComparisonOperator::Eq,
                attribute_value_list: Some(vec![n(&i.to_string())]),
            };
            (format!("x{i}"), c)
        })
        .collect();
    let got = on_a_small_stack(move |b| {
        Box::pin(async move {
            b.scan(ScanInput {
                table_name: "tbl".into(),
                scan_filter: Some(filter),
                conditional_operator: Some(ConditionalOperator::Or),
                ..Default::default()
            })
            .await
            .map(|o| o.count)
        })
    });
    assert_eq!(got, Ok(0), "Scan, {COUNT} ScanFilter conditions ORed");
    let got = on_a_small_stack(move |b| {
        Box::pin(async move {
            b.get_item(GetItemInput {
                table_name: "tbl".into(),
                key: item(&[("pk", s("a"))]),
                attributes_to_get: Some((0..COUNT).map(|i| format!("x{i}")).collect()),
                ..Default::default()
            })
            .await
            .map(|o| o.item)
        })
    });
    assert_eq!(got, Ok(Some(item(&[]))), "GetItem, {COUNT} AttributesToGet");
}
