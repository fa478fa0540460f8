//! BatchWriteItem keeps local and global secondary indexes in step, and checks index keys as PutItem.

use super::*;

fn def(name: &str, ty: ScalarAttributeType) -> AttributeDefinition {
    AttributeDefinition {
        attribute_name: name.into(),
        attribute_type: ty,
    }
}

fn all() -> Projection {
    Projection {
        projection_type: ProjectionType::All,
        non_key_attributes: vec![],
    }
}

/// Table `pk`/`sk` with LSI `by-l` (pk, l) and GSI `by-g` (g, sk), both ALL.
async fn indexed_table(t: &Dual) -> String {
    let table_name = t.table_name("idx");
    t.backend()
        .create_table(CreateTableInput {
            table_name: table_name.clone(),
            attribute_definitions: vec![def("pk", S), def("sk", N), def("l", S), def("g", S)],
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
            billing_mode: Some(BillingMode::PayPerRequest),
            local_secondary_indexes: vec![LocalSecondaryIndex {
                index_name: "by-l".into(),
                key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("l")],
                projection: all(),
            }],
            global_secondary_indexes: vec![GlobalSecondaryIndex {
                index_name: "by-g".into(),
                key_schema: vec![KeySchemaElement::hash("g"), KeySchemaElement::range("sk")],
                projection: all(),
                provisioned_throughput: None,
            }],
            ..Default::default()
        })
        .await
        .unwrap();
    table_name
}

/// The `sk` numbers an index query returns, in order.
async fn index_sks(
    t: &Dual,
    table: &str,
    index: &str,
    condition: &str,
    v: AttributeValue,
) -> Vec<AttributeValue> {
    let out = t
        .backend()
        .query(QueryInput {
            table_name: table.into(),
            index_name: Some(index.into()),
            key_condition_expression: Some(condition.into()),
            expression_attribute_values: Some(item([(":v", v)])),
            ..Default::default()
        })
        .await
        .unwrap();
    out.items
        .unwrap_or_default()
        .iter()
        .filter_map(|i| i.get("sk").cloned())
        .collect()
}

fn row(sk: i64, l: Option<&str>, g: Option<&str>) -> Item {
    let mut it = r("p", sk);
    if let Some(l) = l {
        it.insert("l".into(), s(l));
    }
    if let Some(g) = g {
        it.insert("g".into(), s(g));
    }
    it
}

dual_test!(batch_write_maintains_indexes, |t| {
    let table = indexed_table(&t).await;
    let writes = (1..=5)
        .map(|i| {
            let g = if i % 2 == 0 { "even" } else { "odd" };
            put(row(i, Some(&format!("l{}", 9 - i)), Some(g)))
        })
        .collect();
    write(&t, vec![(table.as_str(), writes)]).await.unwrap();
    let sks = |list: &[i64]| list.iter().map(|i| num(&i.to_string())).collect::<Vec<_>>();
    assert_eq!(
        index_sks(&t, &table, "by-g", "g = :v", s("odd")).await,
        sks(&[1, 3, 5])
    );
    assert_eq!(
        index_sks(&t, &table, "by-l", "pk = :v", s("p")).await,
        sks(&[5, 4, 3, 2, 1])
    );
    // Delete two, move one to the other GSI partition, take another out of the LSI (sparse).
    write(
        &t,
        vec![(
            table.as_str(),
            vec![
                del(r("p", 1)),
                del(r("p", 2)),
                put(row(3, Some("l6"), Some("even"))),
                put(row(4, None, Some("even"))),
            ],
        )],
    )
    .await
    .unwrap();
    assert_eq!(
        index_sks(&t, &table, "by-g", "g = :v", s("odd")).await,
        sks(&[5])
    );
    assert_eq!(
        index_sks(&t, &table, "by-g", "g = :v", s("even")).await,
        sks(&[3, 4])
    );
    assert_eq!(
        index_sks(&t, &table, "by-l", "pk = :v", s("p")).await,
        sks(&[5, 3])
    );
});

dual_test!(batch_write_checks_index_keys_as_put_item, |t| {
    let table = indexed_table(&t).await;
    let mut wrong = row(2, None, None);
    wrong.insert("g".into(), num("1"));
    // KNOWN DIFFERENCE: DynamoDB Local stops after "Type mismatch for Index Key", as for PutItem.
    t.expect_error_differs(
        write(&t, vec![(table.as_str(), vec![put(row(1, None, Some("g"))), put(wrong)])]).await,
        "ValidationException",
        "One or more parameter values were invalid: Type mismatch for Index Key g Expected: S Actual: N \
         IndexName: by-g",
        "One or more parameter values were invalid: Type mismatch for Index Key",
    );
    t.expect_error(
        write(&t, vec![(table.as_str(), vec![put(row(1, None, Some("")))])]).await,
        "ValidationException",
        "One or more parameter values are not valid. A value specified for a secondary index key is not \
         supported. The AttributeValue for a key attribute cannot contain an empty string value. \
         IndexName: by-g, IndexKey: g",
    );
    assert_eq!(read(&t, &table, r("p", 1)).await, None);
});
