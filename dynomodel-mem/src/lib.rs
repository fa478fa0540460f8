//! In-memory DynamoDB engine.
mod expr;
