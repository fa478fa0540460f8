use dynomodel::Model;

#[derive(Model)]
struct Account {
    #[hash_key]
    id: String,
    #[version(start = 1)]
    version: u64,
}

fn main() {}
