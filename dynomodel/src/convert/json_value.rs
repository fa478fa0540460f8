//! `serde_json::Value` as a document: object → M, array → L, string → S, number → N, bool → BOOL,
//! null → NULL. The same conversion carries `#[dynomodel(serde)]` fields (see [`serde`](super::serde)).
//!
//! Numbers are exact both ways. A JSON integer is stored as written; a float is stored as its shortest
//! round-tripping decimal (`0.1`, not `0.1000000000000000055…`). On read, a number is an integer when
//! it is whole and fits an `i64`/`u64`; otherwise an `f64`, and only if that `f64` stores back as the
//! very same number: a stored value JSON cannot hold exactly (`1.00000000000000000001`, a 30-digit
//! integer) is a [`ConversionError`], never a rounding. Sets read as arrays; binaries (B, BS) have no
//! JSON form and are errors.
//!
//! ```
//! use dynomodel::{Attribute, AttributeValue};
//! use serde_json::json;
//! let doc = json!({"name": "Ada", "langs": ["en", "fr"], "age": 36, "score": 0.1, "vip": null});
//! let stored = doc.to_attribute()?.unwrap();
//! let AttributeValue::M(map) = &stored else { unreachable!() };
//! assert_eq!(map["age"], AttributeValue::N(36.into()));
//! assert_eq!(map["score"].to_string(), r#"{"N":"0.1"}"#);
//! assert_eq!(serde_json::Value::from_attribute(stored)?, doc);
//! # Ok::<(), dynomodel::ConversionError>(())
//! ```

use serde_json::{Map, Value};

use super::{mismatch, Attribute};
use crate::error::ConversionError;
use crate::expression::FieldValue;
use crate::value::{AttributeValue, Number};

impl Attribute for Value {
    fn to_attribute(&self) -> Result<Option<AttributeValue>, ConversionError> {
        to_attribute_value(self).map(Some)
    }

    fn from_attribute(value: AttributeValue) -> Result<Self, ConversionError> {
        from_attribute_value(value)
    }

    fn expected() -> String {
        "a JSON value (M, L, S, N, BOOL or NULL)".to_owned()
    }
}

impl FieldValue for Value {
    type Value = Self;
}

/// A JSON number as an exact DynamoDB number.
fn number_to_attribute(n: &serde_json::Number) -> Result<Number, ConversionError> {
    if let Some(u) = n.as_u64() {
        return Ok(Number::from(u));
    }
    if let Some(i) = n.as_i64() {
        return Ok(Number::from(i));
    }
    let out_of_range = || ConversionError::new("a number within DynamoDB's range", n.to_string());
    match n.as_f64() {
        // `{:e}` is the shortest text that reads back as the same f64.
        Some(f) if f.is_finite() => Number::parse(&format!("{f:e}")).map_err(|_| out_of_range()),
        _ => Err(out_of_range()),
    }
}

/// A DynamoDB number as a JSON number, exactly or not at all.
fn number_from_attribute(n: Number) -> Result<serde_json::Number, ConversionError> {
    let inexact = || {
        ConversionError::new(
            "a number a JSON value holds exactly (i64, u64 or f64)",
            format!("N {n}"),
        )
    };
    if let Some(i) = n.to_i128() {
        if let Ok(u) = u64::try_from(i) {
            return Ok(u.into());
        }
        if let Ok(i) = i64::try_from(i) {
            return Ok(i.into());
        }
    }
    let f = n.to_f64();
    let exact = f.is_finite() && Number::parse(&format!("{f:e}")).is_ok_and(|back| back == n);
    if !exact {
        return Err(inexact());
    }
    serde_json::Number::from_f64(f).ok_or_else(inexact)
}

/// `value` as a DynamoDB value.
pub(crate) fn to_attribute_value(value: &Value) -> Result<AttributeValue, ConversionError> {
    Ok(match value {
        Value::Null => AttributeValue::Null,
        Value::Bool(b) => AttributeValue::Bool(*b),
        Value::Number(n) => AttributeValue::N(number_to_attribute(n)?),
        Value::String(s) => AttributeValue::S(s.clone()),
        Value::Array(items) => AttributeValue::L(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| to_attribute_value(item).map_err(|e| e.at_index(i)))
                .collect::<Result<_, _>>()?,
        ),
        Value::Object(map) => AttributeValue::M(
            map.iter()
                .map(|(k, v)| Ok((k.clone(), to_attribute_value(v).map_err(|e| e.at(k))?)))
                .collect::<Result<_, ConversionError>>()?,
        ),
    })
}

/// A DynamoDB value as JSON.
pub(crate) fn from_attribute_value(value: AttributeValue) -> Result<Value, ConversionError> {
    Ok(match value {
        AttributeValue::Null => Value::Null,
        AttributeValue::Bool(b) => Value::Bool(b),
        AttributeValue::N(n) => Value::Number(number_from_attribute(n)?),
        AttributeValue::S(s) => Value::String(s),
        AttributeValue::Ss(set) => Value::Array(set.into_iter().map(Value::String).collect()),
        AttributeValue::Ns(set) => Value::Array(
            set.into_iter()
                .enumerate()
                .map(|(i, n)| {
                    Ok(Value::Number(
                        number_from_attribute(n).map_err(|e| e.at_index(i))?,
                    ))
                })
                .collect::<Result<_, ConversionError>>()?,
        ),
        AttributeValue::L(items) => Value::Array(
            items
                .into_iter()
                .enumerate()
                .map(|(i, item)| from_attribute_value(item).map_err(|e| e.at_index(i)))
                .collect::<Result<_, _>>()?,
        ),
        AttributeValue::M(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let v = from_attribute_value(v).map_err(|e| e.at(&k))?;
                    Ok((k, v))
                })
                .collect::<Result<Map<_, _>, ConversionError>>()?,
        ),
        other @ (AttributeValue::B(_) | AttributeValue::Bs(_)) => {
            return Err(mismatch::<Value>(&other));
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(value: Value) {
        let stored = value.to_attribute().expect("converts").expect("a value");
        assert_eq!(Value::from_attribute(stored).expect("reads"), value);
    }

    #[test]
    fn documents_round_trip() {
        round_trip(
            json!({"a": [1, -2, 1.5, 0.1, 1e100, u64::MAX, i64::MIN], "b": {"c": null}, "d": true}),
        );
        round_trip(json!([]));
        round_trip(json!("x"));
        round_trip(json!(-1.25e-100));
        // Beyond DynamoDB's range (9.99E+125): an error, not a clamp.
        assert!(json!(f64::MAX).to_attribute().is_err());
    }

    #[test]
    fn numbers_json_cannot_hold_are_errors() {
        for text in ["1.00000000000000000001", "123456789012345678901234567890"] {
            let n = Number::parse(text).expect("a number");
            let err = Value::from_attribute(AttributeValue::N(n)).expect_err("inexact");
            assert!(err.found.contains(text), "{err}");
        }
        // A whole number beyond u64 that an f64 holds exactly is read.
        let n = Number::parse("1e30").expect("a number");
        assert_eq!(
            Value::from_attribute(AttributeValue::N(n)).expect("reads"),
            json!(1e30)
        );
    }

    #[test]
    fn binaries_are_errors() {
        let err = Value::from_attribute(AttributeValue::M(
            [("k".to_owned(), AttributeValue::B(vec![1]))].into(),
        ))
        .expect_err("no JSON form");
        assert_eq!(err.path, "k");
    }
}
