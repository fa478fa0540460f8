use dynomodel::Model;

#[derive(Model)]
#[dynomodel(table = "tweets", table = "posts")]
struct Tweet {
    #[hash_key]
    userid: String,
    #[dynomodel(rename = "body", rename = "content")]
    text: String,
}

fn main() {}
