//! DynamoDB's PartiQL error texts.
//!
//! Sources: DynamoDB Local 3.3.1 (probed with boto3; its PartiQL front end is the service's), the API
//! reference's `BatchStatementError` codes, and public captures of the service (the
//! "Statement wasn't well formed, can't be processed: " prefix with a parser detail, where Local echoes
//! the statement instead: see tests/dual/deviations.md).

use dynomodel::Error;

/// The prefix of every syntax error.
pub(crate) const MALFORMED: &str = "Statement wasn't well formed, can't be processed: ";
/// `?` placeholders and `Parameters` differ in number.
pub(crate) const PARAMETER_COUNT: &str =
    "Number of parameters in request and statement don't match.";
/// An `UPDATE` or `DELETE` (or a batch/transaction `SELECT`) without the full key.
pub(crate) const KEY_EQUALITY: &str =
    "Where clause does not contain a mandatory equality on all key attributes";
/// `INSERT` of an existing key (`DuplicateItemException`).
pub(crate) const DUPLICATE: &str = "Duplicate primary key exists in table";
/// A batch `SELECT` that is not a single-item read.
pub(crate) const SINGLE_ITEM_SELECT: &str = "Only single item select is supported";
/// A batch of reads and writes.
pub(crate) const MIXED_BATCH: &str =
    "Read and write requests together in the same batch is not supported.";
/// A transaction of reads and writes.
pub(crate) const MIXED_TRANSACTION: &str =
    "ExecuteTransaction API does not support both read and write operations in the same request.";
/// A transaction `SELECT` without the full key (after `Validation failed in TransactStatements[i]: `).
pub(crate) const TRANSACTION_SELECT: &str =
    "Select statements within ExecuteTransaction must specify the primary key in the where clause.";
/// A value of the wrong type compared with a key attribute (the Query/Scan text).
pub(crate) const CONDITION_TYPE: &str =
    "One or more parameter values were invalid: Condition parameter type does not match schema type";
/// `RETURNING` in a transaction (after `Validation failed in TransactStatements[i]: `).
pub(crate) const TRANSACTION_RETURNING: &str =
    "RETURNING clause is not supported in ExecuteTransaction.";
/// A `NextToken` this engine did not issue.
pub(crate) const INVALID_NEXT_TOKEN: &str = "Invalid NextToken";
/// A value form the statement cannot use here (e.g. a path inside `VALUE {…}`).
pub(crate) const UNSUPPORTED_VALUE: &str = "Unsupported value in the statement";
/// A `WHERE` term that is not a condition.
pub(crate) const NOT_A_CONDITION: &str = "Where clause must be a condition";
/// `x IN []`.
pub(crate) const EMPTY_IN: &str = "IN operator requires at least one value";
/// A `<<…>>` of mixed or unsupported types.
pub(crate) const SET_TYPES: &str = "Set values must all be strings, numbers or binaries";
/// `INSERT … VALUE` that is not a map (DynamoDB Local's text, without its position).
pub(crate) const VALUE_NOT_TUPLE: &str = "Unsupported format in item expression. Please use struct format {...} to express item values for insert statement.";
/// Keys repeated in a batch (BatchGetItem's / BatchWriteItem's text).
pub(crate) const DUPLICATE_KEYS: &str = "Provided list of item keys contains duplicates";
/// `INSERT … RETURNING …` (DynamoDB Local's text).
pub(crate) const INSERT_RETURNING: &str = "RETURNING is not supported in INSERT";

/// A `DELETE` returning anything but the old item (DynamoDB Local's text).
pub(crate) fn delete_returning(clause: &str) -> Error {
    Error::validation(format!(
        "Invalid returning clause: {clause}. Only RETURNING ALL OLD * is allowed in DELETE statements."
    ))
}

/// A batch of more than 25 statements.
pub(crate) const BATCH_TOO_LARGE: &str =
    "1 validation error detected: Value at 'statements' failed to satisfy constraint: Member must have length less than or equal to 25";
/// A transaction of more than 100 statements.
pub(crate) const TRANSACTION_TOO_LARGE: &str =
    "1 validation error detected: Value at 'transactStatements' failed to satisfy constraint: Member must have length less than or equal to 100";

/// A syntax error with its detail.
pub(crate) fn malformed(detail: &str) -> Error {
    Error::validation(format!("{MALFORMED}{detail}"))
}

/// A key attribute missing from `INSERT`'s value.
pub(crate) fn missing_key(name: &str) -> Error {
    Error::validation(format!(
        "Key attribute should be present in the item: Key {name}"
    ))
}

/// A function PartiQL on DynamoDB does not have (DynamoDB Local's text).
pub(crate) fn unsupported_function(name: &str) -> Error {
    Error::validation(format!("Unrecognized function: {name}"))
}

/// A nested path into a key attribute in a write's key terms (DynamoDB's PartiQL text,
/// `KEY_ATTRIBUTE_NESTED_PATH_FOUND`: no colon after `Key`, unlike the expression API's).
pub(crate) fn nested_key(name: &str) -> Error {
    Error::validation(format!(
        "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key {name}"
    ))
}

/// A key value of the wrong type (DynamoDB Local's text).
pub(crate) fn key_type(name: &str) -> Error {
    Error::validation(format!(
        "Key attribute's data type should match its data type in table's schema: Key {name}"
    ))
}

/// An `UPDATE` or `DELETE` whose `WHERE` fixes a key attribute to two values (DynamoDB Local's text).
pub(crate) fn several_keys(name: &str) -> Error {
    Error::validation(format!(
        "Multiple conditions on same key {name}. Only single item Update/Insert/Delete are supported"
    ))
}

/// A `SELECT` on an index the table does not have (DynamoDB Local's text).
pub(crate) fn no_index(name: &str) -> Error {
    Error::validation(format!(
        "The table does not have the specified index: {name}"
    ))
}

/// A known function with the wrong arguments.
pub(crate) fn function_arguments(name: &str) -> Error {
    malformed(&format!("Invalid arguments for function: {name}"))
}

/// `ExecuteStatement` on a missing table, as the engine's item operations answer it.
pub(crate) fn no_table() -> Error {
    Error::resource_not_found("Requested resource not found")
}

/// An error of an underlying operation without its `Invalid <Kind>Expression: ` prefix: a statement has
/// no expression parameters, and DynamoDB's PartiQL texts name none (DynamoDB Local 3.3.1:
/// `Incorrect operand type for operator or function; …` alone).
pub(crate) fn unprefixed(e: Error) -> Error {
    const KINDS: [&str; 5] = [
        "Invalid ConditionExpression: ",
        "Invalid FilterExpression: ",
        "Invalid KeyConditionExpression: ",
        "Invalid UpdateExpression: ",
        "Invalid ProjectionExpression: ",
    ];
    match e {
        Error::Validation { message } => {
            let message = KINDS
                .iter()
                .find_map(|k| message.strip_prefix(k))
                .map_or_else(|| message.clone(), str::to_owned);
            Error::Validation { message }
        }
        other => other,
    }
}

/// `DuplicateItemException`.
pub(crate) fn duplicate() -> Error {
    Error::Service {
        code: "DuplicateItemException".into(),
        message: DUPLICATE.into(),
    }
}

/// The `BatchStatementError` code of an error: DynamoDB's exception name without `Exception`
/// (`ConditionalCheckFailed`, `DuplicateItem`, `ResourceNotFound`, …), `ValidationError` for
/// validation.
pub(crate) fn batch_code(error: &Error) -> String {
    let code = error.code();
    if code == "ValidationException" {
        return "ValidationError".into();
    }
    code.strip_suffix("Exception").unwrap_or(code).to_owned()
}
