//! Shared helpers for the cross-crate test suite.
//!
//! The dual-backend harness lives in [`support`]: a scenario is written once with [`dual_test!`] and runs
//! as two tests, `<name>::mem` (the in-memory engine) and `<name>::dynamodb_local` (the AWS backend against
//! Amazon DynamoDB Local at `DYNAMODB_ENDPOINT`, skipped when it is unset unless
//! `DYNOMODEL_REQUIRE_DYNAMODB_LOCAL=1`; `scripts/test` starts one and requires it).

#![allow(clippy::unwrap_used)]

pub mod support;

pub use support::{mem_backend, run_scenario, Dual, Target};

/// The README's example, compiled and run as a doctest so that it cannot rot.
#[doc = include_str!("../README.md")]
mod readme {}

/// The guide's chapters (`docs/guide/`): every Rust example in them is compiled and run as a doctest.
mod guide {
    #[doc = include_str!("../docs/guide/README.md")]
    mod contents {}
    #[doc = include_str!("../docs/guide/models.md")]
    mod models {}
    #[doc = include_str!("../docs/guide/queries.md")]
    mod queries {}
    #[doc = include_str!("../docs/guide/updates.md")]
    mod updates {}
    #[doc = include_str!("../docs/guide/batches-and-transactions.md")]
    mod batches_and_transactions {}
    #[doc = include_str!("../docs/guide/schema.md")]
    mod schema {}
    #[doc = include_str!("../docs/guide/capacity-and-streams.md")]
    mod capacity_and_streams {}
    #[doc = include_str!("../docs/guide/single-table.md")]
    mod single_table {}
    #[doc = include_str!("../docs/guide/evolution.md")]
    mod evolution {}
    #[doc = include_str!("../docs/guide/testing.md")]
    mod testing {}
    #[doc = include_str!("../docs/guide/server.md")]
    mod server {}
}
