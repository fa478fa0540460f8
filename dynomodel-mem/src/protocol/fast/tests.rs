//! The one pass against the exact path, answer for answer, byte for byte: on the checked-in fuzz
//! corpus of the `wire` target and on a fixed-seed generator of valid and slightly broken requests.
//! (Every request of the wire test suite is also decoded both ways, by `oracle::verify`.)

#![allow(clippy::unwrap_used)]

use std::fmt::Write as _;
use std::path::Path;

use super::oracle::exact_only;
use super::{decode, Outcome, OPERATIONS};
use crate::fuzzing::{engine, operation_for};
use crate::protocol::{respond, Context, WireResult};

/// `body` answered by two engines in the same state, one pass on and off.
fn both_ways(operation: &str, body: &[u8]) -> (WireResult<Vec<u8>>, WireResult<Vec<u8>>) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let context = Context::default();
    let (fast, exact) = (engine(), engine());
    let one_pass = rt.block_on(respond(&context, &fast, operation, body));
    let exact = exact_only(|| rt.block_on(respond(&context, &exact, operation, body)));
    (one_pass, exact)
}

/// Panics unless `body` is answered alike, byte for byte, with the one pass on and off.
pub(super) fn assert_same(operation: &str, body: &[u8]) {
    let (one_pass, exact) = both_ways(operation, body);
    let text = |r: WireResult<Vec<u8>>| r.map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    assert_eq!(
        text(one_pass),
        text(exact),
        "{operation} answered differently: {}",
        String::from_utf8_lossy(body)
    );
}

#[test]
fn the_wire_corpus_is_answered_alike() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut inputs = 0;
    for dir in ["corpus/wire", "regressions/wire"] {
        let Ok(entries) = std::fs::read_dir(fuzz.join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let data = std::fs::read(entry.path()).unwrap();
            // The other operations never take the one pass (and table descriptions carry the
            // engine's creation time, which differs between the two engines).
            if let Some((&choice, body)) = data.split_first()
                && OPERATIONS.contains(&operation_for(choice))
            {
                assert_same(operation_for(choice), body);
                inputs += 1;
            }
        }
    }
    assert!(inputs > 400, "only {inputs} corpus inputs");
}

/// A small fixed-seed generator (xorshift64*), so that a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

const NUMBERS: &[&str] = &[
    "1",
    "-0.5",
    "1e3",
    "1000",
    "0",
    "12345678901234567890",
    "9.9E-130",
];
const STRINGS: &[&str] = &[
    "",
    "x",
    "k",
    "caf\\u00e9",
    "a\\nb",
    "\\ud83d\\ude00",
    "long text",
];
const BLOBS: &[&str] = &["", "AAEC", "AA==", "/+8="];

/// A set of fewer than `most` elements of `pool`, as `{"<tag>":[...]}`.
fn set(r: &mut Rng, tag: &str, pool: &[&str], most: usize, out: &mut String) {
    write!(out, r#"{{"{tag}":["#).unwrap();
    for i in 0..r.below(most) {
        if i > 0 {
            out.push(',');
        }
        write!(out, r#""{}""#, r.pick(pool)).unwrap();
    }
    out.push_str("]}");
}

/// A valid attribute value, nested up to `depth`.
fn value(r: &mut Rng, depth: usize, out: &mut String) {
    let kinds = if depth == 0 { 7 } else { 10 };
    match r.below(kinds) {
        0 => write!(out, r#"{{"S":"{}"}}"#, r.pick(STRINGS)).unwrap(),
        1 => write!(out, r#"{{"N":"{}"}}"#, r.pick(NUMBERS)).unwrap(),
        2 => write!(out, r#"{{"B":"{}"}}"#, r.pick(BLOBS)).unwrap(),
        3 => write!(out, r#"{{"BOOL":{}}}"#, r.below(2) == 0).unwrap(),
        4 => out.push_str(r#"{"NULL":true}"#),
        5 => set(r, "SS", STRINGS, 4, out),
        6 => set(r, "NS", NUMBERS, 4, out),
        7 => set(r, "BS", BLOBS, 3, out),
        8 => {
            out.push_str(r#"{"L":["#);
            for i in 0..r.below(4) {
                if i > 0 {
                    out.push(',');
                }
                value(r, depth - 1, out);
            }
            out.push_str("]}");
        }
        _ => {
            out.push_str(r#"{"M":"#);
            item(r, depth - 1, &[], out);
            out.push('}');
        }
    }
}

/// A map of attribute values, with the given members first.
fn item(r: &mut Rng, depth: usize, first: &[(&str, &str)], out: &mut String) {
    out.push('{');
    for (i, (name, v)) in first.iter().enumerate() {
        write!(out, r#"{}"{name}":{v}"#, if i > 0 { "," } else { "" }).unwrap();
    }
    for i in 0..r.below(5) {
        if i > 0 || !first.is_empty() {
            out.push(',');
        }
        write!(out, r#""{}":"#, r.pick(&["a", "b", "m", "pk", "x y", "a"])).unwrap();
        value(r, depth, out);
    }
    out.push('}');
}

/// A valid request of an operation taken in one pass.
fn request(r: &mut Rng) -> (&'static str, String) {
    let mut body = String::new();
    let key = |r: &mut Rng| format!(r#"{{"S":"{}"}}"#, r.pick(&["k", "q"]));
    let sk = |r: &mut Rng| format!(r#"{{"N":"{}"}}"#, r.pick(&["1", "2", "3"]));
    let operation = match r.below(11) {
        0 => {
            let (k, s) = (key(r), sk(r));
            body.push_str(r#"{"TableName":"tbl","Item":"#);
            item(r, 3, &[("pk", &k), ("sk", &s)], &mut body);
            body.push('}');
            "PutItem"
        }
        1 => {
            let (k, s) = (key(r), sk(r));
            body.push_str(r#"{"TableName":"tbl","Key":"#);
            item(r, 0, &[("pk", &k), ("sk", &s)], &mut body);
            body.push_str(r#","UpdateExpression":"SET a = :v","ExpressionAttributeValues":{":v":"#);
            value(r, 3, &mut body);
            body.push_str("}}");
            "UpdateItem"
        }
        2 => {
            body.push_str(r#"{"TableName":"tbl","FilterExpression":"a <> :v","ExpressionAttributeValues":{":v":"#);
            value(r, 2, &mut body);
            body.push_str(r#"},"Limit":5}"#);
            "Scan"
        }
        3 => {
            let k = key(r);
            write!(body, r#"{{"TableName":"tbl","KeyConditionExpression":"pk = :k","ExpressionAttributeValues":{{":k":{k}}},"ScanFilter":{{"a":{{"ComparisonOperator":"NE","AttributeValueList":["#).unwrap();
            value(r, 1, &mut body);
            body.push_str("]}}}");
            "Query"
        }
        4 => {
            body.push_str(r#"{"RequestItems":{"tbl":["#);
            for i in 0..1 + r.below(3) {
                let (k, s) = (key(r), format!(r#"{{"N":"{i}"}}"#));
                body.push_str(if i > 0 { "," } else { "" });
                body.push_str(r#"{"PutRequest":{"Item":"#);
                item(r, 2, &[("pk", &k), ("sk", &s)], &mut body);
                body.push_str("}}");
            }
            body.push_str("]}}");
            "BatchWriteItem"
        }
        5 => {
            let (k, s) = (key(r), sk(r));
            body.push_str(r#"{"TransactItems":[{"Put":{"TableName":"tbl","Item":"#);
            item(r, 2, &[("pk", &k), ("sk", &s)], &mut body);
            body.push_str("}}]}");
            "TransactWriteItems"
        }
        6 => {
            batch_get(r, &mut body);
            "BatchGetItem"
        }
        7 => {
            body.push_str(r#"{"Statement":"SELECT * FROM tbl WHERE pk = ?","Parameters":["#);
            value(r, 1, &mut body);
            body.push_str("]}");
            "ExecuteStatement"
        }
        9 => {
            let (k, s) = (key(r), sk(r));
            body.push_str(r#"{"TableName":"tbl","Key":"#);
            item(r, 0, &[("pk", &k), ("sk", &s)], &mut body);
            body.push_str(r#","AttributeUpdates":{"a":{"Action":"PUT","Value":"#);
            value(r, 2, &mut body);
            let action = r.pick(&["ADD", "DELETE"]);
            write!(body, r#"}},"n":{{"Action":"{action}","Value":{{"N":"1"}}}},"d":{{"Action":"DELETE"}}}},"Expected":{{"a":{{"Exists":false}},"b":{{"ComparisonOperator":"NE","AttributeValueList":[{{"S":"x"}}]}}}},"ReturnValues":"ALL_NEW"}}"#).unwrap();
            "UpdateItem"
        }
        10 => {
            let op = r.pick(&["IN", "NE", "BETWEEN", "NOT_NULL"]);
            write!(body, r#"{{"TableName":"tbl","ScanFilter":{{"a":{{"ComparisonOperator":"{op}","AttributeValueList":["#).unwrap();
            value(r, 1, &mut body);
            body.push_str(r#",{"S":"z"}]},"pk":{"ComparisonOperator":"NOT_NULL"}},"ConditionalOperator":"OR","AttributesToGet":["pk","a"]}"#);
            "Scan"
        }
        _ => {
            let (k, s) = (key(r), sk(r));
            body.push_str(r#"{"TableName":"tbl","Key":"#);
            item(r, 0, &[("pk", &k), ("sk", &s)], &mut body);
            body.push_str(r#","Expected":{"a":{"Value":"#);
            value(r, 1, &mut body);
            body.push_str("}}}");
            "DeleteItem"
        }
    };
    (operation, body)
}

/// A BatchGetItem of a few keys (of one, two or three members, or none), numbers spelled in several ways (`1e3`, `1000`, `1E3`), some sent
/// twice alike, some keys of the wrong types, and now and then a second table or a projection.
fn batch_get(r: &mut Rng, body: &mut String) {
    let key = |r: &mut Rng, body: &mut String| {
        let pk = r.pick(&[
            r#"{"S":"k"}"#,
            r#"{"S":"q"}"#,
            r#"{"N":"1"}"#,
            r#"{"B":"AA=="}"#,
        ]);
        let sk = r.pick(&[
            r#"{"N":"1"}"#,
            r#"{"N":"1e3"}"#,
            r#"{"N":"1000"}"#,
            r#"{"N":"1E3"}"#,
            r#"{"N":"0.1e4"}"#,
            r#"{"S":"1"}"#,
            r#"{"L":[]}"#,
        ]);
        // Mostly keys of two members; now and then one (decoded without a sort), none, or a name
        // sent twice.
        match r.below(8) {
            0 => write!(body, r#"{{"pk":{pk}}}"#).unwrap(),
            1 => write!(body, r#"{{"sk":{sk}}}"#).unwrap(),
            2 => write!(body, r#"{{"sk":{sk},"pk":{pk},"sk":{{"N":"2"}}}}"#).unwrap(),
            3 => body.push_str("{}"),
            _ => write!(body, r#"{{"pk":{pk},"sk":{sk}}}"#).unwrap(),
        }
    };
    body.push_str(r#"{"RequestItems":{"tbl":{"Keys":["#);
    for i in 0..1 + r.below(5) {
        body.push_str(if i > 0 { "," } else { "" });
        key(r, body);
    }
    body.push(']');
    if r.below(3) == 0 {
        body.push_str(r##","ProjectionExpression":"#a","ExpressionAttributeNames":{"#a":"a"}"##);
    }
    body.push('}');
    if r.below(4) == 0 {
        body.push_str(r#","other":{"Keys":["#);
        key(r, body);
        body.push_str("]}");
    }
    body.push_str("}}");
}

/// Breaks `body` slightly: one edit of the kinds a client gets wrong.
fn broken(r: &mut Rng, body: &str) -> String {
    let edits: &[(&str, &str)] = &[
        (r#"{"S":"#, r#"{"N":"#),
        (r#"{"N":"#, r#"{"S":1,"N":"#),
        (r#""N":"1""#, r#""N":"1,5""#),
        (r#""N":"1""#, r#""N":1"#),
        (r#"{"NULL":true}"#, r#"{"NULL":false}"#),
        (r#"{"NULL":true}"#, r#"{}"#),
        (r#"{"BOOL":"#, r#"{"BOOL":null,"S":"x","BOOL":"#),
        (r#""SS":["#, r#""SS":[null,"#),
        (r#""L":["#, r#""L":[null,"#),
        (r#""B":""#, r#""B":"A""#),
        (r#""Item":{"#, r#""Item":[{"#),
        (r#""Item":"#, r#""Item":null,"Item2":"#),
        (r#"{"S":"k"}"#, r#"{"S":"k","Q":1}"#),
        (r#""TableName":"tbl""#, r#""TableName":"t""#),
        (r#""TableName":"tbl""#, r#""TableName":7"#),
        (r#""pk":"#, r#""pk":{"S":"a"},"pk":"#),
        ("}", ""),
        ("]", "}"),
        (r#"{"M":{"#, r#"{"M":{"":{"S":"e"},"#),
        (r#"{"SS":[]}"#, r#"{"SS":[],"NS":[]}"#),
        (r#""Keys":["#, r#""Keys":[null,"#),
        (r#""Keys":["#, r#""Keys":{"#),
        (r#""sk":"#, r#""sk":{"N":"2"},"sk":"#),
        (
            r#""ComparisonOperator":"NE""#,
            r#""ComparisonOperator":"ne""#,
        ),
        (
            r#""ComparisonOperator":""#,
            r#""X":1e999,"ComparisonOperator":""#,
        ),
        (
            r#"{"ComparisonOperator":"NOT_NULL"}"#,
            r#"{"AttributeValueList":[]}"#,
        ),
        (r#""Exists":false"#, r#""Exists":0.0"#),
        (r#""Exists":false"#, r#""Exists":null"#),
        (r#""Action":"PUT""#, r#""Action":"put""#),
        (r#""Action":"#, r#""Action":null,"Action":"#),
        (r#""AttributesToGet":["#, r#""AttributesToGet":[null,"#),
        (r#""AttributesToGet":["pk","a"]"#, r#""AttributesToGet":[]"#),
        (r#""a":{"#, r#""a":null,"a":{"#),
        (r#""a":{"#, r#""a":{"Value":{"S":"x"}},"a":{"#),
        (
            r#""AttributeValueList":["#,
            r#""AttributeValueList":[null,"#,
        ),
    ];
    let (from, to) = edits[r.below(edits.len())];
    let places: Vec<usize> = body.match_indices(from).map(|(i, _)| i).collect();
    match places.len() {
        0 => body.replacen("\"tbl\"", "\"tbl\",\"Limit\":\"x\"", 1),
        n => {
            let at = places[r.below(n)];
            format!("{}{to}{}", &body[..at], &body[at + from.len()..])
        }
    }
}

#[test]
fn generated_requests_are_answered_alike() {
    let mut r = Rng(0x5EED_0FDE_C0DE);
    let (mut one_pass, mut fallback) = (0, 0);
    for i in 0..1500 {
        let (operation, valid) = request(&mut r);
        let body = if i % 2 == 0 {
            valid
        } else {
            broken(&mut r, &valid)
        };
        match decode(operation, body.as_bytes()) {
            Outcome::Decoded(..) | Outcome::Exact(_) => one_pass += 1,
            _ => fallback += 1,
        }
        assert_same(operation, body.as_bytes());
    }
    // Both paths were exercised.
    assert!(one_pass > 600 && fallback > 300, "{one_pass} / {fallback}");
}

/// Flaws `body` (see `value`): one value edited into one the exact decoder decodes on while
/// recording a message, now and then into one that breaks its type or is named twice.
fn flawed(r: &mut Rng, body: &str) -> String {
    let edits: &[(&str, &str)] = &[
        (r#""N":"1""#, r#""N":"x""#),
        (r#""N":"1""#, r#""N":"1e999""#),
        (r#""N":""#, r#""N":"-"#),
        (r#""N":""#, r#""N":"1,"#),
        (r#""NS":[""#, r#""NS":["nan",""#),
        (
            r#""NS":["#,
            r#""NS":["12345678901234567890123456789012345678901","#,
        ),
        (r#"{"NULL":true}"#, r#"{"NULL":false}"#),
        (r#"{"NULL":true}"#, r#"{}"#),
        (r#"{"BOOL":true}"#, r#"{}"#),
        (r#"{"S":"x"}"#, r#"{}"#),
        (r#"{"S":"k"}"#, r#"{"N":"k"}"#),
        (r#""L":["#, r#""L":[{"N":"?"},"#),
        (r#""L":["#, r#""L":[{},"#),
        (r#"{"M":{"#, r#"{"M":{"zz":{"N":"z"},"#),
        (r#"{"M":{"#, r#"{"M":{"":{"NULL":false},"#),
        (r#"{"M":{}}"#, r#"{"M":{"e":{}}}"#),
        (r#""a":"#, r#""a":{"N":"dup"},"a":"#),
        (r#""a":{"#, r#""a":{"S":"x"},"a":{"#),
        (r#""pk":"#, r#""pk":{"N":"bad"},"pk":"#),
        (r#""sk":"#, r#""sk":{"NULL":false},"sk":"#),
        (r#""b":{"#, r#""b":{"N":"b"},"c":{"#),
        (r#""B":""#, r#""B":"A""#),
        (r#"{"N":"#, r#"{"S":1,"N":"#),
        (r#""TableName":"tbl""#, r#""TableName":"t""#),
    ];
    let (from, to) = edits[r.below(edits.len())];
    let places: Vec<usize> = body.match_indices(from).map(|(i, _)| i).collect();
    match places.len() {
        0 => body.replacen(r#""N":""#, r#""N":"0x"#, 1),
        n => {
            let at = places[r.below(n)];
            format!("{}{to}{}", &body[..at], &body[at + from.len()..])
        }
    }
}

/// A PutItem of an item of many members (one of them a large `M`), flawed in several places, the
/// flaws mostly deep in the large part.
fn large_item(r: &mut Rng) -> String {
    let mut body = String::from(r#"{"TableName":"tbl","Item":{"pk":{"S":"k"},"sk":{"N":"1"}"#);
    for i in 0..200 {
        write!(body, r#","m{i}":"#).unwrap();
        value(r, 1, &mut body);
    }
    body.push_str(r#","big":{"M":{"#);
    for i in 0..300 {
        write!(body, r#"{}"k{}":"#, if i > 0 { "," } else { "" }, 300 - i).unwrap();
        value(r, 2, &mut body);
    }
    body.push_str("}}}}");
    body
}

#[test]
fn flawed_requests_are_answered_alike() {
    let mut r = Rng(0xF1A3_0BAD_5EED);
    let (mut one_pass, mut fallback) = (0, 0);
    for i in 0..1500 {
        let (operation, valid) = if i % 10 == 0 {
            ("PutItem", large_item(&mut r))
        } else {
            request(&mut r)
        };
        // One to three flaws, now and then one more of the old kinds.
        let mut body = valid;
        for _ in 0..1 + r.below(3) {
            body = flawed(&mut r, &body);
        }
        if r.below(8) == 0 {
            body = broken(&mut r, &body);
        }
        match decode(operation, body.as_bytes()) {
            Outcome::Decoded(..) | Outcome::Exact(_) => one_pass += 1,
            _ => fallback += 1,
        }
        assert_same(operation, body.as_bytes());
    }
    // Flawed requests were read on in one pass, and the others fell back.
    assert!(one_pass > 500 && fallback > 300, "{one_pass} / {fallback}");
}

#[test]
fn a_flawed_value_is_read_on_and_its_first_flaw_in_the_exact_order_reported() {
    let put = |item: &str| {
        format!(r#"{{"TableName":"tbl","Item":{{"pk":{{"S":"k"}},"sk":{{"N":"1"}}{item}}}}}"#)
    };
    let many = (0..1000)
        .map(|i| format!(r#""m{i}":{{"N":"{i}"}}"#))
        .collect::<Vec<_>>()
        .join(",");
    for body in [
        // After a large valid part; first in name order, not in the body's.
        put(&format!(r#","a":{{"M":{{{many}}}}},"z":{{"N":"x"}}"#)),
        put(&format!(
            r#","z":{{"N":"z"}},"a":{{"M":{{{many},"q":{{"NULL":false}}}}}}"#
        )),
        // In a list, the first in the list's order; in a set, the first element.
        put(r#","l":{"L":[{"S":"x"},{},{"N":"no"}]},"n":{"NS":["1","one","two"]}"#),
        // Nested maps: a member's flaw deep down before a later member's.
        put(r#","a":{"M":{"b":{"M":{"z":{"N":"deep"}}},"c":{"NULL":false}}}"#),
    ] {
        assert!(
            matches!(decode("PutItem", body.as_bytes()), Outcome::Decoded(..)),
            "{body}"
        );
        assert_same("PutItem", body.as_bytes());
    }
    // A flawed map with a member named twice goes to the exact path.
    let body = put(r#","a":{"N":"x"},"a":{"N":"1"}"#);
    assert!(matches!(
        decode("PutItem", body.as_bytes()),
        Outcome::Fallback
    ));
    assert_same("PutItem", body.as_bytes());
    // Flaws in a key, in expression values and beside a serialization error: the same answers.
    let key = r#""Key":{"pk":{"S":"k"},"sk":{"N":"1x"}}"#;
    for (operation, body) in [
        ("GetItem", format!(r#"{{"TableName":"tbl",{key}}}"#)),
        (
            "UpdateItem",
            format!(
                r#"{{"TableName":"tbl",{key},"UpdateExpression":"SET a = :v","ExpressionAttributeValues":{{":v":{{}}}}}}"#
            ),
        ),
        ("PutItem", put(r#","a":{"N":"x"},"b":{"S":1}"#)),
        (
            "ExecuteStatement",
            r#"{"Statement":"SELECT * FROM tbl WHERE pk = ?","Parameters":[{"NULL":false}]}"#
                .to_owned(),
        ),
    ] {
        assert_same(operation, body.as_bytes());
    }
}

#[test]
fn a_body_that_is_not_json_is_answered_without_a_second_parse() {
    assert!(matches!(
        decode("PutItem", br#"{"TableName":"tbl","Item":{"pk":{"S":"k"}"#),
        Outcome::Malformed
    ));
    assert!(matches!(decode("PutItem", b""), Outcome::Malformed));
    // A wrong type is an anomaly: the exact path has its message.
    assert!(matches!(
        decode("PutItem", br#"{"TableName":"tbl","Item":{"pk":{"S":1}}}"#),
        Outcome::Fallback
    ));
    assert_same("PutItem", br#"{"TableName":"tbl","Item":{"pk":{"S":1}}}"#);
}

#[test]
fn a_request_without_values_is_the_exact_tree_without_a_second_parse() {
    // No value was decoded in these, valid or not: the skeleton is the exact path's tree (`verify`
    // holds it to the exact parse), checked and decoded without parsing again.
    let statement = r#"{"Statement":"SELECT * FROM tbl WHERE pk = 'k'"}"#;
    let statements = vec![statement; 26].join(",");
    for (operation, body) in [
        (
            "BatchExecuteStatement",
            format!(r#"{{"Statements":[{statements}]}}"#),
        ),
        (
            "Scan",
            r#"{"TableName":"ab","Limit":0,"x":[1,{"y":null}]}"#.to_owned(),
        ),
        (
            "GetItem",
            r#"{"TableName":"tbl","Key":null,"x":1,"x":2.5}"#.to_owned(),
        ),
        ("ExecuteStatement", r#"{"Statement":""}"#.to_owned()),
        ("Scan", r#"{"TableName":"tbl","Limit":100}"#.to_owned()),
        ("Scan", r#"{"TableName":"tbl","Limit":"x"}"#.to_owned()),
        (
            "Query",
            r#"{"TableName":"tbl","KeyConditionExpression":"pk = 1"}"#.to_owned(),
        ),
        (
            "BatchExecuteStatement",
            format!(r#"{{"Statements":[{statement}]}}"#),
        ),
    ] {
        assert!(
            matches!(decode(operation, body.as_bytes()), Outcome::Exact(_)),
            "{body}"
        );
        assert_same(operation, body.as_bytes());
    }
    // With a value decoded, the exact path parses again (its tree has the value where the
    // skeleton has a marker).
    let body = r#"{"TableName":"tbl","Limit":0,"ExclusiveStartKey":{"pk":{"S":"k"}}}"#;
    assert!(matches!(decode("Scan", body.as_bytes()), Outcome::Fallback));
    assert_same("Scan", body.as_bytes());
}

#[test]
fn a_body_that_is_not_utf8_takes_the_exact_path_and_is_answered_alike() {
    // The one pass reads the body as text checked once; bytes that are not UTF-8 (in a value, in a
    // name, outside strings) are the exact path's to report.
    for body in [
        &b"{\"TableName\":\"tbl\",\"Item\":{\"pk\":{\"S\":\"k\xff\"}}}"[..],
        b"{\"TableName\":\"tbl\",\"Item\":{\"pk\":{\"S\":\"k\"},\"\xc3\":{\"N\":\"1\"}}}",
        b"{\"TableName\":\"tbl\",\"Item\":{\"pk\":{\"S\":\"k\"}}}\xe2\x82",
    ] {
        assert!(matches!(decode("PutItem", body), Outcome::Fallback));
        assert_same("PutItem", body);
    }
    let body = "{\"TableName\":\"tbl\",\"Item\":{\"pk\":{\"S\":\"k\u{e9}\u{1F600}\"}}}";
    assert!(matches!(
        decode("PutItem", body.as_bytes()),
        Outcome::Decoded(..)
    ));
    assert_same("PutItem", body.as_bytes());
}

#[test]
fn attribute_values_and_items_become_markers() {
    let body = br#"{"TableName":"tbl","Item":{"pk":{"S":"k"},"sk":{"N":"1"}},"ConditionExpression":"a <> :v","ExpressionAttributeValues":{":v":{"L":[{"N":"2"}]}},"ReturnValues":"ALL_OLD"}"#;
    let Outcome::Decoded(skeleton, predecoded) = decode("PutItem", body) else {
        panic!("not decoded in one pass");
    };
    assert_eq!(skeleton["Item"], serde_json::json!(0));
    assert_eq!(skeleton["ExpressionAttributeValues"], serde_json::json!(1));
    assert_eq!(skeleton["ReturnValues"], "ALL_OLD");
    assert_eq!(predecoded.slots.len(), 2);
    assert_same("PutItem", body);
}

#[test]
fn batch_get_keys_are_decoded_in_one_pass_with_their_spellings() {
    let key = |pk: &str, sk: &str| format!(r#"{{"pk":{{"S":"{pk}"}},"sk":{{"N":"{sk}"}}}}"#);
    let cases = [
        // Spelled apart: one read (the respelled key is dropped).
        vec![key("k", "1000"), key("k", "1e3"), key("k", "1E3")],
        // Sent alike: the backend's duplicate error.
        vec![key("k", "1"), key("k", "2"), key("k", "1")],
        // Both, and keys of strings only.
        vec![key("k", "1e0"), key("k", "1"), key("k", "1e0")],
        vec![r#"{"pk":{"S":"k"},"sk":{"S":"1"}}"#.to_owned(); 2],
        // Members out of order and a member named twice spell as the exact path's tree prints.
        vec![
            r#"{"sk":{"N":"1e3"},"pk":{"S":"k"}}"#.to_owned(),
            r#"{"pk":{"S":"x"},"sk":{"N":"1000"},"pk":{"S":"k"}}"#.to_owned(),
        ],
    ];
    for keys in cases {
        let body = format!(
            r#"{{"RequestItems":{{"tbl":{{"Keys":[{}]}}}}}}"#,
            keys.join(",")
        );
        assert!(
            matches!(
                decode("BatchGetItem", body.as_bytes()),
                Outcome::Decoded(..)
            ),
            "{body}"
        );
        assert_same("BatchGetItem", body.as_bytes());
    }
}

#[test]
fn expression_attribute_names_become_markers() {
    let key = r#""Key":{"pk":{"S":"k"},"sk":{"N":"1"}}"#;
    let get = |names: &str, projection: &str| {
        format!(
            r##"{{"TableName":"tbl",{key},"ProjectionExpression":"{projection}","ExpressionAttributeNames":{names}}}"##
        )
    };
    // Decoded in one pass: the last of a key sent twice counts, `null` entries are absent (so a
    // placeholder whose last entry is `null` is undefined), unused names are listed in Java's order.
    for body in [
        get(r##"{"#b":"x","#a":"y","#b":"z","#c":null}"##, "#a, #b"),
        get(r##"{"#a":"x","#a":null}"##, "#a"),
        get(r##"{"#a":"x","#u1":"u","#u2":"v","#u10":"w"}"##, "#a"),
        get("{}", "a"),
        get("null", "a"),
    ] {
        let Outcome::Decoded(skeleton, _) = decode("GetItem", body.as_bytes()) else {
            panic!("not decoded in one pass: {body}");
        };
        assert!(
            skeleton["ExpressionAttributeNames"].is_u64()
                || skeleton["ExpressionAttributeNames"].is_null(),
            "{body}"
        );
        assert_same("GetItem", body.as_bytes());
    }
    // What the model walk or the decoder reports goes to the exact path: a value too long, a
    // value that is not a string, a map that is not a map.
    let long = "x".repeat(65_536);
    for body in [
        get(&format!(r##"{{"#a":"{long}"}}"##), "#a"),
        get(r##"{"#a":1}"##, "#a"),
        get(r##"["#a"]"##, "#a"),
    ] {
        assert!(matches!(
            decode("GetItem", body.as_bytes()),
            Outcome::Fallback
        ));
        assert_same("GetItem", body.as_bytes());
    }
    // Every operation that has names takes them from their marker.
    let bodies = [
        (
            "UpdateItem",
            format!(
                r##"{{"TableName":"tbl",{key},"UpdateExpression":"SET #a = :v","ExpressionAttributeNames":{{"#a":"a"}},"ExpressionAttributeValues":{{":v":{{"N":"1"}}}}}}"##
            ),
        ),
        (
            "BatchGetItem",
            r##"{"RequestItems":{"tbl":{"Keys":[{"pk":{"S":"k"},"sk":{"N":"1"}}],"ProjectionExpression":"#a","ExpressionAttributeNames":{"#a":"a"}}}}"##.to_owned(),
        ),
        (
            "TransactWriteItems",
            format!(
                r##"{{"TransactItems":[{{"ConditionCheck":{{"TableName":"tbl",{key},"ConditionExpression":"attribute_not_exists(#a)","ExpressionAttributeNames":{{"#a":"a"}}}}}}]}}"##
            ),
        ),
        (
            "Query",
            r##"{"TableName":"tbl","KeyConditionExpression":"#k = :k","ExpressionAttributeNames":{"#k":"pk","#x":"x"},"ExpressionAttributeValues":{":k":{"S":"k"}}}"##.to_owned(),
        ),
    ];
    for (operation, body) in bodies {
        assert!(
            matches!(decode(operation, body.as_bytes()), Outcome::Decoded(..)),
            "{body}"
        );
        assert_same(operation, body.as_bytes());
    }
}

#[test]
fn partiql_parameters_become_one_marker() {
    let select = |parameters: &str| {
        format!(
            r#"{{"Statement":"SELECT * FROM tbl WHERE pk = ? AND sk = ?","Parameters":{parameters}}}"#
        )
    };
    // Decoded in one pass: one marker per list, wherever a statement has one.
    let decoded = [
        ("ExecuteStatement", select(r#"[{"S":"k"},{"N":"1"}]"#), 1),
        ("ExecuteStatement", select(r#"[{"S":"k"},{"N":"1"},{"L":[{"NULL":true}]}]"#), 1),
        ("ExecuteStatement", select("null"), 0),
        (
            "BatchExecuteStatement",
            r#"{"Statements":[{"Statement":"SELECT * FROM tbl WHERE pk = ?","Parameters":[{"S":"k"}]},{"Statement":"SELECT * FROM tbl WHERE pk = ?","Parameters":[{"S":"x"}]}]}"#.to_owned(),
            2,
        ),
        (
            "ExecuteTransaction",
            r#"{"TransactStatements":[{"Statement":"INSERT INTO tbl VALUE {'pk': ?, 'sk': ?}","Parameters":[{"S":"new"},{"N":"7"}]}]}"#.to_owned(),
            1,
        ),
    ];
    for (operation, body, markers) in decoded {
        // Without a marker the skeleton is the exact tree (`Outcome::Exact`).
        let slots = match decode(operation, body.as_bytes()) {
            Outcome::Decoded(_, predecoded) => predecoded.slots.len(),
            Outcome::Exact(_) => 0,
            _ => panic!("not decoded in one pass: {body}"),
        };
        assert_eq!(slots, markers, "{body}");
        assert_same(operation, body.as_bytes());
    }
    // What the model walk or the decoder reports goes to the exact path: an empty list, a `null`
    // element, a broken value, a list that is not a list, a number where the list belongs.
    for parameters in [
        "[]",
        r#"[{"S":"k"},null]"#,
        r#"[{"S":"k"},{"N":"x"}]"#,
        r#"[{"S":"k"},{}]"#,
        r#"{"S":"k"}"#,
        "1",
        r#""k""#,
    ] {
        let body = select(parameters);
        assert!(
            matches!(
                decode("ExecuteStatement", body.as_bytes()),
                Outcome::Fallback
            ),
            "{body}"
        );
        assert_same("ExecuteStatement", body.as_bytes());
    }
    let batch = r#"{"Statements":[{"Statement":"SELECT * FROM tbl WHERE pk = ?","Parameters":[{"S":"k"}]},{"Statement":"SELECT * FROM tbl WHERE pk = ?","Parameters":[null]}]}"#;
    assert!(matches!(
        decode("BatchExecuteStatement", batch.as_bytes()),
        Outcome::Fallback
    ));
    assert_same("BatchExecuteStatement", batch.as_bytes());
}

#[test]
fn legacy_parameters_become_markers() {
    let key = r#""Key":{"pk":{"S":"k"},"sk":{"N":"1"}}"#;
    let marked = |operation: &str, body: &str, members: &[&str]| {
        let Outcome::Decoded(skeleton, _) = decode(operation, body.as_bytes()) else {
            panic!("not decoded in one pass: {body}");
        };
        for member in members {
            assert!(skeleton[*member].is_u64(), "{member} of {body}");
        }
        assert_same(operation, body.as_bytes());
    };
    marked(
        "PutItem",
        r#"{"TableName":"tbl","Item":{"pk":{"S":"k"},"sk":{"N":"1"}},"Expected":{"b":{"Value":{"S":"x"},"Exists":true},"a":{"Exists":false},"c":{"ComparisonOperator":"IN","AttributeValueList":[{"S":"x"},null,{"N":"2"}]},"a":{"Exists":null,"Value":null,"X":[1]}},"ConditionalOperator":"OR"}"#,
        &["Expected"],
    );
    marked(
        "UpdateItem",
        &format!(
            r#"{{"TableName":"tbl",{key},"AttributeUpdates":{{"a":{{"Action":"PUT","Value":{{"SS":["x"]}}}},"n":{{"Value":{{"N":"1"}},"Action":"ADD"}},"d":{{"Action":"DELETE"}},"e":{{}}}},"Expected":{{"a":{{"ComparisonOperator":"NULL"}}}},"ReturnValues":"ALL_NEW"}}"#
        ),
        &["AttributeUpdates", "Expected"],
    );
    marked(
        "Query",
        r#"{"TableName":"tbl","KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"k"}]},"sk":{"ComparisonOperator":"BETWEEN","AttributeValueList":[{"N":"0"},{"N":"9"}]}},"QueryFilter":{"a":{"ComparisonOperator":"NOT_NULL","AttributeValueList":null}},"AttributesToGet":["pk","sk","a","pk"]}"#,
        &["KeyConditions", "QueryFilter", "AttributesToGet"],
    );
    marked(
        "Scan",
        r#"{"TableName":"tbl","ScanFilter":{"a":{"ComparisonOperator":"BEGINS_WITH","AttributeValueList":[{"S":"x"}],"Other":{"deep":[null]}}},"AttributesToGet":["a"]}"#,
        &["ScanFilter", "AttributesToGet"],
    );
    marked(
        "GetItem",
        &format!(r#"{{"TableName":"tbl",{key},"AttributesToGet":["pk","a"]}}"#),
        &["AttributesToGet"],
    );
    marked(
        "BatchGetItem",
        r#"{"RequestItems":{"tbl":{"Keys":[{"pk":{"S":"k"},"sk":{"N":"1"}}],"AttributesToGet":["a"]}}}"#,
        &[],
    );
    // Empty maps are decoded too; `null` parameters are absent.
    marked(
        "Scan",
        r#"{"TableName":"tbl","ScanFilter":{},"AttributesToGet":null}"#,
        &["ScanFilter"],
    );
    // What the model walk or the exact decoder reports, or a form only it reads, goes to the exact
    // path: an enum value out of its set, a missing required operator, a `null` entry or name, an
    // empty name list, a name too long, a fractional `Exists`, members of the wrong JSON types.
    let long = "x".repeat(65_536);
    for (operation, body) in [
        ("Scan", r#"{"TableName":"tbl","ScanFilter":{"a":{"ComparisonOperator":"SOME"}}}"#.to_owned()),
        ("Scan", r#"{"TableName":"tbl","ScanFilter":{"a":{"AttributeValueList":[{"S":"x"}]}}}"#.to_owned()),
        ("Scan", r#"{"TableName":"tbl","ScanFilter":{"a":null}}"#.to_owned()),
        ("Scan", r#"{"TableName":"tbl","ScanFilter":{"a":{"ComparisonOperator":null}}}"#.to_owned()),
        ("Scan", r#"{"TableName":"tbl","ScanFilter":[]}"#.to_owned()),
        ("Scan", r#"{"TableName":"tbl","ScanFilter":7}"#.to_owned()),
        ("Scan", r#"{"TableName":"tbl","AttributesToGet":[]}"#.to_owned()),
        ("Scan", r#"{"TableName":"tbl","AttributesToGet":["a",null]}"#.to_owned()),
        ("Scan", r#"{"TableName":"tbl","AttributesToGet":[1]}"#.to_owned()),
        ("Scan", format!(r#"{{"TableName":"tbl","AttributesToGet":["{long}"]}}"#)),
        ("Scan", format!(r#"{{"TableName":"tbl","ScanFilter":{{"{long}":{{"ComparisonOperator":"NOT_NULL"}}}}}}"#)),
        ("PutItem", r#"{"TableName":"tbl","Item":{"pk":{"S":"k"},"sk":{"N":"1"}},"Expected":{"a":{"Exists":1.5}}}"#.to_owned()),
        ("PutItem", r#"{"TableName":"tbl","Item":{"pk":{"S":"k"},"sk":{"N":"1"}},"Expected":{"a":{"Exists":"false"}}}"#.to_owned()),
        ("PutItem", r#"{"TableName":"tbl","Item":{"pk":{"S":"k"},"sk":{"N":"1"}},"Expected":{"a":{"Value":{"S":1}}}}"#.to_owned()),
        ("PutItem", r#"{"TableName":"tbl","Item":{"pk":{"S":"k"},"sk":{"N":"1"}},"Expected":{"a":{"ComparisonOperator":3}}}"#.to_owned()),
        ("UpdateItem", format!(r#"{{"TableName":"tbl",{key},"AttributeUpdates":{{"a":{{"Action":"SET"}}}}}}"#)),
        ("UpdateItem", format!(r#"{{"TableName":"tbl",{key},"AttributeUpdates":{{"a":"PUT"}}}}"#)),
        ("UpdateItem", format!(r#"{{"TableName":"tbl",{key},"AttributeUpdates":{{"a":{{"Value":[]}}}}}}"#)),
    ] {
        assert!(
            matches!(decode(operation, body.as_bytes()), Outcome::Fallback),
            "{body}"
        );
        assert_same(operation, body.as_bytes());
    }
}
