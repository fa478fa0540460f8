//! `FaultyBackend` over the recording fake: what reaches the inner backend under each effect.

use super::{FaultError, FaultyBackend, Operation, Portion, Rule};
use crate::backend::testing::{op, Call, RecordingBackend};
use crate::backend::*;
use crate::value::{AttributeValue, Item};

fn key(id: &str) -> Item {
    Item::from([("id".to_owned(), AttributeValue::S(id.into()))])
}

fn put(id: &str) -> PutItemInput {
    PutItemInput {
        table_name: "t".into(),
        item: key(id),
        ..Default::default()
    }
}

/// A wrapper around a recording fake that answers every put, get and batch write.
fn faulty() -> FaultyBackend<RecordingBackend> {
    let fake = RecordingBackend::new();
    fake.on(op::put_item, |_| Ok(PutItemOutput::default()));
    fake.on(op::get_item, |input| {
        Ok(GetItemOutput {
            item: Some(input.key),
            ..Default::default()
        })
    });
    fake.on(
        op::batch_write_item,
        |_| Ok(BatchWriteItemOutput::default()),
    );
    FaultyBackend::new(fake)
}

fn run<F: std::future::Future>(f: F) -> F::Output {
    futures::executor::block_on(f)
}

#[test]
fn before_sends_nothing_and_after_sends_then_fails() {
    let backend = faulty();
    let fake = backend.inner();
    backend.faults().add(
        Rule::on(Operation::PutItem)
            .nth(1)
            .fail(FaultError::Throttling),
    );
    let err = run(backend.put_item(put("a"))).unwrap_err();
    assert_eq!(err.code(), "ThrottlingException");
    assert_eq!(fake.take(), [], "refused before the inner backend");

    backend.faults().add(
        Rule::on(Operation::PutItem)
            .times(1)
            .fail(FaultError::InternalServerError)
            .after(),
    );
    let err = run(backend.put_item(put("b"))).unwrap_err();
    assert_eq!(err.code(), "InternalServerError");
    assert_eq!(fake.take(), [Call::PutItem(put("b"))], "sent, then failed");

    // `after` on a failing inner call answers the inner error.
    fake.answer(
        op::put_item,
        Err(crate::Error::validation("the inner backend's")),
    );
    backend.faults().clear();
    backend
        .faults()
        .add(Rule::writes().fail(FaultError::InternalServerError).after());
    let err = run(backend.put_item(put("c"))).unwrap_err();
    assert_eq!(err.message(), "the inner backend's");
}

#[test]
fn held_back_writes_are_never_sent_and_come_back_unprocessed() {
    let backend = faulty();
    let fake = backend.inner();
    backend
        .faults()
        .add(Rule::on(Operation::BatchWriteItem).unprocessed(Portion::Count(2)));
    let writes: Vec<WriteRequest> = ["a", "b", "c"]
        .into_iter()
        .map(|id| WriteRequest::Put { item: key(id) })
        .collect();
    let input = BatchWriteItemInput {
        request_items: [("t".to_owned(), writes.clone())].into(),
        ..Default::default()
    };
    let output = run(backend.batch_write_item(input)).unwrap();
    assert_eq!(output.unprocessed_items["t"], writes[1..]);
    let [Call::BatchWriteItem(sent)] = &fake.take()[..] else {
        panic!("one BatchWriteItem");
    };
    assert_eq!(sent.request_items["t"], writes[..1]);

    // All held back: nothing is sent (DynamoDB refuses an empty batch).
    let one = BatchWriteItemInput {
        request_items: [("t".to_owned(), writes[..1].to_vec())].into(),
        ..Default::default()
    };
    backend.faults().clear();
    backend
        .faults()
        .add(Rule::on(Operation::BatchWriteItem).unprocessed(Portion::Count(5)));
    let output = run(backend.batch_write_item(one)).unwrap();
    assert_eq!(output.unprocessed_items["t"], writes[..1]);
    assert_eq!(fake.take(), []);
}

#[test]
fn typed_reads_count_as_their_operation_and_the_control_plane_is_untouched() {
    let backend = faulty();
    let fake = backend.inner();
    backend
        .faults()
        .add(Rule::any().fail(FaultError::Throttling));
    let input = GetItemInput {
        table_name: "t".into(),
        key: key("a"),
        ..Default::default()
    };
    struct Nothing;
    impl ItemSink for Nothing {
        fn item(
            &mut self,
            _: &mut dyn Iterator<Item = (std::borrow::Cow<'_, str>, AttributeValue)>,
        ) {
        }
    }
    let err = run(backend.get_item_into(input, &mut Nothing)).unwrap_err();
    assert_eq!(err.code(), "ThrottlingException");
    let err = run(backend.describe_table(DescribeTableInput {
        table_name: "t".into(),
    }))
    .unwrap_err();
    assert_eq!(err.code(), "UnknownOperationException", "the fake's answer");
    assert_eq!(
        fake.take(),
        [Call::DescribeTable(DescribeTableInput {
            table_name: "t".into()
        })]
    );
}

#[test]
fn a_put_from_a_writer_counts_as_put_item_and_its_key_matches_the_written_item() {
    let backend = faulty();
    let fake = backend.inner();
    let input = || PutItemInput {
        table_name: "t".into(),
        ..Default::default()
    };
    // No rule armed: the writer goes to the inner backend (the recording fake builds the item).
    run(backend.put_item_from(input(), &key("a"))).unwrap();
    assert_eq!(fake.take(), [Call::PutItem(put("a"))]);

    // A rule on one key matches the item the writer writes, and only that one.
    backend.faults().add(
        Rule::on(Operation::PutItem)
            .key([("id", AttributeValue::S("b".into()))])
            .fail(FaultError::Throttling),
    );
    let err = run(backend.put_item_from(input(), &key("b"))).unwrap_err();
    assert_eq!(err.code(), "ThrottlingException");
    run(backend.put_item_from(input(), &key("c"))).unwrap();
    assert_eq!(fake.take(), [Call::PutItem(put("c"))]);
}
