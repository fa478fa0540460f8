//! Answers in the region a request is signed for (issue 26, item 26): an engine without a region of its
//! own is one database answering every region, each client reading ARNs and stream records that name
//! its signing region (the SigV4 credential scope); `--region` pins one region. See
//! `dynomodel-mem/src/protocol/region.rs` for the model; the SDK's view is in
//! `tests/dual/regions.rs`.

use super::*;

/// An `Authorization` header signed (badly: nothing checks it by default) for `region`.
fn signed_for(region: &str) -> String {
    format!(
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/{region}/dynamodb/aws4_request, \
         SignedHeaders=host;x-amz-date;x-amz-target, Signature=00"
    )
}

/// `operation` with `body`, signed for `region` (`None`: unsigned).
async fn call_in(addr: SocketAddr, region: Option<&str>, operation: &str, body: Value) -> Reply {
    let target = match operation.starts_with("DynamoDBStreams_") {
        true => operation.to_owned(),
        false => format!("DynamoDB_20120810.{operation}"),
    };
    let host = addr.to_string();
    let authorization = region.map(signed_for);
    let mut headers = vec![
        ("Host", host.as_str()),
        ("X-Amz-Target", target.as_str()),
        ("Content-Type", "application/x-amz-json-1.0"),
    ];
    headers.extend(authorization.as_deref().map(|a| ("Authorization", a)));
    request(addr, "POST", "/", &headers, body.to_string()).await
}

fn ok(reply: Reply) -> Value {
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    reply.json()
}

fn create_body(name: &str) -> Value {
    json!({
        "TableName": name,
        "AttributeDefinitions": [
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "g", "AttributeType": "S"}
        ],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
        "GlobalSecondaryIndexes": [{
            "IndexName": "by-g",
            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}
        }],
        "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"},
        "BillingMode": "PAY_PER_REQUEST"
    })
}

#[tokio::test]
async fn answers_name_the_region_a_request_is_signed_for() {
    let server = start().await;
    let addr = server.local_addr();
    let paris = Some("eu-west-3");
    let created = ok(call_in(addr, paris, "CreateTable", create_body("regional")).await);
    let d = &created["TableDescription"];
    let arn = "arn:aws:dynamodb:eu-west-3:000000000000:table/regional";
    assert_eq!(d["TableArn"], arn);
    assert_eq!(
        d["GlobalSecondaryIndexes"][0]["IndexArn"],
        format!("{arn}/index/by-g")
    );
    let stream = d["LatestStreamArn"].as_str().unwrap().to_owned();
    assert!(stream.starts_with(&format!("{arn}/stream/")), "{stream}");

    // One database: another region's client sees the same table, named in its region; an unsigned
    // request, in the engine's own (`ddblocal`, as DynamoDB Local's).
    let ohio = ok(call_in(
        addr,
        Some("us-east-2"),
        "DescribeTable",
        json!({"TableName": "regional"}),
    )
    .await);
    assert_eq!(
        ohio["Table"]["TableArn"],
        "arn:aws:dynamodb:us-east-2:000000000000:table/regional"
    );
    let unsigned = ok(call_in(
        addr,
        None,
        "DescribeTable",
        json!({"TableName": "regional"}),
    )
    .await);
    assert_eq!(
        unsigned["Table"]["TableArn"],
        "arn:aws:dynamodb:ddblocal:000000000000:table/regional"
    );

    // The ARNs a client was given name the table in its requests.
    let tag = json!({"ResourceArn": arn, "Tags": [{"Key": "city", "Value": "Paris"}]});
    assert_eq!(call_in(addr, paris, "TagResource", tag).await.status, 200);
    let tags = ok(call_in(
        addr,
        paris,
        "ListTagsOfResource",
        json!({"ResourceArn": arn}),
    )
    .await);
    assert_eq!(tags["Tags"], json!([{"Key": "city", "Value": "Paris"}]));
    let item = json!({"pk": {"S": "a"}, "g": {"S": "x"}});
    ok(call_in(
        addr,
        paris,
        "PutItem",
        json!({"TableName": "regional", "Item": item}),
    )
    .await);

    // The Streams API: ARNs and records' awsRegion ("the region in which the GetRecords request was
    // received").
    let listed = ok(call_in(
        addr,
        paris,
        "DynamoDBStreams_20120810.ListStreams",
        json!({}),
    )
    .await);
    assert_eq!(listed["Streams"][0]["StreamArn"], stream);
    let described = ok(call_in(
        addr,
        paris,
        "DynamoDBStreams_20120810.DescribeStream",
        json!({"StreamArn": stream}),
    )
    .await);
    let description = &described["StreamDescription"];
    assert_eq!(description["StreamArn"], stream);
    let shard = description["Shards"][0]["ShardId"].clone();
    let iterator = ok(call_in(
        addr,
        paris,
        "DynamoDBStreams_20120810.GetShardIterator",
        json!({"StreamArn": stream, "ShardId": shard, "ShardIteratorType": "TRIM_HORIZON"}),
    )
    .await)["ShardIterator"]
        .clone();
    for (region, named) in [
        (paris, "eu-west-3"),
        (Some("ap-south-1"), "ap-south-1"),
        (None, "ddblocal"),
    ] {
        let records = ok(call_in(
            addr,
            region,
            "DynamoDBStreams_20120810.GetRecords",
            json!({"ShardIterator": iterator}),
        )
        .await);
        assert_eq!(records["Records"][0]["awsRegion"], named, "{region:?}");
        assert_eq!(records["Records"][0]["dynamodb"]["NewImage"], item);
    }
    server.shutdown().await;
}

#[tokio::test]
async fn a_pinned_region_is_the_only_one() {
    let engine = MemBackend::builder().region("eu-central-1").build();
    let server = Server::bind("127.0.0.1:0", engine).await.unwrap();
    let addr = server.local_addr();
    let virginia = Some("us-east-1");
    let created = ok(call_in(addr, virginia, "CreateTable", create_body("pinned")).await);
    assert_eq!(
        created["TableDescription"]["TableArn"],
        "arn:aws:dynamodb:eu-central-1:000000000000:table/pinned"
    );
    // An ARN of another region names no table of this one.
    let elsewhere = "arn:aws:dynamodb:us-east-1:000000000000:table/pinned";
    let reply = call_in(
        addr,
        virginia,
        "ListTagsOfResource",
        json!({"ResourceArn": elsewhere}),
    )
    .await;
    assert_eq!(reply.status, 400);
    assert_eq!(reply.error().0, "ResourceNotFoundException");
    let own = "arn:aws:dynamodb:eu-central-1:000000000000:table/pinned";
    ok(call_in(
        addr,
        virginia,
        "ListTagsOfResource",
        json!({"ResourceArn": own}),
    )
    .await);
    server.shutdown().await;
}
