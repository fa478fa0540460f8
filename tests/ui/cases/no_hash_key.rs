use dynomodel::Model;

#[derive(Model)]
struct Tweet {
    #[range_key]
    id: String,
    text: String,
}

fn main() {}
