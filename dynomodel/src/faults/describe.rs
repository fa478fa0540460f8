//! A rule in words (`Display`), for listings of the armed rules: the server's `GET
//! /_dynomodel/faults` and its console.

use std::fmt;

use super::rule::{Effect, FaultError, Portion, Rule, Timing, When};

impl fmt::Display for Rule {
    /// E.g. `PutItem on table "tweets", the 3rd, fails with InternalServerError after the write`.
    ///
    /// ```
    /// use dynomodel::faults::{FaultError, Operation, Rule};
    ///
    /// let rule = Rule::on(Operation::PutItem).table("tweets").nth(3)
    ///     .fail(FaultError::InternalServerError).after();
    /// assert_eq!(
    ///     rule.to_string(),
    ///     "PutItem on table \"tweets\", the 3rd, fails with InternalServerError after the write"
    /// );
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.operations.as_slice() {
            [] => f.write_str("any request")?,
            operations => {
                for (i, operation) in operations.iter().enumerate() {
                    f.write_str(if i == 0 { "" } else { "|" })?;
                    f.write_str(operation.name())?;
                }
            }
        }
        if let Some(table) = &self.table {
            write!(f, " on table {table:?}")?;
        }
        if let Some(key) = &self.key {
            f.write_str(" with key {")?;
            for (i, (name, value)) in key.iter().enumerate() {
                write!(f, "{}{name}: {value}", if i == 0 { "" } else { ", " })?;
            }
            f.write_str("}")?;
        }
        match self.when {
            When::Every => f.write_str(", every time")?,
            When::Nth(n) => write!(f, ", the {n}{}", ordinal_suffix(n))?,
            When::Times(n) => write!(f, ", the next {n}")?,
            When::Probability { ratio, seed } => {
                write!(f, ", with probability {ratio} (seed {seed})")?
            }
        }
        match &self.effect {
            Effect::Fail(error) => {
                write!(f, ", fails with {}", code(error))?;
                if self.timing == Timing::After {
                    f.write_str(" after the write")?;
                }
                Ok(())
            }
            Effect::Unprocessed(Portion::Half) => {
                f.write_str(", leaves half of a batch unprocessed")
            }
            Effect::Unprocessed(Portion::Count(n)) => {
                write!(f, ", leaves {n} of a batch unprocessed")
            }
            Effect::Latency(delay) => write!(f, ", delayed by {delay:?}"),
        }
    }
}

/// The error code a fault answers (on a transaction, conflicts and failed conditions are a
/// cancellation; the listing names the reason).
fn code(error: &FaultError) -> &str {
    match error {
        FaultError::ProvisionedThroughputExceeded => "ProvisionedThroughputExceededException",
        FaultError::Throttling => "ThrottlingException",
        FaultError::RequestLimitExceeded => "RequestLimitExceeded",
        FaultError::InternalServerError => "InternalServerError",
        FaultError::TransactionConflict => "TransactionConflict",
        FaultError::ConditionalCheckFailed => "ConditionalCheckFailed",
        FaultError::Custom { code, .. } => code,
    }
}

/// `st`, `nd`, `rd` or `th`.
fn ordinal_suffix(n: u64) -> &'static str {
    match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::rule::Operation;
    use super::*;
    use crate::AttributeValue;

    #[test]
    fn rules_in_words() {
        assert_eq!(
            Rule::any().to_string(),
            "any request, every time, fails with ProvisionedThroughputExceededException"
        );
        let key = [("id", AttributeValue::S("a1".into()))];
        assert_eq!(
            Rule::on_any([Operation::GetItem, Operation::Query])
                .key(key)
                .times(2)
                .fail(FaultError::Throttling)
                .to_string(),
            "GetItem|Query with key {id: {\"S\":\"a1\"}}, the next 2, fails with ThrottlingException"
        );
        assert_eq!(
            Rule::writes()
                .probability(0.5, 7)
                .latency(Duration::from_millis(20))
                .to_string(),
            "PutItem|UpdateItem|DeleteItem|BatchWriteItem|TransactWriteItems, with probability \
             0.5 (seed 7), delayed by 20ms"
        );
        assert_eq!(
            Rule::on(Operation::BatchWriteItem)
                .nth(12)
                .unprocessed(Portion::Count(3))
                .to_string(),
            "BatchWriteItem, the 12th, leaves 3 of a batch unprocessed"
        );
        for (n, text) in [
            (1, "1st"),
            (2, "2nd"),
            (3, "3rd"),
            (4, "4th"),
            (11, "11th"),
            (22, "22nd"),
            (113, "113th"),
        ] {
            assert_eq!(format!("{n}{}", ordinal_suffix(n)), text);
        }
    }
}
