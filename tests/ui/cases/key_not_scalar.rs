use dynomodel::Model;

#[derive(Model)]
struct Tweet {
    #[hash_key]
    userid: String,
    #[range_key]
    tags: Vec<String>,
}

fn main() {}
