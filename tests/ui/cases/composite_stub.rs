use dynomodel::Model;

// After an error, the key struct and the handles still exist, so their uses below add no errors of
// their own.
#[derive(Model, Debug, Clone, PartialEq)]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", day, id), range_key, sorted)]
struct Order {
    userid: String,
    day: String,
    id: u32,
    total: u64,
}

fn main() {
    let _ = OrderKey::from(("u1", ("2026-01-01".to_owned(), 7)));
    let _ = Order::sk().prefix(("2026-01-01".to_owned(),));
    let _ = Order::total();
}
