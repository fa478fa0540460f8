use dynomodel::Model;

#[derive(Model)]
struct Account {
    #[hash_key]
    #[version]
    id: u64,
    balance: i64,
}

#[derive(Model)]
struct Entry {
    #[hash_key]
    account: String,
    #[range_key]
    #[version]
    seq: u64,
}

fn main() {}
