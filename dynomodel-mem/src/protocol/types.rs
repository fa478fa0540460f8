//! The JSON type checks of DynamoDB's deserialiser and their `SerializationException` messages.
//!
//! The wording (including "an String" and "a Blob") is DynamoDB's own, as recorded by dynalite's
//! `validations/index.js` (`checkTypes`, `classForNumber`) and its tests: the service is written in Java,
//! so a JSON number is reported by the Java class it would have become (`Short`, `Integer`, `Long` or
//! `Double`).

use base64::Engine as _;
use serde_json::{Map, Value};

use super::{Decoder, Fault, WireResult};

/// An array where an object or scalar was expected.
pub(super) const START_OF_LIST: &str = "Start of list found where not expected";
/// An object where a scalar or array was expected (DynamoDB's message ends with a full stop).
pub(super) const START_OF_STRUCTURE: &str = "Start of structure or map found where not expected.";

fn serialization(message: impl Into<String>) -> Fault {
    Fault::Serialization(Some(message.into()))
}

/// The Java class DynamoDB's deserialiser would give a JSON number.
fn class_for_number(n: &serde_json::Number) -> &'static str {
    let value = n.as_f64().unwrap_or(0.0);
    if value.fract() != 0.0 {
        "java.lang.Double"
    } else if (-32768.0..=32767.0).contains(&value) {
        "java.lang.Short"
    } else if (-2147483648.0..=2147483647.0).contains(&value) {
        "java.lang.Integer"
    } else {
        "java.lang.Long"
    }
}

/// The message for a value of the wrong type where a scalar of `target` (`"an String"`, `"a Blob"`, …)
/// was expected.
fn not_scalar(value: &Value, target: &str) -> Fault {
    match value {
        Value::Bool(_) => serialization(format!(
            "class java.lang.Boolean can not be converted to {target}"
        )),
        Value::Number(n) => serialization(format!(
            "class {} can not be converted to {target}",
            class_for_number(n)
        )),
        Value::String(_) => serialization(format!(
            "class java.lang.String can not be converted to {target}"
        )),
        Value::Array(_) => serialization(START_OF_LIST),
        Value::Object(_) | Value::Null => serialization(START_OF_STRUCTURE),
    }
}

/// A string member (`S`, `N`, names, expressions, enum values).
pub(super) fn string(value: &Value) -> WireResult<String> {
    str(value).map(str::to_owned)
}

/// [`string`], borrowed: for a member only looked at (an enum value).
pub(super) fn str(value: &Value) -> WireResult<&str> {
    match value {
        Value::String(s) => Ok(s),
        other => Err(not_scalar(other, "an String")),
    }
}

/// A boolean member. DynamoDB accepts a fractional number (true when its magnitude is at least 1) but no
/// integer and no string.
pub(super) fn boolean(value: &Value) -> WireResult<bool> {
    match value {
        Value::Bool(b) => Ok(*b),
        Value::Number(n) if class_for_number(n) == "java.lang.Double" => {
            Ok(n.as_f64().unwrap_or(0.0).abs() >= 1.0)
        }
        Value::String(s) => Err(serialization(format!(
            "'{}' can not be converted to an Boolean",
            s.to_uppercase()
        ))),
        other => Err(not_scalar(other, "an Boolean")),
    }
}

/// An `Integer` member (`Limit`, `Segment`, …): fractions are truncated towards negative infinity, as by
/// DynamoDB; a number beyond 32 bits is a `Long` that cannot become an `Integer`.
pub(super) fn integer(value: &Value) -> WireResult<i32> {
    let long = long(value, "an Integer")?;
    i32::try_from(long)
        .map_err(|_| serialization("class java.lang.Long can not be converted to an Integer"))
}

/// A `Timestamp` member: epoch seconds as a JSON number, with any fraction (how the AWS SDKs send
/// them in DynamoDB's JSON protocol).
pub(super) fn timestamp(value: &Value) -> WireResult<chrono::DateTime<chrono::Utc>> {
    let invalid = || serialization("class java.lang.String can not be converted to an Date");
    match value {
        Value::Number(n) => {
            let seconds = n.as_f64().unwrap_or(f64::NAN);
            let millis = (seconds * 1000.0).round();
            if !millis.is_finite() || millis.abs() > 8.64e18 {
                return Err(invalid());
            }
            chrono::DateTime::from_timestamp_millis(millis as i64).ok_or_else(invalid)
        }
        Value::String(_) => Err(invalid()),
        other => Err(not_scalar(other, "an Date")),
    }
}

/// A `Long` member (capacity units).
pub(super) fn long(value: &Value, target: &str) -> WireResult<i64> {
    match value {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                return Ok(i);
            }
            let f = n.as_f64().unwrap_or(f64::NAN).floor();
            if f.is_finite() && f >= i64::MIN as f64 && f <= i64::MAX as f64 {
                Ok(f as i64)
            } else {
                Err(serialization(format!(
                    "class java.lang.Double can not be converted to {target}"
                )))
            }
        }
        other => Err(not_scalar(other, target)),
    }
}

/// A `Blob` (base64 text), with the three checks DynamoDB makes and their messages.
pub(super) fn blob(value: &Value) -> WireResult<Vec<u8>> {
    match value {
        Value::String(text) => blob_text(text),
        other => Err(not_scalar(other, "a Blob")),
    }
}

/// [`blob`] of a JSON string's text.
pub(super) fn blob_text(text: &str) -> WireResult<Vec<u8>> {
    // Built only for an error: a valid blob costs no copy of its text.
    let prefix = || format!("'{text}' can not be converted to a Blob: ");
    if !text.len().is_multiple_of(4) {
        return Err(serialization(format!(
            "{}Base64 encoded length is expected a multiple of 4 bytes but found: {}",
            prefix(),
            text.len()
        )));
    }
    // A character outside the alphabet, or padding followed by anything but padding.
    let bytes = text.as_bytes();
    for (i, &c) in bytes.iter().enumerate() {
        let ok = c.is_ascii_alphanumeric() || c == b'+' || c == b'/' || c == b'=';
        let bad_pad = c == b'=' && bytes.get(i + 1).is_some_and(|&n| n != b'=');
        if !ok || bad_pad {
            let shown = text[i..].chars().next().unwrap_or('?');
            return Err(serialization(format!(
                "{}Invalid Base64 character: '{shown}'",
                prefix()
            )));
        }
    }
    // "dectected" is DynamoDB's spelling.
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|_| {
            serialization(format!(
                "{}Invalid last non-pad Base64 character dectected",
                prefix()
            ))
        })
}

/// A list member; `None` for JSON `null`.
pub(super) fn list(value: &Value) -> WireResult<Option<&Vec<Value>>> {
    match value {
        Value::Null => Ok(None),
        Value::Array(a) => Ok(Some(a)),
        Value::Object(_) => Err(serialization(START_OF_STRUCTURE)),
        _ => Err(serialization("Expected list or null")),
    }
}

/// A map member (`Item`, `ExpressionAttributeNames`, …); `None` for JSON `null`.
pub(super) fn map(value: &Value) -> WireResult<Option<&Map<String, Value>>> {
    match value {
        Value::Null => Ok(None),
        Value::Object(m) => Ok(Some(m)),
        Value::Array(_) => Err(serialization(START_OF_LIST)),
        _ => Err(serialization("Expected map or null")),
    }
}

/// A structure member (`ProvisionedThroughput`, an `AttributeValue`, …); `None` for JSON `null`.
pub(super) fn structure(value: &Value) -> WireResult<Option<&Map<String, Value>>> {
    match value {
        Value::Null => Ok(None),
        Value::Object(m) => Ok(Some(m)),
        Value::Array(_) => Err(serialization(START_OF_LIST)),
        _ => Err(serialization("Expected null")),
    }
}

/// `tableName` from `TableName`: DynamoDB's constraint messages name members in lower camel case.
pub(super) fn lower_first(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Appends `name` with its first character in lower case: a member's name in a path.
pub(super) fn push_lower_first(path: &mut String, name: &str) {
    // Member names are ASCII: lower-cased without `char::to_lowercase`'s iterator, which was most
    // of the cost of a path in the model walk of many small structures.
    if let Some(first) = name.as_bytes().first().filter(|b| b.is_ascii()) {
        path.push(char::from(first.to_ascii_lowercase()));
        path.push_str(name.get(1..).unwrap_or_default());
        return;
    }
    let mut chars = name.chars();
    if let Some(first) = chars.next() {
        path.extend(first.to_lowercase());
        path.push_str(chars.as_str());
    }
}

/// Appends the decimal digits of `n`: a list position in a path.
pub(super) fn push_index(path: &mut String, n: usize) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        // A digit: `rest % 10` is below 10.
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    // ASCII digits; pushed as one slice rather than a character at a time.
    path.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
}

/// Maps `text` through `allowed`; records DynamoDB's enum constraint error at `path()` (made only
/// then) and returns `None` otherwise.
pub(super) fn enum_value<T: Copy>(
    text: &str,
    path: impl FnOnce() -> String,
    allowed: &[(&str, T)],
    d: &mut Decoder,
) -> Option<T> {
    if let Some((_, v)) = allowed.iter().find(|(name, _)| *name == text) {
        return Some(*v);
    }
    let names: Vec<&str> = allowed.iter().map(|(name, _)| *name).collect();
    d.constraint(
        text,
        &path(),
        &format!("Member must satisfy enum value set: [{}]", names.join(", ")),
    );
    None
}
