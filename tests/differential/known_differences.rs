//! Where DynamoDB Local 3.3.1 deviates from Amazon DynamoDB's documented (or observed) behaviour, the
//! engine follows DynamoDB. Each accepted deviation is one row below, matched exactly: the engine's
//! message (a prefix where it names a value) and DynamoDB Local's. The same table, with sources, is in
//! `tests/dual/deviations.md`. Anything not listed is a divergence and fails the test.

use crate::apply::Answer;
use crate::gen::{Op, TableRef};

/// `(engine message prefix, DynamoDB Local message)` pairs for the same error type.
const WORDING: &[(&str, &str)] = &[
    // ResourceNotFoundException: AWS "Requested resource not found[: Table: X not found]".
    ("Requested resource not found", "Cannot do operations on a non-existent table"),
    // Key element count or names wrong in GetItem/DeleteItem.
    ("The provided key element does not match the schema", "The number of conditions on the keys is invalid"),
    // Key element of the wrong type in GetItem/DeleteItem.
    (
        "The provided key element does not match the schema",
        "One or more parameter values were invalid: Type mismatch for key",
    ),
    // PutItem without a key attribute.
    ("One or more parameter values were invalid: Missing the key ", "One of the required keys was not given a value"),
    // PutItem key attribute of the wrong type: DynamoDB Local cuts the message short.
    (
        "One or more parameter values were invalid: Type mismatch for key ",
        "One or more parameter values were invalid: Type mismatch for key",
    ),
    // Key size limits (AWS wording observed by dynalite and moto, "of2048" sic).
    (
        "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes",
        "Hash primary key values must be under 2048 bytes, and range primary key values must be under 1024 bytes",
    ),
    (
        "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes",
        "Hash primary key values must be under 2048 bytes, and range primary key values must be under 1024 bytes",
    ),
];

/// Whether `engine` and `local` differ only by a listed DynamoDB Local deviation.
pub fn reconcile(op: &Op, engine: &Answer, local: &Answer) -> bool {
    let (
        Answer::Err {
            code: engine_code,
            message: engine_message,
            ..
        },
        Answer::Err {
            code: local_code,
            message: local_message,
            ..
        },
    ) = (engine, local)
    else {
        return false;
    };
    // Order of checks: DynamoDB Local looks the table up before validating anything else, so a bad
    // request to a missing table is ResourceNotFound there; DynamoDB validates the request first.
    if op.table() == TableRef::Missing
        && engine_code == "ValidationException"
        && local_code == "ResourceNotFoundException"
    {
        return true;
    }
    // Duplicate SS elements: DynamoDB's message (recorded by dynalite) ends with a period that
    // DynamoDB Local 3.3 omits; the listed elements must still agree.
    let duplicate_strings = local_message
        .starts_with("One or more parameter values were invalid: Input collection [")
        && *engine_message == format!("{local_message}.");
    engine_code == local_code
        && (duplicate_strings
            || WORDING.iter().any(|(engine_prefix, local_text)| {
                engine_message.starts_with(engine_prefix) && local_message == local_text
            }))
}
