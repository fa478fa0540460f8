//! Change streams of a single-table design, on the engine, DynamoDB Local and the server:
//! `db.changes::<Order>()` skips the other entity types' records (they are not an order's changes),
//! and `db.collection_changes::<C>()` yields every record decoded as its member, an unknown entity
//! type reported as the collection query reports it (the `unknown` variant, or an error naming it,
//! after which reading goes on).

use std::time::Duration;

use dynomodel::{Change, ChangeRecord, Collection, Db, Error, Item, Model};
use dynomodel_tests::{dual_test, Dual};
use futures::StreamExt;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "shop", entity = "User", stream = "new_and_old_images")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("PROFILE", userid2), range_key)]
struct User {
    userid: String,
    userid2: String,
    name: String,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "shop", entity = "Order", stream = "new_and_old_images")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", id), range_key)]
struct Order {
    userid: String,
    id: u32,
    total: u64,
}

/// A third entity type in the table, which neither collection lists.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "shop", entity = "Note", stream = "new_and_old_images")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("NOTE", id), range_key)]
struct Note {
    userid: String,
    id: u32,
}

#[derive(Collection, Debug, Clone, PartialEq)]
enum Shop {
    User(User),
    Order(Order),
    #[dynomodel(unknown)]
    Other(Item),
}

/// Without an unknown variant: a note is an error.
#[derive(Collection, Debug, Clone, PartialEq)]
enum Strict {
    User(User),
    Order(Order),
}

/// The table, with a user, an order, a note, the order changed, the user deleted.
async fn shop(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<User>());
    // The collection's union misses Note, but Note's keys are the same attributes.
    db.create_collection_schema::<Shop>().await.unwrap();
    let user = User {
        userid: "u1".into(),
        userid2: "u1".into(),
        name: "Ada".into(),
    };
    let mut order = Order {
        userid: "u1".into(),
        id: 7,
        total: 70,
    };
    db.put(&user).await.unwrap();
    db.put(&order).await.unwrap();
    db.put(&Note {
        userid: "u1".into(),
        id: 1,
    })
    .await
    .unwrap();
    order.total = 75;
    db.put(&order).await.unwrap();
    db.delete(&user).await.unwrap();
    db
}

const POLL: Duration = Duration::from_millis(20);

/// The next record, or a panic after a while (a stream waits for changes forever).
async fn next<T: Send + 'static>(
    changes: &mut dynomodel::Changes<T>,
) -> dynomodel::Result<ChangeRecord<T>> {
    tokio::time::timeout(Duration::from_secs(20), changes.next())
        .await
        .expect("a record in time")
        .expect("the stream goes on")
}

/// After the expected records: nothing more comes.
async fn nothing_more<T: Send + 'static + std::fmt::Debug>(changes: &mut dynomodel::Changes<T>) {
    let extra = tokio::time::timeout(Duration::from_millis(300), changes.next()).await;
    assert!(extra.is_err(), "nothing more: {extra:?}");
}

dual_test!(a_model_s_changes_skip_other_entity_types, |t| {
    let db = shop(&t).await;
    let mut orders = db.changes::<Order>().poll_interval(POLL);
    let first = next(&mut orders).await.unwrap();
    assert!(matches!(first.change, Change::Insert { new: Some(ref o), .. } if o.total == 70));
    let second = next(&mut orders).await.unwrap();
    assert!(matches!(
        second.change,
        Change::Modify { old: Some(ref old), new: Some(ref new), .. } if old.total == 70 && new.total == 75
    ));
    nothing_more(&mut orders).await;
});

dual_test!(a_collection_s_changes_decode_every_entity_type, |t| {
    let db = shop(&t).await;
    let mut changes = db.collection_changes::<Shop>().poll_interval(POLL);
    let mut seen = Vec::new();
    for _ in 0..5 {
        let record = next(&mut changes).await.unwrap();
        let what = match (
            &record.change,
            record.change.new_image().or(record.change.old_image()),
        ) {
            (Change::Insert { .. }, Some(Shop::User(u))) => format!("+user {}", u.name),
            (Change::Insert { .. }, Some(Shop::Order(o))) => format!("+order {}", o.total),
            (Change::Insert { .. }, Some(Shop::Other(item))) => {
                format!("+other {:?}", dynomodel::entity_of(item, "_et"))
            }
            (Change::Modify { .. }, Some(Shop::Order(o))) => format!("~order {}", o.total),
            (Change::Remove { .. }, Some(Shop::User(u))) => format!("-user {}", u.name),
            other => format!("unexpected {other:?}"),
        };
        seen.push(what);
    }
    assert_eq!(
        seen,
        [
            "+user Ada",
            "+order 70",
            "+other Some(\"Note\")",
            "~order 75",
            "-user Ada"
        ]
    );
    nothing_more(&mut changes).await;
});

dual_test!(
    an_unknown_entity_type_is_an_error_and_reading_goes_on,
    |t| {
        let db = shop(&t).await;
        let mut changes = db.collection_changes::<Strict>().poll_interval(POLL);
        let mut results = Vec::new();
        for _ in 0..5 {
            results.push(next(&mut changes).await);
        }
        let Err(Error::ItemDecode(decode)) = &results[2] else {
            panic!("the note is an error: {:?}", results[2]);
        };
        let message = decode.to_string();
        assert!(
            message.contains("Strict") && message.contains("Note"),
            "{message}"
        );
        assert!(results.iter().enumerate().all(|(i, r)| i == 2 || r.is_ok()));
        assert!(matches!(
            results[4].as_ref().map(|r| &r.change),
            Ok(Change::Remove {
                old: Some(Strict::User(_)),
                ..
            })
        ));
    }
);

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "keyshop", entity = "User", stream = "keys_only")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("PROFILE", userid2), range_key)]
struct KeyUser {
    userid: String,
    userid2: String,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "keyshop", entity = "Order", stream = "keys_only")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", id), range_key)]
struct KeyOrder {
    userid: String,
    id: u32,
}

#[derive(Collection, Debug, Clone, PartialEq)]
enum KeyShop {
    User(KeyUser),
    Order(KeyOrder),
}

dual_test!(keys_only_changes_cannot_tell_entity_types_apart, |t| {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<KeyOrder>());
    db.create_collection_schema::<KeyShop>().await.unwrap();
    db.put(&KeyUser {
        userid: "u1".into(),
        userid2: "u1".into(),
    })
    .await
    .unwrap();
    db.put(&KeyOrder {
        userid: "u1".into(),
        id: 7,
    })
    .await
    .unwrap();
    // No image says the entity type: the user's record is kept, as its key.
    let mut orders = db.changes::<KeyOrder>().poll_interval(POLL);
    let mut keys = Vec::new();
    for _ in 0..2 {
        let record = next(&mut orders).await.unwrap();
        assert_eq!(record.change.new_image(), None);
        keys.push(record.change.key()["sk"].clone());
    }
    assert_eq!(
        keys,
        [
            dynomodel::AttributeValue::S("PROFILE#u1".into()),
            dynomodel::AttributeValue::S("ORDER#0000000007".into())
        ]
    );
});
