"""boto3 smoke test for `dynomodel-mem serve`.

Usage: python3 tests/python/smoke.py http://127.0.0.1:PORT

Drives the server the way a Python application would: a table with a local and a global secondary index,
put/get/update with expressions and in the legacy form (Expected, AttributeUpdates, AttributesToGet), a
paginated query, a query's consumed capacity, batches (boto3's `batch_writer`, `batch_get_item`
following `UnprocessedKeys`), transactions (a cancelled one with its `CancellationReasons`, a successful
one, an idempotent replay), DynamoDB's error shapes as botocore parses them, a PartiQL
execute_statement round trip (INSERT with parameters, then SELECT), and the schema's lifecycle:
UpdateTable adding a global secondary index to a table with items (waited for with a describe loop, then
queried), UpdateTimeToLive / DescribeTimeToLive, the three tag operations, DescribeLimits and
DescribeEndpoints.
Every check runs; the script exits non-zero if any failed. Every operation used here is implemented, so
an UnknownOperationException (an operation the server stopped dispatching) is a failure like any other.
"""

import sys
import time
from urllib.parse import urlparse

import boto3
from botocore.exceptions import ClientError


def client(endpoint):
    return boto3.client(
        "dynamodb",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="anything",
        aws_secret_access_key="anything",
    )


def resource(endpoint):
    return boto3.resource(
        "dynamodb",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id="anything",
        aws_secret_access_key="anything",
    )


def expect_error(code, call, **kwargs):
    """Runs `call`, which must fail with `code`; returns botocore's parsed error response."""
    try:
        call(**kwargs)
    except ClientError as e:
        got = e.response["Error"]["Code"]
        assert got == code, f"expected {code}, got {got}: {e.response['Error'].get('Message')}"
        assert e.response["ResponseMetadata"]["HTTPStatusCode"] == 400
        return e.response
    raise AssertionError(f"expected {code}, the call succeeded")


def create_table(ddb):
    ddb.create_table(
        TableName="tweets",
        AttributeDefinitions=[
            {"AttributeName": "userid", "AttributeType": "S"},
            {"AttributeName": "id", "AttributeType": "S"},
            {"AttributeName": "city", "AttributeType": "S"},
            {"AttributeName": "likes", "AttributeType": "N"},
        ],
        KeySchema=[
            {"AttributeName": "userid", "KeyType": "HASH"},
            {"AttributeName": "id", "KeyType": "RANGE"},
        ],
        LocalSecondaryIndexes=[
            {
                "IndexName": "likes-local",
                "KeySchema": [
                    {"AttributeName": "userid", "KeyType": "HASH"},
                    {"AttributeName": "likes", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "KEYS_ONLY"},
            }
        ],
        GlobalSecondaryIndexes=[
            {
                "IndexName": "city-index",
                "KeySchema": [
                    {"AttributeName": "city", "KeyType": "HASH"},
                    {"AttributeName": "likes", "KeyType": "RANGE"},
                ],
                "Projection": {"ProjectionType": "ALL"},
            }
        ],
        BillingMode="PAY_PER_REQUEST",
    )
    table = ddb.describe_table(TableName="tweets")["Table"]
    assert table["TableStatus"] == "ACTIVE", table
    assert [i["IndexName"] for i in table["LocalSecondaryIndexes"]] == ["likes-local"], table
    assert [i["IndexName"] for i in table["GlobalSecondaryIndexes"]] == ["city-index"], table
    assert "tweets" in ddb.list_tables()["TableNames"]


def items(ddb):
    key = {"userid": {"S": "ada"}, "id": {"S": "0"}}
    item = dict(key, city={"S": "Paris"}, likes={"N": "1.50"}, tags={"SS": ["a", "b"]},
                raw={"B": b"\x00\x01"}, doc={"M": {"l": {"L": [{"NULL": True}, {"BOOL": True}]}}})
    ddb.put_item(TableName="tweets", Item=item)
    got = ddb.get_item(TableName="tweets", Key=key, ConsistentRead=True)["Item"]
    assert got["likes"] == {"N": "1.5"}, got  # canonical number text
    assert got["raw"] == {"B": b"\x00\x01"}, got
    assert sorted(got["tags"]["SS"]) == ["a", "b"], got
    assert got["doc"] == item["doc"], got

    # Create-only put: the second one fails, and ALL_OLD puts the existing item into the error.
    err = expect_error(
        "ConditionalCheckFailedException", ddb.put_item, TableName="tweets", Item=item,
        ConditionExpression="attribute_not_exists(#u)", ExpressionAttributeNames={"#u": "userid"},
        ReturnValuesOnConditionCheckFailure="ALL_OLD",
    )
    assert err["Item"]["city"] == {"S": "Paris"}, err

    updated = ddb.update_item(
        TableName="tweets", Key=key,
        # `text` and `raw` are reserved words: both must be aliased.
        UpdateExpression="SET #t = :t ADD likes :one REMOVE #raw",
        ConditionExpression="city = :city",
        ExpressionAttributeNames={"#t": "text", "#raw": "raw"},
        ExpressionAttributeValues={":t": {"S": "hello"}, ":one": {"N": "1"}, ":city": {"S": "Paris"}},
        ReturnValues="ALL_NEW",
    )["Attributes"]
    assert updated["likes"] == {"N": "2.5"} and updated["text"] == {"S": "hello"}, updated
    assert "raw" not in updated, updated


def legacy(ddb):
    """The pre-expression parameters older code still sends: Expected, AttributeUpdates, AttributesToGet."""
    key = {"userid": {"S": "grace"}, "id": {"S": "1"}}
    # Create-only put in the legacy form, then a put that needs the stored value.
    ddb.put_item(TableName="tweets", Item=dict(key, n={"N": "1"}),
                 Expected={"userid": {"Exists": False}})
    expect_error("ConditionalCheckFailedException", ddb.put_item, TableName="tweets",
                 Item=dict(key, n={"N": "1"}), Expected={"userid": {"Exists": False}})
    ddb.put_item(TableName="tweets", Item=dict(key, n={"N": "1"}, tags={"SS": ["a"]}),
                 Expected={"n": {"ComparisonOperator": "EQ", "AttributeValueList": [{"N": "1"}]}})
    updated = ddb.update_item(
        TableName="tweets", Key=key,
        AttributeUpdates={"n": {"Action": "ADD", "Value": {"N": "2"}},
                          "tags": {"Action": "ADD", "Value": {"SS": ["b"]}},
                          "note": {"Action": "PUT", "Value": {"S": "hi"}}},
        Expected={"n": {"Value": {"N": "1"}}},
        ReturnValues="ALL_NEW",
    )["Attributes"]
    assert updated["n"] == {"N": "3"} and sorted(updated["tags"]["SS"]) == ["a", "b"], updated
    got = ddb.get_item(TableName="tweets", Key=key, AttributesToGet=["note", "n"])["Item"]
    assert got == {"note": {"S": "hi"}, "n": {"N": "3"}}, got
    err = expect_error("ValidationException", ddb.put_item, TableName="tweets", Item=key,
                       Expected={"n": {"Exists": False}}, ConditionExpression="attribute_exists(n)")
    assert err["Error"]["Message"].startswith("Can not use both expression and non-expression"), err


def query_pages(ddb):
    for i in range(1, 8):
        ddb.put_item(TableName="tweets", Item={
            "userid": {"S": "bob"}, "id": {"S": f"{i:02}"}, "city": {"S": "Oslo"}, "likes": {"N": str(i)},
        })
    seen, pages, start = [], 0, None
    while True:
        kwargs = {"ExclusiveStartKey": start} if start else {}
        page = ddb.query(
            TableName="tweets", KeyConditionExpression="userid = :u AND id > :from",
            ExpressionAttributeValues={":u": {"S": "bob"}, ":from": {"S": "01"}}, Limit=2, **kwargs,
        )
        pages += 1
        seen += [it["id"]["S"] for it in page["Items"]]
        start = page.get("LastEvaluatedKey")
        if not start:
            break
    assert seen == ["02", "03", "04", "05", "06", "07"], seen
    assert pages >= 3, pages

    paginator = ddb.get_paginator("query")
    by_city = [it["likes"]["N"] for p in paginator.paginate(
        TableName="tweets", IndexName="city-index", KeyConditionExpression="city = :c",
        ExpressionAttributeValues={":c": {"S": "Oslo"}}, ScanIndexForward=False,
        PaginationConfig={"PageSize": 3}) for it in p["Items"]]
    assert by_city == ["7", "6", "5", "4", "3", "2", "1"], by_city


def consumed_capacity(ddb, table="tweets"):
    """A Query's ConsumedCapacity (DYNAMODB-FACTS §11): the items read, before the filter, summed and
    rounded up to 4 KB once; half a unit per 4 KB eventually consistent, one strongly consistent."""
    # Each item is 3,016 bytes (names and values: userid+cap 9, id+n 3, body+3,000 characters 3,004),
    # so the three are 9,048 bytes: 3 × 4 KB.
    for i in range(3):
        ddb.put_item(TableName=table, Item={
            "userid": {"S": "cap"}, "id": {"S": str(i)}, "body": {"S": "x" * 3000}})
    query = dict(TableName=table, KeyConditionExpression="userid = :u",
                 ExpressionAttributeValues={":u": {"S": "cap"}})
    # The filter keeps nothing; what was read is still paid for.
    nothing = {"FilterExpression": "body = :none",
               "ExpressionAttributeValues": {":u": {"S": "cap"}, ":none": {"S": "none"}}}
    for extra, units in [({}, 1.5), ({"ConsistentRead": True}, 3.0), (nothing, 1.5)]:
        page = ddb.query(ReturnConsumedCapacity="TOTAL", **{**query, **extra})
        consumed = page["ConsumedCapacity"]
        assert consumed["TableName"] == table, consumed
        assert consumed["CapacityUnits"] == units, (extra, consumed)
        assert consumed.get("ReadCapacityUnits", units) == units, (extra, consumed)
        assert page["ScannedCount"] == 3, page
    assert "ConsumedCapacity" not in ddb.query(**query), "reported without being asked for"
    assert "ConsumedCapacity" not in ddb.query(ReturnConsumedCapacity="NONE", **query)
    err = expect_error("ValidationException", ddb.query, ReturnConsumedCapacity="ALL", **query)
    assert err["Error"]["Message"] == (
        "1 validation error detected: Value 'ALL' at 'returnConsumedCapacity' failed to satisfy "
        "constraint: Member must satisfy enum value set: [INDEXES, TOTAL, NONE]"), err
    for i in range(3):
        ddb.delete_item(TableName=table, Key={"userid": {"S": "cap"}, "id": {"S": str(i)}})


def batches(ddb, table):
    """60 items through boto3's batch_writer (25 per BatchWriteItem call), read back by batch_get_item."""
    calls = []
    table.meta.client.meta.events.register(
        "before-call.dynamodb.BatchWriteItem", lambda **_: calls.append(1))
    with table.batch_writer() as writer:
        for i in range(60):
            writer.put_item(Item={"userid": "carol", "id": f"{i:03}", "likes": i, "city": "Rome"})
    assert len(calls) >= 3, calls

    keys = [{"userid": {"S": "carol"}, "id": {"S": f"{i:03}"}} for i in range(60)]
    request = {"tweets": {"Keys": keys, "ProjectionExpression": "#i, likes",
                          "ExpressionAttributeNames": {"#i": "id"}, "ConsistentRead": True}}
    got, rounds = [], 0
    while request:
        rounds += 1
        assert rounds <= 10, rounds
        page = ddb.batch_get_item(RequestItems=request)
        got += page["Responses"].get("tweets", [])
        # DynamoDB always sends UnprocessedKeys, `{}` once everything was read.
        request = page["UnprocessedKeys"]
    assert sorted(it["id"]["S"] for it in got) == [f"{i:03}" for i in range(60)], got
    assert all(set(it) == {"id", "likes"} for it in got), got
    assert {it["id"]["S"]: it["likes"]["N"] for it in got}["042"] == "42"

    missing = ddb.batch_get_item(RequestItems={"tweets": {"Keys": [{"userid": {"S": "nobody"}, "id": {"S": "0"}}]}})
    assert missing["Responses"] == {"tweets": []} and missing["UnprocessedKeys"] == {}, missing


def transactions(ddb):
    first = {"userid": {"S": "dave"}, "id": {"S": "001"}}
    second = {"userid": {"S": "dave"}, "id": {"S": "002"}}
    create = [
        {"Put": {"TableName": "tweets", "Item": dict(first, likes={"N": "1"}),
                 "ConditionExpression": "attribute_not_exists(userid)"}},
        {"Update": {"TableName": "tweets", "Key": second, "UpdateExpression": "SET likes = :n",
                    "ExpressionAttributeValues": {":n": {"N": "2"}}}},
    ]
    ddb.transact_write_items(TransactItems=create, ClientRequestToken="smoke-create")
    # The same token and the same actions: succeeds again without writing (the Put's condition would
    # fail now); other actions under that token are a mismatch.
    ddb.transact_write_items(TransactItems=create, ClientRequestToken="smoke-create")
    expect_error("IdempotentParameterMismatchException", ddb.transact_write_items,
                 TransactItems=create[:1], ClientRequestToken="smoke-create")

    # A failed condition cancels every action; ALL_OLD puts the item into its reason.
    err = expect_error(
        "TransactionCanceledException", ddb.transact_write_items,
        TransactItems=[
            {"Update": {"TableName": "tweets", "Key": second, "UpdateExpression": "SET likes = :n",
                        "ExpressionAttributeValues": {":n": {"N": "3"}}}},
            {"ConditionCheck": {"TableName": "tweets", "Key": first,
                                "ConditionExpression": "likes > :min",
                                "ExpressionAttributeValues": {":min": {"N": "5"}},
                                "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}},
        ],
    )
    reasons = err["CancellationReasons"]
    assert [r["Code"] for r in reasons] == ["None", "ConditionalCheckFailed"], reasons
    assert reasons[0] == {"Code": "None"}, reasons
    assert reasons[1]["Item"] == dict(first, likes={"N": "1"}), reasons
    assert err["Error"]["Message"].startswith("Transaction cancelled"), err

    got = ddb.transact_get_items(TransactItems=[
        {"Get": {"TableName": "tweets", "Key": first}},
        {"Get": {"TableName": "tweets", "Key": second, "ProjectionExpression": "likes"}},
        {"Get": {"TableName": "tweets", "Key": {"userid": {"S": "dave"}, "id": {"S": "999"}}}},
    ])["Responses"]
    assert got[0]["Item"]["likes"] == {"N": "1"}, got
    assert got[1] == {"Item": {"likes": {"N": "2"}}}, got  # the cancelled update wrote nothing
    assert got[2] == {}, got


def errors(ddb):
    err = expect_error("ResourceNotFoundException", ddb.get_item, TableName="nope",
                       Key={"userid": {"S": "x"}, "id": {"S": "y"}})
    assert err["Error"]["Message"], err
    err = expect_error("ValidationException", ddb.put_item, TableName="tweets",
                       Item={"userid": {"S": "x"}, "id": {"S": "y"}, "n": {"N": "NaN"}})
    assert err["Error"]["Message"] == "The parameter cannot be converted to a numeric value: NaN", err
    expect_error("ValidationException", ddb.get_item, TableName="tweets", Key={"userid": {"S": "x"}})
    expect_error("ResourceInUseException", create_table, ddb=ddb)


def partiql(ddb):
    """ExecuteStatement round trip: INSERT with parameters, SELECT it back, the duplicate-key error."""
    insert = "INSERT INTO \"tweets\" VALUE {'userid': ?, 'id': ?, 'text': 'via PartiQL'}"
    params = [{"S": "dora"}, {"S": "p1"}]
    assert ddb.execute_statement(Statement=insert, Parameters=params)["Items"] == []
    got = ddb.execute_statement(Statement="SELECT id, text FROM \"tweets\" WHERE userid = ?",
                                Parameters=[{"S": "dora"}])
    assert got["Items"] == [{"id": {"S": "p1"}, "text": {"S": "via PartiQL"}}], got["Items"]
    expect_error("DuplicateItemException", ddb.execute_statement, Statement=insert, Parameters=params)


def wait_for_indexes(ddb, table, timeout=30.0):
    """DescribeTable until the table and every global secondary index are ACTIVE (no waiter covers
    indexes); returns the last description."""
    deadline = time.monotonic() + timeout
    while True:
        desc = ddb.describe_table(TableName=table)["Table"]
        statuses = [i["IndexStatus"] for i in desc.get("GlobalSecondaryIndexes", [])]
        if desc["TableStatus"] == "ACTIVE" and all(s == "ACTIVE" for s in statuses):
            return desc
        assert time.monotonic() < deadline, f"still not ACTIVE: {desc}"
        time.sleep(0.1)


def add_index(ddb):
    ddb.create_table(
        TableName="members",
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
    )
    ddb.get_waiter("table_exists").wait(TableName="members", WaiterConfig={"Delay": 1})
    for i, team in enumerate(["red", "blue", "red", "green"]):
        ddb.put_item(TableName="members", Item={"id": {"S": f"m{i}"}, "team": {"S": team}})
    ddb.put_item(TableName="members", Item={"id": {"S": "loner"}})
    out = ddb.update_table(
        TableName="members",
        AttributeDefinitions=[{"AttributeName": "team", "AttributeType": "S"}],
        GlobalSecondaryIndexUpdates=[{"Create": {
            "IndexName": "by-team",
            "KeySchema": [{"AttributeName": "team", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"},
        }}],
    )["TableDescription"]
    assert [i["IndexName"] for i in out["GlobalSecondaryIndexes"]] == ["by-team"], out
    desc = wait_for_indexes(ddb, "members")
    assert desc["GlobalSecondaryIndexes"][0]["IndexStatus"] == "ACTIVE", desc
    assert "Backfilling" not in desc["GlobalSecondaryIndexes"][0], desc
    found = ddb.query(TableName="members", IndexName="by-team", KeyConditionExpression="team = :t",
                      ExpressionAttributeValues={":t": {"S": "red"}})["Items"]
    assert sorted(i["id"]["S"] for i in found) == ["m0", "m2"], found


def time_to_live(ddb):
    before = ddb.describe_time_to_live(TableName="members")["TimeToLiveDescription"]
    assert before == {"TimeToLiveStatus": "DISABLED"}, before
    spec = {"Enabled": True, "AttributeName": "expires"}
    out = ddb.update_time_to_live(TableName="members", TimeToLiveSpecification=spec)
    assert out["TimeToLiveSpecification"] == spec, out
    after = ddb.describe_time_to_live(TableName="members")["TimeToLiveDescription"]
    assert after == {"TimeToLiveStatus": "ENABLED", "AttributeName": "expires"}, after
    err = expect_error("ValidationException", ddb.update_time_to_live, TableName="members",
                       TimeToLiveSpecification=spec)
    assert err["Error"]["Message"], err


def tags(ddb):
    arn = ddb.describe_table(TableName="members")["Table"]["TableArn"]
    assert ddb.list_tags_of_resource(ResourceArn=arn)["Tags"] == []
    ddb.tag_resource(ResourceArn=arn, Tags=[{"Key": "team", "Value": "core"}, {"Key": "env", "Value": ""}])
    got = ddb.list_tags_of_resource(ResourceArn=arn)["Tags"]
    assert sorted((t["Key"], t["Value"]) for t in got) == [("env", ""), ("team", "core")], got
    ddb.untag_resource(ResourceArn=arn, TagKeys=["env"])
    got = ddb.list_tags_of_resource(ResourceArn=arn)["Tags"]
    assert got == [{"Key": "team", "Value": "core"}], got


def backups(ddb):
    """CreateBackup … RestoreTableToPointInTime (DynamoDB Local implements none of them)."""
    count = ddb.scan(TableName="members", Select="COUNT")["Count"]
    details = ddb.create_backup(TableName="members", BackupName="smoke-backup")["BackupDetails"]
    arn = details["BackupArn"]
    # The ARN names the client's region, and the server takes it back.
    assert arn.startswith("arn:aws:dynamodb:us-east-1:000000000000:table/members/backup/0"), arn
    assert details["BackupType"] == "USER", details
    described = ddb.describe_backup(BackupArn=arn)["BackupDescription"]
    assert described["SourceTableDetails"]["ItemCount"] == count, described
    listed = [b["BackupArn"] for page in ddb.get_paginator("list_backups").paginate(TableName="members")
              for b in page["BackupSummaries"]]
    assert listed == [arn], listed
    restored = ddb.restore_table_from_backup(TargetTableName="members-restored",
                                             BackupArn=arn)["TableDescription"]
    assert restored["RestoreSummary"]["SourceBackupArn"] == arn, restored
    ddb.get_waiter("table_exists").wait(TableName="members-restored",
                                        WaiterConfig={"Delay": 1, "MaxAttempts": 30})
    assert ddb.scan(TableName="members-restored", Select="COUNT")["Count"] == count
    expect_error("TableAlreadyExistsException", ddb.restore_table_from_backup,
                 TargetTableName="members-restored", BackupArn=arn)
    deleted = ddb.delete_backup(BackupArn=arn)["BackupDescription"]
    assert deleted["BackupDetails"]["BackupStatus"] == "DELETED", deleted
    expect_error("BackupNotFoundException", ddb.describe_backup, BackupArn=arn)

    off = ddb.describe_continuous_backups(TableName="members")["ContinuousBackupsDescription"]
    assert off["PointInTimeRecoveryDescription"]["PointInTimeRecoveryStatus"] == "DISABLED", off
    expect_error("PointInTimeRecoveryUnavailableException", ddb.restore_table_to_point_in_time,
                 SourceTableName="members", TargetTableName="members-pitr", UseLatestRestorableTime=True)
    on = ddb.update_continuous_backups(
        TableName="members", PointInTimeRecoverySpecification={"PointInTimeRecoveryEnabled": True})
    pitr = on["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"]
    assert pitr["PointInTimeRecoveryStatus"] == "ENABLED" and pitr["RecoveryPeriodInDays"] == 35, pitr
    restored = ddb.restore_table_to_point_in_time(
        SourceTableName="members", TargetTableName="members-pitr",
        RestoreDateTime=pitr["EarliestRestorableDateTime"])["TableDescription"]
    assert restored["RestoreSummary"]["SourceTableArn"].endswith(":table/members"), restored
    ddb.get_waiter("table_exists").wait(TableName="members-pitr",
                                        WaiterConfig={"Delay": 1, "MaxAttempts": 30})
    assert ddb.scan(TableName="members-pitr", Select="COUNT")["Count"] == count


def account(ddb, endpoint):
    limits = ddb.describe_limits()
    for name in ["AccountMaxReadCapacityUnits", "AccountMaxWriteCapacityUnits",
                 "TableMaxReadCapacityUnits", "TableMaxWriteCapacityUnits"]:
        assert limits[name] > 0, limits
    endpoints = ddb.describe_endpoints()["Endpoints"]
    assert [e["Address"] for e in endpoints] == [urlparse(endpoint).netloc], endpoints
    assert endpoints[0]["CachePeriodInMinutes"] > 0, endpoints


def streams(ddb, endpoint):
    """A stream read through the `dynamodbstreams` client on the same endpoint (DYNAMODB-FACTS §14):
    one record per change, in order, no record for a write that changes nothing."""
    desc = ddb.create_table(
        TableName="events",
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
        StreamSpecification={"StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"},
    )["TableDescription"]
    arn = desc["LatestStreamArn"]
    assert arn.startswith(desc["TableArn"] + "/stream/"), desc
    # Answers name the client's region (its requests are signed for us-east-1), not `ddblocal`.
    assert desc["TableArn"] == "arn:aws:dynamodb:us-east-1:000000000000:table/events", desc
    ddb.put_item(TableName="events", Item={"id": {"S": "e1"}, "n": {"N": "1"}})
    ddb.put_item(TableName="events", Item={"id": {"S": "e1"}, "n": {"N": "1"}})  # changes nothing
    ddb.update_item(TableName="events", Key={"id": {"S": "e1"}}, UpdateExpression="SET n = n + :one",
                    ExpressionAttributeValues={":one": {"N": "1"}})
    ddb.delete_item(TableName="events", Key={"id": {"S": "e1"}})

    streams = boto3.client("dynamodbstreams", endpoint_url=endpoint, region_name="us-east-1",
                           aws_access_key_id="anything", aws_secret_access_key="anything")
    listed = streams.list_streams(TableName="events")["Streams"]
    assert [s["StreamArn"] for s in listed] == [arn], listed
    described = streams.describe_stream(StreamArn=arn)["StreamDescription"]
    assert described["StreamStatus"] == "ENABLED", described
    assert described["StreamViewType"] == "NEW_AND_OLD_IMAGES", described
    shard = described["Shards"][0]["ShardId"]
    iterator = streams.get_shard_iterator(StreamArn=arn, ShardId=shard,
                                          ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
    records = []
    for _ in range(10):
        page = streams.get_records(ShardIterator=iterator, Limit=2)
        records += page["Records"]
        iterator = page.get("NextShardIterator")
        if len(records) >= 3 or not iterator:
            break
    assert [r["eventName"] for r in records] == ["INSERT", "MODIFY", "REMOVE"], records
    modify = records[1]["dynamodb"]
    assert modify["Keys"] == {"id": {"S": "e1"}}, modify
    assert modify["OldImage"]["n"] == {"N": "1"} and modify["NewImage"]["n"] == {"N": "2"}, modify
    assert "NewImage" not in records[2]["dynamodb"], records[2]
    numbers = [int(r["dynamodb"]["SequenceNumber"]) for r in records]
    assert numbers == sorted(numbers), numbers
    assert all(r["eventSource"] == "aws:dynamodb" for r in records), records
    assert all(r["awsRegion"] == "us-east-1" for r in records), records
    expect_error("ResourceNotFoundException", streams.describe_stream, StreamArn=arn + "x")


def main():
    endpoint = sys.argv[1]
    ddb = client(endpoint)
    table = resource(endpoint).Table("tweets")
    checks = [("create table with LSI and GSI", create_table), ("put/get/update", items),
              ("legacy Expected, AttributeUpdates, AttributesToGet", legacy),
              ("paginated query", query_pages), ("consumed capacity of a query", consumed_capacity),
              ("batch_writer and batch_get_item", lambda ddb: batches(ddb, table)),
              ("transactions", transactions), ("error shapes", errors),
              ("execute_statement INSERT then SELECT", partiql),
              ("UpdateTable adds a GSI to a table with items", add_index), ("time to live", time_to_live),
              ("tags", tags), ("backups and point-in-time recovery", backups),
              ("streams", lambda ddb: streams(ddb, endpoint)),
              ("DescribeLimits and DescribeEndpoints", lambda ddb: account(ddb, endpoint))]
    failed = 0
    for name, check in checks:
        try:
            check(ddb)
            print(f"ok   {name}")
        except Exception as e:  # noqa: BLE001 - report every check, then fail
            failed += 1
            print(f"FAIL {name}: {type(e).__name__}: {e}")
    print(f"boto3 smoke: {len(checks) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
