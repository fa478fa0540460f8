//! TEST-ONLY STAND-IN — DELETE THIS FILE (and its `mod` line in `expression/mod.rs`) AT MERGE.
//!
//! The `Attribute` impls for the standard types are written in `convert/` on another branch; this
//! branch has only the trait. These minimal impls, compiled for unit tests only, let the expression
//! tests use real field types (`i64`, `String`, `Option`, sets...). Once `convert/` is merged they
//! collide with the real impls (error E0119), so they cannot be forgotten. They mirror the real
//! mapping: `None` and empty sets convert to no attribute, floats must be finite, `Vec` is a list.

use std::collections::{BTreeMap, BTreeSet};

use crate::convert::Attribute;
use crate::error::ConversionError;
use crate::value::{AttributeValue, Number};

type Converted = Result<Option<AttributeValue>, ConversionError>;

fn unused<T>() -> Result<T, ConversionError> {
    Err(ConversionError::new("nothing (test stand-in)", "a value"))
}

macro_rules! stand_in {
    ($t:ty, |$v:ident| $to:expr) => {
        impl Attribute for $t {
            fn to_attribute(&self) -> Converted {
                let $v = self;
                $to
            }
            fn from_attribute(_: AttributeValue) -> Result<Self, ConversionError> {
                unused()
            }
            fn expected() -> String {
                stringify!($t).to_owned()
            }
        }
    };
}

stand_in!(String, |v| Ok(Some(AttributeValue::S(v.clone()))));
stand_in!(bool, |v| Ok(Some(AttributeValue::Bool(*v))));
stand_in!(i64, |v| Ok(Some(AttributeValue::N(Number::from(*v)))));
stand_in!(u64, |v| Ok(Some(AttributeValue::N(Number::from(*v)))));
stand_in!(f64, |v| Number::from_f64(*v)
    .map(|n| Some(AttributeValue::N(n)))
    .map_err(|_| ConversionError::new(
        "a finite number (f64)",
        v.to_string()
    )));
stand_in!(BTreeSet<String>, |v| Ok(
    (!v.is_empty()).then(|| AttributeValue::Ss(v.iter().cloned().collect()))
));
stand_in!(BTreeSet<i64>, |v| Ok((!v.is_empty()).then(|| {
    AttributeValue::Ns(v.iter().map(|n| Number::from(*n)).collect())
})));

impl<T: Attribute> Attribute for Option<T> {
    fn to_attribute(&self) -> Converted {
        match self {
            Some(v) => v.to_attribute(),
            None => Ok(None),
        }
    }
    fn from_attribute(_: AttributeValue) -> Result<Self, ConversionError> {
        unused()
    }
    fn expected() -> String {
        T::expected()
    }
}

impl<T: Attribute> Attribute for Vec<T> {
    fn to_attribute(&self) -> Converted {
        let mut list = Vec::new();
        for (i, e) in self.iter().enumerate() {
            let value = e.to_attribute().map_err(|err| err.at_index(i))?;
            list.push(value.unwrap_or(AttributeValue::Null));
        }
        Ok(Some(AttributeValue::L(list)))
    }
    fn from_attribute(_: AttributeValue) -> Result<Self, ConversionError> {
        unused()
    }
    fn expected() -> String {
        format!("a list of {}", T::expected())
    }
}

impl<T: Attribute> Attribute for BTreeMap<String, T> {
    fn to_attribute(&self) -> Converted {
        let mut map = BTreeMap::new();
        for (k, e) in self {
            if let Some(value) = e.to_attribute().map_err(|err| err.at(k))? {
                map.insert(k.clone(), value);
            }
        }
        Ok(Some(AttributeValue::M(map)))
    }
    fn from_attribute(_: AttributeValue) -> Result<Self, ConversionError> {
        unused()
    }
    fn expected() -> String {
        format!("a map of {}", T::expected())
    }
}
