//! The multi-item operations between the AWS SDK for Rust (through `AwsBackend`) and the server's wire
//! layer, with a backend that records what it is asked and answers what it is told: what the SDK sends
//! decodes to the typed request it was built from, and what the wire layer encodes (responses, the
//! `Unprocessed*` maps, a cancelled transaction's reasons, the transaction errors) the SDK reads back
//! to the same typed answer. Independent of the engine's own behaviour.

use std::collections::BTreeMap;
use std::sync::Mutex;

use dynomodel::backend::{
    BatchGetItemInput, BatchGetItemOutput, BatchWriteItemInput, BatchWriteItemOutput,
    KeysAndAttributes, ReturnValuesOnConditionCheckFailure, TransactConditionCheck, TransactDelete,
    TransactGet, TransactGetItemsInput, TransactGetItemsOutput, TransactPut, TransactUpdate,
    TransactWriteItem, TransactWriteItemsInput, TransactWriteItemsOutput, WriteRequest,
};
use dynomodel::{AttributeValue, AwsBackend, CancellationReason, Error, Item};

use super::*;

/// A typed request the server handed to the backend.
#[derive(Debug, Clone, PartialEq)]
enum Seen {
    BatchGet(BatchGetItemInput),
    BatchWrite(BatchWriteItemInput),
    TransactGet(TransactGetItemsInput),
    TransactWrite(TransactWriteItemsInput),
}

/// Records each request and answers with the canned response, or with `error` when set.
#[derive(Debug, Default)]
struct Canned {
    batch_get: BatchGetItemOutput,
    batch_write: BatchWriteItemOutput,
    transact_get: TransactGetItemsOutput,
    error: Option<Error>,
    seen: Mutex<Vec<Seen>>,
}

impl Canned {
    fn answer<T>(&self, seen: Seen, out: T) -> dynomodel::Result<T> {
        self.seen.lock().unwrap().push(seen);
        match &self.error {
            Some(e) => Err(e.clone()),
            None => Ok(out),
        }
    }
}

#[async_trait::async_trait]
impl Backend for Canned {
    async fn batch_get_item(
        &self,
        input: BatchGetItemInput,
    ) -> dynomodel::Result<BatchGetItemOutput> {
        self.answer(Seen::BatchGet(input), self.batch_get.clone())
    }
    async fn batch_write_item(
        &self,
        input: BatchWriteItemInput,
    ) -> dynomodel::Result<BatchWriteItemOutput> {
        self.answer(Seen::BatchWrite(input), self.batch_write.clone())
    }
    async fn transact_get_items(
        &self,
        input: TransactGetItemsInput,
    ) -> dynomodel::Result<TransactGetItemsOutput> {
        self.answer(Seen::TransactGet(input), self.transact_get.clone())
    }
    async fn transact_write_items(
        &self,
        input: TransactWriteItemsInput,
    ) -> dynomodel::Result<TransactWriteItemsOutput> {
        self.answer(
            Seen::TransactWrite(input),
            TransactWriteItemsOutput::default(),
        )
    }
}

/// Serves `canned` and runs `f` with an `AwsBackend` pointed at it; returns `f`'s result and the
/// request the backend saw (the SDK retries the errors it classifies as transient, such as
/// `TransactionInProgressException`: every attempt must carry the same request).
async fn through_sdk<T: std::fmt::Debug, F>(canned: Canned, f: F) -> (T, Seen)
where
    F: AsyncFnOnce(&AwsBackend) -> T,
{
    let canned = Arc::new(canned);
    let shared: Arc<dyn Backend> = canned.clone();
    let server = Server::bind_shared("127.0.0.1:0", shared).await.unwrap();
    let aws = AwsBackend::local(server.url());
    let result = f(&aws).await;
    server.shutdown().await;
    let mut seen = canned.seen.lock().unwrap();
    assert!(
        !seen.is_empty(),
        "the request never reached the backend: {result:?}"
    );
    let first = seen.remove(0);
    assert!(seen.iter().all(|again| *again == first), "{seen:?}");
    (result, first)
}

fn s(text: &str) -> AttributeValue {
    AttributeValue::S(text.into())
}

fn key(pk: &str) -> Item {
    [("pk".to_owned(), s(pk))].into()
}

fn item(pk: &str) -> Item {
    [
        ("pk".to_owned(), s(pk)),
        ("n".to_owned(), AttributeValue::N("1.5".parse().unwrap())),
        (
            "b".to_owned(),
            AttributeValue::Bs(vec![vec![0, 1], vec![2]]),
        ),
        (
            "l".to_owned(),
            AttributeValue::L(vec![AttributeValue::Null]),
        ),
    ]
    .into()
}

fn names() -> Option<BTreeMap<String, String>> {
    Some(BTreeMap::from([("#n".to_owned(), "n".to_owned())]))
}

#[tokio::test]
async fn batch_get_item_round_trips() {
    let input = BatchGetItemInput {
        request_items: BTreeMap::from([
            (
                "users".to_owned(),
                KeysAndAttributes {
                    attributes_to_get: None,
                    keys: vec![key("a"), key("b")],
                    consistent_read: Some(true),
                    projection_expression: Some("pk, #n".into()),
                    expression_attribute_names: names(),
                },
            ),
            (
                "teams".to_owned(),
                KeysAndAttributes {
                    keys: vec![key("t")],
                    ..Default::default()
                },
            ),
        ]),
        ..Default::default()
    };
    let output = BatchGetItemOutput {
        responses: BTreeMap::from([
            ("users".to_owned(), vec![item("a")]),
            ("teams".to_owned(), vec![]),
        ]),
        unprocessed_keys: BTreeMap::from([(
            "users".to_owned(),
            KeysAndAttributes {
                attributes_to_get: None,
                keys: vec![key("b")],
                consistent_read: Some(true),
                projection_expression: Some("pk, #n".into()),
                expression_attribute_names: names(),
            },
        )]),
        ..Default::default()
    };
    let canned = Canned {
        batch_get: output.clone(),
        ..Canned::default()
    };
    let sent = input.clone();
    let (got, seen) = through_sdk(canned, async |aws| aws.batch_get_item(sent).await).await;
    assert_eq!(seen, Seen::BatchGet(input));
    assert_eq!(got.unwrap(), output);
}

#[tokio::test]
async fn batch_write_item_round_trips() {
    let input = BatchWriteItemInput {
        request_items: BTreeMap::from([
            (
                "users".to_owned(),
                vec![
                    WriteRequest::Put { item: item("a") },
                    WriteRequest::Delete { key: key("b") },
                ],
            ),
            (
                "teams".to_owned(),
                vec![WriteRequest::Delete { key: key("t") }],
            ),
        ]),
        ..Default::default()
    };
    let output = BatchWriteItemOutput {
        unprocessed_items: BTreeMap::from([(
            "users".to_owned(),
            vec![
                WriteRequest::Put { item: item("a") },
                WriteRequest::Delete { key: key("b") },
            ],
        )]),
        ..Default::default()
    };
    let canned = Canned {
        batch_write: output.clone(),
        ..Canned::default()
    };
    let sent = input.clone();
    let (got, seen) = through_sdk(canned, async |aws| aws.batch_write_item(sent).await).await;
    assert_eq!(seen, Seen::BatchWrite(input));
    assert_eq!(got.unwrap(), output);
}

#[tokio::test]
async fn transact_get_items_round_trips() {
    let input = TransactGetItemsInput {
        transact_items: vec![
            TransactGet {
                table_name: "users".into(),
                key: key("a"),
                projection_expression: Some("#n".into()),
                expression_attribute_names: names(),
            },
            TransactGet {
                table_name: "users".into(),
                key: key("missing"),
                ..Default::default()
            },
        ],
        ..Default::default()
    };
    let output = TransactGetItemsOutput {
        responses: vec![Some(item("a")), None],
        ..Default::default()
    };
    let canned = Canned {
        transact_get: output.clone(),
        ..Canned::default()
    };
    let sent = input.clone();
    let (got, seen) = through_sdk(canned, async |aws| aws.transact_get_items(sent).await).await;
    assert_eq!(seen, Seen::TransactGet(input));
    assert_eq!(got.unwrap(), output);
}

fn every_action() -> TransactWriteItemsInput {
    let values: Item = [(":v".to_owned(), s("x"))].into();
    TransactWriteItemsInput {
        transact_items: vec![
            TransactWriteItem::ConditionCheck(TransactConditionCheck {
                table_name: "users".into(),
                key: key("c"),
                condition_expression: "#n = :v".into(),
                expression_attribute_names: names(),
                expression_attribute_values: Some(values.clone()),
                return_values_on_condition_check_failure: Some(
                    ReturnValuesOnConditionCheckFailure::AllOld,
                ),
            }),
            TransactWriteItem::Put(TransactPut {
                table_name: "users".into(),
                item: item("p"),
                condition_expression: Some("attribute_not_exists(pk)".into()),
                ..Default::default()
            }),
            TransactWriteItem::Delete(TransactDelete {
                table_name: "teams".into(),
                key: key("d"),
                ..Default::default()
            }),
            TransactWriteItem::Update(TransactUpdate {
                table_name: "teams".into(),
                key: key("u"),
                update_expression: "SET #n = :v".into(),
                expression_attribute_names: names(),
                expression_attribute_values: Some(values),
                return_values_on_condition_check_failure: Some(
                    ReturnValuesOnConditionCheckFailure::None,
                ),
                ..Default::default()
            }),
        ],
        client_request_token: Some("token-1".into()),
        ..Default::default()
    }
}

#[tokio::test]
async fn transact_write_items_round_trips() {
    let input = every_action();
    let sent = input.clone();
    let (got, seen) = through_sdk(Canned::default(), async |aws| {
        aws.transact_write_items(sent).await
    })
    .await;
    assert_eq!(seen, Seen::TransactWrite(input));
    assert_eq!(got.unwrap(), TransactWriteItemsOutput::default());
}

#[tokio::test]
async fn transaction_errors_reach_the_sdk_intact() {
    let cancelled = Error::TransactionCanceled {
        message: "Transaction cancelled, please refer cancellation reasons for specific reasons \
                  [None, ConditionalCheckFailed, ValidationError]"
            .into(),
        reasons: vec![
            CancellationReason::none(),
            CancellationReason::new("ConditionalCheckFailed", "The conditional request failed")
                .with_item(Some(item("c"))),
            CancellationReason::new(
                "ValidationError",
                "Item size has exceeded the maximum allowed size",
            ),
        ],
    };
    let others = [
        "IdempotentParameterMismatchException",
        "TransactionInProgressException",
        "TransactionConflictException",
        "ItemCollectionSizeLimitExceededException",
    ]
    .map(|code| Error::Service {
        code: code.into(),
        message: format!("{code} happened"),
    });
    for error in std::iter::once(cancelled).chain(others) {
        let canned = Canned {
            error: Some(error.clone()),
            ..Canned::default()
        };
        let (got, _) = through_sdk(canned, async |aws| {
            aws.transact_write_items(every_action()).await
        })
        .await;
        assert_eq!(got.unwrap_err(), error);
    }
}
