//! A key or index key attribute given a value of the wrong type, in every
//! write and read that names one. A value that can never be a key (NULL, BOOL, a set, a map, a list)
//! is one more type mismatch to DynamoDB, worded like any other.

use dynomodel::backend::*;
use dynomodel::*;

use super::requests::*;
use super::*;

/// DynamoDB Local's answer to a value that can never be a key, wherever it is.
const LOCAL_NEVER_A_KEY: &str = "Invalid attribute value type";

/// DynamoDB Local's answer to an index key of a key type, but not the declared one.
const LOCAL_INDEX_MISMATCH: &str =
    "One or more parameter values were invalid: Type mismatch for Index Key";

/// Every value that is not an S, with DynamoDB's name of its type.
fn not_strings() -> Vec<(AttributeValue, &'static str)> {
    vec![
        (AttributeValue::Null, "NULL"),
        (AttributeValue::Bool(false), "BOOL"),
        (ss(["a"]), "SS"),
        (ns(["1"]), "NS"),
        (AttributeValue::Bs(vec![vec![1]]), "BS"),
        (map([]), "M"),
        (list([]), "L"),
        (num("1"), "N"),
        (bin(&[1]), "B"),
    ]
}

/// Table `p` (S) with GSI `hello` keyed by `x` (S).
async fn indexed(t: &Dual) -> String {
    let table_name = t.table_name("ktypes");
    let def = |name: &str| AttributeDefinition {
        attribute_name: name.into(),
        attribute_type: S,
    };
    t.backend()
        .create_table(CreateTableInput {
            table_name: table_name.clone(),
            attribute_definitions: vec![def("p"), def("x")],
            key_schema: vec![KeySchemaElement::hash("p")],
            billing_mode: Some(BillingMode::PayPerRequest),
            global_secondary_indexes: vec![GlobalSecondaryIndex {
                index_name: "hello".into(),
                key_schema: vec![KeySchemaElement::hash("x")],
                projection: Projection {
                    projection_type: ProjectionType::All,
                    non_key_attributes: vec![],
                },
                provisioned_throughput: None,
            }],
            ..Default::default()
        })
        .await
        .unwrap();
    table_name
}

dual_test!(index_keys_of_the_wrong_type_name_the_index, |t| {
    let table = indexed(&t).await;
    let b = t.backend();
    let mut c = Checks::new(&t);
    let key = || item([("p", s("k"))]);
    for (value, ty) in not_strings() {
        let mem = format!(
            "One or more parameter values were invalid: Type mismatch for Index Key x Expected: S \
             Actual: {ty} IndexName: hello"
        );
        // KNOWN DIFFERENCE: DynamoDB Local refuses a value that can never be a key before comparing
        // types, and stops after "Type mismatch for Index Key" for the others.
        let local = match ty {
            "N" | "B" => LOCAL_INDEX_MISMATCH,
            _ => LOCAL_NEVER_A_KEY,
        };
        let mut with_x = key();
        with_x.insert("x".into(), value.clone());
        let r = b
            .put_item(PutItemInput {
                table_name: table.clone(),
                item: with_x.clone(),
                ..Default::default()
            })
            .await;
        c.error_differs(
            &format!("PutItem {ty}"),
            r,
            "ValidationException",
            &mem,
            local,
        );
        let r = b
            .batch_write_item(BatchWriteItemInput {
                request_items: [(table.clone(), vec![WriteRequest::Put { item: with_x }])].into(),
                ..Default::default()
            })
            .await;
        c.error_differs(
            &format!("BatchWriteItem {ty}"),
            r,
            "ValidationException",
            &mem,
            local,
        );
        let r = b
            .update_item(UpdateItemInput {
                table_name: table.clone(),
                key: key(),
                update_expression: Some("SET x = :v".into()),
                expression_attribute_values: Some(item([(":v", value.clone())])),
                ..Default::default()
            })
            .await;
        c.error_differs(
            &format!("SET x = :v {ty}"),
            r,
            "ValidationException",
            &mem,
            local,
        );
        let r = b
            .update_item(UpdateItemInput {
                table_name: table.clone(),
                key: key(),
                attribute_updates: Some(
                    [(
                        "x".to_owned(),
                        AttributeValueUpdate {
                            value: Some(value.clone()),
                            action: Some(AttributeAction::Put),
                        },
                    )]
                    .into(),
                ),
                ..Default::default()
            })
            .await;
        c.error_differs(
            &format!("AttributeUpdates PUT {ty}"),
            r,
            "ValidationException",
            &mem,
            local,
        );
    }
    // AttributeUpdates ADD of a number into the S-typed index key.
    let r = b
        .update_item(UpdateItemInput {
            table_name: table.clone(),
            key: key(),
            attribute_updates: Some(
                [(
                    "x".to_owned(),
                    AttributeValueUpdate {
                        value: Some(num("1")),
                        action: Some(AttributeAction::Add),
                    },
                )]
                .into(),
            ),
            ..Default::default()
        })
        .await;
    // KNOWN DIFFERENCE: DynamoDB Local stops after "Type mismatch for Index Key".
    c.error_differs(
        "AttributeUpdates ADD N",
        r,
        "ValidationException",
        "One or more parameter values were invalid: Type mismatch for Index Key x Expected: S \
         Actual: N IndexName: hello",
        LOCAL_INDEX_MISMATCH,
    );
    // Copying another attribute of the wrong type keeps its own text.
    b.put_item(PutItemInput {
        table_name: table.clone(),
        item: item([("p", s("k")), ("e", num("1"))]),
        ..Default::default()
    })
    .await
    .unwrap();
    let r = b
        .update_item(UpdateItemInput {
            table_name: table.clone(),
            key: key(),
            update_expression: Some("SET x = e".into()),
            ..Default::default()
        })
        .await;
    // KNOWN DIFFERENCE: DynamoDB Local words it as any index key type mismatch.
    c.error_differs(
        "SET x = e (N)",
        r,
        "ValidationException",
        "The update expression attempted to update the secondary index key to unsupported type",
        LOCAL_INDEX_MISMATCH,
    );
    c.finish();
});

dual_test!(never_key_types_are_type_mismatches, |t| {
    let table = t.create_table("ktypes", ("p", S), None).await;
    let b = t.backend();
    let mut c = Checks::new(&t);
    let mismatch = "The provided key element does not match the schema";
    for (value, ty) in not_strings() {
        if matches!(ty, "N" | "B") {
            // Key types, compared as before (keys.rs).
            continue;
        }
        let key = item([("p", value)]);
        // KNOWN DIFFERENCE: DynamoDB Local refuses a value that can never be a key with its own
        // text, before comparing types.
        let local = LOCAL_NEVER_A_KEY;
        let r = b
            .get_item(GetItemInput {
                table_name: table.clone(),
                key: key.clone(),
                ..Default::default()
            })
            .await;
        c.error_differs(
            &format!("GetItem {ty}"),
            r,
            "ValidationException",
            mismatch,
            local,
        );
        let r = b
            .update_item(UpdateItemInput {
                table_name: table.clone(),
                key: key.clone(),
                ..Default::default()
            })
            .await;
        c.error_differs(
            &format!("UpdateItem {ty}"),
            r,
            "ValidationException",
            mismatch,
            local,
        );
        let r = b
            .delete_item(DeleteItemInput {
                table_name: table.clone(),
                key: key.clone(),
                ..Default::default()
            })
            .await;
        c.error_differs(
            &format!("DeleteItem {ty}"),
            r,
            "ValidationException",
            mismatch,
            local,
        );
        let r = b
            .batch_get_item(BatchGetItemInput {
                request_items: [(
                    table.clone(),
                    KeysAndAttributes {
                        keys: vec![key.clone()],
                        ..Default::default()
                    },
                )]
                .into(),
                ..Default::default()
            })
            .await;
        c.error_differs(
            &format!("BatchGetItem {ty}"),
            r,
            "ValidationException",
            mismatch,
            local,
        );
        let r = b
            .put_item(PutItemInput {
                table_name: table.clone(),
                item: key,
                ..Default::default()
            })
            .await;
        c.error_differs(
            &format!("PutItem {ty}"),
            r,
            "ValidationException",
            &format!(
                "One or more parameter values were invalid: Type mismatch for key p expected: S \
                 actual: {ty}"
            ),
            local,
        );
    }
    c.finish();
});

dual_test!(index_keys_looked_inside_are_named_in_index_order, |t| {
    // LSI `lsi0` on `bb`; GSIs `gsi0` on `zz`, `gsi1` on (`ia`, `mm`).
    let table_name = t.table_name("korder");
    let def = |name: &str| AttributeDefinition {
        attribute_name: name.into(),
        attribute_type: S,
    };
    let all = Projection {
        projection_type: ProjectionType::All,
        non_key_attributes: vec![],
    };
    let gsi = |name: &str, key_schema: Vec<KeySchemaElement>| GlobalSecondaryIndex {
        index_name: name.into(),
        key_schema,
        projection: all.clone(),
        provisioned_throughput: None,
    };
    t.backend()
        .create_table(CreateTableInput {
            table_name: table_name.clone(),
            attribute_definitions: ["p", "s", "bb", "zz", "ia", "mm"].map(def).to_vec(),
            key_schema: vec![KeySchemaElement::hash("p"), KeySchemaElement::range("s")],
            billing_mode: Some(BillingMode::PayPerRequest),
            local_secondary_indexes: vec![LocalSecondaryIndex {
                index_name: "lsi0".into(),
                key_schema: vec![KeySchemaElement::hash("p"), KeySchemaElement::range("bb")],
                projection: all.clone(),
            }],
            global_secondary_indexes: vec![
                gsi("gsi0", vec![KeySchemaElement::hash("zz")]),
                gsi(
                    "gsi1",
                    vec![KeySchemaElement::hash("ia"), KeySchemaElement::range("mm")],
                ),
            ],
            ..Default::default()
        })
        .await
        .unwrap();
    let mut c = Checks::new(&t);
    // Whatever the order of the paths, the first index key in the order DynamoDB checks them:
    // LSIs, then GSIs, each as declared, hash key first.
    for (expression, named) in [
        ("REMOVE mm[0], ia.a", "ia"),
        ("REMOVE ia.a, zz[0]", "zz"),
        ("SET x = mm[0] REMOVE zz.a", "zz"),
        ("REMOVE zz.a, bb[0]", "bb"),
        ("REMOVE mm.a SET x = :v", "mm"),
    ] {
        let r = t
            .backend()
            .update_item(UpdateItemInput {
                table_name: table_name.clone(),
                key: item([("p", s("k")), ("s", s("k"))]),
                update_expression: Some(expression.into()),
                expression_attribute_values: expression
                    .contains(":v")
                    .then(|| item([(":v", s("x"))])),
                ..Default::default()
            })
            .await;
        c.error(
            expression,
            r,
            "ValidationException",
            &format!(
                "Key attributes must be scalars; list random access '[]' and map lookup '.' are \
                 not allowed: IndexKey: {named}"
            ),
        );
    }
    c.finish();
});
