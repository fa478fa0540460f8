//! The token codec (round trips, strict and total decoding, signatures) and the checks of a
//! cursor against a read's scope.

use std::sync::Arc;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use proptest::prelude::*;

use super::token::{self, MAX_TOKEN_LEN};
use super::*;
use crate::backend::{AttributeDefinition, CreateTableInput, KeyType, ScalarAttributeType};
use crate::value::{AttributeValue, Number};

fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.into())
}

fn position(key: &[(&str, AttributeValue)]) -> Position {
    Position {
        operation: Operation::Query,
        table: "test-Thread".into(),
        index: None,
        segment: None,
        key: key
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
    }
}

fn thread_key() -> Position {
    position(&[
        ("ForumName", s("Amazon DynamoDB")),
        ("Subject", s("Thread 1")),
    ])
}

fn reason(token: &str) -> InvalidCursorReason {
    match token.parse::<Cursor>() {
        Err(Error::InvalidCursor(invalid)) => invalid.reason,
        other => panic!("{token:?}: expected an invalid cursor, got {other:?}"),
    }
}

fn cursor_key(bytes: u8) -> Arc<CursorKey> {
    let db = crate::Db::new(NoBackend)
        .with_cursor_key([bytes; 32])
        .expect("a key");
    db.cursor_key().cloned().expect("a key")
}

#[derive(Debug)]
struct NoBackend;

#[async_trait::async_trait]
impl crate::Backend for NoBackend {}

#[test]
fn every_shape_round_trips() {
    let n = |text: &str| AttributeValue::N(Number::parse(text).expect("a number"));
    let positions = [
        thread_key(),
        Position {
            operation: Operation::Scan,
            table: "t".into(),
            index: Some("by-date".into()),
            segment: Some((3, 1_000_000)),
            key: [
                ("pk".to_owned(), AttributeValue::B(vec![0, 255, 1])),
                ("sk".to_owned(), n("-1.5E3")),
                ("gpk".to_owned(), s("é \"q\" \u{1F600}")),
                (
                    "gsk".to_owned(),
                    n("12345678901234567890123456789012345678"),
                ),
            ]
            .into(),
        },
    ];
    for position in positions {
        for signer in [None, Some(cursor_key(1))] {
            let cursor = Cursor::issued(position.clone(), signer.clone());
            let text = cursor.to_string();
            assert!(text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
            let parsed: Cursor = text.parse().expect("parses");
            assert_eq!(parsed, cursor);
            assert_eq!(parsed.to_string(), text, "printed back as it was");
            assert_eq!(parsed.verify(signer.as_deref()), Ok(()));
        }
    }
}

#[test]
fn the_format_is_compact() {
    // Version and flags (2 bytes), the table (12), two attributes (1 + 27 + 18): 60 bytes, 80
    // characters; the bare key in DynamoDB JSON, without the table, took 86.
    let token = Cursor::issued(thread_key(), None).to_string();
    assert_eq!(token.len(), 80);
    let bytes = URL_SAFE_NO_PAD.decode(&token).expect("base64url");
    assert_eq!(&bytes[..2], [1, 0]);
    assert_eq!(&bytes[2..14], b"\x0btest-Thread");
}

#[test]
fn what_is_no_cursor_is_refused() {
    let malformed = |detail| InvalidCursorReason::Malformed { detail };
    // `{}`: the DynamoDB JSON cursors of before, and any JSON, are another format.
    assert_eq!(
        reason("e30"),
        InvalidCursorReason::UnknownVersion { version: b'{' }
    );
    assert_eq!(reason(""), malformed("empty"));
    assert_eq!(
        reason("not a cursor"),
        malformed("not base64url without padding")
    );
    assert_eq!(reason("AQ=="), malformed("not base64url without padding"));
    assert_eq!(
        reason(&"A".repeat(MAX_TOKEN_LEN + 1)),
        InvalidCursorReason::TooLong {
            length: MAX_TOKEN_LEN + 1
        }
    );
    let valid = URL_SAFE_NO_PAD
        .decode(Cursor::issued(thread_key(), None).to_string())
        .expect("base64url");
    let with = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut bytes = valid.clone();
        edit(&mut bytes);
        reason(&URL_SAFE_NO_PAD.encode(bytes))
    };
    assert_eq!(with(&|b| b.push(0)), malformed("trailing bytes"));
    assert_eq!(with(&|b| b[1] = 0x10), malformed("unknown flags"));
    assert_eq!(with(&|b| b[14] = 0), malformed("not 1 to 4 key attributes"));
    assert_eq!(with(&|b| b[14] = 5), malformed("not 1 to 4 key attributes"));
    // The first attribute's type byte (after its 9-byte name).
    assert_eq!(
        with(&|b| b[25] = 9),
        malformed("a key attribute of an unknown type")
    );
    assert_eq!(
        with(&|b| b[3] = 0xff),
        malformed("a name or string that is not UTF-8")
    );
    // Every proper prefix of a token is refused (and none panics).
    for len in 0..valid.len() {
        let prefix = URL_SAFE_NO_PAD.encode(&valid[..len]);
        assert!(prefix.parse::<Cursor>().is_err(), "prefix of {len} bytes");
    }
}

#[test]
fn a_number_that_does_not_parse_and_a_repeated_attribute_are_malformed() {
    let mut bytes = vec![1, 0, 1, b't', 2];
    bytes.extend([1, b'a', 1, 3]);
    bytes.extend(b"NaN");
    bytes.extend([1, b'a', 0, 1, b'x']);
    assert_eq!(
        reason(&URL_SAFE_NO_PAD.encode(&bytes)),
        InvalidCursorReason::Malformed {
            detail: "a number that does not parse"
        }
    );
    let mut bytes = vec![1, 0, 1, b't', 2];
    bytes.extend([1, b'a', 0, 1, b'x']);
    bytes.extend([1, b'a', 0, 1, b'y']);
    assert_eq!(
        reason(&URL_SAFE_NO_PAD.encode(&bytes)),
        InvalidCursorReason::Malformed {
            detail: "a key attribute given twice"
        }
    );
}

#[test]
fn signatures_are_checked_against_the_reading_key() {
    let signer = cursor_key(1);
    let signed = Cursor::issued(thread_key(), Some(signer.clone())).to_string();
    let unsigned = Cursor::issued(thread_key(), None).to_string();
    let parse = |text: &str| text.parse::<Cursor>().expect("parses");
    assert_eq!(parse(&signed).verify(Some(&signer)), Ok(()));
    assert_eq!(
        parse(&signed).verify(Some(&cursor_key(2))),
        Err(InvalidCursorReason::BadSignature)
    );
    assert_eq!(
        parse(&unsigned).verify(Some(&signer)),
        Err(InvalidCursorReason::Unsigned)
    );
    // A database without a key reads any token.
    assert_eq!(parse(&signed).verify(None), Ok(()));
    // One byte changed anywhere in the signed part, or in the tag: refused.
    let bytes = URL_SAFE_NO_PAD.decode(&signed).expect("base64url");
    for at in 0..bytes.len() {
        let mut altered = bytes.clone();
        altered[at] ^= 1;
        if let Ok(cursor) = URL_SAFE_NO_PAD.encode(&altered).parse::<Cursor>() {
            assert!(cursor.verify(Some(&signer)).is_err(), "byte {at} altered");
        }
    }
    // A cursor made in this process needs no check.
    let issued = Cursor::issued(thread_key(), None);
    assert_eq!(issued.verify(Some(&signer)), Ok(()));
}

fn thread_schema() -> CreateTableInput {
    let definition = |name: &str, attribute_type| AttributeDefinition {
        attribute_name: name.into(),
        attribute_type,
    };
    CreateTableInput {
        table_name: "Thread".into(),
        attribute_definitions: vec![
            definition("ForumName", ScalarAttributeType::S),
            definition("Subject", ScalarAttributeType::S),
            definition("LastPostDateTime", ScalarAttributeType::S),
        ],
        ..Default::default()
    }
}

fn thread_query() -> Scope {
    Scope::new(Operation::Query, "test-Thread".into(), None, None)
        .key("ForumName", KeyType::Hash)
        .key("Subject", KeyType::Range)
        .partition("ForumName", s("Amazon DynamoDB"))
}

fn refused(scope: &Scope, position: Position) -> InvalidCursorReason {
    match scope.start(Cursor::issued(position, None), &thread_schema()) {
        Err(Error::InvalidCursor(invalid)) => {
            assert_eq!(invalid.table.as_deref(), Some("test-Thread"));
            invalid.reason
        }
        other => panic!("expected an invalid cursor, got {other:?}"),
    }
}

#[test]
fn a_cursor_fits_only_its_own_read() {
    let scope = thread_query();
    assert_eq!(
        scope.start(Cursor::issued(thread_key(), None), &thread_schema()),
        Ok(thread_key().key)
    );
    let mut other = thread_key();
    other.table = "test-Reply".into();
    assert_eq!(
        refused(&scope, other),
        InvalidCursorReason::OtherTable {
            found: "test-Reply".into()
        }
    );
    let mut other = thread_key();
    other.index = Some("LastPostIndex".into());
    assert_eq!(
        refused(&scope, other),
        InvalidCursorReason::OtherIndex {
            found: Some("LastPostIndex".into())
        }
    );
    let mut other = thread_key();
    other.operation = Operation::Scan;
    assert_eq!(
        refused(&scope, other),
        InvalidCursorReason::OtherOperation { found: "Scan" }
    );
    let mut other = thread_key();
    other.segment = Some((0, 2));
    assert_eq!(
        refused(&scope, other),
        InvalidCursorReason::OtherSegment {
            found: Some((0, 2))
        }
    );
    let other = position(&[("ForumName", s("Amazon S3")), ("Subject", s("Thread 1"))]);
    assert_eq!(
        refused(&scope, other),
        InvalidCursorReason::OtherPartition {
            attribute: "ForumName".into()
        }
    );
}

#[test]
fn the_key_attributes_are_the_schemas() {
    let scope = thread_query();
    assert_eq!(
        refused(&scope, position(&[("ForumName", s("Amazon DynamoDB"))])),
        InvalidCursorReason::MissingAttribute {
            attribute: "Subject".into()
        }
    );
    let extra = position(&[
        ("ForumName", s("Amazon DynamoDB")),
        ("Subject", s("Thread 1")),
        ("Views", s("1")),
    ]);
    assert_eq!(
        refused(&scope, extra),
        InvalidCursorReason::ExtraAttribute {
            attribute: "Views".into()
        }
    );
    let mistyped = position(&[
        ("ForumName", s("Amazon DynamoDB")),
        ("Subject", AttributeValue::N(Number::from(1))),
    ]);
    assert_eq!(
        refused(&scope, mistyped),
        InvalidCursorReason::AttributeType {
            attribute: "Subject".into(),
            expected: ScalarAttributeType::S,
            found: ScalarAttributeType::N,
        }
    );
    let empty = position(&[("ForumName", s("Amazon DynamoDB")), ("Subject", s(""))]);
    assert_eq!(
        refused(&scope, empty),
        InvalidCursorReason::KeyValueSize {
            attribute: "Subject".into(),
            size: 0,
            max: 1024,
        }
    );
    let long = "x".repeat(1025);
    let long = position(&[("ForumName", s("Amazon DynamoDB")), ("Subject", s(&long))]);
    assert_eq!(
        refused(&scope, long),
        InvalidCursorReason::KeyValueSize {
            attribute: "Subject".into(),
            size: 1025,
            max: 1024,
        }
    );
}

#[test]
fn messages_name_the_read_and_the_attribute() {
    let scope = Scope::new(
        Operation::Scan,
        "test-Thread".into(),
        Some("LastPostIndex".into()),
        None,
    )
    .segment(Some((1, 4)))
    .key("ForumName", KeyType::Hash)
    .key("Subject", KeyType::Range)
    .key("ForumName", KeyType::Hash)
    .key("LastPostDateTime", KeyType::Range);
    let mut position = thread_key();
    position.operation = Operation::Scan;
    position.index = Some("LastPostIndex".into());
    position.segment = Some((1, 4));
    let err = scope
        .start(Cursor::issued(position, None), &thread_schema())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "InvalidCursor: the cursor does not fit a Scan of index `LastPostIndex` of table `test-Thread` \
         (segment 1 of 4): it lacks key attribute `LastPostDateTime`"
    );
    assert_eq!(err.code(), "InvalidCursor");
}

proptest! {
    #[test]
    fn any_text_parses_or_is_refused(text in ".{0,200}") {
        let _ = text.parse::<Cursor>();
    }

    #[test]
    fn any_bytes_parse_or_are_refused(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let _ = URL_SAFE_NO_PAD.encode(&bytes).parse::<Cursor>();
        // With a valid version byte, the decoder goes past the header.
        let mut versioned = vec![token::VERSION];
        versioned.extend(&bytes);
        let _ = URL_SAFE_NO_PAD.encode(&versioned).parse::<Cursor>();
    }

    #[test]
    fn positions_round_trip(
        scan in any::<bool>(),
        table in "[a-zA-Z0-9_.-]{3,40}",
        index in proptest::option::of("[a-zA-Z0-9_.-]{3,40}"),
        segment in proptest::option::of((0u32..1_000_000, 1u32..=1_000_000)),
        hash in ".{1,50}",
        range in proptest::option::of(proptest::collection::vec(any::<u8>(), 1..50)),
        number in proptest::option::of(any::<i64>()),
        signed in any::<bool>(),
    ) {
        let mut key = Item::new();
        key.insert("pk".into(), AttributeValue::S(hash));
        if let Some(range) = range {
            key.insert("sk".into(), AttributeValue::B(range));
        }
        if let Some(number) = number {
            key.insert("n".into(), AttributeValue::N(Number::from(number)));
        }
        let position = Position {
            operation: if scan { Operation::Scan } else { Operation::Query },
            table,
            index,
            segment,
            key,
        };
        let signer = signed.then(|| cursor_key(9));
        let cursor = Cursor::issued(position, signer.clone());
        let parsed: Cursor = cursor.to_string().parse().expect("parses");
        prop_assert_eq!(&parsed, &cursor);
        prop_assert_eq!(parsed.verify(signer.as_deref()), Ok(()));
    }
}
