//! `AwsBackend::to_sdk_item` / `from_sdk_item`: a model value as the SDK's item map, for code that
//! mixes raw SDK requests with models. Differential: every field kind written straight to the SDK map
//! equals what the item path (`to_item`, then each value converted by copy, as the AWS backend did
//! before it moved request values) wrote, and reads back as the value written.

use std::collections::HashMap;

use aws_sdk_dynamodb::primitives::Blob as SdkBlob;
use aws_sdk_dynamodb::types::AttributeValue as SdkValue;
use dynomodel::{AttributeValue, AwsBackend, Binary, Model};

use crate::{everything, time, Blob, Event, Tweet, User};

/// The reference conversion: one value copied into the SDK's type.
fn reference(value: &AttributeValue) -> SdkValue {
    match value {
        AttributeValue::S(s) => SdkValue::S(s.clone()),
        AttributeValue::N(n) => SdkValue::N(n.to_string()),
        AttributeValue::B(b) => SdkValue::B(SdkBlob::new(b.clone())),
        AttributeValue::Bool(b) => SdkValue::Bool(*b),
        AttributeValue::Null => SdkValue::Null(true),
        AttributeValue::Ss(v) => SdkValue::Ss(v.clone()),
        AttributeValue::Ns(v) => SdkValue::Ns(v.iter().map(ToString::to_string).collect()),
        AttributeValue::Bs(v) => SdkValue::Bs(v.iter().map(|b| SdkBlob::new(b.clone())).collect()),
        AttributeValue::L(v) => SdkValue::L(v.iter().map(reference).collect()),
        AttributeValue::M(m) => {
            SdkValue::M(m.iter().map(|(k, v)| (k.clone(), reference(v))).collect())
        }
    }
}

/// `value` through both paths: the SDK map written directly equals the reference, and reads back.
fn differential<M: Model + std::fmt::Debug + PartialEq>(value: &M) {
    let expected: HashMap<String, SdkValue> = value
        .to_item()
        .expect("to_item")
        .iter()
        .map(|(k, v)| (k.clone(), reference(v)))
        .collect();
    let direct = AwsBackend::to_sdk_item(value).expect("to_sdk_item");
    assert_eq!(direct, expected);
    let back = AwsBackend::from_sdk_item::<M>(direct).expect("from_sdk_item");
    assert_eq!(&back, value);
}

#[test]
fn every_field_kind_writes_what_the_item_path_wrote() {
    differential(&everything());
    let mut sparse = everything();
    sparse.nickname = None;
    sparse.maybe_bytes = None;
    sparse.tags.clear();
    sparse.exact = "-0.5E-129".parse().unwrap();
    sparse.created = time(-1) + chrono::Duration::nanoseconds(1);
    differential(&sparse);
    differential(&Tweet {
        userid: "u".into(),
        id: "1".into(),
        text: String::new(),
        likes: i64::MIN,
        tags: ["b".to_owned(), "a".to_owned()].into(),
    });
    differential(&Event {
        day: chrono::NaiveDate::from_ymd_opt(2026, 2, 28).unwrap(),
        seq: Binary(vec![0, 255]),
    });
    differential(&Blob {
        digest: vec![1, 2, 3],
        size: u32::MAX,
    });
}

#[test]
fn generated_values_write_what_the_item_path_wrote() {
    // A small deterministic generator (no RNG dependency): numbers across their ranges and
    // strings of every length class.
    for i in 0..200u64 {
        let x = i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut value = everything();
        value.id = x;
        value.small = x as i8;
        value.big = u128::from(x) * 1000;
        value.signed = -(i128::from(x) << 20);
        value.ratio = (x as f64) / 7.0;
        value.single = (i as f32) * 0.25;
        value.size = (x % 1_000_000) as usize;
        value.scores = vec![x as i32, -(i as i32)];
        value.nickname = (i % 3 != 0).then(|| "é".repeat(i as usize % 5));
        value.numbers = [x as i64, -(x as i64) / 3, 0].into();
        value.created = time((x % 4_000_000_000) as i64) + chrono::Duration::nanoseconds(i as i64);
        differential(&value);
        differential(&User {
            user_id: format!("user{x}"),
            display_name: "Ada".repeat(i as usize % 4),
            email_address: format!("{i}@example.com"),
            session: None,
            login_count: x as u32,
            theme: String::new(),
        });
    }
}

#[test]
fn a_value_the_model_cannot_store_is_refused_and_a_bad_item_named() {
    let mut far = everything();
    far.created = time(300_000_000_000); // year 11476: not storable as fixed-width text
    let err = AwsBackend::to_sdk_item(&far).unwrap_err();
    assert_eq!(err.path, "created", "{err}");

    let mut item = AwsBackend::to_sdk_item(&everything()).unwrap();
    item.insert("small".into(), SdkValue::S("three".into()));
    let err = AwsBackend::from_sdk_item::<crate::Everything>(item).unwrap_err();
    assert_eq!(err.path, "small", "{err}");
    let mut item = AwsBackend::to_sdk_item(&everything()).unwrap();
    item.insert("small".into(), SdkValue::N("NaN".into()));
    let err = AwsBackend::from_sdk_item::<crate::Everything>(item).unwrap_err();
    assert_eq!(err.path, "small", "{err}");
}
