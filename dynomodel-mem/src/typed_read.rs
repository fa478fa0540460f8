//! The engine's side of the mapper's typed reads ([`Backend::get_item_into`]): a `GetItem` whose
//! item goes to the caller's [`ItemSink`] straight from its stored form ([`StoredItem::attributes`]),
//! names borrowed and values decoded, instead of being built into an [`Item`] that the mapper would
//! then take apart. What that saves is the item's map and a copy of each of its names (issue 15: the
//! mapper's `db.get` at no more than 1.2× the engine's `get_item`).
//!
//! Only a plain read takes this path: no projection (`ProjectionExpression` or legacy
//! `AttributesToGet`, which need the whole item to cut it down) and no armed fault rule (whose
//! delays and failures `get_item` applies). Anything else is `get_item` itself, its item handed over
//! whole. On this path every check, error and capacity figure is `get_item`'s, in the same order:
//! `Locked::get_item` in `items.rs` is what it mirrors (the tests below compare the two).
//!
//! Query and Scan keep the default (their items handed over whole): their pages decode each item
//! as they read it, to filter it and to take the `LastEvaluatedKey` from it (`paging.rs`).

use dynomodel::{GetItemInput, GetItemOutput, ItemSink, Result};

use crate::capacity::{self, Consistency};
use crate::items::check_get;
use crate::lock::Locked;
use crate::request::Maps;
use crate::stored::StoredItem;
use crate::throughput::Kind;
use crate::validate::{self, KeyContext};
use crate::MemBackend;

/// [`Backend::get_item_into`](dynomodel::Backend::get_item_into) on the engine.
pub(crate) async fn get_item_into(
    backend: &MemBackend,
    input: GetItemInput,
    sink: &mut dyn ItemSink,
) -> Result<GetItemOutput> {
    let plain = input.projection_expression.is_none()
        && input.attributes_to_get.is_none()
        && backend.faults().is_empty();
    if !plain {
        let mut output = dynomodel::Backend::get_item(backend, input).await?;
        if let Some(item) = output.item.take() {
            sink.owned_item(item);
        }
        return Ok(output);
    }
    backend.reading_tables([input.table_name.as_str()], |locked| {
        let (stored, output) = locked.get_stored(&input)?;
        if let Some(stored) = stored {
            let mut attributes = stored
                .attributes()
                .map(|(name, value)| (std::borrow::Cow::Borrowed(name), value));
            sink.item(&mut attributes);
        }
        Ok(output)
    })
}

impl<'a> Locked<'a> {
    /// `get_item` of a request without a projection, up to the stored item: that item (if any) and
    /// the output without it.
    fn get_stored(&self, input: &GetItemInput) -> Result<(Option<&StoredItem>, GetItemOutput)> {
        validate::table_name(&input.table_name)?;
        let maps = Maps {
            names: input.expression_attribute_names.as_ref(),
            values: None,
        };
        check_get(self.cache(), &input.key, maps, None)?;
        let table = self.table(&input.table_name)?;
        let meter = self.meter();
        if let Some(meter) = meter {
            meter.admit(table, Kind::Read, true, [])?;
        }
        let key = validate::request_key(&input.key, &table.schema, KeyContext::SingleItem)?;
        let stored = table.stored(&key);
        let mode = input.return_consumed_capacity;
        let consumed = if capacity::wanted(mode) || meter.is_some() {
            let size = stored.map_or(0, StoredItem::size);
            let consumed = capacity::item_read(size, Consistency::of(input.consistent_read));
            if let Some(meter) = meter {
                meter.debit(table, Kind::Read, &consumed);
            }
            consumed.report(&table.schema.name, mode)
        } else {
            None
        };
        let output = GetItemOutput {
            item: None,
            consumed_capacity: consumed,
        };
        Ok((stored, output))
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use dynomodel::{
        AttributeDefinition, AttributeValue, Backend, BillingMode, CreateTableInput, GetItemInput,
        Item, ItemSink, KeySchemaElement, PutItemInput, ReturnConsumedCapacity,
        ScalarAttributeType,
    };

    use crate::MemBackend;

    /// Collects the items a typed read hands over, as `Item`s.
    #[derive(Default)]
    struct Collect(Vec<Item>);

    impl ItemSink for Collect {
        fn item(&mut self, attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>) {
            self.0
                .push(attributes.map(|(n, v)| (n.into_owned(), v)).collect());
        }
    }

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
