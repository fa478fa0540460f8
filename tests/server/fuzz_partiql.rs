//! Fuzzing PartiQL end to end through the wire layer: generated statements (assembled from the
//! grammar's fragments, and mutated valid ones) with generated parameters, sent as ExecuteStatement,
//! BatchExecuteStatement and ExecuteTransaction over an engine holding a table with items. Every answer
//! is a response or a DynamoDB-shaped 400: the lexer, the parser (and its depth guard), the planner and
//! the operations it calls never panic. proptest's default seeding is deterministic per test.

use dynomodel_mem::__private::wire;
use dynomodel_mem::MemBackend;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Fragments of statements over the table `tbl` (`pk` S, `sk` N), valid and not.
const FRAGMENTS: [&str; 49] = [
    "SELECT",
    "*",
    "FROM",
    "\"tbl\"",
    "tbl",
    "\"tbl\".\"idx\"",
    "WHERE",
    "pk",
    "sk",
    "x",
    "x.y",
    "x[0]",
    "'a'",
    "1",
    "-2.5",
    "?",
    "=",
    "<>",
    "<",
    ">=",
    "AND",
    "OR",
    "NOT",
    "BETWEEN",
    "IN",
    "[1, 2]",
    "(",
    ")",
    "IS MISSING",
    "IS NOT MISSING",
    "begins_with(pk, 'a')",
    "size(x) > 1",
    "contains(x, ?)",
    "INSERT INTO",
    "VALUE",
    "{'pk': 'a', 'sk': 1}",
    "{'pk': ?, 'sk': ?}",
    "UPDATE",
    "SET",
    "REMOVE",
    "DELETE",
    ",",
    "<<'a'>>",
    "list_append(x, [1])",
    "RETURNING ALL OLD *",
    "RETURNING MODIFIED NEW *",
    "<<>>",
    "set_add(x, <<1>>)",
    "pk IN ['a', ?]",
];

/// Valid statements the mutations start from.
const VALID: [&str; 6] = [
    "SELECT * FROM \"tbl\" WHERE pk = ? AND sk BETWEEN 1 AND 3",
    "SELECT x.y[1], pk FROM tbl WHERE pk = 'a' OR begins_with(x, 'q')",
    "INSERT INTO \"tbl\" VALUE {'pk': ?, 'sk': 2, 'l': [1, 'x', <<1, 2>>], 'm': {'n': NULL}}",
    "UPDATE \"tbl\" SET x = x + 1, l = list_append(l, [2]) REMOVE y WHERE pk = 'a' AND sk = 1 RETURNING ALL NEW *",
    "DELETE FROM \"tbl\" WHERE pk = 'a' AND sk = 1 AND x IS NOT MISSING",
    "SELECT * FROM \"tbl\" WHERE NOT (sk IN [1, 2]) AND size(pk) >= 1",
];

fn statement() -> impl Strategy<Value = String> {
    let assembled = prop::collection::vec(prop::sample::select(FRAGMENTS.to_vec()), 0..16)
        .prop_map(|parts| parts.join(" "));
    let mutated = (
        prop::sample::select(VALID.to_vec()),
        any::<prop::sample::Index>(),
        0usize..6,
        r#"[ a-z0-9'"?.,()\[\]{}<>=*]{0,5}"#,
    )
        .prop_map(|(base, at, remove, insert)| {
            let chars: Vec<char> = base.chars().collect();
            let at = at.index(chars.len() + 1);
            let end = (at + remove).min(chars.len());
            let mut text: String = chars[..at].iter().collect();
            text.push_str(&insert);
            text.extend(&chars[end..]);
            text
        });
    prop_oneof![3 => mutated, 2 => assembled, 1 => "\\PC{0,60}"]
}

fn parameters() -> impl Strategy<Value = Option<Value>> {
    let value = prop_oneof![
        "[a-c]{0,2}".prop_map(|s| json!({ "S": s })),
        (-3i32..4).prop_map(|n| json!({ "N": n.to_string() })),
        Just(json!({ "L": [{"N": "1"}] })),
        Just(json!({ "NULL": true })),
    ];
    prop::option::of(prop::collection::vec(value, 0..4).prop_map(Value::Array))
}

fn request() -> impl Strategy<Value = (&'static str, Value)> {
    let one = || {
        (statement(), parameters()).prop_map(|(s, p)| {
            let mut body = json!({ "Statement": s });
            if let Some(p) = p {
                body["Parameters"] = p;
            }
            body
        })
    };
    prop_oneof![
        3 => (one(), any::<Option<u8>>(), any::<bool>()).prop_map(|(mut body, limit, consistent)| {
            if let Some(limit) = limit {
                body["Limit"] = json!(limit);
            }
            body["ConsistentRead"] = json!(consistent);
            ("ExecuteStatement", body)
        }),
        1 => prop::collection::vec(one(), 0..4)
            .prop_map(|s| ("BatchExecuteStatement", json!({ "Statements": s }))),
        1 => prop::collection::vec(one(), 0..4)
            .prop_map(|s| ("ExecuteTransaction", json!({ "TransactStatements": s }))),
    ]
}

async fn setup() -> MemBackend {
    let backend = MemBackend::new();
    let create = json!({
        "TableName": "tbl",
        "AttributeDefinitions": [
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "N"}
        ],
        "KeySchema": [
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"}
        ],
        "BillingMode": "PAY_PER_REQUEST"
    });
    wire::call(&backend, "CreateTable", create.to_string().as_bytes())
        .await
        .unwrap();
    for sk in 1..4 {
        let put = json!({
            "TableName": "tbl",
            "Item": {"pk": {"S": "a"}, "sk": {"N": sk.to_string()}, "x": {"N": "1"}, "l": {"L": []}}
        });
        wire::call(&backend, "PutItem", put.to_string().as_bytes())
            .await
            .unwrap();
    }
    backend
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]
    #[test]
    fn partiql_requests_never_panic((operation, body) in request()) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            let backend = setup().await;
            match wire::call(&backend, operation, body.to_string().as_bytes()).await {
                Ok(response) => prop_assert!(response.is_object(), "{}", response),
                Err(fault) => {
                    let (status, error) = wire::error_response(&fault);
                    prop_assert_eq!(status, 400, "{} {}", body, error);
                    prop_assert!(error["__type"].is_string());
                }
            }
            Ok(())
        })?;
    }
}
