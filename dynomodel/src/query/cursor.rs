//! [`Cursor`]: where a paged Query or Scan goes on, as an opaque token.

use std::fmt;
use std::str::FromStr;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde_json::{Map, Value as Json};

use crate::error::{Error, Result};
use crate::value::{AttributeValue, Item, Number};

/// The position after a page: DynamoDB's `LastEvaluatedKey`, opaque to callers.
///
/// It prints as a URL-safe token (base64, no padding, of the key in DynamoDB JSON, e.g.
/// `{"id":{"S":"1"},"userid":{"S":"abc"}}`) and parses back, so a web API can hand it to its clients
/// and take it back on the next request. The token is not signed: it reveals the key values, and a
/// client can forge one (which only positions a read of data the request could read anyway).
///
/// ```
/// use dynomodel::{AttributeValue, Cursor, Item};
/// let mut key = Item::new();
/// key.insert("userid".into(), AttributeValue::S("abc".into()));
/// let cursor = Cursor::from_key(key.clone());
/// let token = cursor.to_string();
/// assert_eq!(token.parse::<Cursor>()?, cursor);
/// assert_eq!(cursor.into_key(), key);
/// assert!("not a cursor".parse::<Cursor>().is_err());
/// # Ok::<(), dynomodel::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Cursor {
    key: Item,
}

impl Cursor {
    /// A cursor continuing after `key` (a `LastEvaluatedKey`).
    pub fn from_key(key: Item) -> Cursor {
        Cursor { key }
    }

    /// The key, for a raw `ExclusiveStartKey`.
    pub fn key(&self) -> &Item {
        &self.key
    }

    /// The key, owned.
    pub fn into_key(self) -> Item {
        self.key
    }
}

impl fmt::Display for Cursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let json = Json::Object(item_to_json(&self.key));
        f.write_str(&URL_SAFE_NO_PAD.encode(json.to_string()))
    }
}

impl FromStr for Cursor {
    type Err = Error;

    fn from_str(token: &str) -> Result<Cursor> {
        let invalid = |why: &str| Error::validation(format!("invalid cursor: {why}"));
        let bytes = URL_SAFE_NO_PAD
            .decode(token.trim())
            .map_err(|_| invalid("not base64url"))?;
        let json: Json = serde_json::from_slice(&bytes).map_err(|_| invalid("not JSON"))?;
        let Json::Object(map) = json else {
            return Err(invalid("not a key map"));
        };
        let key = map
            .into_iter()
            .map(|(name, value)| {
                Ok((
                    name,
                    value_from_json(value).ok_or_else(|| invalid("not DynamoDB JSON"))?,
                ))
            })
            .collect::<Result<Item>>()?;
        Ok(Cursor { key })
    }
}

fn item_to_json(item: &Item) -> Map<String, Json> {
    item.iter()
        .map(|(k, v)| (k.clone(), value_to_json(v)))
        .collect()
}

fn value_to_json(value: &AttributeValue) -> Json {
    let b64 = |b: &Vec<u8>| Json::String(base64::engine::general_purpose::STANDARD.encode(b));
    let (tag, inner) = match value {
        AttributeValue::S(s) => ("S", Json::String(s.clone())),
        AttributeValue::N(n) => ("N", Json::String(n.to_string())),
        AttributeValue::B(b) => ("B", b64(b)),
        AttributeValue::Bool(b) => ("BOOL", Json::Bool(*b)),
        AttributeValue::Null => ("NULL", Json::Bool(true)),
        AttributeValue::Ss(v) => ("SS", v.iter().cloned().map(Json::String).collect()),
        AttributeValue::Ns(v) => (
            "NS",
            v.iter().map(|n| Json::String(n.to_string())).collect(),
        ),
        AttributeValue::Bs(v) => ("BS", v.iter().map(b64).collect()),
        AttributeValue::L(v) => ("L", v.iter().map(value_to_json).collect()),
        AttributeValue::M(m) => ("M", Json::Object(item_to_json(m))),
    };
    Json::Object(Map::from_iter([(tag.to_owned(), inner)]))
}

fn value_from_json(json: Json) -> Option<AttributeValue> {
    let Json::Object(map) = json else { return None };
    let mut entries = map.into_iter();
    let (tag, inner) = entries.next()?;
    if entries.next().is_some() {
        return None;
    }
    let string = |j: Json| match j {
        Json::String(s) => Some(s),
        _ => None,
    };
    let number = |j: Json| string(j).and_then(|s| Number::parse(&s).ok());
    let bytes =
        |j: Json| string(j).and_then(|s| base64::engine::general_purpose::STANDARD.decode(s).ok());
    let list = |j: Json| match j {
        Json::Array(v) => Some(v),
        _ => None,
    };
    Some(match (tag.as_str(), inner) {
        ("S", j) => AttributeValue::S(string(j)?),
        ("N", j) => AttributeValue::N(number(j)?),
        ("B", j) => AttributeValue::B(bytes(j)?),
        ("BOOL", Json::Bool(b)) => AttributeValue::Bool(b),
        ("NULL", Json::Bool(true)) => AttributeValue::Null,
        ("SS", j) => AttributeValue::Ss(list(j)?.into_iter().map(string).collect::<Option<_>>()?),
        ("NS", j) => AttributeValue::Ns(list(j)?.into_iter().map(number).collect::<Option<_>>()?),
        ("BS", j) => AttributeValue::Bs(list(j)?.into_iter().map(bytes).collect::<Option<_>>()?),
        ("L", j) => AttributeValue::L(
            list(j)?
                .into_iter()
                .map(value_from_json)
                .collect::<Option<_>>()?,
        ),
        ("M", Json::Object(m)) => AttributeValue::M(
            m.into_iter()
                .map(|(k, v)| Some((k, value_from_json(v)?)))
                .collect::<Option<_>>()?,
        ),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_round_trips() {
        let n = |s: &str| Number::parse(s).expect("number");
        let mut key = Item::new();
        key.insert("s".into(), AttributeValue::S("é \"q\" \u{1F600}".into()));
        key.insert("n".into(), AttributeValue::N(n("-1.5E3")));
        key.insert("b".into(), AttributeValue::B(vec![0, 255]));
        key.insert("bool".into(), AttributeValue::Bool(false));
        key.insert("null".into(), AttributeValue::Null);
        key.insert("ss".into(), AttributeValue::Ss(vec!["a".into()]));
        key.insert("ns".into(), AttributeValue::Ns(vec![n("2")]));
        key.insert("bs".into(), AttributeValue::Bs(vec![vec![1]]));
        key.insert("l".into(), AttributeValue::L(vec![AttributeValue::Null]));
        key.insert("m".into(), AttributeValue::M(key.clone()));
        let cursor = Cursor::from_key(key);
        let token = cursor.to_string();
        assert!(token
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_eq!(token.parse::<Cursor>().expect("parses"), cursor);
    }

    #[test]
    fn the_token_is_dynamodb_json() {
        let mut key = Item::new();
        key.insert("id".into(), AttributeValue::S("1".into()));
        let token = Cursor::from_key(key).to_string();
        let json = URL_SAFE_NO_PAD.decode(token).expect("base64");
        assert_eq!(
            String::from_utf8(json).expect("utf-8"),
            r#"{"id":{"S":"1"}}"#
        );
        let bad = URL_SAFE_NO_PAD.encode(r#"{"id":{"X":"1"}}"#);
        assert_eq!(
            bad.parse::<Cursor>().expect_err("unknown type").message(),
            "invalid cursor: not DynamoDB JSON"
        );
    }
}
