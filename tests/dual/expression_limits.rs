//! How deep an expression may nest. DynamoDB has no nesting limit of its
//! own: 300 operators and 4 KB of text bound a condition, and 32 levels a document path, in every
//! expression kind. The deepest texts 4 KB can hold are answered, not a crash (the engine's parser,
//! validator and evaluator are stack-safe).

use dynomodel::backend::*;

use super::requests::*;
use super::*;

/// `open` × `depth`, `inner`, `close` × `depth`.
fn nest(open: &str, inner: &str, close: &str, depth: usize) -> String {
    format!("{}{inner}{}", open.repeat(depth), close.repeat(depth))
}

const TOO_MANY_OPERATORS: &str = "The expression contains too many operators; operator count: 301";

dual_test!(
    conditions_nest_as_deep_as_three_hundred_operators_allow,
    |t| {
        let f = Fixture::new(&t, "deep").await;
        let b = t.backend();
        let mut c = Checks::new(&t);
        let put = |condition: String| PutItemInput {
            table_name: f.table.clone(),
            item: Fixture::key("a"),
            condition_expression: Some(condition),
            ..Default::default()
        };
        // 149 nested `a<b or (…)`: 299 operators, accepted (and false on a missing item).
        let r = b.put_item(put(nest("a<b or (", "a<b", ")", 149))).await;
        c.error(
            "149 nested ORs",
            r,
            "ConditionalCheckFailedException",
            "The conditional request failed",
        );
        let r = b.put_item(put(nest("a<b or (", "a<b", ")", 150))).await;
        c.error(
            "150 nested ORs",
            r,
            "ValidationException",
            &format!("Invalid ConditionExpression: {TOO_MANY_OPERATORS}"),
        );
        // 299 NOTs of a false comparison, bare or each in parentheses: true.
        for (what, condition) in [
            ("299 NOTs", format!("{}a<b", "NOT ".repeat(299))),
            ("299 (NOT …)", nest("(NOT ", "a<b", ")", 299)),
        ] {
            let r = b.put_item(put(condition)).await.map(|_| ());
            c.eq(what, r, Ok(()));
        }
        // As deep as 4 KB goes: refused for what they are, not for their depth.
        let r = b.put_item(put(format!("{}a<b", "NOT ".repeat(1000)))).await;
        c.error(
            "1000 NOTs",
            r,
            "ValidationException",
            &format!("Invalid ConditionExpression: {TOO_MANY_OPERATORS}"),
        );
        let r = b.put_item(put(nest("(", "a<b", ")", 2000))).await;
        c.error(
            "2000 parentheses",
            r,
            "ValidationException",
            "Invalid ConditionExpression: The expression has redundant parentheses;",
        );
        // A SET value: 200 nested calls, each argument in parentheses, are valid; arithmetic does not
        // nest.
        let mut up = f.update(
            "u",
            &format!("SET a = {}", nest("if_not_exists(a, (", ":v", "))", 200)),
        );
        up.expression_attribute_values = values([(":v", num("1"))]);
        let r = f.updated(up).await.map(|i| i.get("a").cloned());
        c.eq("200 nested if_not_exists", r, Ok(Some(num("1"))));
        let mut up = f.update("u", &format!("SET a = {}", nest(":v + (", ":v", ")", 2)));
        up.expression_attribute_values = values([(":v", num("1"))]);
        c.error(
            "nested arithmetic",
            b.update_item(up).await,
            "ValidationException",
            "Invalid UpdateExpression: Syntax error; token: \"+\", near: \":v + (\"",
        );
        c.finish();
    }
);

dual_test!(document_paths_nest_up_to_32_levels, |t| {
    let f = Fixture::new(&t, "paths").await;
    let b = t.backend();
    let mut c = Checks::new(&t);
    let deep = |levels: usize| format!("a{}", ".b".repeat(levels - 1));
    let too_deep = |kind: &str| {
        format!("Invalid {kind}: The document path has too many nesting levels; nesting levels: 33")
    };
    let get = |projection: String| GetItemInput {
        table_name: f.table.clone(),
        key: Fixture::key("a"),
        projection_expression: Some(projection),
        ..Default::default()
    };
    let r = b.get_item(get(deep(32))).await.map(|o| o.item);
    c.eq("a projection of 32 levels", r, Ok(None));
    let r = b.get_item(get(deep(33))).await;
    c.error(
        "a projection of 33 levels",
        r,
        "ValidationException",
        &too_deep("ProjectionExpression"),
    );
    let r = b.get_item(get(format!("a{}", "[0]".repeat(32)))).await;
    c.error(
        "32 indexes after a name",
        r,
        "ValidationException",
        &too_deep("ProjectionExpression"),
    );
    let r = b
        .put_item(PutItemInput {
            table_name: f.table.clone(),
            item: Fixture::key("a"),
            condition_expression: Some(format!("attribute_not_exists({})", deep(33))),
            ..Default::default()
        })
        .await;
    c.error(
        "a condition path of 33 levels",
        r,
        "ValidationException",
        &too_deep("ConditionExpression"),
    );
    let r = b
        .update_item(f.update("a", &format!("REMOVE {}", deep(33))))
        .await;
    c.error(
        "an update path of 33 levels",
        r,
        "ValidationException",
        &too_deep("UpdateExpression"),
    );
    let r = b
        .scan(ScanInput {
            table_name: f.table.clone(),
            filter_expression: Some(format!("attribute_exists({})", deep(33))),
            ..Default::default()
        })
        .await;
    c.error(
        "a filter path of 33 levels",
        r,
        "ValidationException",
        &too_deep("FilterExpression"),
    );
    c.finish();
});
