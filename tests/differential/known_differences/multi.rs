//! DynamoDB Local's deviations in the multi-item operations (BatchGetItem, BatchWriteItem,
//! TransactGetItems, TransactWriteItems). Each is asserted in the dual suite (`tests/dual/batch/`,
//! `tests/dual/transactions/`) and listed, with its source, in `tests/dual/deviations.md`; here they are
//! accepted in the shapes the generator provokes, and nothing else.

use super::{both_errors, UPDATE_RUNTIME_ERRORS, WORDING};
use crate::apply::Answer;
use crate::generator::{Op, TableRef};

/// A cancellation reason as compared: code, message, item.
type Reason = (String, Option<String>, Option<dynomodel::Item>);

/// `(text the engine's message contains, DynamoDB Local's message prefix)` for request-level limits:
/// DynamoDB reports them in the service model's constraint form, DynamoDB Local with texts of its own.
const CONSTRAINTS: &[(&str, &str)] = &[
    // An empty write list, or 26 writes in one table.
    (
        "at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]",
        "The batch write request list for a table cannot be null or empty: ",
    ),
    (
        "at 'requestItems' failed to satisfy constraint: Map value must satisfy constraint: [Member must have length less than or equal to 25, Member must have length greater than or equal to 1]",
        "Too many items requested for the BatchWriteItem call",
    ),
    // 101 keys in one table.
    (
        ".member.Keys' failed to satisfy constraint: Member must have length less than or equal to 100",
        "Too many items requested for the BatchGetItem call",
    ),
    // 101 transaction actions.
    (
        "' at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100",
        "Member must have length less than or equal to 100",
    ),
    // A 37-character token: the same constraint without the prefix and the quotes.
    (
        "at 'clientRequestToken' failed to satisfy constraint: Member must have length less than or equal to 36",
        "Value ",
    ),
    // A key `{}` in a BatchGetItem.
    (
        "The provided key element does not match the schema",
        "The list of keys in RequestItems for BatchGetItem may not contain null or empty values: ",
    ),
    // A BatchWriteItem put without a key attribute, or of an empty item (dynalite's recordings of
    // DynamoDB's text).
    (
        "The provided key element does not match the schema",
        "One of the required keys was not given a value",
    ),
    (
        "The provided key element does not match the schema",
        "Item to put in PutItem cannot be null",
    ),
];

/// What DynamoDB Local answers, for a whole transaction, about one action's key or update, where
/// DynamoDB cancels the transaction with a `ValidationError` reason for that action.
const LOCAL_ACTION_ERRORS: &[&str] = &[
    "The number of conditions on the keys is invalid",
    "One or more parameter values were invalid: Type mismatch for key",
    "Hash primary key values must be under 2048 bytes, and range primary key values must be under 1024 bytes",
    "Invalid attribute value type",
    "One of the required keys was not given a value",
    "DynamoDB only supports precision up to 38 digits",
];

/// Whether the engine's and DynamoDB Local's answers to a multi-item operation differ only by a
/// documented deviation.
pub(super) fn reconcile(op: &Op, engine: &Answer, local: &Answer) -> bool {
    match op {
        Op::BatchGet { .. } => constraint_wording(engine, local),
        Op::BatchWrite { .. } => constraint_wording(engine, local),
        Op::TransactGet { .. } => {
            constraint_wording(engine, local) || action_error_as_reason(engine, local)
        }
        Op::TransactWrite { .. } => {
            constraint_wording(engine, local)
                || token_mismatch_without_message(engine, local)
                || missing_table_before_running(op, engine, local)
                || validated_before_any_action(engine)
                || first_reason_only(engine, local)
                || action_error_as_reason(engine, local)
                || reasons_worded_differently(engine, local)
                || stopped_at_first_validation_error(engine, local)
        }
        _ => false,
    }
}

fn constraint_wording(engine: &Answer, local: &Answer) -> bool {
    let Some(((a, m), (b, n))) = both_errors(engine, local) else {
        return false;
    };
    a == b
        && CONSTRAINTS
            .iter()
            .any(|(ours, theirs)| m.contains(ours) && n.starts_with(theirs))
}

/// `IdempotentParameterMismatchException`: DynamoDB Local sends it with an empty message.
fn token_mismatch_without_message(engine: &Answer, local: &Answer) -> bool {
    matches!(both_errors(engine, local),
        Some(((a, _), (b, ""))) if a == "IdempotentParameterMismatchException" && a == b)
}

/// DynamoDB validates the whole request before it runs any action: two actions on one item, an empty
/// key value, and a condition path into an index key attribute, are request errors. DynamoDB Local
/// checks them action by action as it runs them, so an earlier action's failed condition or update error comes first
/// (probed: `[ConditionCheck(b fails), Put(b)]` is cancelled there, `[Put(b), ConditionCheck(b)]` is the
/// duplicate error), and it does not check index-key paths in transactions at all (its single-item
/// operations do).
fn validated_before_any_action(engine: &Answer) -> bool {
    matches!(engine, Answer::Err { code, message, .. }
        if code == "ValidationException"
            && (message == "Transaction request cannot include multiple operations on one item"
                || message.starts_with("One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty ")
                || message.starts_with("Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: IndexKey: ")))
}

/// An action whose key does not fit its table, or whose update fails against the stored item: DynamoDB
/// cancels the transaction with a `ValidationError` reason for that action (the API reference's list of
/// reasons); DynamoDB Local answers the whole request with a `ValidationException` (or a
/// `TransactionCanceledException` carrying the key error as its message, without reasons).
pub(super) fn action_error_as_reason(engine: &Answer, local: &Answer) -> bool {
    let Answer::Err { code, reasons, .. } = engine else {
        return false;
    };
    let local_error = match local {
        Answer::Err {
            code,
            message,
            reasons,
            ..
        } if reasons.is_empty()
            && (code == "ValidationException" || code == "TransactionCanceledException") =>
        {
            message
        }
        _ => return false,
    };
    code == "TransactionCanceledException"
        && reasons.iter().any(|(c, _, _)| c == "ValidationError")
        && UPDATE_RUNTIME_ERRORS
            .iter()
            .chain(LOCAL_ACTION_ERRORS)
            .any(|m| local_error.starts_with(m))
}

/// Both cancel with the same reason codes, and each reason's message agrees or differs by a listed
/// wording deviation (DynamoDB Local cuts "Type mismatch for key" and "… for Index Key" short).
pub(super) fn reasons_worded_differently(engine: &Answer, local: &Answer) -> bool {
    let (
        Answer::Err {
            code: a,
            reasons: ra,
            ..
        },
        Answer::Err {
            code: b,
            reasons: rb,
            ..
        },
    ) = (engine, local)
    else {
        return false;
    };
    a == b
        && a == "TransactionCanceledException"
        && ra.len() == rb.len()
        && ra
            .iter()
            .zip(rb)
            .all(|(ours, theirs)| same_reason(ours, theirs))
}

/// One cancellation reason, the engine's and DynamoDB Local's: the same code and item, and the same
/// message or one differing by a listed wording deviation.
fn same_reason(ours: &Reason, theirs: &Reason) -> bool {
    let ((ca, ma, ia), (cb, mb, ib)) = (ours, theirs);
    let key_mismatch = (
        "The provided key element does not match the schema",
        "One or more parameter values were invalid: Type mismatch for key",
    );
    let (ma, mb) = (ma.as_deref().unwrap_or(""), mb.as_deref().unwrap_or(""));
    ca == cb
        && ia == ib
        && (ma == mb
            || (ma, mb) == key_mismatch
            || WORDING
                .iter()
                .any(|(ours, theirs)| ma.starts_with(ours) && mb.starts_with(theirs)))
}

/// DynamoDB stops evaluating a transaction at its first `ValidationError` and reports `None` for the
/// actions after it (recorded on the service); DynamoDB Local goes on and reports their failed conditions.
/// The reasons agree up to that first `ValidationError`.
pub(super) fn stopped_at_first_validation_error(engine: &Answer, local: &Answer) -> bool {
    let (
        Answer::Err {
            code: a,
            reasons: ra,
            ..
        },
        Answer::Err {
            code: b,
            reasons: rb,
            ..
        },
    ) = (engine, local)
    else {
        return false;
    };
    let Some(first) = ra.iter().position(|(code, _, _)| code == "ValidationError") else {
        return false;
    };
    a == b
        && a == "TransactionCanceledException"
        && ra.len() == rb.len()
        && ra[..=first]
            .iter()
            .zip(&rb[..=first])
            .all(|(ours, theirs)| same_reason(ours, theirs))
        && ra[first + 1..].iter().all(|(code, _, _)| code == "None")
}

/// A transaction naming a missing table in one action and failing at run time in another: DynamoDB
/// looks every table up before it runs an action (`Requested resource not found`); DynamoDB Local runs
/// the actions in order and reports the update error it meets first.
pub(super) fn missing_table_before_running(op: &Op, engine: &Answer, local: &Answer) -> bool {
    let Some(((a, _), (b, n))) = both_errors(engine, local) else {
        return false;
    };
    op.table() == TableRef::Missing
        && a == "ResourceNotFoundException"
        && b == "ValidationException"
        && UPDATE_RUNTIME_ERRORS.iter().any(|m| n.starts_with(m))
}

/// An Update of a key attribute: DynamoDB Local cancels with that action's reason alone (one reason
/// for several actions), where DynamoDB lists one reason per action. Local's one reason must be one of
/// the engine's.
pub(super) fn first_reason_only(engine: &Answer, local: &Answer) -> bool {
    let (
        Answer::Err {
            code: a,
            reasons: ra,
            ..
        },
        Answer::Err {
            code: b,
            reasons: rb,
            ..
        },
    ) = (engine, local)
    else {
        return false;
    };
    let [only] = rb.as_slice() else {
        return false;
    };
    a == b
        && a == "TransactionCanceledException"
        && ra.len() > 1
        && ra.contains(only)
        && only
            .1
            .as_deref()
            .is_some_and(|m| m.ends_with("This attribute is part of the key"))
}
