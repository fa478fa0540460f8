use dynomodel::{Item, Model};

#[derive(Model)]
#[dynomodel(table = "people")]
struct PersonV1 {
    #[hash_key]
    id: String,
}

// An item upcast is `fn(Item) -> Result<Item, ConversionError>`.
fn wrong(item: Item) -> Item {
    item
}

#[derive(Model)]
#[dynomodel(table = "people", item_version = 2)]
#[upcast(from = 1, item = wrong)]
struct WrongFunction {
    #[hash_key]
    id: String,
}

// A struct upcast converts into the model with `From`.
#[derive(Model)]
#[dynomodel(table = "people", item_version = 2)]
#[upcast(from = 1, model = PersonV1)]
struct NoConversion {
    #[hash_key]
    id: String,
}

fn main() {}
