//! The example models (`examples/quickstart.rs`, `single_table.rs`, `migrate.rs`), as they are
//! there, and one model with every table option.

use chrono::{DateTime, NaiveDate, Utc};
use dynomodel::migrate::Models;
use dynomodel::{Collection, Item, Model};

/// `examples/quickstart.rs`: provisioned, three GSIs and three LSIs of every projection.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "tweets", throughput(read = 10, write = 2))]
#[global_index(all("ts-index", hash = city, range = ts), throughput(read = 10, write = 2))]
#[global_index(keys("rt-index", hash = city, range = retweets))]
#[global_index(include("like-index", hash = city, range = likes, includes = [text]))]
pub(crate) struct Tweet {
    #[hash_key]
    pub(crate) userid: String,
    #[range_key]
    pub(crate) id: String,
    pub(crate) city: String,
    #[index(all = "ts-local")]
    pub(crate) ts: DateTime<Utc>,
    #[index(keys = "rt-local")]
    pub(crate) retweets: i64,
    #[index(include = "like-local", includes = [text])]
    pub(crate) likes: i64,
    pub(crate) text: String,
}

/// `examples/single_table.rs`: three models sharing table `app`.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "app", entity = "User")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("PROFILE", joined), range_key)]
pub(crate) struct User {
    pub(crate) userid: String,
    pub(crate) joined: NaiveDate,
    pub(crate) name: String,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "app", entity = "Order")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", date, id), range_key)]
#[composite(gpk = ("STATUS", status))]
#[global_index(all("by-status", hash = gpk, range = sk))]
pub(crate) struct Order {
    pub(crate) userid: String,
    pub(crate) date: NaiveDate,
    pub(crate) id: u32,
    pub(crate) status: String,
    pub(crate) total: u64,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "app", entity = "OrderLine")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("LINE", date, order, line), range_key)]
pub(crate) struct OrderLine {
    pub(crate) userid: String,
    pub(crate) date: NaiveDate,
    pub(crate) order: u32,
    pub(crate) line: u32,
    pub(crate) sku: String,
    pub(crate) qty: u32,
}

#[derive(Collection, Debug, PartialEq)]
pub(crate) enum UserData {
    User(User),
    Order(Order),
    Line(OrderLine),
    #[dynomodel(unknown)]
    Unknown(Item),
}

/// `examples/migrate.rs`, version 2: a KEYS_ONLY GSI, a time to live and a tag.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "sessions", tags(team = "auth"))]
#[global_index(keys("by-device", hash = device))]
pub(crate) struct Session {
    #[hash_key]
    pub(crate) user: String,
    #[range_key]
    pub(crate) id: String,
    pub(crate) device: String,
    #[ttl]
    pub(crate) expires: Option<u64>,
}

/// Every table option, and names that need quoting.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(
    table = "audit-log.v2",
    stream = "new_and_old_images",
    table_class = "standard_infrequent_access",
    deletion_protection,
    point_in_time_recovery(recovery_period_days = 7),
    tags(team = "payments", "cost-center" = "42", "owner:email" = "ops team")
)]
pub(crate) struct AuditEntry {
    #[hash_key]
    pub(crate) account: String,
    #[range_key]
    pub(crate) at: i64,
    #[index(include = "by-amount", includes = [actor])]
    pub(crate) amount: i64,
    pub(crate) actor: String,
    #[ttl]
    pub(crate) expires: Option<u64>,
}

/// Each example's models, by golden-file name.
pub(crate) fn examples() -> Vec<(&'static str, Models)> {
    vec![
        ("quickstart", Models::new().with::<Tweet>()),
        (
            "single_table",
            Models::new()
                .with::<User>()
                .with::<Order>()
                .with::<OrderLine>(),
        ),
        ("migrate", Models::new().with::<Session>()),
        ("options", Models::new().with::<AuditEntry>()),
        (
            "all",
            Models::new()
                .with::<Tweet>()
                .with_collection::<UserData>()
                .with::<Session>()
                .with::<AuditEntry>(),
        ),
    ]
}
