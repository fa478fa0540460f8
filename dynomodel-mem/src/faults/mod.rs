//! Deterministic fault injection on the engine: [`dynomodel::faults`], which the engine applies
//! itself, around each data-plane request.
//!
//! The rules are `dynomodel`'s (the same rules run over any backend through
//! [`FaultyBackend`](dynomodel::faults::FaultyBackend)); the engine checks them in its own
//! `Backend` methods, so that a request pays one atomic load when no rule is armed and the rules
//! also apply to the operations its PartiQL statements run. They are given when the engine is
//! built ([`MemBackendBuilder::faults`]), armed and cleared while it runs through its
//! [`FaultHandle`] ([`MemBackend::faults`]), and over HTTP through the server's
//! `/_dynomodel/faults` endpoint.
//!
//! ```
//! use dynomodel::{Db, Model};
//! use dynomodel_mem::faults::{FaultError, Operation, Rule};
//! use dynomodel_mem::MemBackend;
//!
//! #[derive(Model, Debug, Clone, PartialEq)]
//! #[dynomodel(table = "tweets")]
//! struct Tweet { #[hash_key] id: String, text: String }
//!
//! # tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap().block_on(async {
//! let backend = MemBackend::new();
//! let db = Db::new(backend.clone());
//! db.create_schema::<Tweet>().await?;
//!
//! // The 2nd PutItem on `tweets` times out after the item was written.
//! backend.faults().add(
//!     Rule::on(Operation::PutItem).table("tweets").nth(2).fail(FaultError::InternalServerError).after(),
//! );
//! db.put(&Tweet { id: "1".into(), text: "first".into() }).await?;
//! let err = db.put(&Tweet { id: "2".into(), text: "second".into() }).await.unwrap_err();
//! assert_eq!(err.code(), "InternalServerError");
//! // The write happened although the call failed.
//! assert!(db.get::<Tweet>("2").await?.is_some());
//! # Ok::<(), dynomodel::Error>(())
//! # }).unwrap();
//! ```
//!
//! [`MemBackendBuilder::faults`]: crate::MemBackendBuilder::faults
//! [`MemBackend::faults`]: crate::MemBackend::faults

#[cfg(test)]
mod tests;

pub use dynomodel::faults::{
    ArmedRule, FaultError, FaultHandle, Faults, Operation, Portion, Rule, RuleId, Timing,
};
