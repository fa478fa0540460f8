use dynomodel::{Collection, Model};

#[derive(Model)]
#[dynomodel(table = "app", entity = "User")]
struct User {
    #[hash_key]
    pk: String,
    #[range_key]
    sk: String,
}

// A collection is an enum of one-model tuple variants, with at most one unknown variant.
#[derive(Collection)]
struct NotAnEnum {
    user: User,
}

#[derive(Collection)]
enum Shapes {
    User { user: User },
    Pair(User, User),
    #[dynomodel(unknown)]
    A(dynomodel::Item),
    #[dynomodel(unknown)]
    B(dynomodel::Item),
    #[dynomodel(catch_all)]
    C(User),
}

#[derive(Collection)]
enum Empty {}

fn main() {}
