use dynomodel::Model;

#[derive(Model)]
#[composite(pk = ("USER"), hash_key)]
#[composite(sk = (a, "MIDDLE", b), range_key, separator = "")]
#[composite(hash_key)]
#[composite(gsi = (a), global)]
struct Order {
    a: String,
    b: String,
    #[composite(x = (a))]
    c: String,
}

fn main() {}
