//! Composite keys through the mapper on every target: round trips of `pk = USER#{userid}`,
//! `sk = ORDER#{date}#{id}`, updates and deletes by the parts, and typed queries on leading parts.

use chrono::NaiveDate;
use dynomodel::backend::PutItemInput;
use dynomodel::{Db, Error, Model};

use super::*;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "orders")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", date, id), range_key)]
struct Order {
    userid: String,
    date: NaiveDate,
    id: u32,
    total: u64,
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 1, d).unwrap()
}

fn order(userid: &str, d: u32, id: u32) -> Order {
    Order {
        userid: userid.into(),
        date: day(d),
        id,
        total: u64::from(d * 100 + id),
    }
}

/// A namespaced database holding orders of two users over three days, written in no particular order.
async fn orders_db(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Order>());
    db.create_schema::<Order>().await.unwrap();
    for (userid, d, id) in [
        ("u1", 2, 10),
        ("u1", 1, 9),
        ("u1", 10, 1),
        ("u1", 2, 9),
        ("u1", 1, 100),
        ("u2", 1, 1),
    ] {
        db.put(&order(userid, d, id)).await.unwrap();
    }
    db
}

fn ids(orders: &[Order]) -> Vec<(u32, u32)> {
    use chrono::Datelike as _;
    orders.iter().map(|o| (o.date.day(), o.id)).collect()
}

dual_test!(composite_keys_round_trip, |t| {
    let db = orders_db(&t).await;
    assert_eq!(
        db.get::<Order>(("u1", (day(2), 9))).await.unwrap(),
        Some(order("u1", 2, 9))
    );
    assert_eq!(db.get::<Order>(("u1", (day(2), 8))).await.unwrap(), None);

    // Stored as the composites and the other fields only.
    let raw = db
        .backend()
        .get_item(dynomodel::backend::GetItemInput {
            table_name: db.table_name::<Order>(),
            key: item([
                ("pk", s("USER#u1")),
                ("sk", s("ORDER#2026-01-02#0000000009")),
            ]),
            ..Default::default()
        })
        .await
        .unwrap()
        .item
        .unwrap();
    assert_eq!(
        raw,
        item([
            ("pk", s("USER#u1")),
            ("sk", s("ORDER#2026-01-02#0000000009")),
            ("total", num("209"))
        ])
    );

    db.update::<Order>(("u1", (day(2), 9)))
        .set(Order::total(), 5u64)
        .await
        .unwrap();
    assert_eq!(
        db.get::<Order>(("u1", (day(2), 9)))
            .await
            .unwrap()
            .map(|o| o.total),
        Some(5)
    );
    db.delete_key::<Order>(("u1", (day(2), 9))).await.unwrap();
    assert_eq!(db.get::<Order>(("u1", (day(2), 9))).await.unwrap(), None);

    // The last part may hold the separator: `USER#a#b` is user `a#b`.
    db.put(&order("a#b", 1, 1)).await.unwrap();
    assert_eq!(
        db.query::<Order>("a#b").all().await.unwrap(),
        [order("a#b", 1, 1)]
    );
    assert!(db.query::<Order>("a").all().await.unwrap().is_empty());

    // A stored composite of another shape is a conversion error naming the attribute and shape.
    db.backend()
        .put_item(PutItemInput {
            table_name: db.table_name::<Order>(),
            item: item([
                ("pk", s("USER#u3")),
                ("sk", s("ORDER#yesterday")),
                ("total", num("1")),
            ]),
            ..Default::default()
        })
        .await
        .unwrap();
    let err = db.query::<Order>("u3").all().await.unwrap_err();
    assert!(
        matches!(&err, Error::ItemDecode(d) if d.error.path == "sk"
            && d.error.expected.contains("ORDER#{date}#{id}")
            && d.key["sk"] == s("ORDER#yesterday")),
        "{err:?}"
    );
});

dual_test!(composite_keys_query_by_leading_parts, |t| {
    let db = orders_db(&t).await;
    // A user's partition, sorted by date then id (zero-padded: 9 before 10 before 100).
    let all: Vec<Order> = db.query::<Order>("u1").all().await.unwrap();
    assert_eq!(ids(&all), [(1, 9), (1, 100), (2, 9), (2, 10), (10, 1)]);
    let all: Vec<Order> = db
        .query::<Order>("u1")
        .range(Order::sk().prefix(()))
        .desc()
        .all()
        .await
        .unwrap();
    assert_eq!(ids(&all), [(10, 1), (2, 10), (2, 9), (1, 100), (1, 9)]);

    let db = &db;
    let q = |range| async move { ids(&db.query::<Order>("u1").range(range).all().await.unwrap()) };
    assert_eq!(q(Order::sk().prefix((day(1),))).await, [(1, 9), (1, 100)]);
    assert_eq!(q(Order::sk().prefix((day(1), 100))).await, [(1, 100)]);
    assert_eq!(
        q(Order::sk().between((), day(1), day(2))).await,
        [(1, 9), (1, 100), (2, 9), (2, 10)]
    );
    assert_eq!(
        q(Order::sk().ge((), day(2))).await,
        [(2, 9), (2, 10), (10, 1)]
    );
    assert_eq!(q(Order::sk().gt((), day(2))).await, [(10, 1)]);
    assert_eq!(
        q(Order::sk().le((), day(2))).await,
        [(1, 9), (1, 100), (2, 9), (2, 10)]
    );
    assert_eq!(q(Order::sk().ge((day(1),), 10)).await, [(1, 100)]);
    assert_eq!(q(Order::sk().gt((day(2),), 9)).await, [(2, 10)]);
    assert_eq!(q(Order::sk().le((day(2),), 9)).await, [(2, 9)]);
    assert_eq!(
        q(Order::sk().between((day(1),), 10, 1000)).await,
        [(1, 100)]
    );
    // Nothing leaks from the other user's partition.
    assert_eq!(ids(&db.query::<Order>("u2").all().await.unwrap()), [(1, 1)]);
});

/// The same orders with a global index keyed by composites over the same fields: a day's orders,
/// sorted by customer then number.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "shipments")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("SHIP", date, id), range_key)]
#[composite(gpk = ("DAY", date))]
#[composite(gsk = ("USER", userid, id))]
#[global_index(all("by-day", hash = gpk, range = gsk))]
struct Shipment {
    userid: String,
    date: NaiveDate,
    id: u32,
}

dual_test!(composite_keys_of_a_global_index, |t| {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Shipment>());
    db.create_schema::<Shipment>().await.unwrap();
    for (userid, d, id) in [
        ("u2", 1, 3),
        ("u1", 1, 20),
        ("u1", 2, 1),
        ("u1", 1, 3),
        ("u10", 1, 1),
    ] {
        db.put(&Shipment {
            userid: userid.into(),
            date: day(d),
            id,
        })
        .await
        .unwrap();
    }
    let on = |shipments: Vec<Shipment>| -> Vec<(String, u32)> {
        shipments.into_iter().map(|s| (s.userid, s.id)).collect()
    };
    let first_day = db
        .query_index(Shipment::by_day(), day(1))
        .all()
        .await
        .unwrap();
    // "USER#u1#…" < "USER#u10#…" < "USER#u2#…": the separator sorts below the digits.
    assert_eq!(
        on(first_day),
        [
            ("u1".into(), 3),
            ("u1".into(), 20),
            ("u10".into(), 1),
            ("u2".into(), 3)
        ]
    );
    let u1 = db
        .query_index(Shipment::by_day(), day(1))
        .range(Shipment::gsk().prefix(("u1".to_owned(),)))
        .all()
        .await
        .unwrap();
    assert_eq!(on(u1), [("u1".into(), 3), ("u1".into(), 20)]);
    let later = db
        .query_index(Shipment::by_day(), day(1))
        .range(Shipment::gsk().gt(("u1".to_owned(),), 3))
        .all()
        .await
        .unwrap();
    assert_eq!(on(later), [("u1".into(), 20)]);
});

/// A hash-only composite of two parts (no prefix, another separator), with optimistic locking.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "events")]
#[composite(key = (tenant, at), hash_key, separator = "|")]
struct Event {
    tenant: String,
    at: chrono::DateTime<chrono::Utc>,
    kind: String,
    #[version]
    version: u64,
}

dual_test!(composite_keys_in_saves_batches_and_transactions, |t| {
    use chrono::{TimeZone, Utc};

    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Event>());
    db.create_schema::<Event>().await.unwrap();
    let at = |s| Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, s).unwrap();
    let mut login = Event {
        tenant: "acme".into(),
        at: at(1),
        kind: "login".into(),
        version: 0,
    };
    db.save(&mut login).await.unwrap();
    assert_eq!(login.version, 1);
    // A part before the last holding the separator is refused before anything is sent.
    let mut ambiguous = Event {
        tenant: "a|b".into(),
        ..login.clone()
    };
    let err = db.save(&mut ambiguous).await.unwrap_err();
    assert!(
        matches!(&err, Error::Conversion(e) if e.path == "key"),
        "{err:?}"
    );
    // The version check names the composite hash key: a second first save is refused.
    let mut again = Event {
        version: 0,
        ..login.clone()
    };
    assert!(db.save(&mut again).await.unwrap_err().is_version_conflict());

    let key = ("acme".to_owned(), at(1));
    assert_eq!(
        db.get::<Event>((key.0.clone(), key.1)).await.unwrap(),
        Some(login.clone())
    );
    let queried: Vec<Event> = db.query::<Event>(key.clone()).all().await.unwrap();
    assert_eq!(queried, [login.clone()]);

    let logout = Event {
        tenant: "acme".into(),
        at: at(2),
        kind: "logout".into(),
        version: 0,
    };
    db.transact().put(&logout).await.unwrap();
    let mut read = db
        .batch_get()
        .keys::<Event>([
            ("acme".to_owned(), at(1)),
            ("acme".to_owned(), at(2)),
            ("acme".to_owned(), at(3)),
        ])
        .await
        .unwrap();
    let mut events = read.take::<Event>().unwrap();
    events.sort_by_key(|e| e.at);
    assert_eq!(
        events.iter().map(|e| e.kind.as_str()).collect::<Vec<_>>(),
        ["login", "logout"]
    );
    assert_eq!(read.missing::<Event>().len(), 1);
});
