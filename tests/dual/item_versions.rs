//! Item versions on every target: `item_version = N` written by every write path, older items
//! upcast on every read path (get, query, scan, batch, transaction, change stream) through a chain
//! of an item function and an older struct, an item newer than the model and one without an upcast
//! path refused with the table, key and versions named, and updates refused on older items.

use std::time::Duration;

use dynomodel::{Change, ConversionError, Db, Error, Model};
use futures::TryStreamExt;

use super::*;

/// Version 1: the first shape, written before the model declared versions (no `_v`).
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "people", stream = "new_and_old_images")]
struct PersonV1 {
    #[hash_key]
    id: String,
    name: String,
}

/// Version 2: an email added.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "people", stream = "new_and_old_images", item_version = 2)]
#[upcast(from = 1, item = v1_to_v2)]
struct PersonV2 {
    #[hash_key]
    id: String,
    name: String,
    email: String,
}

/// Version 3: the name split in two.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "people", stream = "new_and_old_images", item_version = 3)]
#[upcast(from = 1, item = v1_to_v2)]
#[upcast(from = 2, model = PersonV2)]
struct Person {
    #[hash_key]
    id: String,
    first: String,
    last: String,
    email: String,
}

/// Version 3 that reads only version 2 items: version 1 has no path.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "people", stream = "new_and_old_images", item_version = 3)]
#[upcast(from = 2, model = PersonV2)]
struct PersonFrom2 {
    #[hash_key]
    id: String,
    first: String,
    last: String,
    email: String,
}

/// A version 1 item gets the email every old account had.
fn v1_to_v2(mut item: Item) -> Result<Item, ConversionError> {
    let id = match item.get("id") {
        Some(AttributeValue::S(id)) => id.clone(),
        _ => return Err(ConversionError::missing("an id").at("id")),
    };
    item.insert("email".into(), s(&format!("{id}@old.example")));
    Ok(item)
}

impl From<PersonV2> for Person {
    fn from(v2: PersonV2) -> Person {
        let (first, last) = v2.name.split_once(' ').unwrap_or((&v2.name, ""));
        Person {
            id: v2.id,
            first: first.into(),
            last: last.into(),
            email: v2.email,
        }
    }
}

impl From<PersonV2> for PersonFrom2 {
    fn from(v2: PersonV2) -> PersonFrom2 {
        let Person {
            id,
            first,
            last,
            email,
        } = v2.into();
        PersonFrom2 {
            id,
            first,
            last,
            email,
        }
    }
}

fn person(id: &str, first: &str, last: &str, email: &str) -> Person {
    Person {
        id: id.into(),
        first: first.into(),
        last: last.into(),
        email: email.into(),
    }
}

/// The table with one item of each version: `a` at 1, `b` at 2, `c` at 3.
async fn people(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Person>());
    db.create_schema::<Person>().await.unwrap();
    db.put(&PersonV1 {
        id: "a".into(),
        name: "Ada Lovelace".into(),
    })
    .await
    .unwrap();
    db.put(&PersonV2 {
        id: "b".into(),
        name: "Grace Hopper".into(),
        email: "grace@navy.example".into(),
    })
    .await
    .unwrap();
    db.put(&person("c", "Alan", "Turing", "alan@bletchley.example"))
        .await
        .unwrap();
    db
}

/// What the three items read as through `Person`.
fn upcast_people() -> Vec<Person> {
    vec![
        person("a", "Ada", "Lovelace", "a@old.example"),
        person("b", "Grace", "Hopper", "grace@navy.example"),
        person("c", "Alan", "Turing", "alan@bletchley.example"),
    ]
}

async fn raw(db: &Db, id: &str) -> Item {
    db.backend()
        .get_item(dynomodel::backend::GetItemInput {
            table_name: db.table_name::<Person>(),
            key: item([("id", s(id))]),
            consistent_read: Some(true),
            ..Default::default()
        })
        .await
        .unwrap()
        .item
        .unwrap()
}

dual_test!(item_versions_upcast_on_every_read, |t| {
    let db = people(&t).await;
    let expected = upcast_people();
    // The stored items keep their versions: reads do not write.
    assert!(!raw(&db, "a").await.contains_key("_v"));
    assert_eq!(raw(&db, "b").await["_v"], num("2"));
    assert_eq!(raw(&db, "c").await["_v"], num("3"));
    assert_eq!(
        dynomodel::stored_item_version::<Person>(&raw(&db, "a").await),
        Ok(Some(1))
    );

    for p in &expected {
        assert_eq!(
            db.get::<Person>(p.id.as_str()).await.unwrap().as_ref(),
            Some(p)
        );
        assert_eq!(
            db.query::<Person>(p.id.as_str()).all().await.unwrap(),
            [p.clone()]
        );
    }
    let mut scanned = db.scan::<Person>().all().await.unwrap();
    scanned.sort_by(|x, y| x.id.cmp(&y.id));
    assert_eq!(scanned, expected);

    let batch = db
        .batch_get()
        .keys::<Person>(["a", "b", "c"])
        .await
        .unwrap();
    for p in &expected {
        assert_eq!(
            batch.get::<Person>(p.id.as_str()).unwrap().as_ref(),
            Some(p)
        );
    }
    let mut read = db.transact_get();
    let slots = ["a", "b", "c"].map(|id| read.get::<Person>(id));
    let reads = read.await.unwrap();
    for (slot, p) in slots.into_iter().zip(&expected) {
        assert_eq!(reads.get(slot).unwrap().as_ref(), Some(p));
    }

    // Reads that ask tell the version each item was written with.
    let versions = |read: Vec<dynomodel::Versioned<Person>>| {
        let mut read: Vec<(u32, Person)> = read
            .into_iter()
            .map(|v| (v.item_version, v.value))
            .collect();
        read.sort_by(|x, y| x.1.id.cmp(&y.1.id));
        read
    };
    let expected_versions: Vec<(u32, Person)> =
        [1, 2, 3].into_iter().zip(expected.clone()).collect();
    assert_eq!(
        versions(db.scan::<Person>().versioned().all().await.unwrap()),
        expected_versions
    );
    for (version, p) in &expected_versions {
        let got = db
            .get::<Person>(p.id.as_str())
            .versioned()
            .await
            .unwrap()
            .unwrap();
        assert_eq!((got.item_version, &got.value), (*version, p));
        let got = db
            .query::<Person>(p.id.as_str())
            .versioned()
            .all()
            .await
            .unwrap();
        assert_eq!(versions(got), [(*version, p.clone())]);
    }

    // The change stream's images are upcast too: the three inserts, in the order written.
    let mut changes = db
        .changes::<Person>()
        .poll_interval(Duration::from_millis(20));
    let mut images = Vec::new();
    while images.len() < 3 {
        let record = tokio::time::timeout(Duration::from_secs(20), changes.try_next())
            .await
            .expect("a record in time")
            .unwrap()
            .expect("an open stream");
        let Change::Insert { new: Some(new), .. } = record.change else {
            panic!("an insert with its new image: {:?}", record.change);
        };
        images.push(new);
    }
    assert_eq!(images, expected);

    // A versioned model at its version reads as itself, and an older model reads its own.
    assert_eq!(
        db.get::<PersonV2>("b").await.unwrap().map(|p| p.email),
        Some("grace@navy.example".to_owned())
    );
});

dual_test!(item_versions_written_by_every_write, |t| {
    let db = people(&t).await;
    // A put (above), a transaction's put, a batch's put, an upsert, a save.
    db.transact()
        .put(&person("d", "Edsger", "Dijkstra", "ewd@example"))
        .await
        .unwrap();
    db.batch_write()
        .put(&person("e", "Barbara", "Liskov", "bl@example"))
        .await
        .unwrap();
    db.update::<Person>("f")
        .set(Person::first(), "Donald")
        .set(Person::last(), "Knuth")
        .set(Person::email(), "dek@example")
        .upsert()
        .await
        .unwrap();
    let mut g = person("g", "Frances", "Allen", "fa@example");
    db.save(&mut g).await.unwrap();
    for id in ["c", "d", "e", "f", "g"] {
        assert_eq!(raw(&db, id).await["_v"], num("3"), "item {id}");
    }
    // An update of an item at the model's version keeps it there.
    db.update::<Person>("c")
        .set(Person::email(), "turing@example")
        .await
        .unwrap();
    assert_eq!(raw(&db, "c").await["_v"], num("3"));

    // Writing an upcast value stores it whole at the model's version.
    let a = db.get::<Person>("a").await.unwrap().unwrap();
    db.put(&a).await.unwrap();
    let stored = raw(&db, "a").await;
    assert_eq!(stored["_v"], num("3"));
    assert_eq!(stored["first"], s("Ada"));
    assert_eq!(db.get::<Person>("a").await.unwrap(), Some(a));
});

dual_test!(item_versions_update_refuses_an_older_item, |t| {
    let db = people(&t).await;
    for (id, stored) in [("a", 1), ("b", 2)] {
        let before = raw(&db, id).await;
        let err = db
            .update::<Person>(id)
            .set(Person::email(), "new@example")
            .await
            .unwrap_err();
        let Error::ItemNotFound(not_found) = &err else {
            panic!("an ItemNotFound: {err:?}");
        };
        assert_eq!(not_found.stored_item_version, Some(stored));
        assert_eq!(not_found.key, item([("id", s(id))]));
        let message = err.to_string();
        assert!(
            message.contains(&format!("item version {stored}, not the model's 3")),
            "{message}"
        );
        assert!(message.contains(&db.table_name::<Person>()), "{message}");
        // Nothing written: the item is as it was.
        assert_eq!(raw(&db, id).await, before);
        // Nor by sync, nor by an upsert (the item exists, at another version).
        let upcast = db.get::<Person>(id).await.unwrap().unwrap();
        let mut edited = upcast.clone();
        edited.email = "synced@example".into();
        assert!(db
            .sync(&upcast, &edited)
            .await
            .unwrap_err()
            .is_item_not_found());
        let err = db
            .update::<Person>(id)
            .set(Person::first(), "X")
            .set(Person::last(), "Y")
            .set(Person::email(), "x@example")
            .upsert()
            .await
            .unwrap_err();
        assert!(err.is_item_not_found(), "{err:?}");
        assert_eq!(raw(&db, id).await, before);
    }
    // In a transaction too: the reason names the version found.
    let err = db
        .transact()
        .update::<Person>("b", |u| u.set(Person::email(), "tx@example"))
        .await
        .unwrap_err();
    assert!(err.is_item_not_found(), "{err:?}");
});

dual_test!(item_versions_unreadable_items_are_named, |t| {
    let db = people(&t).await;
    // Newer than the model: a version 3 item read through version 2.
    let err = db.get::<PersonV2>("c").await.unwrap_err();
    let Error::ItemDecode(decode) = &err else {
        panic!("an ItemDecode: {err:?}");
    };
    assert_eq!(decode.table, db.table_name::<Person>());
    assert_eq!(decode.key, item([("id", s("c"))]));
    assert_eq!(decode.error.path, "_v");
    assert_eq!(decode.error.found, "item version 3, newer than the model");
    assert_eq!(
        decode.error.expected,
        "an item version from 1 to 2 (the model's, and its upcasts')"
    );
    // No upcast path: a version 1 item read through a model whose upcasts start at 2.
    let err = db.get::<PersonFrom2>("a").await.unwrap_err();
    let Error::ItemDecode(decode) = &err else {
        panic!("an ItemDecode: {err:?}");
    };
    assert_eq!(decode.key, item([("id", s("a"))]));
    assert_eq!(decode.error.found, "item version 1, which no upcast reads");
    // While the version 2 item is read by it.
    assert_eq!(
        db.get::<PersonFrom2>("b").await.unwrap().map(|p| p.last),
        Some("Hopper".to_owned())
    );
    // A scan names the item and, leniently, goes on with the rest.
    let scanned = db.scan::<PersonFrom2>().lenient().all().await.unwrap();
    assert_eq!(scanned.iter().filter(|r| r.is_err()).count(), 1);
    assert_eq!(scanned.iter().filter(|r| r.is_ok()).count(), 2);
    // An attribute that is no version.
    db.backend()
        .put_item(dynomodel::backend::PutItemInput {
            table_name: db.table_name::<Person>(),
            item: item([("id", s("z")), ("_v", s("three"))]),
            ..Default::default()
        })
        .await
        .unwrap();
    let err = db.get::<Person>("z").await.unwrap_err();
    let Error::ItemDecode(decode) = &err else {
        panic!("an ItemDecode: {err:?}");
    };
    assert_eq!(decode.error.path, "_v");
    assert_eq!(decode.error.found, "S");
});

/// A global index keyed by a composite of two fields, at item version 2.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "orders", item_version = 2)]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", id), range_key)]
#[composite(gpk = ("STATUS", status, day))]
#[global_index(all("by-status", hash = gpk, range = sk))]
struct Order {
    userid: String,
    id: u32,
    status: String,
    day: u32,
    total: u64,
}

fn order(id: u32, status: &str, day: u32) -> Order {
    Order {
        userid: "u1".into(),
        id,
        status: status.into(),
        day,
        total: 10,
    }
}

async fn by_status(db: &Db, status: &str, day: u32) -> Vec<u32> {
    let mut ids: Vec<u32> = db
        .query_index(Order::by_status(), (status, day))
        .all()
        .await
        .unwrap()
        .into_iter()
        .map(|o| o.id)
        .collect();
    ids.sort_unstable();
    ids
}

dual_test!(item_versions_derived_attributes_follow_every_write, |t| {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Order>());
    db.create_schema::<Order>().await.unwrap();
    // Written by a put, a transaction, a batch and a save: each stores the index key of its parts.
    db.put(&order(1, "open", 1)).await.unwrap();
    db.transact().put(&order(2, "open", 1)).await.unwrap();
    db.batch_write().put(&order(3, "open", 1)).await.unwrap();
    let mut fourth = order(4, "open", 2);
    db.save(&mut fourth).await.unwrap();
    assert_eq!(by_status(&db, "open", 1).await, [1, 2, 3]);
    assert_eq!(by_status(&db, "open", 2).await, [4]);

    // A change of one part rewrites the whole index key, by every write path.
    let mut shipped = order(1, "shipped", 1);
    db.put(&shipped).await.unwrap();
    db.transact().put(&order(2, "shipped", 1)).await.unwrap();
    db.batch_write().put(&order(3, "open", 3)).await.unwrap();
    // sync writes the composite whose part changed, whole (the parts have no attributes of their own).
    let before = db.get::<Order>(("u1", 4_u32)).await.unwrap().unwrap();
    let mut after = before.clone();
    after.status = "shipped".into();
    assert!(db.sync(&before, &after).await.unwrap());
    // And a save.
    shipped.day = 2;
    db.save(&mut shipped).await.unwrap();
    assert_eq!(by_status(&db, "open", 1).await, Vec::<u32>::new());
    assert_eq!(by_status(&db, "shipped", 1).await, [2]);
    assert_eq!(by_status(&db, "shipped", 2).await, [1, 4]);
    assert_eq!(by_status(&db, "open", 3).await, [3]);
    // Every read agrees with the index: the parts are read from the composite itself.
    let stored = db.get::<Order>(("u1", 4_u32)).await.unwrap().unwrap();
    assert_eq!((stored.status.as_str(), stored.day), ("shipped", 2));

    // An update of other fields leaves the composite as it is, and cannot name a part (see the
    // trybuild case `composite_part_update`); a sync that moves a key part is refused.
    db.update::<Order>(("u1", 4_u32))
        .set(Order::total(), 99)
        .await
        .unwrap();
    assert_eq!(by_status(&db, "shipped", 2).await, [1, 4]);
    let mut moved = stored.clone();
    moved.id = 40;
    let err = db.sync(&stored, &moved).await.unwrap_err();
    assert!(matches!(err, Error::Validation { .. }), "{err:?}");
});
