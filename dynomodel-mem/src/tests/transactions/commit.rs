//! What a transaction writes: every action across tables or nothing, indexes kept in step, one action
//! per item, tables by name or ARN.

use dynomodel::backend::{Backend, DescribeTableInput};
use dynomodel::{AttributeValue, Error};

use super::super::{n, s};
use super::*;

#[tokio::test]
async fn every_action_across_tables_is_applied() {
    let b = engine().await;
    write(
        &b,
        vec![
            put("acct", acct("a", &[("bal", n("10")), ("g", s("x"))])),
            put("acct", acct("b", &[("bal", n("5"))])),
            put("log", log("a", 1)),
        ],
    )
    .await
    .expect("seed");
    write(
        &b,
        vec![
            update(
                "acct",
                acct("a", &[]),
                "SET bal = bal - :v",
                &[(":v", n("3"))],
            ),
            update("acct", acct("b", &[]), "ADD bal :v", &[(":v", n("3"))]),
            delete("log", log("a", 1)),
            put("log", log("a", 2)),
            check("acct", acct("c", &[]), "attribute_not_exists(pk)"),
        ],
    )
    .await
    .expect("transfer");
    assert_eq!(
        stored(&b, "acct", acct("a", &[])).await,
        Some(acct("a", &[("bal", n("7")), ("g", s("x"))]))
    );
    assert_eq!(
        stored(&b, "acct", acct("b", &[])).await,
        Some(acct("b", &[("bal", n("8"))]))
    );
    assert_eq!(stored(&b, "log", log("a", 1)).await, None);
    assert_eq!(stored(&b, "log", log("a", 2)).await, Some(log("a", 2)));
    // A ConditionCheck writes nothing, not even on a missing item.
    assert_eq!(stored(&b, "acct", acct("c", &[])).await, None);
    // An Update of a missing item creates it, as UpdateItem does.
    write(
        &b,
        vec![update(
            "acct",
            acct("new", &[]),
            "SET v = :v",
            &[(":v", n("1"))],
        )],
    )
    .await
    .expect("upsert");
    assert_eq!(
        stored(&b, "acct", acct("new", &[])).await,
        Some(acct("new", &[("v", n("1"))]))
    );
}

#[tokio::test]
async fn a_failed_action_writes_nothing_anywhere() {
    let b = engine().await;
    write(
        &b,
        vec![
            put("acct", acct("a", &[("bal", n("1")), ("g", s("x"))])),
            put("acct", acct("c", &[("bal", n("1"))])),
        ],
    )
    .await
    .expect("seed");
    let before_acct = b
        .describe_table(DescribeTableInput {
            table_name: "acct".into(),
        })
        .await
        .expect("describe")
        .table;
    // The failing action is last: everything before it was planned and would have written.
    let r = write(
        &b,
        vec![
            put("log", log("a", 1)),
            update("acct", acct("a", &[]), "SET g = :g", &[(":g", s("y"))]),
            put("acct", acct("b", &[("g", s("x"))])),
            delete("acct", acct("zzz", &[])),
            check("acct", acct("c", &[]), "bal > :v").with_values(&[(":v", n("5"))]),
        ],
    )
    .await;
    assert_eq!(
        reasons(r),
        vec![
            CancellationReason::none(),
            CancellationReason::none(),
            CancellationReason::none(),
            CancellationReason::none(),
            CancellationReason::new("ConditionalCheckFailed", "The conditional request failed."),
        ]
    );
    assert_eq!(stored(&b, "log", log("a", 1)).await, None);
    assert_eq!(stored(&b, "acct", acct("b", &[])).await, None);
    assert_eq!(
        stored(&b, "acct", acct("a", &[])).await,
        Some(acct("a", &[("bal", n("1")), ("g", s("x"))]))
    );
    // The index did not move either.
    assert_eq!(by_g(&b, "x").await, ["a"]);
    assert!(by_g(&b, "y").await.is_empty());
    let after_acct = b
        .describe_table(DescribeTableInput {
            table_name: "acct".into(),
        })
        .await
        .expect("describe")
        .table;
    assert_eq!(after_acct.item_count, before_acct.item_count);
    assert_eq!(after_acct.table_size_bytes, before_acct.table_size_bytes);
}

#[tokio::test]
async fn indexes_follow_every_kind_of_write() {
    let b = engine().await;
    write(
        &b,
        vec![
            put("acct", acct("a", &[("g", s("x"))])),
            put("acct", acct("b", &[("g", s("x"))])),
            put("acct", acct("c", &[("g", s("y"))])),
        ],
    )
    .await
    .expect("seed");
    assert_eq!(by_g(&b, "x").await, ["a", "b"]);
    write(
        &b,
        vec![
            // An update moves an entry between index keys, a REMOVE takes it out, a delete too, and a
            // put replacing an item re-keys it.
            update("acct", acct("a", &[]), "SET g = :g", &[(":g", s("y"))]),
            update("acct", acct("b", &[]), "REMOVE g", &[]),
            delete("acct", acct("c", &[])),
            put("acct", acct("d", &[("g", s("x"))])),
        ],
    )
    .await
    .expect("moves");
    assert_eq!(by_g(&b, "x").await, ["d"]);
    assert_eq!(by_g(&b, "y").await, ["a"]);
    let gsi = &b
        .describe_table(DescribeTableInput {
            table_name: "acct".into(),
        })
        .await
        .expect("describe")
        .table
        .global_secondary_indexes[0];
    assert_eq!(gsi.item_count, 2);
}

#[tokio::test]
async fn one_action_per_item() {
    let b = engine().await;
    let pairs = [
        (
            put("acct", acct("a", &[])),
            check("acct", acct("a", &[]), "attribute_exists(pk)"),
        ),
        (
            delete("acct", acct("a", &[])),
            put("acct", acct("a", &[("x", n("1"))])),
        ),
        (
            update("acct", acct("a", &[]), "SET x = :v", &[(":v", n("1"))]),
            delete("acct", acct("a", &[])),
        ),
        // Numbers are compared by value: 1 and 1.0 are one sort key.
        (
            put("log", log("a", 1)),
            delete("log", item(&[("pk", s("a")), ("sk", n("1.0"))])),
        ),
        // A table named by its ARN is the same table.
        (
            put("acct", acct("a", &[])),
            delete(
                "arn:aws:dynamodb:ddblocal:000000000000:table/acct",
                acct("a", &[]),
            ),
        ),
    ];
    for (first, second) in pairs {
        let r = write(&b, vec![put("log", log("z", 9)), first, second]).await;
        assert_eq!(r, Err(Error::validation(ONE_ITEM)));
    }
    assert_eq!(stored(&b, "log", log("z", 9)).await, None);
    // The same key in two tables is two items; two sort keys are two items.
    write(
        &b,
        vec![
            put("acct", acct("a", &[])),
            put("log", log("a", 1)),
            put("log", log("a", 2)),
        ],
    )
    .await
    .expect("distinct items");
}

#[tokio::test]
async fn tables_by_name_or_arn_and_missing_tables() {
    let b = engine().await;
    write(
        &b,
        vec![put(
            "arn:aws:dynamodb:ddblocal:000000000000:table/acct",
            acct("a", &[("v", s("by arn"))]),
        )],
    )
    .await
    .expect("arn");
    assert_eq!(
        stored(&b, "acct", acct("a", &[])).await,
        Some(acct("a", &[("v", s("by arn"))]))
    );
    let not_found = Err(Error::resource_not_found("Requested resource not found"));
    // Another account's or region's table, and a missing table after actions that would write.
    for table in [
        "arn:aws:dynamodb:us-east-1:123456789012:table/acct",
        "missing",
    ] {
        let r = write(
            &b,
            vec![put("log", log("x", 1)), delete(table, acct("a", &[]))],
        )
        .await;
        assert_eq!(r, not_found);
    }
    assert_eq!(stored(&b, "log", log("x", 1)).await, None);
    // The table is looked up before the duplicate check.
    let r = write(
        &b,
        vec![
            put("missing", acct("a", &[])),
            put("missing", acct("a", &[])),
        ],
    )
    .await;
    assert_eq!(r, not_found);
}

#[tokio::test]
async fn key_values_keep_their_canonical_form() {
    let b = engine().await;
    write(
        &b,
        vec![put(
            "log",
            item(&[
                ("pk", s("a")),
                ("sk", n("1.50")),
                ("v", AttributeValue::Null),
            ]),
        )],
    )
    .await
    .expect("put");
    assert_eq!(
        stored(&b, "log", log("a", 0)).await,
        None,
        "a different key is a different item"
    );
    let got = stored(&b, "log", item(&[("pk", s("a")), ("sk", n("1.5"))])).await;
    assert_eq!(got.and_then(|i| i.get("sk").cloned()), Some(n("1.5")));
}
