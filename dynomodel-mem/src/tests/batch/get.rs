//! BatchGetItem: results, projections and every validation rule (the 16 MB cut is in `limit.rs`).

use dynomodel::backend::KeysAndAttributes;
use dynomodel::{Error, Item};

use super::super::{assert_validation, empty_key, names, ss, INVALID, MISMATCH};
use super::{
    found, get, h, item, keys, n, put, r, s, two_tables, write, MemBackend, DUPLICATES, MAP_KEYS,
};

/// `hash`: a, b (with attributes); `range`: (a, 1), (a, 2).
async fn seeded() -> MemBackend {
    let b = two_tables().await;
    let mut a = h("a");
    a.insert("x".into(), s("1"));
    a.insert(
        "m".into(),
        dynomodel::AttributeValue::M(item(&[("y", s("2")), ("z", s("3"))])),
    );
    write(
        &b,
        vec![
            ("hash", vec![put(a), put(h("b"))]),
            ("range", vec![put(r("a", 1)), put(r("a", 2))]),
        ],
    )
    .await
    .unwrap();
    b
}

fn with_projection(k: Vec<Item>, projection: &str) -> KeysAndAttributes {
    KeysAndAttributes {
        keys: k,
        projection_expression: Some(projection.into()),
        ..Default::default()
    }
}

#[tokio::test]
async fn found_items_per_table_and_missing_keys_absent() {
    let b = seeded().await;
    let out = get(
        &b,
        vec![
            ("hash", keys(vec![h("b"), h("nope")])),
            (
                "range",
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
    assert_eq!(found(&out, "hash"), vec![h("b")]);
    assert_eq!(found(&out, "range"), vec![r("a", 1), r("a", 2)]);
    assert!(out.unprocessed_keys.is_empty());
    // A table none of whose keys has an item is in the response, with an empty list.
    let out = get(
        &b,
        vec![
            ("hash", keys(vec![h("nope")])),
            ("range", keys(vec![r("a", 1)])),
        ],
    )
    .await
    .unwrap();
    assert_eq!(out.responses.get("hash"), Some(&vec![]));
    assert_eq!(out.responses.len(), 2);
}

#[tokio::test]
async fn projections_per_table() {
    let b = seeded().await;
    let out = get(
        &b,
        vec![
            (
                "hash",
                KeysAndAttributes {
                    attributes_to_get: None,
                    keys: vec![h("a"), h("b")],
                    projection_expression: Some("#m.z, x".into()),
                    expression_attribute_names: names(&[("#m", "m")]),
                    consistent_read: Some(false),
                },
            ),
            ("range", keys(vec![r("a", 1)])),
        ],
    )
    .await
    .unwrap();
    // The item without any projected attribute comes back empty; the key is not added.
    let projected = item(&[
        ("m", dynomodel::AttributeValue::M(item(&[("z", s("3"))]))),
        ("x", s("1")),
    ]);
    assert_eq!(found(&out, "hash"), vec![projected, Item::new()]);
    assert_eq!(found(&out, "range"), vec![r("a", 1)]);
}

#[tokio::test]
async fn request_constraints_in_the_smithy_form() {
    let b = two_tables().await;
    assert_validation(
        get(&b, vec![]).await,
        "The requestItems parameter is required for BatchGetItem",
    );
    // The value is echoed as the request's JSON (captured from the live service).
    assert_validation(
        get(&b, vec![("bad!name", keys(vec![h("a")]))]).await,
        &format!(
            r#"1 validation error detected: Value '{{"bad!name":{{"Keys":[{{"pk":{{"S":"a"}}}}]}}}}' at 'requestItems' failed to satisfy constraint: {MAP_KEYS}"#
        ),
    );
    assert_validation(
        get(&b, vec![("hash", keys(vec![]))]).await,
        "1 validation error detected: Value '[]' at 'requestItems.hash.member.keys' failed to satisfy \
         constraint: Member must have length greater than or equal to 1",
    );
    let many: Vec<Item> = (0..101).map(|i| h(&i.to_string())).collect();
    let echo: Vec<String> = (0..101)
        .map(|i| format!(r#"{{"pk":{{"S":"{i}"}}}}"#))
        .collect();
    assert_validation(
        get(&b, vec![("hash", keys(many.clone()))]).await,
        "1 validation error detected: Value at 'RequestItems.hash.member.Keys' failed to satisfy \
         constraint: Member must have length less than or equal to 100",
    );
    // Several at once, the map's first, then each table's in name order.
    assert_validation(
        get(&b, vec![("a", keys(vec![])), ("hash", keys(many))]).await,
        &format!(
            r#"3 validation errors detected: Value '{{"a":{{"Keys":[]}},"hash":{{"Keys":[{e}]}}}}' at 'requestItems' failed to satisfy constraint: {MAP_KEYS}; Value '[]' at 'requestItems.a.member.keys' failed to satisfy constraint: Member must have length greater than or equal to 1; Value at 'RequestItems.hash.member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100"#,
            e = echo.join(",")
        ),
    );
    let tables: Vec<String> = (0..101).map(|i| format!("t{i:03}")).collect();
    let result = get(
        &b,
        tables
            .iter()
            .map(|t| (t.as_str(), keys(vec![h("a")])))
            .collect(),
    )
    .await;
    let echo: Vec<String> = tables
        .iter()
        .map(|t| format!(r#""{t}":{{"Keys":[{{"pk":{{"S":"a"}}}}]}}"#))
        .collect();
    assert_validation(
        result,
        &format!(
            "1 validation error detected: Value '{{{}}}' at 'requestItems' failed to satisfy \
             constraint: Member must have length less than or equal to 100",
            echo.join(",")
        ),
    );
}

#[tokio::test]
async fn at_most_100_keys_across_tables() {
    let b = seeded().await;
    let hashes = |n: usize| (0..n).map(|i| h(&i.to_string())).collect::<Vec<_>>();
    let ranges = |n: usize| (0..n).map(|i| r("a", i as i64)).collect::<Vec<_>>();
    let out = get(&b, vec![("hash", keys(hashes(100)))]).await.unwrap();
    assert!(out.unprocessed_keys.is_empty());
    let out = get(
        &b,
        vec![("hash", keys(hashes(50))), ("range", keys(ranges(50)))],
    )
    .await
    .unwrap();
    assert_eq!(found(&out, "range"), vec![r("a", 1), r("a", 2)]);
    for (a, b_) in [(100, 1), (51, 50)] {
        assert_validation(
            get(
                &b,
                vec![("hash", keys(hashes(a))), ("range", keys(ranges(b_)))],
            )
            .await,
            "Too many items requested for the BatchGetItem call",
        );
    }
}

#[tokio::test]
async fn duplicates_and_attribute_values_before_the_table() {
    let b = seeded().await;
    for table in ["hash", "missing"] {
        assert_validation(
            get(&b, vec![(table, keys(vec![h("a"), h("b"), h("a")]))]).await,
            DUPLICATES,
        );
        assert_validation(
            get(&b, vec![(table, keys(vec![item(&[("pk", ss(&[]))])]))]).await,
            &format!("{INVALID}An string set  may not be empty"),
        );
    }
    // Numbers compare by value.
    assert_validation(
        get(
            &b,
            vec![(
                "range",
                keys(vec![r("a", 1), item(&[("pk", s("a")), ("sk", n("1.0"))])]),
            )],
        )
        .await,
        DUPLICATES,
    );
    // The same key in two tables is fine.
    get(
        &b,
        vec![
            ("hash", keys(vec![h("a")])),
            ("range", keys(vec![r("a", 1)])),
        ],
    )
    .await
    .unwrap();
    // Attribute values, then duplicates, before the limit of 100 keys (101 keys here).
    let mut hashes: Vec<Item> = (0..50).map(|i| h(&i.to_string())).collect();
    hashes.push(h("0"));
    let ranges: Vec<Item> = (0..50).map(|i| r("b", i)).collect();
    assert_validation(
        get(
            &b,
            vec![
                ("hash", keys(hashes.clone())),
                ("range", keys(ranges.clone())),
            ],
        )
        .await,
        DUPLICATES,
    );
    hashes.push(item(&[("pk", ss(&[]))]));
    assert_validation(
        get(&b, vec![("hash", keys(hashes)), ("range", keys(ranges))]).await,
        &format!("{INVALID}An string set  may not be empty"),
    );
}

#[tokio::test]
async fn keys_against_the_key_schema() {
    let b = seeded().await;
    let cases: Vec<(&str, Item, String)> = vec![
        ("hash", Item::new(), MISMATCH.into()),
        ("hash", item(&[("x", s("a"))]), MISMATCH.into()),
        (
            "hash",
            item(&[("pk", s("a")), ("x", s("b"))]),
            MISMATCH.into(),
        ),
        ("hash", item(&[("pk", n("1"))]), MISMATCH.into()),
        ("range", h("a"), MISMATCH.into()),
        (
            "hash",
            h(&"k".repeat(2049)),
            format!("{INVALID}Size of hashkey has exceeded the maximum size limit of2048 bytes"),
        ),
        (
            "range",
            item(&[("pk", s("a")), ("sk", n("1")), ("sk2", s("x"))]),
            MISMATCH.into(),
        ),
        ("hash", h(""), empty_key("pk")),
    ];
    for (table, key, message) in cases {
        let valid = if table == "hash" { h("a") } else { r("a", 1) };
        assert_validation(
            get(&b, vec![(table, keys(vec![valid, key]))]).await,
            &message,
        );
    }
}

#[tokio::test]
async fn tables_are_checked_one_by_one_in_name_order() {
    let b = seeded().await;
    let bad = || keys(vec![item(&[("pk", n("1"))])]);
    // A missing table that sorts before the bad key wins; one that sorts after does not.
    let result = get(
        &b,
        vec![("aaa-missing", keys(vec![h("a")])), ("hash", bad())],
    )
    .await;
    assert_eq!(
        result.unwrap_err(),
        Error::resource_not_found("Requested resource not found")
    );
    let result = get(
        &b,
        vec![("hash", bad()), ("zzz-missing", keys(vec![h("a")]))],
    )
    .await;
    assert_validation(result, MISMATCH);
    // With every table present, the first table (by name) with a bad key.
    let result = get(
        &b,
        vec![("hash", keys(vec![h("a")])), ("range", keys(vec![h("x")]))],
    )
    .await;
    assert_validation(result, MISMATCH);
    let result = get(
        &b,
        vec![("hash", keys(vec![h("")])), ("range", keys(vec![h("x")]))],
    )
    .await;
    assert_validation(result, &empty_key("pk"));
}

#[tokio::test]
async fn projection_expressions_are_validated_as_in_get_item() {
    let b = seeded().await;
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
                keys: vec![h("a")],
                projection_expression: Some("x".into()),
                expression_attribute_names: names(&[("#x", "x")]),
                ..Default::default()
            },
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {#x}",
        ),
        (
            with_projection(vec![h("a")], "name"),
            "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: name",
        ),
        (
            with_projection(vec![h("a")], "a, a"),
            "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or \
             rewrite one of these paths; path one: [a], path two: [a]",
        ),
        (
            with_projection(vec![h("a")], "pk.x"),
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not \
             allowed: Key: pk",
        ),
        (
            with_projection(vec![h("a")], ""),
            "Invalid ProjectionExpression: The expression can not be empty;",
        ),
    ];
    for (ka, message) in cases {
        // One bad table fails the whole request, whatever the other holds.
        let result = get(
            &b,
            vec![
                ("hash", ka),
                ("range", with_projection(vec![r("a", 1)], "sk")),
            ],
        )
        .await;
        assert_validation(result, message);
    }
    // A projection on a missing table: the expression first.
    assert_validation(
        get(&b, vec![("missing", with_projection(vec![h("a")], "a, a"))]).await,
        "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or \
         rewrite one of these paths; path one: [a], path two: [a]",
    );
}
