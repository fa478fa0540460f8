//! Request errors (`ValidationException`) and their order: member constraints, the 4 MB limit, each
//! action's own checks, then the table-dependent ones.

use dynomodel::backend::TransactWriteItem;
use dynomodel::{AttributeValue, Error, Item, MAX_ITEM_SIZE};

use super::super::{assert_too_many, assert_validation, empty_key, n, s};
use super::*;

#[tokio::test]
async fn member_constraints() {
    let b = engine().await;
    assert_validation(
        write(&b, vec![]).await,
        "1 validation error detected: Value '[]' at 'transactItems' failed to satisfy constraint: \
         Member must have length greater than or equal to 1",
    );
    let many: Vec<TransactWriteItem> = (0..101)
        .map(|i| put("acct", acct(&i.to_string(), &[])))
        .collect();
    assert_too_many(
        write(&b, many).await,
        "[TransactWriteItem(conditionCheck=null, put=Put(item={",
    );
    let hundred: Vec<TransactWriteItem> = (0..100)
        .map(|i| put("acct", acct(&i.to_string(), &[])))
        .collect();
    write(&b, hundred).await.expect("100 actions");
    let token = "t".repeat(37);
    assert_validation(
        write_with(&b, vec![put("acct", acct("a", &[]))], Some(&token)).await,
        &format!(
            "1 validation error detected: Value '{token}' at 'clientRequestToken' failed to satisfy \
             constraint: Member must have length less than or equal to 36"
        ),
    );
    write_with(&b, vec![put("acct", acct("a", &[]))], Some(&"t".repeat(36)))
        .await
        .expect("36 characters");
    let long_name = "n".repeat(1025);
    assert_validation(
        write_with(
            &b,
            vec![put("acct", acct("a", &[])), delete(&long_name, acct("a", &[])), put("", acct("b", &[]))],
            Some(""),
        )
        .await,
        &format!(
            "3 validation errors detected: Value '' at 'clientRequestToken' failed to satisfy \
             constraint: Member must have length greater than or equal to 1; Value '{long_name}' at \
             'transactItems.2.member.delete.tableName' failed to satisfy constraint: Member must have \
             length less than or equal to 1024; Value '' at 'transactItems.3.member.put.tableName' \
             failed to satisfy constraint: Member must have length greater than or equal to 1"
        ),
    );
}

#[tokio::test]
async fn the_4_mb_limit_comes_first() {
    let b = engine().await;
    // Items of exactly `size` bytes: "pk" + 3-byte value, "d" + filler.
    let sized = |i: usize, size: usize| {
        put(
            "acct",
            acct(&format!("k{i:02}"), &[("d", s(&"x".repeat(size - 6)))]),
        )
    };
    let mut actions: Vec<TransactWriteItem> = (0..10).map(|i| sized(i, MAX_ITEM_SIZE)).collect();
    actions.push(sized(10, 4 * 1024 * 1024 - 10 * MAX_ITEM_SIZE));
    write(&b, actions.clone()).await.expect("exactly 4 MiB");
    actions.pop();
    actions.push(sized(10, 4 * 1024 * 1024 - 10 * MAX_ITEM_SIZE + 1));
    // Ahead of a malformed expression and a missing table.
    actions.push(put_if("missing", acct("z", &[]), "a ="));
    let sentence = "Transaction payload size cannot exceed 4MB. Payload Size: ";
    assert_validation(
        write(&b, actions).await,
        &format!("{sentence}: {sentence}4194305"),
    );
}

#[tokio::test]
async fn each_action_is_checked_alone_before_any_table_is_looked_up() {
    let b = engine().await;
    let syntax = "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"(\"";
    // A malformed expression on a later action comes before a missing table on an earlier one.
    assert_validation(
        write(
            &b,
            vec![
                put("missing", acct("a", &[])),
                check("acct", acct("b", &[]), "attribute_not_exists("),
            ],
        )
        .await,
        syntax,
    );
    // Between two faulty actions, the first wins, whatever the faults.
    let mut deep = s("leaf");
    for _ in 0..32 {
        deep = AttributeValue::M(item(&[("n", deep)]));
    }
    let too_deep = put("acct", acct("d", &[("data", deep)]));
    let malformed = check("acct", acct("b", &[]), "attribute_not_exists(");
    assert_validation(
        write(&b, vec![malformed.clone(), too_deep.clone()]).await,
        syntax,
    );
    assert_validation(
        write(&b, vec![too_deep, malformed]).await,
        "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels \
         beyond supported limit",
    );
    // Unused placeholders, ahead of a duplicate and a missing table.
    assert_validation(
        write(
            &b,
            vec![
                put("missing", acct("a", &[])),
                put("acct", acct("b", &[])),
                check("acct", acct("b", &[]), "attribute_not_exists(pk)")
                    .with_values(&[(":v", s("x"))]),
            ],
        )
        .await,
        "Value provided in ExpressionAttributeValues unused in expressions: keys: {:v}",
    );
}

#[tokio::test]
async fn the_single_item_checks_and_messages_apply_to_each_action() {
    let b = engine().await;
    let cases: Vec<(TransactWriteItem, &str)> = vec![
        (
            put("acct", acct("a", &[])).with_names(&[("#a", "a")]),
            "ExpressionAttributeNames can only be specified when using expressions",
        ),
        (
            delete("acct", acct("a", &[])).with_values(&[(":v", s("x"))]),
            "ExpressionAttributeValues can only be specified when using expressions: \
             ConditionExpression is null",
        ),
        (
            update("acct", acct("a", &[]), "", &[]),
            "Invalid UpdateExpression: The expression can not be empty;",
        ),
        (
            check("acct", acct("a", &[]), ""),
            "Invalid ConditionExpression: The expression can not be empty;",
        ),
        (
            update(
                "acct",
                acct("a", &[]),
                "SET a = :v, #b = :v",
                &[(":v", s("x"))],
            )
            .with_names(&[("#b", "b"), ("#c", "c")]),
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {#c}",
        ),
        (
            put("acct", acct("a", &[("d", s(&"x".repeat(MAX_ITEM_SIZE)))])),
            "Item size has exceeded the maximum allowed size",
        ),
        (
            put("acct", acct("a", &[("set", AttributeValue::Ss(vec![]))])),
            "One or more parameter values were invalid: An string set  may not be empty",
        ),
        (
            put("ab", acct("a", &[])),
            "TableName must be at least 3 characters long and at most 255 characters long",
        ),
    ];
    for (action, message) in cases {
        assert_validation(
            write(&b, vec![put("log", log("x", 1)), action]).await,
            message,
        );
    }
    assert_eq!(stored(&b, "log", log("x", 1)).await, None);
}

#[tokio::test]
async fn empty_keys_and_paths_into_keys_refuse_the_request() {
    let b = engine().await;
    let cases: Vec<(TransactWriteItem, String)> = vec![
        (put("acct", acct("", &[])), empty_key("pk")),
        (delete("log", item(&[("pk", s("a")), ("sk", n("1"))]).with("pk", s(""))), empty_key("pk")),
        (check("acct", acct("", &[]), "attribute_exists(pk)"), empty_key("pk")),
        (update("acct", acct("", &[]), "SET v = :v", &[(":v", n("1"))]), empty_key("pk")),
        (
            put("acct", acct("a", &[("g", s(""))])),
            "One or more parameter values are not valid. A value specified for a secondary index key \
             is not supported. The AttributeValue for a key attribute cannot contain an empty string \
             value. IndexName: by-g, IndexKey: g"
                .into(),
        ),
        (
            put_if("acct", acct("a", &[]), "attribute_exists(pk.x)"),
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not \
             allowed: Key: pk"
                .into(),
        ),
        (
            update("acct", acct("a", &[]), "SET g.h = :v", &[(":v", s("x"))]),
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not \
             allowed: IndexKey: g"
                .into(),
        ),
    ];
    for (action, message) in cases {
        // A failing condition earlier in the request does not turn these into reasons.
        let r = write(
            &b,
            vec![check("log", log("x", 1), "attribute_exists(pk)"), action],
        )
        .await;
        assert_validation(r, &message);
    }
}

/// Replaces one attribute of an item.
trait With {
    fn with(self, name: &str, value: AttributeValue) -> Self;
}

impl With for Item {
    fn with(mut self, name: &str, value: AttributeValue) -> Item {
        self.insert(name.into(), value);
        self
    }
}

#[tokio::test]
async fn request_errors_are_not_cancellations() {
    // A missing table is reported even when another action would fail its condition.
    let b = engine().await;
    let r = write(
        &b,
        vec![
            check("acct", acct("a", &[]), "attribute_exists(pk)"),
            put("missing", acct("a", &[])),
        ],
    )
    .await;
    assert_eq!(
        r,
        Err(Error::resource_not_found("Requested resource not found"))
    );
}
