use dynomodel::Model;

#[derive(Model)]
#[global_index(keys("rt-index", hash = city, range = retweets))]
struct Tweet {
    #[hash_key]
    userid: String,
    city: String,
    #[index(keys = "rt-local")]
    retweets: i64,
}

fn main() {}
