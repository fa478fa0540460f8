use dynomodel::Model;

#[derive(Model)]
struct Tweet {
    #[hash_key]
    userid: String,
    #[range_key]
    id: String,
    #[range_key]
    ts: i64,
}

fn main() {}
