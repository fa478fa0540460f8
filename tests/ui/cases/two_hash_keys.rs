use dynomodel::Model;

#[derive(Model)]
struct Tweet {
    #[hash_key]
    userid: String,
    #[hash_key]
    id: String,
}

// The one error above is all: the key struct, handles and a stub `Model` impl still exist.
fn main() {
    let _ = TweetKey::from("abc");
    let _ = Tweet::id();
    let _ = <Tweet as Model>::TABLE_NAME;
}
