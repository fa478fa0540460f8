//! An update only updates: the existence check it renders (plain and single-table models, with
//! `upsert`), how its failure is told from the others', and what an upsert must set.

use crate::db::testing::*;
use crate::error::Error;
use crate::value::Item;
use crate::{Model, RequiredAttribute};

/// Two entities of the AWS Developer Guide's ProductCatalog, sharing its table.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "ProductCatalog", entity = "Bicycle")]
struct Bicycle {
    #[hash_key]
    id: u32,
    title: String,
    price: Option<u32>,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "ProductCatalog", entity = "Book")]
struct Book {
    #[hash_key]
    id: u32,
    title: String,
}

/// A global index keyed by a composite: the composite is read back, but no update can set it.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "orders")]
#[composite(pk = ("USER", user), hash_key)]
#[composite(gpk = ("STATUS", status))]
#[global_index(all("by-status", hash = gpk))]
struct Order {
    user: String,
    status: String,
}

fn book(id: u32) -> Item {
    Book {
        id,
        title: "Book 101 Title".into(),
    }
    .to_item()
    .expect("converts")
}

#[tokio::test]
async fn a_single_table_update_requires_an_item_of_its_own_entity() {
    let (db, rec) = Recorder::db();
    db.update::<Bicycle>(101u32)
        .set(Bicycle::title(), "Bike")
        .await
        .expect("succeeds");
    let input = rec.only_update();
    // The entity type is set (an upsert may create the item) and required.
    assert_eq!(
        input.update_expression.as_deref(),
        Some("SET #n0 = :v0, #n1 = :v1")
    );
    assert_eq!(input.condition_expression.as_deref(), Some("#n1 = :v2"));
    assert_eq!(
        input.expression_attribute_names,
        names(&[("#n0", "title"), ("#n1", "_et")])
    );
    assert_eq!(
        input.expression_attribute_values,
        values(&[
            (":v0", s("Bike")),
            (":v1", s("Bicycle")),
            (":v2", s("Bicycle"))
        ])
    );

    // An upsert creates a missing item, but never turns a Book into a Bicycle.
    db.update::<Bicycle>(101u32)
        .set(Bicycle::title(), "Bike")
        .upsert()
        .await
        .expect("succeeds");
    assert_eq!(
        rec.only_update().condition_expression.as_deref(),
        Some("attribute_not_exists(#n2) OR #n1 = :v2")
    );
}

#[tokio::test]
async fn an_upsert_of_a_plain_model_has_no_condition_of_its_own() {
    let (db, rec) = Recorder::db();
    db.update::<Tweet>(("abc", "1"))
        .set(Tweet::text(), "t")
        .add(Tweet::likes(), 1)
        .add(Tweet::retweets(), 0)
        .append(Tweet::history(), Vec::new())
        .upsert()
        .await
        .expect("succeeds");
    let input = rec.only_update();
    assert_eq!(input.condition_expression, None);
    assert_eq!(input.return_values_on_condition_check_failure, None);
}

#[tokio::test]
async fn a_failed_existence_check_is_item_not_found_naming_what_is_there() {
    let (db, rec) = Recorder::db();
    let update = || db.update::<Bicycle>(101u32).set(Bicycle::title(), "Bike");

    rec.fail(conditional_failure(None));
    let err = update().await.expect_err("missing");
    assert_eq!(
        err.to_string(),
        "ItemNotFound: Update Bicycle {id: 101} in `ProductCatalog`: no such item"
    );

    rec.fail(conditional_failure(Some(book(101))));
    let err = update().await.expect_err("a book");
    assert_eq!(
        err.message(),
        r#"Update Bicycle {id: 101} in `ProductCatalog`: no such item: the key holds an item of entity type "Book""#
    );
    let Error::ItemNotFound(not_found) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(not_found.stored_entity.as_deref(), Some("Book"));
    assert_eq!(not_found.item, Some(book(101)));
    assert!(!err.is_conditional_check_failed());

    let mut untyped = book(101);
    untyped.remove("_et");
    rec.fail(conditional_failure(Some(untyped)));
    let err = update().await.expect_err("no entity type");
    assert!(
        err.message()
            .ends_with("no such item: the key holds an item without an entity type (`_et`)"),
        "{err}"
    );

    // The same key upserted: the book is not overwritten.
    rec.fail(conditional_failure(Some(book(101))));
    let err = update().upsert().await.expect_err("a book");
    assert!(
        err.message().ends_with(
            r#"the key holds an item of entity type "Book", which an upsert does not overwrite"#
        ),
        "{err}"
    );
    assert_eq!(rec.take().len(), 4);
}

#[tokio::test]
async fn without_the_stored_item_the_check_is_blamed_only_when_alone() {
    let (db, rec) = Recorder::db();
    rec.fail(conditional_failure(None));
    let err = db
        .update::<Tweet>(("abc", "1"))
        .add(Tweet::likes(), 1)
        .item_on_failure(false)
        .await
        .expect_err("missing");
    assert!(err.is_item_not_found(), "the only condition: {err:?}");
    assert_eq!(
        rec.only_update().return_values_on_condition_check_failure,
        None
    );

    // With a condition of the user's too, a missing item cannot be told from a failed condition.
    rec.fail(conditional_failure(None));
    let err = db
        .update::<Tweet>(("abc", "1"))
        .add(Tweet::likes(), 1)
        .condition(Tweet::likes().lt(10))
        .item_on_failure(false)
        .await
        .expect_err("either");
    assert!(err.is_conditional_check_failed(), "{err:?}");

    // A single-table model's lone check cannot say which entity is there without the item.
    rec.fail(conditional_failure(None));
    let err = db
        .update::<Bicycle>(101u32)
        .set(Bicycle::title(), "Bike")
        .item_on_failure(false)
        .await
        .expect_err("missing or another entity");
    assert!(
        err.message().ends_with(
            "no such item: the key holds no item of this entity type (the stored item was not \
             returned: item_on_failure(false))"
        ),
        "{err}"
    );
    // An upsert's lone check fails only on another entity's item.
    rec.fail(conditional_failure(None));
    let err = db
        .update::<Bicycle>(101u32)
        .set(Bicycle::title(), "Bike")
        .upsert()
        .item_on_failure(false)
        .await
        .expect_err("another entity");
    assert!(
        err.message().ends_with(
            "the key holds an item of another entity type (the stored item was not returned: \
             item_on_failure(false)), which an upsert does not overwrite"
        ),
        "{err}"
    );
}

#[tokio::test]
async fn an_upsert_must_set_every_required_attribute() {
    let (db, rec) = Recorder::db();
    assert_eq!(
        Tweet::required_attributes(),
        ["text", "likes", "retweets", "history"].map(RequiredAttribute::field)
    );
    let err = db
        .update::<Tweet>(("abc", "1"))
        .set(Tweet::text(), "t")
        .set(
            Tweet::history().index(0),
            "nested: not the attribute itself",
        )
        .incr(Tweet::likes(), 1)
        .upsert()
        .await
        .expect_err("retweets and history are missing");
    assert_eq!(
        err.message(),
        r#"Upsert Tweet {id: "1", userid: "abc"} in `tweets`: an upsert may create the item, so it must set every attribute `Tweet` needs to read it back; missing `retweets`, `history` (set them with set, set_if_not_exists or add)"#
    );
    // The entity type is the mapper's to set: a Bicycle needs only its title.
    db.update::<Bicycle>(7u32)
        .set_if_not_exists(Bicycle::title(), "Bike")
        .upsert()
        .await
        .expect("succeeds");
    assert_eq!(
        Bicycle::required_attributes(),
        ["title", "_et"].map(RequiredAttribute::field)
    );

    // A composite that keys no table key cannot be set by any update.
    assert_eq!(
        Order::required_attributes(),
        [RequiredAttribute::composite("gpk")]
    );
    let err = db
        .update::<Order>("u1".to_owned())
        .allow_no_actions()
        .upsert()
        .await
        .expect_err("gpk cannot be set");
    assert!(
        err.message().starts_with(
            r#"Upsert Order {pk: "USER#u1"} in `orders`: `Order` cannot be upserted: reading it needs composite `gpk`"#
        ),
        "{err}"
    );
    assert_eq!(rec.take().len(), 1, "only the Bicycle's upsert was sent");
}
