//! TransactGetItems and TransactWriteItems: decoding into the typed requests, encoding of the
//! responses, and the errors of each stage (see `wire/transact.rs`).

use std::collections::BTreeMap;

use dynomodel::backend::{
    ReturnConsumedCapacity, ReturnItemCollectionMetrics, ReturnValuesOnConditionCheckFailure,
    TransactConditionCheck, TransactDelete, TransactGet, TransactGetItemsInput, TransactPut,
    TransactUpdate, TransactWriteItem, TransactWriteItemsInput,
};
use dynomodel::{AttributeValue, Item};
use serde_json::{json, Value};

use super::fake::{Fake, Seen};
use super::{enum_at, errors, key, null_at};
use crate::protocol::transact::{NO_ACTION, SEVERAL_ACTIONS};
use crate::protocol::types::{START_OF_LIST, START_OF_STRUCTURE};
use crate::protocol::value::EMPTY_VALUE;

#[tokio::test]
async fn transact_get_decodes_and_encodes_responses_in_order() {
    let fake = Fake {
        transact_get: dynomodel::backend::TransactGetItemsOutput {
            responses: vec![Some(key("a")), None, Some(Item::new())],
            ..Default::default()
        },
        ..Fake::default()
    };
    let body = json!({
        "ReturnConsumedCapacity": "NONE",
        "TransactItems": [
            {"Get": {"TableName": "users", "Key": {"pk": {"S": "a"}}}},
            {"Get": {"TableName": "users", "Key": {"pk": {"S": "b"}},
                     "ProjectionExpression": "#n", "ExpressionAttributeNames": {"#n": "name"}}},
            {"Get": {"TableName": "teams", "Key": {"pk": {"S": "c"}}}}
        ]
    });
    let (out, seen) = fake.run("TransactGetItems", body).await;
    let get = |table: &str, pk: &str| TransactGet {
        table_name: table.into(),
        key: key(pk),
        ..Default::default()
    };
    let mut projected = get("users", "b");
    projected.projection_expression = Some("#n".into());
    projected.expression_attribute_names =
        Some(BTreeMap::from([("#n".to_owned(), "name".to_owned())]));
    let expected = TransactGetItemsInput {
        transact_items: vec![get("users", "a"), projected, get("teams", "c")],
        return_consumed_capacity: Some(ReturnConsumedCapacity::None),
    };
    assert_eq!(seen, Some(Seen::TransactGet(expected)));
    assert_eq!(
        out.unwrap(),
        json!({"Responses": [{"Item": {"pk": {"S": "a"}}}, {}, {"Item": {}}]})
    );
}

#[tokio::test]
async fn transact_write_decodes_every_action() {
    let fake = Fake::default();
    let values = json!({":v": {"N": "1"}});
    let body = json!({
        "ClientRequestToken": "tok-1",
        "ReturnConsumedCapacity": "TOTAL",
        "ReturnItemCollectionMetrics": "NONE",
        "TransactItems": [
            {"ConditionCheck": {"TableName": "t", "Key": {"pk": {"S": "c"}},
                "ConditionExpression": "v = :v", "ExpressionAttributeValues": values,
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
            {"Put": {"TableName": "t", "Item": {"pk": {"S": "p"}},
                "ConditionExpression": "attribute_not_exists(#k)",
                "ExpressionAttributeNames": {"#k": "pk"}}},
            {"Delete": {"TableName": "t", "Key": {"pk": {"S": "d"}},
                "ReturnValuesOnConditionCheckFailure": "NONE"}, "Put": null},
            {"Update": {"TableName": "u", "Key": {"pk": {"S": "u"}},
                "UpdateExpression": "SET v = :v", "ExpressionAttributeValues": values}}
        ]
    });
    let (out, seen) = fake.run("TransactWriteItems", body).await;
    assert_eq!(out.unwrap(), json!({}));
    let v: Item = [(":v".to_owned(), AttributeValue::N("1".parse().unwrap()))].into();
    let expected = TransactWriteItemsInput {
        transact_items: vec![
            TransactWriteItem::ConditionCheck(TransactConditionCheck {
                table_name: "t".into(),
                key: key("c"),
                condition_expression: "v = :v".into(),
                expression_attribute_names: None,
                expression_attribute_values: Some(v.clone()),
                return_values_on_condition_check_failure: Some(
                    ReturnValuesOnConditionCheckFailure::AllOld,
                ),
            }),
            TransactWriteItem::Put(TransactPut {
                table_name: "t".into(),
                item: key("p"),
                condition_expression: Some("attribute_not_exists(#k)".into()),
                expression_attribute_names: Some(BTreeMap::from([(
                    "#k".to_owned(),
                    "pk".to_owned(),
                )])),
                ..Default::default()
            }),
            TransactWriteItem::Delete(TransactDelete {
                table_name: "t".into(),
                key: key("d"),
                return_values_on_condition_check_failure: Some(
                    ReturnValuesOnConditionCheckFailure::None,
                ),
                ..Default::default()
            }),
            TransactWriteItem::Update(TransactUpdate {
                table_name: "u".into(),
                key: key("u"),
                update_expression: "SET v = :v".into(),
                expression_attribute_values: Some(v),
                ..Default::default()
            }),
        ],
        client_request_token: Some("tok-1".into()),
        return_consumed_capacity: Some(ReturnConsumedCapacity::Total),
        return_item_collection_metrics: Some(ReturnItemCollectionMetrics::None),
    };
    assert_eq!(seen, Some(Seen::TransactWrite(expected)));
}

#[tokio::test]
async fn wrong_json_types_are_serialization_errors() {
    let fake = Fake::default();
    let short = "class java.lang.Short can not be converted to an String";
    let put = |put: Value| json!({"TransactItems": [{"Put": put}]});
    let write_cases = [
        (json!({"TransactItems": {}}), START_OF_STRUCTURE),
        (json!({"TransactItems": "x"}), "Expected list or null"),
        (json!({"TransactItems": [[]]}), START_OF_LIST),
        (json!({"TransactItems": [1]}), "Expected null"),
        (put(json!("x")), "Expected null"),
        (put(json!({"Item": []})), START_OF_LIST),
        (put(json!({"Item": {"a": 1}})), "Expected null"),
        (put(json!({"Item": {"a": {"S": 1}}})), short),
        (put(json!({"TableName": 1})), short),
        (
            put(json!({"ConditionExpression": true})),
            "class java.lang.Boolean can not be converted to an String",
        ),
        (
            put(json!({"ExpressionAttributeValues": "x"})),
            "Expected map or null",
        ),
        (
            json!({"TransactItems": [{"Update": {"UpdateExpression": 1}}]}),
            short,
        ),
        (
            json!({"TransactItems": [{"Delete": {"Key": {"a": []}}}]}),
            START_OF_LIST,
        ),
        (
            json!({"TransactItems": [{"ConditionCheck": []}]}),
            START_OF_LIST,
        ),
        (json!({"TransactItems": [], "ClientRequestToken": 5}), short),
        // A type error in one element wins over validation errors in an earlier one.
        (
            json!({"TransactItems": [{}, {"Put": {"Item": {"a": {"N": 1}}}}]}),
            short,
        ),
        // Of two type errors, the first in the list: elements are checked in order, each to the
        // bottom (dynalite's `checkTypes`).
        (
            json!({"TransactItems": [{"Put": {"Item": []}}, 5]}),
            START_OF_LIST,
        ),
    ];
    for (body, message) in write_cases {
        let got = fake.serialization("TransactWriteItems", body.clone()).await;
        assert_eq!(got.as_deref(), Some(message), "{body}");
    }
    let get_cases = [
        (json!({"TransactItems": [{"Get": "x"}]}), "Expected null"),
        (
            json!({"TransactItems": [{"Get": {"Key": "x"}}]}),
            "Expected map or null",
        ),
        (
            json!({"TransactItems": [{"Get": {"ProjectionExpression": []}}]}),
            START_OF_LIST,
        ),
    ];
    for (body, message) in get_cases {
        let got = fake.serialization("TransactGetItems", body.clone()).await;
        assert_eq!(got.as_deref(), Some(message), "{body}");
    }
}

#[tokio::test]
async fn required_members_with_dynamodb_paths() {
    let fake = Fake::default();
    let p = "transactItems.1.member";
    let cases: Vec<(&str, Value, Vec<String>)> = vec![
        (
            "TransactWriteItems",
            json!({}),
            vec![null_at("transactItems")],
        ),
        (
            "TransactWriteItems",
            json!({"ReturnConsumedCapacity": "hi", "ReturnItemCollectionMetrics": "hi"}),
            vec![
                enum_at("hi", "returnConsumedCapacity", "INDEXES, TOTAL, NONE"),
                enum_at("hi", "returnItemCollectionMetrics", "SIZE, NONE"),
                null_at("transactItems"),
            ],
        ),
        (
            "TransactWriteItems",
            json!({"TransactItems": [{"Put": {}}]}),
            vec![
                null_at(&format!("{p}.put.item")),
                null_at(&format!("{p}.put.tableName")),
            ],
        ),
        (
            "TransactWriteItems",
            json!({"TransactItems": [{"Update": {}}]}),
            vec![
                null_at(&format!("{p}.update.key")),
                null_at(&format!("{p}.update.updateExpression")),
                null_at(&format!("{p}.update.tableName")),
            ],
        ),
        (
            "TransactWriteItems",
            json!({"TransactItems": [{"Update": {"TableName": "t", "Key": {}}}]}),
            vec![null_at(&format!("{p}.update.updateExpression"))],
        ),
        (
            "TransactWriteItems",
            json!({"TransactItems": [{"Delete": {"Key": null}}]}),
            vec![
                null_at(&format!("{p}.delete.key")),
                null_at(&format!("{p}.delete.tableName")),
            ],
        ),
        (
            "TransactWriteItems",
            json!({"TransactItems": [{"ConditionCheck": {"TableName": "t", "Key": {}}}]}),
            vec![null_at(&format!("{p}.conditionCheck.conditionExpression"))],
        ),
        (
            "TransactWriteItems",
            json!({"TransactItems": [{"Put": {"TableName": "t", "Item": {},
                "ReturnValuesOnConditionCheckFailure": "SOME"}}]}),
            vec![enum_at(
                "SOME",
                &format!("{p}.put.returnValuesOnConditionCheckFailure"),
                "ALL_OLD, NONE",
            )],
        ),
        (
            "TransactWriteItems",
            json!({"TransactItems": [{"Put": {"TableName": "t", "Item": {}}}, null]}),
            vec![null_at("transactItems.2.member")],
        ),
        // Several actions in one element: each one's errors, Delete's before Put's.
        (
            "TransactWriteItems",
            json!({"TransactItems": [{"Put": {}, "Delete": {}}]}),
            vec![
                null_at(&format!("{p}.delete.key")),
                null_at(&format!("{p}.delete.tableName")),
                null_at(&format!("{p}.put.item")),
                null_at(&format!("{p}.put.tableName")),
            ],
        ),
        (
            "TransactGetItems",
            json!({}),
            vec![null_at("transactItems")],
        ),
        (
            "TransactGetItems",
            json!({"TransactItems": [{}]}),
            vec![null_at(&format!("{p}.get"))],
        ),
        (
            "TransactGetItems",
            json!({"TransactItems": [{"Get": {}}], "ReturnConsumedCapacity": "x"}),
            vec![
                enum_at("x", "returnConsumedCapacity", "INDEXES, TOTAL, NONE"),
                null_at(&format!("{p}.get.key")),
                null_at(&format!("{p}.get.tableName")),
            ],
        ),
    ];
    for (operation, body, expected) in cases {
        assert_eq!(
            fake.validation(operation, body.clone()).await,
            errors(&expected),
            "{operation} {body}"
        );
    }
}

#[tokio::test]
async fn one_action_per_element() {
    let fake = Fake::default();
    let put = json!({"TableName": "t", "Item": {"pk": {"S": "a"}}});
    let delete = json!({"TableName": "t", "Key": {"pk": {"S": "a"}}});
    let body = |items: Value| json!({ "TransactItems": items });
    for (items, message) in [
        (json!([{}]), NO_ACTION),
        (json!([{"Put": null, "Get": {}}]), NO_ACTION),
        (json!([{"Put": put, "Delete": delete}]), SEVERAL_ACTIONS),
        (
            json!([{"Update": {"TableName": "t", "Key": {}, "UpdateExpression": "SET a = :a"},
                 "ConditionCheck": {"TableName": "t", "Key": {}, "ConditionExpression": "a"}}]),
            SEVERAL_ACTIONS,
        ),
        // The element's shape is reported before the values in it, and elements in order.
        (
            json!([{"Put": {"TableName": "t", "Item": {"a": {}}}, "Delete": delete}]),
            SEVERAL_ACTIONS,
        ),
        (
            json!([{"Put": {"TableName": "t", "Item": {"a": {}}}}, {}]),
            EMPTY_VALUE,
        ),
        (
            json!([{}, {"Put": {"TableName": "t", "Item": {"a": {}}}}]),
            NO_ACTION,
        ),
    ] {
        assert_eq!(
            fake.validation("TransactWriteItems", body(items.clone()))
                .await,
            message,
            "{items}"
        );
    }
}

#[tokio::test]
async fn a_million_null_elements_keep_ten_messages() {
    // 16 MB of `null,` is 3.3 million null elements: each is a broken constraint, all are counted,
    // ten are listed, and only those ten are kept while decoding (the server's memory once peaked at
    // 730 MB for such a body, holding every message).
    let n = 1_000_000;
    let body = json!({ "TransactItems": vec![Value::Null; n] });
    let listed: Vec<String> = (1..=10)
        .map(|i| null_at(&format!("transactItems.{i}.member")))
        .collect();
    let message = Fake::default().validation("TransactWriteItems", body).await;
    assert_eq!(
        message,
        format!("{n} validation errors detected: {}", listed.join("; "))
    );
    let mut d = crate::protocol::Decoder::default();
    for i in 0..n {
        d.null(&format!("x.{i}"));
    }
    assert_eq!((d.broken, d.constraints.len()), (n, 10));
}

/// A list element's path, and those of the structures in it, are made only when asked for
/// (`StructurePath::Element`), and read as the paths built for each element did.
#[test]
fn element_paths_are_made_when_asked() {
    use crate::protocol::{Decoder, Members};

    let Value::Object(request) = json!({"TransactItems": [
        {"Put": {}}, null, {"Update": {"Key": {}}}, {"Put": "x"}
    ]}) else {
        unreachable!()
    };
    let m = Members::new(&request);
    let mut d = Decoder::default();
    let mut seen = Vec::new();
    let decoded = m.each("TransactItems", &mut d, |e, _| {
        seen.push(e.path_of("Put"));
        let present: Vec<&str> = e.present().map(|(name, _)| name).collect();
        let action = match e.structure("Put")? {
            Some(action) => action,
            None => e.structure("Update")?.unwrap(),
        };
        seen.push(action.path_of("TableName"));
        let key = action.structure("Key")?;
        seen.extend(key.map(|key| key.path_of("Pk")));
        Ok(present)
    });
    // The fourth element's `Put` is not a structure: a type error, after the first three.
    assert!(decoded.is_err());
    assert_eq!(
        seen,
        [
            "transactItems.1.member.put",
            "transactItems.1.member.put.tableName",
            "transactItems.3.member.put",
            "transactItems.3.member.update.tableName",
            "transactItems.3.member.update.key.pk",
            "transactItems.4.member.put",
        ]
    );
    assert_eq!(d.constraints, [null_at("transactItems.2.member")]);
    let mut d = Decoder::default();
    let elements = [json!({"Put": {}, "Delete": null, "Other": 1})];
    let present = super::super::each_structure(&elements, "transactItems", &mut d, |e, _| {
        Ok(e.present()
            .map(|(name, _)| name.to_owned())
            .collect::<Vec<_>>())
    });
    // `null` members are not present.
    assert_eq!(
        present.unwrap(),
        [vec!["Other".to_owned(), "Put".to_owned()]]
    );
}
