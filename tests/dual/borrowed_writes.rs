//! A model's strings and string sets reach the backend borrowed (`AttributeSink::insert_ref`: the
//! engine copies each into a value it keeps and refills, the SDK's map owns a copy): every target
//! stores exactly the item `to_item` makes, put after put as the values' lengths change, and refuses
//! what `put_item` of that item refuses, with its words.

use std::collections::{BTreeSet, HashSet};

use dynomodel::backend::{GetItemInput, PutItemInput};
use dynomodel::{AttributeValue, Db, Item, Model};

use super::*;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "borrowed")]
struct Card {
    #[hash_key]
    id: String,
    title: String,
    note: Option<String>,
    tags: HashSet<String>,
    sorted: BTreeSet<String>,
    count: i64,
}

fn card(id: &str, title: &str, tags: &[&str]) -> Card {
    Card {
        id: id.into(),
        title: title.into(),
        note: (tags.len() % 2 == 1).then(|| format!("note of {id}")),
        tags: tags.iter().map(|t| (*t).to_owned()).collect(),
        sorted: tags.iter().map(|t| format!("{t}-sorted")).collect(),
        count: tags.len() as i64,
    }
}

async fn cards_db(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Card>());
    db.create_schema::<Card>().await.unwrap();
    db
}

/// The stored item with hash key `id`, as `GetItem` returns it.
async fn stored(t: &Dual, db: &Db, id: &str) -> Option<Item> {
    let key = Item::from([("id".to_owned(), AttributeValue::S(id.into()))]);
    let input = GetItemInput {
        table_name: db.table_name::<Card>(),
        key,
        consistent_read: Some(true),
        ..Default::default()
    };
    t.backend().get_item(input).await.unwrap().item
}

dual_test!(borrowed_strings_are_stored_as_to_item_makes_them, |t| {
    let db = cards_db(&t).await;
    // Lengths and set sizes that grow, shrink and grow again (the engine refills its copies).
    let cards = [
        card("a", "short", &["x"]),
        card(
            "b",
            &"long title ".repeat(40),
            &["one", "two", "three", "four", "five"],
        ),
        card("c", "", &["", "y"]),
        card("d", "mid-length title", &[]),
        card("e", "é ü 日本", &["日", "本", "語"]),
    ];
    for card in &cards {
        db.put(card).await.unwrap();
    }
    for card in &cards {
        assert_eq!(
            stored(&t, &db, &card.id).await,
            Some(card.to_item().unwrap()),
            "{}",
            card.id
        );
        assert_eq!(
            db.get::<Card>(card.key()).await.unwrap().as_ref(),
            Some(card)
        );
    }
});

dual_test!(a_borrowed_value_is_refused_as_put_item_refuses_it, |t| {
    let db = cards_db(&t).await;
    // An empty string is no key value: the same error as `put_item` of the same item.
    let keyless = card("", "title", &["x"]);
    let err = db.put(&keyless).await.unwrap_err();
    let plain = t
        .backend()
        .put_item(PutItemInput {
            table_name: db.table_name::<Card>(),
            item: keyless.to_item().unwrap(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert_eq!(plain.code(), "ValidationException");
    assert_eq!(err.code(), "ValidationException");
    assert_eq!(err.to_string(), plain.to_string());
    // The next put of a good value is stored whole (nothing of the refused one stays behind).
    let good = card("g", "good", &["p", "q"]);
    db.put(&good).await.unwrap();
    assert_eq!(stored(&t, &db, "g").await, Some(good.to_item().unwrap()));
});
