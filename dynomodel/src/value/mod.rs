//! DynamoDB's data model: [`AttributeValue`], exact [`Number`]s and [`Item`]s.

mod number;
mod size;

use std::collections::BTreeMap;
use std::fmt;

pub use number::{Number, NumberError};
pub use size::{attribute_size, item_size, ItemSize, MAX_ITEM_SIZE};

/// An item: attribute names mapped to values, as stored in a table.
///
/// A `BTreeMap` rather than a `HashMap` so that items print, compare and iterate deterministically.
pub type Item = BTreeMap<String, AttributeValue>;

/// One DynamoDB attribute value: all ten of DynamoDB's data types.
///
/// Sets are held as vectors, as on the wire, so that a backend can see (and reject) what a client sent;
/// equality treats them as sets: `SS ["a", "b"] == SS ["b", "a"]`.
///
/// ```
/// use dynomodel::{AttributeValue, Number};
/// let v = AttributeValue::N("1.50".parse::<Number>().unwrap());
/// assert_eq!(v.to_string(), r#"{"N":"1.5"}"#);
/// assert_eq!(v.type_name(), "N");
/// ```
#[derive(Debug, Clone)]
pub enum AttributeValue {
    /// A UTF-8 string.
    S(String),
    /// An exact decimal number.
    N(Number),
    /// Binary data.
    B(Vec<u8>),
    /// A boolean.
    Bool(bool),
    /// The null value.
    Null,
    /// A string set.
    Ss(Vec<String>),
    /// A number set.
    Ns(Vec<Number>),
    /// A binary set.
    Bs(Vec<Vec<u8>>),
    /// A list of values of any types.
    L(Vec<AttributeValue>),
    /// A map of names to values of any types.
    M(BTreeMap<String, AttributeValue>),
}

impl AttributeValue {
    /// The DynamoDB type descriptor: `"S"`, `"N"`, `"B"`, `"BOOL"`, `"NULL"`, `"SS"`, `"NS"`, `"BS"`, `"L"`
    /// or `"M"`.
    pub fn type_name(&self) -> &'static str {
        match self {
            AttributeValue::S(_) => "S",
            AttributeValue::N(_) => "N",
            AttributeValue::B(_) => "B",
            AttributeValue::Bool(_) => "BOOL",
            AttributeValue::Null => "NULL",
            AttributeValue::Ss(_) => "SS",
            AttributeValue::Ns(_) => "NS",
            AttributeValue::Bs(_) => "BS",
            AttributeValue::L(_) => "L",
            AttributeValue::M(_) => "M",
        }
    }

    /// The string, if this is an `S`.
    pub fn as_s(&self) -> Option<&str> {
        match self {
            AttributeValue::S(s) => Some(s),
            _ => None,
        }
    }

    /// The number, if this is an `N`.
    pub fn as_n(&self) -> Option<&Number> {
        match self {
            AttributeValue::N(n) => Some(n),
            _ => None,
        }
    }

    /// The bytes, if this is a `B`.
    pub fn as_b(&self) -> Option<&[u8]> {
        match self {
            AttributeValue::B(b) => Some(b),
            _ => None,
        }
    }

    /// The map, if this is an `M`.
    pub fn as_m(&self) -> Option<&BTreeMap<String, AttributeValue>> {
        match self {
            AttributeValue::M(m) => Some(m),
            _ => None,
        }
    }

    /// The list, if this is an `L`.
    pub fn as_l(&self) -> Option<&[AttributeValue]> {
        match self {
            AttributeValue::L(l) => Some(l),
            _ => None,
        }
    }
}

/// Sets compare as sets (order-insensitive); everything else structurally.
impl PartialEq for AttributeValue {
    fn eq(&self, other: &Self) -> bool {
        use AttributeValue::*;
        match (self, other) {
            (S(a), S(b)) => a == b,
            (N(a), N(b)) => a == b,
            (B(a), B(b)) => a == b,
            (Bool(a), Bool(b)) => a == b,
            (Null, Null) => true,
            (Ss(a), Ss(b)) => same_set(a, b),
            (Ns(a), Ns(b)) => same_set(a, b),
            (Bs(a), Bs(b)) => same_set(a, b),
            (L(a), L(b)) => a == b,
            (M(a), M(b)) => a == b,
            _ => false,
        }
    }
}

fn same_set<T: Ord>(a: &[T], b: &[T]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut a: Vec<&T> = a.iter().collect();
    let mut b: Vec<&T> = b.iter().collect();
    a.sort_unstable();
    b.sort_unstable();
    a == b
}

/// Prints DynamoDB's JSON wire form, e.g. `{"S":"abc"}` or `{"M":{"a":{"N":"1"}}}`; binaries in base64.
impl fmt::Display for AttributeValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fn list<T>(
            f: &mut fmt::Formatter<'_>,
            items: &[T],
            mut each: impl FnMut(&mut fmt::Formatter<'_>, &T) -> fmt::Result,
        ) -> fmt::Result {
            f.write_str("[")?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(",")?;
                }
                each(f, item)?;
            }
            f.write_str("]")
        }
        let b64 =
            |b: &Vec<u8>| base64::Engine::encode(&base64::engine::general_purpose::STANDARD, b);
        match self {
            AttributeValue::S(s) => write!(f, "{{\"S\":{s:?}}}"),
            AttributeValue::N(n) => write!(f, "{{\"N\":\"{n}\"}}"),
            AttributeValue::B(b) => write!(f, "{{\"B\":\"{}\"}}", b64(b)),
            AttributeValue::Bool(b) => write!(f, "{{\"BOOL\":{b}}}"),
            AttributeValue::Null => f.write_str("{\"NULL\":true}"),
            AttributeValue::Ss(v) => {
                f.write_str("{\"SS\":")?;
                list(f, v, |f, s| write!(f, "{s:?}"))?;
                f.write_str("}")
            }
            AttributeValue::Ns(v) => {
                f.write_str("{\"NS\":")?;
                list(f, v, |f, n| write!(f, "\"{n}\""))?;
                f.write_str("}")
            }
            AttributeValue::Bs(v) => {
                f.write_str("{\"BS\":")?;
                list(f, v, |f, b| write!(f, "\"{}\"", b64(b)))?;
                f.write_str("}")
            }
            AttributeValue::L(v) => {
                f.write_str("{\"L\":")?;
                list(f, v, |f, v| write!(f, "{v}"))?;
                f.write_str("}")
            }
            AttributeValue::M(m) => {
                f.write_str("{\"M\":{")?;
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{k:?}:{v}")?;
                }
                f.write_str("}}")
            }
        }
    }
}

impl From<Number> for AttributeValue {
    fn from(n: Number) -> Self {
        AttributeValue::N(n)
    }
}

impl From<String> for AttributeValue {
    fn from(s: String) -> Self {
        AttributeValue::S(s)
    }
}

impl From<&str> for AttributeValue {
    fn from(s: &str) -> Self {
        AttributeValue::S(s.to_owned())
    }
}

impl From<bool> for AttributeValue {
    fn from(b: bool) -> Self {
        AttributeValue::Bool(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_compare_unordered() {
        let a = AttributeValue::Ss(vec!["a".into(), "b".into()]);
        let b = AttributeValue::Ss(vec!["b".into(), "a".into()]);
        assert_eq!(a, b);
        assert_ne!(a, AttributeValue::Ss(vec!["a".into()]));
        assert_ne!(a, AttributeValue::L(vec!["a".into(), "b".into()]));
    }

    #[test]
    fn display_is_dynamodb_json() {
        let mut m = BTreeMap::new();
        m.insert("k".to_string(), AttributeValue::B(vec![1, 2, 3]));
        m.insert("q\"".to_string(), AttributeValue::Null);
        let v = AttributeValue::L(vec![AttributeValue::M(m), AttributeValue::Bool(true)]);
        assert_eq!(
            v.to_string(),
            r#"{"L":[{"M":{"k":{"B":"AQID"},"q\"":{"NULL":true}}},{"BOOL":true}]}"#
        );
    }
}
