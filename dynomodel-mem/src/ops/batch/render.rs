//! How DynamoDB prints a batch's `RequestItems` in the `Value '…'` part of a constraint message.
//!
//! Real DynamoDB echoes the offending member, and the two batch operations echo it differently:
//!
//! - **BatchWriteItem** prints Java's `toString` of its request objects (Lombok style). Known, from
//!   live-service captures of 26 puts in one table (us-east-1, eu-west-2 and eu-central-1, 2026; the
//!   same form appears in SDK issue threads since 2024):
//!   `{t=[WriteRequest(putRequest=PutRequest(item={pk=AttributeValue(s=bw-0, n=null, b=null, iNT=null,
//!   dECIMAL=null, dOUBLE=null, sS=null, nS=null, bS=null, iNTSET=null, dECIMALSET=null,
//!   dOUBLESET=null, m=null, l=null, nULL=null, bOOL=null)}, workloadProfileName=null),
//!   deleteRequest=null), …]}`, and `{t=[]}` for an empty list (an SDK issue thread, 2020).
//!   Inferred, by analogy with those: a delete prints `DeleteRequest(key={…}, workloadProfileName=null)`;
//!   N prints its number text, B and BS print `java.nio.HeapByteBuffer[pos=0 lim=n cap=n]` (Java's
//!   `ByteBuffer.toString`), sets and L print as Java lists `[a, b]`, M as a Java map `{k=v}`, BOOL
//!   and NULL as `true`/`false`.
//! - **BatchGetItem** prints the request's JSON. Known, from a live-service capture of a malformed
//!   table name (us-east-1 and eu-west-2, October 2026):
//!   `'{"bad!name":{"Keys":[{"pk":{"S":"a"}}]}}'`. Inferred: the other members of `KeysAndAttributes`
//!   follow `Keys` in the service model's order (`ConsistentRead`, `ProjectionExpression`,
//!   `ExpressionAttributeNames`), and a `Keys` list prints the same way on its own.
//!
//! Maps print in name order: the service prints them in the order the client serialised them, which
//! the engine cannot know (the Rust SDK sends a `HashMap`), so only single-entry maps are byte-exact.
//! Values nested deeper than [`MAX_DEPTH`] print as `...`: these messages are built before the
//! attribute values are validated, so the renderer must not recurse without bound.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::LazyLock;

use dynomodel::backend::{KeysAndAttributes, WriteRequest};
use dynomodel::{AttributeValue, Item};

use crate::validate;

/// Deepest level a value is printed to (far beyond DynamoDB's 32 levels, which validation enforces
/// later).
const MAX_DEPTH: usize = 64;

/// BatchWriteItem's `requestItems`, as Java prints a `Map<String, List<WriteRequest>>`, written to
/// `out` (the message being built: an over-long list prints every entry, megabytes of them).
pub(crate) fn write_request_map(out: &mut String, items: &BTreeMap<String, Vec<WriteRequest>>) {
    out.push('{');
    for (i, (table, requests)) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(table);
        out.push('=');
        write_requests(out, requests);
    }
    out.push('}');
}

fn write_requests(out: &mut String, requests: &[WriteRequest]) {
    out.push('[');
    let start = out.len();
    for (i, request) in requests.iter().enumerate() {
        if i == 1 {
            reserve_for_rest(out, out.len() - start, requests.len() - 1);
        }
        if i > 0 {
            out.push_str(", ");
        }
        match request {
            WriteRequest::Put { item } => {
                out.push_str("WriteRequest(putRequest=PutRequest(item=");
                java_map(out, item, 1);
                out.push_str(", workloadProfileName=null), deleteRequest=null)");
            }
            WriteRequest::Delete { key } => {
                out.push_str("WriteRequest(putRequest=null, deleteRequest=DeleteRequest(key=");
                java_map(out, key, 1);
                out.push_str(", workloadProfileName=null))");
            }
        }
    }
    out.push(']');
}

/// Most bytes an entry of a long list reserves for each of the ones after it: the rest print about as
/// long as the first in practice (a batch's or a transaction's items are alike), but a long first one
/// must not reserve its length for every short one after it.
const RESERVED_PER_ENTRY: usize = 1024;

/// Room in `out` for `rest` more entries of a list whose first entry printed as `first` bytes: the
/// message of an over-long list is megabytes, and growing it by doubling copies it as many times.
/// An eighth more than the first's length each: later entries print a little longer as their
/// texts grow (`k0`, then `k10000`), and falling short by a few bytes an entry grew the whole
/// message once more near its end.
pub(crate) fn reserve_for_rest(out: &mut String, first: usize, rest: usize) {
    let each = (first + first / 8).min(RESERVED_PER_ENTRY);
    out.reserve(each.saturating_mul(rest));
}

/// A map of attribute values, as Java prints a `Map<String, AttributeValue>` (`{k=AttributeValue(…)}`).
pub(crate) fn java_map(out: &mut String, map: &Item, depth: usize) {
    out.push('{');
    // One member (a key, a small item): without the tree's iterator, a sixth of printing such a
    // map in a long list's message.
    if map.len() == 1
        && let Some((name, value)) = map.first_key_value()
    {
        out.push_str(name);
        out.push('=');
        java_value(out, value, depth);
        out.push('}');
        return;
    }
    for (i, (name, value)) in map.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(name);
        out.push('=');
        java_value(out, value, depth);
    }
    out.push('}');
}

/// The fields of the service's `AttributeValue`, in the order it prints them. Lombok lower-cases only
/// the first letter of each field name (`SS` → `sS`, `NULL` → `nULL`); the service also has internal
/// INT/DECIMAL/DOUBLE fields that a request never sets.
const JAVA_FIELDS: [&str; 16] = [
    "s",
    "n",
    "b",
    "iNT",
    "dECIMAL",
    "dOUBLE",
    "sS",
    "nS",
    "bS",
    "iNTSET",
    "dECIMALSET",
    "dOUBLESET",
    "m",
    "l",
    "nULL",
    "bOOL",
];

/// Each field's frame: `AttributeValue(` with the fields before it `null`, up to its own `=`, and
/// the `null` fields after it to the `)`. A value is its type's frame around its text: two copies
/// rather than sixteen fields written one by one (a long list's message prints thousands of values).
static JAVA_FRAMES: LazyLock<Vec<(String, String)>> = LazyLock::new(|| {
    (0..JAVA_FIELDS.len())
        .map(|own| {
            let mut before = String::from("AttributeValue(");
            let mut after = String::new();
            for (i, field) in JAVA_FIELDS.iter().enumerate() {
                if i < own {
                    before.push_str(field);
                    before.push_str("=null, ");
                } else if i == own {
                    before.push_str(field);
                    before.push('=');
                } else {
                    after.push_str(", ");
                    after.push_str(field);
                    after.push_str("=null");
                }
            }
            after.push(')');
            (before, after)
        })
        .collect()
});

/// The position in [`JAVA_FIELDS`] of the field that holds `value`.
fn java_field(value: &AttributeValue) -> usize {
    match value {
        AttributeValue::S(_) => 0,
        AttributeValue::N(_) => 1,
        AttributeValue::B(_) => 2,
        AttributeValue::Ss(_) => 6,
        AttributeValue::Ns(_) => 7,
        AttributeValue::Bs(_) => 8,
        AttributeValue::M(_) => 12,
        AttributeValue::L(_) => 13,
        AttributeValue::Null => 14,
        AttributeValue::Bool(_) => 15,
    }
}

fn java_value(out: &mut String, value: &AttributeValue, depth: usize) {
    if depth > MAX_DEPTH {
        out.push_str("...");
        return;
    }
    let Some((before, after)) = JAVA_FRAMES.get(java_field(value)) else {
        return;
    };
    out.push_str(before);
    match value {
        AttributeValue::S(s) => out.push_str(s),
        AttributeValue::N(n) => {
            let _ = write!(out, "{n}");
        }
        AttributeValue::B(b) => byte_buffer(out, b),
        AttributeValue::Ss(v) => java_list(out, v, |out, s| out.push_str(s)),
        AttributeValue::Ns(v) => java_list(out, v, |out, n| {
            let _ = write!(out, "{n}");
        }),
        AttributeValue::Bs(v) => java_list(out, v, |out, b| byte_buffer(out, b)),
        AttributeValue::M(m) => java_map(out, m, depth + 1),
        AttributeValue::L(l) => java_list(out, l, |out, v| java_value(out, v, depth + 1)),
        AttributeValue::Null => out.push_str("true"),
        AttributeValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
    }
    out.push_str(after);
}

fn java_list<T>(out: &mut String, items: &[T], mut each: impl FnMut(&mut String, &T)) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        each(out, item);
    }
    out.push(']');
}

/// Java's `ByteBuffer.toString` of a buffer wrapping `bytes`.
fn byte_buffer(out: &mut String, bytes: &[u8]) {
    let len = bytes.len();
    let _ = write!(out, "java.nio.HeapByteBuffer[pos=0 lim={len} cap={len}]");
}

/// BatchGetItem's `requestItems`, as the JSON of the request, written to `out`.
pub(crate) fn get_request_map(out: &mut String, items: &BTreeMap<String, KeysAndAttributes>) {
    out.push('{');
    for (i, (table, ka)) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json_string(out, table);
        out.push_str(":{\"Keys\":");
        key_list(out, &ka.keys);
        if let Some(consistent) = ka.consistent_read {
            let _ = write!(out, ",\"ConsistentRead\":{consistent}");
        }
        if let Some(projection) = &ka.projection_expression {
            out.push_str(",\"ProjectionExpression\":");
            json_string(out, projection);
        }
        if let Some(names) = &ka.expression_attribute_names {
            out.push_str(",\"ExpressionAttributeNames\":{");
            for (j, (placeholder, name)) in names.iter().enumerate() {
                if j > 0 {
                    out.push(',');
                }
                json_string(out, placeholder);
                out.push(':');
                json_string(out, name);
            }
            out.push('}');
        }
        out.push('}');
    }
    out.push('}');
}

/// A `Keys` list of BatchGetItem, as JSON, written to `out`.
pub(crate) fn key_list(out: &mut String, keys: &[Item]) {
    out.push('[');
    for (i, key) in keys.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('{');
        for (j, (name, value)) in key.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            json_string(out, name);
            out.push(':');
            if validate::nests_within(value, MAX_DEPTH) {
                // `AttributeValue`'s `Display` is its DynamoDB JSON.
                let _ = write!(out, "{value}");
            } else {
                out.push_str("...");
            }
        }
        out.push('}');
    }
    out.push(']');
}

/// A JSON string literal (the escapes of Rust's `Debug` for `str` coincide with JSON's for the
/// characters table names and attribute names can hold in practice).
fn json_string(out: &mut String, s: &str) {
    let _ = write!(out, "{s:?}");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `write` writes into an empty string.
    fn printed(write: impl FnOnce(&mut String)) -> String {
        let mut out = String::new();
        write(&mut out);
        out
    }

    fn s(v: &str) -> AttributeValue {
        AttributeValue::S(v.into())
    }

    fn item(pairs: &[(&str, AttributeValue)]) -> Item {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect()
    }

    #[test]
    fn a_put_prints_as_captured_from_the_service() {
        let map = BTreeMap::from([(
            "t".to_owned(),
            vec![WriteRequest::Put {
                item: item(&[("pk", s("bw-0"))]),
            }],
        )]);
        assert_eq!(
            printed(|out| write_request_map(out, &map)),
            "{t=[WriteRequest(putRequest=PutRequest(item={pk=AttributeValue(s=bw-0, n=null, b=null, \
             iNT=null, dECIMAL=null, dOUBLE=null, sS=null, nS=null, bS=null, iNTSET=null, \
             dECIMALSET=null, dOUBLESET=null, m=null, l=null, nULL=null, bOOL=null)}, \
             workloadProfileName=null), deleteRequest=null)]}"
        );
        // A delete's form is inferred from the put's.
        let delete = BTreeMap::from([(
            "t".to_owned(),
            vec![WriteRequest::Delete {
                key: item(&[("pk", AttributeValue::N(7.into()))]),
            }],
        )]);
        assert_eq!(
            printed(|out| write_request_map(out, &delete)),
            "{t=[WriteRequest(putRequest=null, deleteRequest=DeleteRequest(key={pk=AttributeValue(\
             s=null, n=7, b=null, iNT=null, dECIMAL=null, dOUBLE=null, sS=null, nS=null, bS=null, \
             iNTSET=null, dECIMALSET=null, dOUBLESET=null, m=null, l=null, nULL=null, bOOL=null)}, \
             workloadProfileName=null))]}"
        );
        let empty = BTreeMap::from([("test-table".to_owned(), vec![])]);
        assert_eq!(
            printed(|out| write_request_map(out, &empty)),
            "{test-table=[]}"
        );
    }

    #[test]
    fn every_type_prints_in_its_field() {
        let mut out = String::new();
        let value = AttributeValue::M(item(&[
            ("b", AttributeValue::B(vec![1, 2, 3])),
            ("l", AttributeValue::L(vec![AttributeValue::Null])),
            ("n", AttributeValue::N("1.50".parse().expect("number"))),
            ("t", AttributeValue::Bool(true)),
            ("x", AttributeValue::Ss(vec!["a".into(), "b".into()])),
        ]));
        java_value(&mut out, &value, 1);
        assert!(out.starts_with("AttributeValue(s=null, n=null, b=null, "));
        assert!(out.contains(
            "m={b=AttributeValue(s=null, n=null, b=java.nio.HeapByteBuffer[pos=0 lim=3 cap=3], "
        ));
        assert!(out.contains("l=[AttributeValue(s=null, "));
        assert!(out.contains("nULL=true, bOOL=null)]"));
        assert!(out.contains("n=1.5, "));
        assert!(out.contains("bOOL=true)"));
        assert!(out.contains("sS=[a, b]"));
    }

    #[test]
    fn every_frame_is_its_fields_one_by_one() {
        // The frames against the form they stand for: every field, `null` but the value's own.
        let values = [
            s("x"),
            AttributeValue::N(1.into()),
            AttributeValue::B(vec![1]),
            AttributeValue::Ss(vec!["a".into()]),
            AttributeValue::Ns(vec![1.into()]),
            AttributeValue::Bs(vec![vec![1]]),
            AttributeValue::M(item(&[])),
            AttributeValue::L(vec![]),
            AttributeValue::Null,
            AttributeValue::Bool(false),
        ];
        for value in &values {
            let own = JAVA_FIELDS[java_field(value)];
            let mut text = String::new();
            java_value(&mut text, value, 1);
            let fields = JAVA_FIELDS
                .iter()
                .map(|field| format!("{field}={}", if *field == own { "<own>" } else { "null" }))
                .collect::<Vec<_>>()
                .join(", ");
            let (before, after) = fields.split_once("<own>").expect("own field");
            let inner = text
                .strip_prefix(&format!("AttributeValue({before}"))
                .and_then(|rest| rest.strip_suffix(&format!("{after})")))
                .unwrap_or_else(|| panic!("{value:?} printed as {text}"));
            assert!(!inner.is_empty() && !inner.contains("=null"), "{inner}");
        }
    }

    #[test]
    fn a_get_prints_as_json_as_captured_from_the_service() {
        let map = BTreeMap::from([(
            "bad!name".to_owned(),
            KeysAndAttributes {
                keys: vec![item(&[("pk", s("a"))])],
                ..Default::default()
            },
        )]);
        assert_eq!(
            printed(|out| get_request_map(out, &map)),
            r#"{"bad!name":{"Keys":[{"pk":{"S":"a"}}]}}"#
        );
        let full = BTreeMap::from([(
            "abc".to_owned(),
            KeysAndAttributes {
                attributes_to_get: None,
                keys: vec![],
                consistent_read: Some(true),
                projection_expression: Some("#a".into()),
                expression_attribute_names: Some(BTreeMap::from([("#a".into(), "a".into())])),
            },
        )]);
        assert_eq!(
            printed(|out| get_request_map(out, &full)),
            r##"{"abc":{"Keys":[],"ConsistentRead":true,"ProjectionExpression":"#a","ExpressionAttributeNames":{"#a":"a"}}}"##
        );
    }

    #[test]
    fn hostile_nesting_is_cut_off() {
        // Built twice rather than cloned: `Clone` itself recurses.
        let deep = || {
            let mut v = s("x");
            for _ in 0..10_000 {
                v = AttributeValue::L(vec![v]);
            }
            item(&[])
                .into_iter()
                .chain([("pk".to_owned(), v)])
                .collect::<Item>()
        };
        assert_eq!(printed(|out| key_list(out, &[deep()])), r#"[{"pk":...}]"#);
        let map = BTreeMap::from([("t".to_owned(), vec![WriteRequest::Put { item: deep() }])]);
        let printed = printed(|out| write_request_map(out, &map));
        assert_eq!(printed.matches("AttributeValue(").count(), MAX_DEPTH);
        assert!(printed.contains("l=[...]"));
    }
}
