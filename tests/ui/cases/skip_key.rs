use dynomodel::Model;

#[derive(Model)]
struct Tweet {
    #[hash_key]
    #[dynomodel(skip)]
    userid: String,
    text: String,
}

fn main() {}
