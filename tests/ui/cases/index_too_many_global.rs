use dynomodel::Model;

#[derive(Model)]
#[global_index(keys("global-0", hash = city))]
#[global_index(keys("global-1", hash = city))]
#[global_index(keys("global-2", hash = city))]
#[global_index(keys("global-3", hash = city))]
#[global_index(keys("global-4", hash = city))]
#[global_index(keys("global-5", hash = city))]
#[global_index(keys("global-6", hash = city))]
#[global_index(keys("global-7", hash = city))]
#[global_index(keys("global-8", hash = city))]
#[global_index(keys("global-9", hash = city))]
#[global_index(keys("global-10", hash = city))]
#[global_index(keys("global-11", hash = city))]
#[global_index(keys("global-12", hash = city))]
#[global_index(keys("global-13", hash = city))]
#[global_index(keys("global-14", hash = city))]
#[global_index(keys("global-15", hash = city))]
#[global_index(keys("global-16", hash = city))]
#[global_index(keys("global-17", hash = city))]
#[global_index(keys("global-18", hash = city))]
#[global_index(keys("global-19", hash = city))]
#[global_index(keys("global-20", hash = city))]
struct Tweet {
    #[hash_key]
    userid: String,
    city: String,
}

fn main() {}
