use dynomodel::{Collection, Model};

#[derive(Model)]
#[dynomodel(table = "app", entity = "User")]
struct User {
    #[hash_key]
    pk: String,
    #[range_key]
    sk: String,
}

// No entity type.
#[derive(Model)]
#[dynomodel(table = "app")]
struct Plain {
    #[hash_key]
    pk: String,
    #[range_key]
    sk: String,
}

// Another table.
#[derive(Model)]
#[dynomodel(table = "other", entity = "Order")]
struct Order {
    #[hash_key]
    pk: String,
    #[range_key]
    sk: String,
}

// The same entity type as `User`.
#[derive(Model)]
#[dynomodel(table = "app", entity = "User")]
struct Profile {
    #[hash_key]
    pk: String,
    #[range_key]
    sk: String,
}

#[derive(Collection)]
enum NoEntity {
    User(User),
    Plain(Plain),
}

#[derive(Collection)]
enum OtherTable {
    User(User),
    Order(Order),
}

// Another hash key name.
#[derive(Model)]
#[dynomodel(table = "app", entity = "Line")]
struct Line {
    #[hash_key]
    id: String,
    #[range_key]
    sk: String,
}

#[derive(Collection)]
enum OtherKey {
    User(User),
    Line(Line),
}

#[derive(Collection)]
enum SameEntity {
    User(User),
    Profile(Profile),
}

fn main() {}
