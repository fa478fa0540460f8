use dynomodel::Model;

#[derive(Model)]
struct Tweet {
    #[hash_key]
    userid: String,
    #[range_key]
    id: String,
    #[index(keys = "local-0")]
    f0: i64,
    #[index(keys = "local-1")]
    f1: i64,
    #[index(keys = "local-2")]
    f2: i64,
    #[index(keys = "local-3")]
    f3: i64,
    #[index(keys = "local-4")]
    f4: i64,
    #[index(keys = "local-5")]
    f5: i64,
}

fn main() {}
