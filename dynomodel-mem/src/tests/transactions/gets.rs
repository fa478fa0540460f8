//! TransactGetItems: responses in request order, projections, and its errors.

use dynomodel::backend::{Backend, TransactGet, TransactGetItemsInput};
use dynomodel::{item_size, CancellationReason, Error, MAX_ITEM_SIZE};

use super::super::{assert_too_many, assert_validation, empty_key, n, names, s, MISMATCH};
use super::*;

fn get(table: &str, key: Item) -> TransactGet {
    TransactGet {
        table_name: table.into(),
        key,
        ..Default::default()
    }
}

fn projected(table: &str, key: Item, projection: &str, pairs: &[(&str, &str)]) -> TransactGet {
    TransactGet {
        table_name: table.into(),
        key,
        projection_expression: Some(projection.into()),
        expression_attribute_names: (!pairs.is_empty()).then(|| names(pairs)).flatten(),
    }
}

async fn read(b: &MemBackend, gets: Vec<TransactGet>) -> Result<Vec<Option<Item>>, Error> {
    b.transact_get_items(TransactGetItemsInput {
        transact_items: gets,
        ..Default::default()
    })
    .await
    .map(|o| o.responses)
}

#[tokio::test]
async fn one_response_per_get_in_order() {
    let b = engine().await;
    let a = acct("a", &[("bal", n("1")), ("name", s("Ada"))]);
    write(
        &b,
        vec![
            put("acct", a),
            put("log", log("a", 1)),
            put("log", log("b", 1)),
        ],
    )
    .await
    .expect("seed");
    let got = read(
        &b,
        vec![
            get("log", log("a", 1)),
            get("acct", acct("missing", &[])),
            projected("acct", acct("a", &[]), "#n, bal", &[("#n", "name")]),
            // An existing item with none of the projected attributes is an empty item, not "none".
            projected("log", log("b", 1), "nothing", &[]),
            get(
                "arn:aws:dynamodb:ddblocal:000000000000:table/log",
                log("a", 2),
            ),
        ],
    )
    .await
    .expect("read");
    assert_eq!(
        got,
        vec![
            Some(log("a", 1)),
            None,
            Some(item(&[("bal", n("1")), ("name", s("Ada"))])),
            Some(Item::new()),
            None,
        ]
    );
}

#[tokio::test]
async fn one_get_per_item() {
    let b = engine().await;
    let one_item = Err(Error::validation(ONE_ITEM));
    // By name and by ARN, with or without a projection, and with 1 and 1.0 as the sort key.
    let pairs = [
        (
            get("acct", acct("a", &[])),
            projected("acct", acct("a", &[]), "pk", &[]),
        ),
        (
            get("log", log("a", 1)),
            get(
                "arn:aws:dynamodb:ddblocal:000000000000:table/log",
                item(&[("pk", s("a")), ("sk", n("1.0"))]),
            ),
        ),
    ];
    for (first, second) in pairs {
        assert_eq!(read(&b, vec![first, second]).await, one_item);
    }
    assert_eq!(
        read(
            &b,
            vec![get("acct", acct("a", &[])), get("log", log("a", 1))]
        )
        .await,
        Ok(vec![None, None]),
        "the same key in two tables is two items"
    );
}

#[tokio::test]
async fn request_errors() {
    let b = engine().await;
    assert_validation(
        read(&b, vec![]).await,
        "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: \
         Member must have length greater than or equal to 1",
    );
    let many = |count: usize| {
        (0..count)
            .map(|i| get("acct", acct(&i.to_string(), &[])))
            .collect::<Vec<_>>()
    };
    assert_too_many(read(&b, many(101)).await, "[TransactGetItem(get=Get(key={");
    assert_eq!(read(&b, many(100)).await, Ok(vec![None; 100]));
    let empty_pk = empty_key("pk");
    let cases: Vec<(TransactGet, &str)> = vec![
        (
            TransactGet {
                expression_attribute_names: names(&[("#a", "a")]),
                ..get("acct", acct("a", &[]))
            },
            "ExpressionAttributeNames can only be specified when using expressions",
        ),
        (
            projected("acct", acct("a", &[]), "a", &[("#x", "x")]),
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {#x}",
        ),
        (
            projected("acct", acct("a", &[]), "#x", &[]),
            "Invalid ProjectionExpression: An expression attribute name used in the document path is \
             not defined; attribute name: #x",
        ),
        (
            projected("acct", acct("a", &[]), "pk.x", &[]),
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not \
             allowed: Key: pk",
        ),
        (get("acct", acct("", &[])), &empty_pk),
        (get("ab", acct("a", &[])), "TableName must be at least 3 characters long and at most 255 characters long"),
    ];
    for (bad, message) in cases {
        assert_validation(read(&b, vec![get("log", log("a", 1)), bad]).await, message);
    }
    assert_eq!(
        read(
            &b,
            vec![get("acct", acct("a", &[])), get("missing", acct("a", &[]))]
        )
        .await,
        Err(Error::resource_not_found("Requested resource not found"))
    );
}

#[tokio::test]
async fn keys_that_do_not_match_the_schema_cancel_the_read() {
    let b = engine().await;
    let r = read(
        &b,
        vec![
            get("acct", acct("a", &[])),
            get("acct", item(&[("pk", n("1"))])),
            get("log", item(&[])),
        ],
    )
    .await;
    match r {
        Err(Error::TransactionCanceled { message, reasons }) => {
            assert_eq!(
                message,
                "Transaction cancelled, please refer cancellation reasons for specific reasons [None, \
                 ValidationError, ValidationError]"
            );
            assert_eq!(
                reasons,
                vec![
                    CancellationReason::none(),
                    invalid(MISMATCH),
                    invalid(MISMATCH)
                ]
            );
        }
        other => panic!("expected a cancellation, got {other:?}"),
    }
}

#[tokio::test]
async fn the_items_read_may_total_4_mib() {
    let b = engine().await;
    // Eleven items of 400 KB: 4,505,600 bytes, plus 4 per item in DynamoDB Local's figure.
    for i in 0..11 {
        let item = acct(
            &format!("k{i:02}"),
            &[("d", s(&"x".repeat(MAX_ITEM_SIZE - 6)))],
        );
        write(&b, vec![put("acct", item)]).await.expect("seed");
    }
    let gets = |count: usize| {
        (0..count)
            .map(|i| get("acct", acct(&format!("k{i:02}"), &[])))
            .collect::<Vec<_>>()
    };
    let got = read(&b, gets(10)).await.expect("4,096,000 bytes");
    assert_eq!(
        got.iter().flatten().map(item_size).sum::<usize>(),
        10 * MAX_ITEM_SIZE
    );
    assert_validation(
        read(&b, gets(11)).await,
        "Payload in response is too large.4505644",
    );
    // A projection reads less.
    let small: Vec<TransactGet> = (0..11)
        .map(|i| projected("acct", acct(&format!("k{i:02}"), &[]), "pk", &[]))
        .collect();
    let keys: Vec<Option<Item>> = (0..11)
        .map(|i| Some(acct(&format!("k{i:02}"), &[])))
        .collect();
    assert_eq!(read(&b, small).await, Ok(keys));
}
