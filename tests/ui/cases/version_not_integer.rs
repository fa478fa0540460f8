use dynomodel::Model;

#[derive(Model)]
struct Account {
    #[hash_key]
    id: String,
    #[version]
    version: String,
}

#[derive(Model)]
struct Ledger {
    #[hash_key]
    id: String,
    #[version]
    version: f64,
}

fn main() {}
