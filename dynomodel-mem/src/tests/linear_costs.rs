//! Requests whose cost used to grow with the square of their size (one such request stalled the
//! server), at sizes where the quadratic step took from seconds to minutes in a test build: each must
//! get DynamoDB's answer. Their cost is not timed here (a timed test fails on a busy machine, not on
//! a slow build): `benches/request_scaling.rs` measures every size dimension of a request by doubling
//! it, and a quadratic step coming back would show as these tests taking minutes.

use std::collections::BTreeMap;

use dynomodel::backend::{
    Backend, ComparisonOperator, GetItemInput, LegacyCondition, PutItemInput, QueryInput,
    ScalarAttributeType, UpdateItemInput,
};
use dynomodel::AttributeValue;

use super::{backend_with, item, s, table_input, values};
use crate::MemBackend;

/// A table `tbl` (hash key `pk`, a string) holding `items`.
fn backend(items: Vec<dynomodel::Item>) -> MemBackend {
    block_on(async {
        let backend = backend_with(table_input("tbl", ScalarAttributeType::S, None)).await;
        for item in items {
            let put = PutItemInput {
                table_name: "tbl".into(),
                item,
                ..Default::default()
            };
            backend.put_item(put).await.expect("put");
        }
        backend
    })
}

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(future)
}

fn key() -> dynomodel::Item {
    item(&[("pk", s("k"))])
}

#[test]
fn hundreds_of_thousands_of_unused_placeholders_are_reported_at_once() {
    // 120,000 names, all but one unused: removing duplicates from the unused ones by scanning those
    // kept so far took 47.6 s for 100,000 in a release build (the figures). 1.7 MB of
    // names, within the map's cap (`tests::map_cap`).
    let backend = backend(vec![key()]);
    let names: BTreeMap<String, String> = (0..120_000)
        .map(|i| (format!("#n{i}"), format!("a{i}")))
        .collect();
    let get = GetItemInput {
        table_name: "tbl".into(),
        key: key(),
        projection_expression: Some("#n0".into()),
        expression_attribute_names: Some(names),
        ..Default::default()
    };
    let error = block_on(backend.get_item(get)).unwrap_err();
    let message = error.message();
    assert!(
        message.starts_with(
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {#n"
        ),
        "{}",
        &message[..100]
    );
    assert_eq!(message.matches("#n").count(), 119_999);
}

#[test]
fn a_long_attributes_to_get_is_checked_for_duplicates_in_linear_time() {
    // 100,000 names, the last a duplicate: each was compared with all those before it.
    let backend = backend(vec![key()]);
    let mut attributes: Vec<String> = (0..100_000).map(|i| format!("a{i}")).collect();
    attributes.push("a0".into());
    let get = GetItemInput {
        table_name: "tbl".into(),
        key: key(),
        attributes_to_get: Some(attributes),
        ..Default::default()
    };
    let error = block_on(backend.get_item(get)).unwrap_err();
    assert_eq!(
        error.message(),
        "One or more parameter values were invalid: Duplicate value in attribute name: a0"
    );
}

#[test]
fn key_conditions_with_the_requests_own_placeholders_in_linear_time() {
    // KeyConditions with a FilterExpression whose 100,000 placeholders are the very names the
    // earlier text translation generated (#legacy0, #legacy1, …): each generated name was looked for
    // by a scan. The trees need no names of their own; the request's are checked as always.
    let backend = backend(vec![key()]);
    let names: BTreeMap<String, String> = (0..100_000)
        .map(|i| (format!("#legacy{i}"), format!("a{i}")))
        .collect();
    let key_condition = LegacyCondition {
        comparison_operator: ComparisonOperator::Eq,
        attribute_value_list: Some(vec![s("k")]),
    };
    let query = QueryInput {
        table_name: "tbl".into(),
        key_conditions: Some([("pk".to_owned(), key_condition)].into()),
        filter_expression: Some("attribute_exists(#legacy0)".into()),
        expression_attribute_names: Some(names),
        ..Default::default()
    };
    let error = block_on(backend.query(query)).unwrap_err();
    assert!(
        error
            .message()
            .starts_with("Value provided in ExpressionAttributeNames unused"),
        "{}",
        &error.message()[..100]
    );
}

/// An update of item `k`'s string set `s`: `ADD` or `DELETE` of `elements`.
fn set_update(action: &str, elements: Vec<String>) -> UpdateItemInput {
    UpdateItemInput {
        table_name: "tbl".into(),
        key: key(),
        update_expression: Some(format!("{action} s :s")),
        expression_attribute_values: values(&[(":s", AttributeValue::Ss(elements))]),
        ..Default::default()
    }
}

#[test]
fn adding_to_and_deleting_from_large_sets_is_linear() {
    // A set of 25,000 elements (one 400 KB item holds that many), and as many added, then deleted:
    // each element of one set was looked for by a scan of the other.
    let stored: Vec<String> = (0..25_000).map(|i| format!("e{i}")).collect();
    let backend = backend(vec![item(&[
        ("pk", s("k")),
        ("s", AttributeValue::Ss(stored.clone())),
    ])]);
    let added: Vec<String> = (0..25_000).map(|i| format!("f{i}")).collect();
    let after = block_on(async {
        backend
            .update_item(set_update("ADD", added.clone()))
            .await
            .expect("add");
        backend
            .update_item(set_update("DELETE", added))
            .await
            .expect("delete");
        let get = GetItemInput {
            table_name: "tbl".into(),
            key: key(),
            ..Default::default()
        };
        backend.get_item(get).await.expect("get").item
    });
    let set = after.and_then(|mut i| i.remove("s"));
    assert_eq!(set, Some(AttributeValue::Ss(stored)));
}

#[test]
fn contains_on_a_long_binary_is_linear() {
    // A 390 KB binary of zeros searched for 195 KB of zeros ending in a one: the needle was compared
    // at every offset, 38 billion byte comparisons (seconds even with `memcmp`; now milliseconds).
    let haystack = vec![0u8; 390_000];
    let mut needle = vec![0u8; 195_000];
    needle.push(1);
    let backend = backend(vec![item(&[
        ("pk", s("k")),
        ("b", AttributeValue::B(haystack)),
    ])]);
    let put = PutItemInput {
        table_name: "tbl".into(),
        item: key(),
        condition_expression: Some("contains(b, :n)".into()),
        expression_attribute_values: values(&[(":n", AttributeValue::B(needle))]),
        ..Default::default()
    };
    let error = block_on(backend.put_item(put)).unwrap_err();
    assert_eq!(error.code(), "ConditionalCheckFailedException");
}

#[test]
fn a_projection_of_one_long_name_repeated_reports_one_overlap() {
    // 680 paths (what fits in 4 KB) naming one 64 KB attribute: every pair overlaps, and a message
    // quoting both 64 KB paths was formatted for each of the 230,000 pairs.
    let backend = backend(vec![key()]);
    let long = "x".repeat(64 * 1024);
    let projection = vec!["#a"; 680].join(", ");
    let get = GetItemInput {
        table_name: "tbl".into(),
        key: key(),
        projection_expression: Some(projection),
        expression_attribute_names: Some([("#a".to_owned(), long.clone())].into()),
        ..Default::default()
    };
    let error = block_on(backend.get_item(get)).unwrap_err();
    let expected = format!(
        "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or \
         rewrite one of these paths; path one: [{long}], path two: [{long}]"
    );
    assert!(error.message() == expected, "{}", &error.message()[..120]);
}

#[test]
fn legacy_parameters_of_any_length_are_linear() {
    // Legacy parameters have no expression limits: their translations run to
    // megabytes, through every step an expression takes.
    const COUNT: usize = 50_000;
    let backend = backend(vec![key()]);
    let names = || (0..COUNT).map(|i| format!("a{i}"));
    let absent = dynomodel::backend::ExpectedAttributeValue {
        exists: Some(false),
        ..Default::default()
    };
    let put = PutItemInput {
        table_name: "tbl".into(),
        item: key(),
        expected: Some(names().map(|n| (n, absent.clone())).collect()),
        ..Default::default()
    };
    // 20,000 one-byte attributes: an item of 200 KB.
    let update = UpdateItemInput {
        table_name: "tbl".into(),
        key: key(),
        attribute_updates: Some(
            names()
                .take(20_000)
                .map(|n| {
                    let put = dynomodel::backend::AttributeValueUpdate {
                        value: Some(s("v")),
                        action: Some(dynomodel::backend::AttributeAction::Put),
                    };
                    (n, put)
                })
                .collect(),
        ),
        return_values: Some(dynomodel::backend::ReturnValue::UpdatedNew),
        ..Default::default()
    };
    let scan = dynomodel::backend::ScanInput {
        table_name: "tbl".into(),
        scan_filter: Some(
            names()
                .map(|n| {
                    let c = LegacyCondition {
                        comparison_operator: ComparisonOperator::NotNull,
                        attribute_value_list: None,
                    };
                    (n, c)
                })
                .collect(),
        ),
        conditional_operator: Some(dynomodel::backend::ConditionalOperator::Or),
        ..Default::default()
    };
    let get = GetItemInput {
        table_name: "tbl".into(),
        key: key(),
        attributes_to_get: Some(names().collect()),
        ..Default::default()
    };
    let (put, update, scan, get) = block_on(async {
        (
            backend.put_item(put).await.map(|_| ()),
            backend
                .update_item(update)
                .await
                .map(|o| o.attributes.map(|a| a.len())),
            backend.scan(scan).await.map(|o| o.count),
            backend.get_item(get).await.map(|o| o.item.map(|i| i.len())),
        )
    });
    assert_eq!(put, Ok(()));
    assert_eq!(update, Ok(Some(20_000)));
    assert_eq!(scan, Ok(1));
    assert_eq!(get, Ok(Some(20_000)));
}
