//! The caps on the placeholder maps themselves (`expr::substitution::maps_over`): each of
//! `ExpressionAttributeNames` and `ExpressionAttributeValues`, and the two together, at most
//! 2,097,152 bytes, a map measured as its keys' bytes (with their `#` or `:`) plus each name's
//! UTF-8 bytes or each value's size by the item-size rule.
//!
//! DynamoDB Local 3.3.1, probed 2026-11-30 (UpdateItem `SET z = :z` with `:z` = `"1"` and an
//! unused filler, searched for the largest that passes):
//! - the bound is 2 MiB for each map and for the sum, inclusive: 2,097,152 passes, one more is
//!   refused, the same for Names, Values and the Combined rule (names plus values); Local's bound
//!   is the docs' 2 MB, so the engine's is the same;
//! - a value counts its key's bytes (`:` included) plus its size by the item-size rule (an N of
//!   `12345678901` 7, of `100` 2, a B of 10 bytes 10, BOOL and NULL 1, `L[S10]` 14, `M{10: S1}` 15,
//!   a set its elements, `é` 2, `L[]` 3), a name its key's bytes (`#` included) plus its UTF-8 bytes;
//! - the messages (ValidationException): "ExpressionAttributeNames exceeds max size",
//!   "ExpressionAttributeValues exceeds max size", "Combined size of ExpressionAttributeNames and
//!   ExpressionAttributeValues exceeds max size"; when several apply, names first, then values,
//!   then the sum;
//! - before it: the table's existence (Query's and Scan's index too), the key's shape (UpdateItem,
//!   DeleteItem, PutItem's missing key; BatchGetItem's keys), ReturnValues, PutItem's item size, the
//!   maps' own checks (an empty map, a key that is not a placeholder, an empty name, a set's
//!   duplicates, an empty set, a number that is not one); after it: every check of the expressions
//!   (syntax, an undefined placeholder, the unused ones, the cap on what one expression
//!   substitutes), an update of a key attribute, a failed condition, Query's key condition against
//!   the schema, one condition per key, Select against a projection, a bad ExclusiveStartKey;
//!   GetItem's key shape (GetItem answers it after the table, before the key);
//! - every operation that takes the maps: PutItem, UpdateItem, DeleteItem, Query, Scan, GetItem,
//!   and per action (never summed over actions) TransactWriteItems (before any table, at the
//!   action's turn: an earlier action's syntax error comes first, a later one's after),
//!   TransactGetItems (after the Get's table) and BatchGetItem per table (after its table and its
//!   keys' shape).
//!
//! Also seen on Local: a name of 65,536 bytes or more is "ExpressionAttributeNames contains invalid
//! value: Attribute name is too large, must be less than 65536 bytes for key #b" (a check of the
//! map's own, before these caps); the engine's wire refuses it by the service model's constraint
//! on the map's values (at most 65,535), the `Backend` API takes it.
//!
//! Where the engine answers otherwise: it checks the maps' own faults and the expressions before
//! the table and the key (real DynamoDB's order; Local looks the table and the key up first), so a
//! request whose maps are over and whose table is missing gets Local's answer (the table), while
//! one whose maps are fine and whose expression is broken gets the expression's error before the
//! table; Scan's Segment without TotalSegments comes first in the engine (as for the expressions'
//! cap).
//!
//! PartiQL's statements are under neither this cap nor the expressions' (Local accepts their
//! parameters past 2 MiB; `expr::generated`): see `frontends/partiql/tests_caps.rs`.

use std::collections::BTreeMap;

use dynomodel::backend::{
    Backend, BatchGetItemInput, DeleteItemInput, GetItemInput, KeysAndAttributes, PutItemInput,
    QueryInput, ReturnValue, ScalarAttributeType as T, ScanInput, Select, TransactConditionCheck,
    TransactGet, TransactGetItemsInput, TransactPut, TransactUpdate, TransactWriteItem,
    UpdateItemInput,
};
use dynomodel::{AttributeValue, Error, Item};

use super::{
    assert_validation, backend_with, item, n, s, table_input, transact, INVALID, MISMATCH,
};
use crate::MemBackend;

/// Each cap, inclusive.
const CAP: usize = 2 * 1024 * 1024;

const NAMES: &str = "ExpressionAttributeNames exceeds max size";
const VALUES: &str = "ExpressionAttributeValues exceeds max size";
const COMBINED: &str =
    "Combined size of ExpressionAttributeNames and ExpressionAttributeValues exceeds max size";

/// Asserts anything but a refusal by the maps' caps.
#[track_caller]
fn assert_passes<T: std::fmt::Debug>(r: Result<T, Error>) {
    if let Err(Error::Validation { message }) = &r {
        assert!(!message.contains("exceeds max size"), "refused: {message}");
    }
}

/// Asserts the "unused" answer for `key` of the values map: what a map within its cap gets when
/// it carries the filler unused.
#[track_caller]
fn assert_unused_value<T: std::fmt::Debug>(r: Result<T, Error>, key: &str) {
    assert_validation(
        r,
        &format!(
            "Value provided in ExpressionAttributeValues unused in expressions: keys: {{{key}}}"
        ),
    );
}

/// `{":z": "1"}` (3 bytes) and an unused `:f` bringing the map to `total` bytes.
fn vals_at(total: usize) -> Item {
    item(&[(":z", s("1")), (":f", s(&"q".repeat(total - 3 - 2)))])
}

/// `{"#f": name}` of `total` bytes.
fn names_at(total: usize) -> BTreeMap<String, String> {
    [("#f".to_owned(), "n".repeat(total - 2))].into()
}

/// `hash` with a range key `sk` too when `range`, and the item `{pk: a}` in it.
async fn backend() -> MemBackend {
    let b = backend_with(table_input("tbl", T::S, None)).await;
    b.put_item(PutItemInput {
        table_name: "tbl".into(),
        item: key(),
        ..Default::default()
    })
    .await
    .expect("put");
    b
}

fn key() -> Item {
    item(&[("pk", s("a"))])
}

fn update(vals: Option<Item>, names: Option<BTreeMap<String, String>>) -> UpdateItemInput {
    UpdateItemInput {
        table_name: "tbl".into(),
        key: key(),
        update_expression: Some("SET z = :z".into()),
        expression_attribute_values: vals,
        expression_attribute_names: names,
        ..Default::default()
    }
}

#[tokio::test]
async fn each_map_and_the_two_together_at_the_bound() {
    let b = backend().await;
    assert_unused_value(b.update_item(update(Some(vals_at(CAP)), None)).await, ":f");
    assert_validation(
        b.update_item(update(Some(vals_at(CAP + 1)), None)).await,
        VALUES,
    );
    // Names alone (a REMOVE takes no values).
    let names = |total| UpdateItemInput {
        update_expression: Some("REMOVE z".into()),
        ..update(None, Some(names_at(total)))
    };
    assert_validation(
        b.update_item(names(CAP)).await,
        "Value provided in ExpressionAttributeNames unused in expressions: keys: {#f}",
    );
    assert_validation(b.update_item(names(CAP + 1)).await, NAMES);
    // Together: the sum, each within its own cap.
    let half = CAP / 2;
    let both = |v, n| update(Some(vals_at(v)), Some(names_at(n)));
    assert_passes(b.update_item(both(half, half)).await);
    assert_validation(b.update_item(both(half, half + 1)).await, COMBINED);
    assert_validation(b.update_item(both(half + 1, half)).await, COMBINED);
    // Both past: the names' first, then the values'.
    assert_validation(b.update_item(both(CAP + 1, CAP + 1)).await, NAMES);
    assert_validation(b.update_item(both(CAP + 1, 5)).await, VALUES);
    assert_validation(b.update_item(both(5, CAP + 1)).await, NAMES);
}

#[tokio::test]
async fn keys_count_their_bytes_and_values_their_item_size() {
    let b = backend().await;
    // A longer key, a name of multi-byte characters, a value of each type: at the bound and one
    // past it.
    let with = |extra: &[(&str, AttributeValue)], room: usize| {
        let mut v = vals_at(CAP - room);
        v.extend(item(extra));
        Some(v)
    };
    let cases: Vec<(&str, AttributeValue, usize)> = vec![
        (":long_key", s("ab"), 9 + 2),
        (":n", n("12345678901"), 2 + 7),
        (":n", n("-0.5"), 2 + 3),
        (":b", AttributeValue::B(b"0123456789".to_vec()), 2 + 10),
        (":t", AttributeValue::Bool(true), 2 + 1),
        (":u", AttributeValue::Null, 2 + 1),
        (":l", AttributeValue::L(vec![s("0123456789")]), 2 + 14),
        (
            ":m",
            AttributeValue::M(item(&[("abcdefghij", s("1"))])),
            2 + 15,
        ),
        (":s", super::ss(&["abc", "de"]), 2 + 5),
        (":e", s("é"), 2 + 2),
    ];
    for (k, v, size) in cases {
        let unused = b
            .update_item(update(with(&[(k, v.clone())], size), None))
            .await;
        assert!(
            matches!(&unused, Err(Error::Validation { message }) if message.contains("unused")),
            "{k} {v:?} at the bound: {unused:?}"
        );
        let over = update(with(&[(k, v.clone())], size - 1), None);
        assert_validation(b.update_item(over).await, VALUES);
    }
    let mut names = names_at(CAP - 2 - 4);
    names.insert("#e".into(), "éé".into());
    let remove = |names| UpdateItemInput {
        update_expression: Some("REMOVE z".into()),
        ..update(None, Some(names))
    };
    assert_passes(b.update_item(remove(names.clone())).await);
    names.insert("#e".into(), "ééx".into());
    assert_validation(b.update_item(remove(names)).await, NAMES);
}

#[tokio::test]
async fn every_item_operation_caps_its_maps() {
    let b = backend().await;
    let vals = |total| Some(vals_at(total));
    let put = |v| PutItemInput {
        table_name: "tbl".into(),
        item: item(&[("pk", s("b"))]),
        condition_expression: Some("z <> :z".into()),
        expression_attribute_values: v,
        ..Default::default()
    };
    assert_unused_value(b.put_item(put(vals(CAP))).await, ":f");
    assert_validation(b.put_item(put(vals(CAP + 1))).await, VALUES);
    let delete = |v| DeleteItemInput {
        table_name: "tbl".into(),
        key: key(),
        condition_expression: Some("z <> :z".into()),
        expression_attribute_values: v,
        ..Default::default()
    };
    assert_unused_value(b.delete_item(delete(vals(CAP))).await, ":f");
    assert_validation(b.delete_item(delete(vals(CAP + 1))).await, VALUES);
    let get = |total| GetItemInput {
        table_name: "tbl".into(),
        key: key(),
        projection_expression: Some("#g".into()),
        expression_attribute_names: Some({
            let mut names = names_at(total - 3);
            names.insert("#g".into(), "g".into());
            names
        }),
        ..Default::default()
    };
    assert_validation(
        b.get_item(get(CAP)).await,
        "Value provided in ExpressionAttributeNames unused in expressions: keys: {#f}",
    );
    assert_validation(b.get_item(get(CAP + 1)).await, NAMES);
    let query = |v| QueryInput {
        table_name: "tbl".into(),
        key_condition_expression: Some("pk = :z".into()),
        expression_attribute_values: v,
        ..Default::default()
    };
    assert_unused_value(b.query(query(vals(CAP))).await, ":f");
    assert_validation(b.query(query(vals(CAP + 1))).await, VALUES);
    let scan = |v| ScanInput {
        table_name: "tbl".into(),
        filter_expression: Some("z <> :z".into()),
        expression_attribute_values: v,
        ..Default::default()
    };
    assert_unused_value(b.scan(scan(vals(CAP))).await, ":f");
    assert_validation(b.scan(scan(vals(CAP + 1))).await, VALUES);
}

fn check(key: Item, vals: Item) -> TransactWriteItem {
    TransactWriteItem::ConditionCheck(TransactConditionCheck {
        table_name: "tbl".into(),
        key,
        condition_expression: "z <> :z".into(),
        expression_attribute_values: Some(vals),
        ..Default::default()
    })
}

#[tokio::test]
async fn transactions_cap_each_action_alone() {
    let b = backend().await;
    let other = item(&[("pk", s("b"))]);
    assert_unused_value(transact(&b, vec![check(key(), vals_at(CAP))]).await, ":f");
    assert_validation(
        transact(&b, vec![check(key(), vals_at(CAP + 1))]).await,
        VALUES,
    );
    let put = TransactWriteItem::Put(TransactPut {
        table_name: "tbl".into(),
        item: other.clone(),
        condition_expression: Some("z <> :z".into()),
        expression_attribute_values: Some(vals_at(CAP + 1)),
        ..Default::default()
    });
    assert_validation(transact(&b, vec![put]).await, VALUES);
    let update = |key: Item, text: &str, vals| {
        TransactWriteItem::Update(TransactUpdate {
            table_name: "tbl".into(),
            key,
            update_expression: text.into(),
            expression_attribute_values: Some(vals),
            ..Default::default()
        })
    };
    assert_validation(
        transact(&b, vec![update(key(), "SET z = :z", vals_at(CAP + 1))]).await,
        VALUES,
    );
    // Two actions of 1.5 MB each: not summed.
    let half = CAP * 3 / 4;
    let r = transact(
        &b,
        vec![
            check(key(), vals_at(half)),
            check(other.clone(), vals_at(half)),
        ],
    )
    .await;
    assert_unused_value(r, ":f");
    // At the action's turn: after an earlier action's syntax error, before a later one's, before
    // any table (a missing one, a key that does not match).
    let z = item(&[(":z", s("1"))]);
    let broken = || update(other.clone(), "SET z = = :z", z.clone());
    let syntax = "Invalid UpdateExpression: Syntax error; token: \"=\", near: \"= = :z\"";
    let over = || check(key(), vals_at(CAP + 1));
    assert_validation(transact(&b, vec![broken(), over()]).await, syntax);
    assert_validation(transact(&b, vec![over(), broken()]).await, VALUES);
    let missing = TransactWriteItem::ConditionCheck(TransactConditionCheck {
        table_name: "nope".into(),
        key: key(),
        condition_expression: "z <> :z".into(),
        expression_attribute_values: Some(z.clone()),
        ..Default::default()
    });
    assert_validation(transact(&b, vec![missing, over()]).await, VALUES);
    let keyless = check(item(&[("x", s("a"))]), vals_at(CAP + 1));
    assert_validation(transact(&b, vec![keyless]).await, VALUES);
    // The maps' own checks first.
    let mut empty = vals_at(CAP + 1);
    empty.insert(":e".into(), AttributeValue::Ss(Vec::new()));
    assert_validation(
        transact(&b, vec![check(key(), empty)]).await,
        &format!(
            "ExpressionAttributeValues contains invalid value: {INVALID}An string set  may not \
             be empty for key :e"
        ),
    );
}

#[tokio::test]
async fn reads_of_keys_cap_their_names() {
    let b = backend().await;
    let names = |total: usize| {
        let mut names = names_at(total - 3);
        names.insert("#g".into(), "g".into());
        Some(names)
    };
    let get = |table: &str, key: Item, total| TransactGet {
        table_name: table.into(),
        key,
        projection_expression: Some("#g".into()),
        expression_attribute_names: names(total),
    };
    let transact = |gets| TransactGetItemsInput {
        transact_items: gets,
        ..Default::default()
    };
    let unused_names = |r: Result<_, Error>| {
        assert_validation(
            r.map(|_: dynomodel::backend::TransactGetItemsOutput| ()),
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {#f}",
        );
    };
    unused_names(
        b.transact_get_items(transact(vec![get("tbl", key(), CAP)]))
            .await,
    );
    assert_validation(
        b.transact_get_items(transact(vec![get("tbl", key(), CAP + 1)]))
            .await,
        NAMES,
    );
    // Not summed over the Gets; after the Get's table.
    let other = item(&[("pk", s("b"))]);
    let halves = vec![
        get("tbl", key(), CAP / 2 + 8),
        get("tbl", other, CAP / 2 + 8),
    ];
    unused_names(b.transact_get_items(transact(halves)).await);
    let missing = b
        .transact_get_items(transact(vec![get("nope", key(), CAP + 1)]))
        .await;
    assert!(
        matches!(missing, Err(Error::ResourceNotFound { .. })),
        "{missing:?}"
    );
    // BatchGetItem: per table, after its table and its keys' shape.
    let batch = |table: &str, key: Item, total| BatchGetItemInput {
        request_items: [(
            table.to_owned(),
            KeysAndAttributes {
                keys: vec![key],
                projection_expression: Some("#g".into()),
                expression_attribute_names: names(total),
                ..Default::default()
            },
        )]
        .into(),
        ..Default::default()
    };
    assert_validation(
        b.batch_get_item(batch("tbl", key(), CAP)).await,
        "Value provided in ExpressionAttributeNames unused in expressions: keys: {#f}",
    );
    assert_validation(b.batch_get_item(batch("tbl", key(), CAP + 1)).await, NAMES);
    assert_validation(
        b.batch_get_item(batch("tbl", item(&[("x", s("a"))]), CAP + 1))
            .await,
        MISMATCH,
    );
    let missing = b.batch_get_item(batch("nope", key(), CAP + 1)).await;
    assert!(
        matches!(missing, Err(Error::ResourceNotFound { .. })),
        "{missing:?}"
    );
    // GetItem: after the table, before the key's shape.
    let get_item = |table: &str, key| GetItemInput {
        table_name: table.into(),
        key,
        projection_expression: Some("#g".into()),
        expression_attribute_names: names(CAP + 1),
        ..Default::default()
    };
    assert_validation(
        b.get_item(get_item("tbl", item(&[("x", s("a"))]))).await,
        NAMES,
    );
    let missing = b.get_item(get_item("nope", key())).await;
    assert!(
        matches!(missing, Err(Error::ResourceNotFound { .. })),
        "{missing:?}"
    );
}

#[tokio::test]
async fn what_comes_before_the_maps_caps() {
    let b = backend().await;
    let over = || Some(vals_at(CAP + 1));
    let missing = b
        .update_item(UpdateItemInput {
            table_name: "nope".into(),
            ..update(over(), None)
        })
        .await;
    assert!(
        matches!(missing, Err(Error::ResourceNotFound { .. })),
        "{missing:?}"
    );
    let mistyped = UpdateItemInput {
        key: item(&[("pk", n("1"))]),
        ..update(over(), None)
    };
    assert_validation(b.update_item(mistyped).await, MISMATCH);
    let put = |item, return_values| PutItemInput {
        table_name: "tbl".into(),
        item,
        condition_expression: Some("z <> :z".into()),
        expression_attribute_values: over(),
        return_values,
        ..Default::default()
    };
    assert_validation(
        b.put_item(put(key(), Some(ReturnValue::UpdatedNew))).await,
        "Return values set to invalid value",
    );
    let large = item(&[("pk", s("b")), ("x", s(&"x".repeat(410_000)))]);
    assert_validation(
        b.put_item(put(large, None)).await,
        "Item size has exceeded the maximum allowed size",
    );
    assert_validation(
        b.put_item(put(item(&[("x", s("b"))]), None)).await,
        &format!("{INVALID}Missing the key pk in the item"),
    );
    // The maps' own checks.
    let with = |k: &str, v| {
        let mut vals = vals_at(CAP + 1);
        vals.insert(k.into(), v);
        Some(vals)
    };
    let invalid_value = |detail: &str| {
        format!("ExpressionAttributeValues contains invalid value: {INVALID}{detail} for key :e")
    };
    assert_validation(
        b.update_item(update(with(":e", super::ss(&["x", "x"])), None))
            .await,
        &invalid_value("Input collection [x, x] contains duplicates."),
    );
    assert_validation(
        b.update_item(update(with(":e", AttributeValue::Ss(Vec::new())), None))
            .await,
        &invalid_value("An string set  may not be empty"),
    );
    assert_validation(
        b.update_item(update(with("e", s("1")), None)).await,
        "ExpressionAttributeValues contains invalid key: Syntax error; key: \"e\"",
    );
    let empty_name = update(over(), Some([("#x".to_owned(), String::new())].into()));
    assert_validation(
        b.update_item(empty_name).await,
        "ExpressionAttributeNames contains invalid value: Empty attribute name for key #x",
    );
    // Names over, an empty set among the values.
    let mut vals = item(&[(":z", s("1"))]);
    vals.insert(":e".into(), AttributeValue::Ss(Vec::new()));
    assert_validation(
        b.update_item(update(Some(vals), Some(names_at(CAP + 1))))
            .await,
        &invalid_value("An string set  may not be empty"),
    );
}

#[tokio::test]
async fn what_comes_after_the_maps_caps() {
    let b = backend().await;
    let over = || Some(vals_at(CAP + 1));
    let text = |update_expression: &str| UpdateItemInput {
        update_expression: Some(update_expression.into()),
        ..update(over(), None)
    };
    // The expressions' errors: syntax, an undefined placeholder, the unused values, the cap on
    // what one expression substitutes (`:f` used), an update of the key, a failed condition.
    for expression in [
        "SET z = = :z",
        "SET z = :nope",
        "SET z = :z",
        "SET z = :f",
        "SET pk = :z",
        "SET z = :z, y = :f",
    ] {
        assert_validation(b.update_item(text(expression)).await, VALUES);
    }
    let failing = UpdateItemInput {
        condition_expression: Some("attribute_not_exists(pk) AND z <> :f".into()),
        ..update(over(), None)
    };
    assert_validation(b.update_item(failing).await, VALUES);
    // Query: after the table and the index, before its key condition's checks, Select and the
    // start key.
    let query = |table: &str, index: Option<&str>, condition: &str| QueryInput {
        table_name: table.into(),
        index_name: index.map(Into::into),
        key_condition_expression: Some(condition.into()),
        expression_attribute_values: over(),
        ..Default::default()
    };
    let missing = b.query(query("nope", None, "pk = :z")).await;
    assert!(
        matches!(missing, Err(Error::ResourceNotFound { .. })),
        "{missing:?}"
    );
    assert_validation(
        b.query(query("tbl", Some("nope"), "pk = :z")).await,
        "The table does not have the specified index: nope",
    );
    for condition in ["pk = = :z", "zz = :z", "pk = :z AND pk = :z", "pk = :f"] {
        assert_validation(b.query(query("tbl", None, condition)).await, VALUES);
    }
    let select = QueryInput {
        select: Some(Select::Count),
        projection_expression: Some("a".into()),
        ..query("tbl", None, "pk = :z")
    };
    assert_validation(b.query(select).await, VALUES);
    let start = QueryInput {
        exclusive_start_key: Some(item(&[("zz", s("1"))])),
        ..query("tbl", None, "pk = :z")
    };
    assert_validation(b.query(start).await, VALUES);
    // Scan: after the table, before its filter's checks.
    let scan = |table: &str, filter: &str| ScanInput {
        table_name: table.into(),
        filter_expression: Some(filter.into()),
        expression_attribute_values: over(),
        ..Default::default()
    };
    let missing = b.scan(scan("nope", "z <> :z")).await;
    assert!(
        matches!(missing, Err(Error::ResourceNotFound { .. })),
        "{missing:?}"
    );
    assert_validation(b.scan(scan("tbl", "z <> = :z")).await, VALUES);
    assert_validation(
        b.scan(ScanInput {
            segment: Some(1),
            ..scan("tbl", "z <> :z")
        })
        .await,
        "The TotalSegments parameter is required but was not present in the request when Segment parameter is present",
    );
}
