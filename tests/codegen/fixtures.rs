//! The tables the code generator's tests read (`tests/codegen/main.rs` on the engine, the dual
//! scenario `codegen` on every target): created from these models and seeded with their items.
//! Each is named by its label; `golden/<label>.rs` is the source generated from it.

use std::collections::{BTreeMap, BTreeSet};

use dynomodel::backend::{
    AttributeDefinition, BillingMode, CreateTableInput, GlobalSecondaryIndex, KeySchemaElement,
    LocalSecondaryIndex, Projection, ProjectionType, ProvisionedThroughput, PutItemInput,
    ScalarAttributeType, TimeToLiveSpecification, UpdateTimeToLiveInput,
};
use dynomodel::{AttributeValue, Db, Document, Item, Model, Number, Result};
use rust_decimal::Decimal;
use serde_json::json;

/// The tables, by label (their names in the models).
pub(crate) const TABLES: [&str; 6] = ["users", "tweets", "app", "events", "odd", "shop"];

/// A nested map with consistent keys, one of them optional, one a map itself.
#[derive(Document, Debug, Clone, PartialEq)]
pub(crate) struct Address {
    pub(crate) city: String,
    #[dynomodel(rename = "zipCode")]
    pub(crate) zip_code: Option<String>,
    pub(crate) geo: Option<Geo>,
}

/// Coordinates (floats).
#[derive(Document, Debug, Clone, PartialEq)]
pub(crate) struct Geo {
    pub(crate) lat: f64,
    pub(crate) lon: f64,
}

/// Plain hash key; renamed, keyword and optional attributes; numbers of every kind; binary; sets;
/// lists; a document, a dictionary and a JSON map; time to live; a stream; tags.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "users", stream = "new_image", tags(team = "growth"))]
pub(crate) struct User {
    #[hash_key]
    #[dynomodel(rename = "userId")]
    pub(crate) user_id: String,
    #[dynomodel(rename = "displayName")]
    pub(crate) display_name: String,
    #[dynomodel(rename = "type")]
    pub(crate) kind: String,
    pub(crate) nickname: Option<String>,
    pub(crate) visits: i64,
    pub(crate) score: f64,
    pub(crate) balance: Decimal,
    pub(crate) big: u64,
    pub(crate) avatar: Option<Vec<u8>>,
    pub(crate) active: bool,
    pub(crate) roles: BTreeSet<String>,
    pub(crate) lucky: BTreeSet<i64>,
    pub(crate) address: Address,
    pub(crate) history: Vec<String>,
    pub(crate) counts: BTreeMap<String, i64>,
    pub(crate) extra: serde_json::Value,
    #[dynomodel(rename = "order-total")]
    pub(crate) order_total: i64,
    #[ttl]
    pub(crate) expires: Option<i64>,
}

/// Hash and range keys, provisioned throughput, global indexes of the three projections (one
/// sparse, one with its own throughput) and a local index.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "tweets", throughput(read = 5, write = 5))]
#[global_index(all("by-city", hash = city, range = posted), throughput(read = 2, write = 1))]
#[global_index(keys("by-likes", hash = city, range = likes))]
#[global_index(include("by-tag", hash = tag, includes = [text]))]
pub(crate) struct Tweet {
    #[hash_key]
    pub(crate) userid: String,
    #[range_key]
    pub(crate) id: String,
    pub(crate) city: String,
    pub(crate) posted: String,
    pub(crate) likes: i64,
    #[index(include = "by-retweets", includes = [text])]
    pub(crate) retweets: i64,
    pub(crate) text: String,
    pub(crate) tag: Option<String>,
}

/// A single-table design with an entity attribute: users and their orders in one partition.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "app", entity = "User")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("PROFILE", handle), range_key)]
pub(crate) struct AppUser {
    pub(crate) userid: String,
    pub(crate) handle: String,
    pub(crate) name: String,
    pub(crate) email: Option<String>,
}

/// An order: its sort key holds two parts, which the generator keeps as one.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "app", entity = "Order")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", date, id), range_key)]
#[global_index(all("by-status", hash = status, range = sk))]
pub(crate) struct AppOrder {
    pub(crate) userid: String,
    pub(crate) date: String,
    pub(crate) id: u32,
    pub(crate) status: String,
    pub(crate) total: i64,
}

/// The app's entity types.
#[derive(dynomodel::Collection, Debug)]
pub(crate) enum AppData {
    User(AppUser),
    Order(AppOrder),
}

/// A single-table design without an entity attribute: the sort key's prefix tells readings from
/// alerts.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "events")]
#[composite(pk = ("DEVICE", device), hash_key)]
#[composite(sk = ("READING", at), range_key)]
pub(crate) struct Reading {
    pub(crate) device: String,
    pub(crate) at: String,
    pub(crate) value: f64,
}

/// An alert of a device.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "events")]
#[composite(pk = ("DEVICE", device), hash_key)]
#[composite(sk = ("ALERT", at), range_key)]
pub(crate) struct Alert {
    pub(crate) device: String,
    pub(crate) at: String,
    pub(crate) message: String,
}

/// The name of table `label` on `db` (with its namespace).
pub(crate) fn table_name(db: &Db, label: &str) -> String {
    match label {
        "users" => db.table_name::<User>(),
        "tweets" => db.table_name::<Tweet>(),
        "app" => db.table_name::<AppUser>(),
        "events" => db.table_name::<Reading>(),
        "odd" => db.table_name::<OddTable>(),
        "shop" => db.table_name::<ShopTable>(),
        other => panic!("no fixture table {other}"),
    }
}

/// Creates the table `label` on `db` and writes its items.
pub(crate) async fn seed(db: &Db, label: &str) -> Result<()> {
    match label {
        "users" => seed_users(db).await,
        "tweets" => seed_tweets(db).await,
        "app" => seed_app(db).await,
        "events" => seed_events(db).await,
        "odd" => seed_odd(db).await,
        "shop" => seed_shop(db).await,
        other => panic!("no fixture table {other}"),
    }
}

async fn seed_users(db: &Db) -> Result<()> {
    db.create_schema::<User>().await?;
    let decimal = |text: &str| text.parse::<Decimal>().expect("a decimal");
    let users = [
        User {
            user_id: "u1".into(),
            display_name: "Ada".into(),
            kind: "person".into(),
            nickname: Some("countess".into()),
            visits: 3,
            score: 4.5,
            balance: decimal("0.12345678901234567891"),
            big: u64::MAX,
            avatar: Some(vec![0, 1, 2]),
            active: true,
            roles: BTreeSet::from(["admin".to_owned(), "dev".to_owned()]),
            lucky: BTreeSet::from([7, 13]),
            address: Address {
                city: "London".into(),
                zip_code: Some("N1".into()),
                geo: Some(Geo {
                    lat: 51.5072,
                    lon: -0.1276,
                }),
            },
            history: vec!["signup".into(), "login".into()],
            counts: BTreeMap::from([("mon".to_owned(), 1), ("tue".to_owned(), 2)]),
            extra: json!({"theme": "dark", "volume": 7}),
            order_total: 120,
            expires: Some(1_900_000_000),
        },
        User {
            user_id: "u2".into(),
            display_name: "Grace".into(),
            kind: "person".into(),
            nickname: None,
            visits: -1,
            score: 0.1,
            balance: decimal("10.5"),
            big: 1,
            avatar: None,
            active: false,
            roles: BTreeSet::new(),
            lucky: BTreeSet::from([-2]),
            address: Address {
                city: "New York".into(),
                zip_code: None,
                geo: None,
            },
            history: Vec::new(),
            counts: BTreeMap::from([("wed".to_owned(), 5)]),
            extra: json!({"beta": true, "notes": null}),
            order_total: 0,
            expires: None,
        },
        User {
            user_id: "u3".into(),
            display_name: "Barbara".into(),
            kind: "person".into(),
            nickname: None,
            visits: 0,
            score: 1e100,
            balance: decimal("-3"),
            big: 0,
            avatar: Some(vec![9]),
            active: true,
            roles: BTreeSet::from(["dev".to_owned()]),
            lucky: BTreeSet::from([1]),
            address: Address {
                city: "Paris".into(),
                zip_code: Some("75001".into()),
                geo: Some(Geo {
                    lat: 48.8566,
                    lon: 2.3522,
                }),
            },
            history: vec!["signup".into()],
            counts: BTreeMap::from([("thu".to_owned(), 1), ("fri".to_owned(), 1)]),
            extra: json!({"tags": ["a", 1]}),
            order_total: 42,
            expires: Some(1_800_000_000),
        },
    ];
    for user in &users {
        db.put(user).await?;
    }
    Ok(())
}

async fn seed_tweets(db: &Db) -> Result<()> {
    db.create_schema::<Tweet>().await?;
    for (userid, id, city, likes, tag) in [
        ("ada", "1", "London", 10, Some("rust")),
        ("ada", "2", "London", 0, None),
        ("grace", "1", "New York", 99, Some("cobol")),
    ] {
        let tweet = Tweet {
            userid: userid.into(),
            id: id.into(),
            city: city.into(),
            posted: format!("2026-01-0{id}"),
            likes,
            retweets: likes / 2,
            text: format!("tweet {id} of {userid}"),
            tag: tag.map(str::to_owned),
        };
        db.put(&tweet).await?;
    }
    Ok(())
}

async fn seed_app(db: &Db) -> Result<()> {
    db.create_collection_schema::<AppData>().await?;
    for (userid, name, email) in [
        ("u1", "Ada", Some("ada@example.com")),
        ("u2", "Grace", None),
    ] {
        let user = AppUser {
            userid: userid.into(),
            handle: name.to_lowercase(),
            name: name.into(),
            email: email.map(str::to_owned),
        };
        db.put(&user).await?;
    }
    for (userid, id, status, total) in [
        ("u1", 7, "open", 70),
        ("u1", 8, "shipped", 80),
        ("u2", 9, "open", 5),
    ] {
        let order = AppOrder {
            userid: userid.into(),
            date: "2026-01-01".into(),
            id,
            status: status.into(),
            total,
        };
        db.put(&order).await?;
    }
    Ok(())
}

async fn seed_events(db: &Db) -> Result<()> {
    db.create_schema::<Reading>().await?;
    for (device, at, value) in [
        ("d1", "2026-01-01T00:00", 20.5),
        ("d1", "2026-01-01T01:00", 21.0),
    ] {
        db.put(&Reading {
            device: device.into(),
            at: at.into(),
            value,
        })
        .await?;
    }
    db.put(&Alert {
        device: "d1".into(),
        at: "2026-01-01T01:00".into(),
        message: "hot".into(),
    })
    .await?;
    Ok(())
}

/// Only names the raw table `odd` (with the namespace of a `Db`).
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "odd")]
pub(crate) struct OddTable {
    #[hash_key]
    #[dynomodel(rename = "PK")]
    pub(crate) pk: String,
}

/// A table no model wrote: names that are no Rust identifiers (keywords, spaces, digits, two that
/// make one snake_case name), values of two types, NULLs, lists of maps and of binaries, a binary
/// set, fractional numbers in a set, a dictionary of documents, a TTL attribute holding fractions,
/// a number sort key, a sparse global index and a local index including an attribute never sampled.
async fn seed_odd(db: &Db) -> Result<()> {
    let table = db.table_name::<OddTable>();
    let definition = |name: &str, attribute_type| AttributeDefinition {
        attribute_name: name.into(),
        attribute_type,
    };
    db.backend()
        .create_table(CreateTableInput {
            table_name: table.clone(),
            attribute_definitions: vec![
                definition("PK", ScalarAttributeType::S),
                definition("SK", ScalarAttributeType::N),
                definition("GSI1PK", ScalarAttributeType::S),
                definition("at", ScalarAttributeType::S),
            ],
            key_schema: vec![KeySchemaElement::hash("PK"), KeySchemaElement::range("SK")],
            billing_mode: Some(BillingMode::PayPerRequest),
            global_secondary_indexes: vec![GlobalSecondaryIndex {
                index_name: "GSI1".into(),
                key_schema: vec![KeySchemaElement::hash("GSI1PK")],
                projection: Projection {
                    projection_type: ProjectionType::KeysOnly,
                    non_key_attributes: Vec::new(),
                },
                provisioned_throughput: None,
            }],
            local_secondary_indexes: vec![LocalSecondaryIndex {
                index_name: "LSI1".into(),
                key_schema: vec![KeySchemaElement::hash("PK"), KeySchemaElement::range("at")],
                projection: Projection {
                    projection_type: ProjectionType::Include,
                    non_key_attributes: vec!["fn".into(), "not sampled".into()],
                },
            }],
            ..Default::default()
        })
        .await?;
    db.backend()
        .update_time_to_live(UpdateTimeToLiveInput {
            table_name: table.clone(),
            time_to_live_specification: TimeToLiveSpecification {
                enabled: true,
                attribute_name: "ttl".into(),
            },
        })
        .await?;
    let s = |text: &str| AttributeValue::S(text.into());
    let n = |text: &str| AttributeValue::N(text.parse::<Number>().expect("a number"));
    let m = |pairs: Vec<(&str, AttributeValue)>| {
        AttributeValue::M(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
    };
    let items: [Vec<(&str, AttributeValue)>; 2] = [
        vec![
            ("PK", s("a")),
            ("SK", n("1")),
            ("self", s("x")),
            ("fn", n("1")),
            ("a b", s("p")),
            ("123", AttributeValue::Bool(true)),
            ("userId", s("u")),
            ("user_id", s("v")),
            ("#", s("hash")),
            ("mixed", s("text")),
            ("nul", AttributeValue::Null),
            (
                "listOfMaps",
                AttributeValue::L(vec![
                    m(vec![("k", s("1"))]),
                    m(vec![("k", s("2")), ("j", n("2"))]),
                ]),
            ),
            ("bins", AttributeValue::Bs(vec![vec![1], vec![2, 3]])),
            ("blist", AttributeValue::L(vec![AttributeValue::B(vec![4])])),
            (
                "decs",
                AttributeValue::Ns(vec!["0.5".parse().expect("n"), "1.25".parse().expect("n")]),
            ),
            ("dictOfMaps", m(vec![("x", m(vec![("a", n("1"))]))])),
            ("ttl", n("1.5")),
            ("GSI1PK", s("g")),
            ("at", s("2026")),
        ],
        vec![
            ("PK", s("b")),
            ("SK", n("2")),
            ("self", s("y")),
            ("fn", n("2")),
            ("a b", s("q")),
            ("123", AttributeValue::Bool(false)),
            ("userId", s("w")),
            ("user_id", s("z")),
            ("mixed", n("3")),
            ("nul", AttributeValue::Null),
            (
                "listOfMaps",
                AttributeValue::L(vec![m(vec![("k", s("3")), ("j", n("3"))])]),
            ),
            ("blist", AttributeValue::L(Vec::new())),
            ("dictOfMaps", m(vec![("y", m(vec![("a", n("2"))]))])),
            ("ttl", n("2")),
            ("at", s("2027")),
        ],
    ];
    for pairs in items {
        let item: Item = pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        db.backend()
            .put_item(PutItemInput {
                table_name: table.clone(),
                item,
                ..Default::default()
            })
            .await?;
    }
    Ok(())
}

/// Only names the raw table `shop` (with the namespace of a `Db`).
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "shop")]
pub(crate) struct ShopTable {
    #[hash_key]
    pub(crate) pk: String,
}

/// A shared table whose items name their entity type in `type`, in partitions of two kinds
/// (products with their reviews, customers): provisioned, with a global index of the table's
/// throughput and a local index only reviews fill.
async fn seed_shop(db: &Db) -> Result<()> {
    let table = db.table_name::<ShopTable>();
    let definition = |name: &str, attribute_type| AttributeDefinition {
        attribute_name: name.into(),
        attribute_type,
    };
    let throughput = ProvisionedThroughput {
        read_capacity_units: 3,
        write_capacity_units: 3,
    };
    db.backend()
        .create_table(CreateTableInput {
            table_name: table.clone(),
            attribute_definitions: vec![
                definition("pk", ScalarAttributeType::S),
                definition("sk", ScalarAttributeType::S),
                definition("name", ScalarAttributeType::S),
                definition("rating", ScalarAttributeType::N),
            ],
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
            billing_mode: Some(BillingMode::Provisioned),
            provisioned_throughput: Some(throughput),
            global_secondary_indexes: vec![GlobalSecondaryIndex {
                index_name: "by-name".into(),
                key_schema: vec![KeySchemaElement::hash("name")],
                projection: Projection {
                    projection_type: ProjectionType::All,
                    non_key_attributes: Vec::new(),
                },
                provisioned_throughput: Some(throughput),
            }],
            local_secondary_indexes: vec![LocalSecondaryIndex {
                index_name: "by-rating".into(),
                key_schema: vec![
                    KeySchemaElement::hash("pk"),
                    KeySchemaElement::range("rating"),
                ],
                projection: Projection {
                    projection_type: ProjectionType::KeysOnly,
                    non_key_attributes: Vec::new(),
                },
            }],
            ..Default::default()
        })
        .await?;
    let s = |text: &str| AttributeValue::S(text.into());
    let items = [
        vec![
            ("pk", s("PRODUCT#p1")),
            ("sk", s("DETAILS#p1")),
            ("type", s("Product")),
            ("name", s("Lamp")),
        ],
        vec![
            ("pk", s("PRODUCT#p2")),
            ("sk", s("DETAILS#p2")),
            ("type", s("Product")),
            ("name", s("Desk")),
        ],
        vec![
            ("pk", s("PRODUCT#p1")),
            ("sk", s("REVIEW#r1")),
            ("type", s("Review")),
            ("rating", AttributeValue::N(5.into())),
            ("text", s("bright")),
        ],
        vec![
            ("pk", s("CUSTOMER#c1")),
            ("sk", s("PROFILE#c1")),
            ("type", s("Customer")),
            ("name", s("Ada")),
        ],
    ];
    for pairs in items {
        let item: Item = pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
        db.backend()
            .put_item(PutItemInput {
                table_name: table.clone(),
                item,
                ..Default::default()
            })
            .await?;
    }
    Ok(())
}
