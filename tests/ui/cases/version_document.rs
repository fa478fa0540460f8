use dynomodel::Document;

#[derive(Document)]
struct Address {
    city: String,
    #[version]
    version: u64,
}

fn main() {}
