//! Behaviour of `#[derive(Model)]` and `#[derive(Document)]`: schemas, item round trips, errors naming
//! the attribute, key structs, field handles and the field options.
//!
//! One binary, a file per topic. The models most topics share, and the helpers that build their
//! values, are defined here at the crate root, where every topic module can see them.

mod borrowed_writes;
mod composite;
mod composite_local_indexes;
mod composite_names;
mod composite_projections;
mod datetime;
mod documents;
mod entities;
mod enums;
mod field_options;
mod from_attributes;
// Public because `ITweet` in it is, like `Tweet` below: `missing_docs` checks only what the crate
// exports, and these two are there to check the docs the derive generates.
pub mod indexes;
mod items;
mod keys;
mod lifecycle;
mod required;
mod schema;
mod sdk_items;
mod table_options;
mod versions;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use chrono::{DateTime, NaiveDate, TimeZone, Utc};
use dynomodel::convert::Binary;
use dynomodel::{AttributeValue, Document, Model, Number};
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
