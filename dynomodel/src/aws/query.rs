//! Query and Scan, converted field by field.
//!
//! The response keeps DynamoDB's distinctions: `Items` absent (`Select=COUNT`) stays `None` rather than
//! becoming an empty page, and `LastEvaluatedKey` is passed through as sent — its presence, not the page's
//! size, is what says more items may follow.

use std::collections::HashMap;
use std::future::Future;

use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::operation as op;
use aws_sdk_dynamodb::types as sdk;
use aws_sdk_dynamodb::Client;
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;

use super::capacity::{one_consumed_capacity, return_consumed_capacity};
use super::error::ErrorDetails;
use super::item::{names, values};
use super::legacy::{conditional_operator, conditions};
use super::page_body::BodyPage;
use super::page_hook::{take_page, Armed, Arms, PageSlot};
use super::sent::{failed, sent, BackendFuture};
use super::value::{
    from_sdk_item, from_sdk_opt_item, hand_over, hand_page, to_sdk, to_sdk_item, SdkItem,
};
use crate::backend::*;
use crate::error::Result;

#[inline]
fn select(s: Option<Select>) -> Option<sdk::Select> {
    s.map(|s| sdk::Select::from(s.as_str()))
}

/// Builds the common response from the SDK's fields (Query and Scan outputs are distinct SDK types with
/// the same four fields); with a `sink` (the typed reads), the items go to it and `items` is `None`:
/// the `page` read from the response body when there is one (the SDK's `items` are then empty), or
/// else the SDK's items.
#[inline]
fn output(
    items: Option<Vec<SdkItem>>,
    count: i32,
    scanned_count: i32,
    last_evaluated_key: Option<SdkItem>,
    consumed_capacity: Option<&sdk::ConsumedCapacity>,
    sink: Option<&mut dyn ItemSink>,
    page: Option<BodyPage>,
) -> Result<QueryOutput> {
    let items = match (items, sink, page) {
        (_, Some(sink), Some(page)) => {
            hand_page(page.attributes, page.lengths, sink);
            None
        }
        (Some(items), Some(sink), None) => {
            hand_over(items, sink)?;
            None
        }
        (items, _, _) => items
            .map(|items| {
                items
                    .into_iter()
                    .map(from_sdk_item)
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?,
    };
    Ok(QueryOutput {
        items,
        count,
        scanned_count,
        last_evaluated_key: from_sdk_opt_item(last_evaluated_key)?,
        consumed_capacity: one_consumed_capacity(consumed_capacity),
    })
}

/// The SDK's Query and Scan outputs: distinct types with the same page fields.
trait SdkPage {
    /// The page as `output` builds it.
    fn into_output(
        self,
        sink: Option<&mut dyn ItemSink>,
        page: Option<BodyPage>,
    ) -> Result<QueryOutput>;
}

macro_rules! sdk_page {
    ($output:ty) => {
        impl SdkPage for $output {
            #[inline]
            fn into_output(
                self,
                sink: Option<&mut dyn ItemSink>,
                page: Option<BodyPage>,
            ) -> Result<QueryOutput> {
                output(
                    self.items,
                    self.count,
                    self.scanned_count,
                    self.last_evaluated_key,
                    self.consumed_capacity.as_ref(),
                    sink,
                    page,
                )
            }
        }
    };
}

sdk_page!(op::query::QueryOutput);
sdk_page!(op::scan::ScanOutput);

/// A Query's or Scan's `send`, its page converted; with a `sink` (a typed page), armed so that its
/// items are read from the response body when they can be (`page_hook`).
#[inline]
fn page_sent<'a, O, E>(
    send: impl Future<Output = std::result::Result<O, SdkError<E, HttpResponse>>> + Send + 'a,
    sink: Option<&'a mut dyn ItemSink>,
) -> BackendFuture<'a, QueryOutput>
where
    O: SdkPage + Send + 'a,
    E: ProvideErrorMetadata + ErrorDetails + std::error::Error + Send + Sync + 'static,
{
    let Some(sink) = sink else {
        return sent(send, |out: O| out.into_output(None, None));
    };
    let slot = PageSlot::default();
    let armed = Armed::new(Arms::page(&slot), send);
    sent(armed, move |out: O| {
        out.into_output(Some(sink), take_page(&slot))
    })
}

/// `Query`; with a `sink`, its items are handed to it ([`Backend::query_into`]).
#[inline]
pub(crate) fn query<'a>(
    client: &Client,
    input: QueryInput,
    numbered: Option<NumberedAttributes>,
    sink: Option<&'a mut dyn ItemSink>,
) -> BackendFuture<'a, QueryOutput> {
    let request = match query_request(client, input, numbered) {
        Ok(request) => request,
        Err(e) => return failed(e),
    };
    page_sent(request.send(), sink)
}

/// The SDK's `Query` request of `input`, with the names and values `numbered` (if any) added to
/// its maps; its legacy conditions may not convert.
#[inline]
fn query_request(
    client: &Client,
    input: QueryInput,
    numbered: Option<NumberedAttributes>,
) -> Result<op::query::builders::QueryFluentBuilder> {
    let mut names = names(input.expression_attribute_names);
    let mut values = values(input.expression_attribute_values);
    if let Some(numbered) = numbered {
        add_numbered(numbered, &mut names, &mut values);
    }
    let mut request = client.query().table_name(input.table_name);
    present!(request
        .set_index_name(input.index_name)
        .set_key_condition_expression(input.key_condition_expression)
        .set_filter_expression(input.filter_expression)
        .set_projection_expression(input.projection_expression)
        .set_attributes_to_get(input.attributes_to_get)
        .set_key_conditions(conditions(input.key_conditions)?)
        .set_query_filter(conditions(input.query_filter)?)
        .set_conditional_operator(conditional_operator(input.conditional_operator))
        .set_expression_attribute_names(names)
        .set_expression_attribute_values(values)
        .set_select(select(input.select))
        .set_scan_index_forward(input.scan_index_forward)
        .set_limit(input.limit)
        .set_exclusive_start_key(input.exclusive_start_key.map(to_sdk_item))
        .set_consistent_read(input.consistent_read)
        .set_return_consumed_capacity(return_consumed_capacity(input.return_consumed_capacity)));
    Ok(request)
}

/// Adds `numbered`'s names and values to the SDK's maps (`None`: made when there is something to
/// add), each entry built once in the SDK's form, as [`NumberedAttributes::fill`] adds them to an
/// `Item`'s.
#[inline]
fn add_numbered(
    numbered: NumberedAttributes,
    names: &mut Option<HashMap<String, String>>,
    values: &mut Option<SdkItem>,
) {
    if !numbered.names.is_empty() {
        let len = numbered.names.len();
        let names = names.get_or_insert_with(|| HashMap::with_capacity(len));
        names.extend(NumberedAttributes::named(numbered.names));
    }
    if !numbered.values.is_empty() {
        let len = numbered.values.len();
        let values = values.get_or_insert_with(|| SdkItem::with_capacity(len));
        let valued = NumberedAttributes::valued(numbered.values);
        values.extend(valued.map(|(placeholder, value)| (placeholder, to_sdk(value))));
    }
}

/// `Scan`; with a `sink`, its items are handed to it ([`Backend::scan_into`]).
pub(crate) fn scan<'a>(
    client: &Client,
    input: ScanInput,
    sink: Option<&'a mut dyn ItemSink>,
) -> BackendFuture<'a, ScanOutput> {
    let request = match scan_request(client, input) {
        Ok(request) => request,
        Err(e) => return failed(e),
    };
    page_sent(request.send(), sink)
}

/// The SDK's `Scan` request of `input`; its legacy conditions may not convert.
fn scan_request(
    client: &Client,
    input: ScanInput,
) -> Result<op::scan::builders::ScanFluentBuilder> {
    let mut request = client.scan().table_name(input.table_name);
    present!(request
        .set_index_name(input.index_name)
        .set_filter_expression(input.filter_expression)
        .set_projection_expression(input.projection_expression)
        .set_attributes_to_get(input.attributes_to_get)
        .set_scan_filter(conditions(input.scan_filter)?)
        .set_conditional_operator(conditional_operator(input.conditional_operator))
        .set_expression_attribute_names(names(input.expression_attribute_names))
        .set_expression_attribute_values(values(input.expression_attribute_values))
        .set_select(select(input.select))
        .set_limit(input.limit)
        .set_exclusive_start_key(input.exclusive_start_key.map(to_sdk_item))
        .set_consistent_read(input.consistent_read)
        .set_segment(input.segment)
        .set_total_segments(input.total_segments)
        .set_return_consumed_capacity(return_consumed_capacity(input.return_consumed_capacity)));
    Ok(request)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::value::{AttributeValue, Item};
    use aws_sdk_dynamodb::types::AttributeValue as SdkValue;

    #[test]
    fn count_only_pages_keep_items_absent_and_the_last_key() {
        let key: SdkItem = [("pk".to_owned(), SdkValue::S("a".into()))].into();
        let out = output(None, 3, 5, Some(key), None, None, None).unwrap();
        assert_eq!(out.items, None);
        assert_eq!((out.count, out.scanned_count), (3, 5));
        assert_eq!(out.last_evaluated_key.unwrap()["pk"].as_s(), Some("a"));
        // An empty page is not the same as no page: it stays `Some(vec![])`.
        let empty = output(Some(vec![]), 0, 1, None, None, None, None).unwrap();
        assert_eq!(empty.items, Some(vec![]));
        assert_eq!(empty.last_evaluated_key, None);
    }

    #[test]
    fn a_request_sets_the_fields_present_and_keeps_empty_maps() {
        // `present!` skips the absent fields only: an empty map is present, and DynamoDB (not this
        // backend) must answer it.
        let config = aws_sdk_dynamodb::Config::builder()
            .behavior_version(aws_sdk_dynamodb::config::BehaviorVersion::latest())
            .build();
        let client = Client::from_conf(config);
        let input = QueryInput {
            table_name: "t".into(),
            key_condition_expression: Some("#k = :k".into()),
            expression_attribute_names: Some(Default::default()),
            limit: Some(3),
            scan_index_forward: Some(false),
            ..Default::default()
        };
        let request = query_request(&client, input, None).unwrap();
        assert_eq!(request.get_table_name().as_deref(), Some("t"));
        assert_eq!(
            request.get_key_condition_expression().as_deref(),
            Some("#k = :k")
        );
        assert_eq!(
            request.get_expression_attribute_names(),
            &Some(Default::default())
        );
        assert_eq!(request.get_expression_attribute_values(), &None);
        assert_eq!(
            (request.get_limit(), request.get_scan_index_forward()),
            (&Some(3), &Some(false))
        );
        assert_eq!(request.get_index_name(), &None);
    }

    fn client() -> Client {
        let config = aws_sdk_dynamodb::Config::builder()
            .behavior_version(aws_sdk_dynamodb::config::BehaviorVersion::latest())
            .build();
        Client::from_conf(config)
    }

    #[test]
    fn numbered_names_and_values_make_the_maps_the_rendered_ones_make() {
        let numbered = NumberedAttributes {
            names: (0..12).map(|i| format!("a{i}")).collect(),
            values: vec![AttributeValue::S("x".into()), AttributeValue::N(12.into())],
        };
        let (names, values) = numbered.clone().into_maps();
        let rendered = QueryInput {
            table_name: "t".into(),
            expression_attribute_names: Some(names),
            expression_attribute_values: Some(values),
            ..Default::default()
        };
        let bare = QueryInput {
            table_name: "t".into(),
            ..Default::default()
        };
        let one = query_request(&client(), rendered, None).unwrap();
        let other = query_request(&client(), bare.clone(), Some(numbered)).unwrap();
        assert_eq!(
            one.get_expression_attribute_names(),
            other.get_expression_attribute_names()
        );
        assert_eq!(
            one.get_expression_attribute_values(),
            other.get_expression_attribute_values()
        );
        assert_eq!(
            other.get_expression_attribute_values().as_ref().unwrap()[":v1"],
            SdkValue::N("12".into())
        );
        // Nothing numbered: no map is made.
        let none = query_request(&client(), bare, Some(NumberedAttributes::default())).unwrap();
        assert_eq!(none.get_expression_attribute_names(), &None);
        assert_eq!(none.get_expression_attribute_values(), &None);
    }

    #[test]
    fn numbered_names_are_added_to_the_inputs_own() {
        let input = QueryInput {
            table_name: "t".into(),
            expression_attribute_names: Some([("#x".to_owned(), "x".to_owned())].into()),
            expression_attribute_values: Some(Item::new()),
            ..Default::default()
        };
        let numbered = NumberedAttributes {
            names: vec!["pk".into()],
            values: vec![],
        };
        let request = query_request(&client(), input, Some(numbered)).unwrap();
        let names = request.get_expression_attribute_names().as_ref().unwrap();
        assert_eq!(names.len(), 2);
        assert_eq!((names["#x"].as_str(), names["#n0"].as_str()), ("x", "pk"));
        // The input's empty value map is sent as it is: DynamoDB answers it.
        assert_eq!(
            request.get_expression_attribute_values(),
            &Some(SdkItem::new())
        );
    }

    #[test]
    fn empty_expression_maps_are_sent_not_dropped() {
        // DynamoDB rejects an empty ExpressionAttributeValues with its own message; dropping it here would
        // hide that error from the caller.
        assert_eq!(values(Some(Item::new())), Some(SdkItem::new()));
        assert_eq!(values(None), None);
        assert_eq!(names(Some(Default::default())), Some(Default::default()));
    }
}
