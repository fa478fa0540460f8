//! Secondary indexes — Query on an LSI and GSIs, LastEvaluatedKey round trips (index keys plus
//! table keys), a sparse GSI, KEYS_ONLY/INCLUDE/ALL projections, Select, ConsistentRead on a GSI, and
//! DescribeTable of the indexes.

use dynomodel::backend::*;
use dynomodel::*;

use super::*;

fn def(name: &str, ty: ScalarAttributeType) -> AttributeDefinition {
    AttributeDefinition {
        attribute_name: name.into(),
        attribute_type: ty,
    }
}

fn projection(projection_type: ProjectionType, non_key_attributes: &[&str]) -> Projection {
    Projection {
        projection_type,
        non_key_attributes: non_key_attributes.iter().map(|a| (*a).to_owned()).collect(),
    }
}

/// Table `pk`/`sk`; LSI `by-l` (pk, l) INCLUDE x; GSI `by-g` (g, sk) KEYS_ONLY; GSI `all-g` (g) ALL.
async fn indexed_table(t: &Dual) -> String {
    let table_name = t.table_name("idx");
    let gsi = |name: &str, keys: Vec<KeySchemaElement>| GlobalSecondaryIndex {
        index_name: name.into(),
        key_schema: keys,
        projection: projection(
            if name == "by-g" {
                ProjectionType::KeysOnly
            } else {
                ProjectionType::All
            },
            &[],
        ),
        provisioned_throughput: None,
    };
    t.backend()
        .create_table(CreateTableInput {
            table_name: table_name.clone(),
            attribute_definitions: vec![def("pk", S), def("sk", N), def("l", S), def("g", S)],
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
            billing_mode: Some(BillingMode::PayPerRequest),
            local_secondary_indexes: vec![LocalSecondaryIndex {
                index_name: "by-l".into(),
                key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("l")],
                projection: projection(ProjectionType::Include, &["x"]),
            }],
            global_secondary_indexes: vec![
                gsi(
                    "by-g",
                    vec![KeySchemaElement::hash("g"), KeySchemaElement::range("sk")],
                ),
                gsi("all-g", vec![KeySchemaElement::hash("g")]),
            ],
            ..Default::default()
        })
        .await
        .unwrap();
    // Items 1..=6 in partition "p": l descends as sk ascends; only even items have g (sparse GSIs).
    for i in 1..=6 {
        let mut it = item([
            ("pk", s("p")),
            ("sk", num(&i.to_string())),
            ("l", s(&format!("l{}", 9 - i))),
            ("x", num("1")),
            ("y", num("2")),
        ]);
        if i % 2 == 0 {
            it.insert("g".into(), s("G"));
        }
        t.backend()
            .put_item(PutItemInput {
                table_name: table_name.clone(),
                item: it,
                ..Default::default()
            })
            .await
            .unwrap();
    }
    table_name
}

fn on_index(table: &str, index: &str, condition: &str, value: AttributeValue) -> QueryInput {
    QueryInput {
        table_name: table.to_owned(),
        index_name: Some(index.to_owned()),
        key_condition_expression: Some(condition.to_owned()),
        expression_attribute_values: Some(item([(":v", value)])),
        ..Default::default()
    }
}

fn sks(out: &QueryOutput) -> Vec<AttributeValue> {
    out.items
        .iter()
        .flatten()
        .map(|i| i["sk"].clone())
        .collect()
}

dual_test!(lsi_and_gsi_queries_and_keys, |t| {
    let table = indexed_table(&t).await;
    let b = t.backend();
    // LSI: ordered by l, so sk descends; INCLUDE returns keys + x only.
    let out = b
        .query(on_index(&table, "by-l", "pk = :v", s("p")))
        .await
        .unwrap();
    assert_eq!(
        sks(&out),
        (1..=6)
            .rev()
            .map(|i| num(&i.to_string()))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        out.items.as_ref().unwrap()[0],
        item([
            ("pk", s("p")),
            ("sk", num("6")),
            ("l", s("l3")),
            ("x", num("1"))
        ])
    );
    // ALL_ATTRIBUTES on an LSI fetches unprojected attributes from the table.
    let mut all = on_index(&table, "by-l", "pk = :v", s("p"));
    all.select = Some(Select::AllAttributes);
    all.limit = Some(1);
    let out = b.query(all).await.unwrap();
    assert_eq!(out.items.unwrap()[0].get("y"), Some(&num("2")));
    // The LSI's LastEvaluatedKey holds the index key and the table key, and resumes the query.
    let mut page = on_index(&table, "by-l", "pk = :v", s("p"));
    page.limit = Some(2);
    let out = b.query(page.clone()).await.unwrap();
    let lek = out.last_evaluated_key.unwrap();
    assert_eq!(
        lek,
        item([("pk", s("p")), ("sk", num("5")), ("l", s("l4"))])
    );
    page.exclusive_start_key = Some(lek);
    assert_eq!(sks(&b.query(page).await.unwrap()), vec![num("4"), num("3")]);

    // Sparse KEYS_ONLY GSI: only items with g, only key attributes.
    let out = b
        .query(on_index(&table, "by-g", "g = :v", s("G")))
        .await
        .unwrap();
    assert_eq!(out.items.as_ref().unwrap().len(), 3);
    assert_eq!(
        out.items.as_ref().unwrap()[0],
        item([("pk", s("p")), ("sk", num("2")), ("g", s("G"))])
    );
    let mut page = on_index(&table, "by-g", "g = :v", s("G"));
    page.limit = Some(1);
    page.scan_index_forward = Some(false);
    let out = b.query(page.clone()).await.unwrap();
    let lek = out.last_evaluated_key.unwrap();
    assert_eq!(lek, item([("pk", s("p")), ("sk", num("6")), ("g", s("G"))]));
    page.exclusive_start_key = Some(lek);
    assert_eq!(sks(&b.query(page).await.unwrap()), vec![num("4")]);
    // ALL GSI: every attribute; ALL_PROJECTED_ATTRIBUTES is the same there.
    let mut projected = on_index(&table, "all-g", "g = :v", s("G"));
    projected.select = Some(Select::AllProjectedAttributes);
    let out = b.query(projected).await.unwrap();
    assert_eq!(out.items.unwrap().len(), 3);
    let scan = b
        .scan(ScanInput {
            table_name: table.clone(),
            index_name: Some("by-g".into()),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(scan.count, 3);
});

dual_test!(index_request_errors_and_description, |t| {
    let table = indexed_table(&t).await;
    let b = t.backend();
    let mut consistent = on_index(&table, "by-g", "g = :v", s("G"));
    consistent.consistent_read = Some(true);
    t.expect_error(
        b.query(consistent).await,
        "ValidationException",
        "Consistent reads are not supported on global secondary indexes",
    );
    let mut all = on_index(&table, "by-g", "g = :v", s("G"));
    all.select = Some(Select::AllAttributes);
    t.expect_error(b.query(all).await, "ValidationException", "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global secondary index by-g because its projection type is not ALL");
    t.expect_error(
        b.query(on_index(&table, "nope", "pk = :v", s("p"))).await,
        "ValidationException",
        "The table does not have the specified index: nope",
    );
    let mut filter = on_index(&table, "by-l", "pk = :v", s("p"));
    filter.filter_expression = Some("l = :v".into());
    t.expect_error(
        b.query(filter).await,
        "ValidationException",
        "Filter Expression can only contain non-primary key attributes: Primary key attribute: l",
    );

    let desc = b
        .describe_table(DescribeTableInput {
            table_name: table.clone(),
        })
        .await
        .unwrap()
        .table;
    assert_eq!(desc.local_secondary_indexes.len(), 1);
    assert_eq!(desc.local_secondary_indexes[0].index_name, "by-l");
    assert_eq!(
        desc.local_secondary_indexes[0].projection,
        projection(ProjectionType::Include, &["x"])
    );
    let mut gsis: Vec<_> = desc
        .global_secondary_indexes
        .iter()
        .map(|g| (g.index_name.clone(), g.projection.projection_type))
        .collect();
    gsis.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        gsis,
        vec![
            ("all-g".into(), ProjectionType::All),
            ("by-g".into(), ProjectionType::KeysOnly)
        ]
    );
});
