use dynomodel::Model;

// Both mistakes are reported, each at its own token.
#[derive(Model)]
#[dynomodel(tabel = "tweets")]
struct Tweet {
    #[hash_key]
    userid: String,
    #[dynomodel(renmae = "body")]
    text: String,
}

fn main() {}
