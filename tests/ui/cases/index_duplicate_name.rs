use dynomodel::Model;

#[derive(Model)]
#[global_index(all("by-ts", hash = city, range = ts))]
struct Tweet {
    #[hash_key]
    userid: String,
    #[range_key]
    id: String,
    city: String,
    #[index(all = "by-ts")]
    ts: i64,
}

fn main() {}
