//! `batch_get`: chunks, per-table request shapes, duplicates and the results per model.

use std::collections::BTreeMap;

use super::fake::*;
use crate::backend::KeysAndAttributes;
use crate::error::Error;
use crate::model::Model;
use crate::value::{AttributeValue, Item};

fn store_tweets(fake: &Fake, table: &str, n: usize) {
    for t in tweets(n) {
        fake.insert(table, &["userid", "id"], t.to_item().expect("converts"));
    }
}

fn store_users(fake: &Fake, table: &str, n: usize) {
    for u in (0..n).map(user) {
        fake.insert(table, &["id"], u.to_item().expect("converts"));
    }
}

#[tokio::test]
async fn two_hundred_fifty_keys_are_three_requests_of_100_100_and_50() {
    let (db, fake) = Fake::db();
    store_tweets(&fake, "tweets", 250);
    let keys = tweets(250).iter().map(Model::key).collect::<Vec<_>>();
    let mut read = db.batch_get().keys::<Tweet>(keys).await.expect("reads");
    assert_eq!(fake.sizes(), [100, 100, 50]);
    assert_eq!(read.take::<Tweet>().expect("decodes"), tweets(250));
    assert!(read.missing::<Tweet>().is_empty());
}

#[tokio::test]
async fn an_empty_batch_sends_nothing() {
    let (db, fake) = Fake::db();
    let mut read = db.batch_get().await.expect("nothing to read");
    assert!(read.is_empty());
    assert_eq!(read.take::<Tweet>(), Ok(vec![]));
    // A model with settings but no key is not sent either (DynamoDB rejects an empty key list).
    let read = db
        .batch_get()
        .consistent::<User>()
        .keys::<Tweet>(Vec::<(&str, &str)>::new())
        .await;
    assert!(read.expect("nothing to read").is_empty());
    assert!(fake.calls().is_empty());
}

#[tokio::test]
async fn each_table_gets_its_namespaced_name_consistency_and_projection() {
    let (db, fake) = Fake::db();
    let db = db.with_namespace("test-");
    store_tweets(&fake, "test-tweets", 2);
    store_users(&fake, "test-users", 1);
    let mut read = db
        .batch_get()
        .keys::<Tweet>([("abc", "0000"), ("abc", "0001")])
        .project(Tweet::text())
        .key::<User>("u0")
        .consistent::<User>()
        .await
        .expect("reads");

    let calls = fake.calls();
    assert_eq!(calls.len(), 1);
    let key = |pairs: &[(&str, &str)]| -> Item {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), s(v))).collect()
    };
    let expected = BTreeMap::from([
        (
            "test-tweets".to_owned(),
            KeysAndAttributes {
                attributes_to_get: None,
                keys: vec![
                    key(&[("userid", "abc"), ("id", "0000")]),
                    key(&[("userid", "abc"), ("id", "0001")]),
                ],
                consistent_read: None,
                // The key attributes are always projected, so that answers match their keys.
                projection_expression: Some("#n0, #n1, #n2".into()),
                expression_attribute_names: Some(BTreeMap::from([
                    ("#n0".to_owned(), "userid".to_owned()),
                    ("#n1".to_owned(), "id".to_owned()),
                    ("#n2".to_owned(), "text".to_owned()),
                ])),
            },
        ),
        (
            "test-users".to_owned(),
            KeysAndAttributes {
                keys: vec![key(&[("id", "u0")])],
                consistent_read: Some(true),
                ..Default::default()
            },
        ),
    ]);
    assert_eq!(calls[0].get().request_items, expected);

    let partials = read.take_partial::<Tweet>();
    let texts: Vec<Option<String>> = partials
        .iter()
        .map(|p| p.get(Tweet::text()).expect("a string"))
        .collect();
    assert_eq!(
        texts,
        [Some("tweet 0".to_owned()), Some("tweet 1".to_owned())]
    );
    assert_eq!(read.get::<User>("u0"), Ok(Some(user(0))));
}

#[tokio::test]
async fn chunks_mix_tables_in_the_order_given() {
    let (db, fake) = Fake::db();
    store_tweets(&fake, "tweets", 90);
    store_users(&fake, "users", 20);
    let mut read = db
        .batch_get()
        .keys::<Tweet>(tweets(90).iter().map(Model::key))
        .keys::<User>((0..20).map(|i| format!("u{i}")))
        .await
        .expect("reads");
    let calls = fake.calls();
    let per_table = |i: usize| -> Vec<(String, usize)> {
        calls[i]
            .get()
            .request_items
            .iter()
            .map(|(t, k)| (t.clone(), k.keys.len()))
            .collect()
    };
    assert_eq!(
        per_table(0),
        [("tweets".to_owned(), 90), ("users".to_owned(), 10)]
    );
    assert_eq!(per_table(1), [("users".to_owned(), 10)]);
    assert_eq!(
        read.take::<User>().expect("decodes"),
        (0..20).map(user).collect::<Vec<_>>()
    );
    assert_eq!(read.take::<Tweet>().expect("decodes").len(), 90);
}

#[tokio::test]
async fn duplicate_keys_are_read_once() {
    let (db, fake) = Fake::db();
    store_users(&fake, "users", 2);
    let mut read = db
        .batch_get()
        .key::<User>("u1")
        .keys::<User>(["u0", "u1", "u9", "u9"])
        .key::<User>(UserKey::from("u0"))
        .await
        .expect("reads");
    assert_eq!(fake.sizes(), [3]);
    let calls = fake.calls();
    let sent: Vec<&AttributeValue> = calls[0].get().request_items["users"]
        .keys
        .iter()
        .map(|k| &k["id"])
        .collect();
    assert_eq!(sent, [&s("u1"), &s("u0"), &s("u9")]);
    assert_eq!(read.missing::<User>(), [&UserKey::from("u9")]);
    assert_eq!(read.take::<User>(), Ok(vec![user(1), user(0)]));
}

#[tokio::test]
async fn results_are_per_model_and_missing_keys_are_told() {
    let (db, fake) = Fake::db();
    store_tweets(&fake, "tweets", 3);
    store_users(&fake, "users", 1);
    let mut read = db
        .batch_get()
        .keys::<Tweet>([("abc", "0002"), ("abc", "0404"), ("abc", "0000")])
        .keys::<User>(["u0", "u1"])
        .await
        .expect("reads");
    assert_eq!(read.len(), 3);
    assert_eq!(read.get::<Tweet>(("abc", "0002")), Ok(Some(tweet(2))));
    assert_eq!(read.get::<Tweet>(("abc", "0404")), Ok(None));
    assert_eq!(read.missing::<Tweet>(), [&TweetKey::from(("abc", "0404"))]);
    assert_eq!(read.missing::<User>(), [&UserKey::from("u1")]);
    // A model the batch did not read has nothing.
    assert_eq!(read.take::<Profile>(), Ok(vec![]));
    assert!(read.missing::<Profile>().is_empty());

    assert_eq!(read.take::<Tweet>(), Ok(vec![tweet(2), tweet(0)]));
    assert_eq!(read.take::<Tweet>(), Ok(vec![]), "taken once");
    assert_eq!(read.get::<Tweet>(("abc", "0002")), Ok(None), "taken");
    assert_eq!(read.len(), 1);
    assert_eq!(
        format!("{read:?}"),
        "[Tweet (tweets): 0 found, 1 missing, User (users): 1 found, 1 missing]"
    );
}

#[tokio::test]
async fn an_item_that_does_not_decode_names_its_model_table_and_key() {
    let (db, fake) = Fake::db();
    let bad: Item = [
        ("id".to_owned(), s("u1")),
        ("name".to_owned(), AttributeValue::Bool(true)),
    ]
    .into();
    fake.insert("users", &["id"], bad);
    store_tweets(&fake, "tweets", 1);
    let mut read = db
        .batch_get()
        .key::<User>("u1")
        .key::<Tweet>(("abc", "0000"))
        .await
        .expect("reads");
    let Err(Error::ItemDecode(e)) = read.get::<User>("u1") else {
        panic!("a decoding error");
    };
    assert_eq!((e.model, e.table.as_str()), ("User", "users"));
    assert_eq!(e.key, Item::from([("id".to_owned(), s("u1"))]));
    assert_eq!(
        e.to_string(),
        r#"the item of User {id: "u1"} in `users` does not decode: attribute `name`: expected a string, found BOOL"#
    );
    assert!(
        matches!(read.take::<User>(), Err(Error::ItemDecode(taken)) if taken == e),
        "take fails on the same item"
    );
    // The other model is unaffected.
    assert_eq!(read.take::<Tweet>(), Ok(vec![tweet(0)]));
}

#[tokio::test]
async fn two_models_on_one_table_are_refused_before_sending() {
    let (db, fake) = Fake::db();
    let err = db
        .batch_get()
        .key::<User>("u1")
        .key::<Profile>("u2")
        .await
        .expect_err("ambiguous");
    assert_eq!(
        err,
        Error::validation(
            "batch_get: `User` and `Profile` both read table `users`; read them in two batches"
        )
    );
    assert!(fake.calls().is_empty());
}

#[tokio::test]
async fn an_empty_string_key_is_refused_before_sending() {
    let (db, fake) = Fake::db();
    let err = db
        .batch_get()
        .key::<User>("u1")
        .key::<Tweet>(("abc", ""))
        .await
        .expect_err("invalid");
    assert_eq!(err.code(), "ValidationException");
    assert!(err.message().starts_with(
        r#"batch_get: the key of Tweet {id: "", userid: "abc"} in `tweets` is not valid"#
    ));
    assert!(
        err.message()
            .ends_with("cannot contain an empty string value. Key: id"),
        "{err}"
    );
    assert!(fake.calls().is_empty());
}
