"""boto3 smoke test of `dynomodel-mem serve --isolate 3`: each access key a database of its own.

Usage: python3 tests/python/isolation.py http://127.0.0.1:PORT

Two clients with different access keys create and write tables that the other never sees; a named
snapshot of one key's database is restored into it through the admin endpoints (JSON over urllib);
a fourth key is refused with LimitExceededException until the databases are dropped.
"""

import json
import sys
import urllib.request

import boto3
from botocore.exceptions import ClientError


def client(endpoint, key):
    return boto3.client(
        "dynamodb",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id=key,
        aws_secret_access_key="anything",
    )


def admin(endpoint, method, path, body=None):
    data = json.dumps(body if body is not None else {}).encode()
    request = urllib.request.Request(
        endpoint + "/_dynomodel/" + path,
        data=data if method != "GET" else None,
        method=method,
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def create(db):
    db.create_table(
        TableName="orders",
        AttributeDefinitions=[{"AttributeName": "id", "AttributeType": "S"}],
        KeySchema=[{"AttributeName": "id", "KeyType": "HASH"}],
        BillingMode="PAY_PER_REQUEST",
    )


def main(endpoint):
    a, b = client(endpoint, "AKIDTESTA"), client(endpoint, "AKIDTESTB")
    create(a)
    a.put_item(TableName="orders", Item={"id": {"S": "a1"}})
    assert b.list_tables()["TableNames"] == [], "B sees A's table"
    create(b)
    assert "Item" not in b.get_item(TableName="orders", Key={"id": {"S": "a1"}})

    admin(endpoint, "POST", "snapshots", {"name": "a-clean", "access_key": "AKIDTESTA"})
    a.delete_item(TableName="orders", Key={"id": {"S": "a1"}})
    admin(endpoint, "POST", "snapshots/a-clean/restore", {"access_key": "AKIDTESTA"})
    assert "Item" in a.get_item(TableName="orders", Key={"id": {"S": "a1"}})

    client(endpoint, "AKIDTESTC").list_tables()
    try:
        client(endpoint, "AKIDTESTD").list_tables()
        raise AssertionError("a fourth key was served")
    except ClientError as e:
        assert e.response["Error"]["Code"] == "LimitExceededException", e.response
    assert admin(endpoint, "DELETE", "databases")["dropped"] == 3
    assert client(endpoint, "AKIDTESTD").list_tables()["TableNames"] == []
    print("isolation: ok")


if __name__ == "__main__":
    main(sys.argv[1])
