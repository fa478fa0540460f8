//! UpdateItem — SET (plain, `+`, `-`, `if_not_exists`, `list_append`, list index past the end),
//! REMOVE, ADD, DELETE, the five ReturnValues, creation of a missing item, key attributes, and exact
//! decimal arithmetic with its overflow errors.

use dynomodel::backend::*;
use dynomodel::*;

use super::requests::*;
use super::*;

/// DynamoDB Local's one message for every number out of range or precision.
const LOCAL_PRECISION: &str = "DynamoDB only supports precision up to 38 digits";

fn start() -> Item {
    item([
        ("pk", s("a")),
        ("n", num("10")),
        ("l", list([s("x"), s("y"), s("z")])),
        ("m", map([("x", num("1"))])),
        ("ss", ss(["a", "b"])),
        ("ns", ns(["1", "2"])),
    ])
}

dual_test!(set_forms, |t| {
    let f = Fixture::new(&t, "set").await;
    f.put(start()).await;
    let mut up = f.update(
        "a",
        "SET #s = :s, p = n + :two, q = n - :two, r = :two - n, d = if_not_exists(d, :s), \
         n = if_not_exists(n, :two), l = list_append(l, :tail), k = list_append(:head, :tail), m.y = :two",
    );
    up.expression_attribute_names = names([("#s", "size")]);
    up.expression_attribute_values = values([
        (":s", s("v")),
        (":two", num("2")),
        (":tail", list([s("w")])),
        (":head", list([num("0")])),
    ]);
    let after = f.updated(up).await.unwrap();
    // Every right-hand side reads the item as it was before the update (n is 10 throughout).
    let expected = item([
        ("pk", s("a")),
        ("n", num("10")),
        ("size", s("v")),
        ("p", num("12")),
        ("q", num("8")),
        ("r", num("-8")),
        ("d", s("v")),
        ("l", list([s("x"), s("y"), s("z"), s("w")])),
        ("k", list([num("0"), s("w")])),
        ("m", map([("x", num("1")), ("y", num("2"))])),
        ("ss", ss(["a", "b"])),
        ("ns", ns(["1", "2"])),
    ]);
    assert_eq!(after, expected);

    // A list index past the end appends at the end; an index inside replaces.
    let mut up = f.update("a", "SET l[10] = :v, l[0] = :w");
    up.expression_attribute_values = values([(":v", s("end")), (":w", s("first"))]);
    let after = f.updated(up).await.unwrap();
    assert_eq!(
        after["l"],
        list([s("first"), s("y"), s("z"), s("w"), s("end")])
    );
    // if_not_exists on a nested path and list_append with the list on the right.
    let mut up = f.update(
        "a",
        "SET m.z = if_not_exists(m.x, :v), l = list_append(:h, l)",
    );
    up.expression_attribute_values = values([(":v", num("7")), (":h", list([s("h")]))]);
    let after = f.updated(up).await.unwrap();
    assert_eq!(
        after["m"],
        map([("x", num("1")), ("y", num("2")), ("z", num("1"))])
    );
    assert_eq!(after["l"].as_l().unwrap()[0], s("h"));
});

dual_test!(remove_add_delete, |t| {
    let f = Fixture::new(&t, "rad").await;
    f.put(start()).await;
    // REMOVE attributes (a missing one is fine), a nested entry and list elements (which shift down).
    let after = f
        .updated(f.update("a", "REMOVE n, nope, m.x, l[0], l[2]"))
        .await
        .unwrap();
    assert_eq!(after.get("n"), None);
    assert_eq!(after["m"], map([]));
    assert_eq!(after["l"], list([s("y")]));

    // ADD adds to numbers, creates missing numbers and sets, and unions sets.
    let mut up = f.update("a", "ADD c :five, ns :ns, ss :ss, newset :ss");
    up.expression_attribute_values = values([
        (":five", num("5")),
        (":ns", ns(["2", "3"])),
        (":ss", ss(["c"])),
    ]);
    let after = f.updated(up.clone()).await.unwrap();
    assert_eq!(after["c"], num("5"));
    assert_eq!(after["ns"], ns(["1", "2", "3"]));
    assert_eq!(after["ss"], ss(["a", "b", "c"]));
    assert_eq!(after["newset"], ss(["c"]));
    let after = f.updated(up).await.unwrap();
    assert_eq!(after["c"], num("10"));
    assert_eq!(after["ns"], ns(["1", "2", "3"]));

    // DELETE removes elements (missing ones are ignored); removing the last one removes the attribute,
    // since DynamoDB has no empty sets. DELETE on a missing attribute does nothing.
    let mut up = f.update("a", "DELETE ss :ab, newset :c, absent :c");
    up.expression_attribute_values = values([(":ab", ss(["a", "b", "q"])), (":c", ss(["c"]))]);
    let after = f.updated(up).await.unwrap();
    assert_eq!(after["ss"], ss(["c"]));
    assert_eq!(after.get("newset"), None);
    assert_eq!(after.get("absent"), None);

    // All four clauses in one expression, in any order.
    let mut up = f.update("a", "DELETE ns :one ADD c :one REMOVE l SET s = :s");
    up.expression_attribute_values = values([(":one", ns(["1"])), (":s", s("x"))]);
    let err = f.updated(up).await;
    // `:one` is a set: ADD to the number c fails (the whole update is rejected).
    t.expect_error(
        err,
        "ValidationException",
        "An operand in the update expression has an incorrect data type",
    );
    let mut up = f.update("a", "DELETE ns :one ADD c :n REMOVE l SET s = :s");
    up.expression_attribute_values =
        values([(":one", ns(["1"])), (":n", num("1")), (":s", s("x"))]);
    let after = f.updated(up).await.unwrap();
    assert_eq!(after["ns"], ns(["2", "3"]));
    assert_eq!(after["c"], num("11"));
    assert_eq!(after.get("l"), None);
    assert_eq!(after["s"], s("x"));
});

dual_test!(return_values_creation_and_keys, |t| {
    let f = Fixture::new(&t, "rv").await;
    let b = t.backend();
    // Updating a missing item creates it; ALL_OLD then returns nothing.
    let mut up = f.update("a", "SET x = :one, y = :one");
    up.expression_attribute_values = values([(":one", num("1"))]);
    up.return_values = Some(ReturnValue::AllOld);
    assert_eq!(b.update_item(up).await.unwrap().attributes, None);
    // Without an update expression the item is created with its key only.
    let mut bare = f.update("k", "");
    bare.update_expression = None;
    assert_eq!(b.update_item(bare).await.unwrap().attributes, None);
    assert_eq!(f.get("k").await, Some(Fixture::key("k")));

    let full = |x: &str| item([("pk", s("a")), ("x", num(x)), ("y", num("1"))]);
    let cases = [
        (ReturnValue::None, None, "2"),
        (ReturnValue::AllOld, Some(full("2")), "3"),
        (ReturnValue::UpdatedOld, Some(item([("x", num("3"))])), "4"),
        (ReturnValue::AllNew, Some(full("5")), "5"),
        (ReturnValue::UpdatedNew, Some(item([("x", num("6"))])), "6"),
    ];
    for (rv, expected, _) in cases {
        let mut up = f.update("a", "SET x = x + :one");
        up.expression_attribute_values = values([(":one", num("1"))]);
        up.return_values = Some(rv);
        let out = b.update_item(up).await.unwrap();
        assert_eq!(out.attributes, expected, "{rv:?}");
    }
    // UPDATED_* list only the updated attributes, a nested update as the path to it; a removed
    // attribute appears in UPDATED_OLD and not in UPDATED_NEW.
    let mut up = f.update("a", "SET m = :m");
    up.expression_attribute_values = values([(":m", map([("p", num("1")), ("q", num("2"))]))]);
    b.update_item(up).await.unwrap();
    let mut up = f.update("a", "SET m.p = :v REMOVE y");
    up.expression_attribute_values = values([(":v", num("9"))]);
    up.return_values = Some(ReturnValue::UpdatedOld);
    let old = b.update_item(up.clone()).await.unwrap().attributes;
    up.update_expression = Some("SET m.p = :w".into());
    up.expression_attribute_values = values([(":w", num("10"))]);
    up.return_values = Some(ReturnValue::UpdatedNew);
    let new = b.update_item(up).await.unwrap().attributes;
    // KNOWN DIFFERENCE: real DynamoDB returns only the updated nested path (dynalite's recorded
    // "should update nested attributes": `set b.c = …` returns `b: {M: {c: …}}` without b's other entries);
    // DynamoDB Local returns the whole top-level attribute.
    let (old_m, new_m) = match t.target() {
        Target::Mem | Target::Server => (map([("p", num("1"))]), map([("p", num("10"))])),
        Target::DynamoDbLocal => (
            map([("p", num("1")), ("q", num("2"))]),
            map([("p", num("10")), ("q", num("2"))]),
        ),
    };
    assert_eq!(old, Some(item([("m", old_m), ("y", num("1"))])));
    assert_eq!(new, Some(item([("m", new_m)])));

    // Key attributes cannot be updated, whatever the clause.
    for expression in ["SET pk = :v", "REMOVE pk", "ADD pk :v"] {
        let mut up = f.update("a", expression);
        // ADD takes a number (a string operand is rejected as such before the key check).
        if expression == "SET pk = :v" {
            up.expression_attribute_values = values([(":v", s("b"))]);
        } else if expression == "ADD pk :v" {
            up.expression_attribute_values = values([(":v", num("1"))]);
        }
        t.expect_error(
            b.update_item(up).await,
            "ValidationException",
            "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key",
        );
    }
});

dual_test!(arithmetic_is_exact_decimal, |t| {
    let f = Fixture::new(&t, "math").await;
    f.put(item([("pk", s("a"))])).await;
    let mut c = Checks::new(&t);
    let sum = |a: &str, b: &str, op: &str| {
        let mut up = f.update("a", &format!("SET r = :a {op} :b"));
        up.expression_attribute_values = values([(":a", num(a)), (":b", num(b))]);
        up
    };
    let ok_rows = [
        ("0.1", "0.2", "+", "0.3"),
        (
            "12345678901234567890123456789012345678",
            "1",
            "+",
            "12345678901234567890123456789012345679",
        ),
        (
            "99999999999999999999999999999999999999",
            "-1",
            "+",
            "99999999999999999999999999999999999998",
        ),
        ("1E+125", "1E+125", "+", "2E+125"),
        ("1E-130", "1E-130", "-", "0"),
        ("-5", "-0.5", "-", "-4.5"),
        ("1.5E+2", "0.25", "+", "150.25"),
    ];
    for (a, b, op, expected) in ok_rows {
        let got = f.updated(sum(a, b, op)).await.map(|i| i["r"].clone());
        c.eq(&format!("{a} {op} {b}"), got, Ok(num(expected)));
    }
    // KNOWN DIFFERENCE: DynamoDB Local reports both the overflow and the 39th digit as
    // "DynamoDB only supports precision up to 38 digits"; DynamoDB's messages are its NUMBER_OVERFLOW and
    // NUMBER_EXCEEDING_PRECISION texts (as for stored numbers, see numbers_raw).
    c.error_differs(
        "9.9999999999999999999999999999999999999E+125 + same",
        f.updated(sum(
            "9.9999999999999999999999999999999999999E+125",
            "9.9999999999999999999999999999999999999E+125",
            "+",
        ))
        .await,
        "ValidationException",
        "Number overflow. Attempting to store a number with magnitude larger than supported range",
        LOCAL_PRECISION,
    );
    c.error_differs(
        "1E+20 + 1E-20 (41 digits)",
        f.updated(sum("1E+20", "1E-20", "+")).await,
        "ValidationException",
        // Real DynamoDB calls an inexact result an overflow (recorded on the service).
        "Number overflow. Attempting to store a number with magnitude larger than supported range",
        LOCAL_PRECISION,
    );
    // ADD uses the same arithmetic.
    let mut up = f.update("a", "ADD r :v");
    up.expression_attribute_values =
        values([(":v", num("0.0000000000000000000000000000000000001"))]);
    c.error_differs(
        "ADD 1E-37 to 150.25 (40 digits)",
        f.updated(up).await,
        "ValidationException",
        "Number overflow. Attempting to store a number with magnitude larger than supported range",
        LOCAL_PRECISION,
    );
    // Arithmetic on a missing attribute is an error, not zero.
    let mut up = f.update("a", "SET r = nope + :v");
    up.expression_attribute_values = values([(":v", num("1"))]);
    c.error(
        "missing + 1",
        f.updated(up).await,
        "ValidationException",
        "The provided expression refers to an attribute that does not exist in the item",
    );
    c.finish();
});
