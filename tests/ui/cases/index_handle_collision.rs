use dynomodel::Model;

// The index "city" would get the handle `city()`, which is the field `city`'s handle.
#[derive(Model)]
#[global_index(all("city", hash = city))]
struct Tweet {
    #[hash_key]
    userid: String,
    city: String,
}

fn main() {}
