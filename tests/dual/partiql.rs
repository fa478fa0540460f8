//! PartiQL's ExecuteStatement on the engine, DynamoDB Local and the engine's server:
//! every statement form, `?` parameters, nested paths, `Limit`/`NextToken`, indexes,
//! `ReturnValuesOnConditionCheckFailure`, `RETURNING`, consumed capacity. Batches and transactions are
//! in `partiql_multi.rs`, the errors in `partiql_errors.rs`.

use dynomodel::backend::*;
use dynomodel::*;

use super::*;

/// Runs one statement; its items.
pub(crate) async fn exec(
    t: &Dual,
    statement: &str,
    params: &[AttributeValue],
) -> Result<Vec<Item>> {
    t.backend()
        .execute_statement(ExecuteStatementInput {
            statement: statement.to_owned(),
            parameters: (!params.is_empty()).then(|| params.to_vec()),
            ..Default::default()
        })
        .await
        .map(|o| o.items.unwrap_or_default())
}

/// A table `pk` (S) + `sk` (N) with a GSI `by-g` on `g` (S), all attributes projected.
pub(crate) async fn table(t: &Dual) -> String {
    let name = t.table_name("pq");
    t.backend()
        .create_table(CreateTableInput {
            table_name: name.clone(),
            attribute_definitions: vec![
                AttributeDefinition {
                    attribute_name: "pk".into(),
                    attribute_type: S,
                },
                AttributeDefinition {
                    attribute_name: "sk".into(),
                    attribute_type: N,
                },
                AttributeDefinition {
                    attribute_name: "g".into(),
                    attribute_type: S,
                },
            ],
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
            billing_mode: Some(BillingMode::PayPerRequest),
            global_secondary_indexes: vec![GlobalSecondaryIndex {
                index_name: "by-g".into(),
                key_schema: vec![KeySchemaElement::hash("g")],
                projection: Projection {
                    projection_type: ProjectionType::All,
                    non_key_attributes: vec![],
                },
                provisioned_throughput: None,
            }],
            ..Default::default()
        })
        .await
        .unwrap();
    name
}

/// The `pk`/`sk` pairs of `items`, sorted (Scan order differs between backends).
fn keys(items: &[Item]) -> Vec<(String, String)> {
    let text = |v: Option<&AttributeValue>| match v {
        Some(AttributeValue::S(s)) => s.clone(),
        Some(AttributeValue::N(n)) => n.to_string(),
        other => format!("{other:?}"),
    };
    let mut keys: Vec<_> = items
        .iter()
        .map(|i| (text(i.get("pk")), text(i.get("sk"))))
        .collect();
    keys.sort();
    keys
}

dual_test!(partiql_insert_select_update_delete, |t| {
    let tb = table(&t).await;
    let insert = format!("INSERT INTO \"{tb}\" VALUE {{'pk': ?, 'sk': ?, 'x': {{'y': [1, 2]}}, 'ss': <<'a', 'b'>>, 'b': true, 'n': null}}");
    assert_eq!(
        exec(&t, &insert, &[s("a"), num("1")]).await.unwrap(),
        vec![]
    );
    // KNOWN DIFFERENCE: DynamoDB Local sends the error type `DuplicateItem`; the API reference names it
    // `DuplicateItemException`.
    let e = exec(&t, &insert, &[s("a"), num("1")]).await.unwrap_err();
    let code = match t.target() {
        Target::DynamoDbLocal => "DuplicateItem",
        _ => "DuplicateItemException",
    };
    assert_eq!(
        (e.code(), e.message().as_str()),
        (code, "Duplicate primary key exists in table")
    );
    let all = exec(
        &t,
        &format!("SELECT * FROM \"{tb}\" WHERE pk = ?"),
        &[s("a")],
    )
    .await
    .unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(
        all[0].get("ss"),
        Some(&AttributeValue::Ss(vec!["a".into(), "b".into()]))
    );
    assert_eq!(all[0].get("n"), Some(&AttributeValue::Null));
    assert_eq!(all[0].get("b"), Some(&AttributeValue::Bool(true)));
    // Nested paths are named by their last step.
    let projected = exec(
        &t,
        &format!("SELECT x.y[1], pk FROM \"{tb}\" WHERE pk = 'a'"),
        &[],
    )
    .await
    .unwrap();
    assert_eq!(projected, vec![item([("y[1]", num("2")), ("pk", s("a"))])]);

    let update =
        format!("UPDATE \"{tb}\" SET z = ?, x.y[0] = 9 REMOVE b WHERE pk = 'a' AND sk = 1");
    assert_eq!(exec(&t, &update, &[s("q")]).await.unwrap(), vec![]);
    let got = exec(
        &t,
        &format!("SELECT * FROM \"{tb}\" WHERE pk = 'a' AND sk = 1"),
        &[],
    )
    .await
    .unwrap();
    assert_eq!(got[0].get("z"), Some(&s("q")));
    assert_eq!(got[0].get("b"), None);
    assert_eq!(
        got[0].get("x"),
        Some(&AttributeValue::M(
            [("y".to_owned(), AttributeValue::L(vec![num("9"), num("2")]))].into()
        ))
    );
    // UPDATE needs the item to exist.
    t.expect_error(
        exec(
            &t,
            &format!("UPDATE \"{tb}\" SET z = 1 WHERE pk = 'nope' AND sk = 1"),
            &[],
        )
        .await,
        "ConditionalCheckFailedException",
        "The conditional request failed",
    );
    // DELETE of a missing item succeeds, whatever its conditions; of an existing one, only if they hold.
    for statement in [
        format!("DELETE FROM \"{tb}\" WHERE pk = 'nope' AND sk = 1"),
        format!("DELETE FROM \"{tb}\" WHERE pk = 'nope' AND sk = 1 AND z = 'q'"),
    ] {
        exec(&t, &statement, &[]).await.unwrap();
    }
    t.expect_error(
        exec(
            &t,
            &format!("DELETE FROM \"{tb}\" WHERE pk = 'a' AND sk = 1 AND z = 'other'"),
            &[],
        )
        .await,
        "ConditionalCheckFailedException",
        "The conditional request failed",
    );
    exec(
        &t,
        &format!("DELETE FROM \"{tb}\" WHERE pk = ? AND sk = ?"),
        &[s("a"), num("1")],
    )
    .await
    .unwrap();
    assert_eq!(
        exec(&t, &format!("SELECT * FROM \"{tb}\""), &[])
            .await
            .unwrap(),
        vec![]
    );
});

dual_test!(partiql_where_forms, |t| {
    let tb = table(&t).await;
    for (pk, sk, extra) in [
        ("a", 1, "'tag': 'red', 'l': [1, 2], 'g': 'x'"),
        ("a", 2, "'tag': 'blue', 'g': 'x'"),
        ("a", 3, "'tag': 'rose'"),
        ("b", 1, "'tag': 'red', 'l': [3]"),
        ("b", 2, "'n': 5"),
    ] {
        exec(
            &t,
            &format!("INSERT INTO \"{tb}\" VALUE {{'pk': '{pk}', 'sk': {sk}, {extra}}}"),
            &[],
        )
        .await
        .unwrap();
    }
    let cases: [(&str, &[(&str, &str)]); 14] = [
        ("pk = 'a'", &[("a", "1"), ("a", "2"), ("a", "3")]),
        ("pk = 'a' AND sk > 1", &[("a", "2"), ("a", "3")]),
        ("pk = 'a' AND 2 >= sk", &[("a", "1"), ("a", "2")]),
        (
            "pk = 'a' AND sk BETWEEN 2 AND 3 AND tag <> 'rose'",
            &[("a", "2")],
        ),
        ("sk IN [1, 3]", &[("a", "1"), ("a", "3"), ("b", "1")]),
        (
            "begins_with(tag, 'r')",
            &[("a", "1"), ("a", "3"), ("b", "1")],
        ),
        ("contains(l, 3)", &[("b", "1")]),
        ("attribute_type(n, 'N')", &[("b", "2")]),
        ("tag IS MISSING", &[("b", "2")]),
        ("l IS NOT MISSING AND NOT pk = 'a'", &[("b", "1")]),
        ("size(l) = 2", &[("a", "1")]),
        (
            "pk = 'b' OR tag = 'blue'",
            &[("a", "2"), ("b", "1"), ("b", "2")],
        ),
        (
            "(pk = 'a' AND sk = 3) OR (pk = 'b' AND sk = 2)",
            &[("a", "3"), ("b", "2")],
        ),
        (
            "pk = 'a' AND begins_with(tag, 'r') AND sk < 3",
            &[("a", "1")],
        ),
    ];
    for (condition, want) in cases {
        let got = exec(
            &t,
            &format!("SELECT * FROM \"{tb}\" WHERE {condition}"),
            &[],
        )
        .await
        .unwrap();
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
            .collect();
        // KNOWN DIFFERENCE: DynamoDB Local reads `2 >= sk` as `sk >= 2` (it does not swap the operands).
        if t.target() == Target::DynamoDbLocal && condition == "pk = 'a' AND 2 >= sk" {
            assert_eq!(
                keys(&got),
                vec![("a".into(), "2".into()), ("a".into(), "3".into())]
            );
            continue;
        }
        assert_eq!(keys(&got), want, "[{:?}] {condition}", t.target());
    }
    // An index: FROM "table"."index".
    let got = exec(
        &t,
        &format!("SELECT pk, sk FROM \"{tb}\".\"by-g\" WHERE g = 'x'"),
        &[],
    )
    .await
    .unwrap();
    assert_eq!(
        keys(&got),
        vec![("a".into(), "1".into()), ("a".into(), "2".into())]
    );
});

dual_test!(partiql_limit_next_token_and_consistent_read, |t| {
    let tb = table(&t).await;
    for sk in 0..7 {
        exec(
            &t,
            &format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'p', 'sk': ?}}"),
            &[num(&sk.to_string())],
        )
        .await
        .unwrap();
    }
    for statement in [
        format!("SELECT * FROM \"{tb}\" WHERE pk = 'p'"),
        format!("SELECT * FROM \"{tb}\""),
    ] {
        let mut token = None;
        let mut seen = Vec::new();
        let mut pages = 0;
        loop {
            let out = t
                .backend()
                .execute_statement(ExecuteStatementInput {
                    statement: statement.clone(),
                    limit: Some(3),
                    next_token: token.clone(),
                    consistent_read: Some(true),
                    ..Default::default()
                })
                .await
                .unwrap();
            pages += 1;
            seen.extend(out.items.unwrap_or_default());
            token = out.next_token;
            if token.is_none() || pages > 10 {
                break;
            }
        }
        assert_eq!(seen.len(), 7, "{statement}");
        assert!((3..=4).contains(&pages), "{statement}: {pages} pages");
    }
});

dual_test!(partiql_return_values_on_condition_check_failure, |t| {
    let tb = table(&t).await;
    exec(
        &t,
        &format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'a', 'sk': 1, 'v': 1}}"),
        &[],
    )
    .await
    .unwrap();
    for statement in [
        format!("UPDATE \"{tb}\" SET v = 2 WHERE pk = 'a' AND sk = 1 AND v = 7"),
        format!("DELETE FROM \"{tb}\" WHERE pk = 'a' AND sk = 1 AND v = 7"),
    ] {
        let failed = t
            .backend()
            .execute_statement(ExecuteStatementInput {
                statement,
                return_values_on_condition_check_failure: Some(
                    ReturnValuesOnConditionCheckFailure::AllOld,
                ),
                ..Default::default()
            })
            .await;
        let Err(Error::ConditionalCheckFailed {
            item: Some(old), ..
        }) = failed
        else {
            panic!("[{:?}] {failed:?}", t.target());
        };
        assert_eq!(old.get("v"), Some(&num("1")));
    }
});

dual_test!(partiql_update_forms, |t| {
    let tb = table(&t).await;
    exec(
        &t,
        &format!(
            "INSERT INTO \"{tb}\" VALUE {{'pk': 'a', 'sk': 1, 'n': 5, 'l': [1], 's': <<'x'>>}}"
        ),
        &[],
    )
    .await
    .unwrap();
    // Several SET clauses, arithmetic, list_append, set_add / set_delete.
    exec(
        &t,
        &format!("UPDATE \"{tb}\" SET n = n + 1 SET m = 'q', l = list_append(l, [2]) SET s = set_add(s, <<'y'>>) WHERE pk = 'a' AND sk = 1"),
        &[],
    )
    .await
    .unwrap();
    let got = exec(
        &t,
        &format!("SELECT n, m, l, s FROM \"{tb}\" WHERE pk = 'a' AND sk = 1"),
        &[],
    )
    .await
    .unwrap();
    assert_eq!(
        got,
        vec![item([
            ("n", num("6")),
            ("m", s("q")),
            ("l", AttributeValue::L(vec![num("1"), num("2")])),
            ("s", AttributeValue::Ss(vec!["x".into(), "y".into()])),
        ])]
    );
    exec(&t, &format!("UPDATE \"{tb}\" SET s = set_delete(s, <<'x'>>) REMOVE l[0] REMOVE m WHERE pk = 'a' AND sk = 1"), &[])
        .await
        .unwrap();
    let got = exec(
        &t,
        &format!("SELECT * FROM \"{tb}\" WHERE pk = 'a' AND sk = 1"),
        &[],
    )
    .await
    .unwrap();
    assert_eq!(got[0].get("s"), Some(&AttributeValue::Ss(vec!["y".into()])));
    assert_eq!(got[0].get("l"), Some(&AttributeValue::L(vec![num("2")])));
    assert_eq!(got[0].get("m"), None);
    // REMOVE takes one path.
    let e = exec(
        &t,
        &format!("UPDATE \"{tb}\" REMOVE l, m WHERE pk = 'a' AND sk = 1"),
        &[],
    )
    .await
    .unwrap_err();
    assert!(
        e.message()
            .starts_with("Statement wasn't well formed, can't be processed: "),
        "{e:?}"
    );
    // The key cannot be updated (UpdateItem's rule and text).
    t.expect_error(
        exec(&t, &format!("UPDATE \"{tb}\" SET sk = 2 WHERE pk = 'a' AND sk = 1"), &[]).await,
        "ValidationException",
        "One or more parameter values were invalid: Cannot update attribute sk. This attribute is part of the key",
    );
    // `pk IN […]` reads several partitions.
    exec(
        &t,
        &format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'b', 'sk': 1}}"),
        &[],
    )
    .await
    .unwrap();
    let got = exec(
        &t,
        &format!("SELECT * FROM \"{tb}\" WHERE pk IN ['a', 'b']"),
        &[],
    )
    .await
    .unwrap();
    assert_eq!(
        keys(&got),
        vec![("a".into(), "1".into()), ("b".into(), "1".into())]
    );
});

dual_test!(partiql_consumed_capacity, |t| {
    let tb = table(&t).await;
    let run = |statement: String| ExecuteStatementInput {
        statement,
        return_consumed_capacity: Some(ReturnConsumedCapacity::Total),
        ..Default::default()
    };
    let write = t
        .backend()
        .execute_statement(run(format!(
            "INSERT INTO \"{tb}\" VALUE {{'pk': 'a', 'sk': 1}}"
        )))
        .await
        .unwrap();
    let read = t
        .backend()
        .execute_statement(run(format!("SELECT * FROM \"{tb}\" WHERE pk = 'a'")))
        .await
        .unwrap();
    // KNOWN DIFFERENCE: DynamoDB Local reports no ConsumedCapacity for PartiQL; the API reference lists
    // it in ExecuteStatement's response, and the engine reports what the underlying operation consumed.
    let units = |c: &Option<ConsumedCapacity>| c.as_ref().and_then(|c| c.capacity_units);
    match t.target() {
        Target::DynamoDbLocal => {
            assert_eq!(
                (
                    units(&write.consumed_capacity),
                    units(&read.consumed_capacity)
                ),
                (None, None)
            );
        }
        _ => {
            // A put of a small item is 1 WCU (plus the GSI: the item has no `g`, so nothing there); an
            // eventually consistent query of one small item 0.5 RCU.
            assert_eq!(
                (
                    units(&write.consumed_capacity),
                    units(&read.consumed_capacity)
                ),
                (Some(1.0), Some(0.5))
            );
        }
    }
});

dual_test!(partiql_returning, |t| {
    let tb = table(&t).await;
    exec(
        &t,
        &format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'a', 'sk': 1, 'n': 1, 'o': 'x'}}"),
        &[],
    )
    .await
    .unwrap();
    let whole = |n: &str| {
        item([
            ("pk", s("a")),
            ("sk", num("1")),
            ("n", num(n)),
            ("o", s("x")),
        ])
    };
    let update = |n: u8, returning: &str| {
        format!("UPDATE \"{tb}\" SET n = {n} WHERE pk = 'a' AND sk = 1 RETURNING {returning}")
    };
    assert_eq!(
        exec(&t, &update(2, "ALL OLD *"), &[]).await.unwrap(),
        vec![whole("1")]
    );
    assert_eq!(
        exec(&t, &update(3, "MODIFIED NEW *"), &[]).await.unwrap(),
        vec![item([("n", num("3"))])]
    );
    assert_eq!(
        exec(&t, &update(4, "ALL NEW *"), &[]).await.unwrap(),
        vec![whole("4")]
    );
    assert_eq!(
        exec(&t, &update(5, "MODIFIED OLD *"), &[]).await.unwrap(),
        vec![item([("n", num("4"))])]
    );
    t.expect_error(
        exec(&t, &format!("DELETE FROM \"{tb}\" WHERE pk = 'a' AND sk = 1 RETURNING ALL NEW *"), &[]).await,
        "ValidationException",
        "Invalid returning clause: RETURNING ALL NEW *. Only RETURNING ALL OLD * is allowed in DELETE statements.",
    );
    t.expect_error(
        exec(
            &t,
            &format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'b', 'sk': 1}} RETURNING ALL OLD *"),
            &[],
        )
        .await,
        "ValidationException",
        "RETURNING is not supported in INSERT",
    );
    let deleted = format!("DELETE FROM \"{tb}\" WHERE pk = 'a' AND sk = 1 RETURNING ALL OLD *");
    assert_eq!(exec(&t, &deleted, &[]).await.unwrap(), vec![whole("5")]);
    // Nothing to return: no item.
    assert_eq!(exec(&t, &deleted, &[]).await.unwrap(), vec![]);
});

dual_test!(partiql_nested_projections_and_key_filters, |t| {
    let tb = table(&t).await;
    exec(
        &t,
        &format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'a', 'sk': 1, 'n': 1, 'l': [1, 2, {{'m': 3}}], 'm': {{'k': 'v', 'z': [5]}}}}"),
        &[],
    )
    .await
    .unwrap();
    exec(
        &t,
        &format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'a', 'sk': 2}}"),
        &[],
    )
    .await
    .unwrap();
    // PartiQL unwraps the top-level attribute of a nested path one level.
    let cases = [
        ("m.k", item([("k", s("v"))])),
        ("m.z[0], n", item([("z[0]", num("5")), ("n", num("1"))])),
        ("m.z", item([("z", AttributeValue::L(vec![num("5")]))])),
        (
            "l[2].m, l[0]",
            item([
                (
                    "l[2]",
                    AttributeValue::M([("m".to_owned(), num("3"))].into()),
                ),
                ("l[0]", num("1")),
            ]),
        ),
        ("m.nope", item([])),
    ];
    for (projection, want) in cases {
        let got = exec(
            &t,
            &format!("SELECT {projection} FROM \"{tb}\" WHERE pk = 'a' AND sk = 1"),
            &[],
        )
        .await
        .unwrap();
        assert_eq!(got, vec![want], "[{:?}] {projection}", t.target());
    }
    // Key attributes may appear in the WHERE beyond the key condition (a Query's filter may not
    // name them; the statement is planned as a Scan then).
    for (condition, want) in [
        ("pk = 'a' AND size(sk) > 2", vec![]),
        (
            "pk = 'a' AND sk > 0 AND pk <> 'b'",
            vec![("a".to_owned(), "1".to_owned()), ("a".into(), "2".into())],
        ),
        (
            "pk = 'a' AND (sk = 2 OR n = 1)",
            vec![("a".into(), "1".into()), ("a".into(), "2".into())],
        ),
    ] {
        let got = exec(
            &t,
            &format!("SELECT * FROM \"{tb}\" WHERE {condition}"),
            &[],
        )
        .await
        .unwrap();
        assert_eq!(keys(&got), want, "[{:?}] {condition}", t.target());
    }
});
