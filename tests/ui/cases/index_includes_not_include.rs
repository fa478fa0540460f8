use dynomodel::Model;

#[derive(Model)]
#[global_index(keys("rt-index", hash = city, includes = [text]))]
struct Tweet {
    #[hash_key]
    userid: String,
    #[range_key]
    id: String,
    city: String,
    #[index(all = "like-local", includes = [text])]
    likes: i64,
    #[index(include = "ts-local")]
    ts: i64,
    text: String,
}

fn main() {}
