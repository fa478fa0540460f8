//! Single-table design: users, their orders and the orders' lines in one table `app`, each model an
//! entity type (`_et` attribute written on every write, checked on every read), one typed query
//! reading a user's whole partition, and a global index shared by the entities that carry its keys.
//!
//! Runs on the in-memory engine; with `DYNAMODB_ENDPOINT` set (e.g. `http://127.0.0.1:8000`) it runs
//! against DynamoDB Local instead, in tables prefixed with a namespace it deletes at the end.
//!
//! ```text
//! pk        sk                                 _et        gpk           other attributes
//! USER#u1   LINE#2026-01-05#0000000007#0000000001 OrderLine                sku, qty
//! USER#u1   ORDER#2026-01-05#0000000007        Order      STATUS#open   total
//! USER#u1   PROFILE#2026-01-01                 User                     name
//! ```

use chrono::NaiveDate;
use dynomodel::backend::PutItemInput;
use dynomodel::{AttributeValue, AwsBackend, Collection, Db, Item, Model};

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "app", entity = "User")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("PROFILE", joined), range_key)]
struct User {
    userid: String,
    joined: NaiveDate,
    name: String,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "app", entity = "Order")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", date, id), range_key)]
#[composite(gpk = ("STATUS", status))]
#[global_index(all("by-status", hash = gpk, range = sk))]
struct Order {
    userid: String,
    date: NaiveDate,
    id: u32,
    status: String,
    total: u64,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "app", entity = "OrderLine")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("LINE", date, order, line), range_key)]
struct OrderLine {
    userid: String,
    date: NaiveDate,
    order: u32,
    line: u32,
    sku: String,
    qty: u32,
}

/// Everything in one user's partition. The table's schema is the union of the members'.
#[derive(Collection, Debug, PartialEq)]
enum UserData {
    User(User),
    Order(Order),
    Line(OrderLine),
    /// Items of entity types this program does not know (written by a newer version, say).
    #[dynomodel(unknown)]
    Unknown(Item),
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 1, d).unwrap_or_default()
}

/// The engine, or DynamoDB Local when `DYNAMODB_ENDPOINT` is set (in a namespace of its own).
fn database() -> Db {
    match std::env::var("DYNAMODB_ENDPOINT") {
        Ok(endpoint) => Db::new(AwsBackend::local(endpoint))
            .with_namespace(format!("single-table-{}-", std::process::id())),
        Err(_) => dynomodel_mem::memory(),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let db = database();
    // One CreateTable for the three models: keys, the `gpk` attribute and the "by-status" index.
    db.create_collection_schema::<UserData>().await?;
    let result = run(&db).await;
    if std::env::var("DYNAMODB_ENDPOINT").is_ok() {
        db.delete_schema::<User>().await?;
    }
    result
}

async fn run(db: &Db) -> Result<(), Box<dyn std::error::Error>> {
    for userid in ["u1", "u2"] {
        let name = format!("user {userid}");
        db.put(&User {
            userid: userid.into(),
            joined: day(1),
            name,
        })
        .await?;
    }
    let order = |userid: &str, d, id, status: &str| Order {
        userid: userid.into(),
        date: day(d),
        id,
        status: status.into(),
        total: u64::from(id) * 10,
    };
    db.put(&order("u1", 5, 7, "open")).await?;
    db.put(&order("u1", 2, 3, "shipped")).await?;
    db.put(&order("u2", 4, 1, "open")).await?;
    for (line, sku) in [(1, "apple"), (2, "pear")] {
        let line = OrderLine {
            userid: "u1".into(),
            date: day(5),
            order: 7,
            line,
            sku: sku.into(),
            qty: 2,
        };
        db.put(&line).await?;
    }

    // One typed query: u1's whole partition, each item decoded into its own type, in sort-key order.
    let u1: Vec<UserData> = db.collection::<UserData>("u1").all().await?;
    for entity in &u1 {
        println!("{entity:?}");
    }
    let kinds: Vec<&str> = u1
        .iter()
        .map(|e| match e {
            UserData::User(_) => "user",
            UserData::Order(_) => "order",
            UserData::Line(_) => "line",
            UserData::Unknown(_) => "unknown",
        })
        .collect();
    assert_eq!(kinds, ["line", "line", "order", "order", "user"]);

    // An item of another entity type never decodes silently as the wrong model.
    let Err(err) = User::from_item(order("u1", 5, 7, "open").to_item()?) else {
        return Err("an Order decoded as a User".into());
    };
    println!("reading an Order as a User: {err}");
    assert!(err.to_string().contains("\"Order\""));

    // The index is shared: here only orders carry `gpk`, so it lists open orders of every user.
    let open: Vec<UserData> = db
        .query_index(Order::by_status(), "open")
        .collection::<UserData>()
        .all()
        .await?;
    assert_eq!(open.len(), 2);

    // An entity type the collection does not declare is reported in the unknown variant.
    let coupon: Item = [
        ("pk".to_owned(), AttributeValue::S("USER#u1".into())),
        ("sk".to_owned(), AttributeValue::S("COUPON#1".into())),
        ("_et".to_owned(), AttributeValue::S("Coupon".into())),
    ]
    .into();
    let table_name = db.table_name::<User>();
    db.backend()
        .put_item(PutItemInput {
            table_name,
            item: coupon,
            ..Default::default()
        })
        .await?;
    let u1 = db.collection::<UserData>("u1").all().await?;
    let unknown: Vec<_> = u1
        .iter()
        .filter(|e| matches!(e, UserData::Unknown(_)))
        .collect();
    assert_eq!(unknown.len(), 1);
    println!(
        "{} entities in u1's partition, {} of an unknown type",
        u1.len(),
        unknown.len()
    );
    Ok(())
}
