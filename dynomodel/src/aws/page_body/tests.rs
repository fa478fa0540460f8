//! `read_items` against the SDK's own deserializer: an SDK client whose HTTP client answers with the
//! body under test, its Query output converted by `from_sdk`, compared with the reader's page.

#![allow(clippy::unwrap_used)]

use aws_sdk_dynamodb::operation::query::QueryOutput;
use aws_sdk_dynamodb::operation::scan::ScanOutput;
use aws_sdk_dynamodb::Client;
use proptest::prelude::*;

use super::*;
use crate::aws::canned::Canned;
use crate::aws::value::from_sdk;

mod get;
mod left;
mod render;

use render::{Rendering, Wire};

// ---- the SDK's side ----

/// The SDK's Query output for a response `body`, or its error's text.
fn sdk_output(body: &[u8]) -> Result<QueryOutput, String> {
    let client = client(body);
    runtime()
        .block_on(client.query().table_name("t").send())
        .map_err(|e| format!("{:?}", aws_sdk_dynamodb::error::DisplayErrorContext(e)))
}

/// The SDK's Scan output for a response `body`, or its error's text.
fn sdk_scan(body: &[u8]) -> Result<ScanOutput, String> {
    let client = client(body);
    runtime()
        .block_on(client.scan().table_name("t").send())
        .map_err(|e| format!("{:?}", aws_sdk_dynamodb::error::DisplayErrorContext(e)))
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A client whose every request is answered with `200` and `body`.
fn client(body: &[u8]) -> Client {
    Canned::new(&[(200, body)]).client(1)
}

/// An item as a comparable list: its attributes sorted by name (the SDK's map has no order).
type Sorted = Vec<(String, AttributeValue)>;

/// What the typed read gets through the SDK today: its items (`None` without an `Items` member),
/// each value through `from_sdk`; `Err` when the SDK or the conversion refuses the body.
fn through_sdk(body: &[u8]) -> Result<Option<Vec<Sorted>>, String> {
    let output = sdk_output(body)?;
    let Some(items) = output.items else {
        return Ok(None);
    };
    let mut page = Vec::new();
    for item in items {
        let mut sorted = Sorted::new();
        for (name, value) in item {
            let value = from_sdk(value).map_err(|e| e.at(&name).to_string())?;
            sorted.push((name, value));
        }
        sorted.sort_by(|a, b| a.0.cmp(&b.0));
        page.push(sorted);
    }
    Ok(Some(page))
}

/// The reader's page, item by item, each sorted by name; checks the buffer's shape on the way.
fn through_reader(body: &[u8]) -> Option<Vec<Sorted>> {
    let page = read_items(body)?;
    assert_eq!(
        page.lengths.iter().sum::<usize>(),
        page.attributes.len(),
        "the lengths cover the buffer"
    );
    let mut attributes = page.attributes.into_iter();
    let items = page
        .lengths
        .iter()
        .map(|&length| {
            let mut item: Sorted = attributes.by_ref().take(length).collect();
            item.sort_by(|a, b| a.0.cmp(&b.0));
            item
        })
        .collect();
    Some(items)
}

/// Asserts the rule on `body`: the reader gives the SDK's items or nothing; and when it gives them,
/// its `items` span is the array's text, and the body with it emptied is, to the SDK, the same
/// response with no items. Returns whether the reader read it.
fn assert_same_or_none(body: &[u8]) -> bool {
    let read = assert_rule(body);
    if read {
        assert!(
            through_sdk(body).is_ok(),
            "{}",
            String::from_utf8_lossy(body)
        );
    }
    read
}

/// The rule on any body, one the SDK refuses for a member beside `Items` included: the reader
/// gives nothing, or the SDK's items, or, if the SDK refuses the body, a span whose emptying leaves
/// a body the SDK refuses too (the other members are the SDK's to judge). Returns whether the
/// reader read it.
fn assert_rule(body: &[u8]) -> bool {
    let Some(read) = through_reader(body) else {
        return false;
    };
    let text = String::from_utf8_lossy(body);
    let span = read_items(body).unwrap().items;
    assert_eq!(body[span.start], b'[', "{text}");
    assert_eq!(body[span.end - 1], b']', "{text}");
    let mut emptied = body[..span.start].to_vec();
    emptied.extend_from_slice(b"[]");
    emptied.extend_from_slice(&body[span.end..]);
    match sdk_output(body) {
        Ok(mut before) => {
            assert_eq!(
                Ok(Some(read)),
                through_sdk(body),
                "the reader differs from the SDK on {text}"
            );
            let after = sdk_output(&emptied).unwrap();
            assert_eq!(after.items, Some(vec![]), "{text}");
            before.items = Some(vec![]);
            assert_eq!(after, before, "{text}");
        }
        Err(e) => assert!(
            sdk_output(&emptied).is_err(),
            "the SDK refuses {text} ({e}) but not its emptied body"
        ),
    }
    true
}

/// Asserts that the reader leaves `body` to the SDK, and returns what the SDK makes of it.
fn left_to_sdk(body: &str) -> Result<Option<Vec<Sorted>>, String> {
    assert!(read_items(body.as_bytes()).is_none(), "read: {body}");
    through_sdk(body.as_bytes())
}

/// A Query body around the `Items` text.
fn page(items: &str) -> String {
    format!(r#"{{"Count":1,"Items":{items},"ScannedCount":1}}"#)
}

/// A page of one item of one attribute `a` with the value object `value`.
fn one(value: &str) -> String {
    page(&format!(r#"[{{"a":{value}}}]"#))
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

fn n(text: &str) -> AttributeValue {
    AttributeValue::N(Number::parse(text).unwrap())
}

/// The SDK's (and the reader's) page of one item of one attribute `a`.
fn only(value: AttributeValue) -> Result<Option<Vec<Sorted>>, String> {
    Ok(Some(vec![vec![("a".to_owned(), value)]]))
}

// ---- read exactly ----

#[test]
fn every_type_reads_as_the_sdk_reads_it() {
    let body = page(
        r#"[{"s":{"S":"x"},"n":{"N":"-1.5E-130"},"b":{"B":"AP8B"},"t":{"BOOL":true},
            "z":{"NULL":true},"ss":{"SS":["b","a",""]},"ns":{"NS":["1","0.5"]},
            "bs":{"BS":["","Bw=="]},"l":{"L":[{"S":""},{"L":[]},{"M":{}}]},
            "m":{"M":{"k":{"N":"99999999999999999999999999999999999999E88"},"e":{"SS":[]}}}},
            {},
            {"pk":{"S":"second"}}]"#,
    );
    assert!(assert_same_or_none(body.as_bytes()));
    let read = through_reader(body.as_bytes()).unwrap();
    assert_eq!(read.iter().map(Vec::len).collect::<Vec<_>>(), [10, 0, 1]);
    assert_eq!(
        read[0][0],
        ("b".to_owned(), AttributeValue::B(vec![0, 255, 1]))
    );
}

#[test]
fn an_empty_page_and_the_members_around_items() {
    assert!(assert_same_or_none(br#"{"Items":[]}"#));
    assert!(assert_same_or_none(b" \r\n\t{ \"Items\" :\n[ ] }\n "));
    let body = r#"{"ConsumedCapacity":{"TableName":"t","CapacityUnits":1.5},"Count":1,
        "Items":[{"a":{"S":"x"}}],"LastEvaluatedKey":{"a":{"S":"x"},"Items":{"S":"]"}},
        "ScannedCount":2}"#;
    assert!(assert_same_or_none(body.as_bytes()));
    let page = read_items(body.as_bytes()).unwrap();
    assert_eq!(&body[page.items], r#"[{"a":{"S":"x"}}]"#);
}

#[test]
fn escapes_decode_as_the_sdk_decodes_them() {
    let body = page(
        r#"[{"\u0061\/\"\\\b\f\n\r\t":{"\u0053":"\u00e9\u20AC\ud83d\ude00\uD834\uDD1E\u0000\/"},
             "é€😀":{"SS":["\"","\\u0041","\u0041"]},"m":{"M":{"\n":{"N":"\u0031"}}}}]"#,
    );
    assert!(assert_same_or_none(body.as_bytes()));
    let read = through_reader(body.as_bytes()).unwrap();
    assert_eq!(read[0][0].0, "a/\"\\\u{8}\u{c}\n\r\t");
    assert_eq!(read[0][0].1, s("é€😀\u{1d11e}\u{0}/"));
}

#[test]
fn null_with_either_flag_is_null() {
    // The SDK keeps the flag (`Null(false)`); `from_sdk` drops it.
    assert_eq!(
        through_sdk(one(r#"{"NULL":false}"#).as_bytes()),
        only(AttributeValue::Null)
    );
    assert!(assert_same_or_none(one(r#"{"NULL":false}"#).as_bytes()));
    assert!(assert_same_or_none(one(r#"{"NULL":true}"#).as_bytes()));
}

#[test]
fn a_duplicated_name_in_a_map_keeps_the_last_value() {
    let body = one(r#"{"M":{"k":{"S":"first"},"j":{"BOOL":true},"k":{"N":"2"}}}"#);
    assert!(assert_same_or_none(body.as_bytes()));
    let read = through_reader(body.as_bytes()).unwrap();
    let AttributeValue::M(map) = &read[0][0].1 else {
        panic!("{read:?}")
    };
    assert_eq!(map["k"], n("2"));
}

#[test]
fn a_nested_document_reads_to_the_reader_s_depth() {
    let nested = |levels: usize| {
        let mut value = r#"{"S":"deep"}"#.to_owned();
        for level in 0..levels {
            value = if level % 2 == 0 {
                format!(r#"{{"L":[{value}]}}"#)
            } else {
                format!(r#"{{"M":{{"k":{value}}}}}"#)
            };
        }
        one(&value)
    };
    assert!(assert_same_or_none(nested(MAX_NESTING as usize).as_bytes()));
    // Deeper: left to the SDK, which reads it (up to its own limit) or refuses it.
    assert!(left_to_sdk(&nested(MAX_NESTING as usize + 1)).is_ok());
    assert!(left_to_sdk(&nested(70)).is_err());
}

#[test]
fn top_level_names_compare_unescaped() {
    // As the SDK compares them: this is its `Items`.
    let body = br#"{"It\u0065ms":[{"a":{"S":"x"}}]}"#;
    assert!(assert_same_or_none(body));
    assert_eq!(through_sdk(body), only(s("x")));
    assert!(assert_same_or_none(
        br#"{"C\"":1,"Items":[{"a":{"S":"x"}}],"\u0049tems2":[]}"#
    ));
    // And two of them, one escaped, are two `Items` members.
    assert_eq!(
        left_to_sdk(r#"{"Items":[{"a":{"S":"x"}}],"\u0049tems":[]}"#),
        Ok(Some(vec![]))
    );
}

/// The Query body of the bench (`benches/aws_cost`, `aws_cpu.rs`' canned response): 20 items of 8
/// attributes.
fn bench_body() -> String {
    let items: Vec<String> = (0..20)
        .map(|i| {
            format!(
                r#"{{"pk":{{"S":"customer0042"}},"sk":{{"N":"{i}"}},"name":{{"S":"order number {i}"}},"email":{{"S":"someone@example.com"}},"quantity":{{"N":"{}"}},"paid":{{"BOOL":{}}},"tags":{{"SS":["fragile","gift","priority"]}},"created":{{"S":"2026-11-28T16:20:00.{:09}Z"}}}}"#,
                3 + i,
                i % 2 == 0,
                123_456_789 + i
            )
        })
        .collect();
    format!(
        r#"{{"Count":20,"Items":[{}],"ScannedCount":20}}"#,
        items.join(",")
    )
}

#[test]
fn large_items_and_long_strings_read_as_the_sdk_reads_them() {
    // An item of 10,000 attributes (its names checked for duplicates through the sorted path),
    // then long strings, plain and with escapes far into them, and a long binary.
    let many: Vec<String> = (0..10_000)
        .map(|i| format!(r#""attribute{i}":{{"N":"{i}"}}"#))
        .collect();
    let long = "x".repeat(70_000);
    let binary = aws_smithy_types::base64::encode(vec![7u8; 30_000]);
    let body = page(&format!(
        r#"[{{{}}},{{"plain":{{"S":"{long}"}},"escaped":{{"S":"{long}\n\u00e9{long}\""}},"{long}\t":{{"B":"{binary}"}},"set":{{"SS":["{long}","{long}\/"]}}}}]"#,
        many.join(",")
    ));
    assert!(assert_same_or_none(body.as_bytes()));
    assert_eq!(read_items(body.as_bytes()).unwrap().lengths, [10_000, 4]);
}

#[test]
fn the_bench_page_reads_as_the_sdk_reads_it() {
    let body = bench_body();
    assert!(assert_same_or_none(body.as_bytes()));
    assert_eq!(read_items(body.as_bytes()).unwrap().lengths, [8; 20]);
}

#[test]
fn a_scan_page_reads_as_the_sdk_s_scan_reads_it() {
    // Scan's deserializer reads `Items` as Query's does; the reader serves both.
    let body = bench_body();
    let page = read_items(body.as_bytes()).unwrap();
    let read = through_reader(body.as_bytes()).unwrap();
    let scanned = sdk_scan(body.as_bytes()).unwrap();
    let expected: Vec<Sorted> = scanned
        .items
        .clone()
        .unwrap()
        .into_iter()
        .map(|item| {
            let mut sorted: Sorted = item
                .into_iter()
                .map(|(name, value)| (name, from_sdk(value).unwrap()))
                .collect();
            sorted.sort_by(|a, b| a.0.cmp(&b.0));
            sorted
        })
        .collect();
    assert_eq!(read.len(), 20);
    assert_eq!(read, expected);
    let mut emptied = body[..page.items.start].to_owned();
    emptied.push_str("[]");
    emptied.push_str(&body[page.items.end..]);
    let mut before = scanned;
    before.items = Some(vec![]);
    assert_eq!(sdk_scan(emptied.as_bytes()).unwrap(), before);
}

/// The reader alone, many times over the bench's page, for callgrind
/// (`--toggle-collect='*read_items*'`): `cargo test -p dynomodel --features aws --release --lib
/// page_body::tests::read_items_cost -- --ignored`, then run the test binary under valgrind with
/// `--exact aws::page_body::tests::read_items_cost --ignored` and `PAGE_BODY_LOOPS`.
#[test]
#[ignore = "a cost measurement, run by hand under callgrind"]
fn read_items_cost() {
    let body = bench_body();
    let loops: usize = std::env::var("PAGE_BODY_LOOPS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100);
    let mut attributes = 0;
    for _ in 0..loops {
        attributes += std::hint::black_box(read_items(std::hint::black_box(body.as_bytes())))
            .unwrap()
            .attributes
            .len();
    }
    assert_eq!(attributes, loops * 160);
}

// ---- random pages ----

proptest! {
    /// Random pages of every type, escapes and whitespace, with other members before and after:
    /// the reader gives the SDK's items, and gives them whenever the SDK does.
    #[test]
    fn random_pages_read_as_the_sdk_reads_them(
        items in proptest::collection::vec(render::item(), 0..4),
        rendering in any::<Rendering>(),
    ) {
        let body = render::body(&items, rendering);
        let read = assert_same_or_none(body.as_bytes());
        let sdk = through_sdk(body.as_bytes());
        // Only a number `Number::parse` refuses makes either refuse a rendered page.
        prop_assert_eq!(read, sdk.is_ok(), "{} {:?}", body, sdk);
    }

    /// A string's contents, valid or not (escapes of every kind, cut short, bad hex, lone and
    /// mismatched surrogates, raw control characters), as a value, a set element, a name and a
    /// type: read as the SDK reads them, or refused where the SDK refuses them.
    #[test]
    fn any_string_contents_read_as_the_sdk_reads_them(
        contents in r#"([ab"/\x01\x1fé😀]|\\["\\/bfnrtu0aU ]|\\u[0-9a-fA-F]{4}|\\u[dD][89abAB][0-9a-f]{2}|\\u[dD][c-fC-F][0-9a-f]{2}|\\u[0-9a-gA-G+ ]{0,4}){0,5}"#,
    ) {
        for body in [
            one(&format!(r#"{{"S":"{contents}"}}"#)),
            one(&format!(r#"{{"SS":["{contents}"]}}"#)),
            one(&format!(r#"{{"N":"1{contents}"}}"#)),
            one(&format!(r#"{{"B":"QQ{contents}=="}}"#)),
            page(&format!(r#"[{{"{contents}":{{"S":"x"}}}}]"#)),
            one(&format!(r#"{{"M":{{"{contents}":{{"S":"x"}}}}}}"#)),
            one(&format!(r#"{{"{contents}S":"x"}}"#)),
            format!(r#"{{"Items":[{{"a":{{"S":"x"}}}}],"{contents}":1}}"#),
        ] {
            let read = assert_rule(body.as_bytes());
            let sdk = through_sdk(body.as_bytes());
            prop_assert!(read || sdk.is_err() || sdk == Ok(None) || contents.contains("Items"),
                "left to the SDK, which reads it: {} {:?}", body, sdk);
        }
    }

    /// A page with one byte changed, inserted or removed: the rule holds (read as the SDK reads
    /// it, or left to the SDK, or refused beside `Items` by the SDK on the emptied body too).
    #[test]
    fn damaged_pages_keep_the_rule(
        items in proptest::collection::vec(render::item(), 1..3),
        rendering in any::<Rendering>(),
        at in any::<proptest::sample::Index>(),
        byte in proptest::sample::select(b"\"\\{}[],: \t0u1aSNBLM/\x01\x7f\xc3\xa9\xff".to_vec()),
        how in 0u8..3,
    ) {
        let mut body = render::body(&items, rendering).into_bytes();
        let at = at.index(body.len());
        match how {
            0 => body[at] = byte,
            1 => body.insert(at, byte),
            _ => {
                body.remove(at);
            }
        }
        assert_rule(&body);
    }

    /// The reader's base64 decoder accepts exactly what the SDK's does, with the same bytes.
    #[test]
    fn base64_decodes_as_the_sdk_decodes_it(text in "[A-Za-z0-9+/=]{0,13}|[A-Da-d0-3+/= _\\-]{0,9}") {
        let ours = base64::engine::general_purpose::STANDARD.decode(&text).ok();
        let sdk = aws_smithy_types::base64::decode(&text).ok();
        prop_assert_eq!(ours, sdk, "{}", text);
    }

    /// Any encoding, and any one-character change of it, decodes alike.
    #[test]
    fn changed_encodings_decode_as_the_sdk_decodes_them(
        bytes in proptest::collection::vec(any::<u8>(), 0..10),
        at in any::<proptest::sample::Index>(),
        to in proptest::sample::select(b"A/+=Qwg0_ ".to_vec()),
    ) {
        let mut text = aws_smithy_types::base64::encode(&bytes).into_bytes();
        if !text.is_empty() {
            let at = at.index(text.len());
            text[at] = to;
        }
        let text = String::from_utf8(text).unwrap();
        let ours = base64::engine::general_purpose::STANDARD.decode(&text).ok();
        let sdk = aws_smithy_types::base64::decode(&text).ok();
        prop_assert_eq!(ours, sdk, "{}", text);
    }
}

#[test]
fn a_wire_value_renders_as_the_sdk_reads_it() {
    // The renderer itself: an item of every kind, plain, reads back through the SDK.
    let item = vec![
        ("a".to_owned(), Wire::N("1E2".into())),
        ("b".to_owned(), Wire::Null(false)),
    ];
    let body = render::body(&[item], Rendering::plain());
    assert_eq!(
        through_sdk(body.as_bytes()),
        Ok(Some(vec![vec![
            ("a".to_owned(), n("100")),
            ("b".to_owned(), AttributeValue::Null)
        ]]))
    );
}
