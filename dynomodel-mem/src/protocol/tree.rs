//! The exact path's parse of a body: the `Value` tree serde_json builds, with each object built at
//! once from its members in the order read, sorted, rather than by a tree insert per member (which was
//! half the cost of parsing an element-heavy body, so of answering a large request invalid at its very
//! end: see `fast`). Of members of the same name the last one is kept, as serde_json keeps it.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// `body` parsed as `serde_json::from_slice::<Value>` parses it (tests hold the two equal), with the
/// same errors where it is not JSON.
pub(super) fn parse(body: &[u8]) -> serde_json::Result<Value> {
    let mut parser = serde_json::Deserializer::from_slice(body);
    let value = Tree.deserialize(&mut parser)?;
    parser.end()?;
    Ok(value)
}

/// One JSON value, as serde_json's own `Value` visitor builds it.
#[derive(Clone, Copy)]
struct Tree;

impl<'de> DeserializeSeed<'de> for Tree {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Tree {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut elements = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(element) = seq.next_element_seed(Tree)? {
            elements.push(element);
        }
        Ok(Value::Array(elements))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        // Most objects of a large body are attribute values of one member (`{"N":"1"}`): those go
        // into their map at once, without the vector and sort of the general case.
        let Some(first) = map.next_key::<String>()? else {
            return Ok(Value::Object(Map::new()));
        };
        let first_value = map.next_value_seed(Tree)?;
        let Some(second) = map.next_key::<String>()? else {
            let mut one = Map::new();
            one.insert(first, first_value);
            return Ok(Value::Object(one));
        };
        let mut members = Vec::with_capacity(map.size_hint().unwrap_or(4).max(2));
        members.push((first, first_value));
        members.push((second, map.next_value_seed(Tree)?));
        while let Some(name) = map.next_key::<String>()? {
            members.push((name, map.next_value_seed(Tree)?));
        }
        Ok(Value::Object(members.into_iter().collect::<Map<_, _>>()))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::parse;

    #[test]
    fn trees_are_serde_json_s() {
        let bodies: &[&str] = &[
            r#"{"a":1,"b":[true,false,null,-7,18446744073709551615,1e300,0.5,-0.0,"x\u00e9\n"]}"#,
            r#"{"m":{"z":{"N":"1"},"a":{"S":"x"},"z":{"N":"2"}},"m":{"k":[{},[]]}}"#,
            r#"[1,{"b":2,"a":3}]"#,
            r#"{"one":{"N":"1"},"two":{"b":1,"a":2},"three":{"c":1,"b":2,"a":3},"e":{}}"#,
            r#"{"k":1,"k":2}"#,
            r#""text""#,
            "12345678901234567890123",
            " { } ",
        ];
        for body in bodies {
            let expected: Value = serde_json::from_slice(body.as_bytes()).unwrap();
            assert_eq!(parse(body.as_bytes()).unwrap(), expected, "{body}");
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        for body in [
            r#"{"a":1"#,
            r#"{"a":1}x"#,
            "",
            "{'a':1}",
            "1e400",
            deep.as_str(),
        ] {
            assert!(serde_json::from_slice::<Value>(body.as_bytes()).is_err());
            assert!(parse(body.as_bytes()).is_err(), "{body}");
        }
    }
}
