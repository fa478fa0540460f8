//! The request's skeleton, parsed by the shapes of the service model: structures, lists and maps as
//! `Value`s, scalars as serde_json parses them, attribute values and maps of them decoded by
//! `super::value`, `ExpressionAttributeNames` by `super::names`, PartiQL parameters by
//! `super::parameters` and the legacy parameters by `super::legacy`, all replaced by markers.

use std::cell::Cell;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde::Deserialize as _;
use serde_json::{Map, Value};

use super::keys::KeyList;
use super::legacy::{self, Parameter};
use super::legacy_scan::Cut;
use super::names::{Names, Raw};
use super::oversized::Budget;
use super::parameters::{self, Parameters};
use super::splice::Splice;
use super::unused;
use super::unused_values::{self, Values, VALUES};
use super::value::{
    anomaly, spelled_key, spelled_key_of_one, Attribute, FirstFlaw, KeyMember, MapReader, SpelledAv,
};
use super::writes::{self, WriteList};
use super::{Predecoded, Slot};
use crate::expr::substitution;
use crate::protocol::model::{self, Kind, Member, Service};
use dynomodel::{item_size, MAX_ITEM_SIZE};

/// The model's name of the attribute value shape.
const ATTRIBUTE_VALUE: &str = "AttributeValue";
/// The model's names of PutItem's input and of its `Item`'s shape.
const PUT_INPUT: &str = "PutItemInput";
const PUT_ITEM: &str = "PutItemInputAttributeMap";
/// The member of a request that holds its `ExpressionAttributeNames`.
const NAMES: &str = "ExpressionAttributeNames";
/// The model's names of the PartiQL operations' inputs.
const PARTIQL_INPUTS: [&str; 3] = [
    "ExecuteStatementInput",
    "BatchExecuteStatementInput",
    "ExecuteTransactionInput",
];
/// The members of a PartiQL statement that hold its text and its parameters (`parameters`).
const STATEMENT: &str = "Statement";
const PARAMETERS: &str = "Parameters";

/// What the seeds of one request read alike, behind one reference: a seed is made for every value
/// of the request, so each field it copies costs every request.
pub(super) struct Shared<'b> {
    service: &'static Service,
    /// Maps of attribute values are BatchGetItem keys, kept with their spellings ([`Slot::Key`]).
    keys: bool,
    /// The request is a PutItem's, whose `Item` past its size limit is checked and not built
    /// (`oversized`).
    put: bool,
    /// The request is a PartiQL one, whose statements' `Parameters` are read knowing their
    /// statement (`parameters`): other requests do not compare their members' names with it.
    partiql: bool,
    /// An over-long list of writes cut out of the body and scanned (`splice`).
    splice: &'b Splice<'b>,
    /// How many members the map of attribute values read last had (at most [`MEMBERS_HINT`]):
    /// the room the next one's vector starts with, serde_json giving no size hint. A batch's or
    /// a transaction's items are alike, and an item of thousands of members grew its vector by
    /// doubling.
    /// A reference, so that the seeds' shared fields stay free of interior mutability: with the
    /// cell itself here, BatchGetItem's keys past the limit cost 6 % more (the reads of this
    /// struct through the seeds' reference optimised apart).
    members: &'b Cell<usize>,
    /// The body parsed, in which entries of `ExpressionAttributeValues` checked and not built are
    /// found again (`unused_values`); empty when not given ([`Shared::reading`]).
    text: &'b str,
    /// A legacy map cut out of the body and scanned (`legacy_scan`).
    legacy: Option<&'b Cut<'b>>,
}

/// The most members a map's vector is given room for from the map read before it (~900 KB): a
/// small map after a large one must not ask for megabytes.
const MEMBERS_HINT: usize = 16_384;

impl<'b> Shared<'b> {
    /// A request whose input shape is `input`; `keys`: its maps of attribute values are
    /// BatchGetItem keys; `members`: the cell of [`Shared::members`], 0 to begin with.
    pub(super) fn new(
        service: &'static Service,
        input: usize,
        keys: bool,
        splice: &'b Splice<'b>,
        members: &'b Cell<usize>,
    ) -> Self {
        Shared {
            service,
            keys,
            put: service.shapes[input].name == PUT_INPUT,
            partiql: PARTIQL_INPUTS.contains(&service.shapes[input].name),
            splice,
            members,
            text: "",
            legacy: None,
        }
    }

    /// This request reading `text`, the body (without it, a values map's entries past its budget
    /// send the request to the exact path: `unused_values`).
    pub(super) fn reading(self, text: &'b str) -> Self {
        Shared { text, ..self }
    }

    /// This request's legacy maps cut by `legacy` (without it, none is).
    pub(super) fn cutting(self, legacy: &'b Cut<'b>) -> Self {
        Shared {
            legacy: Some(legacy),
            ..self
        }
    }

    /// The room a map of attribute values starts with (see [`Shared::members`]).
    fn members(&self) -> usize {
        self.members.get()
    }

    /// A map of attribute values of `members` members was read.
    fn read(&self, members: usize) {
        self.members.set(members.min(MEMBERS_HINT));
    }
}

/// The value of shape `shape` (see the module docs); JSON `null` stays `null` wherever it is.
pub(super) struct Seed<'b> {
    shared: &'b Shared<'b>,
    shape: usize,
    slots: &'b mut Vec<Slot>,
    /// This seed reads the request itself, whose `ExpressionAttributeNames` is decided once the
    /// whole request is read (`unused`).
    top: bool,
}

impl<'b> Seed<'b> {
    /// The seed of the request `shared` describes (of input shape `shape`), storing decoded values in `slots`.
    pub(super) fn new(shared: &'b Shared<'b>, shape: usize, slots: &'b mut Vec<Slot>) -> Self {
        Seed {
            shared,
            shape,
            slots,
            top: true,
        }
    }

    pub(super) fn at(&mut self, shape: usize) -> Seed<'_> {
        Seed {
            shared: self.shared,
            shape,
            slots: self.slots,
            top: false,
        }
    }

    /// The over-long list of writes cut out of this body, or to be (`splice`).
    pub(super) fn splice(&self) -> &'b Splice<'b> {
        self.shared.splice
    }

    pub(super) fn service(&self) -> &'static Service {
        self.shared.service
    }

    pub(super) fn slots(&self) -> &[Slot] {
        self.slots
    }

    pub(super) fn slots_mut(&mut self) -> &mut Vec<Slot> {
        self.slots
    }

    /// The index of the shape this seed reads.
    pub(super) fn shape(&self) -> usize {
        self.shape
    }
}

impl<'de> DeserializeSeed<'de> for Seed<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        let shapes = self.shared.service.shapes;
        let shape = &shapes[self.shape];
        if shape.name == ATTRIBUTE_VALUE {
            return de.deserialize_any(Marked {
                seed: self,
                key: None,
            });
        }
        if matches!(shape.kind, Kind::Map { .. } | Kind::List { .. })
            && let Some(parameter) = Parameter::of(shape.name)
        {
            return legacy::Seed {
                service: self.shared.service,
                shape: self.shape,
                parameter,
                slots: self.slots,
                cut: self.shared.legacy,
            }
            .deserialize(de);
        }
        match &shape.kind {
            Kind::List { .. } if shape.name == model::PARAMETER_LIST => {
                de.deserialize_any(Parameters {
                    service: self.shared.service,
                    shape: self.shape,
                    slots: self.slots,
                    statement: None,
                })
            }
            Kind::Map { key, value, .. } if shape.name == model::NAME_MAP => {
                de.deserialize_any(Names {
                    service: self.shared.service,
                    key: *key,
                    value: *value,
                    slots: self.slots,
                })
            }
            Kind::Map { key, value, .. } if shapes[*value].name == ATTRIBUTE_VALUE => {
                let key = Some(*key);
                de.deserialize_any(Marked { seed: self, key })
            }
            Kind::Structure(members) => de.deserialize_any(Structure {
                seed: self,
                members,
            }),
            Kind::List { member, .. } => {
                let member = *member;
                // A BatchGetItem table's `Keys`: past the limit, checked and not built.
                if let (true, Kind::Map { key, value, .. }) =
                    (self.shared.keys, &shapes[member].kind)
                    && shapes[*value].name == ATTRIBUTE_VALUE
                {
                    let key_shape = *key;
                    return de.deserialize_any(KeyList {
                        seed: self,
                        member,
                        key_shape,
                    });
                }
                // Write requests and transaction actions: past the limit, in compact form.
                if writes::is_element(shapes[member].name) {
                    return de.deserialize_any(WriteList { seed: self, member });
                }
                de.deserialize_any(List { seed: self, member })
            }
            Kind::Map { value, .. } => {
                let value = *value;
                de.deserialize_any(Entries { seed: self, value })
            }
            _ => Value::deserialize(de),
        }
    }
}

/// A structure: its members by their shapes, unknown members as plain `Value`s (the exact path
/// ignores them, but keeps them in its tree; so does the skeleton).
struct Structure<'b> {
    seed: Seed<'b>,
    members: &'static [Member],
}

impl<'de> Visitor<'de> for Structure<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a structure")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        // The request's own `ExpressionAttributeNames` and `ExpressionAttributeValues` (the last
        // ones sent), the one read but not built and the other built in part until its
        // expressions are known (`unused`, `unused_values`).
        let mut names = None;
        let mut values = None;
        // How many values of a PartiQL statement's `Parameters` were built, if it was reduced to
        // them (`parameters`).
        let mut reduced = None;
        // A list of writes' first entry: its first key read by the splice, which may cut the
        // whole list there (`splice::Awaited`).
        let mut first = None;
        if self.seed.shared.splice.awaits() {
            first = self.seed.shared.splice.first_key(&mut map)?;
        }
        while let Some(name) = match first.take() {
            Some(name) => Some(name),
            None => map.next_key::<String>()?,
        } {
            let member = self.members.iter().find(|m| m.name == name);
            // The request's own names or values map, by its key (and value) shapes; one call of
            // the member's seed below, not two (two call sites put it out of line, a call per
            // member).
            let own = match member {
                Some(member)
                    if self.seed.shared.partiql
                        && member.name == PARAMETERS
                        && self.seed.shared.service.shapes[member.shape].name
                            == model::PARAMETER_LIST =>
                {
                    Own::Parameters(member.shape)
                }
                Some(member) if self.seed.top => {
                    let shape = &self.seed.shared.service.shapes[member.shape];
                    match &shape.kind {
                        Kind::Map { key, value, .. } if shape.name == model::NAME_MAP => {
                            Own::Names(*key, *value)
                        }
                        Kind::Map { key, .. } if member.name == VALUES => Own::Values(*key),
                        _ => Own::Neither,
                    }
                }
                _ => Own::Neither,
            };
            let value = match (member, own) {
                (_, Own::Names(key, value)) => {
                    names = map.next_value_seed(Raw {
                        service: self.seed.shared.service,
                        key,
                        value,
                    })?;
                    Value::Null
                }
                (_, Own::Values(key)) => {
                    values = map.next_value_seed(Values {
                        service: self.seed.shared.service,
                        key,
                        text: self.seed.shared.text,
                        request: &out,
                    })?;
                    Value::Null
                }
                (_, Own::Parameters(shape)) => {
                    let statement = out.get(STATEMENT).and_then(Value::as_str);
                    let marker = map.next_value_seed(Parameters {
                        service: self.seed.shared.service,
                        shape,
                        slots: self.seed.slots,
                        statement,
                    })?;
                    reduced = match self.seed.slots.last() {
                        Some(Slot::ReducedParameters(values)) if marker.is_u64() => {
                            Some(values.len())
                        }
                        _ => None,
                    };
                    marker
                }
                (Some(member), Own::Neither) => map.next_value_seed(self.seed.at(member.shape))?,
                (None, Own::Neither) => map.next_value::<Value>()?,
            };
            out.insert(name, value);
        }
        // A statement sent again after the parameters: still fewer `?` than the values built.
        if let Some(built) = reduced
            && out
                .get(STATEMENT)
                .and_then(Value::as_str)
                .is_none_or(|statement| parameters::marks(statement) >= built)
        {
            return Err(A::Error::custom(anomaly()));
        }
        // What the names measure for the maps' caps, which a map about to be reduced asks about.
        let names_size = names.as_deref().map_or(0, unused::size);
        if let Some(entries) = names {
            let values_size = || values.as_ref().map_or(0, unused_values::Read::size);
            let maps_over = || substitution::over(names_size, values_size()).is_some();
            let marker = unused::names(entries, &out, self.seed.slots, maps_over);
            out.insert(NAMES.to_owned(), marker);
        }
        if let Some(read) = values {
            let text = self.seed.shared.text;
            let marker = unused_values::values(read, &out, self.seed.slots, text, names_size)
                .ok_or_else(|| A::Error::custom(anomaly()))?;
            out.insert(VALUES.to_owned(), marker);
        }
        Ok(Value::Object(out))
    }
}

/// Which of the request's own placeholder maps a member is (`unused`, `unused_values`).
enum Own {
    /// `ExpressionAttributeNames`, its key and value shapes.
    Names(usize, usize),
    /// `ExpressionAttributeValues`, its key shape.
    Values(usize),
    /// A PartiQL statement's `Parameters`, its shape (`parameters`).
    Parameters(usize),
    Neither,
}

/// A list of `member` shapes.
struct List<'b> {
    seed: Seed<'b>,
    member: usize,
}

impl<'de> Visitor<'de> for List<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(element) = seq.next_element_seed(self.seed.at(self.member))? {
            out.push(element);
        }
        Ok(Value::Array(out))
    }
}

/// A map of `value` shapes (other than attribute values).
struct Entries<'b> {
    seed: Seed<'b>,
    value: usize,
}

impl<'de> Visitor<'de> for Entries<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Value, A::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0));
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(self.seed.at(self.value))?;
            entries.push((key, value));
        }
        // Sorted and built at once, as `value::sorted` builds an item (a tree insert per entry was
        // half the cost of a large `ExpressionAttributeNames`); of entries of the same key the last
        // one is kept, as serde_json's `Value` keeps it for the exact path.
        Ok(Value::Object(entries.into_iter().collect()))
    }
}

/// An attribute value (`key: None`) or a map of them whose keys have the shape `key`, decoded and
/// replaced by its marker.
struct Marked<'b> {
    seed: Seed<'b>,
    key: Option<usize>,
}

impl<'de> Visitor<'de> for Marked<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an attribute value or a map of them")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let Some(key_shape) = self.key else {
            let flaw = FirstFlaw::default();
            let value = Attribute {
                flaw: Some(&flaw),
                budget: None,
            }
            .visit_map(map)?;
            let slot = match flaw.take() {
                None => Slot::Value(value),
                Some(message) => Slot::FlawedValue(value, message),
            };
            return Ok(Predecoded::mark(self.seed.slots, slot));
        };
        let service = self.seed.shared.service;
        if self.seed.shared.keys {
            // A key has one member, or two: one is kept without a vector.
            let slot = match key_member(&mut map, service, key_shape)? {
                None => spelled_key(Vec::new()),
                Some(first) => match key_member(&mut map, service, key_shape)? {
                    None => spelled_key_of_one(first),
                    Some(second) => {
                        let mut members = vec![first, second];
                        while let Some(member) = key_member(&mut map, service, key_shape)? {
                            members.push(member);
                        }
                        spelled_key(members)
                    }
                },
            };
            return Ok(Predecoded::mark(self.seed.slots, Slot::Key(slot.0, slot.1)));
        }
        // Not shared with another reader of items: called out of line (or inlined by force), a
        // valid item of thousands of members cost 1-3 % more (the parser's key reads inlined
        // otherwise).
        let flaw = FirstFlaw::default();
        let budget = Budget::default();
        let hint = map
            .size_hint()
            .unwrap_or_else(|| self.seed.shared.members());
        let mut reader = MapReader::new(hint, true, &flaw);
        let put_item = self.seed.shared.put
            && self.seed.shared.service.shapes[self.seed.shape].name == PUT_ITEM;
        if put_item {
            reader.budget = Some(&budget);
        }
        let name_ok = |name: &str| model::key_is_valid(service, key_shape, name);
        while let Some(name) = map.next_key::<String>()? {
            if !name_ok(&name) {
                return Err(A::Error::custom(anomaly()));
            }
            reader.member(&mut map, name)?;
            if reader.over() {
                reader.check_rest(&mut map, name_ok)?;
                break;
            }
        }
        let read = reader.finish()?;
        self.seed.shared.read(read.0.len());
        let slot = match read {
            // Checked in part and not built: the part built must be past the limit itself (see
            // `oversized`).
            (item, _) if budget.skipped() && item_size(&item) <= MAX_ITEM_SIZE => {
                return Err(A::Error::custom(anomaly()));
            }
            (item, flaw) if budget.skipped() => Slot::PartialItem(item, flaw),
            (item, None) => Slot::Item(item),
            (item, Some(message)) => Slot::FlawedItem(item, message),
        };
        Ok(Predecoded::mark(self.seed.slots, slot))
    }
}

/// The next member of a BatchGetItem key whose names have the shape `key_shape`, with its `N`'s text.
fn key_member<'de, A: MapAccess<'de>>(
    map: &mut A,
    service: &Service,
    key_shape: usize,
) -> Result<Option<KeyMember>, A::Error> {
    let Some(name) = map.next_key::<String>()? else {
        return Ok(None);
    };
    if !model::key_is_valid(service, key_shape, &name) {
        return Err(A::Error::custom(anomaly()));
    }
    let (value, text) = map.next_value_seed(SpelledAv)?;
    Ok(Some((name, value, text)))
}
