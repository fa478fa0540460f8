//! Lists of writes within their limit cut out of the body whole and read by the scanner
//! (`fast::splice`): every answer, and what the table holds after it, is the exact
//! path's, whether the scanner takes the list, declines an entry of it (first, middle or last) or
//! the request has another error that comes first.

use crate::fuzzing::engine;
use crate::protocol::fast::oracle::exact_only;
use crate::protocol::fast::CUTS;

/// What `operation` answers to `body` on the fuzzing engine (table `tbl`: `pk` S, `sk` N, an index
/// on `g` S, a stream), then what a Scan of the table answers.
fn answers(operation: &str, body: &str) -> String {
    let backend = engine();
    let answer = super::respond_to(&backend, operation, body)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    let scan = super::respond_to(&backend, "Scan", r#"{"TableName":"tbl"}"#)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned());
    format!("{answer:?}\n{scan:?}")
}

/// Panics unless `body` is answered as the exact path answers it; whether the one pass cut a list.
fn alike(operation: &str, body: &str) -> bool {
    let before = CUTS.with(std::cell::Cell::get);
    let fast = answers(operation, body);
    let cut = CUTS.with(std::cell::Cell::get) > before;
    let exact = exact_only(|| answers(operation, body));
    assert_eq!(fast, exact, "{operation}: {body}");
    cut
}

/// A usual item of `tbl`, the `i`th, with `extra` members after its key.
fn item(i: usize, extra: &str) -> String {
    format!(r#"{{"pk":{{"S":"k{i}"}},"sk":{{"N":"{i}"}}{extra}}}"#)
}

/// A BatchWriteItem of `n` usual PutRequests on `tbl`, `odd` in place of each entry at `at` (from 1).
fn batch(n: usize, at: &[usize], odd: &str) -> String {
    let entries: Vec<String> = (1..=n)
        .map(|i| match at.contains(&i) {
            true => odd.to_owned(),
            false => format!(
                r#"{{"PutRequest":{{"Item":{}}}}}"#,
                item(i, r#","a":{"S":"x"}"#)
            ),
        })
        .collect();
    format!(r#"{{"RequestItems":{{"tbl":[{}]}}}}"#, entries.join(","))
}

/// A TransactWriteItems of `n` usual Puts on `tbl`, `odd` in place of each action at `at`.
fn transaction(n: usize, at: &[usize], odd: &str) -> String {
    let actions: Vec<String> = (1..=n)
        .map(|i| match at.contains(&i) {
            true => odd.to_owned(),
            false => format!(
                r#"{{"Put":{{"TableName":"tbl","Item":{}}}}}"#,
                item(i, r#","n":{"N":"1.50"}"#)
            ),
        })
        .collect();
    format!(r#"{{"TransactItems":[{}]}}"#, actions.join(","))
}

#[test]
fn a_list_of_usual_entries_within_its_limit_is_cut_whole_and_answered_alike() {
    for n in [1, 2, 24, 25] {
        assert!(alike("BatchWriteItem", &batch(n, &[], "")), "{n}");
    }
    for n in [1, 2, 99, 100] {
        assert!(alike("TransactWriteItems", &transaction(n, &[], "")), "{n}");
    }
    // Whitespace wherever JSON allows it around and inside the entries; deletes; an empty item.
    let spaced = " { \"RequestItems\" : { \"tbl\" : [ \n { \"PutRequest\" :{\"Item\":{ \"pk\" : {\"S\":\"a\"} , \"sk\":{\"N\":\"1\"} } } } ,\t{\"DeleteRequest\":{\"Key\":{\"pk\":{\"S\":\"k\"},\"sk\":{\"N\":\"1\"}}}} , {\"PutRequest\":{\"Item\":{}}} ] } } ";
    assert!(alike("BatchWriteItem", spaced));
    let deletes = r#"{"TransactItems":[{"Delete":{"Key":{"pk":{"S":"k"},"sk":{"N":"1"}},"TableName":"tbl"}},{"Put":{"TableName":"tbl","Item":{"pk":{"S":"k2"},"sk":{"N":"2"}}}}]}"#;
    assert!(alike("TransactWriteItems", deletes));
    // The list first, last or between other members of the request.
    let members = [
        r#"{"ReturnConsumedCapacity":"TOTAL","RequestItems":{"tbl":[{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"1"}}}},{"PutRequest":{"Item":{"pk":{"S":"b"},"sk":{"N":"1"}}}}]},"ReturnItemCollectionMetrics":"SIZE"}"#,
        r#"{"RequestItems":{"tbl":[{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"1"}}}}]},"ReturnConsumedCapacity":"INDEXES"}"#,
    ];
    for body in members {
        assert!(alike("BatchWriteItem", body), "{body}");
    }
    let token = r#"{"ClientRequestToken":"t1","TransactItems":[{"Put":{"TableName":"tbl","Item":{"pk":{"S":"a"},"sk":{"N":"1"}}}}],"ReturnConsumedCapacity":"TOTAL"}"#;
    assert!(alike("TransactWriteItems", token));
}

#[test]
fn entries_the_scanner_declines_leave_the_list_to_the_seeds() {
    let every = r#"{"pk":{"S":"k"},"sk":{"N":"1"},"b":{"B":"AQID"},"bs":{"BS":["AQ=="]},"f":{"BOOL":false},"l":{"L":[{"NULL":true}]},"m":{"M":{"x":{"N":"2"}}},"ns":{"NS":["1"]},"ss":{"SS":["a"]},"z":{"NULL":true}}"#;
    let odd = [
        // Every other JSON type of attribute value.
        format!(r#"{{"PutRequest":{{"Item":{every}}}}}"#),
        // Escapes in a name, a value, the request's member; a control character.
        r#"{"PutRequest":{"Item":{"p\u006b":{"S":"a"},"sk":{"N":"1"}}}}"#.to_owned(),
        r#"{"PutRequest":{"Item":{"pk":{"S":"a\"b"},"sk":{"N":"1"}}}}"#.to_owned(),
        r#"{"P\u0075tRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"1"}}}}"#.to_owned(),
        // A tag twice, an unknown member, both requests, null.
        r#"{"PutRequest":{"Item":{"pk":{"S":"a","S":"b"},"sk":{"N":"1"}}}}"#.to_owned(),
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"1"}},"Other":1}}"#.to_owned(),
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"1"}}},"DeleteRequest":{"Key":{"pk":{"S":"a"}}}}"#.to_owned(),
        r#"{"PutRequest":null}"#.to_owned(),
        "null".to_owned(),
        // Numbers invalid or past DynamoDB's range.
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"x"}}}}"#.to_owned(),
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":""}}}}"#.to_owned(),
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"1E+126"}}}}"#.to_owned(),
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"1E-131"}}}}"#.to_owned(),
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"123456789012345678901234567890123456789"}}}}"#.to_owned(),
        // A JSON number, not a string.
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":1}}}}"#.to_owned(),
    ];
    for odd in &odd {
        for at in [&[1][..], &[13], &[25], &[2, 24]] {
            assert!(
                !alike("BatchWriteItem", &batch(25, at, odd)),
                "{odd} at {at:?}"
            );
        }
    }
    // Taken by the scanner, and alike: a name sent twice, numbers at DynamoDB's limits.
    for odd in [
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"1"},"pk":{"S":"b"}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"9.9999999999999999999999999999999999999E+125"}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"-1E-130"}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"12345678901234567890123456789012345678"}}}}"#,
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"-00.50e1"}}}}"#,
    ] {
        for at in [&[1][..], &[13], &[25]] {
            assert!(
                alike("BatchWriteItem", &batch(25, at, odd)),
                "{odd} at {at:?}"
            );
        }
    }
    // A transaction's declined actions: a condition, an update, a check, a table name with an
    // escape, a name twice.
    for odd in [
        r#"{"Put":{"TableName":"tbl","Item":{"pk":{"S":"c"},"sk":{"N":"1"}},"ConditionExpression":"attribute_not_exists(pk)"}}"#,
        r#"{"Update":{"TableName":"tbl","Key":{"pk":{"S":"c"},"sk":{"N":"1"}},"UpdateExpression":"SET a = :a","ExpressionAttributeValues":{":a":{"N":"1"}}}}"#,
        r#"{"ConditionCheck":{"TableName":"tbl","Key":{"pk":{"S":"k"},"sk":{"N":"1"}},"ConditionExpression":"attribute_exists(pk)"}}"#,
        r#"{"Put":{"TableName":"t\u0062l","Item":{"pk":{"S":"c"},"sk":{"N":"1"}}}}"#,
        r#"{"Put":{"TableName":"tbl","TableName":"tbl","Item":{"pk":{"S":"c"},"sk":{"N":"1"}}}}"#,
    ] {
        for at in [&[1][..], &[50], &[100]] {
            assert!(
                !alike("TransactWriteItems", &transaction(100, at, odd)),
                "{odd} at {at:?}"
            );
        }
    }
}

#[test]
fn the_backends_errors_in_a_list_cut_whole_are_the_exact_paths() {
    let big = format!(r#","big":{{"S":"{}"}}"#, "x".repeat(400 * 1024));
    for odd in [
        // An item past 400 KB; the key missing, of the wrong type, empty.
        format!(r#"{{"PutRequest":{{"Item":{}}}}}"#, item(7, &big)),
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"}}}}"#.to_owned(),
        r#"{"PutRequest":{"Item":{"pk":{"N":"1"},"sk":{"N":"1"}}}}"#.to_owned(),
        r#"{"PutRequest":{"Item":{"pk":{"S":""},"sk":{"N":"1"}}}}"#.to_owned(),
        r#"{"DeleteRequest":{"Key":{"pk":{"S":"a"}}}}"#.to_owned(),
        r#"{"PutRequest":{"Item":{}}}"#.to_owned(),
        // The same item twice in the batch.
        format!(r#"{{"PutRequest":{{"Item":{}}}}}"#, item(3, "")),
    ] {
        for at in [&[1][..], &[13], &[25], &[2, 24]] {
            assert!(
                alike("BatchWriteItem", &batch(25, at, &odd)),
                "{odd} at {at:?}"
            );
        }
        // With an earlier flaw the seeds read (an entry the scanner declines): it comes first.
        let flawed = r#"{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"N":"x"}}}}"#;
        let mut body = batch(25, &[20], &odd);
        body = body.replacen(
            &format!(
                r#"{{"PutRequest":{{"Item":{}}}}}"#,
                item(2, r#","a":{"S":"x"}"#)
            ),
            flawed,
            1,
        );
        assert!(!alike("BatchWriteItem", &body), "{odd} after a flaw");
    }
    for odd in [
        format!(
            r#"{{"Put":{{"TableName":"tbl","Item":{}}}}}"#,
            item(7, &big)
        ),
        r#"{"Put":{"TableName":"missing","Item":{"pk":{"S":"a"},"sk":{"N":"1"}}}}"#.to_owned(),
        r#"{"Put":{"TableName":"tbl","Item":{"pk":{"S":"a"}}}}"#.to_owned(),
        r#"{"Put":{"TableName":"x","Item":{"pk":{"S":"a"},"sk":{"N":"1"}}}}"#.to_owned(),
        format!(r#"{{"Put":{{"TableName":"tbl","Item":{}}}}}"#, item(3, "")),
    ] {
        for at in [&[1][..], &[50], &[100]] {
            assert!(
                alike("TransactWriteItems", &transaction(100, at, &odd)),
                "{odd} at {at:?}"
            );
        }
    }
    // A later table's flaw, read by the seeds after the first table's list was cut; a second
    // table missing; a later member's wire error; the same table twice.
    for body in [
        batch(25, &[], "").replace(
            "]}}",
            r#"],"tbl2":[{"PutRequest":{"Item":{"pk":{"N":"x"}}}}]}}"#,
        ),
        batch(25, &[], "").replace(
            "]}}",
            r#"],"missing":[{"PutRequest":{"Item":{"pk":{"S":"a"}}}}]}}"#,
        ),
        batch(25, &[], "").replace("]}}", r#"],"tbl2":null}}"#),
        batch(25, &[], "").replace("]}}", r#"]},"ReturnConsumedCapacity":"SOMETIMES"}"#),
        batch(25, &[], "").replace("]}}", r#"]},"ReturnConsumedCapacity":7}"#),
        batch(25, &[], "").replace(
            "]}}",
            r#"],"tbl":[{"PutRequest":{"Item":{"pk":{"S":"z"},"sk":{"N":"9"}}}}]}}"#,
        ),
    ] {
        assert!(alike("BatchWriteItem", &body), "{body}");
    }
    let later = transaction(100, &[], "").replace("]}", r#"],"ClientRequestToken":""}"#);
    assert!(alike("TransactWriteItems", &later));
}

#[test]
fn lists_past_their_limit_empty_or_broken_are_not_cut_whole() {
    // Past the limit: the cut past the limit, as before (the whole list is not taken).
    assert!(alike("BatchWriteItem", &batch(200, &[], "")));
    assert!(alike("TransactWriteItems", &transaction(400, &[], "")));
    // One past: the entry past the limit is too short a cut for the text before it.
    assert!(!alike("BatchWriteItem", &batch(26, &[], "")));
    assert!(!alike("TransactWriteItems", &transaction(101, &[], "")));
    assert!(!alike("BatchWriteItem", r#"{"RequestItems":{"tbl":[]}}"#));
    assert!(!alike("BatchWriteItem", r#"{"RequestItems":{"tbl":[ ]}}"#));
    assert!(!alike("TransactWriteItems", r#"{"TransactItems":[]}"#));
    // What precedes the list outweighs it: not worth a second parse.
    let padded = format!(
        r#"{{"ReturnConsumedCapacity":"TOTAL","Pad":"{}","RequestItems":{{"tbl":[{{"PutRequest":{{"Item":{{"pk":{{"S":"a"}},"sk":{{"N":"1"}}}}}}}}]}}}}"#,
        "p".repeat(1000)
    );
    assert!(!alike("BatchWriteItem", &padded));
    // Broken JSON in or after the list: a bare SerializationException, as from the exact path
    // (the list cut or not: a flaw after it is found by the second parse).
    for broken in [
        format!("{}x", batch(25, &[], "")),
        batch(25, &[], "").replace("]}}", "]}"),
        batch(25, &[], "").replace("]}}", "],}}"),
        batch(25, &[], "").replacen(r#""k5""#, "\"k\u{1}\"", 1),
        batch(25, &[25], r#"{"PutRequest":{"Item":{"pk":{"S":"a"}}}"#),
        batch(25, &[25], r#"{"PutRequest":{"Item":{"pk":{"S":"a"}}}},"#),
        format!("{} {}", batch(25, &[], ""), "{}"),
    ] {
        alike("BatchWriteItem", &broken);
    }
}
