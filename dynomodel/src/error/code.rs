//! [`CancellationCode`]: why one action of a canceled transaction failed, as DynamoDB names it.

use std::fmt;

/// The code of a [`CancellationReason`](crate::CancellationReason): one of the codes DynamoDB
/// documents for `TransactWriteItems`, `TransactGetItems` and `ExecuteTransaction` (API Reference,
/// `TransactionCanceledException`), or [`Other`](CancellationCode::Other) for a code this version
/// does not know, kept as sent.
///
/// [`as_str`](CancellationCode::as_str) and `Display` give DynamoDB's text, which is also what the
/// engine's HTTP server writes; `From<&str>` reads it back (a known code always becomes its
/// variant, never `Other`).
///
/// ```
/// use dynomodel::CancellationCode;
///
/// let code = CancellationCode::from("TransactionConflict");
/// assert_eq!(code, CancellationCode::TransactionConflict);
/// assert_eq!(code.as_str(), "TransactionConflict");
/// assert_eq!(CancellationCode::None.to_string(), "None");
/// // A code DynamoDB may add later is kept, text and all.
/// let new = CancellationCode::from("SomethingNew");
/// assert_eq!(new, CancellationCode::Other("SomethingNew".into()));
/// assert_eq!(new.as_str(), "SomethingNew");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CancellationCode {
    /// `None`: this action did not fail (another one did).
    None,
    /// `ConditionalCheckFailed`: the action's condition (the user's, a `#[version]` check, or the
    /// mapper's existence check of an update) did not hold.
    ConditionalCheckFailed,
    /// `ItemCollectionSizeLimitExceeded`: the write would take an item collection (a partition of a
    /// table with a local index) over 10 GB.
    ItemCollectionSizeLimitExceeded,
    /// `TransactionConflict`: another transaction or request was working on the item.
    TransactionConflict,
    /// `ProvisionedThroughputExceeded`: the table or an index lacked provisioned capacity.
    ProvisionedThroughputExceeded,
    /// `ThrottlingError`: throttled (e.g. an on-demand table scaling, or a table being created).
    ThrottlingError,
    /// `ValidationError`: the action is invalid for this item (too large, a number out of range, a
    /// document path that does not exist, ...); the reason's message says which.
    ValidationError,
    /// A code not listed above, as DynamoDB sent it.
    Other(String),
}

impl CancellationCode {
    /// The code as DynamoDB writes it, e.g. `"ConditionalCheckFailed"`.
    pub fn as_str(&self) -> &str {
        match self {
            CancellationCode::None => "None",
            CancellationCode::ConditionalCheckFailed => "ConditionalCheckFailed",
            CancellationCode::ItemCollectionSizeLimitExceeded => "ItemCollectionSizeLimitExceeded",
            CancellationCode::TransactionConflict => "TransactionConflict",
            CancellationCode::ProvisionedThroughputExceeded => "ProvisionedThroughputExceeded",
            CancellationCode::ThrottlingError => "ThrottlingError",
            CancellationCode::ValidationError => "ValidationError",
            CancellationCode::Other(code) => code,
        }
    }
}

impl fmt::Display for CancellationCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&str> for CancellationCode {
    fn from(code: &str) -> CancellationCode {
        match code {
            "None" => CancellationCode::None,
            "ConditionalCheckFailed" => CancellationCode::ConditionalCheckFailed,
            "ItemCollectionSizeLimitExceeded" => CancellationCode::ItemCollectionSizeLimitExceeded,
            "TransactionConflict" => CancellationCode::TransactionConflict,
            "ProvisionedThroughputExceeded" => CancellationCode::ProvisionedThroughputExceeded,
            "ThrottlingError" => CancellationCode::ThrottlingError,
            "ValidationError" => CancellationCode::ValidationError,
            other => CancellationCode::Other(other.to_owned()),
        }
    }
}

impl From<String> for CancellationCode {
    fn from(code: String) -> CancellationCode {
        match CancellationCode::from(code.as_str()) {
            // Keeps the string it was given rather than copying it.
            CancellationCode::Other(_) => CancellationCode::Other(code),
            known => known,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_round_trips_through_its_text() {
        let known = [
            CancellationCode::None,
            CancellationCode::ConditionalCheckFailed,
            CancellationCode::ItemCollectionSizeLimitExceeded,
            CancellationCode::TransactionConflict,
            CancellationCode::ProvisionedThroughputExceeded,
            CancellationCode::ThrottlingError,
            CancellationCode::ValidationError,
        ];
        for code in known {
            let text = code.to_string();
            assert_eq!(text, code.as_str());
            assert_eq!(CancellationCode::from(text.as_str()), code);
            assert_eq!(CancellationCode::from(text), code);
        }
        let other = CancellationCode::from("DuplicateItem".to_owned());
        assert_eq!(other, CancellationCode::Other("DuplicateItem".into()));
        assert_eq!(CancellationCode::from(other.as_str()), other);
        // Codes are case-sensitive, as DynamoDB's are.
        assert_eq!(
            CancellationCode::from("none"),
            CancellationCode::Other("none".into())
        );
    }
}
