use dynomodel::Model;

// Each part is its own token, so the error points at the very name.
#[derive(Model)]
#[composite(pk = ("USER", user_id), hash_key)]
#[composite(sk = ("ORDER", id, id), range_key)]
struct Order {
    userid: String,
    id: u32,
}

fn main() {}
