//! The region an answer names, through the AWS SDK: a client configured for a
//! region signs its requests for it, and the server answers it in that region: table and stream ARNs
//! and stream records' `awsRegion` ("the region in which the GetRecords request was received", the
//! Streams API reference) name it. The engine embedded (no HTTP, no signature) answers in its own
//! region, `ddblocal`.
//!
//! KNOWN DIFFERENCE: DynamoDB Local names `ddblocal` in every ARN and `awsRegion`, whatever the region
//! a client signs for (probed with boto3 in eu-west-1), and keeps a separate database per access key
//! and region; the service names the client's region. See `tests/dual/deviations.md`.

use std::sync::Arc;

use aws_credential_types::Credentials;
use aws_sdk_dynamodb::config::{BehaviorVersion, Region};
use dynomodel::backend::*;
use dynomodel::*;

use super::*;

/// The region the scenario's client works in.
const REGION: &str = "eu-west-3";

/// A backend on the target's endpoint whose client works in [`REGION`]; the engine itself on `Mem`.
fn regional(t: &Dual) -> Arc<dyn Backend> {
    let endpoint = match t.target() {
        Target::Mem => return Arc::clone(t.backend()),
        Target::Server => t.server_url().unwrap(),
        Target::DynamoDbLocal => std::env::var(dynomodel_tests::support::ENDPOINT_VAR).unwrap(),
    };
    let credentials = Credentials::new("dynomodel", "dynomodel", None, None, "regions");
    let region = Region::new(REGION);
    let dynamodb = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(region.clone())
        .credentials_provider(credentials.clone())
        .endpoint_url(endpoint.clone())
        .build();
    let streams = aws_sdk_dynamodbstreams::Config::builder()
        .behavior_version(aws_sdk_dynamodbstreams::config::BehaviorVersion::latest())
        .region(aws_sdk_dynamodbstreams::config::Region::new(REGION))
        .credentials_provider(credentials)
        .endpoint_url(endpoint)
        .build();
    Arc::new(AwsBackend::with_streams_client(
        aws_sdk_dynamodb::Client::from_conf(dynamodb),
        aws_sdk_dynamodbstreams::Client::from_conf(streams),
    ))
}

dual_test!(answers_name_the_region_the_client_signs_for, |t| {
    let backend = regional(&t);
    let table = t.table_name("regions");
    let created = backend
        .create_table(CreateTableInput {
            table_name: table.clone(),
            billing_mode: Some(BillingMode::PayPerRequest),
            attribute_definitions: vec![AttributeDefinition {
                attribute_name: "pk".into(),
                attribute_type: S,
            }],
            key_schema: vec![KeySchemaElement::hash("pk")],
            stream_specification: Some(StreamSpecification::enabled(StreamViewType::KeysOnly)),
            ..Default::default()
        })
        .await
        .unwrap();
    let named = match t.target() {
        Target::Server => REGION,
        // The embedded engine answers in its own region; KNOWN DIFFERENCE: DynamoDB Local in
        // `ddblocal` whatever the client's.
        Target::Mem | Target::DynamoDbLocal => "ddblocal",
    };
    let d = created.table_description;
    let prefix = format!("arn:aws:dynamodb:{named}:");
    assert!(d.table_arn.starts_with(&prefix), "{}", d.table_arn);
    assert!(
        d.table_arn.ends_with(&format!(":table/{table}")),
        "{}",
        d.table_arn
    );
    let stream = d.latest_stream_arn.unwrap();
    assert!(
        stream.starts_with(&format!("{}/stream/", d.table_arn)),
        "{stream}"
    );

    // The stream ARN the client holds names the stream in its requests.
    let key = Item::from([("pk".to_owned(), s("a"))]);
    backend
        .put_item(PutItemInput {
            table_name: table.clone(),
            item: key.clone(),
            ..Default::default()
        })
        .await
        .unwrap();
    let described = backend
        .describe_stream(DescribeStreamInput {
            stream_arn: stream.clone(),
            ..Default::default()
        })
        .await
        .unwrap()
        .stream_description;
    assert_eq!(described.stream_arn, stream);
    let iterator = backend
        .get_shard_iterator(GetShardIteratorInput {
            stream_arn: stream.clone(),
            shard_id: described.shards[0].shard_id.clone(),
            shard_iterator_type: ShardIteratorType::TrimHorizon,
            sequence_number: None,
        })
        .await
        .unwrap()
        .shard_iterator
        .unwrap();
    let records = backend
        .get_records(GetRecordsInput {
            shard_iterator: iterator,
            limit: None,
        })
        .await
        .unwrap()
        .records;
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].aws_region, named);
    assert_eq!(records[0].dynamodb.keys, key);

    // DynamoDB Local keeps this region's tables apart from the harness's: delete it here.
    if t.target() == Target::DynamoDbLocal {
        backend
            .delete_table(DeleteTableInput { table_name: table })
            .await
            .unwrap();
    }
});
