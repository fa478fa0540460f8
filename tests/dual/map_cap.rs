//! The caps on the placeholder maps themselves: each of `ExpressionAttributeNames` and
//! `ExpressionAttributeValues`, and the two together, at most 2,097,152 bytes (a map measured as its
//! keys' bytes, `#` or `:` included, plus each name's bytes or each value's size by the item-size
//! rule). DynamoDB Local 3.3.1's bound is the docs' 2 MB, so all three targets answer alike at it
//! and past it; the engine's unit tests (`dynomodel-mem/src/tests/map_cap.rs`) hold the measure
//! per type, every operation and the order, and say where the engine's order differs from Local's.
//! PartiQL's parameters are under neither cap, on Local as on the engine (`partiql_caps.rs`).

use dynomodel::backend::*;

use super::requests::*;
use super::*;

/// Each cap, inclusive.
const CAP: usize = 2 * 1024 * 1024;

const NAMES: &str = "ExpressionAttributeNames exceeds max size";
const VALUES: &str = "ExpressionAttributeValues exceeds max size";
const COMBINED: &str =
    "Combined size of ExpressionAttributeNames and ExpressionAttributeValues exceeds max size";

/// DynamoDB Local's words for every missing table.
const LOCAL_NOT_FOUND: &str = "Cannot do operations on a non-existent table";

/// `{":z": "1"}` (3 bytes) and `:f`, unused, bringing the map to `total`.
fn vals_at(total: usize) -> Option<ExpressionAttributeValues> {
    values([(":z", s("1")), (":f", s(&"q".repeat(total - 3 - 2)))])
}

/// Names `#f00`, `#f01`… (each within a name's 65,535 bytes) of `total` bytes with their keys.
fn names_at(total: usize) -> Option<ExpressionAttributeNames> {
    let count = total.div_ceil(60_000);
    let mut left = total;
    Some(
        (0..count)
            .map(|i| {
                let share = left / (count - i);
                left -= share;
                (format!("#f{i:02}"), "n".repeat(share - 4))
            })
            .collect(),
    )
}

/// The message of an error, or "ok".
fn answer<T>(r: dynomodel::Result<T>) -> String {
    match r {
        Ok(_) => "ok".to_owned(),
        Err(e) => format!("{}: {}", e.code(), e.message()),
    }
}

/// Whether `r` is the refusal of an unused placeholder of this map (past every cap).
fn unused<T>(r: dynomodel::Result<T>, map: &str) -> bool {
    answer(r).starts_with(&format!(
        "ValidationException: Value provided in {map} unused in expressions"
    ))
}

dual_test!(each_map_and_the_two_together_at_two_mib, |t| {
    let f = Fixture::new(&t, "mapcap").await;
    f.put(Fixture::key("a")).await;
    let b = t.backend();
    let mut c = Checks::new(&t);
    let update = |vals, names| UpdateItemInput {
        expression_attribute_values: vals,
        expression_attribute_names: names,
        ..f.update("a", "SET z = :z")
    };
    let r = b.update_item(update(vals_at(CAP), None)).await;
    c.error(
        "values at the cap",
        r,
        "ValidationException",
        "Value provided in ExpressionAttributeValues unused in expressions: keys: {:f}",
    );
    let r = b.update_item(update(vals_at(CAP + 1), None)).await;
    c.error("values past it", r, "ValidationException", VALUES);
    let remove = |names| UpdateItemInput {
        expression_attribute_names: names,
        ..f.update("a", "REMOVE z")
    };
    let r = b.update_item(remove(names_at(CAP))).await;
    c.eq(
        "names at the cap",
        unused(r, "ExpressionAttributeNames"),
        true,
    );
    let r = b.update_item(remove(names_at(CAP + 1))).await;
    c.error("names past it", r, "ValidationException", NAMES);
    // The two together, each within its own cap.
    let half = CAP / 2;
    let r = b.update_item(update(vals_at(half), names_at(half))).await;
    c.eq(
        "the sum at the cap",
        unused(r, "ExpressionAttributeNames"),
        true,
    );
    let r = b
        .update_item(update(vals_at(half), names_at(half + 1)))
        .await;
    c.error("the sum past it", r, "ValidationException", COMBINED);
    // Past several: the names', then the values'.
    let r = b
        .update_item(update(vals_at(CAP + 1), names_at(CAP + 1)))
        .await;
    c.error("both past", r, "ValidationException", NAMES);
    let r = b
        .update_item(update(vals_at(CAP + 1), names_at(half)))
        .await;
    c.error("values and the sum past", r, "ValidationException", VALUES);
    c.finish();
});

dual_test!(every_operation_caps_its_maps, |t| {
    let f = Fixture::new(&t, "mapops").await;
    f.put(Fixture::key("a")).await;
    let b = t.backend();
    let mut c = Checks::new(&t);
    let over = || vals_at(CAP + 1);
    let r = b
        .put_item(PutItemInput {
            table_name: f.table.clone(),
            item: Fixture::key("b"),
            condition_expression: Some("z <> :z".into()),
            expression_attribute_values: over(),
            ..Default::default()
        })
        .await;
    c.error("PutItem", r, "ValidationException", VALUES);
    let r = b
        .delete_item(DeleteItemInput {
            table_name: f.table.clone(),
            key: Fixture::key("a"),
            condition_expression: Some("z <> :z".into()),
            expression_attribute_values: over(),
            ..Default::default()
        })
        .await;
    c.error("DeleteItem", r, "ValidationException", VALUES);
    let r = b
        .query(QueryInput {
            table_name: f.table.clone(),
            key_condition_expression: Some("pk = :z".into()),
            expression_attribute_values: over(),
            ..Default::default()
        })
        .await;
    c.error("Query", r, "ValidationException", VALUES);
    let r = b
        .scan(ScanInput {
            table_name: f.table.clone(),
            filter_expression: Some("z <> :z".into()),
            expression_attribute_values: over(),
            ..Default::default()
        })
        .await;
    c.error("Scan", r, "ValidationException", VALUES);
    // The reads by key: names.
    let names = || {
        let mut names = names_at(CAP + 1 - 3).unwrap();
        names.insert("#g".into(), "g".into());
        Some(names)
    };
    let r = b
        .get_item(GetItemInput {
            table_name: f.table.clone(),
            key: Fixture::key("a"),
            projection_expression: Some("#g".into()),
            expression_attribute_names: names(),
            ..Default::default()
        })
        .await;
    c.error("GetItem", r, "ValidationException", NAMES);
    let r = b
        .transact_get_items(TransactGetItemsInput {
            transact_items: vec![TransactGet {
                table_name: f.table.clone(),
                key: Fixture::key("a"),
                projection_expression: Some("#g".into()),
                expression_attribute_names: names(),
            }],
            ..Default::default()
        })
        .await;
    c.error("TransactGetItems", r, "ValidationException", NAMES);
    let r = b
        .batch_get_item(BatchGetItemInput {
            request_items: [(
                f.table.clone(),
                KeysAndAttributes {
                    keys: vec![Fixture::key("a")],
                    projection_expression: Some("#g".into()),
                    expression_attribute_names: names(),
                    ..Default::default()
                },
            )]
            .into(),
            ..Default::default()
        })
        .await;
    c.error("BatchGetItem", r, "ValidationException", NAMES);
    // A transaction: each action alone (two of 1.5 MB pass), before any table is looked up.
    let check = |table: String, pk: &str, vals| {
        TransactWriteItem::ConditionCheck(TransactConditionCheck {
            table_name: table,
            key: Fixture::key(pk),
            condition_expression: "z <> :z".into(),
            expression_attribute_values: vals,
            ..Default::default()
        })
    };
    let transact = |actions| TransactWriteItemsInput {
        transact_items: actions,
        ..Default::default()
    };
    let three_quarters = CAP * 3 / 4;
    let r = b
        .transact_write_items(transact(vec![
            check(f.table.clone(), "a", vals_at(three_quarters)),
            check(f.table.clone(), "b", vals_at(three_quarters)),
        ]))
        .await;
    c.eq(
        "two actions within",
        unused(r, "ExpressionAttributeValues"),
        true,
    );
    let r = b
        .transact_write_items(transact(vec![check(
            format!("{}-missing", f.table),
            "a",
            over(),
        )]))
        .await;
    c.error("TransactWriteItems", r, "ValidationException", VALUES);
    c.finish();
});

dual_test!(what_comes_before_and_after_the_maps_caps, |t| {
    let f = Fixture::new(&t, "maporder").await;
    f.put(Fixture::key("a")).await;
    let b = t.backend();
    let mut c = Checks::new(&t);
    let with = |expression: &str, extra: Option<(&str, AttributeValue)>| {
        let mut vals = vals_at(CAP + 1).unwrap();
        vals.extend(extra.map(|(k, v)| (k.to_owned(), v)));
        UpdateItemInput {
            expression_attribute_values: Some(vals),
            ..f.update("a", expression)
        }
    };
    // Before: the table, the maps' own checks.
    let r = b
        .update_item(UpdateItemInput {
            table_name: format!("{}-missing", f.table),
            ..with("SET z = :z", None)
        })
        .await;
    // KNOWN DIFFERENCE: DynamoDB Local words every missing table alike.
    c.error_differs(
        "missing table",
        r,
        "ResourceNotFoundException",
        "Requested resource not found",
        LOCAL_NOT_FOUND,
    );
    let r = b
        .update_item(with("SET z = :z", Some((":e", ss([])))))
        .await;
    c.error(
        "an empty set",
        r,
        "ValidationException",
        "ExpressionAttributeValues contains invalid value: One or more parameter values were \
         invalid: An string set  may not be empty for key :e",
    );
    // After: the expressions' checks, the cap on what one substitutes, the key attribute, the
    // condition.
    for expression in [
        "SET z = = :z",
        "SET z = :nope",
        "SET z = :z, y = :f",
        "SET pk = :z",
    ] {
        let r = b.update_item(with(expression, None)).await;
        c.error(expression, r, "ValidationException", VALUES);
    }
    let r = b
        .update_item(UpdateItemInput {
            condition_expression: Some("attribute_not_exists(pk)".into()),
            ..with("SET z = :z, y = :f", None)
        })
        .await;
    c.error("a failing condition", r, "ValidationException", VALUES);
    c.finish();
});
