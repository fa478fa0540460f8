//! Cancellation reasons: one per action, every failure reported, the item with ALL_OLD; and which
//! failures are `ValidationError` reasons.

use super::*;

dual_test!(transactions_report_one_reason_per_action, |t| {
    let b = Bank::new(&t).await;
    let seeded = |pk: &str| acct(pk, [("bal", num("1"))]);
    b.write(
        ["a", "b", "c", "d"]
            .map(|pk| put(&b.acct, seeded(pk)))
            .to_vec(),
    )
    .await
    .unwrap();
    let r = b
        .write(vec![
            put(&b.log, log("x", "1")),
            // Fails, asks for the item, and it exists.
            update(&b.acct, acct("a", []), "SET bal = :v")
                .condition("bal > :limit")
                .values([(":v", num("0")), (":limit", num("5"))])
                .all_old(),
            // Fails and asks for the item, but there is none.
            delete(&b.acct, acct("missing", []))
                .condition("attribute_exists(pk)")
                .all_old(),
            // Fails without asking.
            put(&b.acct, acct("b", [])).condition("attribute_not_exists(pk)"),
            // A ConditionCheck's message ends with a period (DynamoDB Local; the API reference).
            check(&b.acct, acct("c", []), "bal = :v")
                .values([(":v", num("2"))])
                .all_old(),
            check(&b.acct, acct("d", []), "bal = :v").values([(":v", num("1"))]),
        ])
        .await;
    assert_eq!(
        reasons(&t, r),
        vec![
            none(),
            failed(Some(seeded("a"))),
            failed(None),
            failed(None),
            (
                "ConditionalCheckFailed".into(),
                Some("The conditional request failed.".into()),
                Some(seeded("c"))
            ),
            none(),
        ]
    );
    assert_eq!(b.stored(&b.acct, acct("a", [])).await, Some(seeded("a")));
    assert_eq!(b.stored(&b.log, log("x", "1")).await, None);
});

dual_test!(transactions_report_update_failures_as_reasons, |t| {
    let b = Bank::new(&t).await;
    b.write(vec![put(
        &b.acct,
        acct(
            "a",
            [
                ("s", s("text")),
                ("big", num("9E+125")),
                ("pad", s(&"p".repeat(300_000))),
            ],
        ),
    )])
    .await
    .unwrap();
    let key = || acct("a", []);
    // An inexact sum is an overflow to DynamoDB (issue 26 fact 18).
    let digits =
        "Number overflow. Attempting to store a number with magnitude larger than supported range";
    let cases: Vec<(TransactWriteItem, &str, &str)> = vec![
        (
            update(&b.acct, key(), "SET v = s + :one").values([(":one", num("1"))]),
            "An operand in the update expression has an incorrect data type",
            "An operand in the update expression has an incorrect data type",
        ),
        (
            update(&b.acct, key(), "SET s.nested = :one").values([(":one", num("1"))]),
            "The document path provided in the update expression is invalid for update",
            "The document path provided in the update expression is invalid for update",
        ),
        (
            update(&b.acct, key(), "SET v = nothing"),
            "The provided expression refers to an attribute that does not exist in the item",
            "The provided expression refers to an attribute that does not exist in the item",
        ),
        (
            update(&b.acct, key(), "ADD big :big").values([(":big", num("9E+125"))]),
            "Number overflow. Attempting to store a number with magnitude larger than supported range",
            "Number overflow. Attempting to store a number with magnitude larger than supported range",
        ),
        (
            update(&b.acct, key(), "SET v = :a + :b").values([(":a", num("1E+20")), (":b", num("1E-20"))]),
            digits,
            "DynamoDB only supports precision up to 38 digits",
        ),
    ];
    for (action, message, local) in cases {
        let r = b.write(vec![put(&b.log, log("x", "1")), action]).await;
        // KNOWN DIFFERENCE: real DynamoDB reports what an update finds while running as the action's
        // `ValidationError` reason (API reference, TransactionCanceledException; aws-sdk-net#1292);
        // DynamoDB Local 3.3.1 refuses the request with a ValidationException.
        if is_engine(&t) {
            assert_eq!(reasons(&t, r), vec![none(), invalid(message)], "{message}");
        } else {
            t.expect_error(r, "ValidationException", local);
        }
    }
    // An item an update makes too large is a reason on both (the conformance suite's capture of real
    // DynamoDB; DynamoDB Local 3.3.1 agrees when the update's own values are under 400 KB).
    let r = b
        .write(vec![
            put(&b.log, log("x", "1")),
            update(&b.acct, key(), "SET more = :big").values([(":big", s(&"m".repeat(200_000)))]),
        ])
        .await;
    assert_eq!(
        reasons(&t, r),
        vec![
            none(),
            invalid("Item size to update has exceeded the maximum allowed size")
        ]
    );
    // An update of a key attribute is a reason on both.
    let r = b
        .write(vec![
            update(&b.acct, key(), "SET pk = :v").values([(":v", s("b"))])
        ])
        .await;
    assert_eq!(
        reasons(&t, r),
        vec![invalid(
            "One or more parameter values were invalid: Cannot update attribute pk. This attribute is \
             part of the key"
        )]
    );
    // The condition is evaluated before the update runs.
    let r = b
        .write(vec![update(&b.acct, key(), "SET v = s + :one")
            .condition("attribute_not_exists(pk)")
            .values([(":one", num("1"))])])
        .await;
    assert_eq!(reasons(&t, r), vec![failed(None)]);
    assert_eq!(b.stored(&b.log, log("x", "1")).await, None);
});

dual_test!(transactions_report_key_mismatches_as_reasons, |t| {
    let b = Bank::new(&t).await;
    let mismatch = "The provided key element does not match the schema";
    // KNOWN DIFFERENCE (wording): real DynamoDB (eu-west-2, the conformance suite) gives a Put item
    // PutItem's full type-mismatch text and a Key GetItem's schema-mismatch text; DynamoDB Local 3.3.1
    // stops after "Type mismatch for key" for both.
    let local_type = "One or more parameter values were invalid: Type mismatch for key";
    let cases: Vec<(TransactWriteItem, &str, &str)> = vec![
        (
            put(&b.acct, item([("pk", num("1"))])),
            "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N",
            local_type,
        ),
        (delete(&b.acct, item([("pk", num("1"))])), mismatch, local_type),
        (
            update(&b.acct, item([("pk", num("1"))]), "SET v = :v").values([(":v", num("1"))]),
            mismatch,
            local_type,
        ),
        (
            check(&b.acct, item([("pk", num("1"))]), "attribute_exists(pk)"),
            mismatch,
            local_type,
        ),
        (
            put(&b.acct, acct(&"k".repeat(2049), [])),
            "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size \
             limit of2048 bytes",
            "Hash primary key values must be under 2048 bytes, and range primary key values must be \
             under 1024 bytes",
        ),
    ];
    for (action, message, local) in cases {
        let r = b.write(vec![action, put(&b.log, log("x", "1"))]).await;
        let expected = if is_engine(&t) { message } else { local };
        assert_eq!(reasons(&t, r), vec![invalid(expected), none()], "{message}");
    }
    // KNOWN DIFFERENCE: a key with the wrong attributes is a reason too on real DynamoDB (the
    // conformance suite's capture of an empty Key in TransactGetItems); DynamoDB Local 3.3.1 refuses
    // the request.
    let wrong_attributes: Vec<(TransactWriteItem, &str, &str)> = vec![
        (
            put(&b.log, item([("pk", s("a"))])),
            "One or more parameter values were invalid: Missing the key sk in the item",
            "One of the required keys was not given a value",
        ),
        (
            delete(&b.log, item([("pk", s("a"))])),
            mismatch,
            "The number of conditions on the keys is invalid",
        ),
        (
            check(
                &b.acct,
                acct("a", [("extra", s("x"))]),
                "attribute_exists(pk)",
            ),
            mismatch,
            "The number of conditions on the keys is invalid",
        ),
    ];
    for (action, message, local) in wrong_attributes {
        let r = b.write(vec![action]).await;
        if is_engine(&t) {
            assert_eq!(reasons(&t, r), vec![invalid(message)]);
        } else {
            t.expect_error(r, "ValidationException", local);
        }
    }
});

dual_test!(cancellation_stops_at_the_first_validation_error, |t| {
    // Issue 26 fact 23: `[Put with a wrong key type, Put, Put with a false condition]` cancels with
    // `[ValidationError, None, None]`; the `None`s carry no message.
    let b = Bank::new(&t).await;
    let r = b
        .write(vec![
            put(&b.acct, item([("pk", num("1"))])),
            put(&b.log, log("x", "1")),
            put(&b.acct, acct("a", [])).condition("attribute_exists(pk)"),
        ])
        .await;
    let got = reasons(&t, r);
    if is_engine(&t) {
        assert!(got[1..].iter().all(|(_, message, _)| message.is_none()));
        let mismatch = "One or more parameter values were invalid: Type mismatch for key pk \
                        expected: S actual: N";
        assert_eq!(got, vec![invalid(mismatch), none(), none()]);
    } else {
        // KNOWN DIFFERENCE: DynamoDB Local 3.3.1 goes on evaluating and reports the failed condition.
        let local = "One or more parameter values were invalid: Type mismatch for key";
        assert_eq!(got, vec![invalid(local), none(), failed(None)]);
    }
    assert_eq!(b.stored(&b.log, log("x", "1")).await, None);
});

dual_test!(transactions_check_index_keys, |t| {
    let b = Bank::new(&t).await;
    // KNOWN DIFFERENCE (wording): real DynamoDB names the index and the types (the conformance
    // suite's eu-west-2 captures); DynamoDB Local 3.3.1 stops after "Type mismatch for Index Key".
    let local = "One or more parameter values were invalid: Type mismatch for Index Key";
    let put_text =
        "One or more parameter values were invalid: Type mismatch for Index Key g Expected: S \
                    Actual: N IndexName: by-g";
    let expected = |engine: &str| {
        if is_engine(&t) {
            engine.to_owned()
        } else {
            local.to_owned()
        }
    };
    let r = b
        .write(vec![put(&b.acct, acct("a", [("g", num("1"))]))])
        .await;
    assert_eq!(reasons(&t, r), vec![invalid(&expected(put_text))]);
    // An update writing a value from the request gets PutItem's text, whether it creates the item
    // or changes it (issue 26 fact 8); copying a mistyped attribute has a text of its own.
    let r = b
        .write(vec![
            update(&b.acct, acct("a", []), "SET g = :v").values([(":v", num("1"))])
        ])
        .await;
    assert_eq!(reasons(&t, r), vec![invalid(&expected(put_text))]);
    b.write(vec![put(
        &b.acct,
        acct("a", [("g", s("x")), ("n", num("1"))]),
    )])
    .await
    .unwrap();
    let r = b
        .write(vec![
            update(&b.acct, acct("a", []), "SET g = :v").values([(":v", num("1"))])
        ])
        .await;
    assert_eq!(reasons(&t, r), vec![invalid(&expected(put_text))]);
    let r = b
        .write(vec![update(&b.acct, acct("a", []), "SET g = n")])
        .await;
    assert_eq!(
        reasons(&t, r),
        vec![invalid(&expected(
            "The update expression attempted to update the secondary index key to unsupported type"
        ))]
    );
    assert_eq!(b.by_g("x").await, ["a"]);
    // Empty index key values refuse the request, from a Put's item or from an update.
    t.expect_error(
        b.write(vec![put(&b.acct, acct("b", [("g", s(""))]))]).await,
        "ValidationException",
        "One or more parameter values are not valid. A value specified for a secondary index key is \
         not supported. The AttributeValue for a key attribute cannot contain an empty string value. \
         IndexName: by-g, IndexKey: g",
    );
    t.expect_error(
        b.write(vec![
            check(&b.log, log("x", "1"), "attribute_exists(pk)"),
            update(&b.acct, acct("a", []), "SET g = :v").values([(":v", s(""))]),
        ])
        .await,
        "ValidationException",
        "One or more parameter values are not valid. The update expression attempted to update a \
         secondary index key to a value that is not supported. The AttributeValue for a key attribute \
         cannot contain an empty string value.",
    );
});
