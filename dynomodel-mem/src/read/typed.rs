//! The engine's side of the mapper's typed reads ([`Backend::get_item_into`],
//! [`Backend::query_into`], [`Backend::scan_into`], in `backend.rs`): items that go to the caller's [`ItemSink`]
//! straight from their stored form ([`StoredItem::attributes_of`]), names borrowed and values decoded,
//! instead of being built into an [`Item`] that the mapper would then take apart. What that saves is
//! each item's map and a copy of each of its names (the goal: the mapper's `db.get`, `db.query`
//! and `db.scan` at no more than 1.2× the engine's reads; see docs/performance.md).
//!
//! Each is the plain operation with a sink: `GetItem` reads through `ItemRequest::get_stored`
//! (`items.rs`), which `get_item` uses too, and Query and Scan through the same page loop as their
//! plain forms (`paging.rs`), so every check, error, limit and capacity figure is the same, in the
//! same order (the tests below compare them). What needs the decoded item takes it: a projection
//! (the projected item is handed over whole), and for Query and Scan a filter or an LSI read of
//! unprojected attributes (the page is built as the plain read builds it, then handed over). An
//! armed fault rule, whose delays and failures the plain operations apply, sends the plain
//! operation and hands its items over.
//!
//! [`Backend::get_item_into`]: dynomodel::backend::Backend::get_item_into
//! [`Backend::query_into`]: dynomodel::backend::Backend::query_into
//! [`Backend::scan_into`]: dynomodel::backend::Backend::scan_into

use std::borrow::Cow;

use dynomodel::backend::ItemSink;

use crate::storage::stored::StoredItem;

/// Hands a stored item to `sink`: its attributes, names borrowed, and a look-up of any one of them
/// (a second pass over the stored bytes, only if the sink asks: for an item it could not decode).
pub(crate) fn hand_over(sink: &mut dyn ItemSink, stored: &[u8]) {
    let mut attributes =
        StoredItem::attributes_of(stored).map(|(name, value)| (Cow::Borrowed(name), value));
    let find = |wanted: &str| {
        StoredItem::attributes_of(stored)
            .find(|(name, _)| *name == wanted)
            .map(|(_, value)| value)
    };
    sink.stored_item(&mut attributes, &find);
}

#[cfg(test)]
mod page_tests;

#[cfg(test)]
mod tests {

    use dynomodel::backend::{
        AttributeDefinition, Backend, BillingMode, CreateTableInput, GetItemInput,
        KeySchemaElement, PutItemInput, ReturnConsumedCapacity, ScalarAttributeType,
    };
    use dynomodel::{AttributeValue, Item};

    use crate::tests::Collect;
    use crate::MemBackend;

    fn s(v: &str) -> AttributeValue {
        AttributeValue::S(v.into())
    }

    async fn backend() -> MemBackend {
        let backend = MemBackend::new();
        backend
            .create_table(CreateTableInput {
                table_name: "typed".into(),
                attribute_definitions: vec![AttributeDefinition {
                    attribute_name: "pk".into(),
                    attribute_type: ScalarAttributeType::S,
                }],
                key_schema: vec![KeySchemaElement::hash("pk")],
                billing_mode: Some(BillingMode::PayPerRequest),
                ..Default::default()
            })
            .await
            .unwrap();
        let item = Item::from([
            ("pk".to_string(), s("a")),
            ("name".to_string(), s("Ada")),
            ("n".to_string(), AttributeValue::N(7.into())),
            (
                "m".to_string(),
                AttributeValue::M(Item::from([("x".to_string(), AttributeValue::Bool(true))])),
            ),
        ]);
        backend
            .put_item(PutItemInput {
                table_name: "typed".into(),
                item,
                ..Default::default()
            })
            .await
            .unwrap();
        backend
    }

    /// The typed read gives what `get_item` gives: the same item (through the sink), capacity and
    /// errors.
    #[tokio::test]
    async fn a_typed_get_is_get_item() {
        let backend = backend().await;
        let key = |v: &str| Item::from([("pk".to_string(), s(v))]);
        let requests = [
            GetItemInput {
                table_name: "typed".into(),
                key: key("a"),
                ..Default::default()
            },
            GetItemInput {
                table_name: "typed".into(),
                key: key("missing"),
                return_consumed_capacity: Some(ReturnConsumedCapacity::Total),
                consistent_read: Some(true),
                ..Default::default()
            },
            GetItemInput {
                table_name: "typed".into(),
                key: key("a"),
                return_consumed_capacity: Some(ReturnConsumedCapacity::Indexes),
                ..Default::default()
            },
            GetItemInput {
                table_name: "typed".into(),
                key: key("a"),
                projection_expression: Some("#n, m.x".into()),
                expression_attribute_names: Some([("#n".into(), "name".into())].into()),
                ..Default::default()
            },
            GetItemInput {
                table_name: "typed".into(),
                key: key("a"),
                attributes_to_get: Some(vec!["n".into()]),
                ..Default::default()
            },
            // Errors: a missing table, a bad table name, a wrong key, an unused name map.
            GetItemInput {
                table_name: "nope".into(),
                key: key("a"),
                ..Default::default()
            },
            GetItemInput {
                table_name: "x".into(),
                key: key("a"),
                ..Default::default()
            },
            GetItemInput {
                table_name: "typed".into(),
                key: Item::from([("other".to_string(), s("a"))]),
                ..Default::default()
            },
            GetItemInput {
                table_name: "typed".into(),
                key: key("a"),
                expression_attribute_names: Some([("#n".into(), "name".into())].into()),
                ..Default::default()
            },
        ];
        for input in requests {
            let plain = backend.get_item(input.clone()).await;
            let mut sink = Collect::default();
            let typed = backend.get_item_into(input.clone(), &mut sink).await;
            match (plain, typed) {
                (Ok(mut plain), Ok(typed)) => {
                    assert_eq!(sink.0, plain.item.take().into_iter().collect::<Vec<_>>());
                    assert_eq!(typed.item, None);
                    assert_eq!(plain, typed, "{input:?}");
                }
                (Err(plain), Err(typed)) => {
                    assert_eq!(plain.to_string(), typed.to_string(), "{input:?}");
                    assert!(sink.0.is_empty());
                }
                (plain, typed) => panic!("{input:?}: {plain:?} against {typed:?}"),
            }
        }
    }
}
