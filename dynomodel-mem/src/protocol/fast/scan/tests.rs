//! The scanner against the seeds: every text it takes is read as the seeds read it, and every text
//! it declines is left to them (`writes::by_seeds`, which answers as the one pass did before).

use super::super::splice::Scanned;
use super::super::writes::{by_seeds, shapes};
use super::{entries, nests_deeper_than};

/// Whether the scanner takes `text` (a `TransactWriteItem` with `transact`, else a
/// `WriteRequest`); if it does, its request must be the seeds', field for field.
fn scanned(transact: bool, text: &str) -> bool {
    // The entry alone in what is left of its list.
    let list = format!("{text}]");
    let scanned = match entries(&list, 0, transact, shapes(transact), usize::MAX) {
        (Scanned::Actions(mut actions), to, true) if actions.len() == 1 => {
            assert_eq!(list[to..], *"]");
            Err(actions.remove(0))
        }
        (Scanned::Writes(mut writes), to, true) if writes.len() == 1 => {
            assert_eq!(list[to..], *"]");
            Ok(writes.remove(0))
        }
        // Declined, or followed by something else than the list's end.
        (_, _, false) => return false,
        other => panic!("{text}: {other:?}"),
    };
    let seeds = by_seeds(transact, text);
    assert_eq!(Ok(&scanned), seeds.as_ref(), "{text}");
    assert_eq!(
        format!("{scanned:?}"),
        format!("{:?}", seeds.unwrap()),
        "{text}"
    );
    true
}

#[test]
fn the_usual_write_requests_are_scanned_as_the_seeds_read_them() {
    for text in [
        r#"{"PutRequest":{"Item":{"pk":{"S":"k1"}}}}"#,
        r#"{"PutRequest":{"Item":{}}}"#,
        r#"{"DeleteRequest":{"Key":{"pk":{"N":"-00.50e1"}}}}"#,
        // Odd whitespace everywhere JSON allows it.
        " {\t\"PutRequest\" :\n{ \"Item\"\r: { \"pk\" : { \"S\" : \"\" } , \"n\" : {\"N\":\"1E+2\"} } } } ",
        // Several members, out of order, a name sent twice (the last kept), non-ASCII text.
        r#"{"PutRequest":{"Item":{"z":{"S":"1"},"a":{"N":"2.0"},"z":{"N":"3"},"é":{"S":"ü€"}}}}"#,
        r#"{"DeleteRequest":{"Key":{"sk":{"S":"x"},"pk":{"S":"y"}}}}"#,
        // An empty name: the model sets no length on it, the backend answers for it.
        r#"{"PutRequest":{"Item":{"":{"S":"b"}}}}"#,
    ] {
        assert!(scanned(false, text), "{text}");
    }
}

#[test]
fn the_usual_actions_are_scanned_as_the_seeds_read_them() {
    for text in [
        r#"{"Put":{"TableName":"tbl","Item":{"pk":{"S":"k1"}}}}"#,
        r#"{"Put":{"Item":{"pk":{"S":"k1"},"a":{"N":"1.50"}},"TableName":"t"}}"#,
        r#"{"Delete":{"TableName":"","Key":{"pk":{"N":"0"}}}}"#,
        r#"{"Delete":{"Key":{},"TableName":"arn:aws:dynamodb:us-east-1:123456789012:table/t"}}"#,
        " { \"Put\" : { \"TableName\" : \"t\" ,\n\"Item\" : { } } }\n",
    ] {
        assert!(scanned(true, text), "{text}");
    }
}

#[test]
fn every_other_shape_is_declined_and_left_to_the_seeds() {
    // Each either an anomaly for the seeds too or a shape they read: the scanner takes none.
    let declined = [
        // Escapes anywhere: in a member name, a tag, a name, a value.
        r#"{"\u0050utRequest":{"Item":{"pk":{"S":"a"}}}}"#,
        r#"{"PutRequest":{"It\u0065m":{"pk":{"S":"a"}}}}"#,
        r#"{"PutRequest":{"Item":{"p\u006b":{"S":"a"}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"\u0053":"a"}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"S":"a\"b"}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"S":"a\\"}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"N":"\u0031"}}}}"#,
        // Other types, nested or not.
        r#"{"PutRequest":{"Item":{"pk":{"B":"AQID"}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"BOOL":true}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"NULL":true}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"SS":["a"]}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"NS":["1"]}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"L":[{"S":"a"}]}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"M":{"a":{"S":"a"}}}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"},"m":{"M":{}}}}}"#,
        // Flaws and anomalies the seeds send to the exact path.
        r#"{"PutRequest":{"Item":{"pk":{"N":"x"}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"N":"1e999999"}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"S":"a","N":"1"}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"S":1}}}}"#,
        // Control characters, which serde_json refuses in a string.
        "{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"a\u{1}\"}}}}",
        "{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"a\tb\"}}}}",
        // JSON has no other whitespace.
        "{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"a\"}\u{c}}}}",
        "{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"a\"}\u{a0}}}}",
        r#"{"PutRequest":{"Item":{"pk":{"S":null}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":null}}}"#,
        r#"{"PutRequest":{"Item":null}}"#,
        r#"{"PutRequest":{"Item":[]}}"#,
        r#"{"PutRequest":{}}"#,
        r#"{"PutRequest":null}"#,
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"}},"Item":{}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"}}},"DeleteRequest":null}"#,
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"}}},"PutRequest":{"Item":{}}}"#,
        r#"{"PutRequest":{"Key":{"pk":{"S":"a"}}}}"#,
        r#"{"DeleteRequest":{"Item":{"pk":{"S":"a"}}}}"#,
        r#"{"Other":{"Item":{}}}"#,
        r#"{}"#,
        "null",
        "7",
        r#""PutRequest""#,
    ];
    for text in declined {
        assert!(!scanned(false, text), "{text}");
    }
    let declined = [
        r#"{"Put":{"TableName":"t","Item":{"pk":{"S":"a"}},"ConditionExpression":"a = b"}}"#,
        r#"{"Put":{"TableName":"t"}}"#,
        r#"{"Put":{"Item":{}}}"#,
        r#"{"Put":{"TableName":"t","TableName":"u","Item":{}}}"#,
        r#"{"Put":{"TableName":"t","Item":{},"Item":{}}}"#,
        r#"{"Put":{"TableName":"t\u0030","Item":{}}}"#,
        r#"{"Put":{"TableName":null,"Item":{}}}"#,
        r#"{"Put":{"TableName":5,"Item":{}}}"#,
        r#"{"Put":{"TableName":"t","Key":{}}}"#,
        r#"{"Delete":{"TableName":"t","Item":{}}}"#,
        r#"{"Update":{"TableName":"t","Key":{},"UpdateExpression":"SET a = b"}}"#,
        r#"{"ConditionCheck":{"TableName":"t","Key":{},"ConditionExpression":"a = b"}}"#,
        r#"{"Put":{"TableName":"t","Item":{}},"Delete":{"TableName":"t","Key":{}}}"#,
        r#"{"Put":{"TableName":"t","Item":{"pk":{"BOOL":false}}}}"#,
        r#"{"Put":{"TableName":"t","Item":{"pk":{"N":"1.2.3"}}}}"#,
        r#"{"Put":{"TableName":"t","Item":{"pk":{"S":"a"}}}}x"#,
        r#"{"Put":{"TableName":"t","Item":{"pk":{"S":"a"}}}},"#,
        r#"{"Put":{"TableName":"t","Item":{"pk":{"S":"a"}}}"#,
    ];
    for text in declined {
        assert!(!scanned(true, text), "{text}");
    }
}

#[test]
fn nesting_is_measured_outside_strings() {
    assert!(!nests_deeper_than(r#"{"a":[[{}]]}"#, 4));
    assert!(nests_deeper_than(r#"{"a":[[{}]]}"#, 3));
    assert!(!nests_deeper_than(r#"{"a":"[[[[{{{{"}"#, 1));
    assert!(!nests_deeper_than(r#"{"a":"\"[[[["}"#, 1));
    assert!(nests_deeper_than(r#"{"a\\":[{}]}"#, 2));
    let deep = format!("{}{}", "[".repeat(101), "]".repeat(101));
    assert!(nests_deeper_than(&deep, 100));
    assert!(!nests_deeper_than(&deep[1..deep.len() - 1], 100));
}

#[test]
fn a_list_is_scanned_to_its_end_or_to_the_first_entry_declined() {
    let usual = r#"{"PutRequest":{"Item":{"pk":{"S":"k"}}}}"#;
    let odd = r#"{"PutRequest":{"Item":{"pk":{"BOOL":true}}}}"#;
    let count = |scanned: &Scanned| match scanned {
        Scanned::Writes(writes) => writes.len(),
        Scanned::Actions(actions) => actions.len(),
    };
    // To the closing bracket, whatever follows it.
    let list = format!("{usual} ,\n{usual}\t] , \"x\": [");
    let (scanned, to, closed) = entries(&list, 0, false, shapes(false), usize::MAX);
    assert_eq!((count(&scanned), &list[to..to + 1], closed), (2, "]", true));
    // To the first entry declined, which starts where the scanner stopped.
    let list = format!("{usual}, {usual},  {odd}, {usual}]");
    let (scanned, to, closed) = entries(&list, 0, false, shapes(false), usize::MAX);
    assert_eq!(
        (count(&scanned), &list[to..], closed),
        (2, &format!("{odd}, {usual}]")[..], false)
    );
    // An entry followed by neither a comma nor the end is declined, and so is a trailing comma's
    // missing entry.
    for (list, taken) in [
        (format!("{usual}, {usual}}}"), 1),
        (format!("{usual}, {usual}"), 1),
        (format!("{usual}, {usual}, ]"), 2),
    ] {
        let (scanned, to, closed) = entries(&list, 0, false, shapes(false), usize::MAX);
        assert_eq!((count(&scanned), closed), (taken, false), "{list}");
        assert!(
            list[to..].starts_with(if taken == 1 { usual } else { "]" }),
            "{list}"
        );
    }
    // At most `most` entries: the list closed after them, or the entry past them declined.
    let list = format!("{usual}, {usual},{usual} ]");
    for (most, taken, closed) in [(1, 1, false), (2, 2, false), (3, 3, true), (4, 3, true)] {
        let (scanned, to, ended) = entries(&list, 0, false, shapes(false), most);
        assert_eq!((count(&scanned), ended), (taken, closed), "{most}");
        let rest = if closed { "]" } else { usual };
        assert!(list[to..].starts_with(rest), "{most}");
    }
}
