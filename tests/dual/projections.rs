//! GetItem projections — top-level, nested map paths, list indexes (the result's lists are
//! compacted), names, missing paths, and the projection's own validation errors.

use dynomodel::backend::*;
use dynomodel::*;

use super::requests::*;
use super::*;

dual_test!(get_item_projections, |t| {
    let f = Fixture::new(&t, "proj").await;
    f.put(item([
        ("pk", s("a")),
        ("n", num("1")),
        ("name", s("reserved")),
        (
            "l",
            list([s("x"), map([("k", num("1")), ("j", num("2"))]), s("z")]),
        ),
        (
            "m",
            map([
                ("a", map([("b", num("1")), ("c", num("2"))])),
                ("d", num("3")),
            ]),
        ),
    ]))
    .await;
    let b = t.backend();
    let get = |projection: &str, names: Option<ExpressionAttributeNames>| GetItemInput {
        table_name: f.table.clone(),
        key: Fixture::key("a"),
        projection_expression: Some(projection.to_owned()),
        expression_attribute_names: names,
        ..Default::default()
    };
    let mut c = Checks::new(&t);
    let rows: Vec<(&str, Item)> = vec![
        ("n", item([("n", num("1"))])),
        (
            "m.a.b, nope, m.q",
            item([("m", map([("a", map([("b", num("1"))]))]))]),
        ),
        (
            "l[2], l[1].j, l[7]",
            item([("l", list([map([("j", num("2"))]), s("z")]))]),
        ),
        (
            "m.d, pk",
            item([("pk", s("a")), ("m", map([("d", num("3"))]))]),
        ),
        ("nope", Item::new()),
    ];
    for (projection, expected) in rows {
        let got = b.get_item(get(projection, None)).await.map(|o| o.item);
        c.eq(projection, got, Ok(Some(expected)));
    }
    let got = b
        .get_item(get("#n", names([("#n", "name")])))
        .await
        .map(|o| o.item);
    c.eq("#n", got, Ok(Some(item([("name", s("reserved"))]))));
    let errors = [
        ("name", None, "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: name"),
        ("n, n", None, "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [n], path two: [n]"),
        ("m, m.a", None, "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [m], path two: [m, a]"),
        ("l[0], l.a", None, "Invalid ProjectionExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [l, [0]], path two: [l, a]"),
        ("#x", None, "Invalid ProjectionExpression: An expression attribute name used in the document path is not defined; attribute name: #x"),
        ("n", names([("#u", "u")]), "Value provided in ExpressionAttributeNames unused in expressions: keys: {#u}"),
        ("n,", None, "Invalid ProjectionExpression: Syntax error; token: \"<EOF>\", near: \",\""),
        ("size(n)", None, "Invalid ProjectionExpression: Syntax error; token: \"(\", near: \"size(n\""),
    ];
    for (projection, names, message) in errors {
        c.error(
            projection,
            b.get_item(get(projection, names)).await,
            "ValidationException",
            message,
        );
    }
    c.finish();
});
