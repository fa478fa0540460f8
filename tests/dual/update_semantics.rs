//! What an UpdateItem does to a missing item that it only removes
//! from, what UPDATED_NEW returns after list appends and removals, where `list_append` may be used,
//! and how an imprecise result of arithmetic is reported.

use dynomodel::backend::*;

use super::requests::*;
use super::*;

/// DynamoDB Local's text for any number it cannot store.
const LOCAL_PRECISION: &str = "DynamoDB only supports precision up to 38 digits";

/// DynamoDB's text for a path that cannot be updated.
const INVALID_PATH: &str =
    "The document path provided in the update expression is invalid for update";

dual_test!(remove_only_updates_of_a_missing_item_create_nothing, |t| {
    let f = Fixture::new(&t, "rmonly").await;
    let b = t.backend();
    let mut c = Checks::new(&t);
    let local = t.target() == Target::DynamoDbLocal;
    let key_only = |pk: &str| Some(Fixture::key(pk));
    // KNOWN DIFFERENCE: DynamoDB writes nothing for an update that only removes from a missing item
    // (recorded on the service), and returns no Attributes even for ALL_NEW; DynamoDB Local creates the
    // key-only item.
    let nothing = |pk: &str| if local { key_only(pk) } else { None };
    let mut up = f.update("m1", "REMOVE a");
    up.return_values = Some(ReturnValue::AllNew);
    let r = b.update_item(up).await.map(|o| o.attributes);
    c.eq("REMOVE, ALL_NEW", r, Ok(nothing("m1")));
    c.eq("REMOVE, stored", f.get("m1").await, nothing("m1"));
    let mut up = f.update("m2", "DELETE s :v");
    up.expression_attribute_values = values([(":v", ss(["x"]))]);
    let r = b.update_item(up).await.map(|_| ());
    c.eq("DELETE", r, Ok(()));
    c.eq("DELETE, stored", f.get("m2").await, nothing("m2"));
    for (pk, with_value) in [("m3", false), ("m4", true)] {
        let delete = AttributeValueUpdate {
            value: with_value.then(|| ss(["x"])),
            action: Some(AttributeAction::Delete),
        };
        let r = b
            .update_item(UpdateItemInput {
                table_name: f.table.clone(),
                key: Fixture::key(pk),
                attribute_updates: Some([("a".to_owned(), delete)].into()),
                return_values: Some(ReturnValue::AllNew),
                ..Default::default()
            })
            .await
            .map(|o| o.attributes);
        c.eq(
            &format!("AttributeUpdates DELETE ({pk})"),
            r,
            Ok(nothing(pk)),
        );
        c.eq(
            &format!("AttributeUpdates DELETE ({pk}), stored"),
            f.get(pk).await,
            nothing(pk),
        );
    }
    // A nested path of a missing item: nothing to remove it from. KNOWN DIFFERENCE: DynamoDB
    // Local, which creates the item first, finds the path invalid.
    for (pk, expression) in [("m5", "REMOVE x.y"), ("m6", "REMOVE x[0]")] {
        let r = b.update_item(f.update(pk, expression)).await.map(|_| ());
        if local {
            c.error(expression, r, "ValidationException", INVALID_PATH);
        } else {
            c.eq(expression, r, Ok(()));
            c.eq(&format!("{expression}, stored"), f.get(pk).await, None);
        }
    }
    // An existing item without `x`: the path is invalid everywhere.
    f.put(Fixture::key("e")).await;
    for expression in ["REMOVE x.y", "REMOVE x[0]"] {
        let r = b.update_item(f.update("e", expression)).await;
        c.error(
            &format!("{expression} on an item without x"),
            r,
            "ValidationException",
            INVALID_PATH,
        );
    }
    // Anything else creates the item: an empty AttributeUpdates, a SET, an ADD.
    let r = b
        .update_item(UpdateItemInput {
            table_name: f.table.clone(),
            key: Fixture::key("c1"),
            attribute_updates: Some(AttributeUpdates::new()),
            return_values: Some(ReturnValue::AllNew),
            ..Default::default()
        })
        .await
        .map(|o| o.attributes);
    c.eq("empty AttributeUpdates", r, Ok(key_only("c1")));
    let mut up = f.update("c2", "SET a = :v REMOVE b");
    up.expression_attribute_values = values([(":v", s("x"))]);
    let r = f.updated(up).await;
    c.eq(
        "SET with REMOVE",
        r,
        Ok(item([("pk", s("c2")), ("a", s("x"))])),
    );
    let mut up = f.update("c3", "ADD n :one");
    up.expression_attribute_values = values([(":one", num("1"))]);
    let r = f.updated(up).await;
    c.eq("ADD", r, Ok(item([("pk", s("c3")), ("n", num("1"))])));
    c.finish();
});

dual_test!(updated_new_projects_the_paths_as_written, |t| {
    let f = Fixture::new(&t, "updnew").await;
    let b = t.backend();
    let mut c = Checks::new(&t);
    f.put(item([
        ("pk", s("a")),
        (
            "a",
            map([("c", list([num("1"), num("3")])), ("d", s("kept"))]),
        ),
    ]))
    .await;
    // An append past the end lands at index 2: there is nothing at index 100 to return.
    let mut up = f.update("a", "SET a.c[100] = :v");
    up.expression_attribute_values = values([(":v", num("5"))]);
    up.return_values = Some(ReturnValue::UpdatedNew);
    let r = b.update_item(up).await.map(|o| o.attributes);
    c.eq("SET a.c[100], UPDATED_NEW", r, Ok(None));
    // Removing index 1 shifts the appended 5 into its place, which UPDATED_NEW returns.
    let mut up = f.update("a", "REMOVE a.c[1]");
    up.return_values = Some(ReturnValue::UpdatedNew);
    let r = b.update_item(up).await.map(|o| o.attributes);
    // KNOWN DIFFERENCE: DynamoDB Local returns the whole top-level attribute for a nested path.
    let want = if t.target() == Target::DynamoDbLocal {
        item([(
            "a",
            map([("c", list([num("1"), num("5")])), ("d", s("kept"))]),
        )])
    } else {
        item([("a", map([("c", list([num("5")]))]))])
    };
    c.eq("REMOVE a.c[1], UPDATED_NEW", r, Ok(Some(want)));
    c.finish();
});

dual_test!(list_append_only_at_the_top_of_a_set_value, |t| {
    let f = Fixture::new(&t, "lappend").await;
    let b = t.backend();
    let mut c = Checks::new(&t);
    let misused =
        "Invalid UpdateExpression: The function is not allowed to be used this way in an \
                   expression; function: list_append";
    let lists = || values([(":v1", list([num("1")])), (":v2", list([num("2")]))]);
    for expression in [
        "SET a = list_append(list_append(:v1, :v2), :v1)",
        "SET a = if_not_exists(a, list_append(:v1, :v2))",
    ] {
        let mut up = f.update("a", expression);
        up.expression_attribute_values = lists();
        c.error(
            expression,
            b.update_item(up).await,
            "ValidationException",
            misused,
        );
    }
    let mut up = f.update("a", "SET a = list_append(if_not_exists(a, :v1), :v2)");
    up.expression_attribute_values = lists();
    let r = f.updated(up).await.map(|i| i.get("a").cloned());
    c.eq(
        "list_append(if_not_exists(…), …)",
        r,
        Ok(Some(list([num("1"), num("2")]))),
    );
    let mut up = f.update("a", "SET b = if_not_exists(b, if_not_exists(c, :v1))");
    up.expression_attribute_values = values([(":v1", list([num("1")]))]);
    let r = f.updated(up).await.map(|i| i.get("b").cloned());
    c.eq("nested if_not_exists", r, Ok(Some(list([num("1")]))));
    c.finish();
});

dual_test!(imprecise_arithmetic_is_a_number_overflow, |t| {
    let f = Fixture::new(&t, "imprecise").await;
    let mut c = Checks::new(&t);
    for (expression, a, b) in [
        ("SET b = :a - :b", "1e50", "1"),
        ("SET b = :a + :b", "1e50", "1"),
    ] {
        let mut up = f.update("a", expression);
        up.expression_attribute_values = values([(":a", num(a)), (":b", num(b))]);
        // KNOWN DIFFERENCE: DynamoDB Local says "DynamoDB only supports precision up to 38 digits".
        c.error_differs(
            &format!("{expression}, {a} and {b}"),
            f.updated(up).await,
            "ValidationException",
            "Number overflow. Attempting to store a number with magnitude larger than supported range",
            LOCAL_PRECISION,
        );
    }
    c.finish();
});

/// `item` with the elements of every set in it sorted (maps' too): DynamoDB keeps no order in a set.
fn sets_sorted(mut item: Item) -> Item {
    fn sort(value: &mut AttributeValue) {
        match value {
            AttributeValue::Ss(v) => v.sort(),
            AttributeValue::Ns(v) => v.sort(),
            AttributeValue::Bs(v) => v.sort(),
            AttributeValue::M(m) => m.values_mut().for_each(sort),
            _ => {}
        }
    }
    item.values_mut().for_each(sort);
    item
}

/// `count` strings `e<from>`, `e<from + 1>`, … as a string set.
fn strings(from: usize, count: usize) -> AttributeValue {
    AttributeValue::Ss((from..from + count).map(|i| format!("e{i}")).collect())
}

dual_test!(set_add_and_delete_change_the_stored_sets, |t| {
    let f = Fixture::new(&t, "setops").await;
    let b = t.backend();
    let mut c = Checks::new(&t);
    // Sets past 16 elements (the engine's table of elements rather than a scan) and small ones,
    // top-level and nested, numbers equal in value though spelled apart.
    f.put(item([
        ("pk", s("a")),
        ("ss", strings(0, 20)),
        ("ns", ns(["1", "2"])),
        ("bs", AttributeValue::Bs(vec![b"a".to_vec()])),
        ("m", map([("sa", ss(["x", "y"]))])),
    ]))
    .await;
    let mut up = f.update(
        "a",
        "ADD ss :more, ns :nums, bs :bins, m.sa :few, m.sb :few",
    );
    up.expression_attribute_values = values([
        (":more", strings(10, 20)),
        (":nums", ns(["1.0", "3"])),
        (
            ":bins",
            AttributeValue::Bs(vec![b"a".to_vec(), b"b".to_vec()]),
        ),
        (":few", ss(["y", "z"])),
    ]);
    let r = f.updated(up).await.map(sets_sorted);
    let added = sets_sorted(item([
        ("pk", s("a")),
        ("ss", strings(0, 30)),
        ("ns", ns(["1", "2", "3"])),
        ("bs", AttributeValue::Bs(vec![b"a".to_vec(), b"b".to_vec()])),
        (
            "m",
            map([("sa", ss(["x", "y", "z"])), ("sb", ss(["y", "z"]))]),
        ),
    ]));
    c.eq("ADD", r, Ok(added.clone()));
    c.eq(
        "ADD, stored",
        f.get("a").await.map(sets_sorted),
        Some(added),
    );
    // DELETE leaves the other elements; a set left empty is removed, nested or not.
    let mut up = f.update("a", "DELETE ss :gone, ns :two, m.sa :all, bs :bins");
    up.expression_attribute_values = values([
        (":gone", strings(0, 25)),
        (":two", ns(["2.00", "7"])),
        (":all", ss(["w", "x", "y", "z"])),
        (
            ":bins",
            AttributeValue::Bs(vec![b"a".to_vec(), b"b".to_vec()]),
        ),
    ]);
    let r = f.updated(up).await.map(sets_sorted);
    let deleted = sets_sorted(item([
        ("pk", s("a")),
        ("ss", strings(25, 5)),
        ("ns", ns(["1", "3"])),
        ("m", map([("sb", ss(["y", "z"]))])),
    ]));
    c.eq("DELETE", r, Ok(deleted.clone()));
    c.eq(
        "DELETE, stored",
        f.get("a").await.map(sets_sorted),
        Some(deleted.clone()),
    );
    // A set of another type is refused, and the item is left as it was.
    for expression in [
        "ADD ss :nums",
        "DELETE ss :nums",
        "ADD ns :more",
        "DELETE m :more",
    ] {
        let mut up = f.update("a", expression);
        up.expression_attribute_values = if expression.ends_with(":nums") {
            values([(":nums", ns(["1"]))])
        } else {
            values([(":more", strings(0, 20))])
        };
        c.error(
            expression,
            b.update_item(up).await,
            "ValidationException",
            "An operand in the update expression has an incorrect data type",
        );
    }
    c.eq(
        "refused, stored",
        f.get("a").await.map(sets_sorted),
        Some(deleted),
    );
    c.finish();
});

/// A BS of the binaries of `count` zero bytes from `from` up (each a prefix of the next).
fn zeros(from: usize, count: usize) -> AttributeValue {
    AttributeValue::Bs((from..from + count).map(|n| vec![0; n]).collect())
}

/// An NS of the numbers from `from` on, spelled with `suffix` (`""`, `".0"`).
fn numbers(from: usize, count: usize, suffix: &str) -> AttributeValue {
    let spelled = (from..from + count).map(|i| format!("{i}{suffix}"));
    AttributeValue::Ns(spelled.map(|n| n.parse().unwrap()).collect())
}

dual_test!(large_binary_and_number_sets_are_told_apart_by_value, |t| {
    let f = Fixture::new(&t, "setvals").await;
    let b = t.backend();
    let mut c = Checks::new(&t);
    // Past 16 elements (the engine's hash tables): binaries that are prefixes of each other are
    // distinct elements, numbers spelled apart are one.
    let stored = item([
        ("pk", s("a")),
        ("bs", zeros(1, 20)),
        ("ns", numbers(1, 20, "")),
    ]);
    f.put(stored.clone()).await;
    c.eq(
        "prefixes stored",
        f.get("a").await.map(sets_sorted),
        Some(sets_sorted(stored)),
    );
    let AttributeValue::Bs(mut twice) = zeros(1, 20) else {
        unreachable!()
    };
    twice.push(vec![0; 7]);
    let r = b
        .put_item(PutItemInput {
            table_name: f.table.clone(),
            item: item([("pk", s("d")), ("bs", AttributeValue::Bs(twice))]),
            ..Default::default()
        })
        .await;
    c.error(
        "a duplicate among prefixes",
        r,
        "ValidationException",
        "One or more parameter values were invalid: Input collection of type BS contains duplicates.",
    );
    let mut up = f.update("a", "ADD bs :bins, ns :nums");
    up.expression_attribute_values =
        values([(":bins", zeros(10, 21)), (":nums", numbers(10, 21, ".0"))]);
    let added = sets_sorted(item([
        ("pk", s("a")),
        ("bs", zeros(1, 30)),
        ("ns", numbers(1, 30, "")),
    ]));
    c.eq("ADD", f.updated(up).await.map(sets_sorted), Ok(added));
    let mut up = f.update("a", "DELETE bs :bins, ns :nums");
    up.expression_attribute_values =
        values([(":bins", zeros(1, 25)), (":nums", numbers(1, 25, ".00"))]);
    let deleted = sets_sorted(item([
        ("pk", s("a")),
        ("bs", zeros(26, 5)),
        ("ns", numbers(26, 5, "")),
    ]));
    c.eq(
        "DELETE",
        f.updated(up).await.map(sets_sorted),
        Ok(deleted.clone()),
    );
    c.eq(
        "DELETE, stored",
        f.get("a").await.map(sets_sorted),
        Some(deleted),
    );
    c.finish();
});

/// The strings `prefix0`, `prefix1`, ..., `count` of them.
fn elements(prefix: &str, count: usize) -> Vec<String> {
    (0..count).map(|i| format!("{prefix}{i}")).collect()
}

dual_test!(
    set_adds_of_a_few_to_many_and_many_to_a_few_return_the_old_item,
    |t| {
        // Past 16 elements the engine's union hashes the operand and probes it with the stored set:
        // both shapes, with elements already there, and the old item (decoded again for ReturnValues
        // alone) still returned as it was.
        let f = Fixture::new(&t, "setfew").await;
        let b = t.backend();
        let mut c = Checks::new(&t);
        let many = elements("s", 40);
        f.put(item([
            ("pk", s("a")),
            ("ss", AttributeValue::Ss(many.clone())),
        ]))
        .await;
        let mut up = f.update("a", "ADD ss :few");
        up.expression_attribute_values = values([(":few", ss(["s3", "new1", "s39", "new2"]))]);
        up.return_values = Some(ReturnValue::UpdatedOld);
        let r = b
            .update_item(up)
            .await
            .map(|o| o.attributes.map(sets_sorted));
        let old_set = |set: Vec<String>| sets_sorted(item([("ss", AttributeValue::Ss(set))]));
        c.eq(
            "a few to many, UPDATED_OLD",
            r,
            Ok(Some(old_set(many.clone()))),
        );
        let mut grown = many.clone();
        grown.extend(["new1".to_owned(), "new2".to_owned()]);
        let stored = |pk: &str, set: Vec<String>| {
            Some(sets_sorted(item([
                ("pk", s(pk)),
                ("ss", AttributeValue::Ss(set)),
            ])))
        };
        c.eq(
            "a few to many, stored",
            f.get("a").await.map(sets_sorted),
            stored("a", grown),
        );
        let few = vec!["s1".to_owned(), "x".to_owned()];
        f.put(item([
            ("pk", s("b")),
            ("ss", AttributeValue::Ss(few.clone())),
        ]))
        .await;
        let mut up = f.update("b", "ADD ss :many");
        up.expression_attribute_values = values([(":many", AttributeValue::Ss(many.clone()))]);
        up.return_values = Some(ReturnValue::AllOld);
        let r = b
            .update_item(up)
            .await
            .map(|o| o.attributes.map(sets_sorted));
        c.eq("many to a few, ALL_OLD", r, Ok(stored("b", few)));
        let mut united = many;
        united.push("x".to_owned());
        c.eq(
            "many to a few, stored",
            f.get("b").await.map(sets_sorted),
            stored("b", united),
        );
        c.finish();
    }
);

dual_test!(many_top_level_sets_keep_the_rest_of_the_item, |t| {
    // Forty top-level SETs (the engine merges so many into the item in one pass) replace the
    // attributes they name, add the others, and leave the rest and a nested SET beside them alone.
    let f = Fixture::new(&t, "updmany").await;
    let mut c = Checks::new(&t);
    let mut stored = Fixture::key("a");
    for i in (0..60).step_by(3) {
        stored.insert(format!("a{i:02}"), s("old"));
    }
    stored.insert("m".to_owned(), map([("k", s("old")), ("j", s("kept"))]));
    f.put(stored.clone()).await;
    let sets: Vec<String> = (0..40).map(|i| format!("a{i:02} = :v")).collect();
    let mut up = f.update("a", &format!("SET {}, m.k = :v", sets.join(", ")));
    up.expression_attribute_values = values([(":v", s("new"))]);
    let mut want = stored;
    for i in 0..40 {
        want.insert(format!("a{i:02}"), s("new"));
    }
    want.insert("m".to_owned(), map([("k", s("new")), ("j", s("kept"))]));
    c.eq(
        "forty SETs and a nested one, ALL_NEW",
        f.updated(up).await,
        Ok(want.clone()),
    );
    c.eq("read back", f.get("a").await, Some(want));
    c.finish();
});
