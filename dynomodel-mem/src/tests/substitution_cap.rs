//! The cap on what one expression substitutes (`expr::substitution`): 2,097,152 bytes (the docs'
//! 2 MB) pass and one more is refused, for every expression kind in every operation that takes it,
//! and the refusal's place among the other errors.
//!
//! The precedence is DynamoDB Local 3.3.1's, probed 2026-11-30 with a 1.1 MB value (past Local's
//! own 1 MiB cap) next to each other fault:
//! - before the cap: the table's existence, the key's shape (PutItem's missing or mistyped key,
//!   UpdateItem's and DeleteItem's), PutItem's item (its values, its 400 KB), ReturnValues, every
//!   check of `ExpressionAttributeValues` itself (a set's duplicates, an empty set), every error of
//!   the expressions (syntax, an undefined placeholder, more than 300 operators, more than 100 `IN`
//!   operands, a reserved word, redundant parentheses, a path nested too deep, overlapping update
//!   paths, a function's operand of the wrong type, an ADD or DELETE operand of the wrong type) and
//!   the unused names and values;
//! - after it: an update of a key attribute (`SET pk = :f`), a path into a key attribute, the
//!   condition's outcome (ReturnValuesOnConditionCheckFailure ALL_OLD or not), an ADD of a set to a
//!   number; in a Query the key condition's shape against the key schema, a filter on a key
//!   attribute and a bad ExclusiveStartKey; in a Scan a bad ExclusiveStartKey; in GetItem the key's
//!   shape; in a transaction everything that needs a table (a missing table, a missing key, a
//!   condition that fails, two actions on one item).
//!
//! Where the engine answers otherwise (its order for these is real DynamoDB's, checked before the
//! table): Query's Select against a ProjectionExpression and Scan's Segment without TotalSegments
//! (`select_and_segments_come_first_in_the_engine`), a key condition's "KeyConditionExpressions
//! must only contain one condition per key" (checked before the table), and an invalid
//! ReturnValuesOnConditionCheckFailure (a constraint of the wire's enum, answered before any check;
//! Local answers the cap first).
//!
//! Local also caps each of the maps, and the engine with it (`tests::map_cap`): more than 2 MiB of
//! `ExpressionAttributeValues` (each key's bytes plus its value's size) is "ExpressionAttributeValues
//! exceeds max size", of names "ExpressionAttributeNames exceeds max size", of both together
//! "Combined size of ExpressionAttributeNames and ExpressionAttributeValues exceeds max size",
//! answered before the expressions' syntax and the unused placeholders (after the table, the key and
//! the maps' own checks). A single value past 2 MiB thus gets that answer, not this cap's: the tests
//! here reach past the cap with a value used twice, or with the other values and names of a map
//! within its own. PartiQL's statements are under neither cap (`expr::generated`,
//! `frontends/partiql/tests_caps.rs`).

use std::collections::BTreeMap;

use dynomodel::backend::{
    Backend, BatchGetItemInput, DeleteItemInput, GetItemInput, KeysAndAttributes, PutItemInput,
    QueryInput, ReturnValue, ReturnValuesOnConditionCheckFailure, ScalarAttributeType as T,
    ScanInput, Select, TransactConditionCheck, TransactDelete, TransactGet, TransactGetItemsInput,
    TransactPut, TransactUpdate, TransactWriteItem, UpdateItemInput,
};
use dynomodel::{AttributeValue, Error, Item};

use super::{
    assert_validation, backend_with, item, n, s, table_input, transact, INVALID, MISMATCH,
};
use crate::MemBackend;

/// The cap, inclusive.
const CAP: usize = 2 * 1024 * 1024;

fn refused(kind: &str) -> String {
    format!("Invalid {kind}Expression: Expression size has exceeded the maximum allowed size;")
}

/// Asserts the refusal of the cap for `kind`.
#[track_caller]
fn assert_refused<T: std::fmt::Debug>(r: Result<T, Error>, kind: &str) {
    assert_validation(r, &refused(kind));
}

/// Asserts anything but a refusal by the cap.
#[track_caller]
fn assert_passes<T: std::fmt::Debug>(r: Result<T, Error>) {
    if let Err(Error::Validation { message }) = &r {
        assert!(
            !message.contains("Expression size has exceeded"),
            "refused by the cap: {message}"
        );
    }
}

/// An S of `len` bytes.
fn big(len: usize) -> AttributeValue {
    AttributeValue::S("q".repeat(len))
}

/// The value of `:f` (an S) that brings `text`, which uses it once, to `total` bytes.
fn filler(text: &str, total: usize) -> AttributeValue {
    big(total - text.len())
}

fn values(entries: &[(&str, AttributeValue)]) -> Option<Item> {
    Some(item(entries))
}

/// `hash` with a range key `sk` too when `range`, and the item `{pk: a, n: 5}` in it.
async fn backend(range: bool) -> MemBackend {
    let b = backend_with(table_input("tbl", T::S, range.then_some(T::S))).await;
    let mut stored = item(&[("pk", s("a")), ("n", n("5"))]);
    if range {
        stored.insert("sk".into(), s("s"));
    }
    b.put_item(PutItemInput {
        table_name: "tbl".into(),
        item: stored,
        ..Default::default()
    })
    .await
    .expect("put");
    b
}

fn key() -> Item {
    item(&[("pk", s("a"))])
}

fn put(condition: &str, vals: Option<Item>) -> PutItemInput {
    PutItemInput {
        table_name: "tbl".into(),
        item: item(&[("pk", s("b"))]),
        condition_expression: Some(condition.into()),
        expression_attribute_values: vals,
        ..Default::default()
    }
}

fn update(update: &str, condition: Option<&str>, vals: Option<Item>) -> UpdateItemInput {
    UpdateItemInput {
        table_name: "tbl".into(),
        key: key(),
        update_expression: Some(update.into()),
        condition_expression: condition.map(Into::into),
        expression_attribute_values: vals,
        ..Default::default()
    }
}

/// The condition whose filler brings it to `total` bytes.
const COND: &str = "b <> :f";

/// A condition that substitutes its filler twice.
const TWICE: &str = "b <> :f AND c <> :f";

#[tokio::test]
async fn put_and_delete_conditions_at_the_bound() {
    let b = backend(false).await;
    let at = |total| values(&[(":f", filler(COND, total))]);
    assert_eq!(b.put_item(put(COND, at(CAP))).await.map(|_| ()), Ok(()));
    assert_refused(b.put_item(put(COND, at(CAP + 1))).await, "Condition");
    let delete = |vals| DeleteItemInput {
        table_name: "tbl".into(),
        key: item(&[("pk", s("b"))]),
        condition_expression: Some(COND.into()),
        expression_attribute_values: vals,
        ..Default::default()
    };
    assert_refused(b.delete_item(delete(at(CAP + 1))).await, "Condition");
    assert_eq!(b.delete_item(delete(at(CAP))).await.map(|_| ()), Ok(()));
}

#[tokio::test]
async fn update_expression_and_condition_at_the_bound() {
    let b = backend(false).await;
    // `if_not_exists(pk, :f)` of an item that has pk substitutes the filler without writing it.
    let text = "SET z = if_not_exists(pk, :f)";
    let at = |total| values(&[(":f", filler(text, total))]);
    assert_eq!(
        b.update_item(update(text, None, at(CAP))).await.map(|_| ()),
        Ok(())
    );
    assert_refused(
        b.update_item(update(text, None, at(CAP + 1))).await,
        "Update",
    );
    let at = |total| values(&[(":f", filler(COND, total)), (":z", s("1"))]);
    let set = "SET z = :z";
    assert_eq!(
        b.update_item(update(set, Some(COND), at(CAP)))
            .await
            .map(|_| ()),
        Ok(())
    );
    assert_refused(
        b.update_item(update(set, Some(COND), at(CAP + 1))).await,
        "Condition",
    );
    // Both past it: the update expression's, as Local answers (a value used twice in each, its
    // map within the maps' cap).
    let both = values(&[(":f", big(CAP / 2 + 8))]);
    assert_refused(
        b.update_item(update("SET z = :f, y = :f", Some(TWICE), both))
            .await,
        "Update",
    );
}

/// What the other expression of the request substitutes does not count, and a placeholder counts
/// at each of its occurrences; a name counts its bytes.
#[tokio::test]
async fn each_expression_counts_its_own_occurrences() {
    let b = backend(false).await;
    // 1.2 MB in the update expression and 1.2 MB in the condition (each value used twice, the map
    // within the maps' cap): 2.4 MB in the request, each within.
    let half = 3 * CAP / 10;
    let vals = values(&[(":u", big(half)), (":f", big(half))]);
    let text = "SET z = if_not_exists(pk, :u), y = if_not_exists(pk, :u)";
    assert_eq!(
        b.update_item(update(text, Some(TWICE), vals))
            .await
            .map(|_| ()),
        Ok(())
    );
    // One value used twice counts twice.
    let twice = "b <> :f AND c <> :f";
    let each = (CAP - twice.len()) / 2;
    assert_passes(b.put_item(put(twice, values(&[(":f", big(each))]))).await);
    assert_refused(
        b.put_item(put(twice, values(&[(":f", big(each + 1))])))
            .await,
        "Condition",
    );
    // Names: their bytes, at each occurrence.
    let text = "attribute_not_exists(#n) AND #n <> :f";
    let name = "n".repeat(60_000);
    let with_name = |total: usize| PutItemInput {
        expression_attribute_names: Some([("#n".to_owned(), name.clone())].into()),
        ..put(text, values(&[(":f", big(total - text.len() - 120_000))]))
    };
    assert_passes(b.put_item(with_name(CAP)).await);
    assert_refused(b.put_item(with_name(CAP + 1)).await, "Condition");
}

#[tokio::test]
async fn query_and_scan_expressions_at_the_bound() {
    let b = backend(true).await;
    let query = |key_condition: &str, filter: Option<&str>, vals| QueryInput {
        table_name: "tbl".into(),
        key_condition_expression: Some(key_condition.into()),
        filter_expression: filter.map(Into::into),
        expression_attribute_values: vals,
        ..Default::default()
    };
    let kc = "pk = :a AND sk > :f";
    let at = |text: &str, total| values(&[(":a", s("a")), (":f", filler(text, total))]);
    // `:a` counts its byte too. Past the cap's check, the value is refused for the key's size.
    assert_passes(b.query(query(kc, None, at(kc, CAP - 1))).await);
    assert_refused(b.query(query(kc, None, at(kc, CAP))).await, "KeyCondition");
    let kc = "pk = :a";
    assert_eq!(
        b.query(query(kc, Some(COND), at(COND, CAP)))
            .await
            .map(|o| o.count),
        Ok(1)
    );
    assert_refused(
        b.query(query(kc, Some(COND), at(COND, CAP + 1))).await,
        "Filter",
    );
    // Both past it: the filter's, as Local answers.
    let both = values(&[(":a", s("a")), (":f", big(CAP / 2 + 8))]);
    let kc = "pk = :a AND sk BETWEEN :f AND :f";
    assert_refused(b.query(query(kc, Some(TWICE), both)).await, "Filter");
    let scan = |vals| ScanInput {
        table_name: "tbl".into(),
        filter_expression: Some(COND.into()),
        expression_attribute_values: vals,
        ..Default::default()
    };
    let at = |total| values(&[(":f", filler(COND, total))]);
    assert_eq!(b.scan(scan(at(CAP))).await.map(|o| o.count), Ok(1));
    assert_refused(b.scan(scan(at(CAP + 1))).await, "Filter");
}

/// A projection substitutes names alone: 33 names of up to 64 KB reach the cap within its 4 KB of
/// text (Local: 18 names of 60,000 bytes pass its 1 MiB).
fn projection_at(total: usize) -> (String, BTreeMap<String, String>) {
    let keys: Vec<String> = (0..33).map(|i| format!("#a{i}")).collect();
    let text = keys.join(", ");
    let mut left = total - text.len();
    let mut names = BTreeMap::new();
    for (i, k) in keys.iter().enumerate() {
        let len = left / (keys.len() - i);
        left -= len;
        // Distinct names: a projection may not name one twice.
        names.insert(k.clone(), format!("{i:02}{}", "x".repeat(len - 2)));
    }
    assert_eq!(left, 0);
    (text, names)
}

#[tokio::test]
async fn projections_at_the_bound() {
    let b = backend(false).await;
    for (total, over) in [(CAP, false), (CAP + 1, true)] {
        let (text, names) = projection_at(total);
        let get = b
            .get_item(GetItemInput {
                table_name: "tbl".into(),
                key: key(),
                projection_expression: Some(text.clone()),
                expression_attribute_names: Some(names.clone()),
                ..Default::default()
            })
            .await;
        let query = b
            .query(QueryInput {
                table_name: "tbl".into(),
                key_condition_expression: Some("pk = :a".into()),
                projection_expression: Some(text.clone()),
                expression_attribute_names: Some(names.clone()),
                expression_attribute_values: values(&[(":a", s("a"))]),
                ..Default::default()
            })
            .await;
        let scan = b
            .scan(ScanInput {
                table_name: "tbl".into(),
                projection_expression: Some(text.clone()),
                expression_attribute_names: Some(names.clone()),
                ..Default::default()
            })
            .await;
        let batch = b
            .batch_get_item(BatchGetItemInput {
                request_items: [(
                    "tbl".to_owned(),
                    KeysAndAttributes {
                        keys: vec![key()],
                        projection_expression: Some(text.clone()),
                        expression_attribute_names: Some(names.clone()),
                        ..Default::default()
                    },
                )]
                .into(),
                ..Default::default()
            })
            .await;
        let transact = b
            .transact_get_items(TransactGetItemsInput {
                transact_items: vec![TransactGet {
                    table_name: "tbl".into(),
                    key: key(),
                    projection_expression: Some(text.clone()),
                    expression_attribute_names: Some(names.clone()),
                }],
                ..Default::default()
            })
            .await;
        if over {
            assert_refused(get, "Projection");
            assert_refused(query, "Projection");
            assert_refused(scan, "Projection");
            assert_refused(batch, "Projection");
            assert_refused(transact, "Projection");
        } else {
            assert_eq!(get.map(|o| o.item), Ok(Some(Item::new())));
            assert_eq!(query.map(|o| o.count), Ok(1));
            assert_eq!(scan.map(|o| o.count), Ok(1));
            assert_passes(batch);
            assert_passes(transact);
        }
    }
}

fn check(key: Item, condition: &str, vals: Option<Item>) -> TransactWriteItem {
    TransactWriteItem::ConditionCheck(TransactConditionCheck {
        table_name: "tbl".into(),
        key,
        condition_expression: condition.into(),
        expression_attribute_values: vals,
        ..Default::default()
    })
}

#[tokio::test]
async fn transaction_actions_at_the_bound() {
    let b = backend(false).await;
    let at = |total| values(&[(":f", filler(COND, total))]);
    assert_eq!(
        transact(&b, vec![check(key(), COND, at(CAP))]).await,
        Ok(())
    );
    assert_refused(
        transact(&b, vec![check(key(), COND, at(CAP + 1))]).await,
        "Condition",
    );
    let put = |vals| {
        TransactWriteItem::Put(TransactPut {
            table_name: "tbl".into(),
            item: item(&[("pk", s("c"))]),
            condition_expression: Some(COND.into()),
            expression_attribute_values: vals,
            ..Default::default()
        })
    };
    assert_eq!(transact(&b, vec![put(at(CAP))]).await, Ok(()));
    assert_refused(transact(&b, vec![put(at(CAP + 1))]).await, "Condition");
    let delete = |vals| {
        TransactWriteItem::Delete(TransactDelete {
            table_name: "tbl".into(),
            key: item(&[("pk", s("c"))]),
            condition_expression: Some(COND.into()),
            expression_attribute_values: vals,
            ..Default::default()
        })
    };
    assert_refused(transact(&b, vec![delete(at(CAP + 1))]).await, "Condition");
    assert_eq!(transact(&b, vec![delete(at(CAP))]).await, Ok(()));
    let text = "SET z = if_not_exists(pk, :f)";
    let update = |vals| {
        TransactWriteItem::Update(TransactUpdate {
            table_name: "tbl".into(),
            key: key(),
            update_expression: text.into(),
            expression_attribute_values: vals,
            ..Default::default()
        })
    };
    let at = |total| values(&[(":f", filler(text, total))]);
    assert_eq!(transact(&b, vec![update(at(CAP))]).await, Ok(()));
    assert_refused(transact(&b, vec![update(at(CAP + 1))]).await, "Update");
}

/// A value one byte past the cap, with the condition `b <> :f`.
fn over() -> Option<Item> {
    values(&[(":f", filler(COND, CAP + 1))])
}

#[tokio::test]
async fn the_request_and_its_expressions_errors_come_first() {
    let b = backend(false).await;
    let with = |extra: &[(&str, AttributeValue)]| {
        let mut v = over().expect("values");
        v.extend(item(extra));
        Some(v)
    };
    let invalid_value = |detail: &str, key: &str| {
        format!("ExpressionAttributeValues contains invalid value: {INVALID}{detail} for key {key}")
    };
    // The maps' own checks.
    let dup = with(&[(":d", super::ss(&["x", "x"]))]);
    assert_validation(
        b.put_item(put("b <> :f AND c <> :d", dup)).await,
        &invalid_value("Input collection [x, x] contains duplicates.", ":d"),
    );
    let empty = with(&[(":d", AttributeValue::Ss(Vec::new()))]);
    assert_validation(
        b.put_item(put("b <> :f AND c <> :d", empty)).await,
        &invalid_value("An string set  may not be empty", ":d"),
    );
    // The expressions' errors.
    assert_validation(
        b.put_item(put("b <> :f AND", over())).await,
        "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"AND\"",
    );
    assert_validation(
        b.put_item(put("b <> :f AND c <> :g", over())).await,
        "Invalid ConditionExpression: An expression attribute value used in expression is not \
         defined; attribute value: :g",
    );
    let ops = vec!["a = :z"; 151].join(" AND ");
    assert_validation(
        b.put_item(put(&format!("b <> :f AND {ops}"), with(&[(":z", s("1"))])))
            .await,
        "Invalid ConditionExpression: The expression contains too many operators; operator count: 301",
    );
    assert_validation(
        b.put_item(put(
            "begins_with(a, :z) AND b <> :f",
            with(&[(":z", n("1"))]),
        ))
        .await,
        "Invalid ConditionExpression: Incorrect operand type for operator or function; operator \
         or function: begins_with, operand type: N",
    );
    let in_list = vec![":z"; 101].join(", ");
    assert_validation(
        b.put_item(put(
            &format!("b <> :f AND a IN ({in_list})"),
            with(&[(":z", s("1"))]),
        ))
        .await,
        "Invalid ConditionExpression: The IN operator is provided with too many operands; number \
         of operands: 101",
    );
    assert_validation(
        b.update_item(update(
            "SET a = :f, a.b = :z",
            None,
            with(&[(":z", s("1"))]),
        ))
        .await,
        "Invalid UpdateExpression: Two document paths overlap with each other; must remove or \
         rewrite one of these paths; path one: [a], path two: [a, b]",
    );
    assert_validation(
        b.update_item(update("ADD a :f", None, over())).await,
        "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: \
         ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND",
    );
    // Unused placeholders, of this expression's request.
    assert_validation(
        b.put_item(put(COND, with(&[(":u", s("1"))]))).await,
        "Value provided in ExpressionAttributeValues unused in expressions: keys: {:u}",
    );
    let unused_name = PutItemInput {
        expression_attribute_names: Some([("#u".to_owned(), "u".to_owned())].into()),
        ..put(COND, over())
    };
    assert_validation(
        b.put_item(unused_name).await,
        "Value provided in ExpressionAttributeNames unused in expressions: keys: {#u}",
    );
    // PutItem's item, ReturnValues, its key.
    let large = PutItemInput {
        item: item(&[("pk", s("b")), ("x", big(410_000))]),
        ..put(COND, over())
    };
    assert_validation(
        b.put_item(large).await,
        "Item size has exceeded the maximum allowed size",
    );
    let all_new = PutItemInput {
        return_values: Some(ReturnValue::AllNew),
        ..put(COND, over())
    };
    assert_validation(
        b.put_item(all_new).await,
        "Return values set to invalid value",
    );
    let keyless = PutItemInput {
        item: item(&[("x", s("b"))]),
        ..put(COND, over())
    };
    assert_validation(
        b.put_item(keyless).await,
        &format!("{INVALID}Missing the key pk in the item"),
    );
    let mistyped = UpdateItemInput {
        key: item(&[("pk", n("1"))]),
        ..update("SET z = :z", Some(COND), with(&[(":z", s("1"))]))
    };
    assert_validation(b.update_item(mistyped).await, MISMATCH);
    let delete = DeleteItemInput {
        table_name: "tbl".into(),
        key: item(&[("x", s("a"))]),
        condition_expression: Some(COND.into()),
        expression_attribute_values: over(),
        ..Default::default()
    };
    assert_validation(b.delete_item(delete).await, MISMATCH);
    // The table.
    let missing = PutItemInput {
        table_name: "nope".into(),
        ..put(COND, over())
    };
    assert!(matches!(
        b.put_item(missing).await,
        Err(Error::ResourceNotFound { .. })
    ));
}

#[tokio::test]
async fn the_cap_comes_before_what_reads_the_item_or_the_key_schema() {
    let b = backend(false).await;
    // An update of a key attribute.
    assert_refused(
        b.update_item(update("SET pk = :f", None, over())).await,
        "Update",
    );
    // A path into a key attribute.
    assert_refused(b.put_item(put("pk.x <> :f", over())).await, "Condition");
    // A condition that fails, with or without the old item asked for.
    let fails = "attribute_not_exists(pk) AND b <> :f";
    let vals = values(&[(":f", filler(fails, CAP + 1)), (":z", s("1"))]);
    let failing = UpdateItemInput {
        return_values_on_condition_check_failure: Some(ReturnValuesOnConditionCheckFailure::AllOld),
        ..update("SET z = :z", Some(fails), vals)
    };
    assert_refused(b.update_item(failing).await, "Condition");
    // An ADD of a set to a number (`n` is 5), the set used twice (its map within the maps' cap).
    let strings: Vec<String> = (0..CAP / 16 + 1).map(|i| format!("{i:08}")).collect();
    let set = values(&[(":f", AttributeValue::Ss(strings))]);
    assert_refused(
        b.update_item(update("SET y = :f ADD n :f", None, set))
            .await,
        "Update",
    );
    // GetItem's key, after the table.
    let (text, names) = projection_at(CAP + 1);
    let get = GetItemInput {
        table_name: "tbl".into(),
        key: item(&[("pk", n("1"))]),
        projection_expression: Some(text),
        expression_attribute_names: Some(names),
        ..Default::default()
    };
    assert_refused(b.get_item(get).await, "Projection");
}

#[tokio::test]
async fn reads_refuse_it_after_the_table_and_index_and_before_the_key_schema() {
    let b = backend(true).await;
    let query = |key_condition: &str, vals: Option<Item>| QueryInput {
        table_name: "tbl".into(),
        key_condition_expression: Some(key_condition.into()),
        filter_expression: Some(COND.into()),
        expression_attribute_values: vals,
        ..Default::default()
    };
    let with_a = || {
        let mut v = over().expect("values");
        v.insert(":a".into(), s("a"));
        Some(v)
    };
    // The key condition's shape against the schema, a filter on a key attribute, a start key.
    assert_refused(b.query(query("sk = :a", with_a())).await, "Filter");
    assert_refused(b.query(query("pk > :a", with_a())).await, "Filter");
    let on_key = QueryInput {
        filter_expression: Some("sk <> :f".into()),
        ..query("pk = :a", with_a())
    };
    assert_refused(b.query(on_key).await, "Filter");
    let start = QueryInput {
        exclusive_start_key: Some(item(&[("x", s("1"))])),
        ..query("pk = :a", with_a())
    };
    assert_refused(b.query(start).await, "Filter");
    let scan = |index: Option<&str>, table: &str| ScanInput {
        table_name: table.into(),
        index_name: index.map(Into::into),
        filter_expression: Some(COND.into()),
        expression_attribute_values: over(),
        exclusive_start_key: Some(item(&[("x", s("1"))])),
        ..Default::default()
    };
    assert_refused(b.scan(scan(None, "tbl")).await, "Filter");
    // The table and the index first.
    assert!(matches!(
        b.scan(scan(None, "nope")).await,
        Err(Error::ResourceNotFound { .. })
    ));
    let indexed = QueryInput {
        index_name: Some("nope".into()),
        ..query("pk = :a", with_a())
    };
    assert_validation(
        b.query(indexed).await,
        "The table does not have the specified index: nope",
    );
}

/// Where the engine's order is not Local's: Query's Select against a projection and Scan's Segment
/// without TotalSegments are request checks the engine makes before it looks the table up (as real
/// DynamoDB validates a request before its table); Local answers the cap first.
#[tokio::test]
async fn select_and_segments_come_first_in_the_engine() {
    let b = backend(true).await;
    let count = QueryInput {
        table_name: "tbl".into(),
        key_condition_expression: Some("pk = :a".into()),
        filter_expression: Some(COND.into()),
        projection_expression: Some("b".into()),
        select: Some(Select::Count),
        expression_attribute_values: {
            let mut v = over().expect("values");
            v.insert(":a".into(), s("a"));
            Some(v)
        },
        ..Default::default()
    };
    assert_validation(
        b.query(count).await,
        "Cannot specify the ProjectionExpression when choosing to get only the Count",
    );
    let segment = ScanInput {
        table_name: "tbl".into(),
        filter_expression: Some(COND.into()),
        expression_attribute_values: over(),
        segment: Some(1),
        ..Default::default()
    };
    assert_validation(
        b.scan(segment).await,
        "The TotalSegments parameter is required but was not present in the request when Segment \
         parameter is present",
    );
}

#[tokio::test]
async fn a_transaction_refuses_it_before_any_table_is_looked_up() {
    let b = backend(false).await;
    let small = || values(&[(":f", s("x"))]);
    // Another action's missing key, a missing table, a failed condition, one item twice.
    let keyless = check(item(&[("x", s("1"))]), COND, small());
    assert_refused(
        transact(&b, vec![keyless.clone(), check(key(), COND, over())]).await,
        "Condition",
    );
    assert_refused(
        transact(&b, vec![check(key(), COND, over()), keyless]).await,
        "Condition",
    );
    let elsewhere = TransactWriteItem::ConditionCheck(TransactConditionCheck {
        table_name: "nope".into(),
        key: key(),
        condition_expression: COND.into(),
        expression_attribute_values: over(),
        ..Default::default()
    });
    assert_refused(transact(&b, vec![elsewhere]).await, "Condition");
    let fails = "attribute_not_exists(pk) AND b <> :f";
    let vals = values(&[(":f", filler(fails, CAP + 1))]);
    assert_refused(
        transact(&b, vec![check(key(), fails, vals)]).await,
        "Condition",
    );
    assert_refused(
        transact(
            &b,
            vec![check(key(), COND, over()), check(key(), COND, small())],
        )
        .await,
        "Condition",
    );
}
