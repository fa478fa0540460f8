//! BatchGetItem (the 16 MB cut is in `limit.rs`).

use super::*;

/// `1 validation error detected: Value '<echo>' at '<path>' failed to satisfy constraint: <c>`.
fn constraint(echo: &str, path: &str, constraint: &str) -> String {
    format!(
        "1 validation error detected: Value '{echo}' at '{path}' failed to satisfy constraint: \
         {constraint}"
    )
}

/// Items `a` (with `x` and a map `m`) and `b` in the hash table; (a, 1) and (a, 2) in the range table.
async fn seeded(t: &Dual) -> (String, String) {
    let (hash, range) = two_tables(t).await;
    let a = item([
        ("pk", s("a")),
        ("x", s("1")),
        ("m", AttributeValue::M(item([("y", s("2")), ("z", s("3"))]))),
    ]);
    write(
        t,
        vec![
            (hash.as_str(), vec![put(a), put(h("b"))]),
            (range.as_str(), vec![put(r("a", 1)), put(r("a", 2))]),
        ],
    )
    .await
    .unwrap();
    (hash, range)
}

dual_test!(batch_get_found_items_per_table, |t| {
    let (hash, range) = seeded(&t).await;
    let out = get(
        &t,
        vec![
            (hash.as_str(), keys(vec![h("b"), h("nope")])),
            (
                range.as_str(),
                KeysAndAttributes {
                    keys: vec![r("a", 2), r("a", 1), r("b", 1)],
                    consistent_read: Some(true),
                    ..Default::default()
                },
            ),
        ],
    )
    .await
    .unwrap();
    assert_eq!(found(&out, &hash), vec![h("b")]);
    assert_eq!(found(&out, &range), vec![r("a", 1), r("a", 2)]);
    assert!(out.unprocessed_keys.is_empty());
    // A table with nothing found is in the response, with an empty list.
    let out = get(
        &t,
        vec![
            (hash.as_str(), keys(vec![h("nope")])),
            (range.as_str(), keys(vec![r("b", 9)])),
        ],
    )
    .await
    .unwrap();
    assert_eq!(out.responses.get(&hash), Some(&vec![]));
    assert_eq!(out.responses.get(&range), Some(&vec![]));
    // Per-table projections with names; an item with none of the attributes comes back empty.
    let out = get(
        &t,
        vec![
            (
                hash.as_str(),
                KeysAndAttributes {
                    attributes_to_get: None,
                    keys: vec![h("a"), h("b")],
                    projection_expression: Some("#m.z, x".into()),
                    expression_attribute_names: Some(BTreeMap::from([("#m".into(), "m".into())])),
                    consistent_read: Some(false),
                },
            ),
            (range.as_str(), keys(vec![r("a", 1)])),
        ],
    )
    .await
    .unwrap();
    let projected = item([
        ("m", AttributeValue::M(item([("z", s("3"))]))),
        ("x", s("1")),
    ]);
    assert_eq!(found(&out, &hash), sorted(vec![projected, Item::new()]));
    assert_eq!(found(&out, &range), vec![r("a", 1)]);
});

dual_test!(batch_get_request_constraints, |t| {
    let (hash, range) = two_tables(&t).await;
    // KNOWN DIFFERENCE: every request-level constraint below has DynamoDB Local's own wording.
    t.expect_error_differs(
        get(&t, vec![]).await,
        "ValidationException",
        "The requestItems parameter is required for BatchGetItem",
        "BatchGetItem must have some requests set",
    );
    t.expect_error_differs(
        get(&t, vec![("bad!name", keys(vec![h("a")]))]).await,
        "ValidationException",
        &constraint(
            r#"{"bad!name":{"Keys":[{"pk":{"S":"a"}}]}}"#,
            "requestItems",
            MAP_KEYS,
        ),
        LOCAL_BAD_NAME,
    );
    t.expect_error_differs(
        get(&t, vec![(hash.as_str(), keys(vec![]))]).await,
        "ValidationException",
        &constraint(
            "[]",
            &format!("requestItems.{hash}.member.keys"),
            "Member must have length greater than or equal to 1",
        ),
        &format!(
            "The list of keys in RequestItems for BatchGetItem is required: {hash} has empty list"
        ),
    );
    // 101 keys in one table break the list's constraint, named without the list (issue 26 fact 3);
    // Local counts them as the request's limit.
    let many: Vec<Item> = (0..101).map(|i| h(&i.to_string())).collect();
    t.expect_error_differs(
        get(&t, vec![(hash.as_str(), keys(many))]).await,
        "ValidationException",
        &format!(
            "1 validation error detected: Value at 'RequestItems.{hash}.member.Keys' failed to \
             satisfy constraint: Member must have length less than or equal to 100"
        ),
        "Too many items requested for the BatchGetItem call",
    );
    // 100 keys are fine; 100 + 1 across two tables exceed the request's limit, on both.
    let hashes = |n: usize| (0..n).map(|i| h(&i.to_string())).collect::<Vec<_>>();
    let out = get(&t, vec![(hash.as_str(), keys(hashes(100)))])
        .await
        .unwrap();
    assert!(out.unprocessed_keys.is_empty());
    t.expect_error(
        get(
            &t,
            vec![
                (hash.as_str(), keys(hashes(100))),
                (range.as_str(), keys(vec![r("a", 1)])),
            ],
        )
        .await,
        "ValidationException",
        "Too many items requested for the BatchGetItem call",
    );
});

dual_test!(batch_get_duplicates_and_values_before_tables, |t| {
    let (hash, range) = seeded(&t).await;
    let missing = missing_table(&t);
    for table in [hash.as_str(), missing.as_str()] {
        t.expect_error(
            get(&t, vec![(table, keys(vec![h("a"), h("b"), h("a")]))]).await,
            "ValidationException",
            DUPLICATES,
        );
        t.expect_error(
            get(
                &t,
                vec![(
                    table,
                    keys(vec![item([("pk", AttributeValue::Ss(vec![]))])]),
                )],
            )
            .await,
            "ValidationException",
            "One or more parameter values were invalid: An string set  may not be empty",
        );
    }
    // Duplicates come before the limit of 100 keys.
    let mut hashes: Vec<Item> = (0..50).map(|i| h(&i.to_string())).collect();
    hashes.push(h("0"));
    let ranges: Vec<Item> = (0..50).map(|i| r("b", i)).collect();
    t.expect_error(
        get(
            &t,
            vec![
                (hash.as_str(), keys(hashes)),
                (range.as_str(), keys(ranges)),
            ],
        )
        .await,
        "ValidationException",
        DUPLICATES,
    );
    // The same key in two tables is fine.
    get(
        &t,
        vec![
            (hash.as_str(), keys(vec![h("a")])),
            (range.as_str(), keys(vec![r("a", 1)])),
        ],
    )
    .await
    .unwrap();
    expect_not_found(
        &t,
        get(&t, vec![(missing.as_str(), keys(vec![h("a")]))]).await,
    );
});

dual_test!(batch_get_keys_against_the_schema, |t| {
    let (hash, range) = seeded(&t).await;
    const LOCAL_COUNT: &str = "The number of conditions on the keys is invalid";
    let empty_keys =
        format!("The list of keys in RequestItems for BatchGetItem may not contain null or empty values: {hash} has one or more empty keys");
    let cases: Vec<(&str, Item, &str)> = vec![
        // KNOWN DIFFERENCE: DynamoDB Local words these as GetItem does (an empty key its own way).
        (hash.as_str(), Item::new(), empty_keys.as_str()),
        (
            hash.as_str(),
            item([("pk", num("1"))]),
            "One or more parameter values were invalid: Type mismatch for key",
        ),
        (
            hash.as_str(),
            item([("pk", s("a")), ("x", s("b"))]),
            LOCAL_COUNT,
        ),
        (range.as_str(), h("a"), LOCAL_COUNT),
    ];
    for (table, key, local) in cases {
        let valid = if table == hash { h("a") } else { r("a", 1) };
        let result = get(&t, vec![(table, keys(vec![valid, key]))]).await;
        t.expect_error_differs(result, "ValidationException", MISMATCH, local);
    }
    t.expect_error(
        get(&t, vec![(hash.as_str(), keys(vec![h("")]))]).await,
        "ValidationException",
        "One or more parameter values are not valid. The AttributeValue for a key attribute cannot \
         contain an empty string value. Key: pk",
    );
    // A missing table and a bad key in another table: the first by name (on DynamoDB Local, by
    // request order).
    let early_missing = t.table_name("0-missing");
    let late_missing = missing_table(&t);
    for (absent, missing_sorts_first) in [(&early_missing, true), (&late_missing, false)] {
        let result = get(
            &t,
            vec![
                (range.as_str(), keys(vec![h("a")])),
                (absent.as_str(), keys(vec![h("a")])),
            ],
        )
        .await;
        expect_first_fault(
            &t,
            result,
            missing_sorts_first,
            (MISMATCH, "The number of conditions on the keys is invalid"),
        );
    }
});

dual_test!(batch_get_projection_expressions, |t| {
    let (hash, range) = seeded(&t).await;
    let names = |pairs: &[(&str, &str)]| {
        Some(
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
        )
    };
    let projected = |p: &str| KeysAndAttributes {
        keys: vec![h("a")],
        projection_expression: Some(p.into()),
        ..Default::default()
    };
    let cases: Vec<(KeysAndAttributes, &str)> = vec![
        (
            KeysAndAttributes {
                keys: vec![h("a")],
                expression_attribute_names: names(&[("#x", "x")]),
                ..Default::default()
            },
            "ExpressionAttributeNames can only be specified when using expressions",
        ),
        (
            KeysAndAttributes {
                expression_attribute_names: names(&[("#x", "x")]),
                ..projected("x")
            },
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {#x}",
        ),
        (
            projected("name"),
            "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: name",
        ),
        (
            projected("a, a"),
            "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or \
             rewrite one of these paths; path one: [a], path two: [a]",
        ),
        (
            projected("pk.x"),
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not \
             allowed: Key: pk",
        ),
    ];
    for (ka, message) in cases {
        // One bad table fails the whole request.
        let clean = KeysAndAttributes {
            keys: vec![r("a", 1)],
            projection_expression: Some("sk".into()),
            ..Default::default()
        };
        let result = get(&t, vec![(hash.as_str(), ka), (range.as_str(), clean)]).await;
        t.expect_error(result, "ValidationException", message);
    }
});

dual_test!(numbers_spelled_apart_are_one_key_not_a_duplicate, |t| {
    use serde_json::json;

    use crate::validation::{call, expect, send};

    // Issue 26 fact 25: `{"N": "1000"}` and `{"N": "1e3"}` are not a duplicate-key error, and the
    // item comes back once; keys sent identically are still refused (DynamoDB Local 3.3.1 alike, but
    // see below).
    let table = t.create_table("respelled", ("p", N), None).await;
    let put = json!({"TableName": table, "Item": {"p": {"N": "1000"}, "v": {"S": "x"}}});
    assert_eq!(send(&t, "PutItem", put).await, None);
    let get = |spellings: &[&str]| {
        let keys: Vec<_> = spellings.iter().map(|n| json!({"p": {"N": n}})).collect();
        json!({"RequestItems": {table.clone(): {"Keys": keys}}})
    };
    let reply = call(&t, "BatchGetItem", get(&["1000", "1e3"]))
        .await
        .unwrap_or_else(|e| panic!("[{:?}] {e:?}", t.target()));
    let found = json!({"p": {"N": "1000"}, "v": {"S": "x"}});
    // KNOWN DIFFERENCE: DynamoDB Local 3.3.1 returns the item once per spelling.
    let copies = if t.target() == Target::DynamoDbLocal {
        2
    } else {
        1
    };
    assert_eq!(
        reply["Responses"][&table],
        json!(vec![found; copies]),
        "[{:?}]",
        t.target()
    );
    let duplicates = "Provided list of item keys contains duplicates";
    for spellings in [&["1000", "1000"][..], &["1e3", "1000", "1e3"]] {
        expect(
            &t,
            send(&t, "BatchGetItem", get(spellings)).await,
            duplicates,
            Some(duplicates),
        );
    }
});
