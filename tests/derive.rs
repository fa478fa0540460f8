//! Behaviour of `#[derive(Model)]` and `#[derive(Document)]`: schemas, item round trips, errors naming
//! the attribute, key structs, field handles and the field options.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use dynomodel::convert::Binary;
use dynomodel::{
    Attribute, AttributeValue, BillingMode, Document, Item, KeyType, Model, Number, PrimaryKey,
    ProvisionedThroughput, ScalarAttributeType,
};
use rust_decimal::Decimal;

#[derive(Document, Debug, Clone, PartialEq)]
struct Address {
    city: String,
    #[dynomodel(rename = "zip")]
    postcode: Option<String>,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "tweets", throughput(read = 10, write = 2))]
/// Public, so that `missing_docs` checks the generated key struct and handles have docs.
pub struct Tweet {
    /// Author.
    #[hash_key]
    pub userid: String,
    /// Tweet id.
    #[range_key]
    pub id: String,
    /// Body.
    pub text: String,
    /// Like count.
    pub likes: i64,
    /// Tags.
    pub tags: BTreeSet<String>,
}

/// Every supported field type at once.
#[derive(Model, Debug, Clone, PartialEq)]
struct Everything {
    #[hash_key]
    id: u64,
    #[range_key]
    #[dynomodel(epoch_seconds)]
    at: DateTime<Utc>,
    flag: bool,
    small: i8,
    big: u128,
    signed: i128,
    ratio: f64,
    single: f32,
    size: usize,
    price: Decimal,
    exact: Number,
    raw: AttributeValue,
    bytes: Vec<u8>,
    maybe_bytes: Option<Vec<u8>>,
    blob: Binary,
    nickname: Option<String>,
    absent: Option<u32>,
    scores: Vec<i32>,
    matrix: Vec<Vec<u8>>,
    labels: HashMap<String, String>,
    counts: BTreeMap<String, u16>,
    tags: HashSet<String>,
    numbers: BTreeSet<i64>,
    blobs: BTreeSet<Binary>,
    empty_tags: BTreeSet<String>,
    address: Address,
    previous: Vec<Address>,
    created: DateTime<Utc>,
    birthday: NaiveDate,
    #[dynomodel(epoch_seconds)]
    expires: Option<NaiveDate>,
    #[dynomodel(epoch_seconds)]
    never: Option<DateTime<Utc>>,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "users", rename_all = "camelCase")]
struct User {
    #[hash_key]
    user_id: String,
    display_name: String,
    #[dynomodel(rename = "mail")]
    email_address: String,
    #[dynomodel(skip)]
    session: Option<String>,
    #[dynomodel(default)]
    login_count: u32,
    #[dynomodel(default = "default_theme")]
    theme: String,
}

fn default_theme() -> String {
    "dark".to_owned()
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "events")]
struct Event {
    #[hash_key]
    #[dynomodel(epoch_seconds)]
    day: NaiveDate,
    #[range_key]
    seq: Binary,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "blobs", on_demand)]
struct Blob {
    #[hash_key]
    digest: Vec<u8>,
    size: u32,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "counters")]
struct Counter {
    #[hash_key]
    id: u64,
    #[dynomodel(rename = "n")]
    count: i64,
}

fn time(seconds: i64) -> DateTime<Utc> {
    Utc.timestamp_opt(seconds, 0).unwrap()
}

fn everything() -> Everything {
    Everything {
        id: 7,
        at: time(1_700_000_000) + chrono::Duration::milliseconds(250),
        flag: true,
        small: -3,
        big: 10u128.pow(37),
        signed: -(10i128.pow(30)),
        ratio: 0.1,
        single: 2.5,
        size: 12,
        price: "19.99".parse().expect("decimal"),
        exact: "1.000000000000000000000000000000000001"
            .parse()
            .expect("number"),
        raw: AttributeValue::Ss(vec!["x".into()]),
        bytes: vec![0, 1, 255],
        maybe_bytes: Some(vec![9]),
        blob: Binary(vec![4, 2]),
        nickname: Some("ada".into()),
        absent: None,
        scores: vec![3, -1],
        matrix: vec![vec![1, 2], vec![]],
        labels: HashMap::from([("lang".to_owned(), "rust".to_owned())]),
        counts: BTreeMap::from([("a".to_owned(), 1), ("b".to_owned(), 2)]),
        tags: HashSet::from(["x".to_owned(), "y".to_owned()]),
        numbers: BTreeSet::from([1, 2, 3]),
        blobs: BTreeSet::from([Binary(vec![1]), Binary(vec![2])]),
        empty_tags: BTreeSet::new(),
        address: Address {
            city: "Paris".into(),
            postcode: Some("75001".into()),
        },
        previous: vec![Address {
            city: "Lyon".into(),
            postcode: None,
        }],
        created: Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap(),
        birthday: NaiveDate::from_ymd_opt(1815, 12, 10).expect("date"),
        expires: NaiveDate::from_ymd_opt(2030, 1, 1),
        never: None,
    }
}

fn n(value: i64) -> AttributeValue {
    AttributeValue::N(value.into())
}

fn s(value: &str) -> AttributeValue {
    AttributeValue::S(value.into())
}

#[test]
fn schema_has_keys_types_and_provisioned_billing() {
    let schema = Tweet::schema();
    assert_eq!(Tweet::TABLE_NAME, "tweets");
    assert_eq!(schema.table_name, "tweets");
    let keys: Vec<(&str, KeyType)> = schema
        .key_schema
        .iter()
        .map(|k| (k.attribute_name.as_str(), k.key_type))
        .collect();
    assert_eq!(keys, [("userid", KeyType::Hash), ("id", KeyType::Range)]);
    let types: Vec<(&str, ScalarAttributeType)> = schema
        .attribute_definitions
        .iter()
        .map(|d| (d.attribute_name.as_str(), d.attribute_type))
        .collect();
    assert_eq!(
        types,
        [
            ("userid", ScalarAttributeType::S),
            ("id", ScalarAttributeType::S)
        ]
    );
    assert_eq!(schema.billing_mode, Some(BillingMode::Provisioned));
    assert_eq!(
        schema.provisioned_throughput,
        Some(ProvisionedThroughput {
            read_capacity_units: 10,
            write_capacity_units: 2
        })
    );
    assert!(schema.global_secondary_indexes.is_empty());
    assert!(schema.local_secondary_indexes.is_empty());
}

#[test]
fn schema_defaults_to_on_demand_and_the_struct_name() {
    let schema = Everything::schema();
    assert_eq!(schema.table_name, "Everything");
    assert_eq!(schema.billing_mode, Some(BillingMode::PayPerRequest));
    assert_eq!(schema.provisioned_throughput, None);
    let types: Vec<ScalarAttributeType> = schema
        .attribute_definitions
        .iter()
        .map(|d| d.attribute_type)
        .collect();
    // `at` is a DateTime stored as epoch seconds: N.
    assert_eq!(types, [ScalarAttributeType::N, ScalarAttributeType::N]);
    assert_eq!(
        Blob::schema().billing_mode,
        Some(BillingMode::PayPerRequest)
    );
}

#[test]
fn key_types_follow_the_field_types() {
    let types = |schema: dynomodel::CreateTableInput| -> Vec<ScalarAttributeType> {
        schema
            .attribute_definitions
            .iter()
            .map(|d| d.attribute_type)
            .collect()
    };
    assert_eq!(
        types(Event::schema()),
        [ScalarAttributeType::N, ScalarAttributeType::B]
    );
    assert_eq!(types(Blob::schema()), [ScalarAttributeType::B]);
    assert_eq!(types(User::schema()), [ScalarAttributeType::S]);
}

#[test]
fn every_field_type_round_trips() {
    let value = everything();
    let item = value.to_item().unwrap();
    assert_eq!(Everything::from_item(item.clone()).unwrap(), value);
    // Stored shapes.
    assert_eq!(item["id"], n(7));
    assert_eq!(
        item["at"],
        AttributeValue::N("1700000000.25".parse().unwrap())
    );
    assert_eq!(item["bytes"], AttributeValue::B(vec![0, 1, 255]));
    assert_eq!(item["maybe_bytes"], AttributeValue::B(vec![9]));
    assert_eq!(item["blob"], AttributeValue::B(vec![4, 2]));
    assert_eq!(
        item["matrix"],
        AttributeValue::L(vec![
            AttributeValue::L(vec![n(1), n(2)]),
            AttributeValue::L(vec![])
        ])
    );
    assert_eq!(
        item["tags"],
        AttributeValue::Ss(vec!["y".into(), "x".into()])
    );
    assert!(matches!(item["numbers"], AttributeValue::Ns(_)));
    assert!(matches!(item["blobs"], AttributeValue::Bs(_)));
    assert_eq!(item["created"], s("2026-11-21T10:00:00.000000000Z"));
    assert_eq!(item["birthday"], s("1815-12-10"));
    assert_eq!(item["expires"], n(1_893_456_000));
    assert_eq!(
        item["big"],
        AttributeValue::N(Number::try_from(10u128.pow(37)).unwrap())
    );
    let AttributeValue::M(address) = &item["address"] else {
        panic!("address is not a map")
    };
    assert_eq!(address["city"], s("Paris"));
    assert_eq!(address["zip"], s("75001"));
    // None and empty sets are not stored at all.
    for absent in ["absent", "never", "empty_tags"] {
        assert!(!item.contains_key(absent), "{absent} should be absent");
    }
}

#[test]
fn none_values_read_back_from_missing_attributes() {
    let mut value = everything();
    value.maybe_bytes = None;
    value.nickname = None;
    value.expires = None;
    value.tags.clear();
    let item = value.to_item().unwrap();
    assert!(!item.contains_key("maybe_bytes"));
    assert_eq!(Everything::from_item(item).unwrap(), value);
}

#[test]
fn missing_attributes_are_errors_naming_them() {
    let mut item = everything().to_item().unwrap();
    item.remove("flag");
    let err = Everything::from_item(item).unwrap_err();
    assert_eq!(
        err.to_string(),
        "attribute `flag`: expected a boolean, found nothing (the attribute is missing)"
    );

    let mut item = everything().to_item().unwrap();
    item.remove("bytes");
    assert_eq!(Everything::from_item(item).unwrap_err().path, "bytes");
}

#[test]
fn ill_typed_attributes_are_errors_naming_them() {
    let mut item = everything().to_item().unwrap();
    item.insert("small".into(), s("three"));
    let err = Everything::from_item(item).unwrap_err();
    assert_eq!(
        err.to_string(),
        "attribute `small`: expected a number (i8), found S"
    );

    let mut item = everything().to_item().unwrap();
    item.insert("scores".into(), AttributeValue::L(vec![n(1), n(2), s("x")]));
    let err = Everything::from_item(item).unwrap_err();
    assert_eq!(
        err.to_string(),
        "attribute `scores[2]`: expected a number (i32), found S"
    );

    let mut item = everything().to_item().unwrap();
    let mut address = BTreeMap::new();
    address.insert("city".to_owned(), n(75));
    item.insert("address".into(), AttributeValue::M(address));
    let err = Everything::from_item(item).unwrap_err();
    assert_eq!(
        err.to_string(),
        "attribute `address.city`: expected a string, found N"
    );

    let mut item = everything().to_item().unwrap();
    item.insert("previous".into(), AttributeValue::L(vec![s("Lyon")]));
    let err = Everything::from_item(item).unwrap_err();
    assert_eq!(
        err.to_string(),
        "attribute `previous[0]`: expected a map (Address), found S"
    );

    let mut item = everything().to_item().unwrap();
    item.insert("at".into(), s("2026-01-01"));
    let err = Everything::from_item(item).unwrap_err();
    assert_eq!(
        err.to_string(),
        "attribute `at`: expected epoch seconds (DateTime<Utc>), found S"
    );
}

#[test]
fn writing_errors_name_the_attribute() {
    let mut value = everything();
    value.ratio = f64::NAN;
    let err = value.to_item().unwrap_err();
    assert_eq!(err.path, "ratio");
    assert_eq!(err.expected, "a finite number (f64)");
}

#[test]
fn unknown_attributes_are_ignored() {
    let mut item = everything().to_item().unwrap();
    item.insert("added_later".into(), s("whatever"));
    assert_eq!(Everything::from_item(item).unwrap(), everything());
}

#[test]
fn rename_skip_and_default() {
    let user = User {
        user_id: "u1".into(),
        display_name: "Ada".into(),
        email_address: "ada@example.com".into(),
        session: Some("secret".into()),
        login_count: 3,
        theme: "light".into(),
    };
    let item = user.to_item().unwrap();
    let names: Vec<&str> = item.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        ["displayName", "loginCount", "mail", "theme", "userId"]
    );
    let back = User::from_item(item.clone()).unwrap();
    assert_eq!(
        back.session, None,
        "skipped fields are not stored and read as Default"
    );
    assert_eq!(
        back,
        User {
            session: None,
            ..user.clone()
        }
    );

    let mut sparse = item;
    sparse.remove("loginCount");
    sparse.remove("theme");
    let back = User::from_item(sparse).unwrap();
    assert_eq!(back.login_count, 0);
    assert_eq!(back.theme, "dark");

    let mut bad = user.to_item().unwrap();
    bad.insert("loginCount".into(), s("many"));
    assert_eq!(User::from_item(bad).unwrap_err().path, "loginCount");
}

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

#[test]
fn field_handles_carry_attribute_names() {
    assert_eq!(Tweet::likes().name(), "likes");
    assert_eq!(Tweet::userid().name(), "userid");
    assert_eq!(User::email_address().name(), "mail");
    assert_eq!(User::display_name().name(), "displayName");
    assert_eq!(Everything::previous().name(), "previous");
    let handle: dynomodel::Field<Tweet, BTreeSet<String>> = Tweet::tags();
    assert_eq!(format!("{handle:?}"), "Field(tags)");
}

#[test]
fn models_embed_as_maps() {
    let tweet = Tweet {
        userid: "abc".into(),
        id: "1".into(),
        text: "hi".into(),
        likes: 2,
        tags: BTreeSet::from(["rust".to_owned()]),
    };
    let stored = tweet.to_attribute().unwrap().unwrap();
    assert_eq!(stored, AttributeValue::M(tweet.to_item().unwrap()));
    assert_eq!(Tweet::from_attribute(stored).unwrap(), tweet);
    let err = Tweet::from_attribute(s("x")).unwrap_err();
    assert_eq!(
        (err.expected.as_str(), err.found.as_str()),
        ("a map (Tweet)", "S")
    );
    assert_eq!(Address::expected(), "a map (Address)");
}

#[derive(Document, Debug, Clone, PartialEq)]
#[dynomodel(rename_all = "PascalCase")]
struct Profile {
    avatar: Vec<u8>,
    #[dynomodel(epoch_seconds)]
    joined: DateTime<Utc>,
    #[dynomodel(skip)]
    cache: Vec<String>,
    #[dynomodel(default)]
    karma: i32,
}

#[test]
fn documents_support_the_field_options() {
    let profile = Profile {
        avatar: vec![1],
        joined: time(60),
        cache: vec!["x".into()],
        karma: 5,
    };
    let stored = profile.to_attribute().unwrap().unwrap();
    let AttributeValue::M(map) = &stored else {
        panic!("a document is a map")
    };
    let names: Vec<&str> = map.keys().map(String::as_str).collect();
    assert_eq!(names, ["Avatar", "Joined", "Karma"]);
    assert_eq!(map["Avatar"], AttributeValue::B(vec![1]));
    assert_eq!(map["Joined"], n(60));
    let back = Profile::from_attribute(stored.clone()).unwrap();
    assert_eq!(
        back,
        Profile {
            cache: Vec::new(),
            ..profile
        }
    );

    let mut sparse = map.clone();
    sparse.remove("Karma");
    assert_eq!(
        Profile::from_attribute(AttributeValue::M(sparse.clone()))
            .unwrap()
            .karma,
        0
    );
    sparse.remove("Joined");
    let err = Profile::from_attribute(AttributeValue::M(sparse)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "attribute `Joined`: expected epoch seconds (DateTime<Utc>), found nothing (the attribute is missing)"
    );
}

/// `Db::get` takes `impl Into<M::Key>`: these must compile (the futures are never awaited).
#[allow(dead_code)]
fn db_get_accepts_tuples_and_strings(db: &dynomodel::Db) {
    let _ = db.get::<Tweet>(("abc", "1"));
    let _ = db.get::<User>("u1");
    let _ = db.get::<User>(String::from("u1"));
    let _ = db.get::<Counter>(5);
}

/// flywheel's Tweet: every index form at once.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(
    table = "itweets",
    throughput(read = 10, write = 2),
    rename_all = "camelCase"
)]
#[global_index(all("ts-index", hash = city, range = ts), throughput(read = 5, write = 1))]
#[global_index(keys("rt-index", hash = city, range = retweets))]
#[global_index(include("like-index", hash = city, range = likes, includes = [body_text]))]
#[global_index(keys("CityOnly", hash = city))]
/// Public, so that `missing_docs` checks the generated item structs and index handles have docs.
pub struct ITweet {
    /// Author.
    #[hash_key]
    pub userid: String,
    /// Tweet id.
    #[range_key]
    pub id: String,
    /// City.
    pub city: String,
    /// Posted at.
    #[index(all = "ts-local")]
    #[dynomodel(epoch_seconds)]
    pub ts: DateTime<Utc>,
    /// Retweets.
    #[index(keys = "rt-local")]
    pub retweets: i64,
    /// Likes.
    #[index(include = "like-local", includes = [body_text, tags])]
    pub likes: i64,
    /// Body, stored as `bodyText`.
    pub body_text: String,
    /// Tags.
    pub tags: BTreeSet<String>,
}

#[test]
fn schema_holds_every_index() {
    use dynomodel::{Projection, ProjectionType};
    let schema = ITweet::schema();
    let definitions: Vec<(&str, ScalarAttributeType)> = schema
        .attribute_definitions
        .iter()
        .map(|d| (d.attribute_name.as_str(), d.attribute_type))
        .collect();
    assert_eq!(
        definitions,
        [
            ("userid", ScalarAttributeType::S),
            ("id", ScalarAttributeType::S),
            ("ts", ScalarAttributeType::N),
            ("retweets", ScalarAttributeType::N),
            ("likes", ScalarAttributeType::N),
            ("city", ScalarAttributeType::S),
        ]
    );
    let locals: Vec<(&str, &str, ProjectionType)> = schema
        .local_secondary_indexes
        .iter()
        .map(|i| {
            assert_eq!(i.key_schema[0].attribute_name, "userid");
            (
                i.index_name.as_str(),
                i.key_schema[1].attribute_name.as_str(),
                i.projection.projection_type,
            )
        })
        .collect();
    assert_eq!(
        locals,
        [
            ("ts-local", "ts", ProjectionType::All),
            ("rt-local", "retweets", ProjectionType::KeysOnly),
            ("like-local", "likes", ProjectionType::Include),
        ]
    );
    assert_eq!(
        schema.local_secondary_indexes[2].projection,
        Projection {
            projection_type: ProjectionType::Include,
            non_key_attributes: vec!["bodyText".into(), "tags".into()],
        }
    );
    let globals = &schema.global_secondary_indexes;
    assert_eq!(globals.len(), 4);
    assert_eq!(globals[0].index_name, "ts-index");
    assert_eq!(
        globals[0].key_schema,
        [
            dynomodel::KeySchemaElement::hash("city"),
            dynomodel::KeySchemaElement::range("ts")
        ]
    );
    assert_eq!(
        globals[0].provisioned_throughput,
        Some(ProvisionedThroughput {
            read_capacity_units: 5,
            write_capacity_units: 1
        })
    );
    // No throughput of its own: the table's.
    assert_eq!(
        globals[1].provisioned_throughput,
        Some(ProvisionedThroughput {
            read_capacity_units: 10,
            write_capacity_units: 2
        })
    );
    assert_eq!(globals[2].projection.non_key_attributes, ["bodyText"]);
    assert_eq!(globals[3].key_schema.len(), 1);
    assert_eq!(globals[3].key_schema[0].key_type, KeyType::Hash);
}

#[test]
fn on_demand_indexes_have_no_throughput() {
    #[derive(Model)]
    #[global_index(all("by-city", hash = city))]
    struct Place {
        #[hash_key]
        id: String,
        city: String,
    }
    let schema = Place::schema();
    assert_eq!(schema.billing_mode, Some(BillingMode::PayPerRequest));
    assert_eq!(
        schema.global_secondary_indexes[0].provisioned_throughput,
        None
    );
    assert!(schema.local_secondary_indexes.is_empty());
}

#[test]
fn index_handles_know_names_keys_and_item_types() {
    use dynomodel::{Index, Projected, ProjectionType};
    let ts: Index<ITweet, String, DateTime<Utc>, ITweet> = ITweet::ts_index();
    assert_eq!(
        (ts.name(), ts.hash_key(), ts.range_key()),
        ("ts-index", "city", Some("ts"))
    );
    let rt: Index<ITweet, String, i64, ITweetRtIndexItem> = ITweet::rt_index();
    assert_eq!(rt.projection(), ProjectionType::KeysOnly);
    let local: Index<ITweet, String, i64, ITweetLikeLocalItem> = ITweet::like_local();
    assert!(local.is_local());
    assert_eq!(local.hash_key(), "userid");
    let city: Index<ITweet, String, (), ITweetCityOnlyItem> = ITweet::city_only();
    assert_eq!(city.range_key(), None);

    // The KEYS_ONLY item holds the table keys and the index keys, decoded by attribute name.
    let mut item = Item::new();
    item.insert("userid".into(), AttributeValue::S("abc".into()));
    item.insert("id".into(), AttributeValue::S("1".into()));
    item.insert("city".into(), AttributeValue::S("Paris".into()));
    item.insert("retweets".into(), AttributeValue::N(Number::from(7)));
    let entry = ITweetRtIndexItem::from_projection(item.clone()).unwrap();
    assert_eq!(
        entry,
        ITweetRtIndexItem {
            userid: "abc".into(),
            id: "1".into(),
            city: "Paris".into(),
            retweets: 7
        }
    );
    assert_eq!(entry.key(), ITweetKey::from(("abc", "1")));
    // The INCLUDE item also needs its included fields; a missing one is an error naming it.
    item.insert("likes".into(), AttributeValue::N(Number::from(1)));
    let err = ITweetLikeLocalItem::from_projection(item).unwrap_err();
    assert!(err.to_string().contains("bodyText"), "{err}");
}

/// An optional attribute can key a global index: items without it are not in the index (sparse).
#[derive(dynomodel::Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "orders")]
#[global_index(keys("open-index", hash = open_status, range = id))]
struct Order {
    #[hash_key]
    id: String,
    open_status: Option<String>,
}

#[test]
fn optional_fields_key_sparse_indexes() {
    let schema = Order::schema();
    let definition = schema
        .attribute_definitions
        .iter()
        .find(|d| d.attribute_name == "open_status")
        .expect("the index key is defined");
    assert_eq!(definition.attribute_type, dynomodel::ScalarAttributeType::S);
    let closed = Order {
        id: "1".into(),
        open_status: None,
    };
    assert!(!closed.to_item().unwrap().contains_key("open_status"));
    assert_eq!(Order::open_index().name(), "open-index");
}
