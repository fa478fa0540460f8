//! The exports of the example models (`dynomodel::migrate::Models`): golden files for CloudFormation,
//! Terraform and the API-request JSON, and each CloudFormation table checked against the
//! CreateTable request the mapper sends for it.

#![allow(clippy::unwrap_used)] // Tests: a panic is the failure report.

mod cli;
mod create_table;
mod golden;
mod models;
