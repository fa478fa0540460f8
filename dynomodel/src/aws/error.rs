//! Mapping the SDK's errors onto [`crate::Error`].
//!
//! The mapping is by DynamoDB's error *code* (`ProvideErrorMetadata::code`), not by the SDK's typed
//! variants: `ValidationException`, for one, is not modelled by the SDK at all and arrives as "unhandled",
//! and an emulator may send a code the SDK version predates. The message is DynamoDB's own text, taken from
//! the error metadata unmodified, so that users (and the dual-backend tests) see exactly what DynamoDB
//! said. The typed variants are consulted only for the payload that the code alone does not carry: the
//! old item of a failed condition and the cancellation reasons of a transaction.

use std::fmt::Debug;

use aws_sdk_dynamodb::error::{ProvideErrorMetadata, SdkError};
use aws_sdk_dynamodb::operation as op;
use aws_sdk_dynamodb::types as sdk;
use aws_smithy_types::error::display::DisplayErrorContext;

use super::value::from_sdk_item;
use crate::error::{CancellationReason, Error};
use crate::value::Item;

/// The payload some operation errors carry beyond code and message.
pub(crate) trait ErrorDetails {
    /// The item attached to a `ConditionalCheckFailedException` (`ReturnValuesOnConditionCheckFailure`).
    fn conditional_item(&self) -> Option<Item> {
        None
    }

    /// The reasons of a `TransactionCanceledException`, one per action.
    fn cancellation_reasons(&self) -> Vec<CancellationReason> {
        Vec::new()
    }
}

/// A returned item that fails to convert is dropped rather than turning a DynamoDB error into a conversion
/// error: the error (code and message) is what the caller needs to see first.
fn item_of(e: &sdk::error::ConditionalCheckFailedException) -> Option<Item> {
    e.item().and_then(|i| from_sdk_item(i.clone()).ok())
}

fn reasons_of(reasons: &[sdk::CancellationReason]) -> Vec<CancellationReason> {
    reasons
        .iter()
        .map(|r| CancellationReason {
            // DynamoDB sends the literal code "None" for actions that did not fail.
            code: r.code().unwrap_or("None").into(),
            message: r.message().map(str::to_owned),
            item: r.item().and_then(|i| from_sdk_item(i.clone()).ok()),
            action: None,
        })
        .collect()
}

macro_rules! conditional_item {
    ($($error:ty),* $(,)?) => {$(
        impl ErrorDetails for $error {
            fn conditional_item(&self) -> Option<Item> {
                match self {
                    Self::ConditionalCheckFailedException(e) => item_of(e),
                    _ => None,
                }
            }
        }
    )*};
}

conditional_item!(
    op::put_item::PutItemError,
    op::delete_item::DeleteItemError,
    op::update_item::UpdateItemError,
    op::execute_statement::ExecuteStatementError,
);

impl ErrorDetails for op::transact_write_items::TransactWriteItemsError {
    fn cancellation_reasons(&self) -> Vec<CancellationReason> {
        match self {
            Self::TransactionCanceledException(e) => reasons_of(e.cancellation_reasons()),
            _ => Vec::new(),
        }
    }
}

impl ErrorDetails for op::transact_get_items::TransactGetItemsError {
    fn cancellation_reasons(&self) -> Vec<CancellationReason> {
        match self {
            Self::TransactionCanceledException(e) => reasons_of(e.cancellation_reasons()),
            _ => Vec::new(),
        }
    }
}

impl ErrorDetails for op::execute_transaction::ExecuteTransactionError {
    fn cancellation_reasons(&self) -> Vec<CancellationReason> {
        match self {
            Self::TransactionCanceledException(e) => reasons_of(e.cancellation_reasons()),
            _ => Vec::new(),
        }
    }
}

impl ErrorDetails for op::batch_execute_statement::BatchExecuteStatementError {}
impl ErrorDetails for op::create_table::CreateTableError {}
impl ErrorDetails for op::describe_table::DescribeTableError {}
impl ErrorDetails for op::list_tables::ListTablesError {}
impl ErrorDetails for op::delete_table::DeleteTableError {}
impl ErrorDetails for op::get_item::GetItemError {}
impl ErrorDetails for op::query::QueryError {}
impl ErrorDetails for op::scan::ScanError {}
impl ErrorDetails for op::batch_get_item::BatchGetItemError {}
impl ErrorDetails for op::batch_write_item::BatchWriteItemError {}
impl ErrorDetails for op::update_table::UpdateTableError {}
impl ErrorDetails for op::update_time_to_live::UpdateTimeToLiveError {}
impl ErrorDetails for op::describe_time_to_live::DescribeTimeToLiveError {}
impl ErrorDetails for op::tag_resource::TagResourceError {}
impl ErrorDetails for op::untag_resource::UntagResourceError {}
impl ErrorDetails for op::list_tags_of_resource::ListTagsOfResourceError {}
impl ErrorDetails for op::describe_limits::DescribeLimitsError {}
impl ErrorDetails for op::describe_endpoints::DescribeEndpointsError {}
impl ErrorDetails for op::create_backup::CreateBackupError {}
impl ErrorDetails for op::describe_backup::DescribeBackupError {}
impl ErrorDetails for op::list_backups::ListBackupsError {}
impl ErrorDetails for op::delete_backup::DeleteBackupError {}
impl ErrorDetails for op::restore_table_from_backup::RestoreTableFromBackupError {}
impl ErrorDetails for op::describe_continuous_backups::DescribeContinuousBackupsError {}
impl ErrorDetails for op::update_continuous_backups::UpdateContinuousBackupsError {}
impl ErrorDetails for op::restore_table_to_point_in_time::RestoreTableToPointInTimeError {}

/// Maps any SDK operation error onto [`Error`] (cold: out of the code of a request that
/// succeeds).
#[cold]
#[inline(never)]
pub(crate) fn map_sdk_error<E, R>(err: SdkError<E, R>) -> Error
where
    E: ProvideErrorMetadata + ErrorDetails + std::error::Error + Send + Sync + 'static,
    R: Debug,
{
    match err {
        SdkError::ServiceError(service) => {
            let e = service.into_err();
            match e.code() {
                Some(code) => from_code(code, e.message().unwrap_or_default(), &e),
                // A response the SDK recognised as an error but without a code (e.g. an HTML 502 from a
                // proxy): nothing DynamoDB-shaped to report, so it is a transport problem.
                None => Error::Transport(DisplayErrorContext(&e).to_string()),
            }
        }
        // Construction, dispatch, timeout and unparseable-response failures: DynamoDB never answered (or
        // never answered intelligibly).
        other => Error::Transport(DisplayErrorContext(&other).to_string()),
    }
}

/// Maps a DynamoDB error code and message onto [`Error`]; `details` supplies typed payloads.
pub(crate) fn from_code(code: &str, message: &str, details: &dyn ErrorDetails) -> Error {
    let message = message.to_owned();
    match code {
        "ValidationException" => Error::Validation { message },
        "ConditionalCheckFailedException" => Error::ConditionalCheckFailed {
            message,
            item: details.conditional_item(),
        },
        "TransactionCanceledException" => Error::TransactionCanceled {
            message,
            reasons: details.cancellation_reasons(),
        },
        "ResourceNotFoundException" => Error::ResourceNotFound { message },
        "ResourceInUseException" => Error::ResourceInUse { message },
        "ProvisionedThroughputExceededException"
        | "RequestLimitExceeded"
        | "ThrottlingException" => Error::Throughput {
            code: code.to_owned(),
            message,
        },
        _ => Error::Service {
            code: code.to_owned(),
            message,
        },
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::error::CancellationCode;
    use aws_sdk_dynamodb::types::AttributeValue as SdkValue;

    struct NoDetails;
    impl ErrorDetails for NoDetails {}

    #[test]
    fn codes_map_to_variants_with_the_message_unmodified() {
        let m = "One or more parameter values were invalid: x ";
        assert_eq!(
            from_code("ValidationException", m, &NoDetails),
            Error::Validation { message: m.into() }
        );
        assert_eq!(
            from_code("ThrottlingException", "slow", &NoDetails),
            Error::Throughput {
                code: "ThrottlingException".into(),
                message: "slow".into()
            }
        );
        let e = from_code("IdempotentParameterMismatchException", "m", &NoDetails);
        assert_eq!(e.code(), "IdempotentParameterMismatchException");
        assert!(matches!(e, Error::Service { .. }));
    }

    #[test]
    fn conditional_failure_keeps_the_item() {
        let typed = sdk::error::ConditionalCheckFailedException::builder()
            .message("The conditional request failed")
            .item("pk", SdkValue::S("a".into()))
            .build();
        let e = op::put_item::PutItemError::ConditionalCheckFailedException(typed);
        let err = from_code(
            "ConditionalCheckFailedException",
            "The conditional request failed",
            &e,
        );
        let Error::ConditionalCheckFailed { message, item } = err else {
            panic!("{err:?}")
        };
        assert_eq!(message, "The conditional request failed");
        assert_eq!(item.unwrap()["pk"].as_s(), Some("a"));
    }

    #[test]
    fn transaction_reasons_keep_order_and_none() {
        let typed = sdk::error::TransactionCanceledException::builder()
            .message("Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]")
            .cancellation_reasons(sdk::CancellationReason::builder().code("None").build())
            .cancellation_reasons(
                sdk::CancellationReason::builder()
                    .code("ConditionalCheckFailed")
                    .message("The conditional request failed")
                    .build(),
            )
            .build();
        let e =
            op::transact_write_items::TransactWriteItemsError::TransactionCanceledException(typed);
        let Error::TransactionCanceled { reasons, .. } =
            from_code("TransactionCanceledException", "m", &e)
        else {
            panic!()
        };
        assert_eq!(reasons.len(), 2);
        assert_eq!(reasons[0].code, CancellationCode::None);
        assert_eq!(reasons[0].message, None);
        assert_eq!(reasons[1].code, CancellationCode::ConditionalCheckFailed);
    }
}
