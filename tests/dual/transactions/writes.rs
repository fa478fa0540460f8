//! What a TransactWriteItems writes: everything across tables or nothing, indexes in step, one action
//! per item, tables by name or ARN.

use super::*;

dual_test!(transactions_commit_across_tables_and_indexes, |t| {
    let b = Bank::new(&t).await;
    b.write(vec![
        put(&b.acct, acct("a", [("bal", num("10")), ("g", s("x"))])),
        put(&b.acct, acct("b", [("bal", num("5")), ("g", s("x"))])),
        put(&b.acct, acct("c", [("g", s("y"))])),
        put(&b.log, log("a", "1")),
    ])
    .await
    .unwrap();
    assert_eq!(b.by_g("x").await, ["a", "b"]);
    b.write(vec![
        update(&b.acct, acct("a", []), "SET bal = bal - :v, g = :y")
            .values([(":v", num("3")), (":y", s("y"))]),
        update(&b.acct, acct("b", []), "ADD bal :v REMOVE g").values([(":v", num("3"))]),
        delete(&b.acct, acct("c", [])),
        delete(&b.log, log("a", "1")),
        put(&b.log, log("a", "2")),
        check(&b.acct, acct("none", []), "attribute_not_exists(pk)"),
        // An Update of a missing item creates it.
        update(&b.acct, acct("new", []), "SET g = :x").values([(":x", s("x"))]),
    ])
    .await
    .unwrap();
    assert_eq!(
        b.stored(&b.acct, acct("a", [])).await,
        Some(acct("a", [("bal", num("7")), ("g", s("y"))]))
    );
    assert_eq!(
        b.stored(&b.acct, acct("b", [])).await,
        Some(acct("b", [("bal", num("8"))]))
    );
    assert_eq!(b.stored(&b.acct, acct("c", [])).await, None);
    assert_eq!(b.stored(&b.log, log("a", "1")).await, None);
    assert_eq!(b.stored(&b.log, log("a", "2")).await, Some(log("a", "2")));
    assert_eq!(
        b.stored(&b.acct, acct("none", [])).await,
        None,
        "a ConditionCheck writes nothing"
    );
    assert_eq!(b.by_g("x").await, ["new"]);
    assert_eq!(b.by_g("y").await, ["a"]);
});

dual_test!(transactions_write_nothing_when_one_action_fails, |t| {
    let b = Bank::new(&t).await;
    b.write(vec![
        put(&b.acct, acct("a", [("bal", num("1")), ("g", s("x"))])),
        put(&b.acct, acct("c", [("bal", num("1"))])),
    ])
    .await
    .unwrap();
    // The failing action is last: every other one was checked and would have written.
    let r = b
        .write(vec![
            put(&b.log, log("a", "1")),
            update(&b.acct, acct("a", []), "SET g = :y").values([(":y", s("y"))]),
            put(&b.acct, acct("b", [("g", s("x"))])),
            delete(&b.acct, acct("missing", [])),
            check(&b.acct, acct("c", []), "bal > :v").values([(":v", num("5"))]),
        ])
        .await;
    let codes: Vec<CancellationCode> = reasons(&t, r).into_iter().map(|r| r.0).collect();
    assert_eq!(
        codes,
        ["None", "None", "None", "None", "ConditionalCheckFailed"].map(CancellationCode::from)
    );
    assert_eq!(b.stored(&b.log, log("a", "1")).await, None);
    assert_eq!(b.stored(&b.acct, acct("b", [])).await, None);
    assert_eq!(
        b.stored(&b.acct, acct("a", [])).await,
        Some(acct("a", [("bal", num("1")), ("g", s("x"))]))
    );
    assert_eq!(b.by_g("x").await, ["a"]);
    assert!(b.by_g("y").await.is_empty());
});

dual_test!(transactions_allow_one_action_per_item, |t| {
    const ONE_ITEM: &str = "Transaction request cannot include multiple operations on one item";
    let b = Bank::new(&t).await;
    let pairs = [
        (
            put(&b.acct, acct("a", [])),
            check(&b.acct, acct("a", []), "attribute_exists(pk)"),
        ),
        (
            delete(&b.acct, acct("a", [])),
            put(&b.acct, acct("a", [("x", num("1"))])),
        ),
        (
            update(&b.acct, acct("a", []), "SET x = :v").values([(":v", num("1"))]),
            delete(&b.acct, acct("a", [])),
        ),
    ];
    for (first, second) in pairs {
        t.expect_error(
            b.write(vec![put(&b.log, log("z", "9")), first, second])
                .await,
            "ValidationException",
            ONE_ITEM,
        );
    }
    assert_eq!(b.stored(&b.log, log("z", "9")).await, None);
    // The same key in two tables, or two sort keys, are distinct items.
    b.write(vec![
        put(&b.acct, acct("a", [])),
        put(&b.log, log("a", "1")),
        put(&b.log, log("a", "2")),
    ])
    .await
    .unwrap();
    // Numbers are compared by value: sort keys 1 and 1.0 are one item. (`Number` sends both as "1";
    // DynamoDB Local 3.3.1 lets the raw texts "1" and "1.0" through, which the typed API cannot send.)
    t.expect_error(
        b.write(vec![
            put(&b.log, log("b", "1")),
            delete(&b.log, item([("pk", s("b")), ("sk", num("1.0"))])),
        ])
        .await,
        "ValidationException",
        ONE_ITEM,
    );
});

dual_test!(
    transactions_name_tables_by_arn_and_fail_on_missing_tables,
    |t| {
        let b = Bank::new(&t).await;
        let arn = t
            .backend()
            .describe_table(DescribeTableInput {
                table_name: b.acct.clone(),
            })
            .await
            .unwrap()
            .table
            .table_arn;
        let r = b
            .write(vec![put(&arn, acct("a", [("v", s("by arn"))]))])
            .await;
        // KNOWN DIFFERENCE: TableName is a name or an ARN in every operation's model (`TableArn`), and
        // real DynamoDB resolves it; DynamoDB Local 3.3.1 resolves ARNs in PutItem but not in transactions.
        if is_engine(&t) {
            r.unwrap();
            assert_eq!(
                b.stored(&b.acct, acct("a", [])).await,
                Some(acct("a", [("v", s("by arn"))]))
            );
            // An ARN and a name of one table name one item.
            t.expect_error(
                b.write(vec![
                    put(&arn, acct("b", [])),
                    delete(&b.acct, acct("b", [])),
                ])
                .await,
                "ValidationException",
                "Transaction request cannot include multiple operations on one item",
            );
        } else {
            t.expect_error(r, "ResourceNotFoundException", LOCAL_NOT_FOUND);
        }
        // A missing table, after actions that would write, and before a duplicate (the tables are looked
        // up first).
        let missing = format!("{}-missing", b.acct);
        t.register_table(&missing);
        for actions in [
            vec![put(&b.log, log("x", "1")), delete(&missing, acct("a", []))],
            vec![put(&missing, acct("a", [])), put(&missing, acct("a", []))],
        ] {
            // KNOWN DIFFERENCE: real DynamoDB's message for item operations (the conformance suite's
            // capture of TransactWriteItems); DynamoDB Local's for every operation.
            t.expect_error_differs(
                b.write(actions).await,
                "ResourceNotFoundException",
                NOT_FOUND,
                LOCAL_NOT_FOUND,
            );
        }
        assert_eq!(b.stored(&b.log, log("x", "1")).await, None);
    }
);
