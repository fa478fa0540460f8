//! The wording of request validation, one scenario per rule (a refused ExclusiveStartKey on a
//! hash-only Query was not built: see `query::hash_only_query_pages_restart_from_their_last_key`).
//!
//! Raw JSON through [`validation::send`] (the engine through the wire protocol, the server and
//! DynamoDB Local over HTTP), since most of these requests cannot be built with the typed API (a
//! `{"NULL": false}`, an empty table name next to an invalid enum). Where DynamoDB Local words a fact
//! differently, the scenario says so next to a `// KNOWN DIFFERENCE:` and `deviations.md` has the row.
//! The in-process `Backend` is held to the same answers by the engine's tests
//! (`dynomodel-mem/src/tests/request_wording.rs`).

use serde_json::json;

use super::validation::{expect, hash_table, key_condition, one, send, several, violation, with};
use super::*;

const INVALID: &str = "One or more parameter values were invalid: ";

/// A table keyed by `pk` with a global index `by-x` keyed by `x` alone, created raw.
async fn table_with_gsi(t: &Dual, label: &str) -> String {
    let table = t.table_name(label);
    let create = json!({
        "TableName": table,
        "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "x", "AttributeType": "S"},
        ],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "GlobalSecondaryIndexes": [{
            "IndexName": "by-x",
            "KeySchema": [{"AttributeName": "x", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"},
        }],
    });
    assert_eq!(
        send(t, "CreateTable", create).await,
        None,
        "[{:?}]",
        t.target()
    );
    table
}

dual_test!(null_false_must_have_the_value_of_true, |t| {
    let table = hash_table(&t, "nullfalse").await;
    let put = json!({"TableName": table, "Item": {"pk": {"S": "a"}, "n": {"NULL": false}}});
    let message = format!("{INVALID}Null attribute value types must have the value of true");
    expect(&t, send(&t, "PutItem", put).await, &message, Some(&message));
});

dual_test!(duplicate_attributes_to_get_name_the_duplicate, |t| {
    let table = hash_table(&t, "dupatg").await;
    let message = format!("{INVALID}Duplicate value in attribute name: a");
    let twice = json!(["a", "b", "a"]);
    let get = json!({"TableName": table, "Key": {"pk": {"S": "k"}}, "AttributesToGet": twice});
    let query = json!({
        "TableName": table,
        "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "k"}]}},
        "AttributesToGet": twice,
    });
    let scan = json!({"TableName": table, "AttributesToGet": twice});
    // KNOWN DIFFERENCE: DynamoDB Local names the duplicate in BatchGetItem only; GetItem, Query and
    // Scan say "Cannot have two attributes with the same name" there.
    let local = "Cannot have two attributes with the same name";
    for (operation, body) in [("GetItem", get), ("Query", query), ("Scan", scan)] {
        expect(&t, send(&t, operation, body).await, &message, Some(local));
    }
    let batch = json!({"RequestItems": {
        table.clone(): {"Keys": [{"pk": {"S": "k"}}], "AttributesToGet": twice},
    }});
    expect(
        &t,
        send(&t, "BatchGetItem", batch).await,
        &message,
        Some(&message),
    );
});

dual_test!(key_conditions_with_the_wrong_argument_count, |t| {
    let table = hash_table(&t, "kcarity").await;
    let message = format!("{INVALID}Invalid number of argument(s) for the EQ ComparisonOperator");
    let none = json!([]);
    let two = json!([{"S": "a"}, {"S": "b"}]);
    for values in [none, two] {
        let query = json!({
            "TableName": table,
            "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": values}},
        });
        expect(&t, send(&t, "Query", query).await, &message, Some(&message));
    }
});

dual_test!(key_conditions_on_an_index_naming_a_non_key, |t| {
    let table = table_with_gsi(&t, "kcindex").await;
    let eq = json!({"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]});
    let query = json!({
        "TableName": table,
        "IndexName": "by-x",
        "KeyConditions": {"x": eq, "pk": eq},
    });
    let message = "Query key condition not supported";
    expect(&t, send(&t, "Query", query).await, message, Some(message));
    // More conditions than the index has keys, whichever they name.
    let query = json!({
        "TableName": table,
        "IndexName": "by-x",
        "KeyConditions": {"pk": eq, "q": eq},
    });
    expect(&t, send(&t, "Query", query).await, message, Some(message));
    // As many conditions as keys, but not on them: the missing element.
    let query = json!({"TableName": table, "IndexName": "by-x", "KeyConditions": {"pk": eq}});
    let missed = "Query condition missed key schema element";
    expect(&t, send(&t, "Query", query).await, missed, Some(missed));
});

dual_test!(query_limit_zero_names_the_member_without_its_value, |t| {
    let table = hash_table(&t, "qlimit").await;
    // KNOWN DIFFERENCE: DynamoDB Local has its own sentence for both.
    let local = "Limit must be greater than or equal to 1";
    let query = with(key_condition(&table), json!({"Limit": 0}));
    expect(
        &t,
        send(&t, "Query", query).await,
        "1 validation error detected: Value at 'Limit' failed to satisfy constraint: Member must \
         have value greater than or equal to 1",
        Some(local),
    );
    let scan = json!({"TableName": table, "Limit": 0});
    expect(
        &t,
        send(&t, "Scan", scan).await,
        &one(violation(
            "'0'",
            "limit",
            "Member must have value greater than or equal to 1",
        )),
        Some(local),
    );
});

dual_test!(
    oversized_lists_batch_keys_unechoed_transactions_dumped,
    |t| {
        let table = hash_table(&t, "lists").await;
        let keys: Vec<_> = (0..101)
            .map(|i| json!({"pk": {"S": i.to_string()}}))
            .collect();
        let batch = json!({"RequestItems": {table.clone(): {"Keys": keys}}});
        // KNOWN DIFFERENCE: DynamoDB Local counts them as the request's limit.
        expect(
            &t,
            send(&t, "BatchGetItem", batch).await,
            &format!(
            "1 validation error detected: Value at 'RequestItems.{table}.member.Keys' failed to \
             satisfy constraint: Member must have length less than or equal to 100"
        ),
            Some("Too many items requested for the BatchGetItem call"),
        );
        // Far past the limit, with keys of every kind the server only checks there (a number, a
        // binary, a second member): the same answer.
        let keys: Vec<_> = (0..300)
            .map(|i| match i % 3 {
                0 => json!({"pk": {"S": i.to_string()}}),
                1 => json!({"pk": {"N": format!("{i}e0")}}),
                _ => json!({"pk": {"B": "AQID"}, "sk": {"S": i.to_string()}}),
            })
            .collect();
        let batch = json!({"RequestItems": {table.clone(): {"Keys": keys}}});
        // KNOWN DIFFERENCE: as above.
        expect(
            &t,
            send(&t, "BatchGetItem", batch).await,
            &format!(
                "1 validation error detected: Value at 'RequestItems.{table}.member.Keys' failed \
                 to satisfy constraint: Member must have length less than or equal to 100"
            ),
            Some("Too many items requested for the BatchGetItem call"),
        );
        let puts: Vec<_> = (0..101)
            .map(|i| json!({"Put": {"TableName": table, "Item": {"pk": {"S": i.to_string()}}}}))
            .collect();
        let gets: Vec<_> = (0..101)
            .map(|i| json!({"Get": {"TableName": table, "Key": {"pk": {"S": i.to_string()}}}}))
            .collect();
        for (operation, actions, first) in [
            (
                "TransactWriteItems",
                puts,
                "[TransactWriteItem(conditionCheck=null, put=Put(item={pk=",
            ),
            (
                "TransactGetItems",
                gets,
                "[TransactGetItem(get=Get(key={pk=",
            ),
        ] {
            let answer = send(&t, operation, json!({"TransactItems": actions})).await;
            let (code, message) = answer.expect("refused");
            assert_eq!(code, "ValidationException");
            let constraint = "Member must have length less than or equal to 100";
            if t.target() == Target::DynamoDbLocal {
                // KNOWN DIFFERENCE: DynamoDB Local gives the constraint alone.
                assert_eq!(message, constraint);
                continue;
            }
            assert!(
                message.starts_with(&format!("1 validation error detected: Value '{first}"))
                    && message.ends_with(&format!(
                        "]' at 'transactItems' failed to satisfy constraint: {constraint}"
                    )),
                "[{:?}] {operation}: {message}",
                t.target()
            );
        }
    }
);

/// DynamoDB Local's one answer to every table name it refuses.
const LOCAL_BAD_NAME: &str = "Invalid table/index name.  Table/index names must be between 3 and \
                              255 characters long, and may contain only the characters a-z, A-Z, \
                              0-9, '_', '-', and '.'";

const NAME_PATTERN: &str = "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+";

dual_test!(item_writes_report_the_table_names_constraint_alone, |t| {
    let long = "a".repeat(256);
    let cases = [
        (
            String::new(),
            one(violation(
                "''",
                "tableName",
                "Member must have length greater than or equal to 1",
            )),
        ),
        (
            long.clone(),
            one(violation(
                &format!("'{long}'"),
                "tableName",
                "Member must have length less than or equal to 255",
            )),
        ),
        (
            "x!".to_owned(),
            one(violation("'x!'", "tableName", NAME_PATTERN)),
        ),
    ];
    // KNOWN DIFFERENCE: DynamoDB Local has its one sentence for every name it refuses.
    for (name, message) in &cases {
        let put = json!({"TableName": name, "ReturnValues": "INVALID", "Item": {}});
        expect(
            &t,
            send(&t, "PutItem", put).await,
            message,
            Some(LOCAL_BAD_NAME),
        );
        let update = json!({"TableName": name, "Key": {}, "ReturnValues": "INVALID"});
        expect(
            &t,
            send(&t, "UpdateItem", update).await,
            message,
            Some(LOCAL_BAD_NAME),
        );
        let delete = json!({"TableName": name, "Key": {}});
        expect(
            &t,
            send(&t, "DeleteItem", delete).await,
            message,
            Some(LOCAL_BAD_NAME),
        );
    }
    // Two characters are a name the model allows (a `TableArn` of at least 1): no such table.
    let answer = send(
        &t,
        "PutItem",
        json!({"TableName": "ab", "Item": {"pk": {"S": "a"}}}),
    )
    .await;
    let expected = match t.target() {
        Target::DynamoDbLocal => ("ValidationException", LOCAL_BAD_NAME),
        _ => ("ResourceNotFoundException", "Requested resource not found"),
    };
    assert_eq!(
        answer,
        Some((expected.0.to_owned(), expected.1.to_owned())),
        "[{:?}]",
        t.target()
    );
});

dual_test!(item_writes_name_their_table_by_arn, |t| {
    let table = hash_table(&t, "byarn").await;
    let arn = t
        .backend()
        .describe_table(dynomodel::backend::DescribeTableInput {
            table_name: table.clone(),
        })
        .await
        .unwrap()
        .table
        .table_arn;
    let put = json!({"TableName": arn, "Item": {"pk": {"S": "a"}, "v": {"N": "1"}}});
    assert_eq!(send(&t, "PutItem", put).await, None, "[{:?}]", t.target());
    let got = t
        .backend()
        .get_item(dynomodel::backend::GetItemInput {
            table_name: table.clone(),
            key: Item::from([("pk".to_owned(), AttributeValue::S("a".into()))]),
            ..Default::default()
        })
        .await
        .unwrap();
    assert!(got.item.is_some(), "[{:?}]", t.target());
});

dual_test!(create_table_reports_the_table_names_constraint_alone, |t| {
    let short = one(violation(
        "'ab'",
        "tableName",
        "Member must have length greater than or equal to 3",
    ));
    let pk = json!([{"AttributeName": "pk", "AttributeType": "S"}]);
    let hash = json!([{"AttributeName": "pk", "KeyType": "HASH"}]);
    let body = json!({"TableName": "ab", "AttributeDefinitions": pk, "KeySchema": hash,
                      "BillingMode": "PAY_PER_REQUEST"});
    // KNOWN DIFFERENCE: DynamoDB Local has its one sentence for every name it refuses.
    expect(
        &t,
        send(&t, "CreateTable", body).await,
        &short,
        Some(LOCAL_BAD_NAME),
    );
    // With an empty key schema beside it, only the name's errors, the length first.
    for name in ["", "x!"] {
        let quoted = format!("'{name}'");
        let message = several(&[
            violation(
                &quoted,
                "tableName",
                "Member must have length greater than or equal to 3",
            ),
            violation(&quoted, "tableName", NAME_PATTERN),
        ]);
        let body = json!({"TableName": name, "AttributeDefinitions": [], "KeySchema": []});
        expect(
            &t,
            send(&t, "CreateTable", body).await,
            &message,
            Some(LOCAL_BAD_NAME),
        );
    }
    // Without a name, the service's own sentence. KNOWN DIFFERENCE: DynamoDB Local spells it
    // "paramater" and reports the name's rules.
    let body = json!({"AttributeDefinitions": pk, "KeySchema": hash});
    let answer = send(&t, "CreateTable", body).await;
    let (code, message) = answer.expect("refused");
    assert_eq!(code, "ValidationException");
    if t.target() != Target::DynamoDbLocal {
        assert_eq!(
            message,
            "The parameter 'TableName' is required but was not present in the request"
        );
    }
});

dual_test!(key_attribute_names_longer_than_255_characters, |t| {
    let long = "k".repeat(256);
    let too_long = "Member must have length less than or equal to 255";
    let quoted = format!("'{long}'");
    let name = t.table_name("longkey");
    // KNOWN DIFFERENCE: DynamoDB Local words the length its own way, and checks the definitions
    // before the name's length when they disagree.
    let local = "Names of key attributes and attributes projected into an index must be between 1 \
                 and 255 characters, inclusive";
    let body = json!({
        "TableName": name, "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": long, "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": long, "KeyType": "HASH"}],
    });
    let message = several(&[
        violation(
            &quoted,
            "attributeDefinitions.1.member.attributeName",
            too_long,
        ),
        violation(&quoted, "keySchema.1.member.attributeName", too_long),
    ]);
    expect(
        &t,
        send(&t, "CreateTable", body).await,
        &message,
        Some(local),
    );
    // The length before the consistency of keys and definitions.
    let body = json!({
        "TableName": name, "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": long, "KeyType": "HASH"}],
    });
    expect(
        &t,
        send(&t, "CreateTable", body).await,
        &one(violation(
            &quoted,
            "keySchema.1.member.attributeName",
            too_long,
        )),
        Some("Hash Key not specified in Attribute Definitions.  Type unknown."),
    );
    // An index's key schema.
    let body = json!({
        "TableName": name, "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": long, "AttributeType": "S"},
        ],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "GlobalSecondaryIndexes": [{
            "IndexName": "by-long",
            "KeySchema": [{"AttributeName": long, "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"},
        }],
    });
    let message = several(&[
        violation(
            &quoted,
            "attributeDefinitions.2.member.attributeName",
            too_long,
        ),
        violation(
            &quoted,
            "globalSecondaryIndexes.1.member.keySchema.1.member.attributeName",
            too_long,
        ),
    ]);
    expect(
        &t,
        send(&t, "CreateTable", body).await,
        &message,
        Some(local),
    );
});

dual_test!(empty_attribute_names_are_refused, |t| {
    let table = hash_table(&t, "emptyname").await;
    let empty = "Empty attribute name";
    let key = json!({"pk": {"S": "e"}});
    let nested = json!({"M": {"": {"S": "x"}}});
    let refused = [
        (
            "PutItem",
            json!({"TableName": table, "Item": {"pk": {"S": "e"}, "": {"S": "x"}}}),
        ),
        (
            "PutItem",
            json!({"TableName": table, "Item": {"pk": {"S": "e"}, "m": nested}}),
        ),
        (
            "PutItem",
            json!({"TableName": table, "Item": {"pk": {"S": "e"}, "l": {"L": [nested]}}}),
        ),
        (
            "PutItem",
            json!({"TableName": table, "Item": key, "Expected": {"": {"Exists": false}}}),
        ),
        (
            "GetItem",
            json!({"TableName": table, "Key": key, "AttributesToGet": ["a", ""]}),
        ),
        (
            "GetItem",
            json!({"TableName": table, "Key": {"": {"S": "e"}}}),
        ),
        (
            "Scan",
            json!({"TableName": table, "ScanFilter": {"": {"ComparisonOperator": "NULL"}}}),
        ),
        (
            "UpdateItem",
            json!({"TableName": table, "Key": key,
            "AttributeUpdates": {"": {"Action": "PUT", "Value": {"S": "x"}}}}),
        ),
        (
            "UpdateItem",
            json!({"TableName": table, "Key": key,
            "AttributeUpdates": {"": {"Action": "DELETE"}}}),
        ),
        (
            "BatchWriteItem",
            json!({"RequestItems": {table.clone(): [
            {"PutRequest": {"Item": {"pk": {"S": "e"}, "": {"S": "x"}}}}]}}),
        ),
        (
            "TransactWriteItems",
            json!({"TransactItems": [
            {"Put": {"TableName": table, "Item": {"pk": {"S": "e"}, "": {"S": "x"}}}}]}),
        ),
    ];
    for (operation, body) in refused {
        expect(&t, send(&t, operation, body).await, empty, Some(empty));
    }
    let names =
        "ExpressionAttributeNames contains invalid value: Empty attribute name for key #name";
    let body = json!({"TableName": table, "Key": key, "UpdateExpression": "SET #name = :v",
        "ExpressionAttributeNames": {"#name": ""}, "ExpressionAttributeValues": {":v": {"S": "x"}}});
    expect(&t, send(&t, "UpdateItem", body).await, names, Some(names));
    let values =
        "ExpressionAttributeValues contains invalid value: Empty attribute name for key :v";
    let body = json!({"TableName": table, "Key": key, "UpdateExpression": "SET a = :v",
        "ExpressionAttributeValues": {":v": nested}});
    expect(&t, send(&t, "UpdateItem", body).await, values, Some(values));
    // Nothing was stored.
    let scan = t
        .backend()
        .scan(dynomodel::backend::ScanInput {
            table_name: table.clone(),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(scan.count, 0, "[{:?}]", t.target());
});
