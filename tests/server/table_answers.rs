//! DeleteTable's and DescribeTable's bodies as they go over the wire (issue 26 facts 21 and 22):
//! DeleteTable answers only the members DynamoDB sends there, and an on-demand table's
//! `BillingModeSummary` carries `LastUpdateToPayPerRequestDateTime`, its creation time.

use super::*;

#[tokio::test]
async fn delete_table_answers_only_what_dynamodb_sends() {
    let server = start().await;
    let addr = server.local_addr();
    create_table(addr, "short").await;
    let described = call(addr, "DescribeTable", json!({"TableName": "short"}))
        .await
        .json();
    let table = &described["Table"];
    let created = table["CreationDateTime"].clone();
    assert!(created.is_number());
    assert_eq!(
        table["BillingModeSummary"],
        json!({"BillingMode": "PAY_PER_REQUEST", "LastUpdateToPayPerRequestDateTime": created})
    );
    let deleted = call(addr, "DeleteTable", json!({"TableName": "short"})).await;
    assert_eq!(deleted.status, 200);
    let body = deleted.json();
    let description = body["TableDescription"].as_object().unwrap();
    let mut members: Vec<&str> = description.keys().map(String::as_str).collect();
    members.sort_unstable();
    assert_eq!(
        members,
        [
            "BillingModeSummary",
            "ItemCount",
            "ProvisionedThroughput",
            "TableArn",
            "TableId",
            "TableName",
            "TableSizeBytes",
            "TableStatus",
        ]
    );
    assert_eq!(description["TableStatus"], "DELETING");
    assert_eq!(description["TableArn"], table["TableArn"]);
    assert_eq!(description["TableId"], table["TableId"]);
    assert_eq!(
        description["BillingModeSummary"],
        table["BillingModeSummary"]
    );
    assert_eq!(
        description["ProvisionedThroughput"]["ReadCapacityUnits"],
        json!(0)
    );
    assert_eq!(
        description["ProvisionedThroughput"]["WriteCapacityUnits"],
        json!(0)
    );
    server.shutdown().await;
}
