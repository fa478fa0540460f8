//! PartiQL `Parameters` in the one pass: the list of attribute values decoded straight into the
//! request's `Vec<AttributeValue>` and replaced by one marker ([`Slot::Parameters`]), as `names.rs`
//! does for `ExpressionAttributeNames`. A statement can carry hundreds of thousands of parameters;
//! a marker per value (its slot, its check by the model walk, its take by the decoder and the
//! skeleton's array of them) was a quarter of such a request.
//!
//! Only what breaks nothing is taken: the list's length within its shape's bounds (at least one
//! element) and every element an attribute value the one pass decodes. A `null` element, which the
//! exact path reports as a constraint, or any other anomaly sends the request to the exact path.

use std::fmt;

use dynomodel::AttributeValue;
use serde::de::{Error as _, SeqAccess, Visitor};
use serde_json::Value;

use super::legacy::within;
use super::value::{anomaly, Av};
use super::{lost, Predecoded, Slot};
use crate::protocol::model::{Kind, Service};
use crate::protocol::WireResult;

/// A `PreparedStatementParameters` list (shape `shape`), decoded and marked (JSON `null` stays
/// `null`, an absent list as the exact path reads it).
pub(super) struct Parameters<'b> {
    pub(super) service: &'static Service,
    pub(super) shape: usize,
    pub(super) slots: &'b mut Vec<Slot>,
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
        // `Av` refuses a `null` element: the exact path reports it as a constraint.
        while let Some(value) = seq.next_element_seed(Av)? {
            values.push(value);
        }
        if !within(length, values.len()) {
            return Err(A::Error::custom(anomaly()));
        }
        Ok(Predecoded::mark(self.slots, Slot::Parameters(values)))
    }
}

impl Predecoded {
    /// The PartiQL parameters `v` stands for, if `v` is a marker.
    pub(crate) fn parameters(&mut self, v: &Value) -> Option<WireResult<Vec<AttributeValue>>> {
        match self.take(v)? {
            Slot::Parameters(values) => Some(Ok(values)),
            _ => Some(Err(lost(v))),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::protocol::model::{self, Kind};

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
