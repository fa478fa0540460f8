use dynomodel::Model;

#[derive(Model)]
#[dynomodel(stream = "everything", table_class = "glacier")]
struct Events {
    #[hash_key]
    id: String,
}

#[derive(Model)]
#[dynomodel(stream = "keys_only", stream = "new_image", deletion_protection, deletion_protection)]
struct Twice {
    #[hash_key]
    id: String,
}

fn main() {}
