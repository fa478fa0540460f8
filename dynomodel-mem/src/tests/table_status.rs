//! A table's own lifecycle on a `ManualClock`: CREATING after CreateTable and DELETING after DeleteTable
//! for the engine's transition time, what each operation answers meanwhile, and the responses that say
//! CREATING and DELETING even when the transition time is zero.

use std::time::Duration;

use dynomodel::backend::{
    Backend, BatchWriteItemInput, CreateTableInput, DeleteTableInput, DescribeTableInput,
    GetItemInput, GlobalSecondaryIndex, KeySchemaElement, ListTablesInput, Projection,
    ProjectionType, PutItemInput, QueryInput, ScalarAttributeType::S, ScanInput, TableStatus,
    TransactPut, TransactWriteItem, TransactWriteItemsInput, UpdateTableInput, WriteRequest,
};
use dynomodel::Error;

use super::{def, item, s, table_input, values};
use crate::{ManualClock, MemBackend};

const TABLE: &str = "things";
const TEN: Duration = Duration::from_secs(10);

fn with_index() -> CreateTableInput {
    let mut input = table_input(TABLE, S, None);
    input.attribute_definitions.push(def("g", S));
    input.global_secondary_indexes = vec![GlobalSecondaryIndex {
        index_name: "by-g".into(),
        key_schema: vec![KeySchemaElement::hash("g")],
        projection: Projection {
            projection_type: ProjectionType::All,
            non_key_attributes: vec![],
        },
        provisioned_throughput: None,
    }];
    input
}

fn slow() -> (MemBackend, ManualClock) {
    let clock = ManualClock::default();
    let backend = MemBackend::builder()
        .clock(clock.clone())
        .transition_time(TEN)
        .build();
    (backend, clock)
}

fn put(pk: &str) -> PutItemInput {
    PutItemInput {
        table_name: TABLE.into(),
        item: item(&[("pk", s(pk)), ("g", s("G"))]),
        ..Default::default()
    }
}

fn key(pk: &str) -> GetItemInput {
    GetItemInput {
        table_name: TABLE.into(),
        key: item(&[("pk", s(pk))]),
        ..Default::default()
    }
}

async fn status(backend: &MemBackend) -> Result<TableStatus, Error> {
    backend
        .describe_table(DescribeTableInput {
            table_name: TABLE.into(),
        })
        .await
        .map(|o| o.table.table_status)
}

async fn listed(backend: &MemBackend) -> Vec<String> {
    backend
        .list_tables(ListTablesInput::default())
        .await
        .expect("list")
        .table_names
}

fn delete() -> DeleteTableInput {
    DeleteTableInput {
        table_name: TABLE.into(),
    }
}

fn in_use<T: std::fmt::Debug>(r: Result<T, Error>, detail: &str) {
    match r {
        Err(Error::ResourceInUse { message }) => assert_eq!(
            message,
            format!("Attempt to change a resource which is still in use: {detail}")
        ),
        other => panic!("expected ResourceInUse ({detail}), got {other:?}"),
    }
}

/// The data plane's answer for a table it cannot use: the bare "Requested resource not found".
fn not_found<T: std::fmt::Debug>(r: Result<T, Error>) {
    match r {
        Err(Error::ResourceNotFound { message }) => {
            assert_eq!(message, "Requested resource not found")
        }
        other => panic!("expected ResourceNotFound, got {other:?}"),
    }
}

#[tokio::test]
async fn a_new_table_is_creating_until_the_transition_has_passed() {
    let (backend, clock) = slow();
    let created = backend
        .create_table(with_index())
        .await
        .expect("create")
        .table_description;
    assert_eq!(created.table_status, TableStatus::Creating);
    let gsi = &created.global_secondary_indexes[0];
    assert_eq!(
        (gsi.index_status, gsi.backfilling),
        (TableStatus::Creating, None)
    );
    assert_eq!(status(&backend).await, Ok(TableStatus::Creating));
    assert_eq!(listed(&backend).await, vec![TABLE.to_owned()]);

    // Every item operation, read and batch answers as for a missing table.
    not_found(backend.put_item(put("a")).await);
    not_found(backend.get_item(key("a")).await);
    not_found(
        backend
            .query(QueryInput {
                table_name: TABLE.into(),
                index_name: Some("by-g".into()),
                key_condition_expression: Some("g = :g".into()),
                expression_attribute_values: values(&[(":g", s("G"))]),
                ..Default::default()
            })
            .await,
    );
    not_found(
        backend
            .scan(ScanInput {
                table_name: TABLE.into(),
                ..Default::default()
            })
            .await,
    );
    not_found(
        backend
            .batch_write_item(BatchWriteItemInput {
                request_items: [(
                    TABLE.to_owned(),
                    vec![WriteRequest::Put {
                        item: put("a").item,
                    }],
                )]
                .into(),
                ..Default::default()
            })
            .await,
    );
    not_found(
        backend
            .transact_write_items(TransactWriteItemsInput {
                transact_items: vec![TransactWriteItem::Put(TransactPut {
                    table_name: TABLE.into(),
                    item: put("a").item,
                    ..Default::default()
                })],
                ..Default::default()
            })
            .await,
    );
    // The control plane refuses to change it.
    let detail = format!("Table is being created: {TABLE}");
    in_use(
        backend
            .update_table(UpdateTableInput {
                table_name: TABLE.into(),
                deletion_protection_enabled: Some(true),
                ..Default::default()
            })
            .await,
        &detail,
    );
    in_use(backend.delete_table(delete()).await, &detail);

    clock.advance(TEN - Duration::from_millis(1));
    assert_eq!(status(&backend).await, Ok(TableStatus::Creating));
    clock.advance(Duration::from_millis(1));
    let d = backend
        .describe_table(DescribeTableInput {
            table_name: TABLE.into(),
        })
        .await
        .expect("describe")
        .table;
    assert_eq!(d.table_status, TableStatus::Active);
    assert_eq!(
        d.global_secondary_indexes[0].index_status,
        TableStatus::Active
    );
    backend.put_item(put("a")).await.expect("put once ACTIVE");
    assert!(backend
        .get_item(key("a"))
        .await
        .expect("get")
        .item
        .is_some());
}

#[tokio::test]
async fn with_no_transition_time_the_responses_still_say_creating_and_deleting() {
    let backend = MemBackend::new();
    let created = backend.create_table(with_index()).await.expect("create");
    assert_eq!(
        created.table_description.table_status,
        TableStatus::Creating
    );
    assert_eq!(
        created.table_description.global_secondary_indexes[0].index_status,
        TableStatus::Creating
    );
    assert_eq!(status(&backend).await, Ok(TableStatus::Active));
    backend.put_item(put("a")).await.expect("put at once");

    let deleted = backend.delete_table(delete()).await.expect("delete");
    assert_eq!(
        deleted.table_description.table_status,
        TableStatus::Deleting
    );
    assert_eq!(deleted.table_description.item_count, 1);
    match status(&backend).await {
        Err(Error::ResourceNotFound { message }) => assert_eq!(
            message,
            format!("Requested resource not found: Table: {TABLE} not found")
        ),
        other => panic!("expected ResourceNotFound, got {other:?}"),
    }
    assert!(listed(&backend).await.is_empty());
    not_found(backend.get_item(key("a")).await);
    backend.create_table(with_index()).await.expect("re-create");
    assert!(backend
        .get_item(key("a"))
        .await
        .expect("get")
        .item
        .is_none());
}

#[tokio::test]
async fn a_deleted_table_is_deleting_until_the_transition_has_passed() {
    let (backend, clock) = slow();
    backend.create_table(with_index()).await.expect("create");
    clock.advance(TEN);
    backend.put_item(put("a")).await.expect("put");

    let deleted = backend.delete_table(delete()).await.expect("delete");
    assert_eq!(
        deleted.table_description.table_status,
        TableStatus::Deleting
    );
    assert_eq!(status(&backend).await, Ok(TableStatus::Deleting));
    assert_eq!(listed(&backend).await, vec![TABLE.to_owned()]);
    // The data plane may keep serving a DELETING table (the DeleteTable API reference).
    assert!(backend
        .get_item(key("a"))
        .await
        .expect("get")
        .item
        .is_some());
    backend
        .put_item(put("b"))
        .await
        .expect("put while DELETING");
    in_use(
        backend
            .update_table(UpdateTableInput {
                table_name: TABLE.into(),
                deletion_protection_enabled: Some(true),
                ..Default::default()
            })
            .await,
        &format!("Table is being deleted: {TABLE}"),
    );
    // DeleteTable again: no error, the table still DELETING.
    let again = backend.delete_table(delete()).await.expect("delete again");
    assert_eq!(again.table_description.table_status, TableStatus::Deleting);
    match backend.create_table(with_index()).await {
        Err(Error::ResourceInUse { message }) => {
            assert_eq!(message, format!("Table already exists: {TABLE}"))
        }
        other => panic!("expected ResourceInUse, got {other:?}"),
    }

    clock.advance(TEN);
    assert!(matches!(
        status(&backend).await,
        Err(Error::ResourceNotFound { .. })
    ));
    assert!(listed(&backend).await.is_empty());
    not_found(backend.get_item(key("a")).await);
    assert!(matches!(
        backend.delete_table(delete()).await,
        Err(Error::ResourceNotFound { .. })
    ));
    let recreated = backend.create_table(with_index()).await.expect("re-create");
    assert_eq!(recreated.table_description.item_count, 0);
    clock.advance(TEN);
    assert!(backend
        .get_item(key("a"))
        .await
        .expect("get")
        .item
        .is_none());
}
