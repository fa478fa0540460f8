//! A PutItem's item past its size limit, through the wire: the one pass builds it only until it is
//! sure to be refused for its size and checks the rest (`fast::oversized`); every answer here is held
//! to the exact path's (the one pass off), and the oracle holds the part built to the whole item.

use super::respond_to;
use crate::protocol::fast::oracle::held_to_exact;
use crate::protocol::Fault;
use crate::MemBackend;

const SIZE: &str = "Item size has exceeded the maximum allowed size";

/// A table `tbl` whose hash key is `pk` (S).
fn backend() -> MemBackend {
    let backend = MemBackend::new();
    let create = r#"{"TableName": "tbl", "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
        "BillingMode": "PAY_PER_REQUEST"}"#;
    respond_to(&backend, "CreateTable", create).unwrap();
    backend
}

/// The answer to the PutItem `body` (a message for a fault, `ok` else), checked to be the exact
/// path's (the one pass off) too, on a fresh table each.
fn answer(body: &str) -> String {
    let put = || respond_to(&backend(), "PutItem", body);
    match held_to_exact(put, &body[body.len().saturating_sub(300)..]) {
        Ok(_) => "ok".to_owned(),
        Err(Fault::Backend(e)) => e.message(),
        Err(other) => format!("{other:?}"),
    }
}

/// `n` members of a map, `"m0": {"S": "xxxxxxxxxx"}`…: 16 bytes each by the engine's rule.
fn members(n: usize) -> String {
    (0..n)
        .map(|i| format!(r#""m{i:05}": {{"S": "xxxxxxxxxx"}}"#))
        .collect::<Vec<_>>()
        .join(",")
}

/// A PutItem of `pk` then a map `a` of 40,000 members (~640 KB, past the limit about 25,000 in)
/// and `inner` at its end, then `outer` at the item's end (each with a leading comma if not empty).
fn put(inner: &str, outer: &str) -> String {
    format!(
        r#"{{"TableName": "tbl", "Item": {{"pk": {{"S": "k"}}, "a": {{"M": {{{}{inner}}}}}{outer}}}}}"#,
        members(40_000)
    )
}

#[test]
fn an_item_past_the_limit_is_refused_for_its_size() {
    assert_eq!(answer(&put("", "")), SIZE);
    // Whatever the rest is, when it is well formed and breaks no rule.
    for rest in [
        r#","zz": {"L": [{"N": "1"}, {"M": {"b": {"BOOL": true}}}, {"NULL": true}]}"#,
        r#","zz": {"SS": ["b", "a"]}, "zy": {"NS": ["1", "2e1"]}, "zx": {"BS": ["AQ==", "Ag=="]}"#,
        r#","zz": {"S": "é \" \u00e9"}, "zy": {"B": "AQID"}, "zx": {"S": ""}"#,
        r#","zz": {"M": {}}, "zy": {"L": []}"#,
        // A member named twice after the point, neither flawed: the last one counts, as before.
        r#","zz": {"S": "a"}, "zz": {"N": "1"}"#,
    ] {
        assert_eq!(answer(&put(rest, "")), SIZE, "{rest}");
        assert_eq!(answer(&put("", rest)), SIZE, "{rest}");
    }
}

#[test]
fn the_key_is_not_looked_at_before_the_size() {
    let key_last = |key: &str| {
        format!(
            r#"{{"TableName": "tbl", "Item": {{"a": {{"M": {{{}}}}}{key}}}}}"#,
            members(40_000)
        )
    };
    assert_eq!(answer(&key_last(r#","pk": {"S": "k"}"#)), SIZE);
    assert_eq!(answer(&key_last(r#","pk": {"N": "1"}"#)), SIZE);
    assert_eq!(answer(&key_last(r#","pk": {"S": ""}"#)), SIZE);
    assert_eq!(answer(&key_last("")), SIZE);
    // Nor the table: one that does not exist is named after the size.
    let elsewhere = put("", "").replace(r#""tbl""#, r#""nowhere""#);
    assert_eq!(answer(&elsewhere), SIZE);
}

#[test]
fn a_flaw_after_the_point_is_the_answer() {
    let not_a_number = "The parameter cannot be converted to a numeric value: x";
    let null = "One or more parameter values were invalid: Null attribute value types must have \
                the value of true";
    let empty =
        "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes";
    for (rest, expected) in [
        (r#","zz": {"N": "x"}"#, not_a_number),
        (r#","zz": {"NULL": false}"#, null),
        (r#","zz": {}"#, empty),
        (
            r#","zz": {"L": [{"N": "1"}, {"NS": ["1", "x"]}]}"#,
            not_a_number,
        ),
        (r#","zz": {"M": {"q": {"M": {"r": {}}}}}"#, empty),
    ] {
        assert_eq!(answer(&put(rest, "")), expected, "{rest}");
        assert_eq!(answer(&put("", rest)), expected, "{rest}");
    }
    // The first in name order, whether built or not: `m00005` before the point, `b` and `zz` after.
    let early = |body: String| {
        body.replace(
            r#""m00005": {"S": "xxxxxxxxxx"}"#,
            r#""m00005": {"N": "y"}"#,
        )
    };
    let y = "The parameter cannot be converted to a numeric value: y";
    assert_eq!(answer(&early(put(r#","zz": {"N": "x"}"#, ""))), y);
    assert_eq!(answer(&early(put(r#","b": {"N": "x"}"#, ""))), not_a_number);
    assert_eq!(
        answer(&early(put(
            r#","zz": {"N": "x"}, "b": {"NULL": false}"#,
            ""
        ))),
        null
    );
    // A list's first in its order: the later one after the point does not count.
    let list = |later: &str| {
        let elements: Vec<String> = (0..40_000)
            .map(|_| r#"{"S": "xxxxxxxxxxxxxxx"}"#.into())
            .collect();
        format!(
            r#"{{"TableName": "tbl", "Item": {{"pk": {{"S": "k"}}, "l": {{"L": [{{"NULL": false}}, {}{later}]}}}}}}"#,
            elements.join(",")
        )
    };
    assert_eq!(answer(&list("")), null);
    assert_eq!(answer(&list(r#",{"N": "x"}"#)), null);
    // The top-level attribute first in name order: `a` (the map) before `zz`.
    assert_eq!(
        answer(&put(r#","q": {"NULL": false}"#, r#","zz": {"N": "x"}"#)),
        null
    );
}

#[test]
fn the_engines_rules_after_the_point_are_the_exact_paths() {
    // Each is refused by the engine before the size, when it comes first in name order; the one
    // pass hands the request to the exact path, which reports it.
    let deep = format!(
        r#","zz": {}{{"S": "x"}}{}"#,
        r#"{"L": ["#.repeat(33),
        "]}".repeat(33)
    );
    for rest in [
        r#","zz": {"SS": []}"#,
        r#","zz": {"NS": []}"#,
        r#","zz": {"BS": []}"#,
        r#","zz": {"SS": ["a", "b", "a"]}"#,
        r#","zz": {"NS": ["1", "1.0"]}"#,
        r#","zz": {"BS": ["AQ==", "AQ=="]}"#,
        r#","": {"S": "x"}"#,
        r#","zz": {"M": {"": {"S": "x"}}}"#,
        deep.as_str(),
    ] {
        let inner = answer(&put(rest, ""));
        assert_ne!(inner, SIZE, "{rest}");
        // At the item's level an empty name is a constraint of the model's.
        let outer = answer(&put("", rest));
        assert_ne!(outer, SIZE, "{rest}");
    }
    // After an earlier rule broken (by name order) the earlier one is the answer either way.
    let early = |body: String| {
        body.replace(
            r#""m00005": {"S": "xxxxxxxxxx"}"#,
            r#""m00005": {"SS": []}"#,
        )
    };
    let empty_set = "One or more parameter values were invalid: An string set  may not be empty";
    assert_eq!(answer(&early(put(r#","zz": {"NS": []}"#, ""))), empty_set);
}

#[test]
fn a_member_named_again_after_the_point_is_the_exact_paths() {
    // It replaces the one built: here the map's large part, so the item is small and is stored.
    let replaced = put("", r#","a": {"S": "small"}"#);
    assert_eq!(answer(&replaced), "ok");
    assert_eq!(answer(&put(r#","m00005": {"NULL": false}"#, "")), "One or more parameter values were invalid: Null attribute value types must have the value of true");
    assert_eq!(answer(&put(r#","m00005": {"S": "y"}"#, "")), SIZE);
    // A flawed member named again: the last one counts.
    assert_eq!(
        answer(&put(r#","zz": {"N": "x"}, "zz": {"N": "1"}"#, "")),
        SIZE
    );
    assert_eq!(
        answer(&put(r#","zz": {"N": "1"}, "zz": {"N": "x"}"#, "")),
        "The parameter cannot be converted to a numeric value: x"
    );
}

#[test]
fn anomalies_after_the_point_are_the_exact_paths() {
    for rest in [
        r#","zz": {"S": 5}"#,
        r#","zz": {"N": 5}"#,
        r#","zz": {"B": "!!"}"#,
        r#","zz": {"X": "a"}"#,
        r#","zz": {"S": "a", "N": "1"}"#,
        r#","zz": {"S": "a", "X": "1"}"#,
        r#","zz": null"#,
        r#","zz": {"L": [null]}"#,
        r#","zz": {"SS": [1]}"#,
        r#","zz": 5"#,
    ] {
        answer(&put(rest, ""));
        answer(&put("", rest));
    }
    // A name the model refuses at the item's level.
    let long_name = format!(r#","{}": {{"S": "a"}}"#, "n".repeat(65_536));
    answer(&put("", &long_name));
    // Not JSON after the point.
    answer(&format!("{}x", put("", "")));
    answer(&put("", "").replace(r#""m39999": {"S": "#, r#""m39999": {"S" "#));
}

#[test]
fn sets_and_lists_past_the_limit() {
    let set = |tag: &str, elements: Vec<String>, rest: &str| {
        format!(
            r#"{{"TableName": "tbl", "Item": {{"pk": {{"S": "k"}}, "s": {{"{tag}": [{}{rest}]}}}}}}"#,
            elements.join(",")
        )
    };
    let strings = || {
        (0..60_000)
            .map(|i| format!(r#""e{i:07}""#))
            .collect::<Vec<_>>()
    };
    let numbers = || {
        (0..300_000)
            .map(|i| format!(r#""{i}""#))
            .collect::<Vec<_>>()
    };
    let blobs = || {
        (0..60_000)
            .map(|_| r#""AAECAwQFBgcICQ==""#.to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(answer(&set("SS", strings(), "")), SIZE);
    assert_eq!(answer(&set("NS", numbers(), "")), SIZE);
    // Duplicates after the point (the message prints the whole set), and before it.
    answer(&set("SS", strings(), r#","e0000005""#));
    answer(&set("SS", strings(), r#","e0059999""#));
    answer(&set("NS", numbers(), r#","5e0""#));
    answer(&set("NS", numbers(), r#","x""#));
    answer(&set("BS", blobs(), ""));
    let mut twice = strings();
    twice[10] = r#""e0000005""#.into();
    answer(&set("SS", twice, ""));
    let list = |rest: &str| {
        let elements: Vec<String> = (0..60_000)
            .map(|i| format!(r#"{{"S": "element{i:05}"}}"#))
            .collect();
        format!(
            r#"{{"TableName": "tbl", "Item": {{"pk": {{"S": "k"}}, "l": {{"L": [{}{rest}]}}}}}}"#,
            elements.join(",")
        )
    };
    assert_eq!(answer(&list("")), SIZE);
    assert_ne!(answer(&list(r#",{"SS": []}"#)), SIZE);
    assert_eq!(
        answer(&list(r#",{"M": {"a": {"N": "1"}, "b": {"N": "x"}}}"#)),
        "The parameter cannot be converted to a numeric value: x"
    );
}

#[test]
fn just_under_and_just_over_the_limit() {
    // `pk` + `k` (3 bytes) and `d`: a string of 400 KB less 4 and 3 bytes, then a map of 600 KB
    // of members at the end: counted past the limit as soon as its first member is read.
    let item = |d: usize, tail: &str| {
        format!(
            r#"{{"TableName": "tbl", "Item": {{"pk": {{"S": "k"}}, "d": {{"S": "{}"}}{tail}}}}}"#,
            "x".repeat(d)
        )
    };
    let limit = dynomodel::MAX_ITEM_SIZE;
    assert_eq!(answer(&item(limit - 4, "")), "ok");
    assert_eq!(answer(&item(limit - 3, "")), SIZE);
    let tail = format!(r#", "z": {{"M": {{{}}}}}"#, members(40_000));
    assert_eq!(answer(&item(limit - 4, &tail)), SIZE);
    assert_eq!(answer(&item(10, &tail)), SIZE);
    assert_eq!(answer(&item(10, &tail.replace("m00005", "b"))), SIZE);
}
