//! The legacy parameters in the one pass: `Expected`, `KeyConditions`, `QueryFilter`, `ScanFilter`
//! and `AttributeUpdates` maps and `AttributesToGet` lists, decoded straight into the request types
//! and replaced by a marker ([`Slot::Legacy`]), as `names.rs` does for `ExpressionAttributeNames`.
//! Such a parameter can carry hundreds of thousands of entries; its `Value` map (a map node and
//! strings per entry), the model walk of it and the exact decoder's walk were half of its cost.
//!
//! Only what breaks nothing is taken: every check the model walk and the exact decoder
//! (`protocol/legacy.rs`) would make holds (keys' and names' string constraints, the enums, a
//! condition's required `ComparisonOperator`, the lists' lengths, JSON types, no `null` entry or
//! name), and anything else, even a form the exact path accepts (a fractional number for `Exists`),
//! is an anomaly that sends the request to the exact path, which has the service's words for it.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use dynomodel::backend::{
    AttributeAction, AttributeUpdates, AttributeValueUpdate, ComparisonOperator, Conditions,
    Expected, ExpectedAttributeValue, LegacyCondition,
};
use dynomodel::AttributeValue;
use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::legacy_scan::{Cut, Scan};
use super::value::{anomaly, Av};
use super::{lost, Predecoded, Slot};
use crate::protocol::model::{self, Bounds, Kind, Service};
use crate::protocol::WireResult;

/// A legacy parameter decoded in one pass.
#[derive(Debug, PartialEq)]
pub(crate) enum Legacy {
    /// `Expected`.
    Expected(Expected),
    /// `KeyConditions`, `QueryFilter` or `ScanFilter`.
    Conditions(Conditions),
    /// `AttributeUpdates`.
    Updates(AttributeUpdates),
    /// `AttributesToGet`.
    Names(Vec<String>),
}

/// Which legacy parameter a shape of the model is.
#[derive(Debug, Clone, Copy)]
pub(super) enum Parameter {
    Expected,
    Conditions,
    Updates,
    Names,
}

impl Parameter {
    /// The parameter of the shape named `name`, if it is one (see `model::LEGACY_SHAPES`).
    pub(super) fn of(name: &str) -> Option<Parameter> {
        match name {
            "ExpectedAttributeMap" => Some(Parameter::Expected),
            "KeyConditions" | "FilterConditionMap" => Some(Parameter::Conditions),
            "AttributeUpdates" => Some(Parameter::Updates),
            "AttributeNameList" => Some(Parameter::Names),
            _ => None,
        }
    }
}

/// A legacy parameter's map or list, decoded and marked (JSON `null` stays `null`).
pub(super) struct Seed<'b> {
    pub(super) service: &'static Service,
    /// The parameter's shape (a map or a list).
    pub(super) shape: usize,
    pub(super) parameter: Parameter,
    pub(super) slots: &'b mut Vec<Slot>,
    /// The legacy map cut out of this body, or to be (`legacy_scan`).
    pub(super) cut: Option<&'b Cut<'b>>,
}

impl Seed<'_> {
    /// The map's entries: each key a valid attribute name, each value (an object: a `null` entry is
    /// a constraint) decoded as a `T`; of a key sent twice the last one is kept, as serde_json's
    /// `Value` keeps it for the exact path.
    fn entries<'de, A: MapAccess<'de>, T: Fields + Scan>(
        &self,
        mut map: A,
    ) -> Result<BTreeMap<String, T>, A::Error> {
        let Kind::Map { key, length, .. } = self.service.shapes[self.shape].kind else {
            return Err(A::Error::custom(anomaly()));
        };
        let ordinal = self.cut.map(Cut::next_map);
        // The entries the scanner read from this map's first (`legacy_scan`) come first.
        let mut entries = match self.cut.zip(ordinal) {
            Some((cut, ordinal)) => cut.take_scanned::<T>(ordinal),
            None => None,
        }
        .unwrap_or_else(|| Vec::with_capacity(map.size_hint().unwrap_or(0)));
        // Where the first name lies in the body tells where the scanner can begin.
        if let (Some(cut), Some(ordinal)) = (self.cut.filter(|cut| cut.armed()), ordinal) {
            let Some((name, address)) = map.next_key_seed(Placed)? else {
                return self.built(entries, length);
            };
            if let Some(address) = address
                && cut.try_cut::<T>(ordinal, &name, address, self.service, key)
            {
                return Err(A::Error::custom(anomaly()));
            }
            if !model::key_is_valid(self.service, key, &name) {
                return Err(A::Error::custom(anomaly()));
            }
            entries.push((name, map.next_value_seed(Entry(PhantomData::<T>))?));
        }
        while let Some(name) = map.next_key::<String>()? {
            if !model::key_is_valid(self.service, key, &name) {
                return Err(A::Error::custom(anomaly()));
            }
            entries.push((name, map.next_value_seed(Entry(PhantomData::<T>))?));
        }
        self.built(entries, length)
    }

    /// The map of `entries`, if their count is within `length`.
    fn built<T, E: serde::de::Error>(
        &self,
        entries: Vec<(String, T)>,
        length: Bounds,
    ) -> Result<BTreeMap<String, T>, E> {
        // One sort: the tree's bulk build sorts stably and keeps the last of equal keys
        // (`from_iter_keeps_the_last_of_equal_keys`), as `Value`'s map does; sorting them here first
        // as well (`last_of_each`) was a tenth of an `Expected` request.
        let entries: BTreeMap<String, T> = entries.into_iter().collect();
        if !within(length, entries.len()) {
            return Err(E::custom(anomaly()));
        }
        Ok(entries)
    }
}

/// A map's first name, with its address if serde_json borrowed it from the body (no escapes).
struct Placed;

impl<'de> DeserializeSeed<'de> for Placed {
    type Value = (String, Option<usize>);

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Placed {
    type Value = (String, Option<usize>);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a name")
    }

    fn visit_borrowed_str<E>(self, name: &'de str) -> Result<Self::Value, E> {
        Ok((name.to_owned(), Some(name.as_ptr().addr())))
    }

    fn visit_str<E>(self, name: &str) -> Result<Self::Value, E> {
        Ok((name.to_owned(), None))
    }
}

impl<'de> DeserializeSeed<'de> for Seed<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a legacy parameter")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        let legacy = match self.parameter {
            Parameter::Expected => Legacy::Expected(self.entries(map)?),
            Parameter::Conditions => Legacy::Conditions(self.entries(map)?),
            Parameter::Updates => Legacy::Updates(self.entries(map)?),
            Parameter::Names => return Err(A::Error::custom(anomaly())),
        };
        Ok(Predecoded::mark(self.slots, Slot::Legacy(legacy)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let (Parameter::Names, Kind::List { member, length }) =
            (self.parameter, &self.service.shapes[self.shape].kind)
        else {
            return Err(A::Error::custom(anomaly()));
        };
        let mut names = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        // A `null` element is a type error here: the walk reports it as a constraint.
        while let Some(name) = seq.next_element::<String>()? {
            if !model::key_is_valid(self.service, *member, &name) {
                return Err(A::Error::custom(anomaly()));
            }
            names.push(name);
        }
        if !within(*length, names.len()) {
            return Err(A::Error::custom(anomaly()));
        }
        let names = Legacy::Names(names);
        Ok(Predecoded::mark(self.slots, Slot::Legacy(names)))
    }
}

/// Whether `n` elements or entries are within `bounds`.
pub(super) fn within(bounds: Bounds, n: usize) -> bool {
    let n = i64::try_from(n).unwrap_or(i64::MAX);
    bounds.min.is_none_or(|min| n >= min) && bounds.max.is_none_or(|max| n <= max)
}

/// The structure of a map's entries, read member by member.
trait Fields: Sized {
    /// The entry of members `map`; unknown members are read and dropped, as the exact path
    /// ignores them (as `Value`s: serde_json refuses some numbers there that it would skip).
    fn read<'de, A: MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

impl Fields for ExpectedAttributeValue {
    #[inline]
    fn read<'de, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut out = ExpectedAttributeValue::default();
        while let Some(field) = map.next_key::<Field>()? {
            match field {
                Field::Value => out.value = map.next_value_seed(OptionalAv)?,
                Field::Exists => out.exists = map.next_value_seed(OptionalBool)?,
                Field::ComparisonOperator => {
                    out.comparison_operator = map.next_value_seed(Enum(operator_named))?;
                }
                Field::AttributeValueList => {
                    out.attribute_value_list = map.next_value_seed(ValueList)?;
                }
                Field::Action | Field::Other => drop(map.next_value::<Value>()?),
            }
        }
        Ok(out)
    }
}

impl Fields for LegacyCondition {
    #[inline]
    fn read<'de, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let (mut comparison_operator, mut attribute_value_list) = (None, None);
        while let Some(field) = map.next_key::<Field>()? {
            match field {
                Field::ComparisonOperator => {
                    comparison_operator = map.next_value_seed(Enum(operator_named))?;
                }
                Field::AttributeValueList => {
                    attribute_value_list = map.next_value_seed(ValueList)?;
                }
                _ => drop(map.next_value::<Value>()?),
            }
        }
        // Required: a missing one is the model's null constraint.
        let comparison_operator = comparison_operator.ok_or_else(|| A::Error::custom(anomaly()))?;
        Ok(LegacyCondition {
            comparison_operator,
            attribute_value_list,
        })
    }
}

impl Fields for AttributeValueUpdate {
    #[inline]
    fn read<'de, A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        let mut out = AttributeValueUpdate::default();
        while let Some(field) = map.next_key::<Field>()? {
            match field {
                Field::Value => out.value = map.next_value_seed(OptionalAv)?,
                Field::Action => out.action = map.next_value_seed(Enum(action_named))?,
                _ => drop(map.next_value::<Value>()?),
            }
        }
        Ok(out)
    }
}

/// A map's entry: an object of a `T`'s members.
struct Entry<T>(PhantomData<T>);

impl<'de, T: Fields> DeserializeSeed<'de> for Entry<T> {
    type Value = T;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<T, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de, T: Fields> Visitor<'de> for Entry<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an entry")
    }

    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::read(map)
    }
}

/// A member of an entry, by its name (read without a `String`).
enum Field {
    Value,
    Exists,
    ComparisonOperator,
    AttributeValueList,
    Action,
    Other,
}

impl<'de> serde::Deserialize<'de> for Field {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Field, D::Error> {
        de.deserialize_identifier(FieldVisitor)
    }
}

struct FieldVisitor;

impl Visitor<'_> for FieldVisitor {
    type Value = Field;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    #[inline]
    fn visit_str<E>(self, name: &str) -> Result<Field, E> {
        Ok(match name {
            "Value" => Field::Value,
            "Exists" => Field::Exists,
            "ComparisonOperator" => Field::ComparisonOperator,
            "AttributeValueList" => Field::AttributeValueList,
            "Action" => Field::Action,
            _ => Field::Other,
        })
    }
}

/// An optional attribute value: `null` is absent.
struct OptionalAv;

impl<'de> DeserializeSeed<'de> for OptionalAv {
    type Value = Option<AttributeValue>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for OptionalAv {
    type Value = Option<AttributeValue>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an attribute value")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        Av.visit_map(map).map(Some)
    }
}

/// `Exists`: `null` is absent. Read by the value's own type, where `Option<bool>` takes two calls
/// (an option, then a `bool`).
struct OptionalBool;

impl<'de> DeserializeSeed<'de> for OptionalBool {
    type Value = Option<bool>;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_any(self)
    }
}

impl Visitor<'_> for OptionalBool {
    type Value = Option<bool>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a boolean")
    }

    #[inline]
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    #[inline]
    fn visit_bool<E>(self, value: bool) -> Result<Self::Value, E> {
        Ok(Some(value))
    }
}

/// `AttributeValueList`: `null` is absent, and so are `null` elements (as the exact decoder
/// skips them; the model has no constraint on them).
struct ValueList;

impl<'de> DeserializeSeed<'de> for ValueList {
    type Value = Option<Vec<AttributeValue>>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueList {
    type Value = Option<Vec<AttributeValue>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of attribute values")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(element) = seq.next_element_seed(OptionalAv)? {
            // A push, not `extend`: the option's `extend` reserves through a call of its own for
            // each element.
            if let Some(value) = element {
                out.push(value);
            }
        }
        Ok(Some(out))
    }
}

/// An enum member (`null` is absent), named by its parser; a value it does not know is an anomaly.
struct Enum<T>(fn(&str) -> Option<T>);

/// The `ComparisonOperator` named `text` (the exact path's `COMPARISON_OPERATORS`), by a `match`:
/// the table's scan compared the text with each name through a call
/// (`the_enums_parsers_are_the_exact_path_s_tables` holds the two equal).
pub(super) fn operator_named(text: &str) -> Option<ComparisonOperator> {
    use ComparisonOperator::*;
    Some(match text {
        "EQ" => Eq,
        "NE" => Ne,
        "LE" => Le,
        "LT" => Lt,
        "GE" => Ge,
        "GT" => Gt,
        "NOT_NULL" => NotNull,
        "NULL" => Null,
        "CONTAINS" => Contains,
        "NOT_CONTAINS" => NotContains,
        "BEGINS_WITH" => BeginsWith,
        "IN" => In,
        "BETWEEN" => Between,
        _ => return None,
    })
}

/// The `AttributeAction` named `text` (the exact path's `ATTRIBUTE_ACTIONS`), by a `match`.
pub(super) fn action_named(text: &str) -> Option<AttributeAction> {
    Some(match text {
        "PUT" => AttributeAction::Put,
        "ADD" => AttributeAction::Add,
        "DELETE" => AttributeAction::Delete,
        _ => return None,
    })
}

impl<'de, T: Copy> DeserializeSeed<'de> for Enum<T> {
    type Value = Option<T>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Option<T>, D::Error> {
        de.deserialize_any(self)
    }
}

impl<T: Copy> Visitor<'_> for Enum<T> {
    type Value = Option<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an enum value")
    }

    fn visit_unit<E>(self) -> Result<Option<T>, E> {
        Ok(None)
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Option<T>, E> {
        match (self.0)(text) {
            Some(value) => Ok(Some(value)),
            None => Err(E::custom(anomaly())),
        }
    }
}

impl Predecoded {
    /// The legacy parameter `v` stands for, if `v` is a marker; `pick` takes the one expected there
    /// (anything else is a marker lost, an internal error).
    pub(crate) fn legacy<T>(
        &mut self,
        v: &Value,
        pick: fn(Legacy) -> Option<T>,
    ) -> Option<WireResult<T>> {
        match self.take(v)? {
            Slot::Legacy(legacy) => Some(pick(legacy).ok_or_else(|| lost(v))),
            _ => Some(Err(lost(v))),
        }
    }
}

impl Legacy {
    /// `Expected`, if this is one.
    pub(crate) fn expected(self) -> Option<Expected> {
        match self {
            Legacy::Expected(expected) => Some(expected),
            _ => None,
        }
    }

    /// Conditions, if these are.
    pub(crate) fn conditions(self) -> Option<Conditions> {
        match self {
            Legacy::Conditions(conditions) => Some(conditions),
            _ => None,
        }
    }

    /// `AttributeUpdates`, if these are.
    pub(crate) fn updates(self) -> Option<AttributeUpdates> {
        match self {
            Legacy::Updates(updates) => Some(updates),
            _ => None,
        }
    }

    /// `AttributesToGet`, if these are.
    pub(crate) fn names(self) -> Option<Vec<String>> {
        match self {
            Legacy::Names(names) => Some(names),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::{action_named, operator_named, Parameter};
    use crate::protocol::legacy::{ATTRIBUTE_ACTIONS, COMPARISON_OPERATORS};
    use crate::protocol::model::{self, Kind};

    /// The one pass's enum parsers take exactly the names of the exact path's tables, to the same
    /// values: every name, and texts near them (case, spaces, prefixes) refused by both.
    #[test]
    fn the_enums_parsers_are_the_exact_path_s_tables() {
        for (name, op) in COMPARISON_OPERATORS {
            assert_eq!(operator_named(name), Some(*op), "{name}");
        }
        for (name, action) in ATTRIBUTE_ACTIONS {
            assert_eq!(action_named(name), Some(*action), "{name}");
        }
        let near = |name: &str| {
            [
                name.to_lowercase(),
                format!("{name} "),
                format!(" {name}"),
                name[..name.len() - 1].to_owned(),
                format!("{name}S"),
            ]
        };
        let names = COMPARISON_OPERATORS.iter().map(|(n, _)| *n);
        for text in names.clone().flat_map(near).chain([String::new()]) {
            let known = COMPARISON_OPERATORS.iter().any(|(n, _)| *n == text);
            assert_eq!(operator_named(&text).is_some(), known, "{text:?}");
            assert_eq!(action_named(&text), None, "{text:?}");
        }
        for text in ATTRIBUTE_ACTIONS.iter().flat_map(|(n, _)| near(n)) {
            let known = ATTRIBUTE_ACTIONS.iter().any(|(n, _)| *n == text);
            assert_eq!(action_named(&text).is_some(), known, "{text:?}");
            assert_eq!(operator_named(&text), None, "{text:?}");
        }
    }

    /// `Seed::entries` relies on it: of a key sent twice, the last one is kept, as serde_json's
    /// `Value` map keeps it for the exact path, in every position of a long run.
    #[test]
    fn from_iter_keeps_the_last_of_equal_keys() {
        for n in [2, 3, 17, 1000] {
            for twice in [0, n / 2, n - 1] {
                let mut entries: Vec<(String, usize)> =
                    (0..n).rev().map(|i| (format!("k{i}"), i)).collect();
                entries.push((format!("k{twice}"), usize::MAX));
                let map: BTreeMap<String, usize> = entries.into_iter().collect();
                assert_eq!(map.len(), n);
                assert_eq!(
                    map.get(&format!("k{twice}")),
                    Some(&usize::MAX),
                    "{n} {twice}"
                );
            }
        }
    }

    /// The model walk takes a marker for exactly the shapes this module decodes, and they are the
    /// model's maps and list of those names.
    #[test]
    fn the_decoded_shapes_are_the_model_s_legacy_shapes() {
        let (service, _) = model::input_of("Query").unwrap_or_else(|| panic!("no Query"));
        for name in model::LEGACY_SHAPES {
            assert!(Parameter::of(name).is_some(), "{name}");
            let shape = service.shapes.iter().find(|s| s.name == *name);
            let kind = shape.map(|s| &s.kind);
            assert!(
                matches!(kind, Some(Kind::Map { .. } | Kind::List { .. })),
                "{name} is not a map or a list of the model"
            );
        }
        let decoded = service
            .shapes
            .iter()
            .filter(|s| Parameter::of(s.name).is_some())
            .count();
        assert_eq!(decoded, model::LEGACY_SHAPES.len());
    }
}
