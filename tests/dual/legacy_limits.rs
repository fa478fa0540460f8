//! The legacy parameters are not expressions, so DynamoDB's limits on expressions
//! (4 KB of text, 300 operators, 100 `IN` operands) do not apply to them, however long the
//! expression the engine translates them into. DynamoDB Local 3.3.1 agrees.

use dynomodel::backend::*;
use dynomodel::*;

use super::legacy::{cond, entries};
use super::requests::*;
use super::*;

/// `count` attribute names long enough that their translation is over 4 KB.
fn names(count: usize) -> Vec<String> {
    (0..count)
        .map(|i| format!("attribute_name_{i:03}"))
        .collect()
}

/// A `QueryFilter`/`ScanFilter` of `count` conditions `attribute_i = "v"`, ANDed: 2 × `count` - 1
/// operators.
fn filter(count: usize) -> Conditions {
    names(count)
        .into_iter()
        .map(|n| (n, cond(ComparisonOperator::Eq, Some(vec![s("v")]))))
        .collect()
}

dual_test!(legacy_parameters_have_no_expression_limits, |t| {
    let f = Fixture::new(&t, "leglim").await;
    let b = t.backend();
    let mut c = Checks::new(&t);
    let attributes = names(200);

    // 200 PUTs: as expression text (`SET #p0 = :v0, …`) about 5 KB, over the limit on expressions.
    let puts: AttributeUpdates = attributes
        .iter()
        .map(|n| {
            let put = AttributeValueUpdate {
                value: Some(s("v")),
                action: Some(AttributeAction::Put),
            };
            (n.clone(), put)
        })
        .collect();
    let r = b
        .update_item(UpdateItemInput {
            table_name: f.table.clone(),
            key: Fixture::key("a"),
            attribute_updates: Some(puts),
            ..Default::default()
        })
        .await
        .map(|_| ());
    c.eq("AttributeUpdates, 200 PUTs", r, Ok(()));
    let stored = f.get("a").await.unwrap_or_default();
    c.eq("the 200 attributes stored", stored.len(), 201);

    // 200 list ADDs: `list_append(if_not_exists(…), …)` each, 400 functions.
    let appends: AttributeUpdates = attributes
        .iter()
        .map(|n| {
            let add = AttributeValueUpdate {
                value: Some(list([s("x")])),
                action: Some(AttributeAction::Add),
            };
            (format!("l_{n}"), add)
        })
        .collect();
    let r = b
        .update_item(UpdateItemInput {
            table_name: f.table.clone(),
            key: Fixture::key("a"),
            attribute_updates: Some(appends),
            ..Default::default()
        })
        .await
        .map(|_| ());
    c.eq("AttributeUpdates, 200 list ADDs", r, Ok(()));

    // 200 Expected entries, ANDed: 399 operators over 4 KB.
    let expected: Expected = attributes
        .iter()
        .map(|n| {
            let holds = ExpectedAttributeValue {
                value: Some(s("v")),
                ..Default::default()
            };
            (n.clone(), holds)
        })
        .collect();
    let r = b
        .put_item(PutItemInput {
            table_name: f.table.clone(),
            item: stored.clone(),
            expected: Some(expected),
            ..Default::default()
        })
        .await
        .map(|_| ());
    c.eq("PutItem, 200 Expected entries", r, Ok(()));

    // ScanFilter and QueryFilter of 200 conditions; an IN of 101 values.
    let scanned = b
        .scan(ScanInput {
            table_name: f.table.clone(),
            scan_filter: Some(filter(200)),
            ..Default::default()
        })
        .await
        .map(|o| o.count);
    c.eq("Scan, 200 ScanFilter conditions", scanned, Ok(1));
    let queried = b
        .query(QueryInput {
            table_name: f.table.clone(),
            key_conditions: Some(entries([(
                "pk",
                cond(ComparisonOperator::Eq, Some(vec![s("a")])),
            )])),
            query_filter: Some(filter(200)),
            ..Default::default()
        })
        .await
        .map(|o| o.count);
    c.eq("Query, 200 QueryFilter conditions", queried, Ok(1));
    let within: Vec<AttributeValue> = (0..101).map(|i| s(&format!("w{i}"))).collect();
    let scanned = b
        .scan(ScanInput {
            table_name: f.table.clone(),
            scan_filter: Some(entries([(
                "attribute_name_000",
                cond(ComparisonOperator::In, Some(within)),
            )])),
            ..Default::default()
        })
        .await
        .map(|o| o.count);
    c.eq("Scan, IN of 101 values", scanned, Ok(0));

    // 600 AttributesToGet: as expression text (`#p0, #p1, …`) about 7 KB.
    let read = b
        .get_item(GetItemInput {
            table_name: f.table.clone(),
            key: Fixture::key("a"),
            attributes_to_get: Some(names(600)),
            ..Default::default()
        })
        .await
        .map(|o| o.item.map(|i| i.len()));
    c.eq("GetItem, 600 AttributesToGet", read, Ok(Some(200)));

    // The same condition written as the request's own ConditionExpression is refused.
    let comparisons: Vec<String> = attributes.iter().map(|n| format!("{n} = :v")).collect();
    let text = comparisons.join(" AND ");
    let r = b
        .put_item(PutItemInput {
            table_name: f.table.clone(),
            item: stored,
            condition_expression: Some(text.clone()),
            expression_attribute_values: Some(item([(":v", s("v"))])),
            ..Default::default()
        })
        .await;
    c.error(
        "the same condition written as a ConditionExpression",
        r,
        "ValidationException",
        &format!(
            "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; \
             expression size: {}",
            text.len()
        ),
    );
    c.finish();
});
