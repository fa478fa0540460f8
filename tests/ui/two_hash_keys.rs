use dynomodel::Model;

#[derive(Model)]
struct Tweet {
    #[hash_key]
    userid: String,
    #[hash_key]
    id: String,
}

fn main() {}
