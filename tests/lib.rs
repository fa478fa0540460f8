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
