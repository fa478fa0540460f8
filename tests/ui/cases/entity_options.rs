use dynomodel::Model;

// The entity attribute cannot also be a field's attribute (the default `_et` or a chosen name);
// `entity_attribute` needs `entity`; an entity type names something; Documents have no entity.
#[derive(Model)]
#[dynomodel(table = "app", entity = "User")]
struct User {
    #[hash_key]
    pk: String,
    #[dynomodel(rename = "_et")]
    kind: String,
}

#[derive(Model)]
#[dynomodel(table = "app", entity = "Order", entity_attribute = "status")]
struct Order {
    #[hash_key]
    pk: String,
    status: String,
}

#[derive(Model)]
#[dynomodel(table = "app", entity_attribute = "type")]
struct Line {
    #[hash_key]
    pk: String,
}

#[derive(Model)]
#[dynomodel(table = "app", entity = "")]
struct Empty {
    #[hash_key]
    pk: String,
}

#[derive(dynomodel::Document)]
#[dynomodel(entity = "Address")]
struct Address {
    city: String,
}

fn main() {}
