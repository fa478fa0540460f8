//! Front ends that translate other request languages into the operations: the legacy parameters
//! ([`legacy`]: `Expected`, `AttributeUpdates`, `KeyConditions`, …) and PartiQL ([`partiql`]).

pub(crate) mod legacy;
pub(crate) mod partiql;
