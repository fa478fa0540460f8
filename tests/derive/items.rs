//! Items: every supported field type written and read back, and the errors, reading or writing, that
//! name the attribute at fault.

use std::collections::BTreeMap;

use dynomodel::{AttributeValue, Model, Number};

use crate::{everything, n, s, Everything};

#[test]
fn every_field_type_round_trips() {
    let value = everything();
    let item = value.to_item().unwrap();
    assert_eq!(Everything::from_item(item.clone()).unwrap(), value);
    // Stored shapes.
    assert_eq!(item["id"], n(7));
    assert_eq!(
        item["at"],
        AttributeValue::N("1700000000.25".parse().unwrap())
    );
    assert_eq!(item["bytes"], AttributeValue::B(vec![0, 1, 255]));
    assert_eq!(item["maybe_bytes"], AttributeValue::B(vec![9]));
    assert_eq!(item["blob"], AttributeValue::B(vec![4, 2]));
    assert_eq!(
        item["matrix"],
        AttributeValue::L(vec![
            AttributeValue::L(vec![n(1), n(2)]),
            AttributeValue::L(vec![])
        ])
    );
    assert_eq!(
        item["tags"],
        AttributeValue::Ss(vec!["y".into(), "x".into()])
    );
    assert!(matches!(item["numbers"], AttributeValue::Ns(_)));
    assert!(matches!(item["blobs"], AttributeValue::Bs(_)));
    assert_eq!(item["created"], s("2026-11-21T10:00:00.000000000Z"));
    assert_eq!(item["birthday"], s("1815-12-10"));
    assert_eq!(item["expires"], n(1_893_456_000));
    assert_eq!(
        item["big"],
        AttributeValue::N(Number::try_from(10u128.pow(37)).unwrap())
    );
    let AttributeValue::M(address) = &item["address"] else {
        panic!("address is not a map")
    };
    assert_eq!(address["city"], s("Paris"));
    assert_eq!(address["zip"], s("75001"));
    // None and empty sets are not stored at all.
    for absent in ["absent", "never", "empty_tags"] {
        assert!(!item.contains_key(absent), "{absent} should be absent");
    }
}

#[test]
fn none_values_read_back_from_missing_attributes() {
    let mut value = everything();
    value.maybe_bytes = None;
    value.nickname = None;
    value.expires = None;
    value.tags.clear();
    let item = value.to_item().unwrap();
    assert!(!item.contains_key("maybe_bytes"));
    assert_eq!(Everything::from_item(item).unwrap(), value);
}

#[test]
fn missing_attributes_are_errors_naming_them() {
    let mut item = everything().to_item().unwrap();
    item.remove("flag");
    let err = Everything::from_item(item).unwrap_err();
    assert_eq!(
        err.to_string(),
        "attribute `flag`: expected a boolean, found nothing (the attribute is missing)"
    );

    let mut item = everything().to_item().unwrap();
    item.remove("bytes");
    assert_eq!(Everything::from_item(item).unwrap_err().path, "bytes");
}

#[test]
fn ill_typed_attributes_are_errors_naming_them() {
    let mut item = everything().to_item().unwrap();
    item.insert("small".into(), s("three"));
    let err = Everything::from_item(item).unwrap_err();
    assert_eq!(
        err.to_string(),
        "attribute `small`: expected a number (i8), found S"
    );

    let mut item = everything().to_item().unwrap();
    item.insert("scores".into(), AttributeValue::L(vec![n(1), n(2), s("x")]));
    let err = Everything::from_item(item).unwrap_err();
    assert_eq!(
        err.to_string(),
        "attribute `scores[2]`: expected a number (i32), found S"
    );

    let mut item = everything().to_item().unwrap();
    let mut address = BTreeMap::new();
    address.insert("city".to_owned(), n(75));
    item.insert("address".into(), AttributeValue::M(address));
    let err = Everything::from_item(item).unwrap_err();
    assert_eq!(
        err.to_string(),
        "attribute `address.city`: expected a string, found N"
    );

    let mut item = everything().to_item().unwrap();
    item.insert("previous".into(), AttributeValue::L(vec![s("Lyon")]));
    let err = Everything::from_item(item).unwrap_err();
    assert_eq!(
        err.to_string(),
        "attribute `previous[0]`: expected a map (Address), found S"
    );

    let mut item = everything().to_item().unwrap();
    item.insert("at".into(), s("2026-01-01"));
    let err = Everything::from_item(item).unwrap_err();
    assert_eq!(
        err.to_string(),
        "attribute `at`: expected epoch seconds (DateTime<Utc>), found S"
    );
}

#[test]
fn writing_errors_name_the_attribute() {
    let mut value = everything();
    value.ratio = f64::NAN;
    let err = value.to_item().unwrap_err();
    assert_eq!(err.path, "ratio");
    assert_eq!(err.expected, "a finite number (f64)");
}

#[test]
fn unknown_attributes_are_ignored() {
    let mut item = everything().to_item().unwrap();
    item.insert("added_later".into(), s("whatever"));
    assert_eq!(Everything::from_item(item).unwrap(), everything());
}
