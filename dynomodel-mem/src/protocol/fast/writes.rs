//! A BatchWriteItem table's write requests past 25, and a TransactWriteItems' actions past 100: the
//! compact form of an over-long list of writes.
//!
//! Such a list is refused by the backend with a message that echoes every entry in Java's
//! `toString` form (`ops/batch/render.rs`, `ops/transact/render.rs`), so every entry must still be
//! decoded to its typed request (its item sorted by name, its numbers normalised). What the entries
//! past the limit need not be is a skeleton: a `serde_json::Map` per entry and per action, walked by
//! the model check, then looked up member by member by the decoder (`protocol::batch`,
//! `protocol::transact`), building paths for messages that nobody asks for. Once a list holds more
//! than the limit, each further entry is read straight into its typed request ([`WriteRequest`],
//! [`TransactWriteItem`]) and all of them are kept in one slot ([`Slot::Writes`],
//! [`Slot::Actions`]) whose marker stands at the end of the skeleton's list; the decoder appends
//! them after the entries it decodes. In the first over-long list of a body, the entries of the usual
//! shapes are not read here at all: they are cut out of the body and scanned (`splice`), and come
//! first among the list's entries past the limit. And a body's first list of writes made only of
//! such entries, within its limit, is cut out whole (`splice::Awaited`): its slot then stands for every
//! entry of the list, the skeleton's list holding the marker alone.
//!
//! An entry is read here only when the exact path decodes it to the same typed request *without
//! recording anything*: exactly one request (or action) set, each member one of its shape's, sent
//! once, not `null`, of its JSON type, every required member present, a string within its shape's
//! constraints (an action's `TableName` excepted: the model check leaves it to the backend, which
//! still sees it), `ReturnValuesOnConditionCheckFailure` one of its values, each item and names map
//! read by the one pass's own readers without a flaw. Anything else is an anomaly and the request
//! goes to the exact path, which reports it in DynamoDB's order: a second action, no action, an
//! unknown member (which DynamoDB ignores, but which is not worth a second reader), `null`, a missing
//! member, a bad enum, a flawed value, a type error. So the typed request is the exact path's, entry
//! for entry, and every answer (the length message, a second validation error beside it, or no
//! error at all) is the backend's own, from the same input.

use std::fmt;

use dynomodel::backend::{
    ExpressionAttributeNames, ReturnValuesOnConditionCheckFailure, TransactConditionCheck,
    TransactDelete, TransactPut, TransactUpdate, TransactWriteItem, WriteRequest,
};
use dynomodel::Item;
use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;

use super::scan::{self, Shapes};
use super::skeleton::Seed;
use super::splice::{Awaited, Scanned};
use super::value::{anomaly, sorted, Av};
use super::{Predecoded, Slot};
use crate::ops::batch::MAX_WRITES;
use crate::ops::transact::MAX_ACTIONS;
use crate::protocol::item::ON_CONDITION_FAILURE;
use crate::protocol::model::{self, Kind, Member, Service};

/// The model's names of the elements of the two lists read in compact form past their limits.
pub(crate) const ELEMENTS: [&str; 2] = [WRITE_REQUEST, TRANSACT_WRITE_ITEM];
const WRITE_REQUEST: &str = "WriteRequest";
const TRANSACT_WRITE_ITEM: &str = "TransactWriteItem";

/// Whether elements of the shape named `name` are read in compact form past their list's limit.
pub(super) fn is_element(name: &str) -> bool {
    ELEMENTS.contains(&name)
}

/// A list of `member` shapes (a `WriteRequest` or a `TransactWriteItem`, [`is_element`]): its first
/// entries up to the limit as the skeleton reads any list, the rest in compact form (module docs).
pub(super) struct WriteList<'b> {
    pub(super) seed: Seed<'b>,
    pub(super) member: usize,
}

impl<'de> Visitor<'de> for WriteList<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of writes")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Value, A::Error> {
        let transact = self.seed.service().shapes[self.member].name == TRANSACT_WRITE_ITEM;
        let limit = if transact { MAX_ACTIONS } else { MAX_WRITES };
        let splice = self.seed.splice();
        let list = splice.next_list();
        let mut out = Vec::new();
        // In a parse that may cut, the first entry's first key says where the list begins: a
        // list of the scanner's entries within its limit is cut out whole (`splice::Awaited`).
        if splice.armed()
            && let Some(shapes) = self.shapes(transact)
        {
            splice.await_first(Awaited {
                list,
                transact,
                limit,
                shapes,
            });
        }
        while out.len() < limit {
            // One call site of the element's read (a second put serde_json's reads out of line).
            let element = seq.next_element_seed(self.seed.at(self.member));
            splice.stop_awaiting();
            match element? {
                Some(element) => out.push(element),
                None => break,
            }
        }
        // Past the limit: first the entries the parse before cut out of the body (`splice`).
        let (mut writes, mut actions) = match splice.take_scanned(list) {
            Some(Scanned::Writes(writes)) => (writes, Vec::new()),
            Some(Scanned::Actions(actions)) => (Vec::new(), actions),
            None => (Vec::new(), Vec::new()),
        };
        if out.len() == limit {
            // In a parse that may cut, the first entry as its raw text, which says where the
            // entries begin in the body; the parse stops if the cut is made.
            if splice.armed()
                && let Some(raw) = seq.next_element::<&'de RawValue>()?
            {
                if let Some(shapes) = self.shapes(transact)
                    && splice.try_cut(list, raw.get(), transact, shapes)
                {
                    return Err(A::Error::custom(anomaly()));
                }
                let entry = self.entry(raw.get())?;
                self.push(entry, &mut writes, &mut actions)?;
            }
            while let Some(entry) = seq.next_element_seed(Compact(self.seed.at(self.member)))? {
                self.push(entry, &mut writes, &mut actions)?;
            }
        }
        let slot = match (transact, writes.is_empty(), actions.is_empty()) {
            (_, true, true) => None,
            (true, true, false) => Some(Slot::Actions(actions)),
            (false, false, true) => Some(Slot::Writes(writes)),
            _ => return Err(A::Error::custom(anomaly())),
        };
        if let Some(slot) = slot {
            out.push(Predecoded::mark(self.seed.slots_mut(), slot));
        }
        Ok(Value::Array(out))
    }
}

impl WriteList<'_> {
    /// The shapes the scanner needs for this list's entries.
    fn shapes(&self, transact: bool) -> Option<Shapes> {
        let (put, delete) = match transact {
            true => ("Put", "Delete"),
            false => ("PutRequest", "DeleteRequest"),
        };
        Shapes::of(self.seed.service(), self.member, put, delete)
    }

    /// `entry`, typed into `actions` (a transaction's list) or `writes`.
    fn push<E: serde::de::Error>(
        &self,
        entry: Entry,
        writes: &mut Vec<WriteRequest>,
        actions: &mut Vec<TransactWriteItem>,
    ) -> Result<(), E> {
        let pushed = match self.seed.service().shapes[self.member].name == TRANSACT_WRITE_ITEM {
            true => into_action(entry).map(|action| actions.push(action)),
            false => into_write(entry).map(|write| writes.push(write)),
        };
        pushed.ok_or_else(|| E::custom(anomaly()))
    }

    /// An entry the scanner declined, read from its raw `text` by the seeds ([`Compact`]) with a
    /// parser of its own. That parser counts the entry's nesting from its start, the request's from
    /// the body's: an entry nested near serde_json's limit goes to the exact path, which parses the
    /// body whole. Any error is an anomaly (the text is JSON: serde_json's scan checked it).
    fn entry<E: serde::de::Error>(&mut self, text: &str) -> Result<Entry, E> {
        if scan::nests_deeper_than(text, ENTRY_DEPTH) {
            return Err(E::custom(anomaly()));
        }
        let mut parser = serde_json::Deserializer::from_str(text);
        Compact(self.seed.at(self.member))
            .deserialize(&mut parser)
            .and_then(|entry| parser.end().map(|()| entry))
            .map_err(|_| E::custom(anomaly()))
    }
}

/// The deepest nesting of an entry read apart from its request: well within serde_json's limit of
/// 128 levels less the request's own (three at most above an entry).
const ENTRY_DEPTH: usize = 100;

/// One entry of a list of writes, read in compact form: the request (or action) it sets and that
/// request's members.
struct Entry {
    /// The member of the entry that is set (`PutRequest`, `Update`, …).
    set: &'static str,
    fields: Fields,
}

/// The members of a write request or action, as sent.
#[derive(Default)]
struct Fields {
    /// `Item` or `Key`.
    item: Option<Item>,
    table_name: Option<String>,
    update_expression: Option<String>,
    condition_expression: Option<String>,
    names: Option<ExpressionAttributeNames>,
    values: Option<Item>,
    on_failure: Option<ReturnValuesOnConditionCheckFailure>,
}

/// An entry of the structure shape the seed is at (`WriteRequest`, `TransactWriteItem`), as
/// [`Entry`]: exactly one member set; `null`, another JSON type or anything else an anomaly.
struct Compact<'b>(Seed<'b>);

impl<'de> DeserializeSeed<'de> for Compact<'_> {
    type Value = Entry;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Entry, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Compact<'_> {
    type Value = Entry;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a write")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Entry, A::Error> {
        let members = structure_members(&self.0)?;
        let Some(index) = map.next_key_seed(MemberName(members))? else {
            // No request or action: the decoder's own message.
            return Err(A::Error::custom(anomaly()));
        };
        let member = &members[index];
        let fields = map.next_value_seed(Request(self.0.at(member.shape)))?;
        // A second member (a second action, or the same one twice): the decoder's, or the exact
        // tree's last-wins.
        if map.next_key_seed(MemberName(members))?.is_some() {
            return Err(A::Error::custom(anomaly()));
        }
        Ok(Entry {
            set: member.name,
            fields,
        })
    }
}

/// The members of the structure shape `seed` is at.
fn structure_members<E: serde::de::Error>(seed: &Seed<'_>) -> Result<&'static [Member], E> {
    match &seed.service().shapes[seed.shape()].kind {
        Kind::Structure(members) => Ok(members),
        _ => Err(E::custom(anomaly())),
    }
}

/// A member name of a structure, as its index among `members`; a name outside them is an anomaly.
#[derive(Clone, Copy)]
struct MemberName(&'static [Member]);

impl<'de> DeserializeSeed<'de> for MemberName {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<usize, D::Error> {
        de.deserialize_str(self)
    }
}

impl Visitor<'_> for MemberName {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<usize, E> {
        self.0
            .iter()
            .position(|m| m.name == name)
            .ok_or_else(|| E::custom(anomaly()))
    }
}

/// A write request or an action (the structure shape the seed is at), its members read into
/// [`Fields`]: each once, every required one present (see the module docs).
struct Request<'b>(Seed<'b>);

impl<'de> DeserializeSeed<'de> for Request<'_> {
    type Value = Fields;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Fields, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Request<'_> {
    type Value = Fields;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a write request")
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Fields, A::Error> {
        let members = structure_members(&self.0)?;
        let service = self.0.service();
        let mut fields = Fields::default();
        // The members seen, by index (a shape has at most eight).
        let mut seen = 0u32;
        while let Some(index) = map.next_key_seed(MemberName(members))? {
            let bit = 1u32 << index;
            if seen & bit != 0 {
                return Err(A::Error::custom(anomaly()));
            }
            seen |= bit;
            let member = &members[index];
            match member.name {
                "Item" | "Key" => fields.item = Some(self.item(&mut map, member.shape)?),
                "ExpressionAttributeValues" => {
                    fields.values = Some(self.item(&mut map, member.shape)?);
                }
                "ExpressionAttributeNames" => {
                    let marker = map.next_value_seed(self.0.at(member.shape))?;
                    match (marker.is_u64(), self.0.slots_mut().pop()) {
                        (true, Some(Slot::Names(names))) => fields.names = Some(names),
                        _ => return Err(A::Error::custom(anomaly())),
                    }
                }
                // The model check leaves an action's table name to the backend (`quirks.rs`).
                "TableName" => fields.table_name = Some(map.next_value()?),
                name => {
                    let text: String = map.next_value()?;
                    if !model::key_is_valid(service, member.shape, &text) {
                        return Err(A::Error::custom(anomaly()));
                    }
                    match name {
                        "UpdateExpression" => fields.update_expression = Some(text),
                        "ConditionExpression" => fields.condition_expression = Some(text),
                        "ReturnValuesOnConditionCheckFailure" => {
                            let value = ON_CONDITION_FAILURE
                                .iter()
                                .find_map(|(s, value)| (*s == text).then_some(*value))
                                .ok_or_else(|| A::Error::custom(anomaly()))?;
                            fields.on_failure = Some(value);
                        }
                        _ => return Err(A::Error::custom(anomaly())),
                    }
                }
            }
        }
        let all_required = members
            .iter()
            .enumerate()
            .all(|(i, m)| !m.required || seen & (1 << i) != 0);
        if !all_required {
            return Err(A::Error::custom(anomaly()));
        }
        Ok(fields)
    }
}

impl Request<'_> {
    /// The next value, a map of attribute values of shape `shape`, read by the one pass's reader of
    /// items ([`ItemSeed`]) without a slot; `null` or a flaw is an anomaly.
    fn item<'de, A: MapAccess<'de>>(
        &mut self,
        map: &mut A,
        shape: usize,
    ) -> Result<Item, A::Error> {
        let service = self.0.service();
        match &service.shapes[shape].kind {
            Kind::Map { key, .. } => map.next_value_seed(ItemSeed {
                service,
                key_shape: *key,
            }),
            _ => Err(A::Error::custom(anomaly())),
        }
    }
}

/// A map of attribute values whose keys have the shape `key_shape`, without a flaw.
struct ItemSeed {
    service: &'static Service,
    key_shape: usize,
}

impl<'de> DeserializeSeed<'de> for ItemSeed {
    type Value = Item;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Item, D::Error> {
        de.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ItemSeed {
    type Value = Item;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map of attribute values")
    }

    /// Each member's name checked against the key shape and its value read by [`Av`] (a flaw is an
    /// anomaly); members of the same name keep the last, as [`sorted`] does for the one pass. The
    /// first member is held on its own: the usual item of one (a key, a small write) then costs no
    /// vector, only its tree's one insert (the vector was an eighth of reading such an entry).
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Item, A::Error> {
        let mut item = Item::new();
        let Some(first) = self.member(&mut map)? else {
            return Ok(item);
        };
        let Some(second) = self.member(&mut map)? else {
            item.insert(first.0, first.1);
            return Ok(item);
        };
        let mut members = vec![first, second];
        while let Some(member) = self.member(&mut map)? {
            members.push(member);
        }
        Ok(sorted(members))
    }
}

impl ItemSeed {
    /// The next member of the map, its name checked against the key shape.
    #[inline]
    fn member<'de, A: MapAccess<'de>>(
        &self,
        map: &mut A,
    ) -> Result<Option<(String, dynomodel::AttributeValue)>, A::Error> {
        let Some(name) = map.next_key::<String>()? else {
            return Ok(None);
        };
        if !model::key_is_valid(self.service, self.key_shape, &name) {
            return Err(A::Error::custom(anomaly()));
        }
        let value = map.next_value_seed(Av)?;
        Ok(Some((name, value)))
    }
}

/// A `WriteRequest` read in compact form, typed.
fn into_write(entry: Entry) -> Option<WriteRequest> {
    let item = entry.fields.item?;
    match entry.set {
        "PutRequest" => Some(WriteRequest::Put { item }),
        "DeleteRequest" => Some(WriteRequest::Delete { key: item }),
        _ => None,
    }
}

/// A `TransactWriteItem` read in compact form, typed as `protocol::transact` types it.
fn into_action(entry: Entry) -> Option<TransactWriteItem> {
    let f = entry.fields;
    let table_name = f.table_name?;
    let key = f.item?;
    Some(match entry.set {
        "Put" => TransactWriteItem::Put(TransactPut {
            table_name,
            item: key,
            condition_expression: f.condition_expression,
            expression_attribute_names: f.names,
            expression_attribute_values: f.values,
            return_values_on_condition_check_failure: f.on_failure,
        }),
        "Delete" => TransactWriteItem::Delete(TransactDelete {
            table_name,
            key,
            condition_expression: f.condition_expression,
            expression_attribute_names: f.names,
            expression_attribute_values: f.values,
            return_values_on_condition_check_failure: f.on_failure,
        }),
        "Update" => TransactWriteItem::Update(TransactUpdate {
            table_name,
            key,
            update_expression: f.update_expression?,
            condition_expression: f.condition_expression,
            expression_attribute_names: f.names,
            expression_attribute_values: f.values,
            return_values_on_condition_check_failure: f.on_failure,
        }),
        "ConditionCheck" => TransactWriteItem::ConditionCheck(TransactConditionCheck {
            table_name,
            key,
            condition_expression: f.condition_expression?,
            expression_attribute_names: f.names,
            expression_attribute_values: f.values,
            return_values_on_condition_check_failure: f.on_failure,
        }),
        _ => return None,
    })
}

/// What the seeds make of one entry's `text` (a `TransactWriteItem` with `transact`, else a
/// `WriteRequest`), read apart as [`WriteList`] reads an entry the scanner declines: the scanner's
/// oracle. `Err` for an anomaly.
#[cfg(test)]
pub(super) fn by_seeds(
    transact: bool,
    text: &str,
) -> Result<Result<WriteRequest, TransactWriteItem>, ()> {
    let operation = if transact {
        "TransactWriteItems"
    } else {
        "BatchWriteItem"
    };
    let (service, input) = model::input_of(operation).ok_or(())?;
    let name = if transact {
        TRANSACT_WRITE_ITEM
    } else {
        WRITE_REQUEST
    };
    let member = service
        .shapes
        .iter()
        .position(|shape| shape.name == name)
        .ok_or(())?;
    let mut slots = Vec::new();
    let splice = super::splice::Splice::off();
    let members = std::cell::Cell::new(0);
    let shared = super::skeleton::Shared::new(service, input, false, &splice, &members);
    let mut list = WriteList {
        seed: Seed::new(&shared, input, &mut slots),
        member,
    };
    let entry = list.entry::<serde_json::Error>(text).map_err(|_| ())?;
    match transact {
        true => into_action(entry).map(Err).ok_or(()),
        false => into_write(entry).map(Ok).ok_or(()),
    }
}

/// The scanner's shapes of the list of `TransactWriteItem`s (`transact`) or `WriteRequest`s.
#[cfg(test)]
pub(super) fn shapes(transact: bool) -> Shapes {
    let operation = if transact {
        "TransactWriteItems"
    } else {
        "BatchWriteItem"
    };
    let (service, _) = model::input_of(operation).unwrap_or_else(|| unreachable!());
    let (name, put, delete) = if transact {
        (TRANSACT_WRITE_ITEM, "Put", "Delete")
    } else {
        (WRITE_REQUEST, "PutRequest", "DeleteRequest")
    };
    let member = service
        .shapes
        .iter()
        .position(|shape| shape.name == name)
        .unwrap_or_else(|| unreachable!());
    Shapes::of(service, member, put, delete).unwrap_or_else(|| unreachable!())
}
