//! PartiQL: `ExecuteStatement`, `BatchExecuteStatement` and `ExecuteTransaction`.
//!
//! A statement is tokenized ([`lexer`]), parsed ([`parser`], into [`ast`]), then planned ([`plan`],
//! [`schema`], [`select`], [`write`], [`execute`], [`batch`], [`transaction`]) onto the engine's own
//! operations with generated `#nN`/`:vN` placeholders:
//! a `SELECT` whose `WHERE` fixes the partition key by equality is a Query (a sort-key term becomes
//! part of the key condition, the rest a filter), any other a Scan; `INSERT` is a PutItem on the
//! condition that the key is new (`DuplicateItemException` otherwise), `UPDATE` an UpdateItem on the
//! condition that the item exists, `DELETE` a DeleteItem; a transaction is a TransactGetItems or a
//! TransactWriteItems. Semantics, validation, capacity and stream records are therefore exactly those of
//! the expression API.

mod ast;
mod batch;
mod errors;
mod execute;
mod lexer;
mod parser;
mod plan;
mod schema;
mod select;
mod token;
mod transaction;
mod write;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_caps;
#[cfg(test)]
mod tests_differential;
#[cfg(test)]
mod tests_differential_multi;

pub(crate) use batch::batch_execute_statement;
pub(crate) use execute::execute_statement;
/// A statement's syntax and its number of `?`, for the one pass's oracle (`protocol::fast`).
#[cfg(all(test, feature = "protocol"))]
pub(crate) use schema::parse_syntax;
pub(crate) use transaction::execute_transaction;
