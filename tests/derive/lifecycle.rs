//! `#[dynomodel(counter)]`, `#[created_at]` / `#[updated_at]`: the `Model` items the derive
//! generates for them (on plain and composite models), timestamps set and stored through the
//! field's own conversion (its `datetime` width, `epoch_seconds`), and the trait's defaults on
//! models without them.

use chrono::{DateTime, Duration, TimeZone, Utc};
use dynomodel::convert::datetime::{Millis, Rfc3339};
use dynomodel::{AttributeValue, Field, Model, Timestamp};

use crate::{s, Tweet};

/// A single-table member keyed by composites, with a counter set and both timestamps (`updated`
/// as epoch seconds, `created` at the struct's width).
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "app", entity = "Post", datetime = "millis")]
#[composite(pk = ("USER", user), hash_key)]
#[composite(sk = ("POST", id), range_key)]
struct Post {
    user: String,
    id: String,
    body: Option<String>,
    #[dynomodel(counter, rename = "Likes")]
    likes: std::collections::BTreeSet<String>,
    #[created_at]
    created: DateTime<Utc>,
    #[updated_at]
    #[dynomodel(epoch_seconds)]
    updated: Option<DateTime<Utc>>,
    #[dynomodel(skip)]
    cached: Option<String>,
    #[version]
    version: u64,
}

fn at(nanos: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap() + Duration::nanoseconds(nanos)
}

fn post() -> Post {
    Post {
        user: "ada".into(),
        id: "1".into(),
        body: None,
        likes: Default::default(),
        created: at(123_456_789),
        updated: None,
        cached: None,
        version: 0,
    }
}

#[test]
fn composite_models_list_their_counters_attributes_and_timestamps() {
    assert_eq!(Post::COUNTERS, ["Likes"]);
    // Composites, the stored fields that are no part of one, the entity attribute.
    assert_eq!(
        Post::ATTRIBUTES,
        ["pk", "sk", "body", "Likes", "created", "updated", "version", "_et"]
    );
    assert_eq!(
        (Post::CREATED_AT, Post::UPDATED_AT),
        (Some("created"), Some("updated"))
    );
    // The defaults on a model without any of them.
    assert_eq!(Tweet::COUNTERS, [] as [&str; 0]);
    assert_eq!(Tweet::ATTRIBUTES, ["userid", "id", "text", "likes", "tags"]);
    assert_eq!((Tweet::CREATED_AT, Tweet::UPDATED_AT), (None, None));
    assert_eq!(Tweet::timestamp_value(Timestamp::Updated, at(0)), Ok(None));
}

#[test]
fn timestamps_read_set_and_store_through_the_fields_conversion() {
    let mut post = post();
    assert_eq!(post.timestamp(Timestamp::Created), Some(at(123_456_789)));
    assert_eq!(
        post.timestamp(Timestamp::Updated),
        None,
        "None: not stamped yet"
    );
    post.created = DateTime::UNIX_EPOCH;
    assert_eq!(
        post.timestamp(Timestamp::Created),
        None,
        "the epoch: not stamped yet"
    );

    // The handle of a timestamp has its width, as any date-time field's.
    let _: Field<Post, Rfc3339<Millis>> = Post::created();
    // Set as it reads back once stored: milliseconds for `created`, exact epoch seconds for `updated`.
    post.set_timestamp(Timestamp::Created, at(123_456_789))
        .unwrap();
    post.set_timestamp(Timestamp::Updated, at(5)).unwrap();
    assert_eq!((post.created, post.updated), (at(123_000_000), Some(at(5))));
    assert_eq!(
        Post::timestamp_value(Timestamp::Created, at(123_456_789)),
        Ok(Some(s("2026-03-01T09:00:00.123Z")))
    );
    assert!(matches!(
        Post::timestamp_value(Timestamp::Updated, at(0)),
        Ok(Some(AttributeValue::N(_)))
    ));
    let item = post.to_item().unwrap();
    assert_eq!(item["created"], s("2026-03-01T09:00:00.123Z"));
    assert_eq!(Post::from_item(item).unwrap(), post);
}
