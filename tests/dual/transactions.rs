//! TransactWriteItems and TransactGetItems — atomicity across tables, indexes, one action per
//! item, cancellation reasons, request errors and their order, ClientRequestToken, reads.
//!
//! The engine's rules and their sources are in `dynomodel-mem/src/ops/transact/mod.rs`. DynamoDB Local
//! 3.3.1 departs from real DynamoDB here more than anywhere else; every departure is asserted per
//! backend next to a `// KNOWN DIFFERENCE:` comment and listed in `deviations.md`. The token window
//! (10 minutes) is tested on the engine's manual clock in `dynomodel-mem`'s unit tests only.

mod gets;
mod reasons;
mod requests;
mod tokens;
mod writes;

use dynomodel::backend::*;
use dynomodel::*;

use super::*;

/// DynamoDB Local's message for every operation on a missing table.
const LOCAL_NOT_FOUND: &str = "Cannot do operations on a non-existent table";

/// Real DynamoDB's (and the engine's) message for item operations on a missing table.
const NOT_FOUND: &str = "Requested resource not found";

/// Two tables: `acct` (pk S) with the GSI `by-g` (g S, all attributes), and `log` (pk S, sk N).
struct Bank {
    t: Dual,
    acct: String,
    log: String,
}

impl Bank {
    async fn new(t: &Dual) -> Bank {
        let acct = t.table_name("acct");
        t.backend()
            .create_table(CreateTableInput {
                table_name: acct.clone(),
                attribute_definitions: vec![
                    AttributeDefinition {
                        attribute_name: "pk".into(),
                        attribute_type: S,
                    },
                    AttributeDefinition {
                        attribute_name: "g".into(),
                        attribute_type: S,
                    },
                ],
                key_schema: vec![KeySchemaElement::hash("pk")],
                billing_mode: Some(BillingMode::PayPerRequest),
                global_secondary_indexes: vec![GlobalSecondaryIndex {
                    index_name: "by-g".into(),
                    key_schema: vec![KeySchemaElement::hash("g")],
                    projection: Projection {
                        projection_type: ProjectionType::All,
                        non_key_attributes: vec![],
                    },
                    provisioned_throughput: None,
                }],
                ..Default::default()
            })
            .await
            .unwrap();
        let log = t.create_table("log", ("pk", S), Some(("sk", N))).await;
        Bank {
            t: t.clone(),
            acct,
            log,
        }
    }

    /// Sends a TransactWriteItems.
    async fn write(&self, actions: Vec<TransactWriteItem>) -> Result<()> {
        self.write_with(actions, None).await
    }

    /// Sends a TransactWriteItems with a ClientRequestToken.
    async fn write_with(&self, actions: Vec<TransactWriteItem>, token: Option<&str>) -> Result<()> {
        self.t
            .backend()
            .transact_write_items(TransactWriteItemsInput {
                transact_items: actions,
                client_request_token: token.map(str::to_owned),
                ..Default::default()
            })
            .await
            .map(|_| ())
    }

    /// A ClientRequestToken of exactly `len` characters (at least 17) unique to this scenario and run:
    /// DynamoDB Local keeps tokens for 10 minutes across runs.
    fn token(&self, name: &str, len: usize) -> String {
        let mut hash = 0u64;
        for byte in self.acct.bytes() {
            hash = hash.wrapping_mul(31).wrapping_add(u64::from(byte));
        }
        let token = format!("{hash:016x}{name}");
        format!("{token:x<len$}")
    }

    /// Item `key` of `table`, read consistently.
    async fn stored(&self, table: &str, key: Item) -> Option<Item> {
        self.t
            .backend()
            .get_item(GetItemInput {
                table_name: table.into(),
                key,
                consistent_read: Some(true),
                ..Default::default()
            })
            .await
            .unwrap()
            .item
    }

    /// The `pk`s of the `by-g` entries with `g = value`, sorted.
    async fn by_g(&self, value: &str) -> Vec<String> {
        let out = self
            .t
            .backend()
            .query(QueryInput {
                table_name: self.acct.clone(),
                index_name: Some("by-g".into()),
                key_condition_expression: Some("g = :g".into()),
                expression_attribute_values: Some(item([(":g", s(value))])),
                ..Default::default()
            })
            .await
            .unwrap();
        let mut pks: Vec<String> = out
            .items
            .unwrap_or_default()
            .iter()
            .filter_map(|i| {
                i.get("pk")
                    .and_then(AttributeValue::as_s)
                    .map(str::to_owned)
            })
            .collect();
        pks.sort();
        pks
    }
}

/// An item (or key) of `acct`: `pk` plus `extra`.
fn acct<const LEN: usize>(pk: &str, extra: [(&str, AttributeValue); LEN]) -> Item {
    let mut i = item(extra);
    i.insert("pk".into(), s(pk));
    i
}

/// A key of `log`.
fn log(pk: &str, sk: &str) -> Item {
    item([("pk", s(pk)), ("sk", num(sk))])
}

fn put(table: &str, item: Item) -> TransactWriteItem {
    TransactWriteItem::Put(TransactPut {
        table_name: table.into(),
        item,
        ..Default::default()
    })
}

fn update(table: &str, key: Item, expression: &str) -> TransactWriteItem {
    TransactWriteItem::Update(TransactUpdate {
        table_name: table.into(),
        key,
        update_expression: expression.into(),
        ..Default::default()
    })
}

fn delete(table: &str, key: Item) -> TransactWriteItem {
    TransactWriteItem::Delete(TransactDelete {
        table_name: table.into(),
        key,
        ..Default::default()
    })
}

fn check(table: &str, key: Item, condition: &str) -> TransactWriteItem {
    TransactWriteItem::ConditionCheck(TransactConditionCheck {
        table_name: table.into(),
        key,
        condition_expression: condition.into(),
        ..Default::default()
    })
}

/// Options of an action, set after the fact.
trait Options: Sized {
    fn values<const LEN: usize>(self, pairs: [(&str, AttributeValue); LEN]) -> Self;
    fn names<const LEN: usize>(self, pairs: [(&str, &str); LEN]) -> Self;
    fn condition(self, condition: &str) -> Self;
    fn all_old(self) -> Self;
}

impl Options for TransactWriteItem {
    fn values<const LEN: usize>(mut self, pairs: [(&str, AttributeValue); LEN]) -> Self {
        let v = Some(item(pairs));
        match &mut self {
            TransactWriteItem::Put(a) => a.expression_attribute_values = v,
            TransactWriteItem::Update(a) => a.expression_attribute_values = v,
            TransactWriteItem::Delete(a) => a.expression_attribute_values = v,
            TransactWriteItem::ConditionCheck(a) => a.expression_attribute_values = v,
        }
        self
    }

    fn names<const LEN: usize>(mut self, pairs: [(&str, &str); LEN]) -> Self {
        let v = Some(
            pairs
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
        );
        match &mut self {
            TransactWriteItem::Put(a) => a.expression_attribute_names = v,
            TransactWriteItem::Update(a) => a.expression_attribute_names = v,
            TransactWriteItem::Delete(a) => a.expression_attribute_names = v,
            TransactWriteItem::ConditionCheck(a) => a.expression_attribute_names = v,
        }
        self
    }

    fn condition(mut self, condition: &str) -> Self {
        let c = Some(condition.to_owned());
        match &mut self {
            TransactWriteItem::Put(a) => a.condition_expression = c,
            TransactWriteItem::Update(a) => a.condition_expression = c,
            TransactWriteItem::Delete(a) => a.condition_expression = c,
            TransactWriteItem::ConditionCheck(a) => a.condition_expression = condition.to_owned(),
        }
        self
    }

    fn all_old(mut self) -> Self {
        let v = Some(ReturnValuesOnConditionCheckFailure::AllOld);
        match &mut self {
            TransactWriteItem::Put(a) => a.return_values_on_condition_check_failure = v,
            TransactWriteItem::Update(a) => a.return_values_on_condition_check_failure = v,
            TransactWriteItem::Delete(a) => a.return_values_on_condition_check_failure = v,
            TransactWriteItem::ConditionCheck(a) => a.return_values_on_condition_check_failure = v,
        }
        self
    }
}

/// `(code, message, item)` of each cancellation reason, after checking that the error is a
/// `TransactionCanceledException` whose message lists the codes.
#[track_caller]
fn reasons(t: &Dual, r: Result<()>) -> Vec<(CancellationCode, Option<String>, Option<Item>)> {
    match r {
        Err(Error::TransactionCanceled { message, reasons }) => {
            let codes: Vec<&str> = reasons.iter().map(|r| r.code.as_str()).collect();
            assert_eq!(
                message,
                format!(
                    "Transaction cancelled, please refer cancellation reasons for specific reasons [{}]",
                    codes.join(", ")
                ),
                "[{:?}]",
                t.target()
            );
            reasons
                .into_iter()
                .map(|r| (r.code, r.message, r.item))
                .collect()
        }
        other => panic!(
            "[{:?}] expected TransactionCanceledException, got {other:?}",
            t.target()
        ),
    }
}

/// A reason that did not fail.
fn none() -> (CancellationCode, Option<String>, Option<Item>) {
    ("None".into(), None, None)
}

/// A `ValidationError` reason.
fn invalid(message: &str) -> (CancellationCode, Option<String>, Option<Item>) {
    ("ValidationError".into(), Some(message.into()), None)
}

/// A `ConditionalCheckFailed` reason of a Put, Update or Delete.
fn failed(item: Option<Item>) -> (CancellationCode, Option<String>, Option<Item>) {
    (
        "ConditionalCheckFailed".into(),
        Some("The conditional request failed".into()),
        item,
    )
}

/// Whether the scenario runs on the engine (directly or through its server).
fn is_engine(t: &Dual) -> bool {
    matches!(t.target(), Target::Mem | Target::Server)
}

/// Asserts the answer to more than 100 actions: the list echoed in Java's `toString` form (the
/// service's recorded answer; the dump's start is `first`, e.g. `[TransactWriteItem(`), or, on DynamoDB Local, the
/// constraint alone.
fn assert_too_many<T: std::fmt::Debug>(t: &Dual, r: Result<T>, first: &str) {
    let e = r.expect_err("101 actions");
    assert_eq!(e.code(), "ValidationException", "[{:?}] {e:?}", t.target());
    let message = e.message();
    let constraint = "Member must have length less than or equal to 100";
    if t.target() == Target::DynamoDbLocal {
        // KNOWN DIFFERENCE: DynamoDB Local 3.3.1 gives the constraint alone.
        assert_eq!(message, constraint);
        return;
    }
    assert!(
        message.starts_with(&format!("1 validation error detected: Value '{first}"))
            && message.ends_with(&format!(
                "]' at 'transactItems' failed to satisfy constraint: {constraint}"
            )),
        "[{:?}] {message}",
        t.target()
    );
}
