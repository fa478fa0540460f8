//! `read_item` against the SDK's GetItem deserializer, by the rule of `read_items`' tests: the
//! SDK's item or nothing, and its `Item` span emptied to `{}` leaves the SDK's output unchanged
//! but for an empty item.

use std::collections::HashMap;

use aws_sdk_dynamodb::operation::get_item::GetItemOutput;

use super::*;

/// The SDK's GetItem output for a response `body`, or its error's text.
fn sdk_get(body: &[u8]) -> Result<GetItemOutput, String> {
    let client = client(body);
    runtime()
        .block_on(client.get_item().table_name("t").send())
        .map_err(|e| format!("{:?}", aws_sdk_dynamodb::error::DisplayErrorContext(e)))
}

/// What the typed GetItem gets through the SDK today: its item (`None` without one), each value
/// through `from_sdk`; `Err` when the SDK or the conversion refuses the body.
fn through_sdk_get(body: &[u8]) -> Result<Option<Sorted>, String> {
    let Some(item) = sdk_get(body)?.item else {
        return Ok(None);
    };
    let mut sorted = Sorted::new();
    for (name, value) in item {
        let value = from_sdk(value).map_err(|e| e.at(&name).to_string())?;
        sorted.push((name, value));
    }
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Some(sorted))
}

/// The reader's item, sorted by name; checks the page's shape (one item) on the way.
fn through_reader_get(body: &[u8]) -> Option<Sorted> {
    let page = read_item(body)?;
    assert_eq!(page.lengths, [page.attributes.len()], "one item");
    let mut item = page.attributes;
    item.sort_by(|a, b| a.0.cmp(&b.0));
    Some(item)
}

/// The rule on any GetItem body: the reader gives nothing, or the SDK's item with a span (`{` to
/// `}`) whose emptying to `{}` leaves the SDK's output the same but for an empty item, or, if
/// the SDK refuses the body, a span whose emptying leaves a body the SDK refuses too. Returns
/// whether the reader read it.
fn assert_get_rule(body: &[u8]) -> bool {
    let Some(read) = through_reader_get(body) else {
        return false;
    };
    let text = String::from_utf8_lossy(body);
    let span = read_item(body).unwrap().items;
    assert_eq!(body[span.start], b'{', "{text}");
    assert_eq!(body[span.end - 1], b'}', "{text}");
    let mut emptied = body[..span.start].to_vec();
    emptied.extend_from_slice(b"{}");
    emptied.extend_from_slice(&body[span.end..]);
    match sdk_get(body) {
        Ok(mut before) => {
            assert_eq!(
                Ok(Some(read)),
                through_sdk_get(body),
                "the reader differs from the SDK on {text}"
            );
            let after = sdk_get(&emptied).unwrap();
            assert_eq!(after.item, Some(HashMap::new()), "{text}");
            before.item = Some(HashMap::new());
            assert_eq!(after, before, "{text}");
        }
        Err(e) => assert!(
            sdk_get(&emptied).is_err(),
            "the SDK refuses {text} ({e}) but not its emptied body"
        ),
    }
    true
}

/// Asserts that the reader leaves `body` to the SDK, and returns what the SDK makes of it.
fn get_left_to_sdk(body: &str) -> Result<Option<Sorted>, String> {
    assert!(read_item(body.as_bytes()).is_none(), "read: {body}");
    through_sdk_get(body.as_bytes())
}

#[test]
fn an_item_of_every_type_reads_as_the_sdk_reads_it() {
    let body = r#"{"ConsumedCapacity":{"TableName":"t","CapacityUnits":0.5},
        "Item":{"s":{"S":"x"},"n":{"N":"-1.5E-130"},"b":{"B":"AP8B"},"t":{"BOOL":true},
            "z":{"NULL":true},"ss":{"SS":["b","a",""]},"ns":{"NS":["1","0.5"]},
            "bs":{"BS":["","Bw=="]},"l":{"L":[{"S":""},{"L":[]},{"M":{}}]},
            "\u0065":{"M":{"k":{"N":"1"},"k":{"S":"last"}}}}}"#;
    assert!(assert_get_rule(body.as_bytes()));
    let read = through_reader_get(body.as_bytes()).unwrap();
    assert_eq!(read.len(), 10);
    assert_eq!(
        read[0],
        ("b".to_owned(), AttributeValue::B(vec![0, 255, 1]))
    );
    // The item's span is its object, whatever surrounds it.
    let body =
        r#"{"Item":{"pk":{"S":"}"}},"ConsumedCapacity":{"TableName":"t","CapacityUnits":1}}"#;
    assert!(assert_get_rule(body.as_bytes()));
    assert_eq!(
        &body[read_item(body.as_bytes()).unwrap().items],
        r#"{"pk":{"S":"}"}}"#
    );
}

#[test]
fn an_empty_item_is_the_sdk_s_empty_map() {
    // What the SDK is given in place of a read item: `Some(empty map)`, not `None`.
    assert_eq!(
        sdk_get(br#"{"Item":{}}"#).unwrap().item,
        Some(HashMap::new())
    );
    assert!(assert_get_rule(br#"{"Item":{}}"#));
    assert!(assert_get_rule(b" { \"Item\" : { } } "));
    assert_eq!(read_item(br#"{"Item":{}}"#).unwrap().lengths, [0]);
}

#[test]
fn no_item_null_or_not_an_object_is_left_to_the_sdk() {
    // Not found: the SDK's answer, no item.
    assert_eq!(get_left_to_sdk("{}"), Ok(None));
    assert_eq!(
        get_left_to_sdk(r#"{"ConsumedCapacity":{"TableName":"t","CapacityUnits":0.5}}"#),
        Ok(None)
    );
    assert_eq!(get_left_to_sdk(r#"{"Item":null}"#), Ok(None));
    // A Query's `Items` is not GetItem's `Item`.
    assert_eq!(get_left_to_sdk(r#"{"Items":[{"a":{"S":"x"}}]}"#), Ok(None));
    assert!(get_left_to_sdk(r#"{"Item":[]}"#).is_err());
    assert!(get_left_to_sdk(r#"{"Item":"x"}"#).is_err());
}

#[test]
fn what_read_items_leaves_read_item_leaves() {
    // Two `Item` members (one escaped), a duplicated name, an unknown type, a bad number, bad
    // base64, trailing tokens, invalid JSON.
    for body in [
        r#"{"Item":{"a":{"S":"x"}},"\u0049tem":{"b":{"S":"y"}}}"#,
        r#"{"Item":{"a":{"S":"x"},"a":{"S":"y"}}}"#,
        r#"{"Item":{"a":{"X":"1"}}}"#,
        r#"{"Item":{"a":{"N":"NaN"}}}"#,
        r#"{"Item":{"a":{"B":"!!!"}}}"#,
        r#"{"Item":{"a":{"S":"x","N":"1"}}}"#,
        r#"{"Item":{"a":{"S":"x"}}} {}"#,
        r#"{"Item":{"a":{"S":"x"}}"#,
    ] {
        let _ = get_left_to_sdk(body);
    }
}

proptest! {
    /// Random items of every type, escapes and whitespace, with `ConsumedCapacity` before or
    /// after: the reader gives the SDK's item, and gives it whenever the SDK does.
    #[test]
    fn random_items_read_as_the_sdk_reads_them(
        item in render::item(),
        rendering in any::<Rendering>(),
    ) {
        let body = render::get_body(&item, rendering);
        let read = assert_get_rule(body.as_bytes());
        let sdk = through_sdk_get(body.as_bytes());
        prop_assert_eq!(read, sdk.is_ok(), "{} {:?}", body, sdk);
    }

    /// An item with one byte changed, inserted or removed: the rule holds.
    #[test]
    fn damaged_items_keep_the_rule(
        item in render::item(),
        rendering in any::<Rendering>(),
        at in any::<proptest::sample::Index>(),
        byte in proptest::sample::select(b"\"\\{}[],: \t0u1aSNBLM/\x01\x7f\xc3\xa9\xff".to_vec()),
        how in 0u8..3,
    ) {
        let mut body = render::get_body(&item, rendering).into_bytes();
        let at = at.index(body.len());
        match how {
            0 => body[at] = byte,
            1 => body.insert(at, byte),
            _ => {
                body.remove(at);
            }
        }
        assert_get_rule(&body);
    }
}
