use dynomodel::Model;

#[derive(Model)]
struct Tweet {
    #[hash_key]
    userid: String,
    #[index(all = "ts-local")]
    ts: i64,
}

fn main() {}
