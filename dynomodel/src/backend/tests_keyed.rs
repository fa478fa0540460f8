//! The defaults of [`Backend::get_item_keyed_into`] and [`Backend::query_numbered_into`]: what a
//! backend that implements neither (the in-memory engine, a test double) receives.

#![allow(clippy::unwrap_used)]

use std::borrow::Cow;

use super::testing::{op, Call, RecordingBackend};
use super::*;
use crate::error::ConversionError;
use crate::value::{AttributeValue, Item};

/// Counts the items handed over.
#[derive(Default)]
struct Count(usize);

impl ItemSink for Count {
    fn item(&mut self, attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>) {
        attributes.for_each(drop);
        self.0 += 1;
    }
}

/// A key that writes one attribute, then fails.
struct Failing;

impl AttributeWriter for Failing {
    fn write(&self, sink: &mut dyn AttributeSink) -> Result<(), ConversionError> {
        sink.insert_static("pk", AttributeValue::S("a".into()));
        Err(ConversionError::new("a key value", "nothing").at("sk"))
    }
}

fn run<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
        .block_on(future)
}

fn key() -> Item {
    Item::from([
        ("pk".to_owned(), AttributeValue::S("a".into())),
        ("sk".to_owned(), AttributeValue::N(7.into())),
    ])
}

#[test]
fn a_keyed_get_sends_the_key_written_after_the_inputs() {
    let fake = RecordingBackend::new();
    let found = GetItemOutput {
        item: Some(key()),
        ..Default::default()
    };
    fake.answer(op::get_item, Ok(found));
    let input = GetItemInput {
        table_name: "t".into(),
        consistent_read: Some(true),
        ..Default::default()
    };
    let written = Item::from([("sk".to_owned(), AttributeValue::N(7.into()))]);
    let mut input_with_pk = input.clone();
    input_with_pk.key = Item::from([("pk".to_owned(), AttributeValue::S("a".into()))]);
    let mut count = Count::default();
    let out = run(fake.get_item_keyed_into(input_with_pk, &written, &mut count)).unwrap();
    // The item went to the sink (`get_item_into`'s default), not to the output.
    assert_eq!((out.item, count.0), (None, 1));
    let sent = GetItemInput {
        key: key(),
        ..input
    };
    assert_eq!(fake.take(), [Call::GetItem(sent)]);
}

#[test]
fn a_key_that_does_not_write_fails_before_anything_is_sent() {
    let fake = RecordingBackend::new();
    let input = GetItemInput {
        table_name: "t".into(),
        ..Default::default()
    };
    let err = run(fake.get_item_keyed_into(input, &Failing, &mut Count::default())).unwrap_err();
    let expected: crate::Error = ConversionError::new("a key value", "nothing")
        .at("sk")
        .into();
    assert_eq!(err.to_string(), expected.to_string());
    assert_eq!(fake.take(), []);
}

#[test]
fn a_numbered_query_sends_the_maps_the_placeholders_make() {
    let fake = RecordingBackend::new();
    fake.answer(op::query, Ok(QueryOutput::default()));
    fake.answer(op::query, Ok(QueryOutput::default()));
    let input = QueryInput {
        table_name: "t".into(),
        key_condition_expression: Some("#n0 = :v0 AND #n1 > :v1".into()),
        ..Default::default()
    };
    let numbered = NumberedAttributes {
        names: vec!["pk".into(), "sk".into()],
        values: vec![AttributeValue::S("a".into()), AttributeValue::N(3.into())],
    };
    let (names, values) = numbered.clone().into_maps();
    run(fake.query_numbered_into(input.clone(), numbered, &mut Count::default())).unwrap();
    // Nothing numbered: the maps stay absent, as the mapper renders a request without them.
    let bare = QueryInput {
        key_condition_expression: None,
        ..input.clone()
    };
    let nothing = NumberedAttributes::default();
    run(fake.query_numbered_into(bare.clone(), nothing, &mut Count::default())).unwrap();
    let sent = QueryInput {
        expression_attribute_names: Some(names),
        expression_attribute_values: Some(values),
        ..input
    };
    assert_eq!(fake.take(), [Call::Query(sent), Call::Query(bare)]);
}
