//! Nothing: this crate only holds the Dynoxide peer benches (`benches/`).
