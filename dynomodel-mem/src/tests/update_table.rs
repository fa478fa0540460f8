//! UpdateTable through the `Backend` trait: backfill, index removal, transitions on a `ManualClock`,
//! throughput history, streams, deletion protection and the refusals.

use std::time::Duration;

use dynomodel::backend::{
    Backend, BillingMode, DeleteTableInput, DescribeTableInput, GlobalSecondaryIndex,
    GlobalSecondaryIndexUpdate, KeySchemaElement, Projection, ProjectionType,
    ProvisionedThroughput, PutItemInput, QueryInput, ScalarAttributeType::S, ScanInput,
    StreamSpecification, StreamViewType, TableDescription, TableStatus,
    UpdateGlobalSecondaryIndexAction, UpdateTableInput,
};
use dynomodel::Error;

use super::{assert_validation, def, item, n, s, table_input, values};
use crate::{ManualClock, MemBackend};

const TABLE: &str = "things";

fn gsi(name: &str, key: &str) -> GlobalSecondaryIndex {
    GlobalSecondaryIndex {
        index_name: name.into(),
        key_schema: vec![KeySchemaElement::hash(key)],
        projection: Projection {
            projection_type: ProjectionType::All,
            non_key_attributes: vec![],
        },
        provisioned_throughput: None,
    }
}

fn create_gsi(name: &str, key: &str) -> UpdateTableInput {
    UpdateTableInput {
        table_name: TABLE.into(),
        attribute_definitions: vec![def(key, S)],
        global_secondary_index_updates: vec![GlobalSecondaryIndexUpdate::Create(gsi(name, key))],
        ..Default::default()
    }
}

fn pt(r: i64, w: i64) -> ProvisionedThroughput {
    ProvisionedThroughput {
        read_capacity_units: r,
        write_capacity_units: w,
    }
}

/// An engine whose changes take 10 s on a clock the test moves, with an on-demand table of 3 items:
/// two with a string `g`, one with a number `g`.
async fn populated(transition: Duration) -> (MemBackend, ManualClock) {
    let clock = ManualClock::default();
    let backend = MemBackend::builder()
        .clock(clock.clone())
        .transition_time(transition)
        .build();
    backend
        .create_table(table_input(TABLE, S, None))
        .await
        .expect("create");
    clock.advance(transition);
    for (pk, g) in [("a", s("G")), ("b", s("G")), ("c", n("1"))] {
        backend
            .put_item(PutItemInput {
                table_name: TABLE.into(),
                item: item(&[("pk", s(pk)), ("g", g)]),
                ..Default::default()
            })
            .await
            .expect("put");
    }
    (backend, clock)
}

async fn describe(backend: &MemBackend) -> TableDescription {
    backend
        .describe_table(DescribeTableInput {
            table_name: TABLE.into(),
        })
        .await
        .expect("describe")
        .table
}

async fn query_g(backend: &MemBackend, index: &str) -> Result<usize, Error> {
    backend
        .query(QueryInput {
            table_name: TABLE.into(),
            index_name: Some(index.into()),
            key_condition_expression: Some("g = :g".into()),
            expression_attribute_values: values(&[(":g", s("G"))]),
            ..Default::default()
        })
        .await
        .map(|o| usize::try_from(o.count).unwrap_or(0))
}

#[tokio::test]
async fn a_new_index_is_backfilled_and_skips_mistyped_items() {
    let (backend, _) = populated(Duration::ZERO).await;
    let out = backend
        .update_table(create_gsi("by-g", "g"))
        .await
        .expect("update");
    // The response shows the change in progress even with a zero transition time.
    let d = out.table_description;
    assert_eq!(d.table_status, TableStatus::Updating);
    assert_eq!(
        d.global_secondary_indexes[0].index_status,
        TableStatus::Creating
    );
    assert_eq!(d.global_secondary_indexes[0].backfilling, Some(false));
    let d = describe(&backend).await;
    assert_eq!(d.table_status, TableStatus::Active);
    let index = &d.global_secondary_indexes[0];
    assert_eq!(
        (index.index_status, index.backfilling),
        (TableStatus::Active, None)
    );
    // The item whose g is a number is not in the index.
    assert_eq!(index.item_count, 2);
    assert_eq!(query_g(&backend, "by-g").await, Ok(2));
    assert!(d
        .attribute_definitions
        .iter()
        .any(|a| a.attribute_name == "g"));
}

#[tokio::test]
async fn transitions_follow_the_clock() {
    let (backend, clock) = populated(Duration::from_secs(10)).await;
    backend
        .update_table(create_gsi("by-g", "g"))
        .await
        .expect("update");
    // Allocation: the table UPDATING, the index CREATING without backfilling.
    let d = describe(&backend).await;
    assert_eq!(d.table_status, TableStatus::Updating);
    assert_eq!(d.global_secondary_indexes[0].backfilling, Some(false));
    assert_validation(
        query_g(&backend, "by-g").await,
        "Cannot read from backfilling global secondary index: by-g",
    );
    let refused = backend.update_table(create_gsi("by-h", "h")).await;
    assert_eq!(
        refused.map_err(|e| (e.code().to_owned(), e.message())),
        Err((
            "LimitExceededException".to_owned(),
            "Subscriber limit exceeded: Only 1 online index can be created or deleted \
             simultaneously per table"
                .to_owned()
        ))
    );
    let delete = DeleteTableInput {
        table_name: TABLE.into(),
    };
    match backend.delete_table(delete.clone()).await {
        Err(Error::ResourceInUse { message }) => assert_eq!(
            message,
            "Attempt to change a resource which is still in use: Cannot delete table while indexes \
             are being created, updated, or deleted."
        ),
        other => panic!("expected ResourceInUse, got {other:?}"),
    }
    // Backfilling: the table ACTIVE again, the index still CREATING.
    clock.advance(Duration::from_secs(5));
    let d = describe(&backend).await;
    assert_eq!(d.table_status, TableStatus::Active);
    let index = &d.global_secondary_indexes[0];
    assert_eq!(
        (index.index_status, index.backfilling),
        (TableStatus::Creating, Some(true))
    );
    clock.advance(Duration::from_secs(5));
    let d = describe(&backend).await;
    assert_eq!(
        d.global_secondary_indexes[0].index_status,
        TableStatus::Active
    );
    assert_eq!(query_g(&backend, "by-g").await, Ok(2));
    backend
        .delete_table(delete)
        .await
        .expect("delete once active");
}

#[tokio::test]
async fn a_deleted_index_is_deleting_then_gone_with_its_attribute() {
    let (backend, clock) = populated(Duration::from_secs(4)).await;
    backend
        .update_table(create_gsi("by-g", "g"))
        .await
        .expect("create");
    clock.advance(Duration::from_secs(4));
    let delete = UpdateTableInput {
        table_name: TABLE.into(),
        global_secondary_index_updates: vec![GlobalSecondaryIndexUpdate::Delete {
            index_name: "by-g".into(),
        }],
        ..Default::default()
    };
    let d = backend
        .update_table(delete.clone())
        .await
        .expect("delete")
        .table_description;
    assert_eq!(
        d.global_secondary_indexes[0].index_status,
        TableStatus::Deleting
    );
    // Queries see it gone at once.
    assert_validation(
        query_g(&backend, "by-g").await,
        "The table does not have the specified index: by-g",
    );
    let d = describe(&backend).await;
    assert_eq!(d.table_status, TableStatus::Updating);
    assert!(d
        .attribute_definitions
        .iter()
        .any(|a| a.attribute_name == "g"));
    clock.advance(Duration::from_secs(4));
    let d = describe(&backend).await;
    assert_eq!(d.table_status, TableStatus::Active);
    assert!(d.global_secondary_indexes.is_empty());
    assert_eq!(d.attribute_definitions, vec![def("pk", S)]);
    // A new item with a number g is fine now that no index keys on g.
    backend
        .put_item(PutItemInput {
            table_name: TABLE.into(),
            item: item(&[("pk", s("d")), ("g", n("2"))]),
            ..Default::default()
        })
        .await
        .expect("put");
    match backend.update_table(delete).await {
        Err(Error::ResourceNotFound { message }) => {
            assert_eq!(
                message,
                "Requested resource not found: Index by-g for table things"
            )
        }
        other => panic!("expected ResourceNotFound, got {other:?}"),
    }
}

#[tokio::test]
async fn throughput_history_and_billing_switches() {
    let (backend, clock) = populated(Duration::from_secs(2)).await;
    let to_provisioned = UpdateTableInput {
        table_name: TABLE.into(),
        billing_mode: Some(BillingMode::Provisioned),
        provisioned_throughput: Some(pt(5, 5)),
        ..Default::default()
    };
    backend.update_table(to_provisioned).await.expect("switch");
    let busy = UpdateTableInput {
        table_name: TABLE.into(),
        provisioned_throughput: Some(pt(6, 5)),
        ..Default::default()
    };
    match backend.update_table(busy.clone()).await {
        Err(Error::ResourceInUse { message }) => assert_eq!(
            message,
            "Attempt to change a resource which is still in use: Table IOPS are currently being \
             updated. Table: things"
        ),
        other => panic!("expected ResourceInUse, got {other:?}"),
    }
    clock.advance(Duration::from_secs(2));
    let d = backend
        .update_table(busy)
        .await
        .expect("increase")
        .table_description;
    // The response shows the old capacity while UPDATING.
    assert_eq!(d.provisioned_throughput.read_capacity_units, 5);
    assert!(d.provisioned_throughput.last_increase_date_time.is_some());
    clock.advance(Duration::from_secs(2));
    let d = describe(&backend).await;
    assert_eq!(d.provisioned_throughput.read_capacity_units, 6);
    let same = UpdateTableInput {
        table_name: TABLE.into(),
        provisioned_throughput: Some(pt(6, 5)),
        ..Default::default()
    };
    assert_validation(
        backend.update_table(same).await,
        "The provisioned throughput for the table will not change. The requested value equals the \
         current value. Current ReadCapacityUnits provisioned for the table: 6. Requested \
         ReadCapacityUnits: 6. Current WriteCapacityUnits provisioned for the table: 5. Requested \
         WriteCapacityUnits: 5. Refer to the Amazon DynamoDB Developer Guide for current limits and \
         how to request higher limits.",
    );
    let decrease = UpdateTableInput {
        table_name: TABLE.into(),
        provisioned_throughput: Some(pt(1, 5)),
        ..Default::default()
    };
    backend.update_table(decrease).await.expect("decrease");
    clock.advance(Duration::from_secs(2));
    let d = describe(&backend).await;
    assert_eq!(d.provisioned_throughput.number_of_decreases_today, 1);
    assert!(d.provisioned_throughput.last_decrease_date_time.is_some());
    let to_on_demand = UpdateTableInput {
        table_name: TABLE.into(),
        billing_mode: Some(BillingMode::PayPerRequest),
        ..Default::default()
    };
    backend.update_table(to_on_demand).await.expect("on demand");
    let d = describe(&backend).await;
    assert_eq!(d.provisioned_throughput.read_capacity_units, 0);
    assert!(d.last_update_to_pay_per_request_date_time.is_some());
}

#[tokio::test]
async fn four_switches_to_on_demand_in_a_rolling_day() {
    let (backend, clock) = populated(Duration::ZERO).await;
    let switch = |mode| UpdateTableInput {
        table_name: TABLE.into(),
        billing_mode: Some(mode),
        provisioned_throughput: (mode == BillingMode::Provisioned).then(|| pt(5, 5)),
        ..Default::default()
    };
    // The table starts on-demand; four round trips, an hour apart.
    for _ in 0..4 {
        backend
            .update_table(switch(BillingMode::Provisioned))
            .await
            .expect("provisioned");
        backend
            .update_table(switch(BillingMode::PayPerRequest))
            .await
            .expect("on demand");
        clock.advance(Duration::from_secs(3600));
    }
    // Back to provisioned is always allowed; a fifth switch to on-demand within 24 hours is not.
    backend
        .update_table(switch(BillingMode::Provisioned))
        .await
        .expect("provisioned");
    match backend
        .update_table(switch(BillingMode::PayPerRequest))
        .await
    {
        Err(Error::Service { code, message }) => {
            assert_eq!(code, "LimitExceededException");
            assert_eq!(
                message,
                "Subscriber limit exceeded: Update to PayPerRequest mode are limited to 4 times in \
                 1 day(s)."
            );
        }
        other => panic!("expected LimitExceededException, got {other:?}"),
    }
    assert_eq!(
        describe(&backend).await.billing_mode,
        Some(BillingMode::Provisioned)
    );
    // 24 hours after the first switch, one slot is free again.
    clock.advance(Duration::from_secs(20 * 3600));
    backend
        .update_table(switch(BillingMode::PayPerRequest))
        .await
        .expect("on demand again");
}

#[tokio::test]
async fn streams_deletion_protection_and_empty_updates() {
    let (backend, clock) = populated(Duration::ZERO).await;
    let enable = UpdateTableInput {
        table_name: TABLE.into(),
        stream_specification: Some(StreamSpecification::enabled(StreamViewType::KeysOnly)),
        ..Default::default()
    };
    let first = backend.update_table(enable.clone()).await.expect("enable");
    let arn = first.table_description.latest_stream_arn.expect("arn");
    let label = first.table_description.latest_stream_label.expect("label");
    assert_eq!(
        arn,
        format!("arn:aws:dynamodb:ddblocal:000000000000:table/things/stream/{label}")
    );
    assert_validation(
        backend.update_table(enable.clone()).await,
        "Table already has an enabled stream: TableName: things",
    );
    let disable = UpdateTableInput {
        table_name: TABLE.into(),
        stream_specification: Some(StreamSpecification::disabled()),
        ..Default::default()
    };
    backend
        .update_table(disable.clone())
        .await
        .expect("disable");
    assert_validation(
        backend.update_table(disable).await,
        "Table has no stream to disable: TableName: things",
    );
    // Enabled again (even at the same instant): a new stream.
    let again = backend.update_table(enable).await.expect("enable again");
    assert_ne!(again.table_description.latest_stream_arn, Some(arn));
    clock.advance(Duration::from_secs(1));

    let protect = |on| UpdateTableInput {
        table_name: TABLE.into(),
        deletion_protection_enabled: Some(on),
        ..Default::default()
    };
    backend.update_table(protect(true)).await.expect("protect");
    let delete = DeleteTableInput {
        table_name: TABLE.into(),
    };
    assert_validation(
        backend.delete_table(delete.clone()).await,
        "Resource cannot be deleted as it is currently protected against deletion. Disable \
         deletion protection first.",
    );
    backend
        .update_table(protect(false))
        .await
        .expect("unprotect");
    backend.delete_table(delete).await.expect("delete");

    let nothing = UpdateTableInput {
        table_name: TABLE.into(),
        ..Default::default()
    };
    assert_validation(
        backend.update_table(nothing).await,
        crate::ops::update_table::NOTHING_TO_UPDATE,
    );
}

#[tokio::test]
async fn refused_requests_change_nothing() {
    let (backend, _) = populated(Duration::ZERO).await;
    let before = describe(&backend).await;
    let mut two = create_gsi("by-g", "g");
    two.global_secondary_index_updates
        .push(GlobalSecondaryIndexUpdate::Create(gsi("by-h", "h")));
    two.attribute_definitions.push(def("h", S));
    assert_eq!(
        backend
            .update_table(two)
            .await
            .map_err(|e| e.code().to_owned()),
        Err("LimitExceededException".to_owned())
    );
    let mut with_throughput = create_gsi("by-g", "g");
    with_throughput.global_secondary_index_updates =
        vec![GlobalSecondaryIndexUpdate::Create(GlobalSecondaryIndex {
            provisioned_throughput: Some(pt(1, 1)),
            ..gsi("by-g", "g")
        })];
    assert_validation(
        backend.update_table(with_throughput).await,
        "One or more parameter values were invalid: Neither ReadCapacityUnits nor \
         WriteCapacityUnits can be specified for index: by-g when BillingMode is PAY_PER_REQUEST",
    );
    let update_on_demand = UpdateTableInput {
        table_name: TABLE.into(),
        global_secondary_index_updates: vec![GlobalSecondaryIndexUpdate::Update(
            UpdateGlobalSecondaryIndexAction {
                index_name: "nope".into(),
                provisioned_throughput: pt(1, 1),
            },
        )],
        ..Default::default()
    };
    assert!(matches!(
        backend.update_table(update_on_demand).await,
        Err(Error::ResourceNotFound { .. })
    ));
    let no_definitions = UpdateTableInput {
        attribute_definitions: vec![],
        ..create_gsi("by-g", "g")
    };
    assert_validation(
        backend.update_table(no_definitions).await,
        "One or more parameter values were invalid: AttributeDefinitions is not specified for \
         index: by-g",
    );
    let d = describe(&backend).await;
    assert_eq!(d.global_secondary_indexes, before.global_secondary_indexes);
    assert_eq!(d.attribute_definitions, before.attribute_definitions);
}

#[tokio::test]
async fn limits_and_endpoints() {
    let backend = MemBackend::builder().region("eu-west-1").build();
    let limits = backend
        .describe_limits(Default::default())
        .await
        .expect("limits");
    assert_eq!(
        (
            limits.account_max_read_capacity_units,
            limits.table_max_write_capacity_units
        ),
        (80_000, 40_000)
    );
    let endpoints = backend
        .describe_endpoints(Default::default())
        .await
        .expect("endpoints");
    assert_eq!(endpoints.endpoints.len(), 1);
    assert_eq!(
        endpoints.endpoints[0].address,
        "dynamodb.eu-west-1.amazonaws.com"
    );
    assert_eq!(endpoints.endpoints[0].cache_period_in_minutes, 1440);
}

/// The backfilling index is refused as soon as it is looked up: before the key condition, the start
/// key or the consistency is checked against it. An unknown index keeps its own errors.
#[tokio::test]
async fn a_backfilling_index_is_refused_before_the_request_is_checked_against_it() {
    let (backend, clock) = populated(Duration::from_secs(10)).await;
    backend
        .update_table(create_gsi("by-g", "g"))
        .await
        .expect("update");
    let wrong_key = QueryInput {
        table_name: TABLE.into(),
        index_name: Some("by-g".into()),
        key_condition_expression: Some("pk = :g".into()),
        expression_attribute_values: values(&[(":g", s("G"))]),
        ..Default::default()
    };
    let consistent_scan = ScanInput {
        table_name: TABLE.into(),
        index_name: Some("by-g".into()),
        consistent_read: Some(true),
        exclusive_start_key: Some(item(&[("nope", s("x"))])),
        ..Default::default()
    };
    let refused = "Cannot read from backfilling global secondary index: by-g";
    assert_validation(backend.query(wrong_key.clone()).await, refused);
    assert_validation(backend.scan(consistent_scan.clone()).await, refused);
    assert_validation(
        backend
            .scan(ScanInput {
                index_name: Some("nope".into()),
                ..consistent_scan.clone()
            })
            .await,
        "The provided starting key is invalid",
    );
    // Once ACTIVE, the same requests get the errors of their own problems.
    clock.advance(Duration::from_secs(10));
    let query_error = backend.query(wrong_key).await.expect_err("wrong key");
    assert!(
        query_error
            .message()
            .starts_with("Query condition missed key schema element"),
        "{query_error:?}"
    );
    assert_validation(
        backend.scan(consistent_scan).await,
        "Consistent reads are not supported on global secondary indexes",
    );
}
