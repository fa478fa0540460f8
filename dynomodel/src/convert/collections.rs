//! `Option` (absent attribute), `Vec` (L) and string-keyed maps (M).

use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasher;

use super::{element_from_attribute, element_to_attribute, mismatch, Attribute};
use crate::backend::AttributeSink;
use crate::error::ConversionError;
use crate::value::AttributeValue;

/// `None` is stored as no attribute at all; an absent attribute or a `NULL` reads as `None`.
impl<T: Attribute> Attribute for Option<T> {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        match self {
            Some(value) => value.to_attribute(),
            None => Ok(None),
        }
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        match value {
            AttributeValue::Null => Ok(None),
            value => T::from_attribute(value).map(Some),
        }
    }

    fn from_missing() -> Result<Self, ConversionError> {
        Ok(None)
    }

    fn expected() -> String {
        T::expected()
    }

    fn write_attribute(
        &self,
        name: &'static str,
        sink: &mut dyn AttributeSink,
    ) -> Result<(), ConversionError> {
        match self {
            Some(value) => value.write_attribute(name, sink),
            None => Ok(()),
        }
    }
}

/// A list; elements that convert to nothing (`None`, empty sets) are stored as `NULL` to keep positions.
impl<T: Attribute> Attribute for Vec<T> {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        let elements = self
            .iter()
            .enumerate()
            .map(|(i, e)| element_to_attribute(e).map_err(|err| err.at_index(i)))
            .collect::<Result<_, _>>()?;
        Ok(Some(AttributeValue::L(elements)))
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        match value {
            AttributeValue::L(elements) => elements
                .into_iter()
                .enumerate()
                .map(|(i, e)| element_from_attribute(e).map_err(|err| err.at_index(i)))
                .collect(),
            other => Err(mismatch::<Self>(&other)),
        }
    }

    fn expected() -> String {
        format!("a list of {}", plural(&T::expected()))
    }
}

/// Turns "a string" into "strings" for container descriptions ("a list of strings").
fn plural(expected: &str) -> String {
    let noun = expected
        .strip_prefix("a ")
        .or_else(|| expected.strip_prefix("an "))
        .unwrap_or(expected);
    match noun.split_once(' ') {
        Some((head, tail)) => format!("{head}s {tail}"),
        None => format!("{noun}s"),
    }
}

fn map_to_attribute<'a, T: Attribute + 'a>(
    entries: impl Iterator<Item = (&'a String, &'a T)>,
) -> Result<Option<AttributeValue>, ConversionError> {
    let map = entries
        .map(|(k, v)| Ok((k.clone(), element_to_attribute(v).map_err(|e| e.at(k))?)))
        .collect::<Result<_, ConversionError>>()?;
    Ok(Some(AttributeValue::M(map)))
}

fn map_from_attribute<T: Attribute, C: FromIterator<(String, T)>>(
    value: AttributeValue,
) -> Result<C, ConversionError> {
    match value {
        AttributeValue::M(map) => map
            .into_iter()
            .map(|(k, v)| {
                let v = element_from_attribute(v).map_err(|e| e.at(&k))?;
                Ok((k, v))
            })
            .collect(),
        other => Err(ConversionError::new(map_expected::<T>(), other.type_name())),
    }
}

fn map_expected<T: Attribute>() -> String {
    format!("a map of {}", plural(&T::expected()))
}

/// A map (M) with string keys.
impl<T: Attribute> Attribute for BTreeMap<String, T> {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        map_to_attribute(self.iter())
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        map_from_attribute(value)
    }

    fn expected() -> String {
        map_expected::<T>()
    }
}

/// A map (M) with string keys.
impl<T: Attribute, S: BuildHasher + Default> Attribute for HashMap<String, T, S> {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        map_to_attribute(self.iter())
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        map_from_attribute(value)
    }

    fn expected() -> String {
        map_expected::<T>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::Binary;
    use std::collections::BTreeSet;

    fn n(value: i64) -> AttributeValue {
        AttributeValue::N(value.into())
    }

    #[test]
    fn options_are_absent_attributes() {
        assert_eq!(None::<u8>.to_attribute().unwrap(), None);
        assert_eq!(Some(3u8).to_attribute().unwrap(), Some(n(3)));
        assert_eq!(Option::<u8>::from_missing().unwrap(), None);
        assert_eq!(
            Option::<u8>::from_attribute(AttributeValue::Null).unwrap(),
            None
        );
        assert_eq!(Option::<u8>::from_attribute(n(4)).unwrap(), Some(4));
        let err = Option::<u8>::from_attribute(AttributeValue::Bool(true)).unwrap_err();
        assert_eq!(
            (err.expected.as_str(), err.found.as_str()),
            ("a number (u8)", "BOOL")
        );
    }

    #[test]
    fn vectors_are_lists() {
        let value = vec![1i32, 2, 3];
        let stored = value.to_attribute().unwrap().unwrap();
        assert_eq!(stored, AttributeValue::L(vec![n(1), n(2), n(3)]));
        assert_eq!(Vec::<i32>::from_attribute(stored).unwrap(), value);
        assert_eq!(
            Vec::<Binary>::from_attribute(AttributeValue::L(vec![AttributeValue::B(vec![1])]))
                .unwrap(),
            vec![Binary(vec![1])]
        );
    }

    #[test]
    fn nothing_inside_a_list_is_null() {
        let value = vec![Some(1u8), None, Some(3)];
        let stored = value.to_attribute().unwrap().unwrap();
        assert_eq!(
            stored,
            AttributeValue::L(vec![n(1), AttributeValue::Null, n(3)])
        );
        assert_eq!(Vec::<Option<u8>>::from_attribute(stored).unwrap(), value);
        // An empty set inside a list is NULL too, and reads back empty.
        let sets = vec![BTreeSet::<String>::new()];
        let stored = sets.to_attribute().unwrap().unwrap();
        assert_eq!(stored, AttributeValue::L(vec![AttributeValue::Null]));
        assert_eq!(
            Vec::<BTreeSet<String>>::from_attribute(stored).unwrap(),
            sets
        );
    }

    #[test]
    fn list_errors_name_the_index() {
        let stored = AttributeValue::L(vec!["a".into(), "b".into(), n(1)]);
        let err = Vec::<String>::from_attribute(stored)
            .unwrap_err()
            .at("tags");
        assert_eq!(
            err.to_string(),
            "attribute `tags[2]`: expected a string, found N"
        );
        let err = Vec::<String>::from_attribute(AttributeValue::S("x".into())).unwrap_err();
        assert_eq!(
            (err.expected.as_str(), err.found.as_str()),
            ("a list of strings", "S")
        );
        let err = Vec::<String>::from_attribute(AttributeValue::L(vec![AttributeValue::Null]))
            .unwrap_err();
        assert_eq!(err.found, "NULL");
        let nested = AttributeValue::L(vec![
            AttributeValue::L(vec![]),
            AttributeValue::L(vec![n(1), "x".into()]),
        ]);
        let err = Vec::<Vec<i8>>::from_attribute(nested)
            .unwrap_err()
            .at("grid");
        assert_eq!(err.path, "grid[1][1]");
        assert_eq!(err.expected, "a number (i8)");
        assert_eq!(
            Vec::<Vec<i8>>::expected(),
            "a list of lists of numbers (i8)"
        );
    }

    #[test]
    fn writing_errors_name_the_index() {
        let err = vec![1.0, f64::NAN].to_attribute().unwrap_err().at("scores");
        assert_eq!(err.path, "scores[1]");
    }

    #[test]
    fn maps_round_trip() {
        let mut value = BTreeMap::new();
        value.insert("a".to_owned(), 1u16);
        value.insert("b".to_owned(), 2);
        let stored = value.to_attribute().unwrap().unwrap();
        let mut expected = BTreeMap::new();
        expected.insert("a".to_owned(), n(1));
        expected.insert("b".to_owned(), n(2));
        assert_eq!(stored, AttributeValue::M(expected));
        assert_eq!(
            BTreeMap::<String, u16>::from_attribute(stored.clone()).unwrap(),
            value
        );
        let hashed: HashMap<String, u16> = HashMap::from_attribute(stored).unwrap();
        assert_eq!(hashed.len(), 2);
        assert_eq!(
            hashed.to_attribute().unwrap(),
            value.to_attribute().unwrap()
        );
    }

    #[test]
    fn map_errors_name_the_key() {
        let mut address = BTreeMap::new();
        address.insert("city".to_owned(), n(5));
        let err = HashMap::<String, String>::from_attribute(AttributeValue::M(address))
            .unwrap_err()
            .at("address");
        assert_eq!(
            err.to_string(),
            "attribute `address.city`: expected a string, found N"
        );
        let err =
            BTreeMap::<String, String>::from_attribute(AttributeValue::L(vec![])).unwrap_err();
        assert_eq!(
            (err.expected.as_str(), err.found.as_str()),
            ("a map of strings", "L")
        );
    }
}
