use dynomodel::Model;

#[derive(Model)]
struct Tweet<T> {
    #[hash_key]
    userid: String,
    payload: T,
}

fn main() {}
