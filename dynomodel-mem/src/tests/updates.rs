//! UpdateItem: every clause, arithmetic limits, functions, item creation and all five ReturnValues.

use dynomodel::backend::{
    Backend, GetItemInput, GlobalSecondaryIndex, KeySchemaElement, Projection, ProjectionType,
    PutItemInput, ReturnValue, ReturnValuesOnConditionCheckFailure as OnFailure,
    ScalarAttributeType as T, UpdateItemInput,
};
use dynomodel::{AttributeValue, Error, Item};

use super::{
    assert_condition_failed, assert_validation, backend_with, def, item, n, names, ns, s, ss,
    table_input, values,
};
use crate::MemBackend;

fn key() -> Item {
    item(&[("pk", s("k"))])
}

fn l(v: &[AttributeValue]) -> AttributeValue {
    AttributeValue::L(v.to_vec())
}

fn m(v: &[(&str, AttributeValue)]) -> AttributeValue {
    AttributeValue::M(item(v))
}

async fn with_item(extra: &[(&str, AttributeValue)]) -> MemBackend {
    let b = backend_with(table_input("tbl", T::S, None)).await;
    let mut it = key();
    it.extend(item(extra));
    b.put_item(PutItemInput {
        table_name: "tbl".into(),
        item: it,
        ..Default::default()
    })
    .await
    .expect("put");
    b
}

fn req(expr: &str, vals: &[(&str, AttributeValue)], rv: ReturnValue) -> UpdateItemInput {
    UpdateItemInput {
        table_name: "tbl".into(),
        key: key(),
        update_expression: Some(expr.into()),
        expression_attribute_values: (!vals.is_empty()).then(|| item(vals)),
        return_values: Some(rv),
        ..Default::default()
    }
}

/// Runs an update asking for ALL_NEW and returns the new item.
async fn update(
    b: &MemBackend,
    expr: &str,
    vals: &[(&str, AttributeValue)],
) -> Result<Item, Error> {
    b.update_item(req(expr, vals, ReturnValue::AllNew))
        .await
        .map(|o| o.attributes.unwrap_or_default())
}

async fn stored(b: &MemBackend) -> Option<Item> {
    b.get_item(GetItemInput {
        table_name: "tbl".into(),
        key: key(),
        ..Default::default()
    })
    .await
    .expect("get")
    .item
}

fn with_key(extra: &[(&str, AttributeValue)]) -> Item {
    let mut it = key();
    it.extend(item(extra));
    it
}

#[tokio::test]
async fn set_remove_and_list_indexes() {
    let b = with_item(&[
        ("lst", l(&[n("0"), n("1"), n("2")])),
        ("d", m(&[("x", n("1"))])),
    ])
    .await;
    let new = update(
        &b,
        "SET lst[1] = :v, lst[10] = :w, d.y = :v",
        &[(":v", s("a")), (":w", s("end"))],
    )
    .await
    .expect("update");
    // An index past the end appends.
    assert_eq!(
        new.get("lst"),
        Some(&l(&[n("0"), s("a"), n("2"), s("end")]))
    );
    assert_eq!(new.get("d"), Some(&m(&[("x", n("1")), ("y", s("a"))])));
    // REMOVE of list elements refers to the list as it was; a missing index is a no-op.
    let new = update(&b, "REMOVE lst[0], lst[2], lst[9], d.x, nope", &[])
        .await
        .expect("remove");
    assert_eq!(new.get("lst"), Some(&l(&[s("a"), s("end")])));
    assert_eq!(new.get("d"), Some(&m(&[("y", s("a"))])));
    // Actions of a clause apply in path order: c[4] lands after c[2].
    let new = update(
        &b,
        "SET lst[4] = :x, lst[3] = :y",
        &[(":x", s("4")), (":y", s("3"))],
    )
    .await
    .expect("appends");
    assert_eq!(
        new.get("lst"),
        Some(&l(&[s("a"), s("end"), s("3"), s("4")]))
    );
    // SET inside a missing parent is an error; the item is unchanged.
    let before = stored(&b).await;
    assert_validation(
        update(&b, "SET nope.x = :v", &[(":v", n("1"))]).await,
        "The document path provided in the update expression is invalid for update",
    );
    assert_eq!(stored(&b).await, before);
    // Values are read from the old item: SET a = b, b = a swaps.
    let b = with_item(&[("a", n("1")), ("b", n("2"))]).await;
    let new = update(&b, "SET a = b, b = a", &[]).await.expect("swap");
    assert_eq!(new, with_key(&[("a", n("2")), ("b", n("1"))]));
    assert_validation(
        update(&b, "SET c = nope", &[]).await,
        "The provided expression refers to an attribute that does not exist in the item",
    );
}

#[tokio::test]
async fn arithmetic() {
    let b = with_item(&[
        ("x", n("0.1")),
        ("big", n("99999999999999999999999999999999999998")),
    ])
    .await;
    let new = update(&b, "SET x = x + :v", &[(":v", n("0.2"))])
        .await
        .expect("+");
    assert_eq!(new.get("x"), Some(&n("0.3")));
    let new = update(&b, "SET x = x - :v", &[(":v", n("1"))])
        .await
        .expect("-");
    assert_eq!(new.get("x"), Some(&n("-0.7")));
    // 38 digits is exact; one more is an error, never rounded.
    let new = update(&b, "ADD big :v", &[(":v", n("1"))])
        .await
        .expect("38 digits");
    assert_eq!(
        new.get("big"),
        Some(&n("99999999999999999999999999999999999999"))
    );
    assert_validation(
        update(&b, "SET y = :a + :b", &[(":a", n("1e50")), (":b", n("1"))]).await,
        "Number overflow. Attempting to store a number with magnitude larger than supported range",
    );
    assert_validation(
        update(&b, "SET y = :a + :a", &[(":a", n("9e125"))]).await,
        "Number overflow. Attempting to store a number with magnitude larger than supported range",
    );
    assert_validation(
        update(&b, "SET y = big + :s", &[(":s", s("1"))]).await,
        "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or \
         function: +, operand type: S",
    );
    let b = with_item(&[("s", s("text"))]).await;
    assert_validation(
        update(&b, "SET y = s + :v", &[(":v", n("1"))]).await,
        "An operand in the update expression has an incorrect data type",
    );
}

#[tokio::test]
async fn functions() {
    let b = with_item(&[("kept", n("1")), ("lst", l(&[n("1")]))]).await;
    let new = update(
        &b,
        "SET kept = if_not_exists(kept, :d), made = if_not_exists(made, :d)",
        &[(":d", n("9"))],
    )
    .await
    .expect("if_not_exists");
    assert_eq!(new.get("kept"), Some(&n("1")));
    assert_eq!(new.get("made"), Some(&n("9")));
    let new = update(
        &b,
        "SET lst = list_append(lst, :tail), front = list_append(:head, lst)",
        &[(":tail", l(&[n("2")])), (":head", l(&[n("0")]))],
    )
    .await
    .expect("list_append");
    assert_eq!(new.get("lst"), Some(&l(&[n("1"), n("2")])));
    assert_eq!(new.get("front"), Some(&l(&[n("0"), n("1")])));
    assert_validation(
        update(&b, "SET x = list_append(kept, :t)", &[(":t", l(&[]))]).await,
        "An operand in the update expression has an incorrect data type",
    );
}

#[tokio::test]
async fn add_and_delete() {
    let b = with_item(&[
        ("n", n("1")),
        ("strs", ss(&["a", "b"])),
        ("nums", ns(&["1", "2"])),
    ])
    .await;
    let new = update(
        &b,
        "ADD n :one, strs :more, nums :nums, fresh :one",
        &[
            (":one", n("1")),
            (":more", ss(&["b", "c"])),
            (":nums", ns(&["2.0", "3"])),
        ],
    )
    .await
    .expect("add");
    assert_eq!(new.get("n"), Some(&n("2")));
    assert_eq!(new.get("strs"), Some(&ss(&["a", "b", "c"])));
    // Numeric sets compare numerically: 2.0 is 2.
    assert_eq!(new.get("nums"), Some(&ns(&["1", "2", "3"])));
    assert_eq!(new.get("fresh"), Some(&n("1")));
    let new = update(&b, "DELETE strs :x, nope :x", &[(":x", ss(&["a", "z"]))])
        .await
        .expect("delete");
    assert_eq!(new.get("strs"), Some(&ss(&["b", "c"])));
    // Removing the last elements removes the attribute.
    let new = update(&b, "DELETE strs :x", &[(":x", ss(&["b", "c"]))])
        .await
        .expect("delete all");
    assert_eq!(new.get("strs"), None);
    assert_validation(
        update(&b, "ADD nums :x", &[(":x", ss(&["a"]))]).await,
        "An operand in the update expression has an incorrect data type",
    );
    assert_validation(
        update(&b, "ADD n :x", &[(":x", s("a"))]).await,
        "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, \
         operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND",
    );
}

#[tokio::test]
async fn creates_missing_items() {
    let b = backend_with(table_input("tbl", T::S, None)).await;
    // No UpdateExpression: the item is created with its key only; ALL_OLD has nothing to return.
    let out = b
        .update_item(UpdateItemInput {
            table_name: "tbl".into(),
            key: key(),
            return_values: Some(ReturnValue::AllOld),
            ..Default::default()
        })
        .await
        .expect("bare update");
    assert_eq!(out.attributes, None);
    assert_eq!(stored(&b).await, Some(key()));
    // As DynamoDB Local answers: ALL_NEW is the bare key item, UPDATED_NEW has nothing updated.
    for (rv, want) in [
        (ReturnValue::AllNew, Some(key())),
        (ReturnValue::UpdatedNew, None),
        (ReturnValue::AllOld, Some(key())),
    ] {
        let out = b
            .update_item(UpdateItemInput {
                table_name: "tbl".into(),
                key: key(),
                return_values: Some(rv),
                ..Default::default()
            })
            .await
            .expect("bare update");
        assert_eq!(out.attributes, want, "{rv:?}");
    }
    let b = backend_with(table_input("tbl", T::S, None)).await;
    let out = b
        .update_item(req(
            "SET a = :v REMOVE b",
            &[(":v", n("1"))],
            ReturnValue::UpdatedOld,
        ))
        .await
        .expect("create");
    assert_eq!(out.attributes, None);
    assert_eq!(stored(&b).await, Some(with_key(&[("a", n("1"))])));
}

#[tokio::test]
async fn return_values() {
    let old = with_key(&[
        ("a", n("1")),
        ("d", m(&[("x", n("1")), ("y", n("2"))])),
        ("z", s("z")),
    ]);
    let expr = "SET a = :v, d.x = :v REMOVE z";
    let vals = [(":v", n("5"))];
    let cases = [
        (ReturnValue::None, None),
        (ReturnValue::AllOld, Some(old.clone())),
        (
            ReturnValue::AllNew,
            Some(with_key(&[
                ("a", n("5")),
                ("d", m(&[("x", n("5")), ("y", n("2"))])),
            ])),
        ),
        // Only the updated paths, as nested partial documents (dynalite's recording of real DynamoDB;
        // DynamoDB Local returns whole top-level attributes).
        (
            ReturnValue::UpdatedOld,
            Some(item(&[
                ("a", n("1")),
                ("d", m(&[("x", n("1"))])),
                ("z", s("z")),
            ])),
        ),
        (
            ReturnValue::UpdatedNew,
            Some(item(&[("a", n("5")), ("d", m(&[("x", n("5"))]))])),
        ),
    ];
    for (rv, want) in cases {
        let b = with_item(&[
            ("a", n("1")),
            ("d", m(&[("x", n("1")), ("y", n("2"))])),
            ("z", s("z")),
        ])
        .await;
        let out = b.update_item(req(expr, &vals, rv)).await.expect("update");
        assert_eq!(out.attributes, want, "{rv:?}");
    }
    // UPDATED_NEW projects the path as written: an append past the end has nothing there (as the
    // service answers).
    let b = with_item(&[("lst", l(&[n("0")]))]).await;
    let out = b
        .update_item(req(
            "SET lst[7] = :v",
            &[(":v", s("x"))],
            ReturnValue::UpdatedNew,
        ))
        .await
        .expect("append");
    assert_eq!(out.attributes, None);
}

#[tokio::test]
async fn conditions_and_keys() {
    let b = with_item(&[("v", n("1"))]).await;
    let mut r = req(
        "SET v = :new",
        &[(":new", n("2")), (":old", n("9"))],
        ReturnValue::None,
    );
    r.condition_expression = Some("v = :old".into());
    r.return_values_on_condition_check_failure = Some(OnFailure::AllOld);
    assert_condition_failed(
        b.update_item(r.clone()).await,
        Some(with_key(&[("v", n("1"))])),
    );
    assert_eq!(stored(&b).await, Some(with_key(&[("v", n("1"))])));
    r.expression_attribute_values = values(&[(":new", n("2")), (":old", n("1"))]);
    b.update_item(r).await.expect("condition holds");
    assert_eq!(stored(&b).await, Some(with_key(&[("v", n("2"))])));
    for expr in ["SET pk = :v", "SET #k.x = :v", "REMOVE pk", "ADD pk :v"] {
        let mut r = req(expr, &[(":v", n("1"))], ReturnValue::None);
        if expr.contains("#k") {
            r.expression_attribute_names = names(&[("#k", "pk")]);
        }
        if expr.starts_with("REMOVE") {
            r.expression_attribute_values = None;
        }
        assert_validation(
            b.update_item(r).await,
            "One or more parameter values were invalid: Cannot update attribute pk. This attribute \
             is part of the key",
        );
    }
}

#[tokio::test]
async fn nesting_limit_applies_to_the_updated_item() {
    let b = with_item(&[]).await;
    let mut deep = s("x");
    for _ in 0..32 {
        deep = l(&[deep]);
    }
    // Accepted as a value (DynamoDB Local 3.3), rejected once it would be stored at level 33.
    assert_validation(
        update(&b, "SET d = :v", &[(":v", deep)]).await,
        "Nesting Levels have exceeded supported limits",
    );
    let mut ok = s("x");
    for _ in 0..31 {
        ok = l(&[ok]);
    }
    update(&b, "SET d = :v", &[(":v", ok)])
        .await
        .expect("32 levels");
}

#[tokio::test]
async fn size_limit_and_index_keys() {
    let b = with_item(&[]).await;
    let big = s(&"x".repeat(409_600));
    assert_validation(
        update(&b, "SET b = :v", &[(":v", big)]).await,
        "Item size to update has exceeded the maximum allowed size",
    );
    let mut input = table_input("tbl", T::S, None);
    input.attribute_definitions.push(def("g", T::S));
    input.global_secondary_indexes = vec![GlobalSecondaryIndex {
        index_name: "by-g".into(),
        key_schema: vec![KeySchemaElement::hash("g")],
        projection: Projection {
            projection_type: ProjectionType::All,
            non_key_attributes: vec![],
        },
        provisioned_throughput: None,
    }];
    let b = backend_with(input).await;
    assert_validation(
        update(&b, "SET g = :v", &[(":v", n("1"))]).await,
        "One or more parameter values were invalid: Type mismatch for Index Key g Expected: S \
         Actual: N IndexName: by-g",
    );
    update(
        &b,
        "SET g = :v, num = :n",
        &[(":v", s("x")), (":n", n("1"))],
    )
    .await
    .expect("valid index key");
    assert_validation(
        update(&b, "SET g = num", &[]).await,
        "The update expression attempted to update the secondary index key to unsupported type",
    );
    assert_validation(
        update(&b, "SET g = :v", &[(":v", s(""))]).await,
        "One or more parameter values are not valid. The update expression attempted to update a \
         secondary index key to a value that is not supported. The AttributeValue for a key \
         attribute cannot contain an empty string value.",
    );
    assert_validation(
        update(&b, "SET x = g.h", &[]).await,
        "Key attributes must be scalars; list random access '[]' and map lookup '.' are not \
         allowed: IndexKey: g",
    );
}
