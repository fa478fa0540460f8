use std::collections::BTreeSet;

use dynomodel::Model;

#[derive(Model)]
#[global_index(all("tags-index", hash = tags))]
struct Tweet {
    #[hash_key]
    userid: String,
    tags: BTreeSet<String>,
}

fn main() {}
