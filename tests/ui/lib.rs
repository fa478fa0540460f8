//! Compile-fail cases for the derives live in `cases/`; `run.rs` checks them with trybuild.
