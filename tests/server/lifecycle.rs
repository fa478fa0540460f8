//! The schema-lifecycle operations (UpdateTable, TTL, tags, DescribeLimits, DescribeEndpoints) between
//! the AWS SDK for Rust (through `AwsBackend`) and the server: first with a backend that records the
//! typed request and answers what it is told (what the SDK sends decodes to the request it was built
//! from; every new description member the wire layer encodes, the SDK reads back unchanged), then end to
//! end on the engine, and the server's TTL sweeper.

use std::sync::Mutex;
use std::time::Duration;

use chrono::{DateTime, TimeZone, Utc};
use dynomodel::backend::{
    AttributeDefinition, BillingMode, CreateTableInput, DeleteTableInput, DescribeEndpointsInput,
    DescribeEndpointsOutput, DescribeLimitsInput, DescribeLimitsOutput, DescribeTableInput,
    DescribeTableOutput, DescribeTimeToLiveInput, DescribeTimeToLiveOutput, Endpoint, GetItemInput,
    GlobalSecondaryIndex, GlobalSecondaryIndexDescription, GlobalSecondaryIndexUpdate,
    KeySchemaElement, KeyType, ListTagsOfResourceInput, ListTagsOfResourceOutput, Projection,
    ProjectionType, ProvisionedThroughput, ProvisionedThroughputDescription, PutItemInput,
    QueryInput, ScalarAttributeType, StreamSpecification, StreamViewType, TableClass,
    TableDescription, TableStatus, Tag, TagResourceInput, TimeToLiveDescription,
    TimeToLiveSpecification, TimeToLiveStatus, UntagResourceInput,
    UpdateGlobalSecondaryIndexAction, UpdateTableInput, UpdateTableOutput, UpdateTimeToLiveInput,
};
use dynomodel::{AttributeValue, AwsBackend, Error, Item};

use super::*;

fn at(seconds: i64, millis: u32) -> DateTime<Utc> {
    Utc.timestamp_opt(seconds, millis * 1_000_000).unwrap()
}

fn key(name: &str, key_type: KeyType) -> KeySchemaElement {
    KeySchemaElement {
        attribute_name: name.into(),
        key_type,
    }
}

fn definition(name: &str) -> AttributeDefinition {
    AttributeDefinition {
        attribute_name: name.into(),
        attribute_type: ScalarAttributeType::S,
    }
}

/// A description with every member the issue added set, at millisecond instants a JSON number carries
/// exactly.
fn full_description() -> TableDescription {
    let arn = "arn:aws:dynamodb:eu-west-1:123456789012:table/t".to_owned();
    TableDescription {
        table_name: "t".into(),
        table_status: TableStatus::Updating,
        attribute_definitions: vec![definition("pk"), definition("g")],
        key_schema: vec![key("pk", KeyType::Hash)],
        creation_date_time: at(1_700_000_000, 250),
        provisioned_throughput: ProvisionedThroughputDescription {
            read_capacity_units: 0,
            write_capacity_units: 0,
            number_of_decreases_today: 2,
            last_increase_date_time: Some(at(1_700_000_010, 500)),
            last_decrease_date_time: Some(at(1_700_000_020, 125)),
        },
        billing_mode: Some(BillingMode::PayPerRequest),
        last_update_to_pay_per_request_date_time: Some(at(1_700_000_030, 0)),
        item_count: 3,
        table_size_bytes: 42,
        table_arn: arn.clone(),
        table_id: "id".into(),
        local_secondary_indexes: Vec::new(),
        global_secondary_indexes: vec![GlobalSecondaryIndexDescription {
            index_name: "by_g".into(),
            key_schema: vec![key("g", KeyType::Hash)],
            projection: Projection {
                projection_type: ProjectionType::All,
                non_key_attributes: Vec::new(),
            },
            index_status: TableStatus::Creating,
            backfilling: Some(true),
            provisioned_throughput: Some(ProvisionedThroughputDescription::default()),
            item_count: 0,
            index_size_bytes: 0,
            index_arn: format!("{arn}/index/by_g"),
        }],
        stream_specification: Some(StreamSpecification::enabled(StreamViewType::OldImage)),
        latest_stream_arn: Some(format!("{arn}/stream/2026-11-23T10:00:00.000")),
        latest_stream_label: Some("2026-11-23T10:00:00.000".into()),
        table_class: Some(TableClass::StandardInfrequentAccess),
        deletion_protection_enabled: true,
        restore_summary: None,
    }
}

/// Answers every lifecycle operation with canned values and records UpdateTable's request.
#[derive(Debug, Default)]
struct Described {
    updates: Mutex<Vec<UpdateTableInput>>,
}

#[async_trait::async_trait]
impl Backend for Described {
    async fn describe_table(
        &self,
        _: DescribeTableInput,
    ) -> dynomodel::Result<DescribeTableOutput> {
        Ok(DescribeTableOutput {
            table: full_description(),
        })
    }
    async fn update_table(&self, input: UpdateTableInput) -> dynomodel::Result<UpdateTableOutput> {
        self.updates.lock().unwrap().push(input);
        Ok(UpdateTableOutput {
            table_description: full_description(),
        })
    }
    async fn describe_time_to_live(
        &self,
        _: DescribeTimeToLiveInput,
    ) -> dynomodel::Result<DescribeTimeToLiveOutput> {
        Ok(DescribeTimeToLiveOutput {
            time_to_live_description: TimeToLiveDescription {
                time_to_live_status: TimeToLiveStatus::Disabling,
                attribute_name: Some("expires".into()),
            },
        })
    }
    async fn list_tags_of_resource(
        &self,
        _: ListTagsOfResourceInput,
    ) -> dynomodel::Result<ListTagsOfResourceOutput> {
        Ok(ListTagsOfResourceOutput {
            tags: vec![Tag::new("a", "1"), Tag::new("b", "")],
            next_token: Some("next".into()),
        })
    }
    async fn describe_limits(
        &self,
        _: DescribeLimitsInput,
    ) -> dynomodel::Result<DescribeLimitsOutput> {
        Ok(DescribeLimitsOutput {
            account_max_read_capacity_units: 1,
            account_max_write_capacity_units: 2,
            table_max_read_capacity_units: 3,
            table_max_write_capacity_units: 4,
        })
    }
    async fn describe_endpoints(
        &self,
        _: DescribeEndpointsInput,
    ) -> dynomodel::Result<DescribeEndpointsOutput> {
        Ok(DescribeEndpointsOutput {
            endpoints: vec![Endpoint {
                address: "dynamodb.eu-west-1.amazonaws.com".into(),
                cache_period_in_minutes: 1440,
            }],
        })
    }
}

#[tokio::test]
async fn what_the_sdk_sends_and_reads_back_is_unchanged() {
    let described = Arc::new(Described::default());
    let shared: Arc<dyn Backend> = described.clone();
    let server = Server::bind_shared("127.0.0.1:0", shared).await.unwrap();
    let aws = AwsBackend::local(server.url());

    let described_table = aws
        .describe_table(DescribeTableInput {
            table_name: "t".into(),
        })
        .await
        .unwrap();
    assert_eq!(described_table.table, full_description());

    let update = UpdateTableInput {
        table_name: "t".into(),
        attribute_definitions: vec![definition("g")],
        billing_mode: Some(BillingMode::Provisioned),
        provisioned_throughput: Some(ProvisionedThroughput {
            read_capacity_units: 5,
            write_capacity_units: 6,
        }),
        global_secondary_index_updates: vec![
            GlobalSecondaryIndexUpdate::Create(GlobalSecondaryIndex {
                index_name: "by_g".into(),
                key_schema: vec![key("g", KeyType::Hash)],
                projection: Projection {
                    projection_type: ProjectionType::Include,
                    non_key_attributes: vec!["x".into()],
                },
                provisioned_throughput: Some(ProvisionedThroughput {
                    read_capacity_units: 1,
                    write_capacity_units: 1,
                }),
            }),
            GlobalSecondaryIndexUpdate::Update(UpdateGlobalSecondaryIndexAction {
                index_name: "other".into(),
                provisioned_throughput: ProvisionedThroughput {
                    read_capacity_units: 2,
                    write_capacity_units: 3,
                },
            }),
            GlobalSecondaryIndexUpdate::Delete {
                index_name: "old".into(),
            },
        ],
        stream_specification: Some(StreamSpecification::disabled()),
        table_class: Some(TableClass::Standard),
        deletion_protection_enabled: Some(false),
    };
    let out = aws.update_table(update.clone()).await.unwrap();
    assert_eq!(out.table_description, full_description());
    assert_eq!(*described.updates.lock().unwrap(), vec![update]);

    let ttl = aws
        .describe_time_to_live(DescribeTimeToLiveInput {
            table_name: "t".into(),
        })
        .await
        .unwrap();
    assert_eq!(
        ttl.time_to_live_description,
        TimeToLiveDescription {
            time_to_live_status: TimeToLiveStatus::Disabling,
            attribute_name: Some("expires".into()),
        }
    );
    let tags = aws
        .list_tags_of_resource(ListTagsOfResourceInput {
            resource_arn: "arn".into(),
            next_token: None,
        })
        .await
        .unwrap();
    assert_eq!(
        tags,
        ListTagsOfResourceOutput {
            tags: vec![Tag::new("a", "1"), Tag::new("b", "")],
            next_token: Some("next".into()),
        }
    );
    let limits = aws.describe_limits(DescribeLimitsInput {}).await.unwrap();
    assert_eq!(
        (
            limits.account_max_read_capacity_units,
            limits.account_max_write_capacity_units,
            limits.table_max_read_capacity_units,
            limits.table_max_write_capacity_units
        ),
        (1, 2, 3, 4)
    );
    // The server answers its own address, not the backend's AWS endpoint.
    let endpoints = aws
        .describe_endpoints(DescribeEndpointsInput {})
        .await
        .unwrap();
    assert_eq!(
        endpoints.endpoints,
        vec![Endpoint {
            address: server.local_addr().to_string(),
            cache_period_in_minutes: 1440,
        }]
    );
    server.shutdown().await;
}

// ---- End to end on the engine ------------------------------------------------------------------

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

fn table_input(name: &str) -> CreateTableInput {
    CreateTableInput {
        table_name: name.into(),
        attribute_definitions: vec![definition("pk")],
        key_schema: vec![key("pk", KeyType::Hash)],
        billing_mode: Some(BillingMode::PayPerRequest),
        ..Default::default()
    }
}

/// The engine behind a server, and an SDK client of that server.
async fn engine() -> (ServerHandle, AwsBackend) {
    let server = start().await;
    let aws = AwsBackend::local(server.url());
    (server, aws)
}

async fn put(aws: &AwsBackend, table: &str, item: Item) {
    aws.put_item(PutItemInput {
        table_name: table.into(),
        item,
        ..Default::default()
    })
    .await
    .unwrap();
}

async fn describe(aws: &AwsBackend, table: &str) -> TableDescription {
    aws.describe_table(DescribeTableInput {
        table_name: table.into(),
    })
    .await
    .unwrap()
    .table
}

#[tokio::test]
async fn a_gsi_added_to_a_populated_table_answers_queries_with_the_old_items() {
    let (server, aws) = engine().await;
    aws.create_table(table_input("users")).await.unwrap();
    for (pk, team) in [("u1", "red"), ("u2", "blue"), ("u3", "red")] {
        put(
            &aws,
            "users",
            [("pk".to_owned(), s(pk)), ("team".to_owned(), s(team))].into(),
        )
        .await;
    }
    put(&aws, "users", [("pk".to_owned(), s("u4"))].into()).await;
    let out = aws
        .update_table(UpdateTableInput {
            table_name: "users".into(),
            attribute_definitions: vec![definition("team")],
            global_secondary_index_updates: vec![GlobalSecondaryIndexUpdate::Create(
                GlobalSecondaryIndex {
                    index_name: "by_team".into(),
                    key_schema: vec![key("team", KeyType::Hash)],
                    projection: Projection {
                        projection_type: ProjectionType::All,
                        non_key_attributes: Vec::new(),
                    },
                    provisioned_throughput: None,
                },
            )],
            ..Default::default()
        })
        .await
        .unwrap();
    let gsi = &out.table_description.global_secondary_indexes;
    assert_eq!(gsi.len(), 1);
    assert_eq!(gsi[0].index_name, "by_team");
    // With the default zero transition the index is ACTIVE by the next DescribeTable.
    let table = describe(&aws, "users").await;
    assert_eq!(
        table.global_secondary_indexes[0].index_status,
        TableStatus::Active
    );
    let found = aws
        .query(QueryInput {
            table_name: "users".into(),
            index_name: Some("by_team".into()),
            key_condition_expression: Some("team = :t".into()),
            expression_attribute_values: Some([(":t".to_owned(), s("red"))].into()),
            ..Default::default()
        })
        .await
        .unwrap();
    let items = found.items.unwrap_or_default();
    let mut keys: Vec<&AttributeValue> = items.iter().map(|i| &i["pk"]).collect();
    keys.sort_by_key(|v| format!("{v:?}"));
    assert_eq!(keys, [&s("u1"), &s("u3")]);

    // Delete it again.
    aws.update_table(UpdateTableInput {
        table_name: "users".into(),
        global_secondary_index_updates: vec![GlobalSecondaryIndexUpdate::Delete {
            index_name: "by_team".into(),
        }],
        ..Default::default()
    })
    .await
    .unwrap();
    assert!(describe(&aws, "users")
        .await
        .global_secondary_indexes
        .is_empty());
    server.shutdown().await;
}

#[tokio::test]
async fn streams_class_and_deletion_protection_through_the_server() {
    let (server, aws) = engine().await;
    let mut input = table_input("guarded");
    input.deletion_protection_enabled = Some(true);
    input.table_class = Some(TableClass::StandardInfrequentAccess);
    input.stream_specification = Some(StreamSpecification::enabled(StreamViewType::NewImage));
    input.tags = vec![Tag::new("env", "test")];
    let created = aws.create_table(input).await.unwrap().table_description;
    assert!(created.deletion_protection_enabled);
    assert_eq!(
        created.stream_specification,
        Some(StreamSpecification::enabled(StreamViewType::NewImage))
    );
    let stream_arn = created.latest_stream_arn.clone().unwrap();
    assert!(
        stream_arn.starts_with(&format!("{}/stream/", created.table_arn)),
        "{stream_arn}"
    );
    assert_eq!(
        created.table_class,
        Some(TableClass::StandardInfrequentAccess)
    );
    let refused = aws
        .delete_table(DeleteTableInput {
            table_name: "guarded".into(),
        })
        .await
        .unwrap_err();
    assert!(
        !matches!(refused, Error::ResourceNotFound { .. }),
        "{refused:?}"
    );
    let updated = aws
        .update_table(UpdateTableInput {
            table_name: "guarded".into(),
            deletion_protection_enabled: Some(false),
            ..Default::default()
        })
        .await
        .unwrap()
        .table_description;
    assert!(!updated.deletion_protection_enabled);
    aws.delete_table(DeleteTableInput {
        table_name: "guarded".into(),
    })
    .await
    .unwrap();
    server.shutdown().await;
}

#[tokio::test]
async fn time_to_live_and_tags_through_the_server() {
    let (server, aws) = engine().await;
    let arn = aws
        .create_table(table_input("ttl"))
        .await
        .unwrap()
        .table_description
        .table_arn;
    let ttl = |table: &str| DescribeTimeToLiveInput {
        table_name: table.into(),
    };
    let before = aws.describe_time_to_live(ttl("ttl")).await.unwrap();
    assert_eq!(
        before.time_to_live_description,
        TimeToLiveDescription {
            time_to_live_status: TimeToLiveStatus::Disabled,
            attribute_name: None,
        }
    );
    let spec = TimeToLiveSpecification {
        enabled: true,
        attribute_name: "expires".into(),
    };
    let out = aws
        .update_time_to_live(UpdateTimeToLiveInput {
            table_name: "ttl".into(),
            time_to_live_specification: spec.clone(),
        })
        .await
        .unwrap();
    assert_eq!(out.time_to_live_specification, spec);
    let after = aws.describe_time_to_live(ttl("ttl")).await.unwrap();
    assert_eq!(
        after.time_to_live_description,
        TimeToLiveDescription {
            time_to_live_status: TimeToLiveStatus::Enabled,
            attribute_name: Some("expires".into()),
        }
    );

    aws.tag_resource(TagResourceInput {
        resource_arn: arn.clone(),
        tags: vec![Tag::new("team", "core"), Tag::new("env", "dev")],
    })
    .await
    .unwrap();
    let list = |arn: &str| ListTagsOfResourceInput {
        resource_arn: arn.into(),
        next_token: None,
    };
    let mut tags = aws.list_tags_of_resource(list(&arn)).await.unwrap().tags;
    tags.sort();
    assert_eq!(tags, [Tag::new("env", "dev"), Tag::new("team", "core")]);
    aws.untag_resource(UntagResourceInput {
        resource_arn: arn.clone(),
        tag_keys: vec!["env".into()],
    })
    .await
    .unwrap();
    let tags = aws.list_tags_of_resource(list(&arn)).await.unwrap().tags;
    assert_eq!(tags, [Tag::new("team", "core")]);
    // A tag key over 128 characters: the engine's message, through the wire layer unchanged.
    let long = aws
        .tag_resource(TagResourceInput {
            resource_arn: arn.clone(),
            tags: vec![Tag::new("k".repeat(129), "v")],
        })
        .await
        .unwrap_err();
    assert!(
        matches!(&long, Error::Validation { message } if message.contains("The Tag Key provided is invalid")),
        "{long}"
    );
    server.shutdown().await;
}

#[tokio::test]
async fn describe_limits_and_endpoints_on_the_engine() {
    let (server, aws) = engine().await;
    let limits = aws.describe_limits(DescribeLimitsInput {}).await.unwrap();
    // DynamoDB's default quotas (as DynamoDB Local 3.3.1 answers them too).
    assert_eq!(
        (
            limits.account_max_read_capacity_units,
            limits.account_max_write_capacity_units,
            limits.table_max_read_capacity_units,
            limits.table_max_write_capacity_units
        ),
        (80_000, 80_000, 40_000, 40_000)
    );
    let endpoints = aws
        .describe_endpoints(DescribeEndpointsInput {})
        .await
        .unwrap();
    assert_eq!(endpoints.endpoints.len(), 1);
    assert_eq!(
        endpoints.endpoints[0].address,
        server.local_addr().to_string()
    );
    server.shutdown().await;
}

#[tokio::test]
async fn the_server_s_sweeper_deletes_expired_items() {
    let backend = MemBackend::new();
    let server = Server::bind("127.0.0.1:0", backend.clone())
        .await
        .unwrap()
        .with_ttl_sweeper(backend, Duration::from_millis(50));
    let aws = AwsBackend::local(server.url());
    aws.create_table(table_input("swept")).await.unwrap();
    aws.update_time_to_live(UpdateTimeToLiveInput {
        table_name: "swept".into(),
        time_to_live_specification: TimeToLiveSpecification {
            enabled: true,
            attribute_name: "expires".into(),
        },
    })
    .await
    .unwrap();
    let now = Utc::now().timestamp();
    let with_expiry = |pk: &str, at: i64| -> Item {
        [
            ("pk".to_owned(), s(pk)),
            (
                "expires".to_owned(),
                AttributeValue::N(at.to_string().parse().unwrap()),
            ),
        ]
        .into()
    };
    put(&aws, "swept", with_expiry("old", now - 60)).await;
    put(&aws, "swept", with_expiry("new", now + 3600)).await;
    let get = |pk: &str| GetItemInput {
        table_name: "swept".into(),
        key: [("pk".to_owned(), s(pk))].into(),
        ..Default::default()
    };
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        if aws.get_item(get("old")).await.unwrap().item.is_none() {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the expired item was never swept"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(aws.get_item(get("new")).await.unwrap().item.is_some());
    server.shutdown().await;
}

#[tokio::test]
async fn without_a_sweeper_expired_items_stay() {
    let (server, aws) = engine().await;
    aws.create_table(table_input("kept")).await.unwrap();
    aws.update_time_to_live(UpdateTimeToLiveInput {
        table_name: "kept".into(),
        time_to_live_specification: TimeToLiveSpecification {
            enabled: true,
            attribute_name: "expires".into(),
        },
    })
    .await
    .unwrap();
    let past = (Utc::now().timestamp() - 60).to_string();
    put(
        &aws,
        "kept",
        [
            ("pk".to_owned(), s("old")),
            (
                "expires".to_owned(),
                AttributeValue::N(past.parse().unwrap()),
            ),
        ]
        .into(),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let got = aws
        .get_item(GetItemInput {
            table_name: "kept".into(),
            key: [("pk".to_owned(), s("old"))].into(),
            ..Default::default()
        })
        .await
        .unwrap();
    assert!(
        got.item.is_some(),
        "expired items stay readable until a sweep"
    );
    server.shutdown().await;
}
