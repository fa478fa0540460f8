//! The generated key structs: built from tuples and single values (what `Db::get` takes) and written as
//! key items.

use std::collections::BTreeSet;

use chrono::NaiveDate;
use dynomodel::convert::Binary;
use dynomodel::{AttributeValue, Item, Model, PrimaryKey};

use crate::{
    n, s, time, BlobKey, Counter, CounterKey, EventKey, Everything, EverythingKey, Tweet, TweetKey,
    User, UserKey,
};

#[test]
fn key_structs_convert_from_tuples_and_values() {
    let tweet = Tweet {
        userid: "abc".into(),
        id: "1".into(),
        text: "hi".into(),
        likes: 0,
        tags: BTreeSet::new(),
    };
    let key: TweetKey = ("abc", "1").into();
    assert_eq!(tweet.key(), key);
    assert_eq!(
        key,
        TweetKey {
            userid: "abc".into(),
            id: "1".into()
        }
    );
    assert_eq!(TweetKey::from((String::from("abc"), "1")), key);
    let mut expected = Item::new();
    expected.insert("userid".into(), s("abc"));
    expected.insert("id".into(), s("1"));
    assert_eq!(key.to_key_item().unwrap(), expected);

    let user_key = UserKey::from("u1");
    assert_eq!(user_key, UserKey::from(String::from("u1")));
    assert_eq!(user_key, UserKey::from(&String::from("u1")));
    assert_eq!(user_key.user_id, "u1");
    assert_eq!(
        user_key.to_key_item().unwrap().keys().collect::<Vec<_>>(),
        ["userId"]
    );

    let day = NaiveDate::from_ymd_opt(1970, 1, 2).unwrap();
    let event_key = EventKey::from((day, Binary(vec![1])));
    let mut expected = Item::new();
    expected.insert("day".into(), n(86_400));
    expected.insert("seq".into(), AttributeValue::B(vec![1]));
    assert_eq!(event_key.to_key_item().unwrap(), expected);

    let blob_key = BlobKey::from(vec![1u8, 2]);
    assert_eq!(
        blob_key.to_key_item().unwrap()["digest"],
        AttributeValue::B(vec![1, 2])
    );
    let everything_key = EverythingKey::from((7u64, time(0)));
    assert_eq!(everything_key.to_key_item().unwrap()["at"], n(0));
}

#[test]
fn key_structs_accept_what_db_get_takes() {
    fn takes<M: Model>(key: impl Into<M::Key>) -> M::Key {
        key.into()
    }
    assert_eq!(takes::<Tweet>(("abc", "1")).id, "1");
    assert_eq!(takes::<User>("u1").user_id, "u1");
    assert_eq!(takes::<Everything>((7u64, time(5))).id, 7);
    // An integer literal infers the key's integer type.
    assert_eq!(takes::<Counter>(5), CounterKey { id: 5 });
    let counter = Counter { id: 5, count: -1 };
    assert_eq!(
        Counter::from_item(counter.to_item().unwrap()).unwrap(),
        counter
    );
    assert_eq!(Counter::count().name(), "n");
}

/// `Db::get` takes `impl Into<M::Key>`: these must compile (the futures are never awaited).
#[allow(dead_code)]
fn db_get_accepts_tuples_and_strings(db: &dynomodel::Db) {
    let _ = db.get::<Tweet>(("abc", "1"));
    let _ = db.get::<User>("u1");
    let _ = db.get::<User>(String::from("u1"));
    let _ = db.get::<Counter>(5);
}

#[test]
fn keys_write_what_their_key_items_hold() {
    fn written(key: &dyn PrimaryKey) -> Result<Item, dynomodel::ConversionError> {
        let mut item = Item::new();
        key.write_key(&mut item)?;
        Ok(item)
    }
    let day = NaiveDate::from_ymd_opt(1970, 1, 2).unwrap();
    let keys: [&dyn PrimaryKey; 5] = [
        &TweetKey::from(("abc", "1")),
        &UserKey::from("u1"),
        &EventKey::from((day, Binary(vec![1]))),
        &BlobKey::from(vec![1u8, 2]),
        &EverythingKey::from((7u64, time(0))),
    ];
    for key in keys {
        assert_eq!(written(key).unwrap(), key.to_key_item().unwrap(), "{key:?}");
    }
}
