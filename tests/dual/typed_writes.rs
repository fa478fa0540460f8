//! The write-side counterpart of the typed reads on every target: `Backend::put_item_from` stores
//! what its `AttributeWriter` writes (into the SDK's item map through `AwsBackend`, into the
//! engine's stored form), exactly as `put_item` stores that item: the same item, checks
//! and errors; a value the writer cannot write is its conversion error, naming the attribute, and
//! nothing is stored. `db.put` and `db.save` send their `PutItem` this way, with the version and the
//! timestamps the write stores in place of the value's.

use chrono::{DateTime, Utc};
use dynomodel::backend::{AttributeSink, AttributeWriter, GetItemInput, PutItemInput};
use dynomodel::{AttributeValue, ConversionError, Db, Error, Item, Model, PrimaryKey};

use super::*;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "written")]
struct Doc {
    #[hash_key]
    id: String,
    title: String,
    tags: Vec<String>,
    #[created_at]
    created: Option<DateTime<Utc>>,
    #[updated_at]
    updated: Option<DateTime<Utc>>,
    #[version]
    version: u64,
}

fn doc(id: &str) -> Doc {
    Doc {
        id: id.into(),
        title: format!("Title {id}"),
        tags: vec!["a".into(), "b".into()],
        created: None,
        updated: None,
        version: 0,
    }
}

/// A model value as a raw writer.
struct Writes<'a, M>(&'a M);

impl<M: Model> AttributeWriter for Writes<'_, M> {
    fn write(&self, sink: &mut dyn AttributeSink) -> Result<(), ConversionError> {
        self.0.write_attributes(sink)
    }
}

/// Writes `id`, then fails on `bad` (as a model does on a value it could not read back).
struct FailsAfterKey(&'static str);

impl AttributeWriter for FailsAfterKey {
    fn write(&self, sink: &mut dyn AttributeSink) -> Result<(), ConversionError> {
        sink.insert("id".into(), AttributeValue::S(self.0.into()));
        Err(ConversionError::new("a number", "NaN").at("bad"))
    }
}

async fn docs_db(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Doc>());
    db.create_schema::<Doc>().await.unwrap();
    db
}

/// The stored item with hash key `id`, as `GetItem` returns it.
async fn stored(t: &Dual, db: &Db, id: &str) -> Option<Item> {
    let key = Item::from([("id".to_owned(), AttributeValue::S(id.into()))]);
    let input = GetItemInput {
        table_name: db.table_name::<Doc>(),
        key,
        consistent_read: Some(true),
        ..Default::default()
    };
    t.backend().get_item(input).await.unwrap().item
}

dual_test!(put_item_from_stores_what_put_item_stores, |t| {
    let db = docs_db(&t).await;
    let table = db.table_name::<Doc>();
    let input = |item: Item| PutItemInput {
        table_name: table.clone(),
        item,
        ..Default::default()
    };

    // The same item as `put_item` of `to_item`.
    let one = doc("one");
    t.backend()
        .put_item_from(input(Item::new()), &Writes(&one))
        .await
        .unwrap();
    assert_eq!(stored(&t, &db, "one").await, Some(one.to_item().unwrap()));

    // `input.item`'s attributes come first; the writer's replace them name by name.
    let extra = Item::from([
        ("extra".to_owned(), AttributeValue::Bool(true)),
        ("title".to_owned(), AttributeValue::S("replaced".into())),
    ]);
    let two = doc("two");
    t.backend()
        .put_item_from(input(extra), &Writes(&two))
        .await
        .unwrap();
    let mut expected = two.to_item().unwrap();
    expected.insert("extra".into(), AttributeValue::Bool(true));
    assert_eq!(stored(&t, &db, "two").await, Some(expected));

    // The put's own checks and errors: an item without its key is put_item's error, word for word.
    let keyless = Item::from([("title".to_owned(), AttributeValue::S("t".into()))]);
    let from = t
        .backend()
        .put_item_from(input(Item::new()), &keyless)
        .await
        .unwrap_err();
    let plain = t.backend().put_item(input(keyless)).await.unwrap_err();
    assert_eq!(from.code(), "ValidationException");
    assert_eq!(from.to_string(), plain.to_string());

    // A writer's error is the result, naming the attribute, and nothing is stored.
    let err = t
        .backend()
        .put_item_from(input(Item::new()), &FailsAfterKey("three"))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::Conversion(e) if e.path == "bad"),
        "{err:?}"
    );
    assert_eq!(stored(&t, &db, "three").await, None);
});

dual_test!(
    puts_store_the_version_and_stamps_in_place_of_the_values,
    |t| {
        let db = docs_db(&t).await;
        // A first save: version 1, both stamps (the value holds neither); each attribute once.
        let mut saved = doc("d");
        db.save(&mut saved).await.unwrap();
        assert_eq!(saved.version, 1);
        let (created, updated) = (saved.created.unwrap(), saved.updated.unwrap());
        let item = stored(&t, &db, "d").await.unwrap();
        assert_eq!(item, saved.to_item().unwrap());
        assert_eq!(item.len(), 6);
        assert_eq!(item["version"], AttributeValue::N(1u64.into()));

        // A put of the saved value: the next version, `created` kept, `updated` stamped anew; the
        // value is one version behind.
        let put = Doc {
            title: "second".into(),
            ..saved.clone()
        };
        db.put(&put).await.unwrap();
        let read = db.get::<Doc>("d").consistent().await.unwrap().unwrap();
        assert_eq!(read.version, 2);
        assert_eq!(read.title, "second");
        assert_eq!(read.created, Some(created));
        assert!(read.updated.unwrap() >= updated);
        assert_eq!(stored(&t, &db, "d").await.unwrap().len(), 6);

        // The value's version is behind now: the put is refused, naming the table and key.
        let err = db.put(&put).await.unwrap_err();
        match err {
            Error::VersionConflict(conflict) => {
                assert_eq!(conflict.model, "Doc");
                assert!(
                    conflict.message.contains(&db.table_name::<Doc>()),
                    "{conflict:?}"
                );
                assert_eq!(conflict.key, put.key().to_key_item().unwrap());
            }
            other => panic!("expected a version conflict, got {other:?}"),
        }
    }
);

/// Every character JSON escapes, and beyond ASCII: what a put writes into its request's JSON.
const ESCAPED: &str = "q\" b\\ n\n t\t r\r nul\u{0} bell\u{7} del\u{7f} é € 😀 \u{2028} /";

dual_test!(put_item_from_sends_every_type_and_escape_as_written, |t| {
    let db = docs_db(&t).await;
    let s = |text: &str| AttributeValue::S(text.into());
    let item = Item::from([
        ("id".to_owned(), s(ESCAPED)),
        (
            "n".to_owned(),
            AttributeValue::N("-1234567890123456789.0123456789E-10".parse().unwrap()),
        ),
        ("b".to_owned(), AttributeValue::B(vec![0, 1, 254, 255])),
        ("t".to_owned(), AttributeValue::Bool(true)),
        ("z".to_owned(), AttributeValue::Null),
        (
            "ss".to_owned(),
            AttributeValue::Ss(vec![ESCAPED.into(), "b".into()]),
        ),
        (
            "ns".to_owned(),
            AttributeValue::Ns(vec![1.into(), (-2).into()]),
        ),
        (
            "bs".to_owned(),
            AttributeValue::Bs(vec![vec![0], vec![1, 2]]),
        ),
        (
            "l".to_owned(),
            AttributeValue::L(vec![s(ESCAPED), AttributeValue::Null]),
        ),
        (
            "m".to_owned(),
            AttributeValue::M(Item::from([(ESCAPED.to_owned(), s(ESCAPED))])),
        ),
        (format!("name {ESCAPED}"), s("named")),
    ]);
    let input = PutItemInput {
        table_name: db.table_name::<Doc>(),
        ..Default::default()
    };
    t.backend().put_item_from(input, &item).await.unwrap();
    assert_eq!(stored(&t, &db, ESCAPED).await, Some(item));

    // A model's put and typed get (its key written as JSON too) of the same strings.
    let value = Doc {
        title: ESCAPED.into(),
        tags: vec![ESCAPED.into(), "é".into()],
        ..doc(&format!("{ESCAPED} 2"))
    };
    db.put(&value).await.unwrap();
    let read = db.get::<Doc>(value.id.as_str()).consistent().await.unwrap();
    let read = read.unwrap();
    assert_eq!(
        (read.id, read.title, read.tags),
        (value.id, value.title, value.tags)
    );
});
