use dynomodel::Model;

// A part is always present and stored only inside the composite.
#[derive(Model)]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", note, hidden, version), range_key)]
struct Order {
    userid: String,
    note: Option<String>,
    #[dynomodel(skip)]
    hidden: String,
    #[version]
    version: u64,
}

fn main() {}
