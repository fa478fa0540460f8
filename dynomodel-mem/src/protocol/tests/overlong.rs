//! Over-long lists (more than 100 transaction actions, 25 batch writes or 100 keys), through the wire:
//! the exact messages, whose echo prints every entry as DynamoDB does (`ops/batch/render.rs`,
//! `ops/transact/render.rs`), with every type of attribute value and the decoder's normalisation of
//! numbers in it.

use super::respond_to;
#[cfg(feature = "server")]
use crate::protocol::error_body;
use crate::protocol::Fault;
use crate::MemBackend;

/// An item with every type of attribute value, nested in a map, as the request sends it.
const EVERY_TYPE: &str = r#"{"pk": {"S": "a"}, "v": {"M": {
    "b": {"B": "AQID"}, "bs": {"BS": ["AQ==", "AgM="]}, "f": {"BOOL": false},
    "l": {"L": [{"NULL": true}, {"N": "-0.50"}, {"BOOL": true}]}, "n": {"N": "1.50"},
    "ns": {"NS": ["10", "2e1"]}, "s": {"S": "x \" y"}, "ss": {"SS": ["b", "a"]}}}}"#;

/// The message `operation` answers to `body`, and that its encoded error body carries it.
fn message(operation: &str, body: &str) -> String {
    let fault = respond_to(&MemBackend::new(), operation, body).unwrap_err();
    let Fault::Backend(error) = &fault else {
        panic!("{fault:?}");
    };
    let message = error.message();
    // The server's encoding of it (the engine alone has no HTTP body).
    #[cfg(feature = "server")]
    {
        let (status, encoded) = error_body(&fault);
        let encoded: serde_json::Value = serde_json::from_slice(&encoded).unwrap();
        assert_eq!(
            (status, encoded["message"].as_str()),
            (400, Some(message.as_str()))
        );
    }
    message
}

/// How [`EVERY_TYPE`] prints in the messages: Java's `toString` of each value, numbers in DynamoDB's
/// canonical form (`1.50` is `1.5`, `2e1` is `20`), binary values as Java's `ByteBuffer`s, sets and
/// lists in request order, strings unescaped.
const EVERY_TYPE_PRINTED: &str =
    "{pk=AttributeValue(s=a, n=null, b=null, iNT=null, dECIMAL=null, dOUBLE=null, sS=null, \
    nS=null, bS=null, iNTSET=null, dECIMALSET=null, dOUBLESET=null, m=null, l=null, \
    nULL=null, bOOL=null), v=AttributeValue(s=null, n=null, b=null, iNT=null, dECIMAL=null, \
    dOUBLE=null, sS=null, nS=null, bS=null, iNTSET=null, dECIMALSET=null, dOUBLESET=null, \
    m={b=AttributeValue(s=null, n=null, b=java.nio.HeapByteBuffer[pos=0 lim=3 cap=3], \
    iNT=null, dECIMAL=null, dOUBLE=null, sS=null, nS=null, bS=null, iNTSET=null, \
    dECIMALSET=null, dOUBLESET=null, m=null, l=null, nULL=null, bOOL=null), \
    bs=AttributeValue(s=null, n=null, b=null, iNT=null, dECIMAL=null, dOUBLE=null, sS=null, \
    nS=null, bS=[java.nio.HeapByteBuffer[pos=0 lim=1 cap=1], \
    java.nio.HeapByteBuffer[pos=0 lim=2 cap=2]], iNTSET=null, dECIMALSET=null, \
    dOUBLESET=null, m=null, l=null, nULL=null, bOOL=null), f=AttributeValue(s=null, n=null, \
    b=null, iNT=null, dECIMAL=null, dOUBLE=null, sS=null, nS=null, bS=null, iNTSET=null, \
    dECIMALSET=null, dOUBLESET=null, m=null, l=null, nULL=null, bOOL=false), \
    l=AttributeValue(s=null, n=null, b=null, iNT=null, dECIMAL=null, dOUBLE=null, sS=null, \
    nS=null, bS=null, iNTSET=null, dECIMALSET=null, dOUBLESET=null, m=null, \
    l=[AttributeValue(s=null, n=null, b=null, iNT=null, dECIMAL=null, dOUBLE=null, sS=null, \
    nS=null, bS=null, iNTSET=null, dECIMALSET=null, dOUBLESET=null, m=null, l=null, \
    nULL=true, bOOL=null), AttributeValue(s=null, n=-0.5, b=null, iNT=null, dECIMAL=null, \
    dOUBLE=null, sS=null, nS=null, bS=null, iNTSET=null, dECIMALSET=null, dOUBLESET=null, \
    m=null, l=null, nULL=null, bOOL=null), AttributeValue(s=null, n=null, b=null, iNT=null, \
    dECIMAL=null, dOUBLE=null, sS=null, nS=null, bS=null, iNTSET=null, dECIMALSET=null, \
    dOUBLESET=null, m=null, l=null, nULL=null, bOOL=true)], nULL=null, bOOL=null), \
    n=AttributeValue(s=null, n=1.5, b=null, iNT=null, dECIMAL=null, dOUBLE=null, sS=null, \
    nS=null, bS=null, iNTSET=null, dECIMALSET=null, dOUBLESET=null, m=null, l=null, \
    nULL=null, bOOL=null), ns=AttributeValue(s=null, n=null, b=null, iNT=null, \
    dECIMAL=null, dOUBLE=null, sS=null, nS=[10, 20], bS=null, iNTSET=null, dECIMALSET=null, \
    dOUBLESET=null, m=null, l=null, nULL=null, bOOL=null), s=AttributeValue(s=x \" y, \
    n=null, b=null, iNT=null, dECIMAL=null, dOUBLE=null, sS=null, nS=null, bS=null, \
    iNTSET=null, dECIMALSET=null, dOUBLESET=null, m=null, l=null, nULL=null, bOOL=null), \
    ss=AttributeValue(s=null, n=null, b=null, iNT=null, dECIMAL=null, dOUBLE=null, sS=[b, \
    a], nS=null, bS=null, iNTSET=null, dECIMALSET=null, dOUBLESET=null, m=null, l=null, \
    nULL=null, bOOL=null)}, l=null, nULL=null, bOOL=null)}";

/// A key or item `{pk: value}` as Java prints it, the value being `field=text`.
fn java_key(field: &str, text: &str) -> String {
    let fields = [
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
    ]
    .map(|f| format!("{f}={}", if f == field { text } else { "null" }));
    format!("{{pk=AttributeValue({})}}", fields.join(", "))
}

#[test]
fn an_over_long_batch_write_prints_every_request() {
    let puts: Vec<String> = (1..=25)
        .map(|i| format!(r#"{{"PutRequest": {{"Item": {{"pk": {{"S": "k{i}"}}}}}}}}"#))
        .collect();
    let body = format!(
        r#"{{"RequestItems": {{"tbl": [{{"PutRequest": {{"Item": {EVERY_TYPE}}}}}, {}]}}}}"#,
        puts.join(",")
    );
    let printed: Vec<String> = std::iter::once(EVERY_TYPE_PRINTED.to_owned())
        .chain((1..=25).map(|i| java_key("s", &format!("k{i}"))))
        .map(|item| {
            format!("WriteRequest(putRequest=PutRequest(item={item}, workloadProfileName=null), deleteRequest=null)")
        })
        .collect();
    assert_eq!(
        message("BatchWriteItem", &body),
        format!(
            "1 validation error detected: Value '{{tbl=[{}]}}' at 'requestItems' failed to \
             satisfy constraint: Map value must satisfy constraint: [Member must have length less \
             than or equal to 25, Member must have length greater than or equal to 1]",
            printed.join(", ")
        )
    );
}

#[test]
fn an_over_long_transaction_prints_every_action() {
    let deletes: Vec<String> = (1..=100)
        .map(|i| {
            format!(r#"{{"Delete": {{"TableName": "tbl", "Key": {{"pk": {{"N": "{i}.0"}}}}}}}}"#)
        })
        .collect();
    let body = format!(
        r##"{{"TransactItems": [
            {{"Put": {{"TableName": "tbl", "Item": {EVERY_TYPE},
                "ConditionExpression": "attribute_not_exists(pk) AND #s <> :v",
                "ExpressionAttributeNames": {{"#s": "s"}},
                "ExpressionAttributeValues": {{":v": {{"N": "7"}}}},
                "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}}},
            {{"Update": {{"TableName": "tbl", "Key": {{"pk": {{"S": "u"}}}}, "UpdateExpression": "SET a = :v",
                "ExpressionAttributeValues": {{":v": {{"SS": ["z"]}}}}}}}},
            {{"ConditionCheck": {{"TableName": "tbl", "Key": {{"pk": {{"S": "c"}}}},
                "ConditionExpression": "attribute_exists(pk)"}}}},
            {}]}}"##,
        deletes.join(",")
    );
    let seven = java_key("n", "7").replacen("pk=", ":v=", 1);
    let z = java_key("sS", "[z]").replacen("pk=", ":v=", 1);
    let mut printed = vec![
        format!(
            "TransactWriteItem(conditionCheck=null, put=Put(item={EVERY_TYPE_PRINTED}, tableName=tbl, \
             conditionExpression=attribute_not_exists(pk) AND #s <> :v, \
             expressionAttributeNames={{#s=s}}, expressionAttributeValues={seven}, \
             returnValuesOnConditionCheckFailure=ALL_OLD), delete=null, update=null)"
        ),
        format!(
            "TransactWriteItem(conditionCheck=null, put=null, delete=null, update=Update(key={}, \
             updateExpression=SET a = :v, tableName=tbl, conditionExpression=null, \
             expressionAttributeNames=null, expressionAttributeValues={z}, \
             returnValuesOnConditionCheckFailure=null))",
            java_key("s", "u")
        ),
        format!(
            "TransactWriteItem(conditionCheck=ConditionCheck(key={}, tableName=tbl, \
             conditionExpression=attribute_exists(pk), expressionAttributeNames=null, \
             expressionAttributeValues=null, returnValuesOnConditionCheckFailure=null), put=null, \
             delete=null, update=null)",
            java_key("s", "c")
        ),
    ];
    printed.extend((1..=100).map(|i| {
        format!(
            "TransactWriteItem(conditionCheck=null, put=null, delete=Delete(key={}, tableName=tbl, \
             conditionExpression=null, expressionAttributeNames=null, \
             expressionAttributeValues=null, returnValuesOnConditionCheckFailure=null), update=null)",
            java_key("n", &i.to_string())
        )
    }));
    assert_eq!(
        message("TransactWriteItems", &body),
        format!(
            "1 validation error detected: Value '[{}]' at 'transactItems' failed to satisfy \
             constraint: Member must have length less than or equal to 100",
            printed.join(", ")
        )
    );
}

#[test]
fn an_over_long_key_list_is_named_not_printed() {
    // BatchGetItem's message for more than 100 keys echoes no value (`batch/constraints.rs`).
    let keys: Vec<String> = (0..101)
        .map(|i| format!(r#"{{"pk": {{"S": "k{i}"}}}}"#))
        .collect();
    let body = format!(
        r#"{{"RequestItems": {{"tbl": {{"Keys": [{}]}}}}}}"#,
        keys.join(",")
    );
    assert_eq!(
        message("BatchGetItem", &body),
        "1 validation error detected: Value at 'RequestItems.tbl.member.Keys' failed to satisfy \
         constraint: Member must have length less than or equal to 100"
    );
}

/// The fault `operation` answers to `body`, checked to be the exact path's (the one pass off) too.
#[cfg(feature = "server")]
fn fault_as_exact(operation: &str, body: &str) -> Fault {
    let answer = || {
        let backend = MemBackend::new();
        respond_to(&backend, operation, body).unwrap_err()
    };
    crate::protocol::fast::oracle::held_to_exact(answer, &format!("{operation}: {body}"))
}

/// `body`'s message, checked to be the exact path's too.
#[cfg(feature = "server")]
fn message_as_exact(operation: &str, body: &str) -> String {
    fault_as_exact(operation, body);
    message(operation, body)
}

/// A BatchGetItem of table `table` whose `Keys` are `n` string keys, `odd` at position `at` (from 1).
#[cfg(feature = "server")]
fn keys_with(table: &str, n: usize, at: usize, odd: &str) -> String {
    let keys: Vec<String> = (1..=n)
        .map(|i| match i == at {
            true => odd.to_owned(),
            false => format!(r#"{{"pk": {{"S": "k{i}"}}}}"#),
        })
        .collect();
    format!(
        r#"{{"RequestItems": {{"{table}": {{"Keys": [{}]}}}}}}"#,
        keys.join(",")
    )
}

#[cfg(feature = "server")]
#[test]
fn keys_past_the_limit_are_checked_as_the_exact_path_checks_them() {
    // Past the 101st key the one pass checks keys without building them (`fast::keys`); a key
    // there that is not well formed, or not a key, is answered as the exact path answers it.
    let long = "1 validation error detected: Value at 'RequestItems.tbl.member.Keys' failed to \
                satisfy constraint: Member must have length less than or equal to 100";
    let unchanged = [
        // Well formed, whatever the backend would say of it later: the length is reported.
        (r#"{"pk": {"SS": []}}"#, long),
        (
            r#"{"pk": {"L": [{"N": "1"}, {"B": "AQ=="}]}, "sk": {"N": "2"}}"#,
            long,
        ),
        (r#"{}"#, long),
        (r#"{"pk": {"S": "a \" \u00e9"}, "sk": {"B": "AQID"}}"#, long),
        (r#"{"pk": {"N": "-1.5e3"}}"#, long),
        // Escapes in a member name and in a number (read from serde_json's scratch, not borrowed).
        (r#"{"p\u006b": {"N": "1\u0030"}}"#, long),
        // Not: the wire's own messages.
        (
            "null",
            "1 validation error detected: Value null at 'requestItems.tbl.member.keys.150.member' \
             failed to satisfy constraint: Member must not be null",
        ),
        (
            r#"{"pk": {"N": "x1"}}"#,
            "The parameter cannot be converted to a numeric value: x1",
        ),
        (
            r#"{"pk": {"N": "x\u0031"}}"#,
            "The parameter cannot be converted to a numeric value: x1",
        ),
        (
            r#"{"pk": {"NULL": false}}"#,
            "One or more parameter values were invalid: Null attribute value types must have \
             the value of true",
        ),
        (
            r#"{"pk": {"S": "a", "N": "1"}}"#,
            "Supplied AttributeValue has more than one datatypes set, must contain exactly one of \
             the supported datatypes",
        ),
        (
            r#"{"pk": {}}"#,
            "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes",
        ),
    ];
    for (odd, expected) in unchanged {
        let body = keys_with("tbl", 200, 150, odd);
        assert_eq!(message_as_exact("BatchGetItem", &body), expected, "{odd}");
    }
    // Type errors and the like are the exact path's too.
    for odd in [
        r#"{"pk": {"S": 5}}"#,
        r#"{"pk": {"N": 5}}"#,
        r#"{"pk": {"B": "!!"}}"#,
        r#"{"pk": {"X": "a"}}"#,
        r#"{"pk": 5}"#,
        r#"[]"#,
        r#""k""#,
    ] {
        let body = keys_with("tbl", 200, 150, odd);
        fault_as_exact("BatchGetItem", &body);
    }
    // A member name longer than the model's attribute names.
    let long_name = format!(r#"{{"{}": {{"S": "a"}}}}"#, "n".repeat(65_536));
    let body = keys_with("tbl", 200, 150, &long_name);
    message_as_exact("BatchGetItem", &body);
}

#[cfg(feature = "server")]
#[test]
fn keys_spelled_apart_count_once_before_the_rest_are_only_checked() {
    // 100 numbers, then each spelled again (`1e0` after `1`): the respellings are dropped, so the
    // list holds 100 keys and is read (the table is missing), though 200 were sent.
    let numbers: Vec<String> = (1..=100)
        .map(|i| format!(r#"{{"pk": {{"N": "{i}"}}}}"#))
        .chain((1..=100).map(|i| format!(r#"{{"pk": {{"N": "{i}e0"}}}}"#)))
        .collect();
    let body = format!(
        r#"{{"RequestItems": {{"tbl": {{"Keys": [{}]}}}}}}"#,
        numbers.join(",")
    );
    assert_eq!(
        message_as_exact("BatchGetItem", &body),
        "Requested resource not found"
    );
    // One more value is one key too many.
    let body = body.replace("]}}}", r#", {"pk": {"N": "101"}}]}}}"#);
    assert!(message_as_exact("BatchGetItem", &body).contains("less than or equal to 100"));
}

#[cfg(feature = "server")]
#[test]
fn keys_past_the_limit_are_printed_where_the_whole_map_is() {
    // A table name the service refuses echoes all of `RequestItems`, every key in it: the exact
    // path decodes such a request (`fast::keys::needs_every_key`).
    let body = keys_with("t", 150, 0, "");
    let message = message_as_exact("BatchGetItem", &body);
    assert!(
        message.starts_with("2 validation errors detected: "),
        "{message}"
    );
    assert!(
        message.contains(r#"{"pk":{"S":"k150"}}]}}' at 'requestItems'"#),
        "{message}"
    );
}

/// A TransactWriteItems of `n` Puts on two tables, `odd` in place of the action at position `at`
/// (from 1), and `extra` members of the request.
#[cfg(feature = "server")]
fn actions_with(n: usize, at: usize, odd: &str, extra: &str) -> String {
    let actions: Vec<String> = (1..=n)
        .map(|i| match i == at {
            true => odd.to_owned(),
            false => format!(
                r#"{{"Put": {{"TableName": "t{}", "Item": {{"pk": {{"N": "{i}.50"}}}}}}}}"#,
                i % 2
            ),
        })
        .collect();
    format!(r#"{{{extra}"TransactItems": [{}]}}"#, actions.join(","))
}

#[cfg(feature = "server")]
#[test]
fn an_over_long_transaction_with_another_error_is_answered_as_the_exact_path_answers_it() {
    // Each odd action past the limit, and errors beside the length, answered alike by both paths;
    // the messages that name an action's path name it at its position.
    let cases: [(&str, &str, Option<&str>); 13] = [
        (
            r#"{"Put": {"Item": {"pk": {"S": "a"}}}}"#,
            "",
            Some("transactItems.150.member.put.tableName"),
        ),
        (
            r#"{"Delete": {"TableName": "t0"}}"#,
            "",
            Some("transactItems.150.member.delete.key"),
        ),
        (
            r#"{"Update": {"TableName": "t0", "Key": {"pk": {"S": "a"}}}}"#,
            "",
            Some("transactItems.150.member.update.updateExpression"),
        ),
        (
            r#"{"Put": {"TableName": "t0", "Item": {}, "ReturnValuesOnConditionCheckFailure": "SOME"}}"#,
            "",
            Some("transactItems.150.member.put.returnValuesOnConditionCheckFailure"),
        ),
        ("null", "", Some("transactItems.150.member")),
        ("{}", "", None),
        (
            r#"{"Put": {"TableName": "t0", "Item": {}}, "Delete": {"TableName": "t0", "Key": {}}}"#,
            "",
            None,
        ),
        (
            r#"{"Put": {"TableName": "t0", "Item": {"pk": {"N": "x"}}}}"#,
            "",
            None,
        ),
        (
            r#"{"Put": {"TableName": "t0", "Item": {"pk": {"B": "!!"}}}}"#,
            "",
            None,
        ),
        (
            r#"{"Put": {"TableName": "t0", "Item": {"pk": {"S": "a\"\\\u00e9"}, "m": {"M": {"z": {"NS": ["1e2", "-0"]}, "a": {"L": [{"NULL": true}]}}}}}}"#,
            "",
            None,
        ),
        (r#"{"Put": "x"}"#, "", None),
        (
            r#"{"Put": {"TableName": "", "Item": {"pk": {"S": "a"}}}}"#,
            "",
            None,
        ),
        (
            r#"{"Put": {"TableName": "t0", "Item": {"pk": {"S": "a"}}}}"#,
            r#""ClientRequestToken": "0123456789012345678901234567890123456789", "#,
            Some("clientRequestToken"),
        ),
    ];
    for (odd, extra, path) in cases {
        let body = actions_with(200, 150, odd, extra);
        let fault = fault_as_exact("TransactWriteItems", &body);
        if let Some(path) = path {
            assert!(
                format!("{fault:?}").contains(&format!("at '{path}'")),
                "{odd}: {fault:?}"
            );
        }
    }
}

#[cfg(feature = "server")]
#[test]
fn an_over_long_batch_write_with_another_error_is_answered_as_the_exact_path_answers_it() {
    let cases: [(&str, Option<&str>); 8] = [
        (
            r#"{"PutRequest": {}}"#,
            Some("requestItems.t0.member.40.member.putRequest.item"),
        ),
        (
            r#"{"DeleteRequest": {}}"#,
            Some("requestItems.t0.member.40.member.deleteRequest.key"),
        ),
        ("null", Some("requestItems.t0.member.40.member")),
        ("{}", None),
        (
            r#"{"PutRequest": {"Item": {"pk": {"S": "a"}}}, "DeleteRequest": {"Key": {"pk": {"S": "a"}}}}"#,
            None,
        ),
        (
            r#"{"PutRequest": {"Item": {"pk": {"N": "1e999999"}}}}"#,
            None,
        ),
        (
            r#"{"DeleteRequest": {"Key": {"pk": {"BS": ["AQ=="]}, "x": {"NULL": false}}}}"#,
            None,
        ),
        (
            r#"{"PutRequest": {"Item": {"pk": {"S": "\u0000\ud83d\ude00"}, "b": {"B": "AQ="}}}}"#,
            None,
        ),
    ];
    for (odd, path) in cases {
        let requests: Vec<String> = (1..=60)
            .map(|i| match i == 40 {
                true => odd.to_owned(),
                false => format!(r#"{{"PutRequest": {{"Item": {{"pk": {{"N": "{i}e0"}}}}}}}}"#),
            })
            .collect();
        let body = format!(
            r#"{{"RequestItems": {{"t0": [{}], "t1": [{{"DeleteRequest": {{"Key": {{"pk": {{"S": "d"}}}}}}}}]}}}}"#,
            requests.join(",")
        );
        let fault = fault_as_exact("BatchWriteItem", &body);
        if let Some(path) = path {
            assert!(
                format!("{fault:?}").contains(&format!("at '{path}'")),
                "{odd}: {fault:?}"
            );
        }
    }
}

/// Whether the one pass read `body` with writes past the limit in compact form (`fast::writes`).
#[cfg(feature = "server")]
fn read_compact(operation: &str, body: &str) -> bool {
    match crate::protocol::fast::decode(operation, body.as_bytes()) {
        crate::protocol::fast::Outcome::Decoded(_, predecoded) => predecoded.has_past_limit(),
        _ => false,
    }
}

#[cfg(feature = "server")]
#[test]
fn actions_past_the_limit_in_compact_form_are_answered_as_the_exact_path_answers_them() {
    // Every kind of action and member past the limit, read in compact form, and the same with a
    // second error beside the length (the token) and on several tables: the answers are the exact
    // path's, byte for byte.
    let every = EVERY_TYPE;
    let compact = [
        format!(r#"{{"Put": {{"TableName": "t0", "Item": {every}}}}}"#),
        format!(
            r##"{{"Put": {{"Item": {every}, "TableName": "other.table-1", "ConditionExpression": "attribute_not_exists(#p) AND v = :v", "ExpressionAttributeNames": {{"#p": "pk"}}, "ExpressionAttributeValues": {{":v": {{"N": "0.10"}}}}, "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}}}"##
        ),
        r#"{"Delete": {"TableName": "t1", "Key": {"pk": {"B": "AQID"}}, "ReturnValuesOnConditionCheckFailure": "NONE"}}"#.to_owned(),
        r##"{"Update": {"Key": {"pk": {"N": "-00.5e1"}}, "UpdateExpression": "SET #a = :a", "TableName": "t0", "ExpressionAttributeNames": {"#a": "a\"b"}, "ExpressionAttributeValues": {":a": {"L": [{"M": {"z": {"SS": ["b", "a"]}, "a": {"BS": ["AQ=="]}}}]}}}}"##.to_owned(),
        r#"{"ConditionCheck": {"TableName": "t1", "Key": {"pk": {"S": "\u00e9\n\"x"}}, "ConditionExpression": "attribute_exists(pk)"}}"#.to_owned(),
        r#"{"\u0050ut": {"T\u0061bleName": "t0", "Item": {"p\u006b": {"S": "a"}}}}"#.to_owned(),
        r#"{"Put": {"TableName": "", "Item": {"pk": {"S": "a"}}}}"#.to_owned(),
        format!(r#"{{"Put": {{"TableName": "{}", "Item": {{}}}}}}"#, "x".repeat(1100)),
        r#"{"Put": {"TableName": "arn:aws:dynamodb:us-east-1:123456789012:table/t", "Item": {"pk": {"S": "a"}}}}"#.to_owned(),
        r#"{"Put": {"TableName": "t0", "Item": {"z": {"S": "1"}, "a": {"S": "2"}, "z": {"N": "3"}}}}"#.to_owned(),
        r#"{"Delete": {"TableName": "t1", "Key": {"pk": {"S": "a"}, "sk": {"N": "-0"}}}}"#.to_owned(),
    ];
    for odd in &compact {
        for extra in [
            "",
            r#""ClientRequestToken": "0123456789012345678901234567890123456789", "#,
            r#""ReturnConsumedCapacity": "TOTAL", "ClientRequestToken": "", "#,
        ] {
            let body = actions_with(150, 140, odd, extra);
            assert!(read_compact("TransactWriteItems", &body), "{odd}");
            fault_as_exact("TransactWriteItems", &body);
            // The odd action as the 101st, the first read in compact form.
            fault_as_exact("TransactWriteItems", &actions_with(101, 101, odd, extra));
        }
    }
    // Not read in compact form: the exact path answers, alike.
    let anomalies = [
        r#"{"Put": {"TableName": "t0", "Item": {"pk": {"S": "a"}}, "Expected": {}}}"#,
        r#"{"Put": {"TableName": "t0", "TableName": "t1", "Item": {"pk": {"S": "a"}}}}"#,
        r#"{"Put": {"TableName": "t0", "Item": {"pk": {"S": "a"}}}, "Put": {"TableName": "t0", "Item": {}}}"#,
        r#"{"Put": {"TableName": "t0", "Item": {"pk": {"S": "a"}}}, "Other": 1}"#,
        r#"{"Put": null}"#,
        r#"{"Put": {"TableName": null, "Item": {"pk": {"S": "a"}}}}"#,
        r#"{"Put": {"TableName": 5, "Item": {"pk": {"S": "a"}}}}"#,
        r#"{"Put": {"TableName": "t0", "Item": null}}"#,
        r#"{"Put": {"TableName": "t0", "Item": [1]}}"#,
        r#"{"Put": {"TableName": "t0", "Item": {"pk": {"S": "a", "N": "1"}}}}"#,
        r#"{"Put": {"TableName": "t0", "Item": {"pk": {"NULL": false}}}}"#,
        r#"{"Put": {"TableName": "t0", "Item": {"pk": {}}}}"#,
        r#"{"Put": {"TableName": "t0", "Item": {"pk": {"S": "a"}}, "ReturnValuesOnConditionCheckFailure": "all_old"}}"#,
        r#"{"Put": {"TableName": "t0", "Item": {"pk": {"S": "a"}}, "ConditionExpression": 1}}"#,
        r#"{"ConditionCheck": {"TableName": "t0", "Key": {"pk": {"S": "a"}}}}"#,
        r#"{"Update": {"TableName": "t0", "Key": {"pk": {"S": "a"}}, "UpdateExpression": null}}"#,
        r#"[]"#,
        r#""Put""#,
    ];
    for odd in anomalies {
        let body = actions_with(150, 140, odd, "");
        assert!(!read_compact("TransactWriteItems", &body), "{odd}");
        fault_as_exact("TransactWriteItems", &body);
    }
    // Either way, answered alike.
    for odd in [
        r#"{"Put": {"TableName": "t0", "Item": {"": {"S": "a"}}}}"#,
        r##"{"Put": {"TableName": "t0", "Item": {"pk": {"S": "a"}}, "ExpressionAttributeNames": {"#a": null}}}"##,
        r#"{"Put": {"TableName": "t0", "Item": {"pk": {"S": "a"}}, "ExpressionAttributeNames": {}}}"#,
        r#"{"Put": {"TableName": "t0", "Item": {"pk": {"S": "a"}}, "ExpressionAttributeValues": {}}}"#,
        r#"{"Put": {"TableName": "t0", "Item": {"pk": {"SS": []}}}}"#,
        r#"{"Put": {"TableName": "t0", "Item": {"pk": {"N": "x"}}}}"#,
    ] {
        fault_as_exact("TransactWriteItems", &actions_with(150, 140, odd, ""));
    }
    // The limit itself: 100 actions are valid, answered alike, and cut whole (`fast::splice`):
    // the slot stands for every action.
    let valid = actions_with(100, 0, "", "");
    assert!(read_compact("TransactWriteItems", &valid));
    let answer = || respond_to(&MemBackend::new(), "TransactWriteItems", &valid);
    let _ = crate::protocol::fast::oracle::held_to_exact(answer, "100 actions");
}

#[cfg(feature = "server")]
#[test]
fn write_requests_past_the_limit_in_compact_form_are_answered_as_the_exact_path_answers_them() {
    let every = EVERY_TYPE;
    let compact = [
        format!(r#"{{"PutRequest": {{"Item": {every}}}}}"#),
        r#"{"DeleteRequest": {"Key": {"pk": {"N": "1.000"}, "sk": {"B": "AQ=="}}}}"#.to_owned(),
        r#"{"PutRequest": {"Item": {}}}"#.to_owned(),
        r#"{"PutRequest": {"Item": {"pk": {"S": ""}}}}"#.to_owned(),
        r#"{"PutRequest": {"Item": {"pk": {"S": "a"}}}}"#.to_owned(),
        r#"{"\u0050utRequest": {"It\u0065m": {"pk": {"S": "\"\\\u0000"}}}}"#.to_owned(),
        // Items of two and more members (read into a vector and sorted), the same name twice
        // (the last one kept, as serde_json's map keeps it for the exact path).
        r#"{"PutRequest": {"Item": {"z": {"S": "1"}, "a": {"N": "2.0"}, "m": {"BOOL": true}}}}"#
            .to_owned(),
        r#"{"PutRequest": {"Item": {"pk": {"S": "a"}, "pk": {"S": "b"}}}}"#.to_owned(),
        r#"{"DeleteRequest": {"Key": {"sk": {"S": "x"}, "pk": {"S": "y"}}}}"#.to_owned(),
        r#"{"PutRequest": {"Item": {"b": {"S": "1"}, "a": {"S": "2"}, "b": {"N": "3"}}}}"#
            .to_owned(),
        // An empty name (the model sets no length on it: the backend's own message).
        r#"{"PutRequest": {"Item": {"pk": {"S": "a"}, "": {"S": "b"}}}}"#.to_owned(),
    ];
    let anomalies = [
        r#"{"PutRequest": {"Item": {"pk": {"S": "a"}}, "Item": {}}}"#,
        r#"{"PutRequest": {"Item": {"pk": {"S": "a"}}}, "DeleteRequest": null}"#,
        r#"{"PutRequest": {"Item": {"pk": {"S": "a"}}}, "PutRequest": {"Item": {}}}"#,
        r#"{"PutRequest": {"Item": {"pk": {"N": "1e999999"}}}}"#,
        r#"{"PutRequest": {"Item": {"pk": {"S": "a"}}, "Key": {}}}"#,
        r#"{"PutRequest": {}}"#,
        r#"{"DeleteRequest": {"Key": null}}"#,
        r#"{"PutRequest": {"Item": {"pk": {"B": "!"}}}}"#,
        // A flaw in an item's second or third member.
        r#"{"PutRequest": {"Item": {"pk": {"S": "a"}, "x": {"N": "1e999999"}}}}"#,
        r#"{"PutRequest": {"Item": {"pk": {"S": "a"}, "x": {"S": "b"}, "y": {}}}}"#,
        "null",
        "{}",
        "7",
    ];
    let batch = |odd: &str, n: usize, at: usize, tables: &str| {
        let requests: Vec<String> = (1..=n)
            .map(|i| match i == at {
                true => odd.to_owned(),
                false => format!(r#"{{"PutRequest": {{"Item": {{"pk": {{"N": "{i}e0"}}}}}}}}"#),
            })
            .collect();
        format!(
            r#"{{"RequestItems": {{"t0": [{}]{tables}}}}}"#,
            requests.join(",")
        )
    };
    let over = format!(
        r#", "t1": [{}], "t2": [{{"DeleteRequest": {{"Key": {{"pk": {{"S": "d"}}}}}}}}]"#,
        (0..30)
            .map(|i| format!(r#"{{"DeleteRequest": {{"Key": {{"pk": {{"S": "d{i}"}}}}}}}}"#))
            .collect::<Vec<_>>()
            .join(",")
    );
    for odd in &compact {
        for tables in ["", over.as_str(), r#", "bad name!": []"#] {
            let body = batch(odd, 40, 30, tables);
            assert!(read_compact("BatchWriteItem", &body), "{odd}");
            fault_as_exact("BatchWriteItem", &body);
            fault_as_exact("BatchWriteItem", &batch(odd, 26, 26, tables));
        }
    }
    for odd in anomalies {
        let body = batch(odd, 40, 30, "");
        assert!(!read_compact("BatchWriteItem", &body), "{odd}");
        fault_as_exact("BatchWriteItem", &body);
    }
    // 25 requests in each of two tables: valid per table.
    let two = batch(
        "",
        25,
        0,
        &format!(
            r#", "t1": [{}]"#,
            (1..=25)
                .map(|i| format!(r#"{{"PutRequest": {{"Item": {{"pk": {{"S": "{i}"}}}}}}}}"#))
                .collect::<Vec<_>>()
                .join(",")
        ),
    );
    // The first table's list cut whole (`fast::splice`), the second read by the seeds.
    assert!(read_compact("BatchWriteItem", &two));
    let answer = || respond_to(&MemBackend::new(), "BatchWriteItem", &two);
    let _ = crate::protocol::fast::oracle::held_to_exact(answer, "two tables of 25");
}

/// A BatchWriteItem of `n` usual PutRequests on one table, `odd` at each of the positions `at`.
#[cfg(feature = "server")]
fn writes_with(n: usize, at: &[usize], odd: &str) -> String {
    let requests: Vec<String> = (1..=n)
        .map(|i| match at.contains(&i) {
            true => odd.to_owned(),
            false => format!(
                r#"{{"PutRequest":{{"Item":{{"pk":{{"S":"k{i}"}},"n":{{"N":"{i}.0"}}}}}}}}"#
            ),
        })
        .collect();
    format!(r#"{{"RequestItems":{{"t0":[{}]}}}}"#, requests.join(","))
}

#[cfg(feature = "server")]
#[test]
fn entries_past_the_limit_scanned_or_read_by_the_seeds_are_answered_as_the_exact_path_answers_them()
{
    // Past the limit the usual entries are read from their raw text (`fast::scan`), every other
    // shape by the seeds: mixed at every position, the answers are the exact path's.
    let every = EVERY_TYPE;
    let odd = [
        // Taken by the scanner: odd whitespace, names twice, no member.
        " {\t\"PutRequest\" :\n{ \"Item\"\r: { \"pk\" : { \"S\" : \"x\" } , \"pk\" : {\"N\":\"1E+2\"} } } } ".to_owned(),
        r#"{"DeleteRequest":{"Key":{"pk":{"N":"-00.50e1"},"sk":{"S":"é"}}}}"#.to_owned(),
        r#"{"PutRequest":{"Item":{}}}"#.to_owned(),
        // Declined by the scanner, read by the seeds.
        format!(r#"{{"PutRequest":{{"Item":{every}}}}}"#),
        r#"{"PutRequest":{"Item":{"p\u006b":{"S":"a\"b\\"}}}}"#.to_owned(),
        r#"{"PutRequest":{"Item":{"pk":{"S":"a"},"l":{"L":[{"M":{"x":{"NS":["1","2"]}}}]}}}}"#
            .to_owned(),
        // Declined by both: the exact path answers.
        r#"{"PutRequest":{"Item":{"pk":{"N":"x"}}}}"#.to_owned(),
        r#"{"PutRequest":{"Item":{"pk":{"S":"a","S":"b"}}}}"#.to_owned(),
        r#"{"PutRequest":{"Item":{"pk":{"S":1e999999}}}}"#.to_owned(),
        r#"{"PutRequest":1e999999}"#.to_owned(),
        r#"{"PutRequest":{"Item":{"pk":{"B":"!"}}}}"#.to_owned(),
        r#"{"PutRequest":{"Item":{"pk":null}}}"#.to_owned(),
        "null".to_owned(),
        "[]".to_owned(),
    ];
    let cuts = || crate::protocol::fast::CUTS.with(std::cell::Cell::get);
    for (i, odd) in odd.iter().enumerate() {
        for at in [&[26][..], &[27], &[33, 34], &[40], &[26, 30, 35, 40]] {
            fault_as_exact("BatchWriteItem", &writes_with(40, at, odd));
        }
        // Long enough to be cut out of the body and scanned up to the odd entry, or whole.
        for at in [&[150][..], &[120, 180], &[200], &[3], &[]] {
            let before = cuts();
            fault_as_exact("BatchWriteItem", &writes_with(200, at, odd));
            // Cut unless the one pass stopped before the limit (the last odd entries stop it).
            if i < 6 || at.iter().all(|&a| a > 25) {
                assert!(cuts() > before, "{odd} at {at:?}");
            }
        }
    }
    // A second over-long table after the one cut, read as before.
    let second = format!(
        r#"{{"RequestItems":{{"t0":[{}], "t1":[{}]}}}}"#,
        (0..100)
            .map(|i| format!(r#"{{"PutRequest":{{"Item":{{"pk":{{"S":"a{i}"}}}}}}}}"#))
            .collect::<Vec<_>>()
            .join(","),
        (0..100)
            .map(|i| format!(r#"{{"DeleteRequest":{{"Key":{{"pk":{{"N":"{i}"}}}}}}}}"#))
            .collect::<Vec<_>>()
            .join(" , "),
    );
    let before = cuts();
    fault_as_exact("BatchWriteItem", &second);
    assert!(cuts() > before);
    // Broken JSON in or after the part cut: a bare SerializationException, as from the exact path.
    for broken in [
        writes_with(200, &[150], r#"{"PutRequest":{"Item":{"pk":{"S":"a"}}}"#),
        writes_with(200, &[150], r#"{"PutRequest":{"Item":{"pk":{"S":"a"}}}}}"#),
        writes_with(200, &[200], r#"{"PutRequest":{"Item":{"pk":{"S":"a"}}}},"#),
        format!("{}x", writes_with(200, &[], "")),
        writes_with(200, &[], "").replace(r#""k150""#, "\"k\u{1}\""),
        writes_with(200, &[], "").replace(r#""k150"}"#, "\"k150\"}\u{c}"),
    ] {
        fault_as_exact("BatchWriteItem", &broken);
    }
    // Nested near serde_json's limit: read apart, an entry would have more depth than in its
    // request; past the scanner's guard the exact path parses the body whole.
    for depth in [30, 49, 50, 62, 63, 64, 70] {
        let nested = format!(
            r#"{{"PutRequest":{{"Item":{{"pk":{}{{"S":"a"}}{}}}}}}}"#,
            r#"{"L":["#.repeat(depth),
            "]}".repeat(depth)
        );
        fault_as_exact("BatchWriteItem", &writes_with(30, &[28], &nested));
        let action = format!(
            r#"{{"Put":{{"TableName":"t0","Item":{{"pk":{}{{"S":"a"}}{}}}}}}}"#,
            r#"{"L":["#.repeat(depth),
            "]}".repeat(depth)
        );
        fault_as_exact("TransactWriteItems", &actions_with(110, 105, &action, ""));
    }
    // The transaction's usual actions and others, at every position past the limit.
    for (i, odd) in [
        r#"{"Put":{"Item":{"pk":{"S":"k"}},"TableName":"t1"}}"#,
        r#"{"Delete":{"TableName":"t0","Key":{"pk":{"N":"1"}}}}"#,
        r#"{"Put":{"TableName":"t\u0030","Item":{"pk":{"S":"k"}}}}"#,
        r#"{"Put":{"TableName":"t0","Item":{"pk":{"S":"k"}},"ConditionExpression":"attribute_not_exists(pk)"}}"#,
        r#"{"Put":{"TableName":"t0","TableName":"t1","Item":{"pk":{"S":"k"}}}}"#,
        r#"{"Put":{"TableName":"t0","Item":{"pk":{"N":"1.2.3"}}}}"#,
        r#"{"Put":{"TableName":7,"Item":{}}}"#,
    ]
    .into_iter()
    .enumerate()
    {
        for at in [101, 102, 110] {
            fault_as_exact("TransactWriteItems", &actions_with(110, at, odd, ""));
        }
        // Cut when the entries scanned outweigh the 100 before them (not so up to a declined
        // action at 150; the first two the scanner takes).
        for at in [0, 150, 300, 400] {
            let before = cuts();
            fault_as_exact("TransactWriteItems", &actions_with(400, at, odd, ""));
            assert_eq!(cuts() > before, i < 2 || at != 150, "{odd} at {at}");
        }
    }
}
