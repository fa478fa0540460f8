//! The workload's items as Dynoxide's requests.

use std::collections::HashMap;

use dynomodel::{AttributeValue, Item};
use dynoxide::types::AttributeValue as Dx;

/// One value in Dynoxide's form (the workload has S, N and BOOL only).
pub fn value(v: &AttributeValue) -> Dx {
    match v {
        AttributeValue::S(s) => Dx::S(s.clone()),
        AttributeValue::N(n) => Dx::N(n.to_string()),
        AttributeValue::Bool(b) => Dx::BOOL(*b),
        other => panic!("not in the workload: {other:?}"),
    }
}

/// An item in Dynoxide's form.
pub fn item(item: &Item) -> HashMap<String, Dx> {
    item.iter().map(|(k, v)| (k.clone(), value(v))).collect()
}
