//! Local secondary indexes on a model with composites (`#[local_index(...)]` on the struct): the
//! schema (the table's hash composite, another sort key, attribute definitions once), the handles
//! (local), and the item structs of the KEYS_ONLY and INCLUDE ones.

use chrono::NaiveDate;
use dynomodel::backend::{KeySchemaElement, ProjectionType};
use dynomodel::{Item, Model, Projected};

/// A user's shipments, re-sorted by status and day (all), by day (keys only) and by weight (with a note).
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "shipments")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("SHIP", id), range_key)]
#[composite(ssk = ("STATUS", status, date))]
#[composite(dsk = ("DAY", date))]
#[local_index(all("by-status", range = ssk))]
#[local_index(keys("by-day", range = dsk))]
#[local_index(include("by-weight", range = weight, includes = [note]))]
#[global_index(keys("by-carrier", hash = carrier, range = dsk))]
pub(crate) struct Shipment {
    /// The owner.
    pub userid: String,
    /// Its number.
    pub id: u32,
    /// Where it is.
    pub status: String,
    /// When it was sent.
    pub date: NaiveDate,
    /// Its weight in grams.
    pub weight: u32,
    /// Who carries it.
    pub carrier: String,
    /// A note.
    pub note: String,
}

fn shipment() -> Shipment {
    Shipment {
        userid: "u1".into(),
        id: 7,
        status: "sent".into(),
        date: NaiveDate::from_ymd_opt(2026, 1, 3).expect("a date"),
        weight: 500,
        carrier: "acme".into(),
        note: "fragile".into(),
    }
}

fn only(names: &[&str]) -> Item {
    let mut item = shipment().to_item().expect("converts");
    item.retain(|name, _| names.contains(&name.as_str()));
    item
}

#[test]
fn schema_has_the_local_indexes_on_the_table_hash_key() {
    let schema = Shipment::schema();
    let locals: Vec<(&str, Vec<KeySchemaElement>, ProjectionType, Vec<String>)> = schema
        .local_secondary_indexes
        .iter()
        .map(|i| {
            (
                i.index_name.as_str(),
                i.key_schema.clone(),
                i.projection.projection_type,
                i.projection.non_key_attributes.clone(),
            )
        })
        .collect();
    let keys = |range: &str| vec![KeySchemaElement::hash("pk"), KeySchemaElement::range(range)];
    assert_eq!(
        locals,
        [
            ("by-status", keys("ssk"), ProjectionType::All, vec![]),
            ("by-day", keys("dsk"), ProjectionType::KeysOnly, vec![]),
            (
                "by-weight",
                keys("weight"),
                ProjectionType::Include,
                vec!["note".to_owned()]
            ),
        ]
    );
    assert_eq!(schema.global_secondary_indexes.len(), 1);
    // Each key attribute defined once, though `dsk` keys a local and a global index.
    let mut definitions: Vec<&str> = schema
        .attribute_definitions
        .iter()
        .map(|d| d.attribute_name.as_str())
        .collect();
    definitions.sort_unstable();
    assert_eq!(definitions, ["carrier", "dsk", "pk", "sk", "ssk", "weight"]);
}

#[test]
fn handles_are_local() {
    assert!(Shipment::by_status().is_local());
    assert!(Shipment::by_day().is_local());
    assert!(!Shipment::by_carrier().is_local());
    assert_eq!(Shipment::by_weight().projection(), ProjectionType::Include);
}

#[test]
fn keys_only_local_items_decode_the_parts() {
    let item = ShipmentByDayItem::from_projection(only(&["pk", "sk", "dsk"])).expect("decodes");
    let s = shipment();
    assert_eq!(
        item,
        ShipmentByDayItem {
            userid: s.userid.clone(),
            id: s.id,
            date: s.date,
        }
    );
    assert_eq!(item.key(), s.key());
}

#[test]
fn include_local_items_hold_the_included_attributes() {
    let item = ShipmentByWeightItem::from_projection(only(&["pk", "sk", "weight", "note"]))
        .expect("decodes");
    let s = shipment();
    assert_eq!(
        item,
        ShipmentByWeightItem {
            userid: s.userid.clone(),
            id: s.id,
            weight: s.weight,
            note: s.note.clone(),
        }
    );
}
