//! `AttributeValue` and items on the wire: `{"S":"x"}`, `{"N":"1.5"}` (numbers travel as strings, so no
//! precision is lost), `{"B":"base64"}`, `{"BOOL":true}`, `{"NULL":true}`, `{"SS":[…]}`, `{"NS":[…]}`,
//! `{"BS":[…]}`, `{"L":[…]}`, `{"M":{…}}`.
//!
//! Decoding keeps what the client sent (set duplicates, empty sets, empty strings) so that the backend
//! applies DynamoDB's rules and messages to it; only what [`AttributeValue`] cannot hold is rejected here:
//! a value with no type or several, an `N` that is not a number, `NULL` other than `true`.

use base64::Engine as _;
use dynomodel::{AttributeValue, Item, Number};
use serde_json::{Map, Value};

use super::json::{self, Array, Object};
use super::types::{blob, boolean, list, map, string, structure};
use super::{Decoder, WireResult};

/// "Supplied AttributeValue is empty, …": an attribute value with no data type.
pub(super) const EMPTY_VALUE: &str =
    "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes";
/// "Supplied AttributeValue has more than one datatypes set, …".
pub(super) const SEVERAL_TYPES: &str = "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes";
/// `{"NULL": false}`: DynamoDB's message (the 2026 live captures of every region, after a few weeks in
/// June 2026 when two regions accepted `false`; dynalite's recordings; DynamoDB Local 3.3.1 alike).
pub(super) const NULL_NOT_TRUE: &str =
    "One or more parameter values were invalid: Null attribute value types must have the value of true";

/// The ten type descriptors, in DynamoDB's order.
const TYPES: [&str; 10] = ["S", "N", "B", "SS", "NS", "BS", "M", "L", "NULL", "BOOL"];

/// A number's text: a non-number is a validation error with [`dynomodel::NumberError`]'s message (the
/// engine's wording); the value is replaced by zero so decoding can go on to find serialization errors.
fn number(text: &str, d: &mut Decoder) -> Number {
    match Number::parse(text) {
        Ok(n) => n,
        Err(e) => {
            d.custom(e.to_string());
            Number::ZERO
        }
    }
}

/// Decodes one attribute value. Type errors are returned; validation errors are recorded in `d` and a
/// placeholder (`NULL`) is returned so that the rest of the request is still type-checked.
pub(crate) fn parse_attribute_value(value: &Value, d: &mut Decoder) -> WireResult<AttributeValue> {
    if let Some(decoded) = d.predecoded.value(value) {
        let (value, flaw) = decoded?;
        if let Some(message) = flaw {
            d.custom(message);
        }
        return Ok(value);
    }
    let Some(fields) = structure(value)? else {
        d.custom(EMPTY_VALUE);
        return Ok(AttributeValue::Null);
    };
    // The usual value has one member: decode it alone, which is what the loop below does for it,
    // without looking up the nine other types (a tenth of a PutItem's decoding).
    if fields.len() == 1
        && let Some((ty, v)) = fields.iter().next()
        && let Some(ty) = TYPES.into_iter().find(|t| t == ty)
        && !v.is_null()
    {
        return typed(ty, v, d);
    }
    let mut found: Option<AttributeValue> = None;
    let mut count = 0;
    for ty in TYPES {
        // Unknown members are ignored and `null` members are absent, as in DynamoDB.
        let Some(v) = fields.get(ty).filter(|v| !v.is_null()) else {
            continue;
        };
        let parsed = typed(ty, v, d)?;
        count += 1;
        found.get_or_insert(parsed);
    }
    match (count, found) {
        (1, Some(v)) => Ok(v),
        (0, _) | (_, None) => {
            d.custom(EMPTY_VALUE);
            Ok(AttributeValue::Null)
        }
        (_, Some(v)) => {
            d.custom(SEVERAL_TYPES);
            Ok(v)
        }
    }
}

/// Decodes the member `ty` (one of [`TYPES`]) of an attribute value.
fn typed(ty: &str, v: &Value, d: &mut Decoder) -> WireResult<AttributeValue> {
    Ok(match ty {
        "S" => AttributeValue::S(string(v)?),
        "N" => match v {
            // Parsed where it lies, without the copy `string` makes.
            Value::String(text) => AttributeValue::N(number(text, d)),
            // `string`'s type error.
            other => AttributeValue::N(number(&string(other)?, d)),
        },
        "B" => AttributeValue::B(blob(v)?),
        "BOOL" => AttributeValue::Bool(boolean(v)?),
        "NULL" => {
            if !boolean(v)? {
                d.custom(NULL_NOT_TRUE);
            }
            AttributeValue::Null
        }
        "SS" => AttributeValue::Ss(elements(v, string)?),
        "NS" => {
            let texts = elements(v, string)?;
            AttributeValue::Ns(texts.iter().map(|t| number(t, d)).collect())
        }
        "BS" => AttributeValue::Bs(elements(v, blob)?),
        "L" => {
            let mut out = Vec::new();
            for element in list(v)?.into_iter().flatten() {
                out.push(parse_attribute_value(element, d)?);
            }
            AttributeValue::L(out)
        }
        _ => AttributeValue::M(parse_item(v, d)?.unwrap_or_default()),
    })
}

/// The elements of a set: a list of strings (or base64 strings); `null` elements are skipped.
fn elements<T>(value: &Value, each: fn(&Value) -> WireResult<T>) -> WireResult<Vec<T>> {
    list(value)?
        .into_iter()
        .flatten()
        .filter(|v| !v.is_null())
        .map(each)
        .collect()
}

/// Decodes a map of attribute values (an item, a key, `ExpressionAttributeValues`); `None` for `null`.
pub(super) fn parse_item(value: &Value, d: &mut Decoder) -> WireResult<Option<Item>> {
    if let Some(decoded) = d.predecoded.item(value) {
        let (item, flaw) = decoded?;
        if let Some(message) = flaw {
            d.custom(message);
        }
        return Ok(Some(item));
    }
    let Some(fields) = map(value)? else {
        return Ok(None);
    };
    parse_fields(fields, d).map(Some)
}

/// Decodes the entries of a JSON object as attribute values.
pub(super) fn parse_fields(fields: &Map<String, Value>, d: &mut Decoder) -> WireResult<Item> {
    // Built from the sorted members at once rather than by a tree insert per member.
    fields
        .iter()
        .map(|(name, v)| Ok((name.clone(), parse_attribute_value(v, d)?)))
        .collect()
}

fn b64(bytes: &[u8]) -> Value {
    Value::String(base64::engine::general_purpose::STANDARD.encode(bytes))
}

/// Encodes one attribute value in DynamoDB's JSON: numbers as strings, binaries in base64.
pub(super) fn attribute_value_to_json(value: &AttributeValue) -> Value {
    let (ty, v) = match value {
        AttributeValue::S(s) => ("S", Value::String(s.clone())),
        AttributeValue::N(n) => ("N", Value::String(n.to_string())),
        AttributeValue::B(b) => ("B", b64(b)),
        AttributeValue::Bool(b) => ("BOOL", Value::Bool(*b)),
        AttributeValue::Null => ("NULL", Value::Bool(true)),
        AttributeValue::Ss(v) => (
            "SS",
            Value::Array(v.iter().map(|s| Value::String(s.clone())).collect()),
        ),
        AttributeValue::Ns(v) => (
            "NS",
            Value::Array(v.iter().map(|n| Value::String(n.to_string())).collect()),
        ),
        AttributeValue::Bs(v) => ("BS", Value::Array(v.iter().map(|b| b64(b)).collect())),
        AttributeValue::L(v) => (
            "L",
            Value::Array(v.iter().map(attribute_value_to_json).collect()),
        ),
        AttributeValue::M(m) => ("M", item_to_json(m)),
    };
    let mut out = Map::with_capacity(1);
    out.insert(ty.to_owned(), v);
    Value::Object(out)
}

/// Encodes an item (or key) as a JSON object of attribute values.
pub fn item_to_json(item: &Item) -> Value {
    Value::Object(
        item.iter()
            .map(|(k, v)| (k.clone(), attribute_value_to_json(v)))
            .collect(),
    )
}

/// Whether a BatchGetItem key's spelling (its JSON text as sent) matters: when its values are all
/// scalars, one of them a number. Two such keys equal in value may be spelled apart (`1e3`, `1000`),
/// which DynamoDB does not count as duplicates (see `batch.rs`); keys of strings and binaries are
/// spelled alike when equal, and other keys are never valid.
pub(super) fn spelling_matters<'a>(values: impl Iterator<Item = &'a AttributeValue>) -> bool {
    let mut number = false;
    for value in values {
        match value {
            AttributeValue::N(_) => number = true,
            AttributeValue::S(_) | AttributeValue::B(_) => {}
            _ => return false,
        }
    }
    number
}

/// Appends `bytes` in base64, as a JSON string (base64 needs no escaping).
pub(super) fn write_base64(out: &mut Vec<u8>, bytes: &[u8]) {
    out.push(b'"');
    let start = out.len();
    // `None` only for a length beyond `usize`, which no slice in memory has.
    let len = base64::encoded_len(bytes.len(), true).unwrap_or(0);
    out.resize(start + len, 0);
    let written = base64::engine::general_purpose::STANDARD
        .encode_slice(bytes, &mut out[start..])
        .unwrap_or(0);
    out.truncate(start + written);
    out.push(b'"');
}

/// Appends a number's canonical text (its `Display`) as a JSON string (digits, `-` and `.` need no
/// escaping). Written from [`Number::parts`] rather than through `Display`, whose formatter machinery
/// and digit string cost more than the rest of an attribute's writing; `write_number_matches_display`
/// holds the two together.
fn write_number(out: &mut Vec<u8>, n: &Number) {
    let (negative, coefficient, exponent) = n.parts();
    out.push(b'"');
    if negative {
        out.push(b'-');
    }
    let mut buffer = [0u8; 40];
    let digits = decimal(coefficient, &mut buffer);
    if exponent >= 0 {
        out.extend_from_slice(digits);
        out.resize(out.len() + exponent.unsigned_abs() as usize, b'0');
    } else {
        let point = digits.len() as i64 + i64::from(exponent);
        if point > 0 {
            let (int, frac) = digits.split_at(point as usize);
            out.extend_from_slice(int);
            out.push(b'.');
            out.extend_from_slice(frac);
        } else {
            out.extend_from_slice(b"0.");
            out.resize(out.len() + point.unsigned_abs() as usize, b'0');
            out.extend_from_slice(digits);
        }
    }
    out.push(b'"');
}

/// The decimal digits of `value`, written at the end of `buffer` (a `u128` has at most 39).
fn decimal(mut value: u128, buffer: &mut [u8; 40]) -> &[u8] {
    let mut at = buffer.len();
    // Divisions of a `u128` are slow: only the digits above `u64::MAX` take them.
    while value > u128::from(u64::MAX) {
        at -= 1;
        buffer[at] = b'0' + (value % 10) as u8;
        value /= 10;
    }
    let mut small = value as u64;
    loop {
        at -= 1;
        buffer[at] = b'0' + (small % 10) as u8;
        small /= 10;
        if small == 0 {
            break;
        }
    }
    &buffer[at..]
}

/// Appends one attribute value in DynamoDB's JSON, byte for byte what [`attribute_value_to_json`]
/// prints as, without building it (see `json.rs`).
pub(super) fn write_attribute_value(out: &mut Vec<u8>, value: &AttributeValue) {
    // Each value is an object of one member, so no ordering question arises.
    let ty: &[u8] = match value {
        AttributeValue::S(_) => br#"{"S":"#,
        AttributeValue::N(_) => br#"{"N":"#,
        AttributeValue::B(_) => br#"{"B":"#,
        AttributeValue::Bool(_) => br#"{"BOOL":"#,
        AttributeValue::Null => br#"{"NULL":"#,
        AttributeValue::Ss(_) => br#"{"SS":"#,
        AttributeValue::Ns(_) => br#"{"NS":"#,
        AttributeValue::Bs(_) => br#"{"BS":"#,
        AttributeValue::L(_) => br#"{"L":"#,
        AttributeValue::M(_) => br#"{"M":"#,
    };
    out.extend_from_slice(ty);
    match value {
        AttributeValue::S(s) => json::string(out, s),
        AttributeValue::N(n) => write_number(out, n),
        AttributeValue::B(b) => write_base64(out, b),
        AttributeValue::Bool(b) => json::boolean(out, *b),
        AttributeValue::Null => json::boolean(out, true),
        AttributeValue::Ss(v) => {
            let mut list = Array::begin(out);
            for s in v {
                json::string(list.element(), s);
            }
            list.end();
        }
        AttributeValue::Ns(v) => {
            let mut list = Array::begin(out);
            for n in v {
                write_number(list.element(), n);
            }
            list.end();
        }
        AttributeValue::Bs(v) => {
            let mut list = Array::begin(out);
            for b in v {
                write_base64(list.element(), b);
            }
            list.end();
        }
        AttributeValue::L(v) => {
            let mut list = Array::begin(out);
            for element in v {
                write_attribute_value(list.element(), element);
            }
            list.end();
        }
        AttributeValue::M(m) => write_item(out, m),
    }
    out.push(b'}');
}

/// Appends an item (or key) as a JSON object of attribute values, byte for byte what
/// [`item_to_json`] prints as. An [`Item`] is a `BTreeMap`, so its names come in serde_json's order.
pub(super) fn write_item(out: &mut Vec<u8>, item: &Item) {
    let mut object = Object::begin(out);
    for (name, value) in item {
        write_attribute_value(object.member(name), value);
    }
    object.end();
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::protocol::Fault;
    use serde_json::json;

    fn decode(v: Value) -> WireResult<AttributeValue> {
        let mut d = Decoder::default();
        let value = parse_attribute_value(&v, &mut d)?;
        d.finish(value)
    }

    fn validation(v: Value) -> String {
        match decode(v) {
            Err(Fault::Backend(e)) => e.message(),
            other => panic!("expected a validation error, got {other:?}"),
        }
    }

    fn serialization(v: Value) -> Option<String> {
        match decode(v) {
            Err(Fault::Serialization(m)) => m,
            other => panic!("expected a serialization error, got {other:?}"),
        }
    }

    #[test]
    fn every_type_round_trips() {
        let v = json!({"M": {
            "s": {"S": "x"}, "n": {"N": "1.5"}, "b": {"B": "AQID"}, "t": {"BOOL": true},
            "z": {"NULL": true}, "ss": {"SS": ["a", "b"]}, "ns": {"NS": ["1", "2"]},
            "bs": {"BS": ["AQ=="]}, "l": {"L": [{"S": "y"}, {"N": "-0"}]}
        }});
        let decoded = decode(v).unwrap();
        let mut expected = v_clone();
        // "-0" is canonically "0".
        expected["M"]["l"]["L"][1] = json!({"N": "0"});
        assert_eq!(attribute_value_to_json(&decoded), expected);

        fn v_clone() -> Value {
            json!({"M": {
                "s": {"S": "x"}, "n": {"N": "1.5"}, "b": {"B": "AQID"}, "t": {"BOOL": true},
                "z": {"NULL": true}, "ss": {"SS": ["a", "b"]}, "ns": {"NS": ["1", "2"]},
                "bs": {"BS": ["AQ=="]}, "l": {"L": [{"S": "y"}, {"N": "-0"}]}
            }})
        }
    }

    #[test]
    fn write_number_matches_display() {
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "1",
            "-1",
            "10",
            "100",
            "1.5",
            "-0.001",
            "0.1",
            "123.456",
            "12345678901234567890123456789012345678",
            "-1234567890123456789.0123456789012345678",
            "9.9999999999999999999999999999999999999E+125",
            "1E-130",
            "-1E+125",
            "18446744073709551615",
            "18446744073709551616",
            "0.000018446744073709551617",
        ]
        .map(str::to_owned)
        .to_vec();
        for e in -140..130 {
            texts.push(format!("7E{e}"));
            texts.push(format!("-12345678901234567890123E{e}"));
        }
        for text in texts {
            let Ok(n) = Number::parse(&text) else {
                continue;
            };
            let mut out = Vec::new();
            write_number(&mut out, &n);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                format!("\"{n}\""),
                "{text}"
            );
        }
    }

    #[test]
    fn wrong_json_types_are_serialization_errors() {
        let short = "class java.lang.Short can not be converted to an String";
        assert_eq!(serialization(json!({"N": 123})).as_deref(), Some(short));
        assert_eq!(serialization(json!({"S": 5})).as_deref(), Some(short));
        assert_eq!(
            serialization(json!({"S": 1.5})).as_deref(),
            Some("class java.lang.Double can not be converted to an String")
        );
        assert_eq!(
            serialization(json!({"S": {}})).as_deref(),
            Some("Start of structure or map found where not expected.")
        );
        assert_eq!(
            serialization(json!({"SS": "a"})).as_deref(),
            Some("Expected list or null")
        );
        assert_eq!(
            serialization(json!({"M": []})).as_deref(),
            Some("Start of list found where not expected")
        );
        assert_eq!(
            serialization(json!({"BOOL": "yes"})).as_deref(),
            Some("'YES' can not be converted to an Boolean")
        );
        assert_eq!(
            serialization(json!({"B": "abc"})).as_deref(),
            Some("'abc' can not be converted to a Blob: Base64 encoded length is expected a multiple of 4 bytes but found: 3")
        );
        assert_eq!(serialization(json!("x")).as_deref(), Some("Expected null"));
    }

    #[test]
    fn bad_values_are_validation_errors() {
        assert_eq!(validation(json!({})), EMPTY_VALUE);
        assert_eq!(validation(json!({"S": "a", "N": "1"})), SEVERAL_TYPES);
        assert_eq!(
            validation(json!({"N": "NaN"})),
            "The parameter cannot be converted to a numeric value: NaN"
        );
        assert_eq!(
            validation(json!({"NULL": false})),
            "One or more parameter values were invalid: Null attribute value types must have the value \
             of true"
        );
        // A serialization error elsewhere wins over a validation error found first.
        assert!(matches!(
            decode(json!({"L": [{"N": "x"}, {"S": 1}]})),
            Err(Fault::Serialization(_))
        ));
    }
}
