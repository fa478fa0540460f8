//! Condition expressions — every comparator, BETWEEN, IN, AND/OR/NOT precedence and every
//! function on every relevant type, then conditional PutItem/DeleteItem/UpdateItem and the
//! `ConditionalCheckFailedException` with and without the old item.
//!
//! Conditions are probed by re-putting the stored item under the condition (see [`Fixture::holds`]), so a
//! probe never changes the table and hundreds of them fit in one scenario.

use dynomodel::backend::*;
use dynomodel::*;

use super::requests::*;
use super::*;

/// The item every probe looks at: one attribute of each of DynamoDB's ten types, plus nesting.
fn sample() -> Item {
    item([
        ("pk", s("a")),
        ("n", num("5")),
        ("s", s("b")),
        ("e", s("é")),
        ("b", bin(&[2])),
        ("t", AttributeValue::Bool(true)),
        ("z", AttributeValue::Null),
        ("ss", ss(["x", "y"])),
        ("ns", ns(["1", "2"])),
        ("bs", AttributeValue::Bs(vec![vec![1]])),
        ("l", list([num("1"), s("two"), list([num("3")])])),
        ("m", map([("x", num("1")), ("y", map([("z", s("deep"))]))])),
    ])
}

/// Probes `condition` with `:v` bound to `value` (or no values at all when `None`).
async fn probe(
    f: &Fixture,
    c: &mut Checks,
    condition: &str,
    value: Option<AttributeValue>,
    expected: bool,
) {
    let vals = value.map(|v| item([(":v", v)]));
    let got = f.holds("a", condition, None, vals).await;
    c.eq(
        &format!("{condition} with {:?}", expected),
        got,
        Ok(expected),
    );
}

dual_test!(comparators_on_every_type, |t| {
    let f = Fixture::new(&t, "cmp").await;
    f.put(sample()).await;
    let mut c = Checks::new(&t);
    let rows: Vec<(&str, AttributeValue, bool)> = vec![
        // Numbers compare by value, whatever their text.
        ("n = :v", num("5"), true),
        ("n = :v", num("5.0"), true),
        ("n = :v", num("6"), false),
        ("n <> :v", num("6"), true),
        ("n <> :v", num("5"), false),
        ("n < :v", num("6"), true),
        ("n < :v", num("5"), false),
        ("n < :v", num("1E+1"), true),
        ("n <= :v", num("5"), true),
        ("n <= :v", num("-5"), false),
        ("n > :v", num("4.99"), true),
        ("n > :v", num("5"), false),
        ("n >= :v", num("5"), true),
        ("n >= :v", num("6"), false),
        // Strings compare by UTF-8 bytes: "B" < "b" < "ba" < "c".
        ("s = :v", s("b"), true),
        ("s <> :v", s("B"), true),
        ("s < :v", s("c"), true),
        ("s < :v", s("ba"), true),
        ("s < :v", s("a"), false),
        ("s <= :v", s("b"), true),
        ("s > :v", s("B"), true),
        ("s >= :v", s("c"), false),
        ("e > :v", s("z"), true),
        // Binaries compare as unsigned bytes: [2] < [0x80].
        ("b = :v", bin(&[2]), true),
        ("b < :v", bin(&[0x80]), true),
        ("b > :v", bin(&[1, 255]), true),
        ("b >= :v", bin(&[2, 0]), false),
        ("b <= :v", bin(&[2]), true),
        // Equality on the other types, sets ignoring order.
        ("t = :v", AttributeValue::Bool(true), true),
        ("t <> :v", AttributeValue::Bool(false), true),
        ("z = :v", AttributeValue::Null, true),
        ("ss = :v", ss(["y", "x"]), true),
        ("ss = :v", ss(["x"]), false),
        ("ns = :v", ns(["2", "1.0"]), true),
        ("bs = :v", AttributeValue::Bs(vec![vec![1]]), true),
        ("l = :v", list([num("1"), s("two"), list([num("3")])]), true),
        (
            "l = :v",
            list([s("two"), num("1"), list([num("3")])]),
            false,
        ),
        (
            "m = :v",
            map([("y", map([("z", s("deep"))])), ("x", num("1"))]),
            true,
        ),
        ("m.y.z = :v", s("deep"), true),
        ("l[1] = :v", s("two"), true),
        ("l[2][0] = :v", num("3"), true),
        // Across types nothing is equal or ordered, and everything is unequal.
        ("n = :v", s("5"), false),
        ("n <> :v", s("5"), true),
        ("n < :v", s("6"), false),
        ("n >= :v", s("0"), false),
        ("s > :v", num("1"), false),
        ("b = :v", s("\u{2}"), false),
        ("t = :v", num("1"), false),
        ("z = :v", AttributeValue::Bool(false), false),
        // A missing attribute equals nothing and differs from everything.
        ("nope = :v", num("5"), false),
        ("nope <> :v", num("5"), true),
        ("nope < :v", num("5"), false),
        ("m.q = :v", num("1"), false),
        ("l[9] <> :v", num("1"), true),
    ];
    for (condition, value, expected) in rows {
        probe(&f, &mut c, condition, Some(value), expected).await;
    }
    c.finish();
});

dual_test!(between_in_and_logic, |t| {
    let f = Fixture::new(&t, "logic").await;
    f.put(sample()).await;
    let mut c = Checks::new(&t);
    let v = |pairs: &[(&str, AttributeValue)]| -> Option<Item> {
        Some(
            pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect(),
        )
    };
    let rows: Vec<(&str, Option<Item>, bool)> = vec![
        (
            "n BETWEEN :a AND :b",
            v(&[(":a", num("1")), (":b", num("5"))]),
            true,
        ),
        (
            "n BETWEEN :a AND :b",
            v(&[(":a", num("5")), (":b", num("5"))]),
            true,
        ),
        (
            "n BETWEEN :a AND :b",
            v(&[(":a", num("6")), (":b", num("9"))]),
            false,
        ),
        (
            "s BETWEEN :a AND :b",
            v(&[(":a", s("a")), (":b", s("c"))]),
            true,
        ),
        (
            "s BETWEEN :a AND :b",
            v(&[(":a", s("ba")), (":b", s("c"))]),
            false,
        ),
        (
            "b BETWEEN :a AND :b",
            v(&[(":a", bin(&[1])), (":b", bin(&[3]))]),
            true,
        ),
        // Bounds of another type than the attribute: false, not an error.
        (
            "n BETWEEN :a AND :b",
            v(&[(":a", s("a")), (":b", s("z"))]),
            false,
        ),
        (
            "nope BETWEEN :a AND :b",
            v(&[(":a", num("1")), (":b", num("9"))]),
            false,
        ),
        (
            "n IN (:a, :b)",
            v(&[(":a", num("1")), (":b", num("5"))]),
            true,
        ),
        (
            "n IN (:a, :b)",
            v(&[(":a", num("1")), (":b", num("2"))]),
            false,
        ),
        (
            "n IN (:a, :b)",
            v(&[(":a", s("5")), (":b", num("5.00"))]),
            true,
        ),
        ("s IN (:a)", v(&[(":a", s("b"))]), true),
        ("ss IN (:a)", v(&[(":a", ss(["y", "x"]))]), true),
        ("nope IN (:a)", v(&[(":a", num("1"))]), false),
        // AND binds tighter than OR: T OR (F AND F) = T, where left-to-right would give F.
        (
            "n = :five OR n = :six AND s = :c",
            v(&[(":five", num("5")), (":six", num("6")), (":c", s("c"))]),
            true,
        ),
        (
            "(n = :five OR n = :six) AND s = :c",
            v(&[(":five", num("5")), (":six", num("6")), (":c", s("c"))]),
            false,
        ),
        // NOT binds tighter than AND: (NOT F) AND F = F, where NOT (F AND F) would give T.
        (
            "NOT n = :six AND s = :c",
            v(&[(":six", num("6")), (":c", s("c"))]),
            false,
        ),
        (
            "NOT (n = :six AND s = :c)",
            v(&[(":six", num("6")), (":c", s("c"))]),
            true,
        ),
        ("NOT NOT n = :five", v(&[(":five", num("5"))]), true),
        (
            "n = :five AND NOT s = :c OR n = :six",
            v(&[(":five", num("5")), (":six", num("6")), (":c", s("b"))]),
            false,
        ),
        // Keywords are case-insensitive.
        (
            "n between :a and :b",
            v(&[(":a", num("1")), (":b", num("9"))]),
            true,
        ),
        (
            "not n in (:a) or s = :b",
            v(&[(":a", num("5")), (":b", s("b"))]),
            true,
        ),
    ];
    for (condition, vals, expected) in rows {
        let got = f.holds("a", condition, None, vals).await;
        c.eq(condition, got, Ok(expected));
    }
    c.finish();
});

dual_test!(functions_on_every_type, |t| {
    let f = Fixture::new(&t, "fn").await;
    f.put(sample()).await;
    let mut c = Checks::new(&t);
    let no_value: Vec<(&str, bool)> = vec![
        ("attribute_exists(n)", true),
        ("attribute_exists(z)", true),
        ("attribute_exists(nope)", false),
        ("attribute_not_exists(nope)", true),
        ("attribute_not_exists(n)", false),
        ("attribute_exists(m.y.z)", true),
        ("attribute_exists(m.q)", false),
        ("attribute_exists(m.x.y)", false),
        ("attribute_exists(l[2][0])", true),
        ("attribute_exists(l[5])", false),
        ("attribute_not_exists(l[5])", true),
        ("attribute_exists(s[0])", false),
    ];
    for (condition, expected) in no_value {
        probe(&f, &mut c, condition, None, expected).await;
    }
    for (path, ty) in [
        ("n", "N"),
        ("s", "S"),
        ("b", "B"),
        ("t", "BOOL"),
        ("z", "NULL"),
        ("ss", "SS"),
        ("ns", "NS"),
        ("bs", "BS"),
        ("l", "L"),
        ("m", "M"),
        ("m.y", "M"),
        ("l[0]", "N"),
    ] {
        let condition = format!("attribute_type({path}, :v)");
        probe(&f, &mut c, &condition, Some(s(ty)), true).await;
        let other = if ty == "S" { "N" } else { "S" };
        probe(&f, &mut c, &condition, Some(s(other)), false).await;
    }
    probe(&f, &mut c, "attribute_type(nope, :v)", Some(s("S")), false).await;
    let rows: Vec<(&str, AttributeValue, bool)> = vec![
        ("begins_with(s, :v)", s("b"), true),
        ("begins_with(s, :v)", s("bc"), false),
        ("begins_with(e, :v)", s("é"), true),
        ("begins_with(b, :v)", bin(&[2]), true),
        ("begins_with(b, :v)", bin(&[3]), false),
        // The right type on the wrong attribute is simply false.
        ("begins_with(n, :v)", s("5"), false),
        ("begins_with(l, :v)", s("1"), false),
        ("begins_with(nope, :v)", s("x"), false),
        ("contains(s, :v)", s("b"), true),
        ("contains(s, :v)", s("z"), false),
        ("contains(e, :v)", s("é"), true),
        ("contains(ss, :v)", s("x"), true),
        ("contains(ss, :v)", s("q"), false),
        ("contains(ns, :v)", num("2.0"), true),
        ("contains(ns, :v)", s("2"), false),
        ("contains(bs, :v)", bin(&[1]), true),
        ("contains(b, :v)", bin(&[2]), true),
        ("contains(l, :v)", s("two"), true),
        ("contains(l, :v)", num("1"), true),
        ("contains(l, :v)", list([num("3")]), true),
        ("contains(l, :v)", s("tw"), false),
        ("contains(n, :v)", num("5"), false),
        ("contains(m, :v)", s("x"), false),
        ("contains(nope, :v)", s("x"), false),
        // size: the length of S (in characters: "é" is 1, as DynamoDB Local answers; the docs only say
        // "length"), bytes of B, elements of sets and lists, entries of maps.
        ("size(s) = :v", num("1"), true),
        ("size(e) = :v", num("1"), true),
        ("size(b) = :v", num("1"), true),
        ("size(ss) = :v", num("2"), true),
        ("size(ns) = :v", num("2"), true),
        ("size(bs) = :v", num("1"), true),
        ("size(l) = :v", num("3"), true),
        ("size(m) = :v", num("2"), true),
        ("size(m.y) = :v", num("1"), true),
        ("size(l[2]) < :v", num("2"), true),
        // size of a number, boolean, null or missing attribute has no value: every comparison is false.
        ("size(n) = :v", num("1"), false),
        ("size(t) >= :v", num("0"), false),
        ("size(nope) >= :v", num("0"), false),
        ("size(nope) <> :v", num("0"), true),
    ];
    for (condition, value, expected) in rows {
        probe(&f, &mut c, condition, Some(value), expected).await;
    }
    c.finish();
});

dual_test!(conditional_writes_and_the_failed_item, |t| {
    let f = Fixture::new(&t, "cw").await;
    let b = t.backend();
    let v1 = item([("pk", s("a")), ("v", num("1"))]);
    let put = |item: Item, cond: &str, rv| PutItemInput {
        table_name: f.table.clone(),
        item,
        condition_expression: Some(cond.to_owned()),
        return_values_on_condition_check_failure: rv,
        ..Default::default()
    };
    // Create-only put: succeeds once, then fails, with the old item only when asked for.
    b.put_item(put(v1.clone(), "attribute_not_exists(pk)", None))
        .await
        .unwrap();
    let v2 = item([("pk", s("a")), ("v", num("2"))]);
    let err = t.expect_error(
        b.put_item(put(v2.clone(), "attribute_not_exists(pk)", None))
            .await,
        "ConditionalCheckFailedException",
        "The conditional request failed",
    );
    assert_eq!(
        err,
        Error::ConditionalCheckFailed {
            message: "The conditional request failed".into(),
            item: None
        }
    );
    for (rv, expected) in [
        (ReturnValuesOnConditionCheckFailure::None, None),
        (
            ReturnValuesOnConditionCheckFailure::AllOld,
            Some(v1.clone()),
        ),
    ] {
        let err = b
            .put_item(put(v2.clone(), "attribute_not_exists(pk)", Some(rv)))
            .await
            .unwrap_err();
        assert_eq!(
            err,
            Error::ConditionalCheckFailed {
                message: "The conditional request failed".into(),
                item: expected
            }
        );
    }
    // A condition on a missing item sees no attributes: ALL_OLD has nothing to return.
    let missing = item([("pk", s("zz"))]);
    let err = b
        .put_item(put(
            missing,
            "attribute_exists(pk)",
            Some(ReturnValuesOnConditionCheckFailure::AllOld),
        ))
        .await
        .unwrap_err();
    assert_eq!(
        err,
        Error::ConditionalCheckFailed {
            message: "The conditional request failed".into(),
            item: None
        }
    );
    assert_eq!(f.get("zz").await, None);
    // Optimistic locking: the put with the right version wins.
    let vals = values([(":v", num("1"))]);
    b.put_item(PutItemInput {
        expression_attribute_values: vals,
        ..put(v2.clone(), "v = :v", None)
    })
    .await
    .unwrap();
    assert_eq!(f.get("a").await, Some(v2.clone()));

    // Conditional delete: fails (item kept, returned on request), then succeeds with ALL_OLD.
    let del = |cond: &str, v: AttributeValue| DeleteItemInput {
        table_name: f.table.clone(),
        key: Fixture::key("a"),
        condition_expression: Some(cond.to_owned()),
        expression_attribute_values: values([(":v", v)]),
        return_values: Some(ReturnValue::AllOld),
        return_values_on_condition_check_failure: Some(ReturnValuesOnConditionCheckFailure::AllOld),
        ..Default::default()
    };
    let err = b.delete_item(del("v = :v", num("1"))).await.unwrap_err();
    assert_eq!(
        err,
        Error::ConditionalCheckFailed {
            message: "The conditional request failed".into(),
            item: Some(v2.clone())
        }
    );
    let out = b.delete_item(del("v = :v", num("2"))).await.unwrap();
    assert_eq!(out.attributes, Some(v2.clone()));
    // On a missing item a condition other than attribute_not_exists fails.
    let err = b.delete_item(del("v = :v", num("2"))).await.unwrap_err();
    assert_eq!(
        err,
        Error::ConditionalCheckFailed {
            message: "The conditional request failed".into(),
            item: None
        }
    );

    // Conditional update: the failure carries the item; nothing is written.
    f.put(v1.clone()).await;
    let mut up = f.update("a", "SET v = v + :one");
    up.condition_expression = Some("v > :limit".into());
    up.expression_attribute_values = values([(":one", num("1")), (":limit", num("1"))]);
    up.return_values_on_condition_check_failure = Some(ReturnValuesOnConditionCheckFailure::AllOld);
    let err = b.update_item(up.clone()).await.unwrap_err();
    assert_eq!(
        err,
        Error::ConditionalCheckFailed {
            message: "The conditional request failed".into(),
            item: Some(v1.clone())
        }
    );
    up.expression_attribute_values = values([(":one", num("1")), (":limit", num("0"))]);
    assert_eq!(
        f.updated(up).await.unwrap(),
        item([("pk", s("a")), ("v", num("2"))])
    );
});
