use dynomodel::Document;

#[derive(Document)]
#[dynomodel(table = "addresses")]
struct Address {
    #[hash_key]
    city: String,
}

fn main() {}
