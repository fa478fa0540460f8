//! The table schema a model derives: name, key schema and key types, billing mode and throughput.
//! The indexes' part is in `indexes`.

use dynomodel::backend::{BillingMode, KeyType, ProvisionedThroughput, ScalarAttributeType};
use dynomodel::Model;

use crate::{Blob, Event, Everything, Tweet, User};

#[test]
fn schema_has_keys_types_and_provisioned_billing() {
    let schema = Tweet::schema();
    assert_eq!(Tweet::TABLE_NAME, "tweets");
    assert_eq!(schema.table_name, "tweets");
    let keys: Vec<(&str, KeyType)> = schema
        .key_schema
        .iter()
        .map(|k| (k.attribute_name.as_str(), k.key_type))
        .collect();
    assert_eq!(keys, [("userid", KeyType::Hash), ("id", KeyType::Range)]);
    let types: Vec<(&str, ScalarAttributeType)> = schema
        .attribute_definitions
        .iter()
        .map(|d| (d.attribute_name.as_str(), d.attribute_type))
        .collect();
    assert_eq!(
        types,
        [
            ("userid", ScalarAttributeType::S),
            ("id", ScalarAttributeType::S)
        ]
    );
    assert_eq!(schema.billing_mode, Some(BillingMode::Provisioned));
    assert_eq!(
        schema.provisioned_throughput,
        Some(ProvisionedThroughput {
            read_capacity_units: 10,
            write_capacity_units: 2
        })
    );
    assert!(schema.global_secondary_indexes.is_empty());
    assert!(schema.local_secondary_indexes.is_empty());
}

#[test]
fn schema_defaults_to_on_demand_and_the_struct_name() {
    let schema = Everything::schema();
    assert_eq!(schema.table_name, "Everything");
    assert_eq!(schema.billing_mode, Some(BillingMode::PayPerRequest));
    assert_eq!(schema.provisioned_throughput, None);
    let types: Vec<ScalarAttributeType> = schema
        .attribute_definitions
        .iter()
        .map(|d| d.attribute_type)
        .collect();
    // `at` is a DateTime stored as epoch seconds: N.
    assert_eq!(types, [ScalarAttributeType::N, ScalarAttributeType::N]);
    assert_eq!(
        Blob::schema().billing_mode,
        Some(BillingMode::PayPerRequest)
    );
}

#[test]
fn key_types_follow_the_field_types() {
    let types = |schema: dynomodel::backend::CreateTableInput| -> Vec<ScalarAttributeType> {
        schema
            .attribute_definitions
            .iter()
            .map(|d| d.attribute_type)
            .collect()
    };
    assert_eq!(
        types(Event::schema()),
        [ScalarAttributeType::N, ScalarAttributeType::B]
    );
    assert_eq!(types(Blob::schema()), [ScalarAttributeType::B]);
    assert_eq!(types(User::schema()), [ScalarAttributeType::S]);
}
