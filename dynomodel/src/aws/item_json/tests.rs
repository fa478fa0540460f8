//! The model's JSON against the SDK's serialization of the map the same writer fills.
#![allow(clippy::unwrap_used)]

use std::collections::{BTreeSet, HashSet};

use proptest::prelude::*;

use super::*;
use crate::aws::item::tests::Failing;
use crate::aws::request_body::tests::{item_of, sdk_body};
use crate::aws::value::tests::{any_value, every_type};
use crate::aws::AwsBackend;
use crate::Model;

/// The `Item` member of the body the SDK serializes for a PutItem of the map `writer` fills.
fn sdk_item_text(writer: &dyn AttributeWriter) -> String {
    let mut item = Item::new();
    writer.write(&mut item).unwrap();
    let body = sdk_body(super::super::value::to_sdk_item(item));
    item_of(&body).to_owned()
}

/// `writer`'s JSON, as a JSON value.
fn ours(writer: &dyn AttributeWriter) -> serde_json::Value {
    serde_json::from_str(&item_json(&Item::new(), writer).unwrap().unwrap()).unwrap()
}

/// A string: any characters, or mostly the ones JSON escapes.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![".{0,6}", "[ab\"\\\\/\\n\\t\\u{0}-\\u{1f}\\u{7f}é€😀]{0,5}"]
}

proptest! {
    /// Any item: the same JSON as the SDK's (the same object; the SDK orders it by its map).
    #[test]
    fn any_item_is_the_json_the_sdk_writes_for_its_map(
        item in proptest::collection::btree_map(text(), any_value(), 0..6)
    ) {
        let sdk: serde_json::Value = serde_json::from_str(&sdk_item_text(&item)).unwrap();
        prop_assert_eq!(ours(&item), sdk);
    }

    /// One attribute, byte for byte: the same escapes, numbers and base64 (where the SDK's map
    /// gives no order of its own: maps of at most one entry).
    #[test]
    fn one_attribute_is_the_sdks_text_byte_for_byte(name in text(), value in any_value()) {
        prop_assume!(in_one_order(&value));
        let item = Item::from([(name, value)]);
        let json = item_json(&Item::new(), &item).unwrap().unwrap();
        prop_assert_eq!(json, sdk_item_text(&item));
    }

    /// Strings with anything JSON escapes, as a model writes them (borrowed).
    #[test]
    fn a_models_borrowed_strings_are_the_sdks_text(
        id in text(),
        tags in proptest::collection::btree_set(text(), 1..4),
    ) {
        let value = Tagged { id, tags };
        let body = sdk_body(AwsBackend::to_sdk_item(&value).unwrap());
        let sdk: serde_json::Value = serde_json::from_str(item_of(&body)).unwrap();
        prop_assert_eq!(ours(&ModelWriter(&value)), sdk);
    }
}

/// Whether every map in `value` has at most one entry (the SDK writes a larger one in its hash
/// map's order).
fn in_one_order(value: &AttributeValue) -> bool {
    match value {
        AttributeValue::M(map) => map.len() <= 1 && map.values().all(in_one_order),
        AttributeValue::L(list) => list.iter().all(in_one_order),
        _ => true,
    }
}

/// A model with a borrowed string and a borrowed string set.
#[derive(Model, Debug, Clone, PartialEq)]
struct Tagged {
    #[hash_key]
    id: String,
    tags: BTreeSet<String>,
}

/// A model value as the writer a put hands over.
struct ModelWriter<'a, M>(&'a M);

impl<M: Model> AttributeWriter for ModelWriter<'_, M> {
    fn write(&self, sink: &mut dyn AttributeSink) -> Result<(), ConversionError> {
        self.0.write_attributes(sink)
    }
}

#[test]
fn every_type_is_written_as_the_sdk_writes_it() {
    let item = every_type();
    for (name, value) in &item {
        let one = Item::from([(name.clone(), value.clone())]);
        assert_eq!(
            item_json(&Item::new(), &one).unwrap().unwrap(),
            sdk_item_text(&one),
            "{name}"
        );
    }
    let sdk: serde_json::Value = serde_json::from_str(&sdk_item_text(&item)).unwrap();
    assert_eq!(ours(&item), sdk);
    // An empty item is `{}`.
    assert_eq!(
        item_json(&Item::new(), &Item::new()).unwrap().unwrap(),
        "{}"
    );
}

#[test]
fn the_inputs_attributes_come_before_the_writers() {
    let input = Item::from([("pk".to_owned(), AttributeValue::S("a".into()))]);
    let writer = Item::from([("sk".to_owned(), AttributeValue::N(7.into()))]);
    assert_eq!(
        item_json(&input, &writer).unwrap().unwrap(),
        r#"{"pk":{"S":"a"},"sk":{"N":"7"}}"#
    );
}

/// Writes the names given, each with the value `N` of its place.
struct Names(Vec<String>);

impl AttributeWriter for Names {
    fn write(&self, sink: &mut dyn AttributeSink) -> Result<(), ConversionError> {
        for (i, name) in self.0.iter().enumerate() {
            sink.insert(name.clone(), AttributeValue::N(i.into()));
        }
        Ok(())
    }
}

#[test]
fn a_name_written_twice_is_left_to_the_sdks_map() {
    let twice = |names: &[&str]| {
        let writer = Names(names.iter().map(|n| (*n).to_owned()).collect());
        item_json(&Item::new(), &writer).unwrap().is_none()
    };
    assert!(twice(&["a", "b", "a"]));
    assert!(!twice(&["a", "b", "ab"]));
    // Names compared as written: the same name, escaped alike.
    assert!(twice(&["\"", "x", "\""]));
    assert!(!twice(&["é", "e"]));
    // Many names: through sorted names.
    let many: Vec<String> = (0..40).map(|i| format!("n{i}")).collect();
    let refs: Vec<&str> = many.iter().map(String::as_str).collect();
    assert!(!twice(&refs));
    let mut again = refs.clone();
    again.push("n17");
    assert!(twice(&again));
    // Across the input's attributes and the writer's.
    let input = Item::from([("a".to_owned(), AttributeValue::Null)]);
    assert!(item_json(&input, &Names(vec!["a".into()]))
        .unwrap()
        .is_none());
}

#[test]
fn a_value_the_writer_cannot_write_is_its_error() {
    let err = item_json(&Item::new(), &Failing).unwrap_err();
    assert_eq!(err.to_string(), Failing::error().to_string());
}

#[test]
fn a_hash_set_writes_each_string_once_in_its_order() {
    #[derive(Model, Debug, Clone, PartialEq)]
    struct Set {
        #[hash_key]
        id: String,
        tags: HashSet<String>,
    }
    let value = Set {
        id: "i".into(),
        tags: ["a", "b", "c"].into_iter().map(str::to_owned).collect(),
    };
    let json = ours(&ModelWriter(&value));
    let mut tags: Vec<&str> = json["tags"]["SS"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    tags.sort_unstable();
    assert_eq!(tags, ["a", "b", "c"]);
}
