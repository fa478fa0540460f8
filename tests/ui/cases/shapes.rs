use dynomodel::{Document, Model};

#[derive(Model)]
enum Status {
    Active,
    Deleted,
}

#[derive(Model)]
struct Pair(String, String);

#[derive(Document)]
struct Marker;

fn main() {}
