//! Cancellation reasons: one per action in request order, every failure reported, the failed item with
//! ALL_OLD, and the `ValidationError`s of what depends on the table or on the stored item.

use dynomodel::{AttributeValue, CancellationReason, Error};

use super::super::{n, s, ss, MISMATCH};
use super::*;

#[tokio::test]
async fn one_reason_per_action_in_order_with_every_failure() {
    let b = engine().await;
    let seeded = |pk: &str| acct(pk, &[("bal", n("1"))]);
    write(
        &b,
        ["a", "b", "c", "d"]
            .map(|pk| put("acct", seeded(pk)))
            .to_vec(),
    )
    .await
    .expect("seed");
    let r = write(
        &b,
        vec![
            put("log", log("x", 1)),
            // Fails, asks for the item, and the item exists.
            update("acct", acct("a", &[]), "SET bal = :v", &[])
                .with_condition("bal > :limit")
                .with_values(&[(":v", n("0")), (":limit", n("5"))])
                .all_old(),
            // Fails and asks for the item, but there is none.
            delete("acct", acct("missing", &[]))
                .with_condition("attribute_exists(pk)")
                .all_old(),
            // Fails without asking.
            put_if("acct", acct("b", &[]), "attribute_not_exists(pk)"),
            // A ConditionCheck's message ends with a period.
            check("acct", acct("c", &[]), "bal = :v")
                .with_values(&[(":v", n("2"))])
                .all_old(),
            check("acct", acct("d", &[]), "bal = :v").with_values(&[(":v", n("1"))]),
        ],
    )
    .await;
    assert_eq!(
        reasons(r),
        vec![
            CancellationReason::none(),
            failed(Some(seeded("a"))),
            failed(None),
            failed(None),
            CancellationReason::new("ConditionalCheckFailed", "The conditional request failed.")
                .with_item(Some(seeded("c"))),
            CancellationReason::none(),
        ]
    );
    assert_eq!(stored(&b, "acct", acct("a", &[])).await, Some(seeded("a")));
    assert_eq!(stored(&b, "log", log("x", 1)).await, None);
}

#[tokio::test]
async fn what_an_update_finds_while_running_is_a_validation_error() {
    let b = engine().await;
    write(
        &b,
        vec![put(
            "acct",
            acct(
                "a",
                &[
                    ("s", s("text")),
                    ("big", n("9E+125")),
                    ("tags", ss(&["x"])),
                    ("pad", s(&"p".repeat(300_000))),
                ],
            ),
        )],
    )
    .await
    .expect("seed");
    let key = || acct("a", &[]);
    let cases: Vec<(TransactWriteItem, &str)> = vec![
        (
            update("acct", key(), "SET v = s + :one", &[(":one", n("1"))]),
            "An operand in the update expression has an incorrect data type",
        ),
        (
            update("acct", key(), "SET s.nested = :one", &[(":one", n("1"))]),
            "The document path provided in the update expression is invalid for update",
        ),
        (
            update("acct", key(), "SET v = nothing", &[]),
            "The provided expression refers to an attribute that does not exist in the item",
        ),
        (
            update("acct", key(), "ADD big :big", &[(":big", n("9E+125"))]),
            "Number overflow. Attempting to store a number with magnitude larger than supported range",
        ),
        (
            update("acct", key(), "SET v = :a + :b", &[(":a", n("1E+20")), (":b", n("1E-20"))]),
            "Number overflow. Attempting to store a number with magnitude larger than supported range",
        ),
        (
            update("acct", key(), "ADD tags :one", &[(":one", n("1"))]),
            "An operand in the update expression has an incorrect data type",
        ),
        (
            update("acct", key(), "SET more = :big", &[(":big", s(&"m".repeat(200_000)))]),
            "Item size to update has exceeded the maximum allowed size",
        ),
        (
            update("acct", key(), "SET pk = :v", &[(":v", s("b"))]),
            "One or more parameter values were invalid: Cannot update attribute pk. This attribute is \
             part of the key",
        ),
    ];
    for (action, message) in cases {
        let r = write(&b, vec![put("log", log("x", 1)), action]).await;
        assert_eq!(
            reasons(r),
            vec![CancellationReason::none(), invalid(message)],
            "{message}"
        );
    }
    assert_eq!(stored(&b, "log", log("x", 1)).await, None);
}

/// Issue 26 fact 23: evaluation stops at the first validation error; the actions after it are
/// `None` (without a message), even one whose condition fails. A condition that failed before it
/// keeps its reason.
#[tokio::test]
async fn cancellation_stops_at_the_first_validation_error() {
    let b = engine().await;
    let wrong_key = || put("acct", item(&[("pk", n("1"))]));
    let mismatch =
        "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N";
    let r = write(
        &b,
        vec![
            wrong_key(),
            put("log", log("x", 1)),
            put_if("acct", acct("a", &[]), "attribute_exists(pk)"),
        ],
    )
    .await;
    let got = reasons(r);
    assert_eq!(
        got,
        vec![
            invalid(mismatch),
            CancellationReason::none(),
            CancellationReason::none(),
        ]
    );
    assert!(got[1..].iter().all(|r| r.message.is_none()));
    let r = write(
        &b,
        vec![
            put_if("acct", acct("a", &[]), "attribute_exists(pk)"),
            wrong_key(),
            put_if("acct", acct("b", &[]), "attribute_exists(pk)"),
        ],
    )
    .await;
    assert_eq!(
        reasons(r),
        vec![failed(None), invalid(mismatch), CancellationReason::none()]
    );
    assert_eq!(stored(&b, "log", log("x", 1)).await, None);
}

#[tokio::test]
async fn the_condition_is_evaluated_before_the_update() {
    let b = engine().await;
    write(&b, vec![put("acct", acct("a", &[("s", s("text"))]))])
        .await
        .expect("seed");
    let r = write(
        &b,
        vec![update(
            "acct",
            acct("a", &[]),
            "SET v = s + :one",
            &[(":one", n("1"))],
        )
        .with_condition("attribute_not_exists(pk)")],
    )
    .await;
    assert_eq!(reasons(r), vec![failed(None)]);
}

#[tokio::test]
async fn keys_that_do_not_match_the_schema_are_validation_errors() {
    let b = engine().await;
    let cases: Vec<(TransactWriteItem, String)> = vec![
        (
            put("acct", item(&[("pk", n("1"))])),
            "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N"
                .into(),
        ),
        // A value that can never be a key is one more type mismatch in a transaction.
        (
            put("acct", item(&[("pk", AttributeValue::L(vec![s("x")]))])),
            "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: L"
                .into(),
        ),
        (
            put("log", item(&[("pk", s("a"))])),
            "One or more parameter values were invalid: Missing the key sk in the item".into(),
        ),
        (delete("acct", item(&[("pk", n("1"))])), MISMATCH.into()),
        (
            update("acct", item(&[("pk", AttributeValue::Bool(true))]), "SET v = :v", &[(":v", n("1"))]),
            MISMATCH.into(),
        ),
        (check("log", item(&[("pk", s("a"))]), "attribute_exists(pk)"), MISMATCH.into()),
        (
            check("acct", acct("a", &[("extra", s("x"))]), "attribute_exists(pk)"),
            MISMATCH.into(),
        ),
        (
            put("acct", acct(&"k".repeat(2049), &[])),
            "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size \
             limit of2048 bytes"
                .into(),
        ),
    ];
    for (action, message) in cases {
        let r = write(&b, vec![action, put("log", log("x", 1))]).await;
        assert_eq!(
            reasons(r),
            vec![invalid(&message), CancellationReason::none()],
            "{message}"
        );
    }
}

#[tokio::test]
async fn index_keys_of_the_wrong_type_are_validation_errors() {
    let b = engine().await;
    let put_text =
        "One or more parameter values were invalid: Type mismatch for Index Key g Expected: S \
                    Actual: N IndexName: by-g";
    let r = write(&b, vec![put("acct", acct("a", &[("g", n("1"))]))]).await;
    assert_eq!(reasons(r), vec![invalid(put_text)]);
    let r = write(
        &b,
        vec![put(
            "acct",
            acct("a", &[("g", AttributeValue::M(item(&[])))]),
        )],
    )
    .await;
    assert_eq!(
        reasons(r),
        vec![invalid(
            "One or more parameter values were invalid: Type mismatch for Index Key g Expected: S \
             Actual: M IndexName: by-g"
        )]
    );
    // An update gets PutItem's text for a value from the request, whether it creates the item or
    // changes it (issue 26 fact 8); copying a mistyped attribute has a text of its own.
    let r = write(
        &b,
        vec![update(
            "acct",
            acct("a", &[]),
            "SET g = :v",
            &[(":v", n("1"))],
        )],
    )
    .await;
    assert_eq!(reasons(r), vec![invalid(put_text)]);
    write(
        &b,
        vec![put("acct", acct("a", &[("g", s("x")), ("num", n("1"))]))],
    )
    .await
    .expect("seed");
    let r = write(
        &b,
        vec![update(
            "acct",
            acct("a", &[]),
            "SET g = :v",
            &[(":v", n("1"))],
        )],
    )
    .await;
    assert_eq!(reasons(r), vec![invalid(put_text)]);
    let r = write(&b, vec![update("acct", acct("a", &[]), "SET g = num", &[])]).await;
    assert_eq!(
        reasons(r),
        vec![invalid(
            "The update expression attempted to update the secondary index key to unsupported type"
        )]
    );
    assert_eq!(by_g(&b, "x").await, ["a"]);
}

#[tokio::test]
async fn an_empty_index_key_from_an_update_refuses_the_request() {
    let b = engine().await;
    let r = write(
        &b,
        vec![
            // A reason first: the request error still wins.
            put_if("acct", acct("b", &[]), "attribute_exists(pk)"),
            update("acct", acct("a", &[]), "SET g = :v", &[(":v", s(""))]),
        ],
    )
    .await;
    assert_eq!(
        r,
        Err(Error::validation(
            "One or more parameter values are not valid. The update expression attempted to update a \
             secondary index key to a value that is not supported. The AttributeValue for a key \
             attribute cannot contain an empty string value."
        ))
    );
}
