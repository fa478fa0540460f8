//! The legacy parameters (`Expected`, `ConditionalOperator`, `AttributeUpdates`,
//! `AttributesToGet`, `KeyConditions`, `QueryFilter`, `ScanFilter`) mean what DynamoDB makes of them, on
//! the engine, DynamoDB Local and the server. Their errors are in `legacy_errors.rs`.

use dynomodel::backend::*;
use dynomodel::*;

use super::requests::*;
use super::*;

/// The operands of a comparison.
pub(crate) fn args<const LEN: usize>(values: [AttributeValue; LEN]) -> Option<Vec<AttributeValue>> {
    Some(values.to_vec())
}

/// An `Expected` entry comparing with `op`.
pub(crate) fn compare(
    op: ComparisonOperator,
    list: Option<Vec<AttributeValue>>,
) -> ExpectedAttributeValue {
    ExpectedAttributeValue {
        comparison_operator: Some(op),
        attribute_value_list: list,
        ..Default::default()
    }
}

/// A `KeyConditions`/`QueryFilter`/`ScanFilter` entry.
pub(crate) fn cond(op: ComparisonOperator, list: Option<Vec<AttributeValue>>) -> LegacyCondition {
    LegacyCondition {
        comparison_operator: op,
        attribute_value_list: list,
    }
}

/// A map of legacy entries from pairs.
pub(crate) fn entries<T, const LEN: usize>(
    pairs: [(&str, T); LEN],
) -> std::collections::BTreeMap<String, T> {
    pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
}

/// Re-puts item `pk` unchanged under `expected`: whether the conditions held.
pub(crate) async fn holds(
    f: &Fixture,
    pk: &str,
    expected: Expected,
    op: Option<ConditionalOperator>,
) -> Result<bool> {
    let stored = f.get(pk).await.unwrap_or_else(|| Fixture::key(pk));
    let result =
        f.t.backend()
            .put_item(PutItemInput {
                table_name: f.table.clone(),
                item: stored,
                expected: Some(expected),
                conditional_operator: op,
                ..Default::default()
            })
            .await;
    match result {
        Ok(_) => Ok(true),
        Err(Error::ConditionalCheckFailed { .. }) => Ok(false),
        Err(e) => Err(e),
    }
}

fn sample() -> Item {
    item([
        ("pk", s("a")),
        ("n", num("5")),
        ("s", s("hello")),
        ("b", bin(&[1, 2, 3])),
        ("bx", bin(&[60, 190])),
        ("t", AttributeValue::Bool(true)),
        ("ss", ss(["x", "y"])),
        ("ns", ns(["1", "2"])),
        ("l", list([s("x"), num("1")])),
        ("m", map([("k", s("v"))])),
    ])
}

dual_test!(legacy_expected_every_operator, |t| {
    use ComparisonOperator::*;
    let f = Fixture::new(&t, "exp").await;
    f.put(sample()).await;
    let mut c = Checks::new(&t);
    let rows: Vec<(&str, ComparisonOperator, Option<Vec<AttributeValue>>, bool)> = vec![
        ("n", Eq, args([num("5.0")]), true),
        ("n", Eq, args([num("6")]), false),
        ("n", Eq, args([s("5")]), false),
        ("ss", Eq, args([ss(["y", "x"])]), true),
        ("t", Eq, args([AttributeValue::Bool(true)]), true),
        ("n", Ne, args([num("6")]), true),
        ("n", Ne, args([num("5")]), false),
        // A missing attribute is "not equal" to anything.
        ("missing", Ne, args([num("5")]), true),
        ("n", Lt, args([num("6")]), true),
        ("n", Le, args([num("5")]), true),
        ("n", Gt, args([num("5")]), false),
        ("n", Ge, args([num("5")]), true),
        ("s", Lt, args([s("help")]), true),
        ("b", Gt, args([bin(&[1, 2])]), true),
        // Comparing with another type is false, not an error.
        ("s", Lt, args([num("1")]), false),
        ("n", NotNull, None, true),
        ("missing", NotNull, None, false),
        ("n", Null, None, false),
        ("missing", Null, None, true),
        ("missing", Null, Some(Vec::new()), true),
        ("s", Contains, args([s("ell")]), true),
        ("s", Contains, args([s("xyz")]), false),
        ("ss", Contains, args([s("x")]), true),
        ("ns", Contains, args([num("2")]), true),
        ("ns", Contains, args([num("3")]), false),
        ("l", Contains, args([s("x")]), true),
        ("b", Contains, args([bin(&[2])]), true),
        ("missing", Contains, args([s("x")]), false),
        ("s", NotContains, args([s("xyz")]), true),
        ("s", NotContains, args([s("ell")]), false),
        ("ss", NotContains, args([s("z")]), true),
        // NOT_CONTAINS needs the attribute (DynamoDB Local; `NOT contains()` alone would hold).
        ("missing", NotContains, args([s("x")]), false),
        ("s", BeginsWith, args([s("he")]), true),
        ("s", BeginsWith, args([s("el")]), false),
        ("b", BeginsWith, args([bin(&[1])]), true),
        ("n", In, args([num("1"), num("5")]), true),
        ("n", In, args([num("1")]), false),
        ("s", In, args([s("hello")]), true),
        ("n", Between, args([num("1"), num("5")]), true),
        ("n", Between, args([num("6"), num("9")]), false),
        ("s", Between, args([s("a"), s("z")]), true),
    ];
    // KNOWN DIFFERENCE: DynamoDB Local's legacy CONTAINS finds [255] in [60, 190] (bytes that are not
    // UTF-8 seem to be compared as decoded text); bytes are compared as `contains()` does.
    let local = t.target() == Target::DynamoDbLocal;
    let mut rows = rows;
    rows.push(("bx", Contains, args([bin(&[255])]), local));
    rows.push(("bx", Contains, args([bin(&[190])]), true));
    for (name, op, list, want) in rows {
        let got = holds(&f, "a", entries([(name, compare(op, list.clone()))]), None).await;
        c.eq(&format!("{name} {op:?} {list:?}"), got, Ok(want));
    }
    // `Value` with a ComparisonOperator is its one operand.
    let with_value = ExpectedAttributeValue {
        value: Some(num("4")),
        comparison_operator: Some(Gt),
        ..Default::default()
    };
    c.eq(
        "Value with GT",
        holds(&f, "a", entries([("n", with_value)]), None).await,
        Ok(true),
    );
    c.finish();
});

dual_test!(legacy_expected_exists_and_conditional_operator, |t| {
    let f = Fixture::new(&t, "exists").await;
    f.put(sample()).await;
    let mut c = Checks::new(&t);
    let value = |v: AttributeValue, exists: Option<bool>| ExpectedAttributeValue {
        value: Some(v),
        exists,
        ..Default::default()
    };
    let absent = ExpectedAttributeValue {
        exists: Some(false),
        ..Default::default()
    };
    c.eq(
        "Value, Exists null",
        holds(&f, "a", entries([("n", value(num("5"), None))]), None).await,
        Ok(true),
    );
    c.eq(
        "Value, Exists true",
        holds(&f, "a", entries([("n", value(num("5"), Some(true)))]), None).await,
        Ok(true),
    );
    c.eq(
        "wrong Value",
        holds(&f, "a", entries([("n", value(num("4"), Some(true)))]), None).await,
        Ok(false),
    );
    c.eq(
        "Exists false on a missing attribute",
        holds(&f, "a", entries([("missing", absent.clone())]), None).await,
        Ok(true),
    );
    c.eq(
        "Exists false on a present attribute",
        holds(&f, "a", entries([("n", absent.clone())]), None).await,
        Ok(false),
    );
    c.eq(
        "Exists false on a missing item",
        holds(&f, "nobody", entries([("pk", absent.clone())]), None).await,
        Ok(true),
    );
    c.eq(
        "an empty Expected",
        holds(&f, "a", Expected::new(), None).await,
        Ok(true),
    );
    let one_true_one_false =
        || entries([("n", value(num("4"), None)), ("s", value(s("hello"), None))]);
    c.eq(
        "AND (the default)",
        holds(&f, "a", one_true_one_false(), None).await,
        Ok(false),
    );
    c.eq(
        "AND",
        holds(
            &f,
            "a",
            one_true_one_false(),
            Some(ConditionalOperator::And),
        )
        .await,
        Ok(false),
    );
    c.eq(
        "OR",
        holds(&f, "a", one_true_one_false(), Some(ConditionalOperator::Or)).await,
        Ok(true),
    );
    // DeleteItem takes Expected too.
    let delete = |expected: Expected| DeleteItemInput {
        table_name: f.table.clone(),
        key: Fixture::key("a"),
        expected: Some(expected),
        return_values: Some(ReturnValue::AllOld),
        ..Default::default()
    };
    let refused = t
        .backend()
        .delete_item(delete(entries([("n", absent.clone())])))
        .await;
    c.error(
        "DeleteItem, Expected fails",
        refused,
        "ConditionalCheckFailedException",
        "The conditional request failed",
    );
    let deleted = t
        .backend()
        .delete_item(delete(entries([("n", value(num("5"), None))])))
        .await
        .map(|o| o.attributes);
    c.eq("DeleteItem, Expected holds", deleted, Ok(Some(sample())));
    c.finish();
});

/// UpdateItem with `updates` on item `pk`, returning the item after it.
async fn update(f: &Fixture, pk: &str, updates: AttributeUpdates) -> Result<Item> {
    let out =
        f.t.backend()
            .update_item(UpdateItemInput {
                table_name: f.table.clone(),
                key: Fixture::key(pk),
                attribute_updates: Some(updates),
                return_values: Some(ReturnValue::AllNew),
                ..Default::default()
            })
            .await?;
    Ok(out.attributes.unwrap_or_default())
}

fn action(action: Option<AttributeAction>, value: Option<AttributeValue>) -> AttributeValueUpdate {
    AttributeValueUpdate { value, action }
}

dual_test!(legacy_attribute_updates, |t| {
    use AttributeAction::*;
    let f = Fixture::new(&t, "upd").await;
    f.put(sample()).await;
    let mut c = Checks::new(&t);
    let got = update(
        &f,
        "a",
        entries([
            ("n", action(Some(Add), Some(num("2.5")))),
            ("ss", action(Some(Add), Some(ss(["z"])))),
            ("ns", action(Some(Delete), Some(ns(["1", "9"])))),
            ("l", action(Some(Add), Some(list([s("end")])))),
            ("s", action(Some(Put), Some(s("bye")))),
            ("t", action(Some(Delete), None)),
            ("counter", action(Some(Add), Some(num("3")))),
            ("tags", action(Some(Add), Some(ss(["new"])))),
            ("items", action(Some(Add), Some(list([num("1")])))),
            ("gone", action(Some(Delete), None)),
        ]),
    )
    .await;
    let mut want = sample();
    want.insert("n".into(), num("7.5"));
    want.insert("ss".into(), ss(["x", "y", "z"]));
    want.insert("ns".into(), ns(["2"]));
    want.insert("l".into(), list([s("x"), num("1"), s("end")]));
    want.insert("s".into(), s("bye"));
    want.remove("t");
    want.insert("counter".into(), num("3"));
    want.insert("tags".into(), ss(["new"]));
    want.insert("items".into(), list([num("1")]));
    c.eq("every action", got, Ok(want.clone()));
    // Without an Action, an update is a PUT (API AttributeValueUpdate: "The default is PUT").
    // KNOWN DIFFERENCE: DynamoDB Local 3.3 ignores such an entry (and the request's later ones).
    let got = update(&f, "a", entries([("fresh", action(None, Some(num("1"))))])).await;
    let mut with_fresh = want.clone();
    if t.target() != Target::DynamoDbLocal {
        with_fresh.insert("fresh".into(), num("1"));
        want.insert("fresh".into(), num("1"));
    }
    c.eq("no Action", got, Ok(with_fresh));
    // Deleting every member of a set removes the attribute.
    let got = update(
        &f,
        "a",
        entries([("ns", action(Some(Delete), Some(ns(["2"]))))]),
    )
    .await;
    want.remove("ns");
    c.eq("emptied set", got, Ok(want));
    // On a missing item: ADD starts from zero, DELETE of a missing attribute is nothing.
    let got = update(
        &f,
        "new",
        entries([
            ("c", action(Some(Add), Some(num("3")))),
            ("d", action(Some(Delete), None)),
        ]),
    )
    .await;
    c.eq(
        "new item",
        got,
        Ok(item([("pk", s("new")), ("c", num("3"))])),
    );
    // An empty AttributeUpdates creates the bare item.
    let got = update(&f, "bare", AttributeUpdates::new()).await;
    c.eq("empty map", got, Ok(Fixture::key("bare")));
    // With Expected.
    let guarded = t
        .backend()
        .update_item(UpdateItemInput {
            table_name: f.table.clone(),
            key: Fixture::key("new"),
            attribute_updates: Some(entries([("c", action(Some(Add), Some(num("1"))))])),
            expected: Some(entries([(
                "c",
                ExpectedAttributeValue {
                    value: Some(num("4")),
                    ..Default::default()
                },
            )])),
            ..Default::default()
        })
        .await;
    c.error(
        "Expected guards the update",
        guarded,
        "ConditionalCheckFailedException",
        "The conditional request failed",
    );
    let updated_new = t
        .backend()
        .update_item(UpdateItemInput {
            table_name: f.table.clone(),
            key: Fixture::key("new"),
            attribute_updates: Some(entries([("c", action(Some(Add), Some(num("1"))))])),
            return_values: Some(ReturnValue::UpdatedNew),
            ..Default::default()
        })
        .await
        .map(|o| o.attributes);
    c.eq(
        "UPDATED_NEW",
        updated_new,
        Ok(Some(item([("c", num("4"))]))),
    );
    c.finish();
});

dual_test!(legacy_attributes_to_get, |t| {
    let f = Fixture::new(&t, "atg").await;
    f.put(sample()).await;
    let mut c = Checks::new(&t);
    let names = |list: &[&str]| Some(list.iter().map(|n| (*n).to_owned()).collect::<Vec<_>>());
    let got = t
        .backend()
        .get_item(GetItemInput {
            table_name: f.table.clone(),
            key: Fixture::key("a"),
            attributes_to_get: names(&["n", "m", "missing", "a.b"]),
            ..Default::default()
        })
        .await
        .map(|o| o.item);
    c.eq(
        "GetItem",
        got,
        Ok(Some(item([("n", num("5")), ("m", map([("k", s("v"))]))]))),
    );
    let got = t
        .backend()
        .scan(ScanInput {
            table_name: f.table.clone(),
            attributes_to_get: names(&["s"]),
            ..Default::default()
        })
        .await
        .map(|o| o.items);
    c.eq("Scan", got, Ok(Some(vec![item([("s", s("hello"))])])));
    let got = t
        .backend()
        .scan(ScanInput {
            table_name: f.table.clone(),
            attributes_to_get: names(&["s"]),
            select: Some(Select::SpecificAttributes),
            ..Default::default()
        })
        .await
        .map(|o| o.items);
    c.eq(
        "Scan, SPECIFIC_ATTRIBUTES",
        got,
        Ok(Some(vec![item([("s", s("hello"))])])),
    );
    let got = t
        .backend()
        .batch_get_item(BatchGetItemInput {
            request_items: entries([(
                f.table.as_str(),
                KeysAndAttributes {
                    keys: vec![Fixture::key("a")],
                    attributes_to_get: names(&["pk", "t"]),
                    ..Default::default()
                },
            )]),
            ..Default::default()
        })
        .await
        .map(|o| o.responses.get(&f.table).cloned());
    c.eq(
        "BatchGetItem",
        got,
        Ok(Some(vec![item([
            ("pk", s("a")),
            ("t", AttributeValue::Bool(true)),
        ])])),
    );
    c.finish();
});

/// A table keyed by `pk` (S) and `sk` (N) holding `pk = "p"`, `sk = 1..=5`, with `v = sk * 10` and a
/// tag `odd` on odd sort keys.
async fn ranged(t: &Dual) -> String {
    let table = t.create_table("kc", ("pk", S), Some(("sk", N))).await;
    for i in 1..=5 {
        let mut it = item([
            ("pk", s("p")),
            ("sk", num(&i.to_string())),
            ("v", num(&(i * 10).to_string())),
        ]);
        if i % 2 == 1 {
            it.insert("odd".into(), AttributeValue::Bool(true));
        }
        t.backend()
            .put_item(PutItemInput {
                table_name: table.clone(),
                item: it,
                ..Default::default()
            })
            .await
            .unwrap();
    }
    table
}

/// The sort keys a Query or Scan returned, in order.
fn sort_keys(out: Result<QueryOutput>) -> Result<Vec<String>> {
    out.map(|o| {
        o.items
            .unwrap_or_default()
            .iter()
            .filter_map(|i| match i.get("sk") {
                Some(AttributeValue::N(n)) => Some(n.to_string()),
                _ => None,
            })
            .collect()
    })
}

dual_test!(legacy_key_conditions_and_filters, |t| {
    use ComparisonOperator::*;
    let table = ranged(&t).await;
    let mut c = Checks::new(&t);
    let hash = || ("pk", cond(Eq, args([s("p")])));
    let query = |key_conditions: Conditions| QueryInput {
        table_name: table.clone(),
        key_conditions: Some(key_conditions),
        ..Default::default()
    };
    let rows: Vec<(&str, LegacyCondition, Vec<&str>)> = vec![
        ("EQ", cond(Eq, args([num("2")])), vec!["2"]),
        ("LT", cond(Lt, args([num("3")])), vec!["1", "2"]),
        ("LE", cond(Le, args([num("3")])), vec!["1", "2", "3"]),
        ("GT", cond(Gt, args([num("3")])), vec!["4", "5"]),
        ("GE", cond(Ge, args([num("4")])), vec!["4", "5"]),
        (
            "BETWEEN",
            cond(Between, args([num("2"), num("4")])),
            vec!["2", "3", "4"],
        ),
    ];
    for (what, range, want) in rows {
        let got = sort_keys(
            t.backend()
                .query(query(entries([hash(), ("sk", range)])))
                .await,
        );
        c.eq(what, got, Ok(want.into_iter().map(str::to_owned).collect()));
    }
    let got = sort_keys(t.backend().query(query(entries([hash()]))).await);
    c.eq(
        "hash only",
        got,
        Ok(vec!["1", "2", "3", "4", "5"]
            .into_iter()
            .map(str::to_owned)
            .collect()),
    );
    // QueryFilter, with AND and OR.
    let filtered = |filter: Conditions, op: Option<ConditionalOperator>| QueryInput {
        query_filter: Some(filter),
        conditional_operator: op,
        ..query(entries([hash()]))
    };
    let two = || {
        entries([
            ("odd", cond(NotNull, None)),
            ("v", cond(Gt, args([num("30")]))),
        ])
    };
    let got = sort_keys(t.backend().query(filtered(two(), None)).await);
    c.eq("QueryFilter AND", got, Ok(vec!["5".to_owned()]));
    let got = sort_keys(
        t.backend()
            .query(filtered(two(), Some(ConditionalOperator::Or)))
            .await,
    );
    c.eq(
        "QueryFilter OR",
        got,
        Ok(vec!["1", "3", "4", "5"]
            .into_iter()
            .map(str::to_owned)
            .collect()),
    );
    // KeyConditions may come with a FilterExpression (the one mix DynamoDB allows).
    let mixed = QueryInput {
        filter_expression: Some("v > :v".into()),
        expression_attribute_values: values([(":v", num("20"))]),
        ..query(entries([hash()]))
    };
    let got = sort_keys(t.backend().query(mixed).await);
    c.eq(
        "KeyConditions with FilterExpression",
        got,
        Ok(vec!["3", "4", "5"].into_iter().map(str::to_owned).collect()),
    );
    // ScanFilter.
    let scan = |filter: Conditions, op: Option<ConditionalOperator>| ScanInput {
        table_name: table.clone(),
        scan_filter: Some(filter),
        conditional_operator: op,
        ..Default::default()
    };
    let got = sort_keys(
        t.backend()
            .scan(scan(
                entries([("v", cond(In, args([num("10"), num("50")])))]),
                None,
            ))
            .await,
    );
    c.eq(
        "ScanFilter IN",
        got,
        Ok(vec!["1".to_owned(), "5".to_owned()]),
    );
    let got = sort_keys(
        t.backend()
            .scan(scan(
                entries([
                    ("odd", cond(Null, None)),
                    ("sk", cond(Eq, args([num("1")]))),
                ]),
                Some(ConditionalOperator::Or),
            ))
            .await,
    );
    c.eq(
        "ScanFilter OR",
        got,
        Ok(vec!["1", "2", "4"].into_iter().map(str::to_owned).collect()),
    );
    c.finish();
});
