//! Single-table entities: the entity attribute written by `to_item`, checked by `from_item`, its name
//! configurable; collections decoding by entity type; the schema union and its conflicts.

use dynomodel::{AttributeValue, Collection, Error, Item, Model, ScalarAttributeType};

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "app", entity = "User")]
struct User {
    #[hash_key]
    pk: String,
    #[range_key]
    sk: String,
    name: String,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "app", entity = "Order")]
#[global_index(all("by-status", hash = status, range = sk))]
struct Order {
    #[hash_key]
    pk: String,
    #[range_key]
    sk: String,
    status: String,
}

/// Same key names as `User`, but `status` is a number: the union cannot type `status` twice.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "app", entity = "Ticket")]
#[global_index(all("by-status", hash = status, range = sk))]
struct Ticket {
    #[hash_key]
    pk: String,
    #[range_key]
    sk: String,
    status: i64,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "kinds", entity = "Cat", entity_attribute = "kind")]
struct Cat {
    #[hash_key]
    id: String,
}

#[derive(Collection, Debug, PartialEq)]
enum AppData {
    User(User),
    Order(Order),
}

#[derive(Collection, Debug, PartialEq)]
enum Conflicting {
    Order(Order),
    Ticket(Ticket),
}

fn user() -> User {
    User {
        pk: "USER#u1".into(),
        sk: "PROFILE".into(),
        name: "Ada".into(),
    }
}

#[test]
fn entity_attribute_is_written_and_checked() {
    let item = user().to_item().unwrap();
    assert_eq!(item["_et"], AttributeValue::S("User".into()));
    assert_eq!(User::from_item(item.clone()).unwrap(), user());
    assert_eq!(User::ENTITY_TYPE, Some("User"));
    assert_eq!(User::ENTITY_ATTRIBUTE, "_et");

    let mut missing = item.clone();
    missing.remove("_et");
    let err = User::from_item(missing).unwrap_err();
    assert_eq!(
        err.to_string(),
        "attribute `_et`: expected the entity type \"User\", found no entity attribute"
    );
    let mut number = item;
    number.insert("_et".into(), AttributeValue::N(1.into()));
    assert_eq!(User::from_item(number).unwrap_err().path, "_et");
}

#[test]
fn entity_attribute_name_is_configurable() {
    let item = Cat { id: "c".into() }.to_item().unwrap();
    assert_eq!(item["kind"], AttributeValue::S("Cat".into()));
    assert!(!item.contains_key("_et"));
    assert_eq!(Cat::ENTITY_ATTRIBUTE, "kind");
}

#[test]
fn collection_decodes_by_entity_type() {
    let order = Order {
        pk: "USER#u1".into(),
        sk: "ORDER#1".into(),
        status: "open".into(),
    };
    assert_eq!(
        AppData::from_item(order.to_item().unwrap()).unwrap(),
        AppData::Order(order)
    );
    assert_eq!(
        AppData::from_item(user().to_item().unwrap()).unwrap(),
        AppData::User(user())
    );
    let stray: Item = [("_et".to_owned(), AttributeValue::S("Coupon".into()))].into();
    let err = AppData::from_item(stray).unwrap_err();
    assert_eq!(
        err.to_string(),
        "attribute `_et`: expected an entity type of AppData (User, Order), found an item of entity type \"Coupon\""
    );
}

#[test]
fn schema_is_the_union_and_conflicts_name_the_models() {
    let schema = AppData::schema().unwrap();
    assert_eq!(schema.table_name, "app");
    assert_eq!(schema.global_secondary_indexes.len(), 1);
    let status = schema
        .attribute_definitions
        .iter()
        .find(|d| d.attribute_name == "status")
        .unwrap();
    assert_eq!(status.attribute_type, ScalarAttributeType::S);

    let err = Conflicting::schema().unwrap_err();
    assert_eq!(err.code(), "SchemaConflict");
    assert_eq!(
        err,
        Error::SchemaConflict {
            message: "Conflicting: `Order` and `Ticket` declare the type of key attribute `status` of table `app` differently".into()
        }
    );
}

/// A hash key whose field is written through `epoch_seconds`: a number, not the type's text.
#[derive(Model, Debug, Clone, PartialEq)]
struct Sample {
    #[hash_key]
    #[dynomodel(epoch_seconds)]
    at: chrono::DateTime<chrono::Utc>,
}

#[test]
fn hash_key_shapes_say_how_the_hash_key_is_written() {
    // What a collection compares between its members (with `Model::Hash`).
    assert_eq!(User::HASH_KEY_SHAPE, "{}");
    assert_eq!(Sample::HASH_KEY_SHAPE, "{epoch_seconds}");
}
