//! `ExpressionAttributeNames` in the one pass: the map decoded straight into the request's type and
//! replaced by a marker ([`Slot::Names`]), with the checks the model walk would make of it (its keys'
//! and values' string constraints; a value of another JSON type than a string or `null` is an
//! anomaly), so that neither a `Value` map nor its walk nor its copy is made.

use std::borrow::Cow;
use std::fmt;

use dynomodel::backend::ExpressionAttributeNames;
use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, Visitor};
use serde_json::Value;

use super::value::anomaly;
use super::{Predecoded, Slot};
use crate::protocol::model::{self, Service};

/// The map of shape `map` (an `ExpressionAttributeNameMap`: string keys of shape `key`, string
/// values of shape `value`), decoded and marked.
pub(super) struct Names<'b> {
    pub(super) service: &'static Service,
    pub(super) key: usize,
    pub(super) value: usize,
    pub(super) slots: &'b mut Vec<Slot>,
}

impl<'de> Visitor<'de> for Names<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map of names")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        let reader = Raw {
            service: self.service,
            key: self.key,
            value: self.value,
        };
        let entries = reader.visit_map(map)?.unwrap_or_default();
        Ok(Predecoded::mark(self.slots, Slot::Names(owned(entries))))
    }
}

/// An entry as read: its key and value borrowed from the body where they have no escape (`null`
/// stands for an absent entry).
pub(super) type Entry<'de> = (Cow<'de, str>, Option<Cow<'de, str>>);

/// The map of shape `map` (as [`Names`]) read with the same checks into its entries as sent,
/// borrowed, for the top level of a request, whose expressions are known only once the whole
/// request is read (`super::unused`); `None` for `null`.
pub(super) struct Raw {
    pub(super) service: &'static Service,
    pub(super) key: usize,
    pub(super) value: usize,
}

impl<'de> DeserializeSeed<'de> for Raw {
    type Value = Option<Vec<Entry<'de>>>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Raw {
    type Value = Option<Vec<Entry<'de>>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a map of names")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut entries: Vec<Entry<'de>> = Vec::with_capacity(map.size_hint().unwrap_or(0));
        while let Some(key) = map.next_key_seed(Text)? {
            let value = map.next_value_seed(OptionalText)?;
            let valid = model::key_is_valid(self.service, self.key, &key)
                && value
                    .as_deref()
                    .is_none_or(|v| model::key_is_valid(self.service, self.value, v));
            if !valid {
                return Err(A::Error::custom(anomaly()));
            }
            entries.push((key, value));
        }
        Ok(Some(entries))
    }
}

/// A JSON string, borrowed from the body unless it has an escape.
struct Text;

impl<'de> DeserializeSeed<'de> for Text {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Text {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(v))
    }
}

/// A JSON string as [`Text`], or `null`.
struct OptionalText;

impl<'de> DeserializeSeed<'de> for OptionalText {
    type Value = Option<Cow<'de, str>>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        de.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for OptionalText {
    type Value = Option<Cow<'de, str>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string or null")
    }

    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, de: D) -> Result<Self::Value, D::Error> {
        Text.deserialize(de).map(Some)
    }
}

/// The entries owned, as the map they stand for.
pub(super) fn owned(entries: Vec<Entry<'_>>) -> ExpressionAttributeNames {
    if entries.iter().all(|(_, value)| value.is_some()) {
        // Straight into the tree's bulk build, which keeps the last of equal keys (`unused::names`): a
        // pass of its own to own them cost a valid request of many names 2 %.
        return entries
            .into_iter()
            .filter_map(|(key, value)| Some((key.into_owned(), value?.into_owned())))
            .collect();
    }
    present(
        entries
            .into_iter()
            .map(|(key, value)| (key.into_owned(), value.map(Cow::into_owned)))
            .collect(),
    )
}

/// The entries as the exact path's `Value` map holds them (of entries of the same key the last one,
/// as serde_json keeps it), without the `null` ones.
pub(super) fn present(entries: Vec<(String, Option<String>)>) -> ExpressionAttributeNames {
    let without_nulls = |entries: Vec<(String, Option<String>)>| {
        entries
            .into_iter()
            .filter_map(|(key, value)| value.map(|value| (key, value)))
            .collect()
    };
    // One sort: the tree's bulk build sorts stably and keeps the last of equal keys
    // (`fast::legacy`'s `from_iter_keeps_the_last_of_equal_keys`); sorting them here first as well
    // was a tenth of a request of many names. A `null` still hides an earlier entry of its key
    // before it goes, so a map with one is sorted here first.
    if entries.iter().all(|(_, value)| value.is_some()) {
        return without_nulls(entries);
    }
    without_nulls(last_of_each(entries))
}

/// The entries sorted by key, of entries of the same key the last one (as serde_json's `Value` map
/// keeps it for the exact path).
pub(super) fn last_of_each<T>(mut entries: Vec<(String, T)>) -> Vec<(String, T)> {
    // Reversed, then sorted stably: of equal keys the last one sent comes first and is kept.
    entries.reverse();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    entries.dedup_by(|later, kept| later.0 == kept.0);
    entries
}

#[cfg(test)]
mod tests {
    use super::{present, ExpressionAttributeNames};

    #[test]
    fn the_last_entry_of_a_key_is_kept_and_nulls_are_absent() {
        let entries = vec![
            ("#b".to_owned(), Some("first".to_owned())),
            ("#a".to_owned(), Some("a".to_owned())),
            ("#b".to_owned(), Some("second".to_owned())),
            ("#c".to_owned(), Some("c".to_owned())),
            ("#c".to_owned(), None),
            ("#d".to_owned(), None),
            ("#d".to_owned(), Some("d".to_owned())),
        ];
        let pairs = |names: ExpressionAttributeNames| -> Vec<(String, String)> {
            names.into_iter().collect()
        };
        let owned = |expected: &[(&str, &str)]| -> Vec<(String, String)> {
            expected
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect()
        };
        let expected = [("#a", "a"), ("#b", "second"), ("#d", "d")];
        assert_eq!(pairs(present(entries.clone())), owned(&expected));
        // Without a `null`, the tree's bulk build alone keeps the last of each key.
        let without_nulls: Vec<(String, Option<String>)> = entries
            .into_iter()
            .filter(|(_, value)| value.is_some())
            .collect();
        let expected = [("#a", "a"), ("#b", "second"), ("#c", "c"), ("#d", "d")];
        assert_eq!(pairs(present(without_nulls)), owned(&expected));
    }
}
