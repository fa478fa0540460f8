//! `Model::required_attributes` is exactly what `from_item` needs: an item holding only the table
//! keys and the listed attributes decodes, and one without any single listed attribute does not.
//! (What an upsert is checked against before it is sent; see `UpdateItem::upsert`.)

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use dynomodel::{Item, Model, RequiredAttribute};
use serde::{Deserialize, Serialize};

use super::{everything, time, Everything, Tweet, User};

/// Checks the list against `from_item` on `value`, whose `to_item` must hold every attribute its
/// fields can store (so that the list is tested against real values, not against absent ones).
#[track_caller]
fn required_is_exactly_what_from_item_needs<M: Model>(value: &M) {
    let full = value.to_item().expect("the value converts");
    let required = M::required_attributes();
    let keys = [Some(M::HASH_KEY), M::RANGE_KEY];
    let minimal: Item = full
        .iter()
        .filter(|(name, _)| {
            keys.contains(&Some(name.as_str())) || required.iter().any(|r| r.name == name.as_str())
        })
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    assert_eq!(
        minimal.len(),
        required.len() + keys.iter().flatten().count(),
        "every required attribute is one the value stores: {required:?} in {full:?}"
    );
    if let Err(e) = M::from_item(minimal.clone()) {
        panic!("the keys and {required:?} decode, but: {e}");
    }
    for attribute in required {
        let mut without = minimal.clone();
        without.remove(attribute.name);
        let err = M::from_item(without).err().unwrap_or_else(|| {
            panic!(
                "`{}` is listed but decoding does without it",
                attribute.name
            )
        });
        assert!(
            err.path.starts_with(attribute.name),
            "`{}` missing fails at its own path: {err}",
            attribute.name
        );
    }
}

fn names<M: Model>() -> Vec<&'static str> {
    M::required_attributes().iter().map(|r| r.name).collect()
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Meta {
    source: String,
}

/// The field options with their own "missing" rules.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "options")]
struct Options {
    #[hash_key]
    id: String,
    #[version]
    version: u64,
    #[ttl]
    expires: DateTime<Utc>,
    #[dynomodel(serde)]
    meta: Meta,
    #[dynomodel(serde)]
    maybe_meta: Option<Meta>,
    #[dynomodel(json)]
    json: BTreeMap<String, u8>,
    #[dynomodel(epoch_seconds)]
    seen: NaiveDate,
    #[dynomodel(default)]
    retries: u32,
    #[dynomodel(skip)]
    cache: Vec<u8>,
}

fn options() -> Options {
    Options {
        id: "o1".into(),
        version: 3,
        expires: time(1_800_000_000),
        meta: Meta {
            source: "import".into(),
        },
        maybe_meta: Some(Meta { source: "x".into() }),
        json: BTreeMap::from([("a".to_owned(), 1)]),
        seen: NaiveDate::from_ymd_opt(2026, 1, 2).expect("a date"),
        retries: 2,
        cache: vec![1],
    }
}

/// Composites: the table keys, a global index on a composite of a non-key part (read back, so
/// required, and settable by no update), and one whose parts all come from the keys (not read).
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "orders", entity = "Order")]
#[composite(pk = ("USER", user), hash_key)]
#[composite(sk = ("ORDER", day, id), range_key)]
#[composite(gpk = ("STATUS", status))]
#[composite(dpk = ("DAY", day))]
#[global_index(all("by-status", hash = gpk, range = sk))]
#[global_index(keys("by-day", hash = dpk))]
struct Order {
    user: String,
    day: NaiveDate,
    id: u32,
    status: String,
    total: u64,
    note: Option<String>,
}

fn order() -> Order {
    Order {
        user: "u1".into(),
        day: NaiveDate::from_ymd_opt(2026, 1, 1).expect("a date"),
        id: 7,
        status: "open".into(),
        total: 70,
        note: Some("gift".into()),
    }
}

#[test]
fn plain_fields_are_required_unless_their_type_or_a_default_reads_nothing() {
    // Not required: keys, `Option`s, sets (a missing one reads as empty), a `skip`ped field, one
    // with a default. Lists and maps are: an empty one is stored (`[]`, `{}`), so a missing one is
    // not a value the model wrote.
    assert_eq!(names::<Tweet>(), ["text", "likes"]);
    assert_eq!(names::<User>(), ["displayName", "mail"]);
    assert_eq!(
        names::<Everything>(),
        [
            "flag", "small", "big", "signed", "ratio", "single", "size", "price", "exact", "raw",
            "bytes", "blob", "scores", "matrix", "labels", "counts", "address", "previous",
            "created", "birthday",
        ]
    );
    assert!(Tweet::required_attributes().iter().all(|r| !r.composite));
    required_is_exactly_what_from_item_needs(&Tweet {
        userid: "abc".into(),
        id: "1".into(),
        text: "hello".into(),
        likes: 1,
        tags: ["rust".to_owned()].into(),
    });
    required_is_exactly_what_from_item_needs(&everything());
    required_is_exactly_what_from_item_needs(&User {
        user_id: "u1".into(),
        display_name: "Ada".into(),
        email_address: "ada@example.com".into(),
        session: None,
        login_count: 3,
        theme: "light".into(),
    });
}

#[test]
fn field_options_follow_their_adapters() {
    // The version and the TTL are required when their type is (a `u64`, a `DateTime`); a serde or
    // json field when its type has no "nothing"; an `Option` of one is not.
    assert_eq!(
        names::<Options>(),
        ["version", "expires", "meta", "json", "seen"]
    );
    required_is_exactly_what_from_item_needs(&options());
}

#[test]
fn composites_and_the_entity_type_are_listed_as_what_they_are() {
    assert_eq!(
        Order::required_attributes(),
        [
            RequiredAttribute::field("total"),
            RequiredAttribute::composite("gpk"),
            RequiredAttribute::field("_et"),
        ]
    );
    required_is_exactly_what_from_item_needs(&order());
}

/// The Developer Guide's Reply table with struct-wide names, a renamed composite table key (`Id`),
/// a global index on a renamed composite of a non-key part (`GSI1PK`), and times stored in millis
/// (the model's width) or seconds (a field's).
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "Reply", rename_all = "PascalCase", datetime = "millis")]
#[composite(id = (forum_name, subject), hash_key, rename = "Id")]
#[composite(by_poster = ("POSTER", posted_by), rename = "GSI1PK")]
#[global_index(keys("GSI1", hash = by_poster, range = reply_date_time))]
struct Reply {
    forum_name: String,
    subject: String,
    #[range_key]
    reply_date_time: DateTime<Utc>,
    message: String,
    posted_by: String,
    #[dynomodel(datetime = "seconds")]
    edited: DateTime<Utc>,
    read: Option<DateTime<Utc>>,
}

#[test]
fn renamed_composites_and_datetime_widths_are_listed_by_their_stored_names() {
    // The key composite (`Id`) is every item's; `posted_by` is read from `GSI1PK`, so that is what
    // is required (by its stored name), not the part; a time is required whatever its width.
    assert_eq!(
        Reply::required_attributes(),
        [
            RequiredAttribute::field("Message"),
            RequiredAttribute::field("Edited"),
            RequiredAttribute::composite("GSI1PK"),
        ]
    );
    required_is_exactly_what_from_item_needs(&Reply {
        forum_name: "Amazon DynamoDB".into(),
        subject: "C# or Rust?".into(),
        reply_date_time: time(1_442_347_102),
        message: "hello".into(),
        posted_by: "User A".into(),
        edited: time(1_442_347_200),
        read: Some(time(1_442_347_300)),
    });
}
