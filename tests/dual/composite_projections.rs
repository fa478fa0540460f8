//! Issue 13: KEYS_ONLY and INCLUDE global indexes on a model with composites, on every target. A query
//! returns the generated item struct, its parts decoded from the projected composites; `fetch_full()`
//! reads the whole items.

use chrono::NaiveDate;
use dynomodel::{Db, Model};

use super::*;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "parcels")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("PARCEL", id), range_key)]
#[composite(spk = ("STATUS", status))]
#[composite(ssk = ("DAY", date, id))]
#[global_index(keys("by-status", hash = spk, range = ssk))]
#[global_index(include("by-carrier", hash = carrier, range = weight, includes = [note, spk]))]
struct Parcel {
    userid: String,
    id: u32,
    status: String,
    date: NaiveDate,
    carrier: String,
    weight: u32,
    note: String,
    extra: u64,
}

fn parcel(userid: &str, id: u32, status: &str, d: u32, weight: u32) -> Parcel {
    Parcel {
        userid: userid.into(),
        id,
        status: status.into(),
        date: NaiveDate::from_ymd_opt(2026, 1, d).unwrap(),
        carrier: "acme".into(),
        weight,
        note: format!("note {id}"),
        extra: u64::from(id) * 10,
    }
}

async fn parcels_db(t: &Dual) -> (Db, Vec<Parcel>) {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Parcel>());
    db.create_schema::<Parcel>().await.unwrap();
    let parcels = vec![
        parcel("u1", 1, "sent", 2, 300),
        parcel("u2", 2, "sent", 1, 100),
        parcel("u1", 3, "held", 1, 200),
        parcel("u1", 4, "sent", 2, 50),
    ];
    for p in &parcels {
        db.put(p).await.unwrap();
    }
    (db, parcels)
}

dual_test!(composite_keys_only_index_returns_projected_items, |t| {
    let (db, parcels) = parcels_db(&t).await;
    let sent = db
        .query_index(Parcel::by_status(), "sent".to_owned())
        .all()
        .await
        .unwrap();
    // Sorted by "DAY#{date}#{id}"; each entry holds the table and index keys' parts.
    let got: Vec<(String, u32, String, NaiveDate)> = sent
        .iter()
        .map(|p| (p.userid.clone(), p.id, p.status.clone(), p.date))
        .collect();
    let want: Vec<(String, u32, String, NaiveDate)> = [&parcels[1], &parcels[0], &parcels[3]]
        .iter()
        .map(|p| (p.userid.clone(), p.id, p.status.clone(), p.date))
        .collect();
    assert_eq!(got, want);
    assert_eq!(sent[0].key(), parcels[1].key());
    // A typed condition on the leading part of the index's composite range key.
    let day_two = db
        .query_index(Parcel::by_status(), "sent".to_owned())
        .range(Parcel::ssk().prefix((parcels[0].date,)))
        .all()
        .await
        .unwrap();
    assert_eq!(day_two.iter().map(|p| p.id).collect::<Vec<_>>(), [1, 4]);
    let full = db
        .query_index(Parcel::by_status(), "sent".to_owned())
        .fetch_full()
        .all()
        .await
        .unwrap();
    assert_eq!(
        full,
        [parcels[1].clone(), parcels[0].clone(), parcels[3].clone()]
    );
});

dual_test!(composite_include_index_returns_included_attributes, |t| {
    let (db, parcels) = parcels_db(&t).await;
    let light = db
        .query_index(Parcel::by_carrier(), "acme".to_owned())
        .range(Parcel::weight().lt(250))
        .all()
        .await
        .unwrap();
    let got: Vec<(u32, u32, String, String)> = light
        .iter()
        .map(|p| (p.id, p.weight, p.note.clone(), p.status.clone()))
        .collect();
    assert_eq!(
        got,
        [
            (4, 50, "note 4".to_owned(), "sent".to_owned()),
            (2, 100, "note 2".to_owned(), "sent".to_owned()),
            (3, 200, "note 3".to_owned(), "held".to_owned()),
        ]
    );
    assert_eq!(light[2].key(), parcels[2].key());
});
