use dynomodel::Model;

#[derive(Model)]
#[global_index(all("city-index", hash = town, range = likes))]
#[global_index(include("like-index", hash = city, includes = [txt]))]
struct Tweet {
    #[hash_key]
    userid: String,
    city: String,
    likes: i64,
    text: String,
}

fn main() {}
