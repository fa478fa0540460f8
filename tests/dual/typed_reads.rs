//! The mapper's typed reads on every target: `db.get` decodes its model from the attributes the
//! backend hands over (`Backend::get_item_into`: from the stored form on the engine, from the
//! returned item through `AwsBackend`'s default), with exactly `get_item`'s results: the same item,
//! missing items, conversion errors naming the attribute, consumed capacity, other errors.

use std::borrow::Cow;

use dynomodel::{
    AttributeValue, CapacityExt, Db, Error, GetItemInput, Item, ItemSink, Model, PrimaryKey,
    PutItemInput, ReturnConsumedCapacity,
};

use super::*;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "typed")]
struct Profile {
    #[hash_key]
    pk: String,
    #[range_key]
    sk: i64,
    name: String,
    nick: Option<String>,
    score: i64,
    active: bool,
}

fn profile(sk: i64) -> Profile {
    Profile {
        pk: "user".into(),
        sk,
        name: format!("Customer {sk}"),
        nick: (sk % 2 == 0).then(|| format!("n{sk}")),
        score: 100 + sk,
        active: sk % 3 == 0,
    }
}

async fn profiles_db(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Profile>());
    db.create_schema::<Profile>().await.unwrap();
    db
}

/// Collects what a typed read hands over, as `Item`s.
#[derive(Default)]
struct Collect(Vec<Item>);

impl ItemSink for Collect {
    fn item(&mut self, attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>) {
        self.0
            .push(attributes.map(|(n, v)| (n.into_owned(), v)).collect());
    }
}

dual_test!(typed_gets_decode_what_get_item_returns, |t| {
    let db = profiles_db(&t).await;
    for sk in 0..4 {
        db.put(&profile(sk)).await.unwrap();
    }
    for sk in 0..4 {
        let read = db.get::<Profile>(("user", sk)).consistent().await.unwrap();
        assert_eq!(read, Some(profile(sk)));
    }
    assert_eq!(db.get::<Profile>(("user", 9)).await.unwrap(), None);

    // An attribute no field stores is ignored; a stored attribute of the wrong type is a
    // conversion error naming it.
    let table = db.table_name::<Profile>();
    let mut item = profile(7).to_item().unwrap();
    item.insert("extra".into(), AttributeValue::Bool(true));
    let put = |item: Item| PutItemInput {
        table_name: table.clone(),
        item,
        ..Default::default()
    };
    t.backend().put_item(put(item.clone())).await.unwrap();
    let read = db.get::<Profile>(("user", 7)).consistent().await.unwrap();
    assert_eq!(read, Some(profile(7)));
    item.insert("score".into(), AttributeValue::S("many".into()));
    t.backend().put_item(put(item)).await.unwrap();
    let err = db
        .get::<Profile>(("user", 7))
        .consistent()
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::Conversion(e) if e.path == "score"),
        "{err:?}"
    );

    // The capacity of a typed read is reported as a plain one's.
    let (read, consumed) = db
        .get::<Profile>(("user", 1))
        .consistent()
        .with_capacity()
        .await
        .unwrap();
    assert_eq!(read, Some(profile(1)));
    let units = consumed
        .table(&table)
        .and_then(|c| c.read_capacity_units.or(c.capacity_units));
    assert_eq!(units, Some(1.0));

    // Errors are get_item's: a missing table.
    let err = t
        .db()
        .clone()
        .with_namespace("no-such-namespace-")
        .get::<Profile>(("user", 1))
        .await
        .unwrap_err();
    assert!(matches!(err, Error::ResourceNotFound { .. }), "{err:?}");
});

dual_test!(get_item_into_hands_over_get_item_s_item, |t| {
    let db = profiles_db(&t).await;
    db.put(&profile(2)).await.unwrap();
    let key = |sk: i64| ProfileKey {
        pk: "user".into(),
        sk,
    };
    let inputs = [
        GetItemInput {
            table_name: db.table_name::<Profile>(),
            key: key(2).to_key_item().unwrap(),
            consistent_read: Some(true),
            return_consumed_capacity: Some(ReturnConsumedCapacity::Total),
            ..Default::default()
        },
        GetItemInput {
            table_name: db.table_name::<Profile>(),
            key: key(3).to_key_item().unwrap(),
            consistent_read: Some(true),
            ..Default::default()
        },
        // A projection takes the plain path on the engine: the item handed over is the projected one.
        GetItemInput {
            table_name: db.table_name::<Profile>(),
            key: key(2).to_key_item().unwrap(),
            consistent_read: Some(true),
            projection_expression: Some("#n, score".into()),
            expression_attribute_names: Some([("#n".into(), "name".into())].into()),
            ..Default::default()
        },
    ];
    for input in inputs {
        let mut plain = t.backend().get_item(input.clone()).await.unwrap();
        let mut sink = Collect::default();
        let typed = t
            .backend()
            .get_item_into(input.clone(), &mut sink)
            .await
            .unwrap();
        assert_eq!(sink.0, plain.item.take().into_iter().collect::<Vec<_>>());
        assert_eq!(typed.item, None);
        assert_eq!(
            typed.consumed_capacity.is_some(),
            plain.consumed_capacity.is_some()
        );
    }
    // A key of the wrong type fails as get_item does.
    let input = GetItemInput {
        table_name: db.table_name::<Profile>(),
        key: Item::from([
            ("pk".to_string(), AttributeValue::S("user".into())),
            ("sk".to_string(), AttributeValue::S("2".into())),
        ]),
        ..Default::default()
    };
    let plain = t.backend().get_item(input.clone()).await.unwrap_err();
    let typed = t
        .backend()
        .get_item_into(input, &mut Collect::default())
        .await
        .unwrap_err();
    assert_eq!(plain.to_string(), typed.to_string());
});
