//! The errors of the legacy parameters, with DynamoDB's legacy texts (dynalite's recordings
//! of DynamoDB, and DynamoDB Local 3.3 where nothing else records them).

use dynomodel::backend::*;
use dynomodel::*;

use super::legacy::{args, compare, cond, entries, holds};
use super::requests::*;
use super::*;

const INVALID: &str = "One or more parameter values were invalid: ";
const VE: &str = "ValidationException";

dual_test!(legacy_expected_errors, |t| {
    use ComparisonOperator::*;
    let f = Fixture::new(&t, "experr").await;
    f.put(item([("pk", s("a")), ("n", num("1"))])).await;
    let mut c = Checks::new(&t);
    // Argument counts.
    let counts: Vec<(ComparisonOperator, Option<Vec<AttributeValue>>)> = vec![
        (Eq, Some(Vec::new())),
        (Eq, args([s("x"), s("y")])),
        (Ne, Some(Vec::new())),
        (Le, args([s("x"), s("y")])),
        (Lt, Some(Vec::new())),
        (Ge, Some(Vec::new())),
        (Gt, args([s("x"), s("y")])),
        (NotNull, args([s("x")])),
        (Null, args([s("x")])),
        (Contains, Some(Vec::new())),
        (NotContains, args([s("x"), s("y")])),
        (BeginsWith, Some(Vec::new())),
        (In, Some(Vec::new())),
        (Between, args([s("x")])),
        (Between, args([s("x"), s("y"), s("z")])),
    ];
    for (op, list) in counts {
        let got = holds(&f, "a", entries([("n", compare(op, list.clone()))]), None).await;
        let message = format!(
            "{INVALID}Invalid number of argument(s) for the {} ComparisonOperator",
            op.as_str()
        );
        c.error(&format!("{op:?} {list:?}"), got, VE, &message);
    }
    // Operand types.
    let types: Vec<(ComparisonOperator, AttributeValue)> = vec![
        (Lt, ss(["a"])),
        (Le, AttributeValue::Bool(true)),
        (Gt, list([s("a")])),
        (Ge, map([])),
        (Contains, ss(["a"])),
        (NotContains, ns(["1"])),
        (Contains, list([s("a")])),
        (BeginsWith, num("1")),
        (BeginsWith, AttributeValue::Null),
        (In, ss(["a"])),
        (Between, AttributeValue::Bool(true)),
    ];
    for (op, value) in types {
        let list = match op {
            Between => vec![value.clone(), value.clone()],
            _ => vec![value.clone()],
        };
        let got = holds(&f, "a", entries([("n", compare(op, Some(list)))]), None).await;
        let message = format!(
            "{INVALID}ComparisonOperator {} is not valid for {} AttributeValue type",
            op.as_str(),
            value.type_name()
        );
        c.error(
            &format!("{op:?} on {}", value.type_name()),
            got,
            VE,
            &message,
        );
    }
    // KNOWN DIFFERENCE: the API reference allows CONTAINS and NOT_CONTAINS "only one AttributeValue
    // element of type String, Number, or Binary"; DynamoDB Local also takes BOOL and NULL.
    for (op, value) in [
        (Contains, AttributeValue::Bool(true)),
        (NotContains, AttributeValue::Null),
    ] {
        let got = holds(
            &f,
            "a",
            entries([("n", compare(op, Some(vec![value.clone()])))]),
            None,
        )
        .await;
        let what = format!("{op:?} on {}", value.type_name());
        if t.target() == Target::DynamoDbLocal {
            c.eq(&what, got, Ok(op == NotContains));
        } else {
            let message = format!(
                "{INVALID}ComparisonOperator {} is not valid for {} AttributeValue type",
                op.as_str(),
                value.type_name()
            );
            c.error(&what, got, VE, &message);
        }
    }
    let mixed = holds(
        &f,
        "a",
        entries([("n", compare(In, args([s("a"), num("1")])))]),
        None,
    )
    .await;
    c.error(
        "IN of two types",
        mixed,
        VE,
        &format!("{INVALID}AttributeValues inside AttributeValueList must be of same type"),
    );
    let reversed = holds(
        &f,
        "a",
        entries([("n", compare(Between, args([num("5"), num("1")])))]),
        None,
    )
    .await;
    c.error(
        "BETWEEN upside down",
        reversed,
        VE,
        "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound",
    );
    // Exists, Value and ComparisonOperator.
    let entry = |value: Option<AttributeValue>,
                 exists: Option<bool>,
                 op: Option<ComparisonOperator>,
                 list: Option<Vec<AttributeValue>>| ExpectedAttributeValue {
        value,
        exists,
        comparison_operator: op,
        attribute_value_list: list,
    };
    let rows: Vec<(&str, ExpectedAttributeValue, String)> = vec![
        (
            "Exists true without Value",
            entry(None, Some(true), None, None),
            format!("{INVALID}Value must be provided when Exists is true for Attribute: n"),
        ),
        (
            "nothing at all",
            entry(None, None, None, None),
            format!("{INVALID}Value must be provided when Exists is null for Attribute: n"),
        ),
        (
            "Exists false with Value",
            entry(Some(num("1")), Some(false), None, None),
            format!("{INVALID}Value cannot be used when Exists is false for Attribute: n"),
        ),
        (
            "Value and AttributeValueList",
            entry(Some(num("1")), None, Some(Eq), args([num("1")])),
            format!("{INVALID}Value and AttributeValueList cannot be used together for Attribute: n"),
        ),
        (
            "Exists and ComparisonOperator",
            entry(None, Some(true), Some(Eq), args([num("1")])),
            format!("{INVALID}Exists and ComparisonOperator cannot be used together for Attribute: n"),
        ),
        (
            "AttributeValueList without ComparisonOperator",
            entry(None, None, None, args([num("1")])),
            format!(
                "{INVALID}AttributeValueList can only be used with a ComparisonOperator for Attribute: n"
            ),
        ),
        (
            "ComparisonOperator without operands",
            entry(None, None, Some(Eq), None),
            format!(
                "{INVALID}Value or AttributeValueList must be used with ComparisonOperator: EQ for \
                 Attribute: n"
            ),
        ),
    ];
    for (what, e, message) in rows {
        let got = holds(&f, "a", entries([("n", e)]), None).await;
        c.error(what, got, VE, &message);
    }
    // The item and ReturnValues are checked before Expected (dynalite's putItem.js; the text is the
    // engine's and DynamoDB Local's).
    let order = t
        .backend()
        .put_item(PutItemInput {
            table_name: f.table.clone(),
            item: Fixture::key("a"),
            return_values: Some(ReturnValue::AllNew),
            expected: Some(entries([("n", ExpectedAttributeValue::default())])),
            ..Default::default()
        })
        .await;
    c.error(
        "ReturnValues before Expected",
        order,
        VE,
        "Return values set to invalid value",
    );
    // ConditionalOperator needs two conditions.
    let one = entries([("n", compare(NotNull, None))]);
    c.error(
        "ConditionalOperator with one condition",
        holds(&f, "a", one, Some(ConditionalOperator::Or)).await,
        VE,
        "ConditionalOperator can only be used when Filter or Expected has two or more elements",
    );
    let alone = t
        .backend()
        .put_item(PutItemInput {
            table_name: f.table.clone(),
            item: Fixture::key("a"),
            conditional_operator: Some(ConditionalOperator::And),
            ..Default::default()
        })
        .await;
    c.error(
        "ConditionalOperator alone",
        alone,
        VE,
        "ConditionalOperator cannot be used without Filter or Expected",
    );
    c.finish();
});

dual_test!(legacy_mixed_with_expressions, |t| {
    let f = Fixture::new(&t, "mix").await;
    let mut c = Checks::new(&t);
    let exists = || {
        entries([(
            "n",
            ExpectedAttributeValue {
                exists: Some(false),
                ..Default::default()
            },
        )])
    };
    let put = t
        .backend()
        .put_item(PutItemInput {
            table_name: f.table.clone(),
            item: Fixture::key("a"),
            expected: Some(exists()),
            conditional_operator: Some(ConditionalOperator::Or),
            condition_expression: Some("attribute_not_exists(n)".into()),
            ..Default::default()
        })
        .await;
    c.error(
        "PutItem",
        put,
        VE,
        "Can not use both expression and non-expression parameters in the same request: \
         Non-expression parameters: {Expected, ConditionalOperator} Expression parameters: \
         {ConditionExpression}",
    );
    let update = t
        .backend()
        .update_item(UpdateItemInput {
            table_name: f.table.clone(),
            key: Fixture::key("a"),
            attribute_updates: Some(entries([(
                "x",
                AttributeValueUpdate {
                    value: None,
                    action: Some(AttributeAction::Delete),
                },
            )])),
            expected: Some(exists()),
            update_expression: Some("REMOVE y".into()),
            condition_expression: Some("attribute_not_exists(n)".into()),
            ..Default::default()
        })
        .await;
    c.error(
        "UpdateItem",
        update,
        VE,
        "Can not use both expression and non-expression parameters in the same request: \
         Non-expression parameters: {AttributeUpdates, Expected} Expression parameters: \
         {UpdateExpression, ConditionExpression}",
    );
    let get = t
        .backend()
        .get_item(GetItemInput {
            table_name: f.table.clone(),
            key: Fixture::key("a"),
            attributes_to_get: Some(vec!["n".into()]),
            projection_expression: Some("n".into()),
            ..Default::default()
        })
        .await;
    c.error(
        "GetItem",
        get,
        VE,
        "Can not use both expression and non-expression parameters in the same request: \
         Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}",
    );
    let scan = t
        .backend()
        .scan(ScanInput {
            table_name: f.table.clone(),
            scan_filter: Some(entries([("n", cond(ComparisonOperator::NotNull, None))])),
            attributes_to_get: Some(vec!["n".into()]),
            filter_expression: Some("attribute_exists(n)".into()),
            ..Default::default()
        })
        .await;
    c.error(
        "Scan",
        scan,
        VE,
        "Can not use both expression and non-expression parameters in the same request: \
         Non-expression parameters: {AttributesToGet, ScanFilter} Expression parameters: \
         {FilterExpression}",
    );
    let query = t
        .backend()
        .query(QueryInput {
            table_name: f.table.clone(),
            key_conditions: Some(entries([(
                "pk",
                cond(ComparisonOperator::Eq, Some(vec![s("a")])),
            )])),
            key_condition_expression: Some("pk = :a".into()),
            expression_attribute_values: values([(":a", s("a"))]),
            ..Default::default()
        })
        .await;
    c.error(
        "Query",
        query,
        VE,
        "Can not use both expression and non-expression parameters in the same request: \
         Non-expression parameters: {KeyConditions} Expression parameters: {KeyConditionExpression}",
    );
    let names_alone = t
        .backend()
        .update_item(UpdateItemInput {
            table_name: f.table.clone(),
            key: Fixture::key("a"),
            attribute_updates: Some(AttributeUpdates::new()),
            expression_attribute_names: names([("#a", "a")]),
            ..Default::default()
        })
        .await;
    c.error(
        "ExpressionAttributeNames with legacy parameters",
        names_alone,
        VE,
        "ExpressionAttributeNames can only be specified when using expressions",
    );
    c.finish();
});

dual_test!(legacy_attribute_updates_errors, |t| {
    use AttributeAction::*;
    let f = Fixture::new(&t, "upderr").await;
    f.put(item([
        ("pk", s("a")),
        ("n", num("1")),
        ("s", s("x")),
        ("ss", ss(["a"])),
    ]))
    .await;
    let mut c = Checks::new(&t);
    let update = |name: &str, action: Option<AttributeAction>, value: Option<AttributeValue>| {
        t.backend().update_item(UpdateItemInput {
            table_name: f.table.clone(),
            key: Fixture::key("a"),
            attribute_updates: Some(entries([(name, AttributeValueUpdate { value, action })])),
            ..Default::default()
        })
    };
    let no_value =
        format!("{INVALID}Only DELETE action is allowed when no attribute value is specified");
    c.error(
        "PUT without a value",
        update("x", Some(Put), None).await,
        VE,
        &no_value,
    );
    c.error(
        "ADD without a value",
        update("x", Some(Add), None).await,
        VE,
        &no_value,
    );
    c.error(
        "no action, no value",
        update("x", None, None).await,
        VE,
        &no_value,
    );
    let rows: Vec<(AttributeAction, AttributeValue, &str)> = vec![
        (
            Add,
            s("x"),
            "ADD action is not supported for the type STRING",
        ),
        (Add, map([]), "ADD action is not supported for the type MAP"),
        (
            Add,
            AttributeValue::Bool(true),
            "ADD action is not supported for the type BOOLEAN",
        ),
        (
            Add,
            AttributeValue::Null,
            "ADD action is not supported for the type NULL",
        ),
        (
            Add,
            bin(&[1]),
            "ADD action is not supported for the type BINARY",
        ),
        (
            Delete,
            num("1"),
            "DELETE action with value is not supported for the type NUMBER",
        ),
        (
            Delete,
            s("x"),
            "DELETE action with value is not supported for the type STRING",
        ),
        (
            Delete,
            list([]),
            "DELETE action with value is not supported for the type LIST",
        ),
    ];
    for (a, v, message) in rows {
        let got = update("x", Some(a), Some(v.clone())).await;
        c.error(
            &format!("{a:?} {v:?}"),
            got,
            VE,
            &format!("{INVALID}{message}"),
        );
    }
    let mismatch = "Type mismatch for attribute to update";
    c.error(
        "ADD a set to a number",
        update("n", Some(Add), Some(ss(["a"]))).await,
        VE,
        mismatch,
    );
    c.error(
        "ADD a number to a string",
        update("s", Some(Add), Some(num("1"))).await,
        VE,
        mismatch,
    );
    c.error(
        "ADD NS to SS",
        update("ss", Some(Add), Some(ns(["1"]))).await,
        VE,
        mismatch,
    );
    c.error(
        "DELETE NS from SS",
        update("ss", Some(Delete), Some(ns(["1"]))).await,
        VE,
        mismatch,
    );
    c.error(
        "ADD a list to a string",
        update("s", Some(Add), Some(list([num("1")]))).await,
        VE,
        mismatch,
    );
    let key = format!("{INVALID}Cannot update attribute pk. This attribute is part of the key");
    c.error(
        "PUT of the key",
        update("pk", Some(Put), Some(s("b"))).await,
        VE,
        &key,
    );
    c.error(
        "DELETE of the key",
        update("pk", Some(Delete), None).await,
        VE,
        &key,
    );
    c.error(
        "an empty set",
        update("x", Some(Put), Some(AttributeValue::Ss(Vec::new()))).await,
        VE,
        &format!("{INVALID}An string set  may not be empty"),
    );
    c.finish();
});

dual_test!(legacy_read_errors, |t| {
    use ComparisonOperator::*;
    let table = t.create_table("kcerr", ("pk", S), Some(("sk", N))).await;
    let mut c = Checks::new(&t);
    let hash = || ("pk", cond(Eq, args([s("p")])));
    let query = |key_conditions: Conditions| {
        t.backend().query(QueryInput {
            table_name: table.clone(),
            key_conditions: Some(key_conditions),
            ..Default::default()
        })
    };
    let not_supported = "Query key condition not supported";
    c.error(
        "hash NE",
        query(entries([("pk", cond(Ne, args([s("p")])))])).await,
        VE,
        not_supported,
    );
    c.error(
        "hash GT",
        query(entries([("pk", cond(Gt, args([s("p")])))])).await,
        VE,
        not_supported,
    );
    c.error(
        "hash BEGINS_WITH",
        query(entries([("pk", cond(BeginsWith, args([s("p")])))])).await,
        VE,
        not_supported,
    );
    let not_indexable = "Attempted conditional constraint is not an indexable operation";
    c.error(
        "range IN",
        query(entries([hash(), ("sk", cond(In, args([num("1")])))])).await,
        VE,
        not_indexable,
    );
    c.error(
        "range CONTAINS",
        query(entries([hash(), ("sk", cond(Contains, args([num("1")])))])).await,
        VE,
        not_indexable,
    );
    c.error(
        "range NULL",
        query(entries([hash(), ("sk", cond(Null, None))])).await,
        VE,
        "Only scalar types can be used as Range Key values",
    );
    c.error(
        "no hash",
        query(entries([("sk", cond(Eq, args([num("1")])))])).await,
        VE,
        "Query condition missed key schema element",
    );
    c.error(
        "not a key",
        query(entries([hash(), ("v", cond(Eq, args([num("1")])))])).await,
        VE,
        "Query condition missed key schema element",
    );
    c.error(
        "three conditions",
        query(entries([
            hash(),
            ("sk", cond(Eq, args([num("1")]))),
            ("v", cond(Eq, args([num("1")]))),
        ]))
        .await,
        VE,
        "Conditions can be of length 1 or 2 only",
    );
    c.error(
        "no condition",
        query(Conditions::new()).await,
        VE,
        "Conditions must be at least length 1",
    );
    c.error(
        "wrong key type",
        query(entries([("pk", cond(Eq, args([num("1")])))])).await,
        VE,
        &format!("{INVALID}Condition parameter type does not match schema type"),
    );
    // A wrong argument count in KeyConditions is worded as in every legacy condition (recorded
    // on the service; DynamoDB Local agrees).
    c.error(
        "argument count",
        query(entries([("pk", cond(Eq, Some(Vec::new())))])).await,
        VE,
        &format!("{INVALID}Invalid number of argument(s) for the EQ ComparisonOperator"),
    );
    let filtered = t
        .backend()
        .query(QueryInput {
            table_name: table.clone(),
            key_conditions: Some(entries([hash()])),
            query_filter: Some(entries([("sk", cond(NotNull, None))])),
            ..Default::default()
        })
        .await;
    c.error(
        "QueryFilter on a key",
        filtered,
        VE,
        "QueryFilter can only contain non-primary key attributes: Primary key attribute: sk",
    );
    let scan =
        |filter: Option<Conditions>, op: Option<ConditionalOperator>, select: Option<Select>| {
            t.backend().scan(ScanInput {
                table_name: table.clone(),
                scan_filter: filter,
                conditional_operator: op,
                select,
                attributes_to_get: select.map(|_| vec!["v".to_owned()]),
                ..Default::default()
            })
        };
    c.error(
        "ScanFilter argument count",
        scan(Some(entries([("v", cond(In, None))])), None, None).await,
        VE,
        &format!("{INVALID}Invalid number of argument(s) for the IN ComparisonOperator"),
    );
    c.error(
        "ScanFilter type",
        scan(
            Some(entries([("v", cond(Lt, args([ss(["a"])])))])),
            None,
            None,
        )
        .await,
        VE,
        &format!("{INVALID}ComparisonOperator LT is not valid for SS AttributeValue type"),
    );
    c.error(
        "ConditionalOperator with one filter",
        scan(
            Some(entries([("v", cond(Null, None))])),
            Some(ConditionalOperator::Or),
            None,
        )
        .await,
        VE,
        "ConditionalOperator can only be used when Filter or Expected has two or more elements",
    );
    c.error(
        "ConditionalOperator without a filter",
        scan(None, Some(ConditionalOperator::Or), None).await,
        VE,
        "ConditionalOperator cannot be used without Filter or Expected",
    );
    c.error(
        "AttributesToGet with COUNT",
        scan(None, None, Some(Select::Count)).await,
        VE,
        "Cannot specify the AttributesToGet when choosing to get only the Count",
    );
    c.error(
        "AttributesToGet with ALL_ATTRIBUTES",
        scan(None, None, Some(Select::AllAttributes)).await,
        VE,
        "Cannot specify the AttributesToGet when choosing to get ALL_ATTRIBUTES",
    );
    let duplicate = t
        .backend()
        .get_item(GetItemInput {
            table_name: table.clone(),
            key: item([("pk", s("p")), ("sk", num("1"))]),
            attributes_to_get: Some(vec!["v".into(), "v".into()]),
            ..Default::default()
        })
        .await;
    // KNOWN DIFFERENCE: DynamoDB names the duplicate (dynalite's recordings);
    // DynamoDB Local does so in BatchGetItem only.
    c.error_differs(
        "AttributesToGet twice",
        duplicate,
        VE,
        &format!("{INVALID}Duplicate value in attribute name: v"),
        "Cannot have two attributes with the same name",
    );
    c.finish();
});
