//! BatchGetItem and BatchWriteItem on the wire.
//!
//! What DynamoDB sends back, and where that is recorded:
//!
//! - BatchGetItem: `{"Responses": {table: [item, …]}, "UnprocessedKeys": {table: KeysAndAttributes}}`.
//!   Both members are always there, `UnprocessedKeys` as `{}` when everything was read (dynalite's
//!   `test/batchGetItem.js`, recorded against the service; DynamoDB Local 3.3.1 answers the same). An
//!   unprocessed table echoes what the request asked of it: `Keys`, and `ConsistentRead`,
//!   `ProjectionExpression`, `ExpressionAttributeNames` when they were given.
//! - BatchWriteItem: `{"UnprocessedItems": {}}` when every write was made (dynalite's
//!   `test/batchWriteItem.js`; DynamoDB Local), else `{table: [{"PutRequest": {"Item": …}} |
//!   {"DeleteRequest": {"Key": …}}]}`.
//!
//! What is checked here, in DynamoDB's order (see [`super::Decoder`]):
//!
//! 1. Types (`SerializationException`): `RequestItems` a map, a table's entry a structure
//!    (BatchGetItem) or a list of structures (BatchWriteItem), `Keys` a list of maps, each attribute
//!    value a structure, `ConsistentRead` a boolean, `AttributesToGet` a list of strings (dynalite's
//!    `assertType` cases).
//! 2. A missing (or `null`) `RequestItems` is answered as an empty map is, before any member
//!    constraint: "The requestItems parameter is required for BatchWriteItem" (… for BatchGetItem).
//!    dynalite's early recording gives that answer to `{"ReturnConsumedCapacity": "hi",
//!    "ReturnItemCollectionMetrics": "hi"}`, and it is the live service's answer to an empty map in
//!    us-east-1 (nubo-db/dynamodb-conformance's 2026 captures), whose wording the engine follows; the
//!    regions with the newer validation wording, and dynalite's later recording, list "Value null at
//!    'requestItems'" among the constraints instead. The message is a rule of the typed request, so
//!    it is the backend's: the wire layer hands it an empty `RequestItems`.
//! 3. Member constraints: the enums `ReturnConsumedCapacity` and (BatchWriteItem)
//!    `ReturnItemCollectionMetrics` first, then the missing members, with the paths DynamoDB reports:
//!    a map key appears as itself and list positions count from 1 (`requestItems.t.member.keys`,
//!    `requestItems.aa;.member.1.member.putRequest.item`, all recorded by dynalite), and a
//!    `WriteRequest`'s `deleteRequest` before its `putRequest` (dynalite's recording). A JSON `null`
//!    where a table's entry, a key or a write request belongs is reported the same way, at its own path
//!    (`requestItems.t.member`, `requestItems.t.member.keys.1.member`): the wire layer's rule for null
//!    list elements (see `table.rs`). That is an inference: DynamoDB Local answers these with its own
//!    texts ("The batch write request list for a table cannot be null or empty: t").
//! 4. The first operation-specific message: a `WriteRequest` with neither or both of `PutRequest` and
//!    `DeleteRequest` is "Supplied AttributeValue has more than one datatypes set, must contain exactly
//!    one of the supported datatypes" (dynalite records it for `{}`; DynamoDB Local 3.3.1 answers it for
//!    both, and for `{"PutRequest": null}`), reported before the attribute values of that table's
//!    items; then attribute values ([`super::value`]); then the legacy `AttributesToGet`, which is
//!    rejected rather than ignored (as the single-item operations do).
//!
//! Everything that can be checked on the typed request (table names, the 100-key and 25-request
//! limits, duplicate keys, key schemas, item sizes, the projection) is the backend's job, so that Rust
//! users of [`dynomodel_mem::MemBackend`](crate::MemBackend) get the same checks. Tables are decoded in
//! the order of the JSON map's keys (sorted); DynamoDB reports them in its hash map's order, which no
//! client can rely on.

use std::collections::BTreeMap;

use dynomodel::{
    Backend, BatchGetItemInput, BatchGetItemOutput, BatchWriteItemInput, Item, KeysAndAttributes,
    WriteRequest,
};
use serde_json::{json, Map, Value};

use super::item::{
    names, reject_legacy, required_item, RETURN_CONSUMED_CAPACITY, RETURN_ITEM_COLLECTION_METRICS,
};
use super::types::{list, map, string, structure};
use super::value::{item_to_json, parse_item, SEVERAL_TYPES};
use super::{Decoder, Members, WireResult};

/// `RequestItems`, when present.
fn request_items<'a>(m: &Members<'a>) -> WireResult<Option<&'a Map<String, Value>>> {
    Ok(m.get("RequestItems").map(map).transpose()?.flatten())
}

/// One table's `KeysAndAttributes`; `path` is `requestItems.<table>.member`.
fn keys_and_attributes(
    m: &Members<'_>,
    path: &str,
    d: &mut Decoder,
) -> WireResult<KeysAndAttributes> {
    let mut keys = Vec::new();
    match m.get("Keys").map(list).transpose()?.flatten() {
        None => d.null(&format!("{path}.keys")),
        Some(elements) => {
            for (i, element) in elements.iter().enumerate() {
                match parse_item(element, d)? {
                    Some(key) => keys.push(key),
                    None => d.null(&format!("{path}.keys.{}.member", i + 1)),
                }
            }
        }
    }
    // Type-checked as DynamoDB does (a list of strings), then refused: ignoring it would return whole
    // items where the caller asked for some attributes.
    if let Some(v) = m.get("AttributesToGet") {
        for name in list(v)?.into_iter().flatten().filter(|v| !v.is_null()) {
            string(name)?;
        }
    }
    reject_legacy(m, &["AttributesToGet"], d);
    Ok(KeysAndAttributes {
        keys,
        consistent_read: m.boolean("ConsistentRead")?,
        projection_expression: m.string("ProjectionExpression")?,
        expression_attribute_names: names(m)?,
    })
}

pub(super) async fn batch_get_item(
    backend: &dyn Backend,
    request: &Map<String, Value>,
) -> WireResult<Value> {
    let m = Members::new(request);
    let mut d = Decoder::default();
    m.enumeration("ReturnConsumedCapacity", RETURN_CONSUMED_CAPACITY, &mut d)?;
    let Some(tables) = request_items(&m)? else {
        // Answered as an empty map is, before any member constraint (see the module docs).
        let out = backend.batch_get_item(BatchGetItemInput::default()).await?;
        return Ok(batch_get_response(&out));
    };
    let mut request_items = BTreeMap::new();
    for (table, value) in tables {
        let path = format!("requestItems.{table}.member");
        match structure(value)? {
            Some(fields) => {
                let wanted = keys_and_attributes(&Members::new(fields), &path, &mut d)?;
                request_items.insert(table.clone(), wanted);
            }
            None => d.null(&path),
        }
    }
    let input = d.finish(BatchGetItemInput { request_items })?;
    let out = backend.batch_get_item(input).await?;
    Ok(batch_get_response(&out))
}

/// BatchGetItem's response: both members, always.
pub(super) fn batch_get_response(out: &BatchGetItemOutput) -> Value {
    let responses: Map<String, Value> = out
        .responses
        .iter()
        .map(|(table, items)| {
            let items = items.iter().map(item_to_json).collect();
            (table.clone(), Value::Array(items))
        })
        .collect();
    json!({
        "Responses": responses,
        "UnprocessedKeys": unprocessed_keys_json(&out.unprocessed_keys),
    })
}

/// Whether a `WriteRequest` sets exactly one of its two members (a JSON `null` is not set).
fn sets_one_request(fields: &Map<String, Value>) -> bool {
    let set = ["PutRequest", "DeleteRequest"]
        .iter()
        .filter(|name| fields.get(**name).is_some_and(|v| !v.is_null()))
        .count();
    set == 1
}

/// The item-shaped member `name` of the request structure `request` (`PutRequest`, `DeleteRequest`)
/// of a `WriteRequest`, when that structure is present; `path` is the member's constraint path.
fn write_member(
    w: &Members<'_>,
    request: &str,
    name: &str,
    path: &str,
    d: &mut Decoder,
) -> WireResult<Option<Item>> {
    match w.get(request).map(structure).transpose()?.flatten() {
        Some(fields) => Ok(Some(required_item(&Members::new(fields), name, path, d)?)),
        None => Ok(None),
    }
}

/// One table's write requests; `path` is `requestItems.<table>.member`.
fn write_requests(
    elements: &[Value],
    path: &str,
    d: &mut Decoder,
) -> WireResult<Vec<WriteRequest>> {
    let requests = elements
        .iter()
        .map(structure)
        .collect::<WireResult<Vec<_>>>()?;
    // DynamoDB checks the shape of all of a table's requests before the values in them (dynalite's
    // `validations/batchWriteItem.js` order).
    if requests
        .iter()
        .flatten()
        .any(|fields| !sets_one_request(fields))
    {
        d.custom(SEVERAL_TYPES);
    }
    let mut out = Vec::with_capacity(requests.len());
    for (i, fields) in requests.into_iter().enumerate() {
        let element = format!("{path}.{}.member", i + 1);
        let Some(fields) = fields else {
            d.null(&element);
            continue;
        };
        let w = Members::new(fields);
        // deleteRequest's errors before putRequest's, as DynamoDB lists them.
        let key_path = format!("{element}.deleteRequest.key");
        let delete = write_member(&w, "DeleteRequest", "Key", &key_path, d)?;
        let item_path = format!("{element}.putRequest.item");
        let put = write_member(&w, "PutRequest", "Item", &item_path, d)?;
        match (put, delete) {
            (Some(item), _) => out.push(WriteRequest::Put { item }),
            (None, Some(key)) => out.push(WriteRequest::Delete { key }),
            // Already recorded as a shape error.
            (None, None) => {}
        }
    }
    Ok(out)
}

pub(super) async fn batch_write_item(
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
    let Some(tables) = request_items(&m)? else {
        // Answered as an empty map is, before any member constraint (see the module docs).
        let out = backend
            .batch_write_item(BatchWriteItemInput::default())
            .await?;
        return Ok(json!({ "UnprocessedItems": unprocessed_items_json(&out.unprocessed_items) }));
    };
    let mut request_items = BTreeMap::new();
    for (table, value) in tables {
        let path = format!("requestItems.{table}.member");
        match list(value)? {
            Some(elements) => {
                let writes = write_requests(elements, &path, &mut d)?;
                request_items.insert(table.clone(), writes);
            }
            None => d.null(&path),
        }
    }
    let input = d.finish(BatchWriteItemInput { request_items })?;
    let out = backend.batch_write_item(input).await?;
    Ok(json!({ "UnprocessedItems": unprocessed_items_json(&out.unprocessed_items) }))
}

/// `UnprocessedKeys` as DynamoDB sends it: the request's `KeysAndAttributes` for each table, `{}` when
/// there are none.
pub(super) fn unprocessed_keys_json(unprocessed: &BTreeMap<String, KeysAndAttributes>) -> Value {
    Value::Object(
        unprocessed
            .iter()
            .map(|(table, wanted)| (table.clone(), keys_and_attributes_json(wanted)))
            .collect(),
    )
}

fn keys_and_attributes_json(wanted: &KeysAndAttributes) -> Value {
    let mut out = Map::new();
    out.insert(
        "Keys".into(),
        Value::Array(wanted.keys.iter().map(item_to_json).collect()),
    );
    if let Some(consistent) = wanted.consistent_read {
        out.insert("ConsistentRead".into(), Value::Bool(consistent));
    }
    if let Some(projection) = &wanted.projection_expression {
        out.insert(
            "ProjectionExpression".into(),
            Value::String(projection.clone()),
        );
    }
    if let Some(names) = &wanted.expression_attribute_names {
        out.insert("ExpressionAttributeNames".into(), json!(names));
    }
    Value::Object(out)
}

/// `UnprocessedItems` as DynamoDB sends it, `{}` when there are none.
pub(super) fn unprocessed_items_json(unprocessed: &BTreeMap<String, Vec<WriteRequest>>) -> Value {
    Value::Object(
        unprocessed
            .iter()
            .map(|(table, writes)| {
                let writes = writes.iter().map(write_request_json).collect();
                (table.clone(), Value::Array(writes))
            })
            .collect(),
    )
}

fn write_request_json(write: &WriteRequest) -> Value {
    match write {
        WriteRequest::Put { item } => json!({ "PutRequest": { "Item": item_to_json(item) } }),
        WriteRequest::Delete { key } => json!({ "DeleteRequest": { "Key": item_to_json(key) } }),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::server::wire::fake::{Fake, Seen};
    use crate::server::wire::types::{START_OF_LIST, START_OF_STRUCTURE};
    use crate::server::wire::value::EMPTY_VALUE;
    use dynomodel::{AttributeValue, BatchWriteItemOutput};

    fn s(text: &str) -> AttributeValue {
        AttributeValue::S(text.into())
    }

    fn key(pk: &str) -> Item {
        [("pk".to_owned(), s(pk))].into()
    }

    fn null_at(path: &str) -> String {
        format!("Value null at '{path}' failed to satisfy constraint: Member must not be null")
    }

    fn enum_at(value: &str, path: &str, set: &str) -> String {
        format!(
            "Value '{value}' at '{path}' failed to satisfy constraint: Member must satisfy enum \
             value set: [{set}]"
        )
    }

    #[tokio::test]
    async fn batch_get_decodes_every_member() {
        let fake = Fake::default();
        let seen = fake
            .decoded(
                "BatchGetItem",
                json!({
                    "ReturnConsumedCapacity": "TOTAL",
                    "RequestItems": {
                        "users": {
                            "Keys": [{"pk": {"S": "a"}}, {"pk": {"S": "b"}}],
                            "ConsistentRead": true,
                            "ProjectionExpression": "#n",
                            "ExpressionAttributeNames": {"#n": "name", "#x": null}
                        },
                        "teams": {"Keys": [{"pk": {"S": "t"}}], "ConsistentRead": null}
                    }
                }),
            )
            .await;
        let expected = BatchGetItemInput {
            request_items: BTreeMap::from([
                (
                    "users".to_owned(),
                    KeysAndAttributes {
                        keys: vec![key("a"), key("b")],
                        consistent_read: Some(true),
                        projection_expression: Some("#n".into()),
                        expression_attribute_names: Some(BTreeMap::from([(
                            "#n".to_owned(),
                            "name".to_owned(),
                        )])),
                    },
                ),
                (
                    "teams".to_owned(),
                    KeysAndAttributes {
                        keys: vec![key("t")],
                        ..Default::default()
                    },
                ),
            ]),
        };
        assert_eq!(seen, Seen::BatchGet(expected));
    }

    #[tokio::test]
    async fn batch_get_response_always_has_both_members() {
        let fake = Fake::default();
        let body = json!({"RequestItems": {"users": {"Keys": [{"pk": {"S": "a"}}]}}});
        let (out, _) = fake.run("BatchGetItem", body.clone()).await;
        assert_eq!(
            out.unwrap(),
            json!({"Responses": {}, "UnprocessedKeys": {}})
        );

        let item: Item = [("pk".to_owned(), s("a")), ("n".to_owned(), s("x"))].into();
        let fake = Fake {
            batch_get: BatchGetItemOutput {
                responses: BTreeMap::from([
                    ("users".to_owned(), vec![item]),
                    ("empty".to_owned(), vec![]),
                ]),
                unprocessed_keys: BTreeMap::from([
                    (
                        "teams".to_owned(),
                        KeysAndAttributes {
                            keys: vec![key("t1"), key("t2")],
                            consistent_read: Some(false),
                            projection_expression: Some("#n, pk".into()),
                            expression_attribute_names: Some(BTreeMap::from([(
                                "#n".to_owned(),
                                "name".to_owned(),
                            )])),
                        },
                    ),
                    (
                        "plain".to_owned(),
                        KeysAndAttributes {
                            keys: vec![key("p")],
                            ..Default::default()
                        },
                    ),
                ]),
            },
            ..Fake::default()
        };
        let (out, _) = fake.run("BatchGetItem", body).await;
        assert_eq!(
            out.unwrap(),
            json!({
                "Responses": {
                    "users": [{"pk": {"S": "a"}, "n": {"S": "x"}}],
                    "empty": []
                },
                "UnprocessedKeys": {
                    "teams": {
                        "Keys": [{"pk": {"S": "t1"}}, {"pk": {"S": "t2"}}],
                        "ConsistentRead": false,
                        "ProjectionExpression": "#n, pk",
                        "ExpressionAttributeNames": {"#n": "name"}
                    },
                    "plain": {"Keys": [{"pk": {"S": "p"}}]}
                }
            })
        );
    }

    #[tokio::test]
    async fn batch_write_decodes_puts_and_deletes_and_encodes_unprocessed_items() {
        let fake = Fake {
            batch_write: BatchWriteItemOutput {
                unprocessed_items: BTreeMap::from([(
                    "users".to_owned(),
                    vec![
                        WriteRequest::Delete { key: key("b") },
                        WriteRequest::Put { item: key("c") },
                    ],
                )]),
            },
            ..Fake::default()
        };
        let body = json!({
            "ReturnConsumedCapacity": "INDEXES",
            "ReturnItemCollectionMetrics": "SIZE",
            "RequestItems": {
                "users": [
                    {"PutRequest": {"Item": {"pk": {"S": "a"}, "n": {"N": "1"}}}},
                    {"DeleteRequest": {"Key": {"pk": {"S": "b"}}}, "PutRequest": null}
                ]
            }
        });
        let (out, seen) = fake.run("BatchWriteItem", body).await;
        let item: Item = [
            ("pk".to_owned(), s("a")),
            ("n".to_owned(), AttributeValue::N("1".parse().unwrap())),
        ]
        .into();
        let expected = BatchWriteItemInput {
            request_items: BTreeMap::from([(
                "users".to_owned(),
                vec![
                    WriteRequest::Put { item },
                    WriteRequest::Delete { key: key("b") },
                ],
            )]),
        };
        assert_eq!(seen, Some(Seen::BatchWrite(expected)));
        assert_eq!(
            out.unwrap(),
            json!({"UnprocessedItems": {"users": [
                {"DeleteRequest": {"Key": {"pk": {"S": "b"}}}},
                {"PutRequest": {"Item": {"pk": {"S": "c"}}}}
            ]}})
        );
        let fake = Fake::default();
        let body = json!({"RequestItems": {"users": [{"PutRequest": {"Item": {}}}]}});
        let (out, _) = fake.run("BatchWriteItem", body).await;
        assert_eq!(out.unwrap(), json!({"UnprocessedItems": {}}));
    }

    #[tokio::test]
    async fn wrong_json_types_are_serialization_errors() {
        let fake = Fake::default();
        let short = "class java.lang.Short can not be converted to an String";
        let get_cases = [
            (json!({"RequestItems": []}), START_OF_LIST),
            (json!({"RequestItems": "t"}), "Expected map or null"),
            (json!({"RequestItems": {"t": "x"}}), "Expected null"),
            (json!({"RequestItems": {"t": []}}), START_OF_LIST),
            (
                json!({"RequestItems": {"t": {"Keys": {}}}}),
                START_OF_STRUCTURE,
            ),
            (
                json!({"RequestItems": {"t": {"Keys": 1}}}),
                "Expected list or null",
            ),
            (
                json!({"RequestItems": {"t": {"Keys": ["k"]}}}),
                "Expected map or null",
            ),
            (
                json!({"RequestItems": {"t": {"Keys": [{"pk": "x"}]}}}),
                "Expected null",
            ),
            (
                json!({"RequestItems": {"t": {"Keys": [{"pk": {"S": 1}}]}}}),
                short,
            ),
            (
                json!({"RequestItems": {"t": {"Keys": [], "ConsistentRead": "yes"}}}),
                "'YES' can not be converted to an Boolean",
            ),
            (
                json!({"RequestItems": {"t": {"Keys": [], "AttributesToGet": "a"}}}),
                "Expected list or null",
            ),
            (
                json!({"RequestItems": {"t": {"Keys": [], "AttributesToGet": [1]}}}),
                short,
            ),
            (
                json!({"RequestItems": {"t": {"Keys": [], "ProjectionExpression": 1}}}),
                short,
            ),
            (
                json!({"RequestItems": {"t": {"Keys": [], "ExpressionAttributeNames": {"#a": 1}}}}),
                short,
            ),
            (
                json!({"RequestItems": {}, "ReturnConsumedCapacity": 1}),
                short,
            ),
        ];
        for (body, message) in get_cases {
            let got = fake.serialization("BatchGetItem", body.clone()).await;
            assert_eq!(got.as_deref(), Some(message), "{body}");
        }
        let write_cases = [
            (json!({"RequestItems": {"t": {}}}), START_OF_STRUCTURE),
            (json!({"RequestItems": {"t": "x"}}), "Expected list or null"),
            (json!({"RequestItems": {"t": ["x"]}}), "Expected null"),
            (
                json!({"RequestItems": {"t": [{"PutRequest": []}]}}),
                START_OF_LIST,
            ),
            (
                json!({"RequestItems": {"t": [{"DeleteRequest": "x"}]}}),
                "Expected null",
            ),
            (
                json!({"RequestItems": {"t": [{"PutRequest": {"Item": []}}]}}),
                START_OF_LIST,
            ),
            (
                json!({"RequestItems": {"t": [{"DeleteRequest": {"Key": 1}}]}}),
                "Expected map or null",
            ),
            (
                json!({"RequestItems": {"t": [{"PutRequest": {"Item": {"a": true}}}]}}),
                "Expected null",
            ),
            (
                json!({"RequestItems": {}, "ReturnItemCollectionMetrics": true}),
                "class java.lang.Boolean can not be converted to an String",
            ),
            // A type error anywhere wins over validation errors found before it.
            (
                json!({
                    "ReturnConsumedCapacity": "hi",
                    "RequestItems": {"a": [{}], "b": [{"PutRequest": {"Item": {"x": {"N": 5}}}}]}
                }),
                short,
            ),
        ];
        for (body, message) in write_cases {
            let got = fake.serialization("BatchWriteItem", body.clone()).await;
            assert_eq!(got.as_deref(), Some(message), "{body}");
        }
    }

    #[tokio::test]
    async fn constraints_with_dynamodb_paths() {
        let fake = Fake::default();
        // A missing RequestItems goes to the backend as an empty one, whatever else is wrong.
        for body in [
            json!({}),
            json!({"RequestItems": null}),
            json!({"ReturnConsumedCapacity": "hi", "ReturnItemCollectionMetrics": "hi"}),
        ] {
            assert_eq!(
                fake.decoded("BatchWriteItem", body.clone()).await,
                Seen::BatchWrite(BatchWriteItemInput::default()),
                "{body}"
            );
            let (out, seen) = fake.run("BatchGetItem", body.clone()).await;
            assert_eq!(seen, Some(Seen::BatchGet(BatchGetItemInput::default())));
            assert_eq!(
                out.unwrap(),
                json!({"Responses": {}, "UnprocessedKeys": {}})
            );
        }
        // But not before type errors.
        let typed = json!({"ReturnItemCollectionMetrics": 1});
        assert!(fake.serialization("BatchWriteItem", typed).await.is_some());
        // dynalite's recordings (test/batchWriteItem.js, test/batchGetItem.js), without the table-name
        // constraints that the engine reports.
        assert_eq!(
            fake.validation(
                "BatchWriteItem",
                json!({
                    "ReturnConsumedCapacity": "hi",
                    "ReturnItemCollectionMetrics": "hi",
                    "RequestItems": {"abc": [{"PutRequest": {"Item": {}}}]}
                })
            )
            .await,
            format!(
                "2 validation errors detected: {}; {}",
                enum_at("hi", "returnConsumedCapacity", "INDEXES, TOTAL, NONE"),
                enum_at("hi", "returnItemCollectionMetrics", "SIZE, NONE"),
            )
        );
        assert_eq!(
            fake.validation(
                "BatchWriteItem",
                json!({"RequestItems": {"aa;": [{"PutRequest": {}, "DeleteRequest": {}}]}})
            )
            .await,
            format!(
                "2 validation errors detected: {}; {}",
                null_at("requestItems.aa;.member.1.member.deleteRequest.key"),
                null_at("requestItems.aa;.member.1.member.putRequest.item")
            )
        );
        assert_eq!(
            fake.validation(
                "BatchGetItem",
                json!({"RequestItems": {"aa;": {}}, "ReturnConsumedCapacity": "hi"})
            )
            .await,
            format!(
                "2 validation errors detected: {}; {}",
                enum_at("hi", "returnConsumedCapacity", "INDEXES, TOTAL, NONE"),
                null_at("requestItems.aa;.member.keys")
            )
        );
        // JSON nulls where a table's entry, a key or a write request belongs.
        let nulls = [
            ("BatchGetItem", json!({"t": null}), "requestItems.t.member"),
            (
                "BatchGetItem",
                json!({"t": {"Keys": [{"pk": {"S": "a"}}, null]}}),
                "requestItems.t.member.keys.2.member",
            ),
            (
                "BatchWriteItem",
                json!({"t": null}),
                "requestItems.t.member",
            ),
            (
                "BatchWriteItem",
                json!({"t": [null]}),
                "requestItems.t.member.1.member",
            ),
            (
                "BatchWriteItem",
                json!({"t": [{"PutRequest": {"Item": null}}]}),
                "requestItems.t.member.1.member.putRequest.item",
            ),
        ];
        for (operation, items, path) in nulls {
            let body = json!({ "RequestItems": items });
            assert_eq!(
                fake.validation(operation, body).await,
                format!("1 validation error detected: {}", null_at(path)),
                "{operation} {items}"
            );
        }
    }

    #[tokio::test]
    async fn write_request_shape_and_custom_messages() {
        let fake = Fake::default();
        let put = json!({"PutRequest": {"Item": {"pk": {"S": "a"}}}});
        let delete = json!({"DeleteRequest": {"Key": {"pk": {"S": "a"}}}});
        let both = json!({
            "PutRequest": {"Item": {"pk": {"S": "a"}}},
            "DeleteRequest": {"Key": {"pk": {"S": "a"}}}
        });
        for requests in [
            json!([{}]),
            json!([{"PutRequest": null, "DeleteRequest": null}]),
            json!([put, both]),
            // The shape of a table's requests is checked before the values in them.
            json!([{"PutRequest": {"Item": {"pk": {}}}}, {}]),
            json!([delete, {"Other": {}}]),
        ] {
            let body = json!({"RequestItems": {"abc": requests}});
            assert_eq!(
                fake.validation("BatchWriteItem", body).await,
                SEVERAL_TYPES,
                "{requests}"
            );
        }
        let bad_value = json!({"RequestItems": {"abc": [{"PutRequest": {"Item": {"a": {}}}}]}});
        assert_eq!(
            fake.validation("BatchWriteItem", bad_value).await,
            EMPTY_VALUE
        );
        let bad_key = json!({"RequestItems": {"abc": {"Keys": [{"a": {"S": "x", "N": "1"}}]}}});
        assert_eq!(
            fake.validation("BatchGetItem", bad_key).await,
            SEVERAL_TYPES
        );
        // The legacy AttributesToGet is refused, not ignored.
        let legacy = json!({"RequestItems": {"abc": {"Keys": [{"a": {"S": "x"}}], "AttributesToGet": ["a"]}}});
        assert_eq!(
            fake.validation("BatchGetItem", legacy).await,
            "dynomodel-mem does not support the legacy parameter AttributesToGet; use expressions instead"
        );
        // Member constraints come before custom messages.
        let both_kinds = json!({
            "ReturnConsumedCapacity": "hi",
            "RequestItems": {"abc": [{}]}
        });
        assert!(fake
            .validation("BatchWriteItem", both_kinds)
            .await
            .starts_with("1 validation error detected: Value 'hi'"));
    }

    #[tokio::test]
    async fn backend_errors_pass_through() {
        let fake = Fake {
            error: Some(dynomodel::Error::resource_not_found(
                "Requested resource not found",
            )),
            ..Fake::default()
        };
        let body = json!({"RequestItems": {"nope": {"Keys": [{"pk": {"S": "a"}}]}}});
        let (out, seen) = fake.run("BatchGetItem", body).await;
        assert!(seen.is_some());
        assert_eq!(
            out.unwrap_err(),
            crate::server::wire::Fault::Backend(dynomodel::Error::resource_not_found(
                "Requested resource not found"
            ))
        );
    }
}
