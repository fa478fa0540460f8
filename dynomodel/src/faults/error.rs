//! A [`FaultError`] as the [`dynomodel::Error`] DynamoDB would answer for one operation.
//!
//! Messages are the service's: the table throughput message as the in-memory engine answers it (its
//! tests compare the two), the cancellation message from [`Error::transaction_canceled`] (the
//! engine's too); `TransactionConflict`'s "Transaction is ongoing for the item"
//! (API_TransactWriteItems.html, cancellation reasons); `RequestLimitExceeded`'s from the API
//! reference ("Throughput exceeds the current throughput limit for your account. …");
//! `ThrottlingException`'s as SDKs log it ("Rate of requests exceeds the allowed throughput.").

use super::rule::{FaultError, Operation};
use crate::error::{CancellationCode, CancellationReason, Error};

/// `ProvisionedThroughputExceededException`'s message for a table.
const TABLE_EXCEEDED: &str = "The level of configured provisioned throughput for the table was \
                              exceeded. Consider increasing your provisioning level with the \
                              UpdateTable API.";
const CONFLICT: &str = "Transaction is ongoing for the item";
const CONDITION: &str = "The conditional request failed";
const REQUEST_LIMIT: &str = "Throughput exceeds the current throughput limit for your account. \
                             Please contact AWS Support at https://aws.amazon.com/support request a \
                             limit increase";
const THROTTLING: &str = "Rate of requests exceeds the allowed throughput.";

/// The error `fault` answers on `operation`; `at` is the first matching entry, `entries` how many
/// the request has (for a transaction's cancellation reasons).
pub(super) fn render(fault: &FaultError, operation: Operation, at: usize, entries: usize) -> Error {
    let transaction = matches!(
        operation,
        Operation::TransactWriteItems | Operation::TransactGetItems
    );
    match fault {
        FaultError::ProvisionedThroughputExceeded => {
            throughput("ProvisionedThroughputExceededException", TABLE_EXCEEDED)
        }
        FaultError::Throttling => throughput("ThrottlingException", THROTTLING),
        FaultError::RequestLimitExceeded => throughput("RequestLimitExceeded", REQUEST_LIMIT),
        FaultError::InternalServerError => Error::Service {
            code: "InternalServerError".into(),
            message: "Internal server error".into(),
        },
        FaultError::TransactionConflict if transaction => cancelled(
            at,
            entries,
            CancellationReason::new(CancellationCode::TransactionConflict, CONFLICT),
        ),
        FaultError::TransactionConflict => Error::Service {
            code: "TransactionConflictException".into(),
            message: CONFLICT.into(),
        },
        FaultError::ConditionalCheckFailed if operation == Operation::TransactWriteItems => {
            cancelled(
                at,
                entries,
                CancellationReason::new(CancellationCode::ConditionalCheckFailed, CONDITION),
            )
        }
        FaultError::ConditionalCheckFailed => Error::ConditionalCheckFailed {
            message: CONDITION.into(),
            item: None,
        },
        FaultError::Custom { code, message } => custom(code, message),
    }
}

fn throughput(code: &str, message: &str) -> Error {
    Error::Throughput {
        code: code.into(),
        message: message.into(),
    }
}

/// `TransactionCanceledException` with `reason` at action `at`, `None` at the others.
fn cancelled(at: usize, entries: usize, reason: CancellationReason) -> Error {
    let reasons = (0..entries.max(1))
        .map(|i| match i == at {
            true => reason.clone(),
            false => CancellationReason::none(),
        })
        .collect::<Vec<_>>();
    Error::transaction_canceled(reasons)
}

/// A code and message onto the variant the AWS backend would give them.
fn custom(code: &str, message: &str) -> Error {
    let message = message.to_owned();
    match code {
        "ValidationException" => Error::Validation { message },
        "ConditionalCheckFailedException" => Error::ConditionalCheckFailed {
            message,
            item: None,
        },
        "ResourceNotFoundException" => Error::ResourceNotFound { message },
        "ResourceInUseException" => Error::ResourceInUse { message },
        "ProvisionedThroughputExceededException"
        | "RequestLimitExceeded"
        | "ThrottlingException" => Error::Throughput {
            code: code.into(),
            message,
        },
        _ => Error::Service {
            code: code.into(),
            message,
        },
    }
}
