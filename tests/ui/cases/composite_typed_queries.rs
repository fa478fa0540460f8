use dynomodel::{Model, Update};

#[derive(Model, Debug, Clone, PartialEq)]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", day, id), range_key)]
struct Order {
    userid: String,
    day: String,
    id: u32,
    total: u64,
}

fn main() {
    // Right: the leading parts in order, then a bound on the next one.
    let _ = Order::sk().prefix(("2026-01-01".to_owned(),));
    let _ = Order::sk().ge(("2026-01-01".to_owned(),), 7);
    // A number where the day goes.
    let _ = Order::sk().prefix((7u32,));
    // More parts than the composite has.
    let _ = Order::sk().prefix(("d".to_owned(), 1u32, 2u32));
    // A range needs a part after the given ones.
    let _ = Order::sk().ge(("d".to_owned(), 1u32), 2u32);
    // Parts have no handles: an update cannot change a part without its key.
    let _ = Update::<Order>::new().set(Order::day(), "2026-01-02".to_owned());
}
