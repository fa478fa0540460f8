//! BatchGetItem and BatchWriteItem on the wire.
//!
//! What DynamoDB sends back, and where that is recorded:
//!
//! - BatchGetItem: `{"Responses": {table: [item, …]}, "UnprocessedKeys": {table: KeysAndAttributes}}`.
//!   Both members are always there, `UnprocessedKeys` as `{}` when everything was read (dynalite's
//!   `test/batchGetItem.js`, recorded against the service; DynamoDB Local 3.3.1 answers the same). An
//!   unprocessed table echoes what the request asked of it: `Keys`, and `ConsistentRead`,
//!   `ProjectionExpression`, `ExpressionAttributeNames`, `AttributesToGet` when they were given.
//! - BatchWriteItem: `{"UnprocessedItems": {}}` when every write was made (dynalite's
//!   `test/batchWriteItem.js`; DynamoDB Local), else `{table: [{"PutRequest": {"Item": …}} |
//!   {"DeleteRequest": {"Key": …}}]}`.
//! - Both: `ConsumedCapacity` (a list, one entry per table) and, on BatchWriteItem,
//!   `ItemCollectionMetrics` (table → list) when the backend reported them (see `capacity.rs`).
//!
//! What is checked here, in DynamoDB's order (see [`super::Decoder`]):
//!
//! 1. Types (`SerializationException`): `RequestItems` a map, a table's entry a structure
//!    (BatchGetItem) or a list of structures (BatchWriteItem), `Keys` a list of maps, each attribute
//!    value a structure, `ConsistentRead` a boolean, `AttributesToGet` a list of strings (dynalite's
//!    `assertType` cases). List elements are checked in order, each to the bottom, so of two type
//!    errors the first in the body is reported (dynalite's `checkTypes`).
//! 2. A missing (or `null`) `RequestItems` is answered as an empty map is, before any member
//!    constraint: "The requestItems parameter is required for BatchWriteItem" (… for BatchGetItem).
//!    dynalite's early recording gives that answer to `{"ReturnConsumedCapacity": "hi",
//!    "ReturnItemCollectionMetrics": "hi"}`, and it is the live service's answer to an empty map in
//!    us-east-1 (nubo-db/dynamodb-conformance's 2026 captures), whose wording the engine follows; the
//!    regions with the newer validation wording, and dynalite's later recording, list "Value null at
//!    'requestItems'" among the constraints instead. The message is a rule of the typed request, so
//!    it is the backend's: the wire layer hands it an empty `RequestItems`.
//! 3. Member constraints: the enums `ReturnConsumedCapacity` and (BatchWriteItem)
//!    `ReturnItemCollectionMetrics` first, then the missing members, with the paths DynamoDB reports:
//!    a map key appears as itself and list positions count from 1 (`requestItems.t.member.keys`,
//!    `requestItems.aa;.member.1.member.putRequest.item`, all recorded by dynalite), and a
//!    `WriteRequest`'s `deleteRequest` before its `putRequest` (dynalite's recording). A JSON `null`
//!    where a table's entry, a key or a write request belongs is reported the same way, at its own path
//!    (`requestItems.t.member`, `requestItems.t.member.keys.1.member`): the wire layer's rule for null
//!    list elements (see [`super::each_structure`]). That is an inference: DynamoDB Local answers these
//!    with its own texts ("The batch write request list for a table cannot be null or empty: t").
//! 4. The first operation-specific message: a `WriteRequest` with neither or both of `PutRequest` and
//!    `DeleteRequest` is "Supplied AttributeValue has more than one datatypes set, must contain exactly
//!    one of the supported datatypes" (dynalite records it for `{}`; DynamoDB Local 3.3.1 answers it for
//!    both, and for `{"PutRequest": null}`), reported before the attribute values of that table's
//!    items; then attribute values ([`super::value`]); then the legacy `AttributesToGet`, which is
//!    rejected rather than ignored (as the single-item operations do).
//!
//! Everything that can be checked on the typed request (table names, the 100-key and 25-request
//! limits, duplicate keys, key schemas, item sizes, the projection) is the backend's job, so that Rust
//! users of [`dynomodel_mem::MemBackend`](crate::MemBackend) get the same checks. Tables are decoded in
//! the order of the JSON map's keys (sorted); DynamoDB reports them in its hash map's order, which no
//! client can rely on.

use std::collections::{BTreeMap, HashSet};

use dynomodel::backend::{
    Backend, BatchGetItemInput, BatchGetItemOutput, BatchWriteItemInput, BatchWriteItemOutput,
    KeysAndAttributes, WriteRequest,
};
use dynomodel::Item;
use serde_json::{Map, Value};

use super::capacity::{
    consumed_list_member, metrics_per_table_member, return_consumed_capacity,
    return_item_collection_metrics,
};
use super::fast::Predecoded;
use super::item::{names, required_item};
use super::json::{self, Array, Object};
use super::legacy::attributes_to_get;
use super::types::{list, structure};
use super::value::{parse_item, spelling_matters, write_item, SEVERAL_TYPES};
use super::{each_structure, Decoder, Members, WireResult};

/// One table's `KeysAndAttributes`, at `requestItems.<table>.member`.
fn keys_and_attributes(m: &Members<'_>, d: &mut Decoder) -> WireResult<KeysAndAttributes> {
    let mut keys = Vec::new();
    let keys_path = m.path_of("Keys");
    match m.list("Keys")? {
        None => d.null(&keys_path),
        Some(elements) => {
            keys.reserve_exact(elements.len());
            let mut spellings = Vec::with_capacity(elements.len());
            let mut nulls = false;
            for (i, element) in elements.iter().enumerate() {
                // Past the limit, once the list is sure to be refused for its length, the one pass
                // checks the keys without building them (`fast::keys`): the backend's refusal of
                // the first ones (more than 100) is the list's, and shows no key.
                if d.predecoded.is_counted_key(element) {
                    continue;
                }
                match key_as_sent(element, d)? {
                    Some((key, spelling)) => {
                        keys.push(key);
                        spellings.push(spelling);
                    }
                    None => {
                        nulls = true;
                        d.null(&format!("{keys_path}.{}.member", i + 1));
                    }
                }
            }
            if !nulls {
                keys = without_respellings(keys, &spellings);
            }
        }
    }
    Ok(KeysAndAttributes {
        keys,
        consistent_read: m.boolean("ConsistentRead")?,
        projection_expression: m.string("ProjectionExpression")?,
        expression_attribute_names: names(m, d)?,
        attributes_to_get: attributes_to_get(m, d)?,
    })
}

/// The key `sent` (an element of `Keys`), with its spelling where that matters
/// ([`spelling_matters`]): the JSON text serde_json prints for it. `None` for `null`. A key decoded
/// in one pass has its spelling made as it was read (`fast`), to the same bytes.
pub(super) fn key_as_sent(
    sent: &Value,
    d: &mut Decoder,
) -> WireResult<Option<(Item, Option<Vec<u8>>)>> {
    if let Some(decoded) = d.predecoded.key(sent) {
        return decoded.map(Some);
    }
    let Some(key) = parse_item(sent, d)? else {
        return Ok(None);
    };
    let spelling = spelling_matters(key.values()).then(|| {
        let mut out = Vec::new();
        json::value(&mut out, sent);
        out
    });
    Ok(Some((key, spelling)))
}

/// `keys` less the keys equal in value to an earlier one but spelled apart (`{"N": "1e3"}` after
/// `{"N": "1000"}`; `spellings` are the keys' own, see [`key_as_sent`]): DynamoDB refuses only keys
/// sent identically ("Provided list of item keys contains duplicates"), and reads an item named twice
/// once (the service's recorded answer; DynamoDB Local 3.3.1 answers alike). A typed request holds
/// each number in one canonical form and cannot tell the spellings apart, so the respelled key is
/// dropped here, and a key sent twice identically is left for the backend to refuse. Only keys with
/// a spelling (a number among scalars) are looked at.
fn without_respellings(keys: Vec<Item>, spellings: &[Option<Vec<u8>>]) -> Vec<Item> {
    if spellings.iter().all(Option::is_none) {
        return keys;
    }
    let mut values = HashSet::with_capacity(keys.len());
    let mut seen = HashSet::with_capacity(keys.len());
    let respelled: Vec<bool> = keys
        .iter()
        .zip(spellings)
        .map(|(key, spelling)| {
            let (Some(spelling), Some(form)) = (spelling, crate::ops::batch::hashable(key)) else {
                return false;
            };
            let first_spelling = seen.insert(spelling.as_slice());
            let first_value = values.insert(form);
            first_spelling && !first_value
        })
        .collect();
    keys.into_iter()
        .zip(respelled)
        .filter_map(|(key, respelled)| (!respelled).then_some(key))
        .collect()
}

pub(super) async fn batch_get_item(
    backend: &dyn Backend,
    request: &Map<String, Value>,
    predecoded: Predecoded,
) -> WireResult<Vec<u8>> {
    let m = Members::new(request);
    let mut d = Decoder::with(predecoded);
    let return_consumed_capacity = return_consumed_capacity(&m, &mut d)?;
    let Some(tables) = m.map("RequestItems")? else {
        // Answered as an empty map is, before any member constraint (see the module docs).
        let out = backend.batch_get_item(BatchGetItemInput::default()).await?;
        return Ok(batch_get_response(&out));
    };
    let mut request_items = BTreeMap::new();
    for (table, value) in tables {
        let path = format!("requestItems.{table}.member");
        match structure(value)? {
            Some(fields) => {
                let wanted = keys_and_attributes(&Members::at(fields, path), &mut d)?;
                request_items.insert(table.clone(), wanted);
            }
            None => d.null(&path),
        }
    }
    let input = d.finish(BatchGetItemInput {
        request_items,
        return_consumed_capacity,
    })?;
    let out = backend.batch_get_item(input).await?;
    Ok(batch_get_response(&out))
}

/// BatchGetItem's response: `Responses` and `UnprocessedKeys` always, `ConsumedCapacity` when
/// reported (in serde_json's order of keys, see `json.rs`).
pub(super) fn batch_get_response(out: &BatchGetItemOutput) -> Vec<u8> {
    let items: usize = out.responses.values().map(Vec::len).sum();
    let mut bytes = Vec::with_capacity(128 + items * 256);
    let mut body = Object::begin(&mut bytes);
    consumed_list_member(&mut body, &out.consumed_capacity);
    let mut responses = Object::begin(body.member("Responses"));
    for (table, items) in &out.responses {
        let mut list = Array::begin(responses.member(table));
        for item in items {
            write_item(list.element(), item);
        }
        list.end();
    }
    responses.end();
    write_unprocessed_keys(body.member("UnprocessedKeys"), &out.unprocessed_keys);
    body.end();
    bytes
}

/// Whether a `WriteRequest` sets exactly one of its two members (a JSON `null` is not set).
fn sets_one_request(fields: &Map<String, Value>) -> bool {
    let set = ["PutRequest", "DeleteRequest"]
        .iter()
        .filter(|name| fields.get(**name).is_some_and(|v| !v.is_null()))
        .count();
    set == 1
}

/// One table's write requests; `path` is `requestItems.<table>.member`.
pub(super) fn write_requests(
    elements: &[Value],
    path: &str,
    d: &mut Decoder,
) -> WireResult<Vec<WriteRequest>> {
    // Past the limit, the one pass read the requests in compact form (`fast::writes`): one marker
    // at the list's end stands for them, each decoded as below would decode it without a message.
    let (elements, past_limit) = match elements.split_last() {
        Some((last, first)) => match d.predecoded.writes(last) {
            Some(past_limit) => (first, Some(past_limit?)),
            None => (elements, None),
        },
        None => (elements, None),
    };
    // DynamoDB checks the shape of all of a table's requests before the values in them (dynalite's
    // `validations/batchWriteItem.js` order). An element that is not an object is a type error, found
    // below.
    if elements
        .iter()
        .filter_map(Value::as_object)
        .any(|fields| !sets_one_request(fields))
    {
        d.custom(SEVERAL_TYPES);
    }
    let requests = each_structure(elements, path, d, |w, d| {
        // deleteRequest's errors before putRequest's, as DynamoDB lists them.
        let delete = w.structure("DeleteRequest")?;
        let delete = delete.map(|r| required_item(&r, "Key", d)).transpose()?;
        let put = w.structure("PutRequest")?;
        let put = put.map(|r| required_item(&r, "Item", d)).transpose()?;
        Ok(match (put, delete) {
            (Some(item), _) => Some(WriteRequest::Put { item }),
            (None, Some(key)) => Some(WriteRequest::Delete { key }),
            // Already recorded as a shape error.
            (None, None) => None,
        })
    })?;
    Ok(super::transact::joined(requests, past_limit))
}

pub(super) async fn batch_write_item(
    backend: &dyn Backend,
    request: &Map<String, Value>,
    predecoded: Predecoded,
) -> WireResult<Vec<u8>> {
    let m = Members::new(request);
    let mut d = Decoder::with(predecoded);
    let return_consumed_capacity = return_consumed_capacity(&m, &mut d)?;
    let return_item_collection_metrics = return_item_collection_metrics(&m, &mut d)?;
    let Some(tables) = m.map("RequestItems")? else {
        // Answered as an empty map is, before any member constraint (see the module docs).
        let out = backend
            .batch_write_item(BatchWriteItemInput::default())
            .await?;
        return Ok(batch_write_response(&out));
    };
    let mut request_items = BTreeMap::new();
    for (table, value) in tables {
        let path = format!("requestItems.{table}.member");
        match list(value)? {
            Some(elements) => {
                let writes = write_requests(elements, &path, &mut d)?;
                request_items.insert(table.clone(), writes);
            }
            None => d.null(&path),
        }
    }
    let input = d.finish(BatchWriteItemInput {
        request_items,
        return_consumed_capacity,
        return_item_collection_metrics,
    })?;
    let out = backend.batch_write_item(input).await?;
    Ok(batch_write_response(&out))
}

/// BatchWriteItem's response: `UnprocessedItems` always, `ConsumedCapacity` and
/// `ItemCollectionMetrics` when reported (in serde_json's order of keys).
pub(super) fn batch_write_response(out: &BatchWriteItemOutput) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(64);
    let mut body = Object::begin(&mut bytes);
    consumed_list_member(&mut body, &out.consumed_capacity);
    metrics_per_table_member(&mut body, &out.item_collection_metrics);
    write_unprocessed_items(body.member("UnprocessedItems"), &out.unprocessed_items);
    body.end();
    bytes
}

/// `UnprocessedKeys` as DynamoDB sends it: the request's `KeysAndAttributes` for each table, `{}` when
/// there are none.
fn write_unprocessed_keys(out: &mut Vec<u8>, unprocessed: &BTreeMap<String, KeysAndAttributes>) {
    let mut tables = Object::begin(out);
    for (table, wanted) in unprocessed {
        write_keys_and_attributes(tables.member(table), wanted);
    }
    tables.end();
}

fn write_keys_and_attributes(out: &mut Vec<u8>, wanted: &KeysAndAttributes) {
    let mut object = Object::begin(out);
    if let Some(attributes) = &wanted.attributes_to_get {
        let mut list = Array::begin(object.member("AttributesToGet"));
        for name in attributes {
            json::string(list.element(), name);
        }
        list.end();
    }
    if let Some(consistent) = wanted.consistent_read {
        json::boolean(object.member("ConsistentRead"), consistent);
    }
    if let Some(names) = &wanted.expression_attribute_names {
        let mut map = Object::begin(object.member("ExpressionAttributeNames"));
        for (placeholder, name) in names {
            json::string(map.member(placeholder), name);
        }
        map.end();
    }
    let mut keys = Array::begin(object.member("Keys"));
    for key in &wanted.keys {
        write_item(keys.element(), key);
    }
    keys.end();
    if let Some(projection) = &wanted.projection_expression {
        json::string(object.member("ProjectionExpression"), projection);
    }
    object.end();
}

/// `UnprocessedItems` as DynamoDB sends it, `{}` when there are none.
fn write_unprocessed_items(out: &mut Vec<u8>, unprocessed: &BTreeMap<String, Vec<WriteRequest>>) {
    let mut tables = Object::begin(out);
    for (table, writes) in unprocessed {
        let mut list = Array::begin(tables.member(table));
        for write in writes {
            write_write_request(list.element(), write);
        }
        list.end();
    }
    tables.end();
}

fn write_write_request(out: &mut Vec<u8>, write: &WriteRequest) {
    let (request, member, item) = match write {
        WriteRequest::Put { item } => ("PutRequest", "Item", item),
        WriteRequest::Delete { key } => ("DeleteRequest", "Key", key),
    };
    let mut outer = Object::begin(out);
    let mut inner = Object::begin(outer.member(request));
    write_item(inner.member(member), item);
    inner.end();
    outer.end();
}

#[cfg(test)]
mod tests {
    use dynomodel::{AttributeValue, Item};
    use serde_json::json;

    use super::{key_as_sent, without_respellings};
    use crate::protocol::Decoder;

    fn key(n: &str) -> (Item, Option<Vec<u8>>) {
        let sent = json!({"p": {"N": n}});
        key_as_sent(&sent, &mut Decoder::default())
            .expect("a key")
            .expect("not null")
    }

    #[test]
    fn respelled_numbers_are_dropped_identical_ones_kept() {
        let (keys, spellings): (Vec<Item>, Vec<Option<Vec<u8>>>) =
            ["1000", "1e3", "7", "1000", "1E3"]
                .map(key)
                .into_iter()
                .unzip();
        assert_eq!(spellings[1].as_deref(), Some(&br#"{"p":{"N":"1e3"}}"#[..]));
        let kept = without_respellings(keys.clone(), &spellings);
        // The first spelling of 1000, 7, and 1000 sent again (the backend refuses the pair).
        assert_eq!(
            kept,
            vec![keys[0].clone(), keys[2].clone(), keys[3].clone()]
        );
        // Keys without a number are left as they are.
        let text = Item::from([("p".to_owned(), AttributeValue::S("a".into()))]);
        let sent = json!({"p": {"S": "a"}});
        let (decoded, spelling) = key_as_sent(&sent, &mut Decoder::default())
            .expect("a key")
            .expect("not null");
        assert_eq!((&decoded, &spelling), (&text, &None));
        let both = vec![text.clone(), text];
        assert_eq!(without_respellings(both.clone(), &[None, None]), both);
    }
}
