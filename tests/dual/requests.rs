//! Shared helpers for the expression, Query and Scan scenarios: name/value maps, a one-table fixture with
//! terse request builders, and [`Checks`], which collects every mismatch of a table-driven scenario before
//! failing, so that one run shows all the differences instead of the first.

use std::fmt::Debug;

use dynomodel::backend::*;
use dynomodel::*;

use super::*;

/// `ExpressionAttributeNames` from pairs; `None` when there are none (an empty map is an error).
pub(crate) fn names<const LEN: usize>(
    pairs: [(&str, &str); LEN],
) -> Option<ExpressionAttributeNames> {
    (LEN > 0).then(|| {
        pairs
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect()
    })
}

/// `ExpressionAttributeValues` from pairs; `None` when there are none.
pub(crate) fn values<const LEN: usize>(
    pairs: [(&str, AttributeValue); LEN],
) -> Option<ExpressionAttributeValues> {
    (LEN > 0).then(|| item(pairs))
}

/// A binary value.
pub(crate) fn bin(bytes: &[u8]) -> AttributeValue {
    AttributeValue::B(bytes.to_vec())
}

/// A list value.
pub(crate) fn list<const LEN: usize>(elements: [AttributeValue; LEN]) -> AttributeValue {
    AttributeValue::L(elements.to_vec())
}

/// A string set.
pub(crate) fn ss<const LEN: usize>(elements: [&str; LEN]) -> AttributeValue {
    AttributeValue::Ss(elements.iter().map(|e| (*e).to_owned()).collect())
}

/// A number set.
pub(crate) fn ns<const LEN: usize>(elements: [&str; LEN]) -> AttributeValue {
    AttributeValue::Ns(elements.iter().map(|e| e.parse().unwrap()).collect())
}

/// A map value.
pub(crate) fn map<const LEN: usize>(pairs: [(&str, AttributeValue); LEN]) -> AttributeValue {
    AttributeValue::M(item(pairs))
}

/// A table keyed by `pk` (S) and the requests the scenarios send to it.
pub(crate) struct Fixture {
    pub(crate) t: Dual,
    pub(crate) table: String,
}

impl Fixture {
    /// Creates the table.
    pub(crate) async fn new(t: &Dual, label: &str) -> Fixture {
        let table = t.create_table(label, ("pk", S), None).await;
        Fixture {
            t: t.clone(),
            table,
        }
    }

    /// The key of item `pk`.
    pub(crate) fn key(pk: &str) -> Item {
        item([("pk", s(pk))])
    }

    /// Puts an item unconditionally.
    pub(crate) async fn put(&self, item: Item) {
        self.t
            .backend()
            .put_item(PutItemInput {
                table_name: self.table.clone(),
                item,
                ..Default::default()
            })
            .await
            .unwrap();
    }

    /// Reads item `pk` (consistently).
    pub(crate) async fn get(&self, pk: &str) -> Option<Item> {
        self.t
            .backend()
            .get_item(GetItemInput {
                table_name: self.table.clone(),
                key: Fixture::key(pk),
                consistent_read: Some(true),
                ..Default::default()
            })
            .await
            .unwrap()
            .item
    }

    /// An UpdateItem request on item `pk`; the scenario fills in names, values and return values.
    pub(crate) fn update(&self, pk: &str, expression: &str) -> UpdateItemInput {
        UpdateItemInput {
            table_name: self.table.clone(),
            key: Fixture::key(pk),
            update_expression: Some(expression.to_owned()),
            ..Default::default()
        }
    }

    /// Sends an UpdateItem with `ReturnValues=ALL_NEW` and returns the item after it.
    pub(crate) async fn updated(&self, mut input: UpdateItemInput) -> Result<Item> {
        input.return_values = Some(ReturnValue::AllNew);
        let out = self.t.backend().update_item(input).await?;
        Ok(out.attributes.unwrap_or_default())
    }

    /// Whether `condition` holds for item `pk`: a conditional DeleteItem-free probe, re-putting the stored
    /// item unchanged under the condition (so the table is the same whichever way it goes).
    pub(crate) async fn holds(
        &self,
        pk: &str,
        condition: &str,
        names: Option<ExpressionAttributeNames>,
        values: Option<ExpressionAttributeValues>,
    ) -> Result<bool> {
        let stored = self.get(pk).await.unwrap_or_else(|| Fixture::key(pk));
        let result = self
            .t
            .backend()
            .put_item(PutItemInput {
                table_name: self.table.clone(),
                item: stored,
                condition_expression: Some(condition.to_owned()),
                expression_attribute_names: names,
                expression_attribute_values: values,
                ..Default::default()
            })
            .await;
        match result {
            Ok(_) => Ok(true),
            Err(Error::ConditionalCheckFailed { .. }) => Ok(false),
            Err(e) => Err(e),
        }
    }
}

/// Collects mismatches of a table-driven scenario and fails once, listing them all.
pub(crate) struct Checks {
    target: Target,
    failures: Vec<String>,
}

impl Checks {
    /// An empty collection for this backend.
    pub(crate) fn new(t: &Dual) -> Checks {
        Checks {
            target: t.target(),
            failures: Vec::new(),
        }
    }

    /// Records a mismatch unless `actual == expected`.
    pub(crate) fn eq<T: Debug + PartialEq>(&mut self, what: &str, actual: T, expected: T) {
        if actual != expected {
            self.failures
                .push(format!("{what}: got {actual:?}, expected {expected:?}"));
        }
    }

    /// Records a mismatch unless `result` is an error with exactly this code and message.
    pub(crate) fn error<T: Debug>(
        &mut self,
        what: &str,
        result: Result<T>,
        code: &str,
        message: &str,
    ) {
        self.error_differs(what, result, code, message, message);
    }

    /// Like [`Checks::error`] with a message that differs between the AWS behaviour (`mem`) and DynamoDB
    /// Local (`local`). Use it only next to a `// KNOWN DIFFERENCE:` comment.
    pub(crate) fn error_differs<T: Debug>(
        &mut self,
        what: &str,
        result: Result<T>,
        code: &str,
        mem: &str,
        local: &str,
    ) {
        let expected = match self.target {
            Target::Mem | Target::Server => mem,
            Target::DynamoDbLocal => local,
        };
        match result {
            Ok(v) => self.failures.push(format!(
                "{what}: got Ok({v:?}), expected {code}: {expected:?}"
            )),
            Err(e) if (e.code(), e.message().as_str()) != (code, expected) => {
                self.failures.push(format!(
                    "{what}: got {}: {:?}, expected {code}: {expected:?}",
                    e.code(),
                    e.message()
                ))
            }
            Err(_) => {}
        }
    }

    /// Panics with every recorded mismatch, if any.
    pub(crate) fn finish(self) {
        assert!(
            self.failures.is_empty(),
            "[{:?}] {} mismatches:\n{}",
            self.target,
            self.failures.len(),
            self.failures.join("\n")
        );
    }
}
