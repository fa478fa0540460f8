use dynomodel::Attribute;

// Internally tagged: a tuple variant's list cannot hold the tag, and a field cannot take its name.
#[derive(Attribute)]
#[dynomodel(tag = "type")]
enum Event {
    Split(u32, u32),
    Shipped {
        #[dynomodel(rename = "type")]
        kind: String,
    },
}

#[derive(Attribute)]
#[dynomodel(tag = "kind")]
struct UserId(String);

#[derive(Attribute)]
#[dynomodel(tag = "")]
enum Empty {
    A,
}

fn main() {}
