//! The wrapped serializer against the SDK's own: the body it sends is the SDK's body of the whole
//! map, whatever else the request holds.
#![allow(clippy::unwrap_used)]

use std::collections::HashMap;

use aws_sdk_dynamodb::operation::get_item::GetItemInput as SdkGetItemInput;
use aws_sdk_dynamodb::operation::put_item::PutItemInput as SdkPutItemInput;
use aws_sdk_dynamodb::types::{AttributeValue as SdkValue, ExpectedAttributeValue};
use proptest::prelude::*;

use aws_sdk_dynamodb::operation::{get_item::GetItem, put_item::PutItem};
use aws_smithy_runtime_api::client::interceptors::context::Input;
use aws_smithy_runtime_api::client::runtime_plugin::RuntimePlugin;
use aws_smithy_runtime_api::client::ser_de::{SerializeRequest, SharedRequestSerializer};
use aws_smithy_types::config_bag::ConfigBag;

use super::*;
use crate::aws::item_json::item_json;
use crate::aws::value::tests::any_value;
use crate::aws::value::{to_sdk_item, SdkItem};
use crate::value::Item;

/// The SDK's own request serializer of `op` (PutItem or GetItem), from its runtime plugin.
fn sdk_serializer(op: &str) -> SharedRequestSerializer {
    let layer = match op {
        "PutItem" => PutItem::new().config(),
        _ => GetItem::new().config(),
    };
    layer
        .unwrap()
        .load::<SharedRequestSerializer>()
        .unwrap()
        .clone()
}

/// What the SDK's serializer of `op` makes of `input`.
fn serialize(op: &str, input: Input) -> HttpRequest {
    let mut cfg = ConfigBag::base();
    sdk_serializer(op).serialize_input(input, &mut cfg).unwrap()
}

fn body(request: &HttpRequest) -> &[u8] {
    request.body().bytes().unwrap()
}

fn put(item: SdkItem) -> aws_sdk_dynamodb::operation::put_item::builders::PutItemInputBuilder {
    SdkPutItemInput::builder()
        .table_name("t")
        .set_item(Some(item))
}

/// The body the SDK's own serializer writes for a PutItem of `item` to table `t`.
pub(crate) fn sdk_body(item: SdkItem) -> Vec<u8> {
    let input = Input::erase(put(item).build().unwrap());
    body(&serialize("PutItem", input)).to_vec()
}

/// The text of the `Item` of a body [`sdk_body`] wrote.
pub(crate) fn item_of(body: &[u8]) -> &str {
    let body = std::str::from_utf8(body).unwrap();
    let item = body.strip_prefix(r#"{"TableName":"t","Item":"#).unwrap();
    item.strip_suffix('}').unwrap()
}

/// The request the SDK serializes of `input` (with an empty item, or key), `written` put into it.
fn wrapped(written: &Arc<WrittenMember>, input: Input) -> Result<HttpRequest, BoxError> {
    let mut request = serialize("PutItem", input);
    written.write_into("PutItem", &mut request)?;
    Ok(request)
}

/// `request`'s body as JSON, with its `Content-Length` checked against it.
fn json(request: &HttpRequest) -> serde_json::Value {
    assert_eq!(
        request.headers().get("content-length"),
        Some(body(request).len().to_string().as_str())
    );
    serde_json::from_slice(body(request)).unwrap()
}

proptest! {
    /// Any item: the wrapped body is the SDK's body of the whole map.
    #[test]
    fn a_written_item_makes_the_body_the_sdk_makes_of_its_map(
        item in proptest::collection::btree_map(".{0,4}", any_value(), 0..5)
    ) {
        let written = WrittenMember::put_item(item_json(&Item::new(), &item).unwrap().unwrap());
        let request = wrapped(&written, Input::erase(put(SdkItem::new()).build().unwrap())).unwrap();
        prop_assert!(written.written());
        let sdk: serde_json::Value = serde_json::from_slice(&sdk_body(to_sdk_item(item))).unwrap();
        prop_assert_eq!(json(&request), sdk);
    }
}

#[test]
fn the_member_goes_in_its_place_among_the_others() {
    let item = Item::from([("pk".to_owned(), crate::AttributeValue::S("a".into()))]);
    let json_text = item_json(&Item::new(), &item).unwrap().unwrap();
    // Members around the item, with the text `"Item":{}` in a string and as a nested name.
    let expected = HashMap::from([("Item".to_owned(), ExpectedAttributeValue::builder().build())]);
    let values = HashMap::from([(":v".to_owned(), SdkValue::S(r#""Item":{}"#.into()))]);
    let input = |item| {
        put(item)
            .condition_expression(r#"x = :v AND "Item":{}"#)
            .set_expected(Some(expected.clone()))
            .set_expression_attribute_values(Some(values.clone()))
            .build()
            .unwrap()
    };
    let written = WrittenMember::put_item(json_text);
    let request = wrapped(&written, Input::erase(input(SdkItem::new()))).unwrap();
    let sdk = serialize("PutItem", Input::erase(input(to_sdk_item(item))));
    // One attribute: byte for byte.
    assert_eq!(body(&request), body(&sdk));
    assert_eq!(json(&request), json(&sdk));
    // The headers besides the length are the SDK's.
    assert_eq!(
        request.headers().get("x-amz-target"),
        Some("DynamoDB_20120810.PutItem")
    );
}

#[test]
fn a_body_without_the_empty_member_is_not_sent() {
    // A body whose `Item` the SDK was given filled: refused, and nothing is written.
    let written = WrittenMember::put_item("{}".to_owned());
    let item = SdkItem::from([("pk".to_owned(), SdkValue::Null(true))]);
    let err = wrapped(&written, Input::erase(put(item).build().unwrap())).unwrap_err();
    assert_eq!(err.to_string(), NOT_FOUND);
    assert!(!written.written());
    // Nor one without an `Item` at all.
    let input = SdkPutItemInput::builder().table_name("t").build().unwrap();
    let err = wrapped(&written, Input::erase(input)).unwrap_err();
    assert_eq!(err.to_string(), NOT_FOUND);
}

#[test]
fn only_the_members_operation_is_written_into() {
    let written = WrittenMember::put_item(r#"{"pk":{"S":"a"}}"#.to_owned());
    let input = SdkGetItemInput::builder()
        .table_name("t")
        .set_key(Some(SdkItem::new()))
        .build()
        .unwrap();
    let mut request = serialize("GetItem", Input::erase(input));
    let before = body(&request).to_vec();
    written.write_into("GetItem", &mut request).unwrap();
    assert_eq!(body(&request), before);
    assert!(!written.written());
}

#[test]
fn a_member_not_written_says_so_and_what_the_sdk_answered() {
    let written = WrittenMember::put_item("{}".to_owned());
    let answered = Error::Validation {
        message: "Missing the key pk in the item".into(),
    };
    let err = written.not_written(Some(&answered)).to_string();
    assert!(
        err.contains("the PutItem request's Item was not put into the request's body"),
        "{err}"
    );
    assert!(err.contains("nothing was written"), "{err}");
    assert!(err.contains("Missing the key pk in the item"), "{err}");
    let err = written.not_written(None).to_string();
    assert!(err.ends_with("nothing was written"), "{err}");
}

#[test]
fn the_item_is_found_where_the_walk_finds_it() {
    let bodies: [&[u8]; 7] = [
        br#"{"TableName":"t","Item":{}}"#,
        br#"{"TableName":"t","Item":{},"ConditionExpression":"a"}"#,
        // Escapes in the name (no table is named so, but the SDK sends what it is given).
        br#"{"TableName":"a\"b","Item":{}}"#,
        br#"{"TableName":"a\\","Item":{}}"#,
        // Elsewhere, or missing, or filled: the walk's answer.
        br#"{"Item":{},"TableName":"t"}"#,
        br#"{"TableName":"t","Expected":{"Item":{}}}"#,
        br#"{"TableName":"t","Item":{"a":{"NULL":true}}}"#,
    ];
    for body in bodies {
        let walked = empty_object_span(body, "Item");
        assert_eq!(item_span(body), walked, "{}", String::from_utf8_lossy(body));
    }
    assert_eq!(item_span(bodies[0]), Some(24..26));
    assert_eq!(item_span(bodies[2]), Some(27..29));
    assert_eq!(item_span(bodies[5]), None);
    // The SDK's own bodies, whatever the table's name.
    for table in ["t", "my-table.v2_x", "a\"b", "é"] {
        let input = SdkPutItemInput::builder()
            .table_name(table)
            .set_item(Some(SdkItem::new()))
            .build()
            .unwrap();
        let request = serialize("PutItem", Input::erase(input));
        let span = item_span(body(&request)).unwrap();
        assert_eq!(&body(&request)[span], b"{}", "{table}");
    }
}
