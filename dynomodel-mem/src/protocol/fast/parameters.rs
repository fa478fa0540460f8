//! PartiQL `Parameters` in the one pass: the list of attribute values decoded straight into the
//! request's `Vec<AttributeValue>` and replaced by one marker ([`Slot::Parameters`]), as `names.rs`
//! does for `ExpressionAttributeNames`. A statement can carry hundreds of thousands of parameters;
//! a marker per value (its slot, its check by the model walk, its take by the decoder and the
//! skeleton's array of them) was a quarter of such a request.
//!
//! Only what breaks nothing is taken: the list's length within its shape's bounds (at least one
//! element) and every element an attribute value the one pass decodes. A `null` element, which the
//! exact path reports as a constraint, or any other anomaly sends the request to the exact path.
//!
//! Parameters the statement cannot use are checked and not built (issue 25), as `unused_values`
//! does for a values map. The engine parses the statement and compares its number of `?` with the
//! number of parameters before it looks at any of them (and a statement it cannot parse, or whose
//! `SELECT` names a result twice, is refused before the count): with more parameters than `?`,
//! its answer is the count's error whatever the values are, once the wire has decoded them. So when
//! the statement was read before the list (the usual order), the list is built as far as
//! [`BUILT_FIRST`] values or one more than the statement's `?` characters, whichever is more
//! ([`marks`]: every `?` byte, those in strings, quoted names and comments too, an upper bound of
//! the lexer's count, so the engine's count never equals the reduced list's length), and every
//! value past that is *checked* by `oversized`'s checker (the decoder's anomalies and flaws, empty
//! names and sets, a set's duplicate, nesting past 32 levels: each sends the request to the exact
//! path, which reports it in its order) and not built. The engine gets the values built
//! ([`Slot::ReducedParameters`]), still more than the statement's `?`: the same error. A statement
//! sent again after the list is held to that bound when the request is read (`skeleton`).

use std::fmt;

use dynomodel::AttributeValue;
use serde::de::{DeserializeSeed, Deserializer, Error as _, SeqAccess, Visitor};
use serde_json::Value;

use super::legacy::within;
use super::oversized;
use super::value::{anomaly, Av};
use super::{lost, Predecoded, Slot};
use crate::protocol::model::{Kind, Service};
use crate::protocol::WireResult;

/// Values every list builds before the statement's `?` are counted: a valid request's list is
/// built as before without looking at its statement. One in the tests, so that every list of more
/// values that the oracle sees takes the path of the values checked.
const BUILT_FIRST: usize = if cfg!(test) { 1 } else { 64 };

/// At least as many as the `?` placeholders the PartiQL lexer finds in `statement`: its `?` bytes,
/// wherever they are.
pub(super) fn marks(statement: &str) -> usize {
    statement.bytes().filter(|&b| b == b'?').count()
}

/// A `PreparedStatementParameters` list (shape `shape`), decoded and marked (JSON `null` stays
/// `null`, an absent list as the exact path reads it); `statement`: the statement read before it,
/// if any, past whose `?` the values are checked and not built.
pub(super) struct Parameters<'b> {
    pub(super) service: &'static Service,
    pub(super) shape: usize,
    pub(super) slots: &'b mut Vec<Slot>,
    pub(super) statement: Option<&'b str>,
}

impl<'de> DeserializeSeed<'de> for Parameters<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
        de.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Parameters<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of parameters")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let Kind::List { length, .. } = self.service.shapes[self.shape].kind else {
            return Err(A::Error::custom(anomaly()));
        };
        let mut values = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        let mut checked = 0;
        // How many values are built: known once `BUILT_FIRST` are.
        let mut built = usize::MAX;
        // `Av` refuses a `null` element: the exact path reports it as a constraint.
        while let Some(value) = seq.next_element_seed(Av)? {
            values.push(value);
            if values.len() == BUILT_FIRST {
                built = self
                    .statement
                    .map_or(usize::MAX, |statement| marks(statement).saturating_add(1))
                    .max(BUILT_FIRST);
            }
            if values.len() == built {
                // The checker refuses a `null` element too.
                while oversized::check_element(&mut seq)? {
                    checked += 1;
                }
                break;
            }
        }
        if !within(length, values.len() + checked) {
            return Err(A::Error::custom(anomaly()));
        }
        let slot = match checked {
            0 => Slot::Parameters(values),
            _ => Slot::ReducedParameters(values),
        };
        Ok(Predecoded::mark(self.slots, slot))
    }
}

impl Predecoded {
    /// The PartiQL parameters `v` stands for, if `v` is a marker.
    pub(crate) fn parameters(&mut self, v: &Value) -> Option<WireResult<Vec<AttributeValue>>> {
        match self.take(v)? {
            Slot::Parameters(values) | Slot::ReducedParameters(values) => Some(Ok(values)),
            _ => Some(Err(lost(v))),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::protocol::fast::{decode, Outcome, Slot};
    use crate::protocol::model::{self, Kind};

    /// What the one pass makes of the ExecuteStatement `body`: `Some(Some(n))` its parameters
    /// reduced to `n` values, `Some(None)` built whole, `None` left to the exact path.
    fn reduced(body: &str) -> Option<Option<usize>> {
        let Outcome::Decoded(_, predecoded) = decode("ExecuteStatement", body.as_bytes()) else {
            return None;
        };
        match predecoded.slots.last()? {
            Slot::ReducedParameters(values) => Some(Some(values.len())),
            Slot::Parameters(_) => Some(None),
            _ => None,
        }
    }

    fn body(statement: &str, n: usize, before: bool) -> String {
        let values = vec![r#"{"S": "k"}"#; n].join(", ");
        let (statement, parameters) = (
            format!(r#""Statement": "{statement}""#),
            format!(r#""Parameters": [{values}]"#),
        );
        match before {
            false => format!("{{{statement}, {parameters}}}"),
            true => format!("{{{parameters}, {statement}}}"),
        }
    }

    #[test]
    fn values_past_the_marks_are_checked_when_the_statement_comes_first() {
        let one = "SELECT * FROM t WHERE pk = ?";
        assert_eq!(reduced(&body(one, 1, false)), Some(None));
        assert_eq!(reduced(&body(one, 2, false)), Some(None));
        assert_eq!(reduced(&body(one, 3, false)), Some(Some(2)));
        assert_eq!(reduced(&body(one, 300, false)), Some(Some(2)));
        assert_eq!(reduced(&body(one, 300, true)), Some(None));
        // Every `?` byte counts, in strings and names too.
        let three = r#"SELECT * FROM t WHERE pk = ? AND \"a?\" = '?'"#;
        assert_eq!(reduced(&body(three, 4, false)), Some(None));
        assert_eq!(reduced(&body(three, 5, false)), Some(Some(4)));
        assert_eq!(reduced(&body("SELECT 1", 3, false)), Some(Some(1)));
        // A flaw or an engine error checked: the exact path's.
        let flawed = format!(
            r#"{{"Statement": "{one}", "Parameters": [{{"S": "k"}}, {{"S": "k"}}, {{"N": "x"}}]}}"#
        );
        assert_eq!(reduced(&flawed), None);
        let empty = flawed.replace(r#"{"N": "x"}"#, r#"{"SS": []}"#);
        assert_eq!(reduced(&empty), None);
        let null = flawed.replace(r#"{"N": "x"}"#, "null");
        assert_eq!(reduced(&null), None);
        // A statement sent again after the list with as many `?` as the values built, or not a
        // string: the exact path's; with fewer, reduced.
        let again = |statement: &str| {
            let values = [r#"{"S": "k"}"#; 5].join(", ");
            format!(
                r#"{{"Statement": "{one}", "Parameters": [{values}], "Statement": {statement}}}"#
            )
        };
        assert_eq!(reduced(&again(r#""SELECT ? ?""#)), None);
        assert_eq!(reduced(&again("1")), None);
        assert_eq!(reduced(&again(r#""SELECT ?""#)), Some(Some(2)));
    }

    /// The shape the skeleton decodes (and the model walk takes a marker for) is the model's list
    /// of attribute values, wherever PartiQL has parameters.
    #[test]
    fn the_decoded_shape_is_the_model_s_parameter_list() {
        for operation in [
            "ExecuteStatement",
            "BatchExecuteStatement",
            "ExecuteTransaction",
        ] {
            let (service, _) = model::input_of(operation).unwrap_or_else(|| panic!("{operation}"));
            let shape = service
                .shapes
                .iter()
                .find(|s| s.name == model::PARAMETER_LIST);
            let Some(Kind::List { member, .. }) = shape.map(|s| &s.kind) else {
                panic!("{operation}: no list {}", model::PARAMETER_LIST);
            };
            assert_eq!(service.shapes[*member].name, "AttributeValue");
        }
    }
}
