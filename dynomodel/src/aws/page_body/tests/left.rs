//! The bodies `read_items` leaves to the SDK (`None`), each with what the SDK makes of it: most
//! it refuses; the few it reads are the cases the reader chooses not to reproduce.

use super::*;

#[test]
fn no_items_or_items_not_an_array_is_left_to_the_sdk() {
    assert_eq!(left_to_sdk(r#"{"Count":0,"ScannedCount":0}"#), Ok(None));
    assert_eq!(left_to_sdk(r#"{}"#), Ok(None));
    assert_eq!(left_to_sdk(""), Ok(None));
    assert_eq!(left_to_sdk(r#"{"Count":0,"Items":null}"#), Ok(None));
    assert!(left_to_sdk(r#"{"Items":{}}"#).is_err());
    assert!(left_to_sdk(r#"{"Items":"[]"}"#).is_err());
    assert!(left_to_sdk(r#"[]"#).is_err());
}

#[test]
fn two_items_members_are_left_to_the_sdk() {
    // The SDK keeps the last one.
    assert_eq!(
        left_to_sdk(r#"{"Items":[{"a":{"S":"x"}}],"Items":[{"a":{"S":"y"}}]}"#),
        only(s("y"))
    );
}

#[test]
fn a_value_object_not_of_one_known_member_is_left_to_the_sdk() {
    // Refused by the SDK: no member, two members, an unknown type (`Unknown`, which `from_sdk`
    // refuses), a null value alone.
    assert!(left_to_sdk(&one("{}")).is_err());
    assert!(left_to_sdk(&one(r#"{"S":"x","N":"1"}"#)).is_err());
    assert!(left_to_sdk(&one(r#"{"S":"x","S":"y"}"#)).is_err());
    assert!(left_to_sdk(&one(r#"{"X":"x"}"#)).is_err());
    assert!(left_to_sdk(&one(r#"{"s":"x"}"#)).is_err());
    assert!(left_to_sdk(&one(r#"{"S":null}"#)).is_err());
    // Read by the SDK, which skips members whose value is null and a `__type` member: DynamoDB
    // never sends them, so the reader does not reproduce that.
    assert_eq!(left_to_sdk(&one(r#"{"S":"x","N":null}"#)), only(s("x")));
    assert_eq!(left_to_sdk(&one(r#"{"X":null,"S":"x"}"#)), only(s("x")));
    assert_eq!(
        left_to_sdk(&one(r#"{"__type":{"a":1},"S":"x"}"#)),
        only(s("x"))
    );
}

#[test]
fn a_duplicated_attribute_name_is_left_to_the_sdk() {
    // The SDK's map keeps the last value; the reader does not reproduce it.
    assert_eq!(
        left_to_sdk(&page(
            r#"[{"a":{"S":"x"},"b":{"BOOL":true},"a":{"S":"y"}}]"#
        )),
        Ok(Some(vec![vec![
            ("a".to_owned(), s("y")),
            ("b".to_owned(), AttributeValue::Bool(true))
        ]]))
    );
    // Among many attributes (the sorted path), and after an escape.
    let mut item: Vec<String> = (0..40)
        .map(|i| format!(r#""a{i}":{{"N":"{i}"}}"#))
        .collect();
    item.push(r#""a\u0031\u0037":{"N":"0"}"#.to_owned());
    let body = page(&format!("[{{{}}}]", item.join(",")));
    let sdk = left_to_sdk(&body).unwrap().unwrap();
    assert_eq!(sdk[0].len(), 40);
    assert!(sdk[0].contains(&("a17".to_owned(), n("0"))));
}

#[test]
fn a_number_from_sdk_refuses_is_left_to_the_sdk() {
    for text in ["NaN", "", "1e400", "-", "1.2.3", " 1", "0x10", "1E-131"] {
        let body = one(&format!(r#"{{"N":"{text}"}}"#));
        assert!(left_to_sdk(&body).is_err(), "{text}");
        let body = one(&format!(r#"{{"NS":["1","{text}"]}}"#));
        assert!(left_to_sdk(&body).is_err(), "{text}");
    }
    // Also inside a list, or a map value that a later one with the same name replaces (the SDK
    // never converts the replaced value, so it reads the body; the reader leaves it).
    assert!(left_to_sdk(&one(r#"{"L":[{"N":"NaN"}]}"#)).is_err());
    assert!(left_to_sdk(&one(r#"{"M":{"k":{"N":"NaN"},"k":{"N":"1"}}}"#)).is_ok());
}

#[test]
fn invalid_base64_is_left_to_the_sdk() {
    for text in [
        "QQ=",
        "QR==",
        "Q===",
        "====",
        "QQ",
        "Q",
        "QQ==QQ==",
        "Q Q==",
        "QQ-_",
        "QQ\\u003d\\u003d",
        "\\/w==",
    ] {
        let body = one(&format!(r#"{{"B":"{text}"}}"#));
        assert!(left_to_sdk(&body).is_err(), "{text}");
        let body = one(&format!(r#"{{"BS":["QQ==","{text}"]}}"#));
        assert!(left_to_sdk(&body).is_err(), "{text}");
    }
    // And valid base64 is read, padding included.
    for text in ["", "QQ==", "QUI=", "QUJD", "+/+/"] {
        assert!(
            assert_same_or_none(one(&format!(r#"{{"B":"{text}"}}"#)).as_bytes()),
            "{text}"
        );
    }
}

#[test]
fn a_json_type_out_of_place_is_left_to_the_sdk() {
    for value in [
        r#"{"S":1}"#,
        r#"{"N":1}"#,
        r#"{"N":1.5}"#,
        r#"{"B":true}"#,
        r#"{"BOOL":"true"}"#,
        r#"{"BOOL":1}"#,
        r#"{"NULL":null}"#,
        r#"{"NULL":"true"}"#,
        r#"{"SS":"a"}"#,
        r#"{"SS":[1]}"#,
        r#"{"SS":[null]}"#,
        r#"{"NS":[1]}"#,
        r#"{"BS":[null]}"#,
        r#"{"SS":null}"#,
        r#"{"L":{}}"#,
        r#"{"L":[null]}"#,
        r#"{"L":[{"S":"x"},1]}"#,
        r#"{"M":[]}"#,
        r#"{"M":{"k":null}}"#,
        r#"{"M":{"k":"x"}}"#,
        r#"["S","x"]"#,
        r#""x""#,
        "null",
    ] {
        assert!(left_to_sdk(&one(value)).is_err(), "{value}");
    }
    for items in [
        "[null]",
        "[1]",
        r#"["a"]"#,
        "[[]]",
        r#"[{"a":{"S":"x"}},null]"#,
    ] {
        assert!(left_to_sdk(&page(items)).is_err(), "{items}");
    }
}

#[test]
fn invalid_json_is_left_to_the_sdk() {
    for body in [
        r#"{"Items":[{"a":{"S":"x"}}],}"#,
        r#"{"Items":[{"a":{"S":"x"}},]}"#,
        r#"{"Items":[{"a":{"S":"x"},}]}"#,
        r#"{"Items":[{"a":{"S":"x"}}]"#,
        r#"{"Items":[{"a":{"S":"x"}}"#,
        r#"{"Items":[{"a":{"S":"x"}}]} {}"#,
        r#"{"Items":[{"a":{"S":"x"}}]}x"#,
        r#"{"Items":[{"a":{"S":"x"}}] "Count":1}"#,
        r#"{"Items" [{"a":{"S":"x"}}]}"#,
        r#"{Items:[{"a":{"S":"x"}}]}"#,
        r#"{"Items":[{'a':{"S":"x"}}]}"#,
        r#"{"Items":[{"a":{"S":"x\q"}}]}"#,
        r#"{"Items":[{"a":{"S":"x\u12"}}]}"#,
        r#"{"Items":[{"a":{"S":"\ud800"}}]}"#,
        r#"{"Items":[{"a":{"S":"\ud800x"}}]}"#,
        r#"{"Items":[{"a":{"S":"\udc00"}}]}"#,
        r#"{"Items":[{"a":{"S":"\ud800\ud800"}}]}"#,
        r#"{"Items":[{"a":{"S":"\ud800\u0041"}}]}"#,
        r#"{"Items":[{"\ud800":{"S":"x"}}]}"#,
        "{\"Items\":[{\"a\":{\"S\":\"tab\there\"}}]}",
        "{\"Items\":[{\"a\":{\"S\":\"nul\0\"}}]}",
        "{\"Items\":[{\"a\":{\"S\":\"x\"}}]}\u{c}",
        "{\"Items\":[{\"a\":{\"S\":\"x\"}}]\u{a0}}",
        "{\"Count\":1x,\"Items\":[]}",
    ] {
        assert!(left_to_sdk(body).is_err(), "{body}");
    }
    // JSON the SDK's reader is lax about (numbers), read by it.
    for body in [r#"{"Count":01,"Items":[]}"#, r#"{"Count":1.,"Items":[]}"#] {
        assert_eq!(left_to_sdk(body), Ok(Some(vec![])), "{body}");
    }
    // Bytes that are not UTF-8, inside and outside `Items`.
    for body in [
        &b"{\"Items\":[{\"a\":{\"S\":\"\xff\"}}]}"[..],
        b"{\"Items\":[{\"\xc3\":{\"S\":\"x\"}}]}",
        b"{\"Items\":[{\"a\":{\"S\":\"\xed\xa0\x80\"}}]}",
        b"{\"C\xff\":1,\"Items\":[{\"a\":{\"S\":\"x\"}}]}",
        b"{\"Items\":[{\"a\":{\"S\":\"x\"}}],\"X\":\"\xff\"}",
    ] {
        assert!(read_items(body).is_none(), "{body:?}");
        assert!(through_sdk(body).is_err(), "{body:?}");
    }
}

#[test]
fn a_bad_member_beside_items_fails_the_emptied_body_too() {
    // The reader only skips the other members: the SDK judges them on the emptied body.
    for body in [
        &br#"{"Count":"one","Items":[{"a":{"S":"x"}}]}"#[..],
        br#"{"Items":[{"a":{"S":"x"}}],"LastEvaluatedKey":{"k":{"N":1}}}"#,
        br#"{"Items":[{"a":{"S":"x"}}],"ConsumedCapacity":{"TableName":"\ud800"}}"#,
    ] {
        let page = read_items(body).unwrap();
        assert_eq!(page.lengths, [1]);
        assert!(through_sdk(body).is_err(), "{body:?}");
        let mut emptied = body[..page.items.start].to_vec();
        emptied.extend_from_slice(b"[]");
        emptied.extend_from_slice(&body[page.items.end..]);
        assert!(sdk_output(&emptied).is_err(), "{body:?}");
    }
}
