use dynomodel::Model;

// The key struct holds each field once, so the two table keys cannot share a part.
#[derive(Model)]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", userid, id), range_key)]
struct Order {
    userid: String,
    id: u32,
}

fn main() {}
