//! The typed GetItem's item read from the body, against the SDK's path, as the pages' cases are.

use crate::backend::{GetItemInput, GetItemOutput};

use super::*;

fn get_input() -> GetItemInput {
    GetItemInput {
        table_name: "t".into(),
        key: Item::from([("pk".to_owned(), AttributeValue::S("a".into()))]),
        ..Default::default()
    }
}

/// A typed GetItem of `responses` through both backends, which must answer alike: the hooked
/// one's answer and what its sink got.
async fn alike_get(responses: &[(u16, &str)]) -> (Result<GetItemOutput>, Collect) {
    let mut answers = Vec::new();
    for (backend, canned) in backends(responses) {
        let mut sink = Collect::default();
        let out = backend.get_item_into(get_input(), &mut sink).await;
        answers.push((out, sink, canned.sent()));
    }
    let [hooked, plain]: [_; 2] = answers.try_into().unwrap();
    assert_eq!(hooked.0, plain.0);
    assert_eq!(hooked.1, plain.1);
    assert_eq!(hooked.2, plain.2, "the same requests sent");
    (hooked.0, hooked.1)
}

const FOUND: &str = r#"{"Item":{"pk":{"S":"a"},"sk":{"N":"1"},"ok":{"BOOL":true},"tags":{"SS":["x","y"]},"l":{"L":[{"N":"2.5"},{"NULL":true}]},"m":{"M":{"in":{"S":"é\u00e9"}}}},"ConsumedCapacity":{"TableName":"t","CapacityUnits":0.5}}"#;

#[tokio::test]
async fn a_found_item_read_from_the_body_is_the_sdks_item_with_its_capacity() {
    let (out, sink) = alike_get(&[(200, FOUND)]).await;
    let out = out.unwrap();
    assert_eq!(sink.0.len(), 1);
    assert_eq!(sink.0[0].len(), 6);
    assert_eq!(
        sink.0[0]["tags"],
        AttributeValue::Ss(vec!["x".into(), "y".into()])
    );
    assert_eq!(out.item, None, "a typed item went to the sink");
    assert_eq!(out.consumed_capacity.unwrap().capacity_units, Some(0.5));
    // An empty item is an item.
    let (out, sink) = alike_get(&[(200, r#"{"Item":{}}"#)]).await;
    assert_eq!(out.unwrap().item, None);
    assert_eq!(sink.0, [Item::new()]);
    // The untyped read of the same backend still gets the SDK's item.
    let [(hooked, _), (plain, _)] = backends(&[(200, FOUND)]);
    let untyped = hooked.get_item(get_input()).await.unwrap();
    assert_eq!(untyped, plain.get_item(get_input()).await.unwrap());
    assert_eq!(untyped.item.unwrap().len(), 6);
}

#[tokio::test]
async fn the_hooked_client_reads_a_get_items_body() {
    // Armed on the hooked copy, the item is read from the body and the SDK given `{}`.
    let [(hooked, _), _] = backends(&[(200, FOUND)]);
    let slot = PageSlot::default();
    let request = hooked.sender.get_item().table_name("t").send();
    let output = Armed::new(Arms::page(&slot), request).await.unwrap();
    assert_eq!(output.item, Some(Default::default()));
    assert_eq!(output.consumed_capacity.unwrap().capacity_units, Some(0.5));
    use aws_sdk_dynamodb::operation::RequestId;
    let page = take_page(&slot).unwrap();
    assert_eq!(page.lengths, [6]);
    assert_eq!(&FOUND.as_bytes()[page.items][..2], b"{\"");
    // Not armed, the same client leaves it to the SDK.
    let output = hooked
        .sender
        .get_item()
        .table_name("t")
        .send()
        .await
        .unwrap();
    assert_eq!(output.request_id(), Some("canned-request"));
    assert_eq!(output.item.unwrap().len(), 6);
}

#[tokio::test]
async fn the_wrapped_get_item_deserializer_gives_the_sdk_an_empty_item() {
    let slot = PageSlot::default();
    let (inner, member) = sdk_deserializer("GetItem").unwrap();
    assert_eq!(member, Member::Item);
    let wrapper = PageDeserializer {
        inner,
        member,
        slot: Arc::clone(&slot),
    };
    let mut response = HttpResponse::new(StatusCode::try_from(200).unwrap(), SdkBody::from(FOUND));
    response.headers_mut().insert("x-amzn-requestid", "r-2");
    let cfg = ConfigBag::base();
    let output = wrapper.deserialize_nonstreaming_with_config(&response, &cfg);
    let output = output
        .ok()
        .unwrap()
        .downcast::<aws_sdk_dynamodb::operation::get_item::GetItemOutput>()
        .unwrap();
    assert_eq!(
        output.item,
        Some(Default::default()),
        "given `\"Item\":{{}}`"
    );
    assert!(output.consumed_capacity.is_some());
    use aws_sdk_dynamodb::operation::RequestId;
    assert_eq!(output.request_id(), Some("r-2"));
    assert_eq!(take_page(&slot).unwrap().lengths, [6]);
    // Not found: no page, the SDK's answer.
    let response = HttpResponse::new(StatusCode::try_from(200).unwrap(), SdkBody::from("{}"));
    let output = wrapper.deserialize_nonstreaming_with_config(&response, &cfg);
    let output = output
        .ok()
        .unwrap()
        .downcast::<aws_sdk_dynamodb::operation::get_item::GetItemOutput>()
        .unwrap();
    assert_eq!(output.item, None);
    assert!(take_page(&slot).is_none());
}

#[tokio::test]
async fn a_missing_item_is_not_found() {
    for body in [
        "{}",
        r#"{"Item":null}"#,
        r#"{"ConsumedCapacity":{"TableName":"t","CapacityUnits":0.5}}"#,
    ] {
        let (out, sink) = alike_get(&[(200, body)]).await;
        assert_eq!(out.unwrap().item, None, "{body}");
        assert!(sink.0.is_empty(), "{body}");
    }
}

#[tokio::test]
async fn a_get_body_the_reader_refuses_answers_as_the_sdk_did() {
    let unknown = r#"{"Item":{"pk":{"S":"a"},"odd":{"X":"1"}}}"#;
    let (out, sink) = alike_get(&[(200, unknown)]).await;
    let err = out.unwrap_err().to_string();
    assert!(err.contains("odd") && err.contains("unknown"), "{err}");
    assert!(sink.0.is_empty());
    let (out, _) = alike_get(&[(200, r#"{"Item":{"b":{"B":"!!!"}}}"#)]).await;
    assert!(out.is_err());
    let (out, _) = alike_get(&[(200, r#"{"Item":{"n":{"N":"NaN"}}}"#)]).await;
    assert!(out.unwrap_err().to_string().contains("NaN"));
    // The item read, a member beside it the SDK refuses: the SDK's error, nothing handed over.
    let refused = FOUND.replace(r#""CapacityUnits":0.5"#, r#""CapacityUnits":"half""#);
    let (out, sink) = alike_get(&[(200, &refused)]).await;
    assert!(out.is_err());
    assert!(sink.0.is_empty());
}

#[tokio::test]
async fn a_get_error_response_is_the_sdks_error() {
    let refused = r#"{"__type":"com.amazon.coral.validate#ValidationException","message":"The provided key element does not match the schema"}"#;
    let (out, sink) = alike_get(&[(400, refused)]).await;
    assert_eq!(
        out.unwrap_err().to_string(),
        "ValidationException: The provided key element does not match the schema"
    );
    assert!(sink.0.is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_retried_get_hands_its_item_over_once() {
    let failed =
        r#"{"__type":"com.amazon.coral.service#InternalServerError","message":"try again"}"#;
    let (out, sink) = alike_get(&[(500, failed), (200, FOUND)]).await;
    assert!(out.is_ok());
    assert_eq!(sink.0.len(), 1, "the item, once");
}

#[tokio::test]
async fn a_get_decoding_failure_names_table_key_and_attribute() {
    let body = format!(r#"{{"Item":{}}}"#, row_item(2, "2.5"));
    let mut errors = Vec::new();
    for (db, _) in dbs(&[(200, &body)]) {
        errors.push(db.get::<Row>(("a", 2)).await.unwrap_err().to_string());
    }
    assert_eq!(errors[0], errors[1]);
    for part in ["rows", "sk", "2", "n", "2.5"] {
        assert!(errors[0].contains(part), "{part}: {}", errors[0]);
    }
    // And a good one decodes alike.
    let body = format!(r#"{{"Item":{}}}"#, row_item(2, "20"));
    let mut rows = Vec::new();
    for (db, _) in dbs(&[(200, &body)]) {
        rows.push(db.get::<Row>(("a", 2)).await.unwrap());
    }
    assert_eq!(rows[0], rows[1]);
    assert_eq!(rows[0].as_ref().map(|row| row.n), Some(20));
}
