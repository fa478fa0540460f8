//! Isolation by access key (`ServerBuilder::isolate_by_access_key`, `serve --isolate`): each access
//! key a request is signed with (here by AWS's own signer) gets a fork of the seeded engine, bounded;
//! and the admin endpoints of the engine's state: named snapshots, restore, reset, the databases.

use std::time::SystemTime;

use super::faults::admin;
use super::signatures::signed_call;
use super::*;

/// `operation` signed with access key `key`.
async fn as_key(addr: SocketAddr, key: &str, operation: &str, body: Value) -> Reply {
    let bytes = body.to_string();
    let credentials = (key, "any-secret");
    signed_call(
        addr,
        operation,
        bytes.as_bytes(),
        &[],
        credentials,
        "us-east-1",
        SystemTime::now(),
    )
    .await
}

fn put(pk: &str) -> Value {
    json!({"TableName": "tweets", "Item": {"pk": {"S": pk}}})
}

/// The keys of `tweets` as `key` sees them, in order.
async fn keys(addr: SocketAddr, key: &str) -> Vec<String> {
    let reply = as_key(addr, key, "Scan", json!({"TableName": "tweets"})).await;
    assert_eq!(
        reply.status,
        200,
        "{}",
        String::from_utf8_lossy(&reply.body)
    );
    let mut keys: Vec<String> = reply.json()["Items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["pk"]["S"].as_str().unwrap().to_owned())
        .collect();
    keys.sort();
    keys
}

/// A server over a seed holding `tweets` with the item `seeded`, isolating at most `max` keys.
async fn isolating(max: usize) -> ServerHandle {
    let seed = MemBackend::new();
    let seeding = Server::bind_mem("127.0.0.1:0", seed.clone(), None)
        .await
        .unwrap();
    create_table(seeding.local_addr(), "tweets").await;
    assert_eq!(
        call(seeding.local_addr(), "PutItem", put("seeded"))
            .await
            .status,
        200
    );
    drop(seeding);
    Server::builder()
        .isolate_by_access_key(max)
        .bind_mem("127.0.0.1:0", seed, None)
        .await
        .unwrap()
}

#[tokio::test]
async fn each_access_key_gets_a_fork_of_the_seed() {
    let server = isolating(3).await;
    let addr = server.local_addr();
    assert_eq!(as_key(addr, "AKIDA", "PutItem", put("a")).await.status, 200);
    assert_eq!(as_key(addr, "AKIDB", "PutItem", put("b")).await.status, 200);
    assert_eq!(keys(addr, "AKIDA").await, ["a", "seeded"]);
    assert_eq!(keys(addr, "AKIDB").await, ["b", "seeded"]);
    // A table created under one key exists under that key only.
    let created = as_key(
        addr,
        "AKIDA",
        "CreateTable",
        json!({"TableName": "mine",
               "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
               "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
               "BillingMode": "PAY_PER_REQUEST"}),
    )
    .await;
    assert_eq!(created.status, 200);
    let listed = |key: &'static str| async move {
        as_key(addr, key, "ListTables", json!({})).await.json()["TableNames"].clone()
    };
    assert_eq!(listed("AKIDA").await, json!(["mine", "tweets"]));
    assert_eq!(listed("AKIDB").await, json!(["tweets"]));

    // Unsigned requests are one more database (the empty key's): the third of three.
    assert_eq!(call(addr, "PutItem", put("anonymous")).await.status, 200);
    let (_, databases) = admin(addr, "GET", "/_dynomodel/databases", None).await;
    assert_eq!(
        databases,
        json!({"access_keys": ["", "AKIDA", "AKIDB"], "max": 3})
    );

    // A fourth key is refused, never served by another key's database.
    let refused = as_key(addr, "AKIDC", "Scan", json!({"TableName": "tweets"})).await;
    assert_eq!(refused.status, 400);
    let (code, message) = refused.error();
    assert_eq!(code, "LimitExceededException");
    assert!(message.unwrap().contains("at most 3 access keys"));
    // Until the databases are dropped.
    let (status, dropped) = admin(addr, "DELETE", "/_dynomodel/databases", None).await;
    assert_eq!((status, dropped), (200, json!({"dropped": 3})));
    assert_eq!(keys(addr, "AKIDC").await, ["seeded"]);
    assert_eq!(
        keys(addr, "AKIDA").await,
        ["seeded"],
        "a new fork of the seed"
    );
}

#[tokio::test]
async fn snapshots_restore_and_reset_over_the_admin_endpoints() {
    let server = isolating(10).await;
    let addr = server.local_addr();
    assert_eq!(
        as_key(addr, "AKIDA", "PutItem", put("a1")).await.status,
        200
    );
    let name = json!({"name": "after-a1", "access_key": "AKIDA"});
    let (status, taken) = admin(addr, "POST", "/_dynomodel/snapshots", Some(name)).await;
    assert_eq!((status, taken), (200, json!({"name": "after-a1"})));
    assert_eq!(
        as_key(addr, "AKIDA", "PutItem", put("a2")).await.status,
        200
    );

    // Restored into the same key's database, then into another key's.
    let into = |key: &str| Some(json!({"access_key": key}));
    let path = "/_dynomodel/snapshots/after-a1/restore";
    let (status, restored) = admin(addr, "POST", path, into("AKIDA")).await;
    assert_eq!((status, restored), (200, json!({"restored": "after-a1"})));
    assert_eq!(keys(addr, "AKIDA").await, ["a1", "seeded"]);
    admin(addr, "POST", path, into("AKIDB")).await;
    assert_eq!(keys(addr, "AKIDB").await, ["a1", "seeded"]);

    // Reset empties one key's database; the seed and the others keep theirs.
    let (status, _) = admin(addr, "POST", "/_dynomodel/reset", into("AKIDB")).await;
    assert_eq!(status, 200);
    let gone = as_key(addr, "AKIDB", "Scan", json!({"TableName": "tweets"})).await;
    assert_eq!(gone.error().0, "ResourceNotFoundException");
    assert_eq!(keys(addr, "AKIDA").await, ["a1", "seeded"]);

    let (_, listed) = admin(addr, "GET", "/_dynomodel/snapshots", None).await;
    assert_eq!(listed, json!({"snapshots": ["after-a1"]}));
    let (status, missing) = admin(addr, "POST", "/_dynomodel/snapshots/nope/restore", None).await;
    assert_eq!(
        (status, missing),
        (404, json!({"message": "no snapshot named \"nope\""}))
    );
    let (status, _) = admin(
        addr,
        "POST",
        "/_dynomodel/snapshots",
        Some(json!({"name": "a/b"})),
    )
    .await;
    assert_eq!(status, 400);
    let (_, removed) = admin(addr, "DELETE", "/_dynomodel/snapshots/after-a1", None).await;
    assert_eq!(removed, json!({"removed": true}));
}

#[tokio::test]
async fn a_server_without_isolation_snapshots_its_one_engine() {
    let server = Server::bind_mem("127.0.0.1:0", MemBackend::new(), None)
        .await
        .unwrap();
    let addr = server.local_addr();
    create_table(addr, "tweets").await;
    call(addr, "PutItem", put("x")).await;
    admin(
        addr,
        "POST",
        "/_dynomodel/snapshots",
        Some(json!({"name": "one"})),
    )
    .await;
    call(addr, "PutItem", put("y")).await;
    admin(addr, "POST", "/_dynomodel/snapshots/one/restore", None).await;
    let scanned = call(addr, "Scan", json!({"TableName": "tweets"}))
        .await
        .json();
    assert_eq!(scanned["Count"], 1);
    let (status, answer) = admin(addr, "GET", "/_dynomodel/databases", None).await;
    assert_eq!(status, 400);
    assert!(answer["message"].as_str().unwrap().contains("--isolate"));
    let (status, _) = admin(addr, "POST", "/_dynomodel/reset", None).await;
    assert_eq!(status, 200);
    let listed = call(addr, "ListTables", json!({})).await.json();
    assert_eq!(listed["TableNames"], json!([]));
}
