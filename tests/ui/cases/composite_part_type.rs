use dynomodel::Model;

// Signed integers and lists are not composite parts; the error is at the field's type.
#[derive(Model)]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", delta, tags), range_key)]
struct Order {
    userid: String,
    delta: i64,
    tags: Vec<String>,
}

fn main() {}
