use dynomodel::{Db, Model};

// A part is stored only inside its composites, so no update can name it: an update of one part
// would leave the composite (an index key here) stale.
#[derive(Model, Debug, Clone, PartialEq)]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", id), range_key)]
#[composite(gpk = ("STATUS", status, day))]
#[global_index(all("by-status", hash = gpk, range = sk))]
struct Order {
    userid: String,
    id: u32,
    status: String,
    day: u32,
    total: u64,
}

async fn ship(db: &Db) -> dynomodel::Result<()> {
    db.update::<Order>(("u1", 7_u32)).set(Order::status(), "shipped").await?;
    // Nor the composite itself: it is no update target.
    db.update::<Order>(("u1", 7_u32)).set(Order::gpk(), "STATUS#shipped#1").await?;
    Ok(())
}

fn main() {}
