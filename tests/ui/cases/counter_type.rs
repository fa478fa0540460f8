use dynomodel::Model;

#[derive(Model)]
struct Thread {
    #[hash_key]
    id: String,
    #[dynomodel(counter)]
    message: String,
    #[dynomodel(counter)]
    history: Vec<u64>,
    #[dynomodel(counter)]
    views: Option<u64>,
    #[version]
    version: u64,
}

fn main() {}
