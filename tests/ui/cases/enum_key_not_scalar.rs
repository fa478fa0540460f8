use dynomodel::{Attribute, Model};

// An enum with data is stored as a map, and a newtype of a list as a list: neither can be a key.
#[derive(Attribute, Debug, Clone, PartialEq)]
enum Payment {
    Cash,
    Card { last4: String },
}

#[derive(Attribute, Debug, Clone, PartialEq)]
struct Tags(Vec<String>);

#[derive(Model)]
struct Order {
    #[hash_key]
    payment: Payment,
    #[range_key]
    tags: Tags,
}

fn main() {}
