//! A set ADD whose operand alone is past the item's 400 KB: the update is refused for the item's
//! size without the union being built (`expr::update::past_item_limit`). Each answer (errors with
//! everything they carry, `ReturnValuesOnConditionCheckFailure`'s item included), and the item after
//! it, is held to the exact path's, to the merge's (`merging_always`: the union built, as before),
//! and, for an operand the update takes out of the request, to its twin whose operand stays there
//! (the same update under a condition that always holds and names it); the errors to their texts.

use super::{quoted, respond_to, table_with_index};
use crate::expr::update::merging_always;
use crate::protocol::fast::oracle::held_to_exact;
use crate::MemBackend;

/// The wire's whole answer: the body, or the error with all it carries.
fn wire(backend: &MemBackend, operation: &str, body: &str) -> String {
    match respond_to(backend, operation, body) {
        Ok(bytes) => String::from_utf8(bytes).unwrap(),
        Err(e) => format!("{e:?}"),
    }
}

/// On a fresh table: the `setup` PutItem, then `operation`'s `body`; its answer and the item `k`
/// after it, held to the exact path's and to the merge's.
fn answer(setup: &str, operation: &str, body: &str) -> (String, String) {
    let go = || {
        let backend = table_with_index();
        assert_eq!(wire(&backend, "PutItem", setup), "{}", "{setup:.300}");
        let answer = wire(&backend, operation, body);
        let item = wire(
            &backend,
            "GetItem",
            r#"{"TableName": "tbl", "Key": {"pk": {"S": "k"}}}"#,
        );
        (answer, item)
    };
    let context = &body[..body.len().min(300)];
    let got = held_to_exact(go, context);
    let merged = merging_always(|| held_to_exact(go, context));
    assert!(
        got == merged,
        "refused without the merge as with it: {context}"
    );
    got
}

/// An UpdateItem of `k`: `update` with the values `values` (JSON members), `more` members after.
fn update(update: &str, values: &str, more: &str) -> String {
    format!(
        r#"{{"TableName": "tbl", "Key": {{"pk": {{"S": "k"}}}}, "UpdateExpression": "{update}", "ExpressionAttributeValues": {{{values}}}{more}}}"#
    )
}

/// A condition that always holds and names `:s`: the operand stays in the request.
const KEEPS: &str =
    r#", "ConditionExpression": "attribute_not_exists(s) OR s <> :s OR attribute_exists(s)""#;

/// The answer of `body` and of its twin under [`KEEPS`] (`more` has no condition), which must
/// agree, with the item unchanged by either when `unchanged`.
fn twins(setup: &str, upd: &str, values: &str, more: &str) -> (String, String) {
    let got = answer(setup, "UpdateItem", &update(upd, values, more));
    let kept = answer(
        setup,
        "UpdateItem",
        &update(upd, values, &format!("{more}{KEEPS}")),
    );
    assert!(got == kept, "{upd} {more}: moved and kept agree");
    got
}

fn base64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The elements of a set of type `tag`, distinct, whose sizes sum past `bytes` (DynamoDB's size
/// rule: a number's size is its digits', see `dynomodel::attribute_size`), as JSON texts.
fn past(tag: &str, bytes: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut size = 0;
    let mut i: u64 = 0;
    while size <= bytes {
        let (text, value) = match tag {
            "SS" => {
                let s = format!("e{i:07}");
                (s.clone(), dynomodel::AttributeValue::S(s))
            }
            "NS" => {
                let n = format!("{}", 1_000_000_007 + i * 13);
                (n.clone(), dynomodel::AttributeValue::N(n.parse().unwrap()))
            }
            _ => {
                let b = (i + 1).to_be_bytes().to_vec();
                (base64(&b), dynomodel::AttributeValue::B(b))
            }
        };
        size += dynomodel::attribute_size(&value);
        out.push(text);
        i += 1;
    }
    out
}

/// The item `k` with the set `s` of type `tag` holding `stored`, and `extra` members.
fn item(tag: &str, stored: &[String], extra: &str) -> String {
    format!(
        r#"{{"TableName": "tbl", "Item": {{"pk": {{"S": "k"}}, "s": {{"{tag}": [{}]}}{extra}}}}}"#,
        quoted(stored)
    )
}

/// A stored set's three elements of type `tag`, one of them also the operand's first (NS: spelled
/// apart from it).
fn three(tag: &str, operand: &[String]) -> Vec<String> {
    let first = operand.first().unwrap().clone();
    match tag {
        "SS" => vec![first, "a".into(), "b".into()],
        "NS" => vec![format!("{first}.0"), "1".into(), "2".into()],
        _ => vec![first, base64(b"a"), base64(b"b")],
    }
}

const TOO_BIG: &str = "Item size to update has exceeded the maximum allowed size";

/// The operand alone past 400 KB, onto a stored set of 3 that shares an element, onto a missing
/// attribute and a missing item, with every `ReturnValues`: refused, nothing written.
#[test]
fn an_operand_past_the_limit_is_refused_as_by_the_merge() {
    for tag in ["SS", "NS", "BS"] {
        let operand = past(tag, 409_600);
        let values = format!(r#"":s": {{"{tag}": [{}]}}"#, quoted(&operand));
        let with_set = item(tag, &three(tag, &operand), "");
        let without = r#"{"TableName": "tbl", "Item": {"pk": {"S": "k"}, "t": {"N": "1"}}}"#;
        let nothing = r#"{"TableName": "tbl", "Item": {"pk": {"S": "other"}}}"#;
        for rv in ["NONE", "UPDATED_NEW", "ALL_NEW", "UPDATED_OLD", "ALL_OLD"] {
            let more = format!(r#", "ReturnValues": "{rv}""#);
            let (got, _) = twins(&with_set, "ADD s :s", &values, &more);
            assert!(got.contains(TOO_BIG), "{tag} {rv}: {got:.300}");
        }
        for setup in [without, nothing] {
            let (got, _) = twins(setup, "ADD s :s", &values, "");
            assert!(got.contains(TOO_BIG), "{tag}: {got:.300}");
        }
        // Nested in a map: the same.
        let nested = item(tag, &three(tag, &operand), r#", "m": {"M": {}}"#);
        let (got, _) = twins(&nested, "ADD m.s :s", &values, "");
        assert!(got.contains(TOO_BIG), "{tag} nested: {got:.300}");
    }
}

/// Around the limit: an item of exactly 400 KB is written, one byte more is refused, whether the
/// operand alone is past the limit or the union is (the stored set of one and the key count).
#[test]
fn around_the_limit() {
    // The item `pk = "k"` (3 bytes), `s` (1) holding "a" (1), and the operand: `total` bytes of
    // strings, the last one padded.
    let operand = |total: usize| -> Vec<String> {
        let mut out: Vec<String> = (0..total / 8 - 1).map(|i| format!("e{i:07}")).collect();
        let rest = total - 8 * out.len();
        out.push(format!("z{}", "y".repeat(rest - 1)));
        out
    };
    let setup = item("SS", &["a".to_owned()], "");
    for (total, fits) in [
        (409_595, true),
        (409_596, false),
        (409_600, false),
        (409_601, false),
    ] {
        let set = operand(total);
        let values = format!(r#"":s": {{"SS": [{}]}}"#, quoted(&set));
        let (got, item_after) = twins(&setup, "ADD s :s", &values, "");
        if fits {
            assert_eq!(got, "{}", "{total}");
            let mut all = vec!["a".to_owned()];
            all.extend(set);
            assert_eq!(
                item_after,
                format!(
                    r#"{{"Item":{{"pk":{{"S":"k"}},"s":{{"SS":[{}]}}}}}}"#,
                    quoted(&all)
                )
            );
        } else {
            assert!(got.contains(TOO_BIG), "{total}: {got:.300}");
            assert_eq!(item_after, r#"{"Item":{"pk":{"S":"k"},"s":{"SS":["a"]}}}"#);
        }
    }
}

/// Every error an oversized ADD can meet, in the order DynamoDB reports them: before the union (a
/// failed condition, with the item it returns, a key attribute, a SET's path, an earlier ADD's
/// type), after it (a later ADD's type, a DELETE's path), in the updated item's checks before the
/// size (an empty index key, an index key copied of the wrong type, nesting) and after it (an index
/// key of the wrong type from the request: the size wins).
#[test]
fn an_operand_past_the_limit_with_every_error() {
    let operand = past("SS", 409_600);
    let set = quoted(&operand);
    let stored = r#"{"TableName": "tbl", "Item": {"pk": {"S": "k"}, "s": {"SS": ["a", "b", "c"]}, "n": {"N": "1"}, "str": {"S": "x"}, "m": {"M": {}}}}"#;
    let deep = format!(
        "{}{{\"N\": \"1\"}}{}",
        "{\"L\": [".repeat(40),
        "]}".repeat(40)
    );
    let all = [
        (":s", format!(r#"{{"SS": [{set}]}}"#)),
        (":n", r#"{"N": "2"}"#.to_owned()),
        (":e", r#"{"S": ""}"#.to_owned()),
        (":k", r#"{"S": "k2"}"#.to_owned()),
        (":d", r#"{"SS": ["x"]}"#.to_owned()),
        (":deep", deep),
    ];
    // Only the values the texts use (an unused one is an error of its own).
    let values = |texts: &str| {
        all.iter()
            .filter(|(p, _)| {
                texts.match_indices(p).any(|(at, _)| {
                    !texts[at + p.len()..]
                        .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                })
            })
            .map(|(p, v)| format!(r#""{p}": {v}"#))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let failed = "ConditionalCheckFailed";
    let wrong = "An operand in the update expression has an incorrect data type";
    let path = "The document path provided in the update expression is invalid for update";
    let key = "Cannot update attribute pk. This attribute is part of the key";
    let empty_key = "The AttributeValue for a key attribute cannot contain an empty";
    let copied =
        "The update expression attempted to update the secondary index key to unsupported type";
    let nesting = "Nesting Levels have exceeded supported limits";
    let cases: [(&str, &str, &str); 13] = [
        ("ADD s :s", "", TOO_BIG),
        ("ADD s :s", r#", "ConditionExpression": "n = :n""#, failed),
        (
            "ADD s :s",
            r#", "ConditionExpression": "n = :n", "ReturnValuesOnConditionCheckFailure": "ALL_OLD""#,
            failed,
        ),
        ("ADD s :s SET pk = :k", "", key),
        ("SET q.r = :n ADD s :s", "", path),
        ("ADD s :s, n :s", "", wrong),
        ("ADD m :n, s :s", "", wrong),
        ("ADD s :s, str :n", "", wrong),
        ("ADD s :s DELETE q.r :d", "", path),
        ("ADD s :s SET gk = :e", "", empty_key),
        ("ADD s :s SET gk = n", "", copied),
        ("ADD s :s SET d = :deep", "", nesting),
        ("ADD s :s SET gk = :n", "", TOO_BIG),
    ];
    let before = answer(
        stored,
        "GetItem",
        r#"{"TableName": "tbl", "Key": {"pk": {"S": "k"}}}"#,
    )
    .1;
    for (upd, more, want) in cases {
        let (got, item_after) = answer(
            stored,
            "UpdateItem",
            &update(upd, &values(&format!("{upd}{more}")), more),
        );
        assert!(got.contains(want), "{upd}{more}: {got:.300}");
        assert_eq!(item_after, before, "nothing written: {upd}{more}");
        if more.contains("ALL_OLD") {
            assert!(got.contains(r#"S("x")"#), "the item returned: {got:.300}");
        }
        if !more.contains("Condition") && !upd.contains(", n :s") {
            let (kept, _) = answer(
                stored,
                "UpdateItem",
                &update(upd, &values(&format!("{upd}{KEEPS}")), KEEPS),
            );
            assert_eq!(kept, got, "{upd} kept");
        }
    }
}

/// The legacy `AttributeUpdates` ADD of a set past the limit, alone and under a failed `Expected`;
/// an oversized ADD in a transaction (its operand shared by the plan: copied, not moved).
#[test]
fn legacy_and_transactions() {
    let operand = past("SS", 409_600);
    let stored = item("SS", &["a".to_owned()], r#", "n": {"N": "1"}"#);
    let legacy = |expected: &str| {
        format!(
            r#"{{"TableName": "tbl", "Key": {{"pk": {{"S": "k"}}}}, "AttributeUpdates": {{"s": {{"Action": "ADD", "Value": {{"SS": [{}]}}}}}}{expected}}}"#,
            quoted(&operand)
        )
    };
    let (got, _) = answer(&stored, "UpdateItem", &legacy(""));
    assert!(got.contains(TOO_BIG), "{got:.300}");
    let (got, _) = answer(
        &stored,
        "UpdateItem",
        &legacy(r#", "Expected": {"n": {"Value": {"N": "2"}}}"#),
    );
    assert!(got.contains("ConditionalCheckFailed"), "{got:.300}");
    let transact = format!(
        r#"{{"TransactItems": [{{"Update": {{"TableName": "tbl", "Key": {{"pk": {{"S": "k"}}}}, "UpdateExpression": "ADD s :s", "ExpressionAttributeValues": {{":s": {{"SS": [{}]}}}}}}}}]}}"#,
        quoted(&operand)
    );
    let (got, item_after) = answer(&stored, "TransactWriteItems", &transact);
    assert!(got.contains("size"), "{got:.300}");
    assert!(item_after.contains(r#""SS":["a"]"#), "{item_after:.300}");
}
