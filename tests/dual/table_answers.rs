//! INCLUDE projections need their attributes; DeleteTable answers a
//! short description; an on-demand table reports when it became on-demand.

use chrono::{DateTime, Utc};
use dynomodel::backend::*;

use super::*;

fn def(name: &str) -> AttributeDefinition {
    AttributeDefinition {
        attribute_name: name.into(),
        attribute_type: S,
    }
}

fn include(non_key_attributes: &[&str]) -> Projection {
    Projection {
        projection_type: ProjectionType::Include,
        non_key_attributes: non_key_attributes.iter().map(|a| (*a).to_owned()).collect(),
    }
}

/// Table `pk`/`sk` with one GSI (`g`) or one LSI (`pk`, `l`) projected as `projection`.
fn indexed(t: &Dual, global: bool, projection: Projection) -> CreateTableInput {
    let mut input = CreateTableInput {
        table_name: t.table_name("incl"),
        attribute_definitions: vec![def("pk"), def("sk")],
        key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
        billing_mode: Some(BillingMode::PayPerRequest),
        ..Default::default()
    };
    if global {
        input.attribute_definitions.push(def("g"));
        input.global_secondary_indexes.push(GlobalSecondaryIndex {
            index_name: "by-g".into(),
            key_schema: vec![KeySchemaElement::hash("g")],
            projection,
            provisioned_throughput: None,
        });
    } else {
        input.attribute_definitions.push(def("l"));
        input.local_secondary_indexes.push(LocalSecondaryIndex {
            index_name: "by-l".into(),
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("l")],
            projection,
        });
    }
    input
}

dual_test!(include_projections_name_their_attributes_once, |t| {
    for global in [true, false] {
        let r = t
            .backend()
            .create_table(indexed(&t, global, include(&[])))
            .await;
        // KNOWN DIFFERENCE: DynamoDB Local has its own wording.
        t.expect_error_differs(
            r,
            "ValidationException",
            "One or more parameter values were invalid: ProjectionType is INCLUDE, but \
             NonKeyAttributes is not specified",
            "If Projection type INCLUDE is specified, some non-key attributes to include in the \
             projection must be specified as well",
        );
        let r = t
            .backend()
            .create_table(indexed(&t, global, include(&["x", "a", "x"])))
            .await;
        // KNOWN DIFFERENCE: DynamoDB Local does not name the duplicate.
        t.expect_error_differs(
            r,
            "ValidationException",
            "One or more parameter values were invalid: Duplicate element in NonKeyAttributes: x",
            "Cannot have two attributes with the same name",
        );
    }
});

dual_test!(delete_table_answers_a_short_description, |t| {
    let input = indexed(&t, true, include(&["x"]));
    let name = input.table_name.clone();
    t.backend().create_table(input).await.unwrap();
    let described = t
        .backend()
        .describe_table(DescribeTableInput {
            table_name: name.clone(),
        })
        .await
        .unwrap()
        .table;
    let deleted = t
        .backend()
        .delete_table(DeleteTableInput { table_name: name })
        .await
        .unwrap()
        .table_description;
    // What DynamoDB sends in every case.
    assert_eq!(deleted.table_name, described.table_name);
    assert_eq!(deleted.table_arn, described.table_arn);
    assert_eq!(deleted.provisioned_throughput.read_capacity_units, 0);
    assert_eq!(deleted.billing_mode, Some(BillingMode::PayPerRequest));
    assert_eq!(
        deleted.last_update_to_pay_per_request_date_time,
        described.last_update_to_pay_per_request_date_time
    );
    assert_eq!((deleted.item_count, deleted.table_size_bytes), (0, 0));
    // KNOWN DIFFERENCE: DynamoDB answers DELETING without the creation time, the schema and the
    // indexes (the API reference's example); DynamoDB Local answers ACTIVE with
    // the whole description.
    if t.target() == Target::DynamoDbLocal {
        assert_eq!(deleted.table_status, TableStatus::Active);
        assert_eq!(deleted.key_schema, described.key_schema);
        assert_eq!(deleted.global_secondary_indexes.len(), 1);
    } else {
        assert_eq!(deleted.table_id, described.table_id);
        assert_eq!(deleted.table_status, TableStatus::Deleting);
        assert_eq!(deleted.creation_date_time, DateTime::<Utc>::UNIX_EPOCH);
        assert!(deleted.key_schema.is_empty());
        assert!(deleted.attribute_definitions.is_empty());
        assert!(deleted.global_secondary_indexes.is_empty());
        assert!(deleted.local_secondary_indexes.is_empty());
    }
});

dual_test!(on_demand_tables_report_when_they_became_on_demand, |t| {
    let name = t.create_table("switch", ("pk", S), None).await;
    let d = t
        .backend()
        .describe_table(DescribeTableInput { table_name: name })
        .await
        .unwrap()
        .table;
    // A table created on-demand became on-demand when it was created.
    assert_eq!(
        d.last_update_to_pay_per_request_date_time,
        Some(d.creation_date_time)
    );
});
