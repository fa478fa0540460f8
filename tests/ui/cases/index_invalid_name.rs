use dynomodel::Model;

#[derive(Model)]
#[global_index(all("by city!", hash = city))]
#[global_index(all("ab", hash = city))]
struct Tweet {
    #[hash_key]
    userid: String,
    city: String,
}

fn main() {}
