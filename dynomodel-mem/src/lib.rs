//! In-memory DynamoDB engine.
