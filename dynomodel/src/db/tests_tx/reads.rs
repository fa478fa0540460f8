//! `db.transact_get()`: the `TransactGetItems` it renders and the typed results.

use crate::backend::*;
use crate::db::tests_tx::*;
use crate::error::{CancellationReason, Error};

#[tokio::test]
async fn reads_of_several_models_come_back_through_their_slots() {
    let (db, rec) = Recorder::db();
    rec.answer_items(vec![
        Some(stored("a", 10, 2)),
        None,
        Some(item(&[("id", s("t")), ("seq", n(1)), ("amount", n(4))])),
    ]);
    let db = db.with_namespace("ns-");
    let mut read = db.transact_get();
    let a = read.get::<Account>("a");
    let missing = read.get::<Account>("zz");
    let transfer = read.get::<Transfer>(("t", 1u32));
    assert_eq!(read.len(), 3);
    let reads = read.await.expect("read");

    let Request::TransactGetItems(input) = rec.only() else {
        panic!("a TransactGetItems");
    };
    assert_eq!(
        input.transact_items,
        vec![
            TransactGet {
                table_name: "ns-accounts".into(),
                key: item(&[("id", s("a"))]),
                ..TransactGet::default()
            },
            TransactGet {
                table_name: "ns-accounts".into(),
                key: item(&[("id", s("zz"))]),
                ..TransactGet::default()
            },
            TransactGet {
                table_name: "ns-transfers".into(),
                key: item(&[("id", s("t")), ("seq", n(1))]),
                ..TransactGet::default()
            },
        ]
    );
    assert_eq!(reads.len(), 3);
    assert_eq!(reads.get(a), Ok(Some(account("a", 10, 2))));
    assert_eq!(reads.get(missing), Ok(None));
    assert_eq!(
        reads.get(transfer),
        Ok(Some(Transfer {
            id: "t".into(),
            seq: 1,
            amount: 4
        }))
    );
    // A slot reads the same item again (the results are not consumed).
    assert_eq!(reads.get(a), Ok(Some(account("a", 10, 2))));
}

#[tokio::test]
async fn a_slot_only_reads_its_own_transaction() {
    let (db, _fake) = Recorder::db();
    let mut one = db.transact_get();
    let slot = one.get::<Account>("a");
    let mut two = db.transact_get();
    two.get::<Account>("a");
    let reads = two.await.expect("read");
    let err = reads.get(slot).expect_err("another transaction's slot");
    assert!(err.message().contains("another read transaction"), "{err}");
}

#[tokio::test]
async fn a_short_or_undecodable_response_is_an_error_not_a_panic() {
    let (db, rec) = Recorder::db();
    rec.answer_items(vec![Some(item(&[("id", s("a"))]))]);
    let mut read = db.transact_get();
    let a = read.get::<Account>("a");
    let b = read.get::<Account>("b");
    let reads = read.await.expect("read");
    let undecodable = reads.get(a).expect_err("no balance");
    assert_eq!(
        undecodable.to_string(),
        "the item of Account {id: \"a\"} in `accounts` does not decode: attribute `balance`: \
         expected a number (i64), found nothing (the attribute is missing)"
    );
    assert!(matches!(undecodable, Error::ItemDecode(_)));
    let short = reads.get(b).expect_err("no response for the second read");
    assert_eq!(short.code(), "ValidationException");
    assert_eq!(
        short.message(),
        "the response has 1 items, and none for Slot<Account>(1)"
    );
}

#[tokio::test]
async fn a_read_transaction_without_reads_sends_nothing_and_reads_nothing() {
    let (db, rec) = Recorder::db();
    let reads = db.transact_get().await.expect("nothing to read");
    assert!(reads.is_empty());
    assert!(rec.take().is_empty());
}

#[tokio::test]
async fn a_canceled_read_names_its_gets() {
    let (db, rec) = Recorder::db();
    rec.fail(canceled(vec![
        CancellationReason::none(),
        CancellationReason::new("TransactionConflict", "Transaction is ongoing for the item"),
    ]));
    let mut read = db.transact_get();
    read.get::<Account>("a");
    read.get::<Transfer>(("t", 2u32));
    let err = read.await.expect_err("canceled");
    let reasons = err.cancellation_reasons();
    let action = reasons[1].action.as_ref().expect("named");
    assert_eq!(
        (action.kind, action.model, action.table.as_str()),
        ("Get", "Transfer", "transfers")
    );
    assert_eq!(action.key, item(&[("id", s("t")), ("seq", n(2))]));
}
