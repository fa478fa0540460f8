//! TransactGetItems and TransactWriteItems on the wire.
//!
//! What DynamoDB sends back, and where that is recorded:
//!
//! - TransactGetItems: `{"Responses": [{"Item": {…}}, {}, …]}`, one entry per `Get` in request order,
//!   `{}` for a key without an item (API reference, `ItemResponse`; DynamoDB Local 3.3.1 answers the
//!   same).
//! - TransactWriteItems: `{}`.
//! - A cancelled transaction is `TransactionCanceledException` with `CancellationReasons` (encoded in
//!   `error.rs`).
//!
//! What is checked here, in DynamoDB's order (see [`super::Decoder`]):
//!
//! 1. Types (`SerializationException`): `TransactItems` a list of structures, each action a
//!    structure, `Key`/`Item`/`ExpressionAttributeValues` maps of attribute values, expressions and
//!    `ClientRequestToken` strings (dynalite's `test/transactWriteItem.js` `assertType` cases).
//! 2. Member constraints: the enums `ReturnConsumedCapacity`, `ReturnItemCollectionMetrics` and each
//!    action's `ReturnValuesOnConditionCheckFailure`, and the members botocore's service model marks
//!    required, at their smithy paths: `transactItems`, `transactItems.1.member.get` (a
//!    `TransactGetItem` without `Get`), `….get.key`, `….get.tableName`, `….put.item`,
//!    `….put.tableName`, `….update.key`, `….update.updateExpression`, `….update.tableName`,
//!    `….delete.key`, `….delete.tableName`, `….conditionCheck.key`, `….conditionCheck.tableName`,
//!    `….conditionCheck.conditionExpression` (DynamoDB Local 3.3.1 reports `put.tableName` and
//!    `conditionCheck.conditionExpression` with these paths; it accepts an `Update` without
//!    `UpdateExpression`, which the model and the service do not). Within an action, members are
//!    reported in the model's order; when one element sets several actions (itself an error), they
//!    are reported Update, Delete, Put, ConditionCheck, the reverse of the model's order, as DynamoDB
//!    reports a `WriteRequest`'s members (dynalite records `delete.key` before `put.item`). A JSON
//!    `null` element is reported at its own path (`transactItems.1.member`), the wire layer's rule for
//!    null list elements.
//! 3. The first operation-specific message: a `TransactWriteItem` with no action is "Invalid Request:
//!    TransactWriteRequest should contain Delete or Put or Update request", one with several is
//!    "TransactItems can only contain one of Check, Put, Update or Delete" (both DynamoDB Local 3.3.1's;
//!    the second is also what the service answered in moto's issue 5496, fixed by moto PR 5521); then
//!    attribute values ([`super::value`]).
//!
//! Members outside the model (e.g. a legacy `Expected` inside an action) are ignored, as DynamoDB
//! ignores unknown members. Everything that can be checked on the typed request (the 100-action limit,
//! table names, the token's length, one action per item, key schemas, sizes, expressions) is the
//! backend's job, so that Rust users of [`dynomodel_mem::MemBackend`](crate::MemBackend) get it too.

use dynomodel::{
    Backend, TransactConditionCheck, TransactDelete, TransactGet, TransactGetItemsInput,
    TransactPut, TransactUpdate, TransactWriteItem, TransactWriteItemsInput,
};
use serde_json::{json, Map, Value};

use super::item::{
    names, optional_item, required_item, ON_CONDITION_FAILURE, RETURN_CONSUMED_CAPACITY,
    RETURN_ITEM_COLLECTION_METRICS,
};
use super::types::{list, structure};
use super::value::item_to_json;
use super::{Decoder, Members, WireResult};

/// A `TransactWriteItem` that sets none of its actions (DynamoDB Local 3.3.1's text).
pub const NO_ACTION: &str =
    "Invalid Request: TransactWriteRequest should contain Delete or Put or Update request";
/// A `TransactWriteItem` that sets more than one action (DynamoDB Local 3.3.1; the service's answer in
/// moto issue 5496).
pub const SEVERAL_ACTIONS: &str =
    "TransactItems can only contain one of Check, Put, Update or Delete";

/// The structures of `TransactItems` with their paths (`transactItems.1.member`); a `null` element is
/// recorded and skipped, and an absent list is recorded as a null constraint.
fn elements_of<'a>(m: &Members<'a>, d: &mut Decoder) -> WireResult<Vec<(String, Members<'a>)>> {
    let Some(elements) = m.get("TransactItems").map(list).transpose()?.flatten() else {
        d.null("transactItems");
        return Ok(Vec::new());
    };
    let mut out = Vec::with_capacity(elements.len());
    for (i, element) in elements.iter().enumerate() {
        let path = format!("transactItems.{}.member", i + 1);
        match structure(element)? {
            Some(fields) => out.push((path, Members::new(fields))),
            None => d.null(&path),
        }
    }
    Ok(out)
}

/// The action structure `name` of a transaction element, when present.
fn action<'a>(element: &Members<'a>, name: &str) -> WireResult<Option<Members<'a>>> {
    Ok(element
        .get(name)
        .map(structure)
        .transpose()?
        .flatten()
        .map(Members::new))
}

pub(super) async fn transact_get_items(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    m.enumeration("ReturnConsumedCapacity", RETURN_CONSUMED_CAPACITY, &mut d)?;
    let mut transact_items = Vec::new();
    for (path, element) in elements_of(&m, &mut d)? {
        let Some(get) = action(&element, "Get")? else {
            d.null(&format!("{path}.get"));
            continue;
        };
        let p = format!("{path}.get");
        transact_items.push(TransactGet {
            key: required_item(&get, "Key", &format!("{p}.key"), &mut d)?,
            table_name: get.required_string_at("TableName", &format!("{p}.tableName"), &mut d)?,
            projection_expression: get.string("ProjectionExpression")?,
            expression_attribute_names: names(&get)?,
        });
    }
    let input = d.finish(TransactGetItemsInput { transact_items })?;
    let out = backend.transact_get_items(input).await?;
    Ok(json!({ "Responses": responses_json(&out.responses) }))
}

/// `Responses` of TransactGetItems: `{"Item": …}` per item found, `{}` per key without one.
pub(super) fn responses_json(responses: &[Option<dynomodel::Item>]) -> Value {
    Value::Array(
        responses
            .iter()
            .map(|found| match found {
                Some(item) => json!({ "Item": item_to_json(item) }),
                None => json!({}),
            })
            .collect(),
    )
}

/// The members every write action shares besides its key or item.
struct Common {
    condition_expression: Option<String>,
    names: Option<dynomodel::ExpressionAttributeNames>,
    values: Option<dynomodel::ExpressionAttributeValues>,
    on_failure: Option<dynomodel::ReturnValuesOnConditionCheckFailure>,
}

/// `TableName` (required) and the members after it in the model's order; `p` is the action's path.
fn table_and_common(a: &Members<'_>, p: &str, d: &mut Decoder) -> WireResult<(String, Common)> {
    let table_name = a.required_string_at("TableName", &format!("{p}.tableName"), d)?;
    Ok((table_name, common(a, p, d)?))
}

fn common(a: &Members<'_>, p: &str, d: &mut Decoder) -> WireResult<Common> {
    Ok(Common {
        condition_expression: a.string("ConditionExpression")?,
        names: names(a)?,
        values: optional_item(a, "ExpressionAttributeValues", d)?,
        on_failure: a.enumeration_at(
            "ReturnValuesOnConditionCheckFailure",
            &format!("{p}.returnValuesOnConditionCheckFailure"),
            ON_CONDITION_FAILURE,
            d,
        )?,
    })
}

fn update(a: &Members<'_>, p: &str, d: &mut Decoder) -> WireResult<TransactWriteItem> {
    let key = required_item(a, "Key", &format!("{p}.key"), d)?;
    let update_expression =
        a.required_string_at("UpdateExpression", &format!("{p}.updateExpression"), d)?;
    let (table_name, c) = table_and_common(a, p, d)?;
    Ok(TransactWriteItem::Update(TransactUpdate {
        table_name,
        key,
        update_expression,
        condition_expression: c.condition_expression,
        expression_attribute_names: c.names,
        expression_attribute_values: c.values,
        return_values_on_condition_check_failure: c.on_failure,
    }))
}

fn delete(a: &Members<'_>, p: &str, d: &mut Decoder) -> WireResult<TransactWriteItem> {
    let key = required_item(a, "Key", &format!("{p}.key"), d)?;
    let (table_name, c) = table_and_common(a, p, d)?;
    Ok(TransactWriteItem::Delete(TransactDelete {
        table_name,
        key,
        condition_expression: c.condition_expression,
        expression_attribute_names: c.names,
        expression_attribute_values: c.values,
        return_values_on_condition_check_failure: c.on_failure,
    }))
}

fn put(a: &Members<'_>, p: &str, d: &mut Decoder) -> WireResult<TransactWriteItem> {
    let item = required_item(a, "Item", &format!("{p}.item"), d)?;
    let (table_name, c) = table_and_common(a, p, d)?;
    Ok(TransactWriteItem::Put(TransactPut {
        table_name,
        item,
        condition_expression: c.condition_expression,
        expression_attribute_names: c.names,
        expression_attribute_values: c.values,
        return_values_on_condition_check_failure: c.on_failure,
    }))
}

fn condition_check(a: &Members<'_>, p: &str, d: &mut Decoder) -> WireResult<TransactWriteItem> {
    let key = required_item(a, "Key", &format!("{p}.key"), d)?;
    let table_name = a.required_string_at("TableName", &format!("{p}.tableName"), d)?;
    let condition_expression = a.required_string_at(
        "ConditionExpression",
        &format!("{p}.conditionExpression"),
        d,
    )?;
    let c = common(a, p, d)?;
    Ok(TransactWriteItem::ConditionCheck(TransactConditionCheck {
        table_name,
        key,
        condition_expression,
        expression_attribute_names: c.names,
        expression_attribute_values: c.values,
        return_values_on_condition_check_failure: c.on_failure,
    }))
}

type ActionDecoder = fn(&Members<'_>, &str, &mut Decoder) -> WireResult<TransactWriteItem>;

/// The actions of a `TransactWriteItem`, in the order DynamoDB reports their errors, with the name of
/// each one's path segment.
const ACTIONS: [(&str, &str, ActionDecoder); 4] = [
    ("Update", "update", update),
    ("Delete", "delete", delete),
    ("Put", "put", put),
    ("ConditionCheck", "conditionCheck", condition_check),
];

pub(super) async fn transact_write_items(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    m.enumeration("ReturnConsumedCapacity", RETURN_CONSUMED_CAPACITY, &mut d)?;
    m.enumeration(
        "ReturnItemCollectionMetrics",
        RETURN_ITEM_COLLECTION_METRICS,
        &mut d,
    )?;
    let client_request_token = m.string("ClientRequestToken")?;
    let mut transact_items = Vec::new();
    for (path, element) in elements_of(&m, &mut d)? {
        // The element's shape before the values in it, like a BatchWriteItem's `WriteRequest`.
        let set = ACTIONS
            .iter()
            .filter(|(name, ..)| element.get(name).is_some())
            .count();
        match set {
            0 => d.custom(NO_ACTION),
            1 => {}
            _ => d.custom(SEVERAL_ACTIONS),
        }
        for (name, segment, decode) in ACTIONS {
            if let Some(a) = action(&element, name)? {
                let decoded = decode(&a, &format!("{path}.{segment}"), &mut d)?;
                if set == 1 {
                    transact_items.push(decoded);
                }
            }
        }
    }
    let input = d.finish(TransactWriteItemsInput {
        transact_items,
        client_request_token,
    })?;
    backend.transact_write_items(input).await?;
    Ok(json!({}))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::server::wire::fake::{Fake, Seen};
    use crate::server::wire::types::{START_OF_LIST, START_OF_STRUCTURE};
    use crate::server::wire::value::EMPTY_VALUE;
    use dynomodel::{AttributeValue, Item, ReturnValuesOnConditionCheckFailure};
    use std::collections::BTreeMap;

    fn key(pk: &str) -> Item {
        [("pk".to_owned(), AttributeValue::S(pk.into()))].into()
    }

    fn null_at(path: &str) -> String {
        format!("Value null at '{path}' failed to satisfy constraint: Member must not be null")
    }

    fn errors(list: &[String]) -> String {
        let plural = if list.len() == 1 { "" } else { "s" };
        format!(
            "{} validation error{plural} detected: {}",
            list.len(),
            list.join("; ")
        )
    }

    #[tokio::test]
    async fn transact_get_decodes_and_encodes_responses_in_order() {
        let fake = Fake {
            transact_get: dynomodel::TransactGetItemsOutput {
                responses: vec![Some(key("a")), None, Some(Item::new())],
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
                    "Value 'hi' at 'returnConsumedCapacity' failed to satisfy constraint: Member \
                     must satisfy enum value set: [INDEXES, TOTAL, NONE]"
                        .into(),
                    "Value 'hi' at 'returnItemCollectionMetrics' failed to satisfy constraint: \
                     Member must satisfy enum value set: [SIZE, NONE]"
                        .into(),
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
                vec![format!(
                    "Value 'SOME' at '{p}.put.returnValuesOnConditionCheckFailure' failed to \
                     satisfy constraint: Member must satisfy enum value set: [ALL_OLD, NONE]"
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
                    "Value 'x' at 'returnConsumedCapacity' failed to satisfy constraint: Member \
                     must satisfy enum value set: [INDEXES, TOTAL, NONE]"
                        .into(),
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
}
