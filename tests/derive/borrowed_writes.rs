//! A derived model writes its attributes into a sink under `'static` names, its strings and string
//! sets borrowed (`AttributeSink::insert_ref`) and everything else owned (`insert_static`): the same
//! attributes `to_item` makes, whichever way each arrives, and the same errors.

use std::collections::{BTreeSet, HashSet};

use chrono::{TimeZone, Utc};
use dynomodel::backend::{AttributeRef, AttributeSink};
use dynomodel::{Attribute, AttributeValue, Document, Item, Model};

/// A newtype writes as its inner value: a string borrowed.
#[derive(Attribute, Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct UserId(String);

/// A unit-only enum writes its tag borrowed (a `&'static str`).
#[derive(Attribute, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Status {
    Active,
    OnHold,
}

#[derive(Document, Debug, Clone, PartialEq)]
struct Address {
    city: String,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "borrowed")]
struct Profile {
    #[hash_key]
    id: String,
    name: String,
    nickname: Option<String>,
    absent: Option<String>,
    tags: HashSet<String>,
    sorted: BTreeSet<String>,
    no_tags: HashSet<String>,
    numbers: HashSet<i64>,
    dates: BTreeSet<chrono::DateTime<Utc>>,
    age: i64,
    address: Address,
    #[dynomodel(rename = "renamed")]
    bio: String,
    owner: UserId,
    friends: HashSet<UserId>,
    status: Status,
    statuses: BTreeSet<Status>,
}

fn profile() -> Profile {
    Profile {
        id: "u1".into(),
        name: "Ada".into(),
        nickname: Some("countess".into()),
        absent: None,
        tags: HashSet::from(["a".into(), "b".into(), "".into()]),
        sorted: BTreeSet::from(["x".into(), "y".into()]),
        no_tags: HashSet::new(),
        numbers: HashSet::from([1, 2]),
        dates: BTreeSet::from([Utc.with_ymd_and_hms(2024, 1, 2, 3, 4, 5).unwrap()]),
        age: 36,
        address: Address {
            city: "London".into(),
        },
        bio: "mathematician".into(),
        owner: UserId("u0".into()),
        friends: HashSet::from([UserId("u2".into()), UserId("u3".into())]),
        status: Status::OnHold,
        statuses: BTreeSet::from([Status::Active, Status::OnHold]),
    }
}

/// How an attribute arrived.
#[derive(Debug, PartialEq)]
enum Way {
    Owned,
    Static,
    Borrowed,
}

/// Records each attribute, the way it arrived and its value.
#[derive(Default)]
struct Recording(Vec<(String, Way, AttributeValue)>);

impl AttributeSink for Recording {
    fn insert(&mut self, name: String, value: AttributeValue) {
        self.0.push((name, Way::Owned, value));
    }

    fn insert_static(&mut self, name: &'static str, value: AttributeValue) {
        self.0.push((name.to_owned(), Way::Static, value));
    }

    fn insert_ref(&mut self, name: &'static str, value: AttributeRef<'_>) {
        self.0
            .push((name.to_owned(), Way::Borrowed, value.to_value()));
    }
}

#[test]
fn strings_and_string_sets_are_written_borrowed_and_the_rest_owned_under_static_names() {
    let value = profile();
    let mut recording = Recording::default();
    value.write_attributes(&mut recording).unwrap();
    let ways: Vec<(&str, &Way)> = recording
        .0
        .iter()
        .map(|(name, way, _)| (name.as_str(), way))
        .collect();
    assert_eq!(
        ways,
        [
            ("id", &Way::Borrowed),
            ("name", &Way::Borrowed),
            ("nickname", &Way::Borrowed),
            ("tags", &Way::Borrowed),
            ("sorted", &Way::Borrowed),
            ("numbers", &Way::Static),
            ("dates", &Way::Static),
            ("age", &Way::Static),
            ("address", &Way::Static),
            ("renamed", &Way::Borrowed),
            ("owner", &Way::Borrowed),
            ("friends", &Way::Borrowed),
            ("status", &Way::Borrowed),
            ("statuses", &Way::Borrowed),
        ]
    );
    // The same attributes as `to_item`'s, values and all (an empty set and `None`: none).
    let written: Item = recording
        .0
        .into_iter()
        .map(|(name, _, value)| (name, value))
        .collect();
    assert_eq!(written, value.to_item().unwrap());
    assert_eq!(Profile::from_item(written).unwrap(), value);
}

#[test]
fn a_borrowed_value_is_what_its_owned_value_is() {
    let value = profile();
    let item = value.to_item().unwrap();
    let set = |s: &[&str]| s.iter().map(|s| (*s).to_owned()).collect::<Vec<String>>();
    match &item["sorted"] {
        AttributeValue::Ss(strings) => assert_eq!(strings, &set(&["x", "y"])),
        other => panic!("{other:?}"),
    }
    // The size pass measures borrowed values by DynamoDB's rule, as the item.
    assert_eq!(
        value.item_size().unwrap(),
        dynomodel::ItemSize::new(dynomodel::item_size(&item))
    );

    // `copy_into` refills a kept value of either kind, whatever it held.
    let mut slot = AttributeValue::Ss(set(&["old", "older", "oldest"]));
    let mut recording = Recording::default();
    value.write_attributes(&mut recording).unwrap();
    for name in ["sorted", "name"] {
        let expected = &item[name];
        let borrowed = match expected {
            AttributeValue::S(s) => AttributeRef::S(s),
            _ => {
                // A set's borrowed view comes from the model: check it through a sink.
                struct Copy<'s>(&'s mut AttributeValue);
                impl AttributeSink for Copy<'_> {
                    fn insert(&mut self, _: String, _: AttributeValue) {}
                    fn insert_ref(&mut self, name: &'static str, value: AttributeRef<'_>) {
                        if name == "sorted" {
                            assert_eq!(value.size(), 2);
                            value.copy_into(self.0);
                        }
                    }
                }
                value.write_attributes(&mut Copy(&mut slot)).unwrap();
                assert_eq!(&slot, expected);
                continue;
            }
        };
        borrowed.copy_into(&mut slot);
        assert_eq!(&slot, expected);
    }
}

#[test]
fn errors_are_the_same_whichever_way_the_value_goes() {
    /// A model whose value cannot be written (a NaN float), after a borrowed string.
    #[derive(Model, Debug, Clone)]
    #[dynomodel(table = "borrowed_errors")]
    struct Reading {
        #[hash_key]
        id: String,
        value: f64,
    }
    let reading = Reading {
        id: "r".into(),
        value: f64::NAN,
    };
    let to_item = reading.to_item().unwrap_err();
    let mut recording = Recording::default();
    let written = reading.write_attributes(&mut recording).unwrap_err();
    assert_eq!(written.to_string(), to_item.to_string());
    assert_eq!(written.path, "value");
    assert_eq!(recording.0.len(), 1);
}
