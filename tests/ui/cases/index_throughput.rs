use dynomodel::Model;

// An on-demand table's global index has no throughput; a local index never has one of its own.
#[derive(Model)]
#[global_index(all("city-index", hash = city), throughput(read = 1, write = 1))]
struct Tweet {
    #[hash_key]
    userid: String,
    #[range_key]
    id: String,
    city: String,
    #[index(all = "ts-local", throughput(read = 1, write = 1))]
    ts: i64,
}

fn main() {}
