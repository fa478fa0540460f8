use dynomodel::Model;

#[derive(Model)]
struct Tweet {
    #[hash_key]
    userid: String,
    text: String,
    #[dynomodel(rename = "text")]
    body: String,
}

fn main() {}
