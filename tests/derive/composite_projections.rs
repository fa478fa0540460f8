//! KEYS_ONLY and INCLUDE global indexes on a model with composites: the schema's projections, and the
//! generated item structs holding the parts decoded from the projected composites.

use chrono::NaiveDate;
use dynomodel::{AttributeValue, Item, Model, Projected, ProjectionType};

/// Parcels of a user, indexed by status (keys only) and by carrier (with a note and the status).
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "parcels")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("PARCEL", id), range_key)]
#[composite(spk = ("STATUS", status))]
#[composite(ssk = ("DAY", date, id))]
#[global_index(keys("by-status", hash = spk, range = ssk))]
#[global_index(include("by-carrier", hash = carrier, range = weight, includes = [note, spk]))]
pub(crate) struct Parcel {
    /// The owner.
    pub userid: String,
    /// Its number.
    pub id: u32,
    /// Where it is.
    pub status: String,
    /// When it was sent.
    pub date: NaiveDate,
    /// Who carries it.
    pub carrier: String,
    /// Its weight in grams.
    pub weight: u32,
    /// A note.
    pub note: String,
    /// Not projected by either index.
    pub extra: u64,
}

fn parcel() -> Parcel {
    Parcel {
        userid: "u1".into(),
        id: 7,
        status: "sent".into(),
        date: NaiveDate::from_ymd_opt(2026, 1, 3).expect("a date"),
        carrier: "acme".into(),
        weight: 500,
        note: "fragile".into(),
        extra: 9,
    }
}

/// The item with only the named attributes, as an index returns it.
fn only(names: &[&str]) -> Item {
    let mut item = parcel().to_item().expect("converts");
    item.retain(|name, _| names.contains(&name.as_str()));
    item
}

#[test]
fn schema_projects_keys_and_includes() {
    let schema = Parcel::schema();
    let projections: Vec<(&str, ProjectionType, Vec<String>)> = schema
        .global_secondary_indexes
        .iter()
        .map(|i| {
            (
                i.index_name.as_str(),
                i.projection.projection_type,
                i.projection.non_key_attributes.clone(),
            )
        })
        .collect();
    assert_eq!(
        projections,
        [
            ("by-status", ProjectionType::KeysOnly, vec![]),
            (
                "by-carrier",
                ProjectionType::Include,
                vec!["note".to_owned(), "spk".to_owned()]
            ),
        ]
    );
    let mut definitions: Vec<&str> = schema
        .attribute_definitions
        .iter()
        .map(|d| d.attribute_name.as_str())
        .collect();
    definitions.sort_unstable();
    assert_eq!(definitions, ["carrier", "pk", "sk", "spk", "ssk", "weight"]);
    assert_eq!(Parcel::by_status().projection(), ProjectionType::KeysOnly);
    assert_eq!(Parcel::by_carrier().projection(), ProjectionType::Include);
}

#[test]
fn keys_only_items_decode_the_parts() {
    let item =
        ParcelByStatusItem::from_projection(only(&["pk", "sk", "spk", "ssk"])).expect("decodes");
    let p = parcel();
    assert_eq!(
        item,
        ParcelByStatusItem {
            userid: p.userid.clone(),
            id: p.id,
            status: p.status.clone(),
            date: p.date,
        }
    );
    assert_eq!(item.key(), p.key());
}

#[test]
fn include_items_hold_the_included_attributes() {
    let item = ParcelByCarrierItem::from_projection(only(&[
        "pk", "sk", "carrier", "weight", "note", "spk",
    ]))
    .expect("decodes");
    let p = parcel();
    assert_eq!(
        item,
        ParcelByCarrierItem {
            userid: p.userid.clone(),
            id: p.id,
            status: p.status.clone(),
            carrier: p.carrier.clone(),
            weight: p.weight,
            note: p.note.clone(),
        }
    );
    assert_eq!(item.key(), p.key());
}

#[test]
fn a_missing_projected_composite_is_an_error() {
    let mut item = only(&["pk", "sk", "ssk"]);
    item.insert("spk".into(), AttributeValue::S("nothing".into()));
    let error = ParcelByStatusItem::from_projection(item).expect_err("malformed");
    assert!(error.to_string().contains("spk"), "{error}");
}
