use dynomodel::Model;

#[derive(Model)]
struct Session {
    #[hash_key]
    id: String,
    #[ttl]
    expires: String,
}

#[derive(Model)]
struct Floating {
    #[hash_key]
    id: String,
    #[ttl]
    expires: Option<f64>,
}

fn main() {}
