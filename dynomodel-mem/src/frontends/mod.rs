//! Front ends that translate another request language into the operations: PartiQL
//! ([`partiql`]: ExecuteStatement, BatchExecuteStatement, ExecuteTransaction).

pub(crate) mod partiql;
