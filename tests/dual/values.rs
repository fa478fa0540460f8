//! Every data type round-trips exactly; numbers come back canonical; empty values, sets, nesting.

use std::collections::BTreeMap;

use dynomodel::backend::*;
use dynomodel::*;

use super::*;

/// Puts `attrs` under a fresh key and returns what GetItem reads back (without the key).
async fn round_trip(t: &Dual, table: &str, pk: &str, attrs: Item) -> Result<Item> {
    let mut full = attrs;
    full.insert("pk".into(), s(pk));
    t.backend()
        .put_item(PutItemInput {
            table_name: table.into(),
            item: full,
            return_values: None,
            ..Default::default()
        })
        .await?;
    let mut got = t
        .backend()
        .get_item(GetItemInput {
            table_name: table.into(),
            key: item([("pk", s(pk))]),
            consistent_read: Some(true),
            ..Default::default()
        })
        .await?
        .item
        .expect("the item just written");
    got.remove("pk");
    Ok(got)
}

dual_test!(every_type_round_trips, |t| {
    let table = t.create_table("types", ("pk", S), None).await;
    let mut map = BTreeMap::new();
    map.insert("empty".to_owned(), s(""));
    map.insert("bin".to_owned(), AttributeValue::B(vec![]));
    map.insert("n".to_owned(), num("-12.5"));
    let attrs = item([
        ("s", s("héllo 😀")),
        ("n", num("123.456")),
        ("b", AttributeValue::B(vec![0, 1, 254, 255])),
        ("t", AttributeValue::Bool(true)),
        ("f", AttributeValue::Bool(false)),
        ("null", AttributeValue::Null),
        (
            "ss",
            AttributeValue::Ss(vec!["b".into(), "a".into(), "".into()]),
        ),
        (
            "ns",
            AttributeValue::Ns(vec!["3".parse().unwrap(), "-1.5".parse().unwrap()]),
        ),
        ("bs", AttributeValue::Bs(vec![vec![1], vec![], vec![2, 3]])),
        (
            "l",
            AttributeValue::L(vec![
                s(""),
                AttributeValue::B(vec![]),
                AttributeValue::Null,
                num("0"),
            ]),
        ),
        ("m", AttributeValue::M(map)),
        ("empty_l", AttributeValue::L(vec![])),
        ("empty_m", AttributeValue::M(BTreeMap::new())),
        // Empty S and B are allowed outside keys since 2020.
        ("empty_s", s("")),
        ("empty_b", AttributeValue::B(vec![])),
    ]);
    let got = round_trip(&t, &table, "all", attrs.clone()).await.unwrap();
    assert_eq!(got, attrs);
});

dual_test!(numbers_come_back_canonical_and_exact, |t| {
    let table = t.create_table("nums", ("pk", S), None).await;
    // (sent, read back as text). `Number` already canonicalises, so this checks that nothing on the way
    // (SDK, wire, server) rounds or reformats: 38 digits, both ends of the range, negative zero.
    let cases = [
        ("1.50", "1.5"),
        ("0001.000", "1"),
        ("1E2", "100"),
        ("-0", "0"),
        ("+3", "3"),
        (".123", "0.123"),
        (
            "12345678901234567890123456789012345678",
            "12345678901234567890123456789012345678",
        ),
        (
            "-0.12345678901234567890123456789012345678",
            "-0.12345678901234567890123456789012345678",
        ),
        ("1E-130", &format!("0.{}1", "0".repeat(129))),
        (
            "9.9999999999999999999999999999999999999E125",
            &format!("99999999999999999999999999999999999999{}", "0".repeat(88)),
        ),
        (
            "-9.9999999999999999999999999999999999999E125",
            &format!("-99999999999999999999999999999999999999{}", "0".repeat(88)),
        ),
    ];
    for (i, (sent, expected)) in cases.iter().enumerate() {
        let got = round_trip(&t, &table, &format!("n{i}"), item([("n", num(sent))]))
            .await
            .unwrap();
        let n = got["n"].as_n().unwrap();
        assert_eq!(n.to_string(), *expected, "sent {sent}");
        assert_eq!(*n, sent.parse::<Number>().unwrap());
    }
});

dual_test!(nesting_is_limited_to_32_levels, |t| {
    let table = t.create_table("deep", ("pk", S), None).await;
    // `depth` levels of alternating maps and lists around a string.
    let nested = |depth: usize| {
        let mut v = s("leaf");
        for level in 0..depth {
            v = if level % 2 == 0 {
                AttributeValue::L(vec![v])
            } else {
                AttributeValue::M(BTreeMap::from([("k".to_owned(), v)]))
            };
        }
        v
    };
    // The attribute itself is level 1, so 31 containers around a scalar make 32 levels.
    let ok = item([("d", nested(31))]);
    assert_eq!(round_trip(&t, &table, "31", ok.clone()).await.unwrap(), ok);
    let r = round_trip(&t, &table, "32", item([("d", nested(32))])).await;
    t.expect_error(
        r,
        "ValidationException",
        "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit",
    );
});

dual_test!(empty_sets_are_rejected, |t| {
    let table = t.create_table("emptyset", ("pk", S), None).await;
    for (v, what) in [
        // The double space and the odd binary wording are DynamoDB's.
        (
            AttributeValue::Ss(vec![]),
            "An string set  may not be empty",
        ),
        (
            AttributeValue::Ns(vec![]),
            "An number set  may not be empty",
        ),
        (
            AttributeValue::Bs(vec![]),
            "Binary sets should not be empty",
        ),
    ] {
        let r = round_trip(&t, &table, "e", item([("set", v)])).await;
        t.expect_error(
            r,
            "ValidationException",
            &format!("One or more parameter values were invalid: {what}"),
        );
    }
});

dual_test!(duplicate_set_elements_are_rejected, |t| {
    let table = t.create_table("dupset", ("pk", S), None).await;
    let r = round_trip(
        &t,
        &table,
        "d",
        item([(
            "set",
            AttributeValue::Ss(vec!["a".into(), "b".into(), "a".into()]),
        )]),
    )
    .await;
    // KNOWN DIFFERENCE: DynamoDB's message (recorded by dynalite) ends with a period; DynamoDB Local's
    // does not.
    t.expect_error_differs(
        r,
        "ValidationException",
        "One or more parameter values were invalid: Input collection [a, b, a] contains duplicates.",
        "One or more parameter values were invalid: Input collection [a, b, a] contains duplicates",
    );
    // Numbers are compared by value: 1 and 1.0 are the same element.
    let r = round_trip(
        &t,
        &table,
        "d",
        item([(
            "set",
            AttributeValue::Ns(vec!["1".parse().unwrap(), "1.0".parse().unwrap()]),
        )]),
    )
    .await;
    t.expect_error(
        r,
        "ValidationException",
        "Input collection contains duplicates",
    );
    // Each set type words it differently (measured; the AWS docs give no wording).
    let r = round_trip(
        &t,
        &table,
        "d",
        item([("set", AttributeValue::Bs(vec![vec![1], vec![1]]))]),
    )
    .await;
    t.expect_error(r, "ValidationException", "One or more parameter values were invalid: Input collection of type BS contains duplicates.");
});
