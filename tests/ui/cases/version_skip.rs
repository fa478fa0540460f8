use dynomodel::Model;

#[derive(Model)]
struct Account {
    #[hash_key]
    id: String,
    #[version]
    #[dynomodel(skip)]
    version: u64,
}

#[derive(Model)]
struct Ledger {
    #[hash_key]
    id: String,
    #[version]
    #[dynomodel(epoch_seconds)]
    version: u64,
}

fn main() {}
