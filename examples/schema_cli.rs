//! An application's schema command: a binary naming the application's models, which gets `plan`,
//! `apply`, `export` and `describe` from `dynomodel::cli` (feature `cli`).
//!
//! ```text
//! cargo run -p dynomodel-examples --example schema_cli -- export --format terraform
//! cargo run -p dynomodel-mem -- serve --port 8000 &          # or DynamoDB Local
//! cargo run -p dynomodel-examples --example schema_cli -- plan --endpoint http://127.0.0.1:8000
//! echo $?                                                    # 2: changes pending
//! cargo run -p dynomodel-examples --example schema_cli -- apply --endpoint http://127.0.0.1:8000
//! cargo run -p dynomodel-examples --example schema_cli -- plan --endpoint http://127.0.0.1:8000
//! echo $?                                                    # 0: in sync
//! ```
//!
//! Without `--endpoint` the commands go to Amazon DynamoDB, configured the usual AWS way.

use dynomodel::cli::Models;
use dynomodel::{Collection, Item, Model};

/// Users and their orders share one table (single-table design).
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "shop", entity = "User", point_in_time_recovery)]
#[composite(pk = ("USER", id), hash_key)]
#[composite(sk = ("PROFILE", since), range_key)]
pub struct User {
    /// The user's id.
    pub id: String,
    /// The year they joined.
    pub since: u16,
    /// Their name.
    pub name: String,
}

/// An order, in its user's partition, also found by status.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "shop", entity = "Order", point_in_time_recovery)]
#[composite(pk = ("USER", user), hash_key)]
#[composite(sk = ("ORDER", id), range_key)]
#[global_index(all("by-status", hash = status, range = sk))]
pub struct Order {
    /// Whose order it is.
    pub user: String,
    /// The order's id.
    pub id: String,
    /// `open`, `paid`, `shipped`.
    pub status: String,
}

/// One user's partition.
#[derive(Collection, Debug, PartialEq)]
pub enum Shop {
    /// A user.
    User(User),
    /// An order.
    Order(Order),
    /// Items of entity types this program does not know.
    #[dynomodel(unknown)]
    Unknown(Item),
}

/// Sessions expire; their table has a stream for an audit consumer.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "sessions", stream = "keys_only", tags(team = "auth"))]
pub struct Session {
    /// The session's id.
    #[hash_key]
    pub id: String,
    /// When DynamoDB may delete it (epoch seconds).
    #[ttl]
    pub expires: u64,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    dynomodel::cli::run(Models::new().with_collection::<Shop>().with::<Session>()).await
}
