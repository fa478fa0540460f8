use dynomodel::Model;

// A table has one hash key: the composite `pk` or the field `userid`. A composite's name names an
// attribute and a handle, so it cannot be a field's. A Document has no keys, so no composites.
#[derive(Model)]
#[composite(pk = ("USER", id), hash_key)]
#[composite(total = ("T", day))]
#[composite(amount = ("A", code), range_key)]
struct Order {
    #[hash_key]
    userid: String,
    id: String,
    day: String,
    code: String,
    total: u64,
    #[dynomodel(rename = "amount")]
    cents: u64,
}

#[derive(dynomodel::Document)]
#[composite(pk = ("USER", city))]
struct Address {
    city: String,
}

fn main() {}
