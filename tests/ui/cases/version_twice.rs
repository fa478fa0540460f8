use dynomodel::Model;

#[derive(Model)]
struct Account {
    #[hash_key]
    id: String,
    #[version]
    version: u64,
    #[version]
    revision: u64,
}

#[derive(Model)]
struct Ledger {
    #[hash_key]
    id: String,
    #[version]
    #[version]
    version: u64,
}

fn main() {}
