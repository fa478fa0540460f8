//! Shared helpers for the cross-crate test suite.

/// The README's example, compiled and run as a doctest so that it cannot rot.
#[doc = include_str!("../README.md")]
mod readme {}
