//! Sets: `HashSet<T>` and `BTreeSet<T>` of any key type, stored as SS, NS or BS by `T`'s scalar type.
//!
//! DynamoDB cannot store an empty set, so an empty set is written as no attribute at all and an absent
//! attribute reads as an empty set. Any [`KeyAttribute`] can be an element because key types are
//! exactly DynamoDB's scalar types: `String` and dates make SS, integers, `Decimal` and `Number` make NS,
//! [`Binary`](super::Binary) makes BS.

use std::collections::{BTreeSet, HashSet};
use std::hash::{BuildHasher, Hash};

use super::{write_owned, Attribute, KeyAttribute};
use crate::backend::sink_ref::StrElements;
use crate::backend::{AttributeRef, AttributeSink, ScalarAttributeType, StrSet};
use crate::error::ConversionError;
use crate::value::AttributeValue;

fn set_type_name<T: KeyAttribute>() -> &'static str {
    match T::SCALAR_TYPE {
        ScalarAttributeType::S => "SS",
        ScalarAttributeType::N => "NS",
        ScalarAttributeType::B => "BS",
    }
}

fn set_expected<T: KeyAttribute>() -> String {
    format!("a set ({}) of {}", set_type_name::<T>(), T::expected())
}

fn set_to_attribute<'a, T: KeyAttribute + 'a>(
    elements: impl ExactSizeIterator<Item = &'a T>,
) -> Result<Option<AttributeValue>, ConversionError> {
    if elements.len() == 0 {
        return Ok(None);
    }
    let mut strings = Vec::new();
    let mut numbers = Vec::new();
    let mut binaries = Vec::new();
    for (i, element) in elements.enumerate() {
        match element.to_attribute().map_err(|e| e.at_index(i))? {
            Some(AttributeValue::S(s)) if T::SCALAR_TYPE == ScalarAttributeType::S => {
                strings.push(s)
            }
            Some(AttributeValue::N(n)) if T::SCALAR_TYPE == ScalarAttributeType::N => {
                numbers.push(n)
            }
            Some(AttributeValue::B(b)) if T::SCALAR_TYPE == ScalarAttributeType::B => {
                binaries.push(b)
            }
            // Only a `KeyAttribute` impl breaking its contract gets here.
            other => {
                let found = other.as_ref().map_or("nothing", AttributeValue::type_name);
                return Err(ConversionError::new(T::SCALAR_TYPE.as_str(), found).at_index(i));
            }
        }
    }
    Ok(Some(match T::SCALAR_TYPE {
        ScalarAttributeType::S => AttributeValue::Ss(strings),
        ScalarAttributeType::N => AttributeValue::Ns(numbers),
        ScalarAttributeType::B => AttributeValue::Bs(binaries),
    }))
}

/// Writes a set borrowed when `borrowed` (its elements all hold their strings,
/// [`KeyAttribute::as_str`]: a set of `String`s), any other as [`set_to_attribute`] makes it.
fn write_set<C: Attribute + StrElements>(
    set: &C,
    borrowed: bool,
    name: &'static str,
    sink: &mut dyn AttributeSink,
) -> Result<(), ConversionError> {
    if !borrowed || set.len() == 0 {
        return write_owned(set, name, sink);
    }
    sink.insert_ref(name, AttributeRef::Ss(StrSet::new(set)));
    Ok(())
}

fn set_from_attribute<T: KeyAttribute, C: FromIterator<T>>(
    value: AttributeValue,
) -> Result<C, ConversionError> {
    // Each element converted as it is taken from the set's own vector: no vector of
    // `AttributeValue`s in between (one allocation and a copy of every element saved per set).
    match (T::SCALAR_TYPE, value) {
        (ScalarAttributeType::S, AttributeValue::Ss(v)) => elements_from(v, AttributeValue::S),
        (ScalarAttributeType::N, AttributeValue::Ns(v)) => elements_from(v, AttributeValue::N),
        (ScalarAttributeType::B, AttributeValue::Bs(v)) => elements_from(v, AttributeValue::B),
        (_, other) => Err(ConversionError::new(set_expected::<T>(), other.type_name())),
    }
}

/// The set's elements, each as `T` from its value (`wrap` of the element), the first failing one
/// reported at its index.
fn elements_from<E, T: Attribute, C: FromIterator<T>>(
    elements: Vec<E>,
    wrap: impl Fn(E) -> AttributeValue,
) -> Result<C, ConversionError> {
    elements
        .into_iter()
        .enumerate()
        .map(|(i, e)| T::from_attribute(wrap(e)).map_err(|err| err.at_index(i)))
        .collect()
}

impl<T: KeyAttribute + Eq + Hash, S: BuildHasher + Default> Attribute for HashSet<T, S> {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        set_to_attribute(self.iter())
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        set_from_attribute(value)
    }

    fn from_missing() -> Result<Self, ConversionError> {
        Ok(HashSet::default())
    }

    fn expected() -> String {
        set_expected::<T>()
    }

    fn write_attribute(
        &self,
        name: &'static str,
        sink: &mut dyn AttributeSink,
    ) -> Result<(), ConversionError> {
        let borrowed = self.iter().all(|element| element.as_str().is_some());
        write_set(self, borrowed, name, sink)
    }
}

impl<T: KeyAttribute + Ord> Attribute for BTreeSet<T> {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        set_to_attribute(self.iter())
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        set_from_attribute(value)
    }

    fn from_missing() -> Result<Self, ConversionError> {
        Ok(BTreeSet::new())
    }

    fn expected() -> String {
        set_expected::<T>()
    }

    fn write_attribute(
        &self,
        name: &'static str,
        sink: &mut dyn AttributeSink,
    ) -> Result<(), ConversionError> {
        let borrowed = self.iter().all(|element| element.as_str().is_some());
        write_set(self, borrowed, name, sink)
    }
}

impl<T: KeyAttribute, S> StrElements for HashSet<T, S> {
    fn len(&self) -> usize {
        HashSet::len(self)
    }

    fn for_each_str(&self, f: &mut dyn FnMut(&str)) {
        self.iter().filter_map(KeyAttribute::as_str).for_each(f);
    }
}

impl<T: KeyAttribute> StrElements for BTreeSet<T> {
    fn len(&self) -> usize {
        BTreeSet::len(self)
    }

    fn for_each_str(&self, f: &mut dyn FnMut(&str)) {
        self.iter().filter_map(KeyAttribute::as_str).for_each(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::Binary;
    use crate::value::Number;
    use rust_decimal::Decimal;

    #[test]
    fn string_sets_are_ss() {
        let value: BTreeSet<String> = ["b", "a"].into_iter().map(String::from).collect();
        let stored = value.to_attribute().unwrap().unwrap();
        assert_eq!(stored, AttributeValue::Ss(vec!["a".into(), "b".into()]));
        assert_eq!(
            BTreeSet::<String>::from_attribute(stored.clone()).unwrap(),
            value
        );
        let hashed = HashSet::<String>::from_attribute(stored).unwrap();
        assert_eq!(hashed.len(), 2);
    }

    #[test]
    fn number_sets_are_ns() {
        let value: HashSet<u64> = [1, 20, 300].into_iter().collect();
        let stored = value.to_attribute().unwrap().unwrap();
        assert_eq!(
            stored,
            AttributeValue::Ns(vec![Number::from(300), Number::from(1), Number::from(20)])
        );
        assert_eq!(
            HashSet::<u64>::from_attribute(stored.clone()).unwrap(),
            value
        );
        assert_eq!(
            BTreeSet::<Number>::from_attribute(stored.clone())
                .unwrap()
                .len(),
            3
        );
        assert_eq!(
            BTreeSet::<Decimal>::from_attribute(stored).unwrap().len(),
            3
        );
    }

    #[test]
    fn binary_sets_are_bs() {
        let value: BTreeSet<Binary> = [Binary(vec![1]), Binary(vec![])].into_iter().collect();
        let stored = value.to_attribute().unwrap().unwrap();
        assert_eq!(stored, AttributeValue::Bs(vec![vec![], vec![1]]));
        assert_eq!(BTreeSet::<Binary>::from_attribute(stored).unwrap(), value);
    }

    #[test]
    fn empty_sets_are_absent() {
        assert_eq!(BTreeSet::<String>::new().to_attribute().unwrap(), None);
        assert_eq!(HashSet::<i32>::new().to_attribute().unwrap(), None);
        assert!(BTreeSet::<String>::from_missing().unwrap().is_empty());
        assert!(HashSet::<Binary>::from_missing().unwrap().is_empty());
    }

    #[test]
    fn wrong_set_types_are_errors() {
        let err = BTreeSet::<String>::from_attribute(AttributeValue::Ns(vec![Number::from(1)]))
            .unwrap_err()
            .at("tags");
        assert_eq!(
            err.to_string(),
            "attribute `tags`: expected a set (SS) of a string, found NS"
        );
        let err = HashSet::<i32>::from_attribute(AttributeValue::L(vec![])).unwrap_err();
        assert_eq!(err.expected, "a set (NS) of a number (i32)");
        let out_of_range = AttributeValue::Ns(vec![Number::from(1), Number::from(1000)]);
        let err = BTreeSet::<u8>::from_attribute(out_of_range)
            .unwrap_err()
            .at("codes");
        assert_eq!(err.path, "codes[1]");
        assert_eq!(err.found, "N 1000");
    }
}
