use dynomodel::Model;

// A composite's identifier names its handle and, unless renamed, its attribute; a prefix holding
// the separator would read as a part.
#[derive(Model)]
#[composite(pk = ("USER#ADMIN", id), hash_key)]
#[composite(sk = ("ORDER", day), range_key, rename = "Total")]
#[composite(gsk = ("G|X", code), separator = "|")]
#[composite(other = ("O", code), rename = "")]
#[composite(more = ("M", code), rename = "a", rename = "b")]
#[dynomodel(rename_all = "PascalCase")]
struct Order {
    id: String,
    day: String,
    code: String,
    total: u64,
}

fn main() {}
