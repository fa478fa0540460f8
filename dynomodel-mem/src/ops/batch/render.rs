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

use dynomodel::backend::{KeysAndAttributes, WriteRequest};
use dynomodel::{AttributeValue, Item};

use crate::validate;

/// Deepest level a value is printed to (far beyond DynamoDB's 32 levels, which validation enforces
/// later).
const MAX_DEPTH: usize = 64;

/// BatchWriteItem's `requestItems`, as Java prints a `Map<String, List<WriteRequest>>`.
pub(crate) fn write_request_map(items: &BTreeMap<String, Vec<WriteRequest>>) -> String {
    let mut out = String::from("{");
    for (i, (table, requests)) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(table);
        out.push('=');
        write_requests(&mut out, requests);
    }
    out.push('}');
    out
}

fn write_requests(out: &mut String, requests: &[WriteRequest]) {
    out.push('[');
    for (i, request) in requests.iter().enumerate() {
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

/// A map of attribute values, as Java prints a `Map<String, AttributeValue>` (`{k=AttributeValue(…)}`).
pub(crate) fn java_map(out: &mut String, map: &Item, depth: usize) {
    out.push('{');
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

fn java_value(out: &mut String, value: &AttributeValue, depth: usize) {
    if depth > MAX_DEPTH {
        out.push_str("...");
        return;
    }
    let set = match value {
        AttributeValue::S(_) => "s",
        AttributeValue::N(_) => "n",
        AttributeValue::B(_) => "b",
        AttributeValue::Ss(_) => "sS",
        AttributeValue::Ns(_) => "nS",
        AttributeValue::Bs(_) => "bS",
        AttributeValue::M(_) => "m",
        AttributeValue::L(_) => "l",
        AttributeValue::Null => "nULL",
        AttributeValue::Bool(_) => "bOOL",
    };
    out.push_str("AttributeValue(");
    for (i, field) in JAVA_FIELDS.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(field);
        out.push('=');
        if *field != set {
            out.push_str("null");
            continue;
        }
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
            AttributeValue::Bool(b) => {
                let _ = write!(out, "{b}");
            }
        }
    }
    out.push(')');
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

/// BatchGetItem's `requestItems`, as the JSON of the request.
pub(crate) fn get_request_map(items: &BTreeMap<String, KeysAndAttributes>) -> String {
    let mut out = String::from("{");
    for (i, (table, ka)) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        json_string(&mut out, table);
        out.push_str(":{\"Keys\":");
        out.push_str(&key_list(&ka.keys));
        if let Some(consistent) = ka.consistent_read {
            let _ = write!(out, ",\"ConsistentRead\":{consistent}");
        }
        if let Some(projection) = &ka.projection_expression {
            out.push_str(",\"ProjectionExpression\":");
            json_string(&mut out, projection);
        }
        if let Some(names) = &ka.expression_attribute_names {
            out.push_str(",\"ExpressionAttributeNames\":{");
            for (j, (placeholder, name)) in names.iter().enumerate() {
                if j > 0 {
                    out.push(',');
                }
                json_string(&mut out, placeholder);
                out.push(':');
                json_string(&mut out, name);
            }
            out.push('}');
        }
        out.push('}');
    }
    out.push('}');
    out
}

/// A `Keys` list of BatchGetItem, as JSON.
pub(crate) fn key_list(keys: &[Item]) -> String {
    let mut out = String::from("[");
    for (i, key) in keys.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('{');
        for (j, (name, value)) in key.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            json_string(&mut out, name);
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
    out
}

/// A JSON string literal (the escapes of Rust's `Debug` for `str` coincide with JSON's for the
/// characters table names and attribute names can hold in practice).
fn json_string(out: &mut String, s: &str) {
    let _ = write!(out, "{s:?}");
}

#[cfg(test)]
mod tests {
    use super::*;

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
            write_request_map(&map),
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
            write_request_map(&delete),
            "{t=[WriteRequest(putRequest=null, deleteRequest=DeleteRequest(key={pk=AttributeValue(\
             s=null, n=7, b=null, iNT=null, dECIMAL=null, dOUBLE=null, sS=null, nS=null, bS=null, \
             iNTSET=null, dECIMALSET=null, dOUBLESET=null, m=null, l=null, nULL=null, bOOL=null)}, \
             workloadProfileName=null))]}"
        );
        let empty = BTreeMap::from([("test-table".to_owned(), vec![])]);
        assert_eq!(write_request_map(&empty), "{test-table=[]}");
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
    fn a_get_prints_as_json_as_captured_from_the_service() {
        let map = BTreeMap::from([(
            "bad!name".to_owned(),
            KeysAndAttributes {
                keys: vec![item(&[("pk", s("a"))])],
                ..Default::default()
            },
        )]);
        assert_eq!(
            get_request_map(&map),
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
            get_request_map(&full),
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
        assert_eq!(key_list(&[deep()]), r#"[{"pk":...}]"#);
        let map = BTreeMap::from([("t".to_owned(), vec![WriteRequest::Put { item: deep() }])]);
        let printed = write_request_map(&map);
        assert_eq!(printed.matches("AttributeValue(").count(), MAX_DEPTH);
        assert!(printed.contains("l=[...]"));
    }
}
