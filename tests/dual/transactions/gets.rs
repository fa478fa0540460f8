//! TransactGetItems: responses in request order, projections, one Get per item, and its errors.

use super::*;

fn get(table: &str, key: Item) -> TransactGet {
    TransactGet {
        table_name: table.into(),
        key,
        ..Default::default()
    }
}

fn projected(table: &str, key: Item, projection: &str) -> TransactGet {
    TransactGet {
        table_name: table.into(),
        key,
        projection_expression: Some(projection.into()),
        ..Default::default()
    }
}

impl Bank {
    async fn read(&self, gets: Vec<TransactGet>) -> Result<Vec<Option<Item>>> {
        self.t
            .backend()
            .transact_get_items(TransactGetItemsInput {
                transact_items: gets,
                ..Default::default()
            })
            .await
            .map(|o| o.responses)
    }
}

dual_test!(transact_get_returns_one_response_per_get, |t| {
    let b = Bank::new(&t).await;
    b.write(vec![
        put(&b.acct, acct("a", [("bal", num("1")), ("name", s("Ada"))])),
        put(&b.log, log("a", "1")),
        put(&b.log, log("b", "1")),
    ])
    .await
    .unwrap();
    let got = b
        .read(vec![
            get(&b.log, log("a", "1")),
            get(&b.acct, acct("missing", [])),
            TransactGet {
                expression_attribute_names: Some([("#n".to_owned(), "name".to_owned())].into()),
                ..projected(&b.acct, acct("a", []), "#n, bal")
            },
            // An existing item without the projected attributes is an empty item, not "none".
            projected(&b.log, log("b", "1"), "nothing"),
        ])
        .await
        .unwrap();
    assert_eq!(
        got,
        vec![
            Some(log("a", "1")),
            None,
            Some(item([("bal", num("1")), ("name", s("Ada"))])),
            Some(Item::new()),
        ]
    );
    let hundred: Vec<TransactGet> = (0..100)
        .map(|i| get(&b.acct, acct(&i.to_string(), [])))
        .collect();
    assert_eq!(b.read(hundred).await.unwrap(), vec![None; 100]);
});

dual_test!(transact_get_refuses_bad_requests, |t| {
    let b = Bank::new(&t).await;
    t.expect_error(
        b.read(vec![
            get(&b.acct, acct("a", [])),
            projected(&b.acct, acct("a", []), "pk"),
        ])
        .await,
        "ValidationException",
        "Transaction request cannot include multiple operations on one item",
    );
    t.expect_error(
        b.read(vec![
            get(&b.log, log("a", "1")),
            get(&b.log, item([("pk", s("a")), ("sk", num("1.0"))])),
        ])
        .await,
        "ValidationException",
        "Transaction request cannot include multiple operations on one item",
    );
    let many: Vec<TransactGet> = (0..101)
        .map(|i| get(&b.acct, acct(&i.to_string(), [])))
        .collect();
    // Member constraints in the smithy form (see transactions_check_their_members).
    assert_too_many(&t, b.read(many).await, "[TransactGetItem(get=Get(key={");
    let cases: Vec<(TransactGet, &str)> = vec![
        (
            TransactGet {
                expression_attribute_names: Some([("#x".to_owned(), "x".to_owned())].into()),
                ..projected(&b.acct, acct("a", []), "a")
            },
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {#x}",
        ),
        (
            TransactGet {
                expression_attribute_names: Some([("#x".to_owned(), "x".to_owned())].into()),
                ..get(&b.acct, acct("a", []))
            },
            "ExpressionAttributeNames can only be specified when using expressions",
        ),
        (
            projected(&b.acct, acct("a", []), "pk.x"),
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not \
             allowed: Key: pk",
        ),
        (
            get(&b.acct, acct("", [])),
            "One or more parameter values are not valid. The AttributeValue for a key attribute \
             cannot contain an empty string value. Key: pk",
        ),
    ];
    for (bad, message) in cases {
        t.expect_error(
            b.read(vec![get(&b.log, log("a", "1")), bad]).await,
            "ValidationException",
            message,
        );
    }
    let missing = format!("{}-missing", b.acct);
    t.register_table(&missing);
    t.expect_error_differs(
        b.read(vec![
            get(&b.acct, acct("a", [])),
            get(&missing, acct("a", [])),
        ])
        .await,
        "ResourceNotFoundException",
        NOT_FOUND,
        LOCAL_NOT_FOUND,
    );
});

dual_test!(transact_get_reports_key_mismatches, |t| {
    let b = Bank::new(&t).await;
    let r = b
        .read(vec![
            get(&b.acct, acct("a", [])),
            get(&b.acct, item([("pk", num("1"))])),
        ])
        .await;
    // KNOWN DIFFERENCE: real DynamoDB cancels the read with a `ValidationError` reason (the
    // conformance suite's capture); DynamoDB Local 3.3.1 answers TransactionCanceledException with
    // the key message and no reasons.
    match (t.target(), r) {
        (Target::DynamoDbLocal, Err(Error::TransactionCanceled { message, reasons })) => {
            assert_eq!(
                message,
                "One or more parameter values were invalid: Type mismatch for key"
            );
            assert!(reasons.is_empty());
        }
        (_, r) => {
            let r = r.map(|_| ());
            assert_eq!(
                reasons(&t, r),
                vec![
                    none(),
                    invalid("The provided key element does not match the schema")
                ]
            );
        }
    }
});

dual_test!(transact_get_reads_at_most_4_mb, |t| {
    let b = Bank::new(&t).await;
    // Eleven items of 400 KB: 4,505,600 bytes (and 4 more per item in the figure).
    for i in 0..11 {
        let big = acct(
            &format!("k{i:02}"),
            [("d", s(&"x".repeat(MAX_ITEM_SIZE - 6)))],
        );
        b.write(vec![put(&b.acct, big)]).await.unwrap();
    }
    let gets = |count: usize| -> Vec<TransactGet> {
        (0..count)
            .map(|i| get(&b.acct, acct(&format!("k{i:02}"), [])))
            .collect()
    };
    assert_eq!(b.read(gets(10)).await.unwrap().len(), 10);
    // DynamoDB Local 3.3.1's wording and figure: the only evidence there is.
    t.expect_error(
        b.read(gets(11)).await,
        "ValidationException",
        "Payload in response is too large.4505644",
    );
});
