use dynomodel::Attribute;

#[derive(Attribute)]
enum Generic<T> {
    One(T),
}

#[derive(Attribute)]
struct Named {
    id: String,
}

#[derive(Attribute)]
struct Pair(String, u32);

#[derive(Attribute)]
struct Unit;

#[derive(Attribute)]
enum Empty {}

#[derive(Attribute)]
struct Adapted(#[dynomodel(epoch_seconds)] u64);

#[derive(Attribute)]
#[dynomodel(table = "x")]
enum Options {
    #[dynomodel(skip)]
    A,
    B(#[dynomodel(rename = "x")] u32, u32),
}

fn main() {}
