//! The data-path workload of docs/performance.md, shared by the `datapath` and `memory` benches: items of 8 attributes,
//! 149 bytes by DynamoDB's size rule, 100 to a partition (so a Query of 20 reads one partition).

use std::collections::BTreeMap;

use dynomodel::backend::{
    AttributeDefinition, Backend, BillingMode, CreateTableInput, KeySchemaElement, PutItemInput,
    QueryInput, ScalarAttributeType, UpdateItemInput,
};
use dynomodel::{AttributeValue, Item, Number};
use dynomodel_mem::MemBackend;

/// The table.
pub(crate) const TABLE: &str = "bench";
/// Items in the speed benches' table.
pub(crate) const ITEMS: usize = 10_000;
/// Items per partition.
pub(crate) const PARTITION: usize = 100;

/// The key of item `i`.
pub(crate) fn key(i: usize) -> Item {
    Item::from([
        (
            "pk".to_string(),
            AttributeValue::S(format!("user{:04}", i / PARTITION)),
        ),
        (
            "sk".to_string(),
            AttributeValue::N(Number::from((i % PARTITION) as i64)),
        ),
    ])
}

/// Item `i`: its key and six attributes of the usual kinds (149 bytes for two-digit sort keys).
pub(crate) fn item(i: usize) -> Item {
    let mut item = key(i);
    let s = |v: String| AttributeValue::S(v);
    let n = |v: i64| AttributeValue::N(Number::from(v));
    item.insert("name".into(), s(format!("Customer {:011}", i)));
    item.insert("email".into(), s(format!("customer{:08}@example.com", i)));
    item.insert("age".into(), n(20 + (i % 60) as i64));
    item.insert("active".into(), AttributeValue::Bool(true));
    item.insert("score".into(), n(100 + (i % 900) as i64));
    item.insert("bio".into(), s(format!("{:0>55}", i)));
    item
}

/// A backend holding one table of `items` items.
pub(crate) async fn populate(items: usize) -> MemBackend {
    let backend = MemBackend::new();
    create(&backend).await;
    for i in 0..items {
        put(&backend, i).await;
    }
    backend
}

/// Creates the table.
pub(crate) async fn create(backend: &MemBackend) {
    backend
        .create_table(CreateTableInput {
            table_name: TABLE.into(),
            attribute_definitions: vec![
                AttributeDefinition {
                    attribute_name: "pk".into(),
                    attribute_type: ScalarAttributeType::S,
                },
                AttributeDefinition {
                    attribute_name: "sk".into(),
                    attribute_type: ScalarAttributeType::N,
                },
            ],
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
            billing_mode: Some(BillingMode::PayPerRequest),
            ..Default::default()
        })
        .await
        .unwrap();
}

/// Writes item `i`.
pub(crate) async fn put(backend: &MemBackend, i: usize) {
    backend
        .put_item(PutItemInput {
            table_name: TABLE.into(),
            item: item(i),
            ..Default::default()
        })
        .await
        .unwrap();
}

/// A Query of the 20 items 10..=29 of `partition`.
pub(crate) fn query_20(partition: usize) -> QueryInput {
    let names = BTreeMap::from([
        ("#p".to_string(), "pk".to_string()),
        ("#s".to_string(), "sk".to_string()),
    ]);
    let values = Item::from([
        (
            ":p".to_string(),
            AttributeValue::S(format!("user{partition:04}")),
        ),
        (":lo".to_string(), AttributeValue::N(Number::from(10))),
        (":hi".to_string(), AttributeValue::N(Number::from(29))),
    ]);
    QueryInput {
        table_name: TABLE.into(),
        key_condition_expression: Some("#p = :p AND #s BETWEEN :lo AND :hi".into()),
        expression_attribute_names: Some(names),
        expression_attribute_values: Some(values),
        ..Default::default()
    }
}

/// A conditional update of item `i` (its condition holds).
pub(crate) fn update(i: usize) -> UpdateItemInput {
    UpdateItemInput {
        table_name: TABLE.into(),
        key: key(i),
        update_expression: Some("SET score = score + :d".into()),
        condition_expression: Some("active = :t".into()),
        expression_attribute_values: Some(Item::from([
            (":d".to_string(), AttributeValue::N(Number::from(1))),
            (":t".to_string(), AttributeValue::Bool(true)),
        ])),
        ..Default::default()
    }
}

/// Creates the table with an index `by-email` on the unique `email` attribute: a GSI (`global`) or
/// an LSI, of `projection_type` (INCLUDE: `name`).
pub(crate) async fn create_indexed(
    backend: &MemBackend,
    global: bool,
    projection_type: dynomodel::backend::ProjectionType,
) {
    use dynomodel::backend::{
        AttributeDefinition, Backend, BillingMode, CreateTableInput, GlobalSecondaryIndex,
        KeySchemaElement, LocalSecondaryIndex, Projection, ProjectionType, ScalarAttributeType,
    };
    let s = |name: &str| AttributeDefinition {
        attribute_name: name.into(),
        attribute_type: ScalarAttributeType::S,
    };
    let non_key_attributes = match projection_type {
        ProjectionType::Include => vec!["name".to_string()],
        _ => vec![],
    };
    let projection = Projection {
        projection_type,
        non_key_attributes,
    };
    let (global_secondary_indexes, local_secondary_indexes) = if global {
        let gsi = GlobalSecondaryIndex {
            index_name: "by-email".into(),
            key_schema: vec![KeySchemaElement::hash("email")],
            projection,
            provisioned_throughput: None,
        };
        (vec![gsi], vec![])
    } else {
        let lsi = LocalSecondaryIndex {
            index_name: "by-email".into(),
            key_schema: vec![
                KeySchemaElement::hash("pk"),
                KeySchemaElement::range("email"),
            ],
            projection,
        };
        (vec![], vec![lsi])
    };
    backend
        .create_table(CreateTableInput {
            table_name: TABLE.into(),
            attribute_definitions: vec![
                s("pk"),
                AttributeDefinition {
                    attribute_name: "sk".into(),
                    attribute_type: ScalarAttributeType::N,
                },
                s("email"),
            ],
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
            global_secondary_indexes,
            local_secondary_indexes,
            billing_mode: Some(BillingMode::PayPerRequest),
            ..Default::default()
        })
        .await
        .unwrap();
}
