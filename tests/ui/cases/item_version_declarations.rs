use dynomodel::{ConversionError, Item, Model};

fn up(item: Item) -> Result<Item, ConversionError> {
    Ok(item)
}

// Item versions start at 1.
#[derive(Model)]
#[dynomodel(item_version = 0)]
struct Zero {
    #[hash_key]
    id: String,
}

// An upcast reads an older version than the model's, once, and the chain has no gap.
#[derive(Model)]
#[dynomodel(item_version = 5)]
#[upcast(from = 1, item = up)]
#[upcast(from = 3, item = up)]
#[upcast(from = 3, item = up)]
#[upcast(from = 4, item = up)]
#[upcast(from = 5, item = up)]
struct Chain {
    #[hash_key]
    id: String,
}

// A struct converts into a struct: no item function after it.
#[derive(Model)]
#[dynomodel(item_version = 3)]
#[upcast(from = 1, model = Zero)]
#[upcast(from = 2, item = up)]
struct ItemAfterModel {
    #[hash_key]
    id: String,
}

// Upcasts need a version of the model's own.
#[derive(Model)]
#[dynomodel(item_version_attribute = "v")]
#[upcast(from = 1, item = up)]
struct NoVersion {
    #[hash_key]
    id: String,
}

// The version attribute is the item's own.
#[derive(Model)]
#[dynomodel(item_version = 2, item_version_attribute = "name")]
struct FieldClash {
    #[hash_key]
    id: String,
    name: String,
}

#[derive(Model)]
#[dynomodel(item_version = 2)]
struct VersionClash {
    #[hash_key]
    id: String,
    #[version]
    #[dynomodel(rename = "_v")]
    lock: u64,
}

#[derive(Model)]
#[dynomodel(entity = "User", item_version = 2, item_version_attribute = "_et")]
struct EntityClash {
    #[hash_key]
    id: String,
}

#[derive(Model)]
#[dynomodel(item_version = 2, item_version_attribute = "pk")]
#[composite(pk = ("USER", id), hash_key)]
struct CompositeClash {
    id: String,
}

// Upcasts are declared once, completely.
#[derive(Model)]
#[dynomodel(item_version = 2)]
#[upcast(from = 1)]
#[upcast(item = up)]
#[upcast(from = 1, item = up, model = Zero)]
#[upcast(from = 1, with = up)]
struct Incomplete {
    #[hash_key]
    id: String,
}

fn main() {}
