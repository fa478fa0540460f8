//! `db.transact()`: the `TransactWriteItems` it renders, and how a cancellation comes back.

use crate::backend::*;
use crate::db::tests_tx::*;
use crate::error::{CancellationCode, CancellationReason, Error, ExistenceCheck, VersionCheck};

fn put_of(action: &TransactWriteItem) -> &TransactPut {
    match action {
        TransactWriteItem::Put(put) => put,
        other => panic!("a Put, not {other:?}"),
    }
}

fn update_of(action: &TransactWriteItem) -> &TransactUpdate {
    match action {
        TransactWriteItem::Update(update) => update,
        other => panic!("an Update, not {other:?}"),
    }
}

fn delete_of(action: &TransactWriteItem) -> &TransactDelete {
    match action {
        TransactWriteItem::Delete(delete) => delete,
        other => panic!("a Delete, not {other:?}"),
    }
}

#[tokio::test]
async fn each_action_renders_its_own_placeholders_like_the_single_item_builders() {
    let (db, rec) = Recorder::db();
    let transfer = Transfer {
        id: "t1".into(),
        seq: 1,
        amount: 30,
    };
    db.transact()
        .update::<Transfer>(("t0", 9u32), |u| {
            u.add(Transfer::amount(), -30)
                .condition(Transfer::amount().ge(30))
        })
        .put_with(&transfer, |p| p.if_not_exists())
        .delete_key_with::<Transfer>(("t2", 3u32), |d| {
            d.condition(Transfer::amount().eq(0)).item_on_failure(false)
        })
        .condition_check::<Transfer>(("t3", 4u32), Transfer::amount().lt(5))
        .client_request_token("token-1")
        .await
        .expect("succeeds");
    let input = rec.only_write();
    assert_eq!(input.client_request_token.as_deref(), Some("token-1"));
    let kinds: Vec<&str> = input.transact_items.iter().map(|a| a.kind()).collect();
    assert_eq!(kinds, ["Update", "Put", "Delete", "ConditionCheck"]);

    // The update: update first, then condition, through one context (the single-item order).
    let update = update_of(&input.transact_items[0]);
    assert_eq!(update.table_name, "transfers");
    assert_eq!(update.key, item(&[("id", s("t0")), ("seq", n(9))]));
    assert_eq!(update.update_expression, "ADD #n0 :v0");
    // The existence check (the hash key `id`), then the user's condition.
    assert_eq!(
        update.condition_expression.as_deref(),
        Some("attribute_exists(#n1) AND #n0 >= :v1")
    );
    assert_eq!(
        update.expression_attribute_names,
        names(&[("#n0", "amount"), ("#n1", "id")])
    );
    assert_eq!(
        update.expression_attribute_values,
        Some(item(&[(":v0", n(-30)), (":v1", n(30))]))
    );
    assert_eq!(
        update.return_values_on_condition_check_failure,
        Some(ReturnValuesOnConditionCheckFailure::AllOld)
    );

    // Every action starts its placeholders afresh: each has its own maps.
    let put = put_of(&input.transact_items[1]);
    assert_eq!(put.table_name, "transfers");
    assert_eq!(
        put.item,
        item(&[("id", s("t1")), ("seq", n(1)), ("amount", n(30))])
    );
    assert_eq!(
        put.condition_expression.as_deref(),
        Some("attribute_not_exists(#n0)")
    );
    assert_eq!(put.expression_attribute_names, names(&[("#n0", "id")]));
    assert_eq!(
        put.expression_attribute_values, None,
        "no empty map is sent"
    );

    let delete = delete_of(&input.transact_items[2]);
    assert_eq!(delete.condition_expression.as_deref(), Some("#n0 = :v0"));
    assert_eq!(delete.return_values_on_condition_check_failure, None);

    let TransactWriteItem::ConditionCheck(check) = &input.transact_items[3] else {
        panic!("a ConditionCheck");
    };
    assert_eq!(check.key, item(&[("id", s("t3")), ("seq", n(4))]));
    assert_eq!(check.condition_expression, "#n0 < :v0");
    assert_eq!(
        check.return_values_on_condition_check_failure,
        Some(ReturnValuesOnConditionCheckFailure::AllOld)
    );
}

#[tokio::test]
async fn unconditional_actions_send_no_condition_and_no_maps() {
    let (db, rec) = Recorder::db();
    let transfer = Transfer {
        id: "t1".into(),
        seq: 1,
        amount: 30,
    };
    db.transact()
        .put(&transfer)
        .delete(&Transfer {
            seq: 2,
            ..transfer.clone()
        })
        .await
        .expect("succeeds");
    let input = rec.only_write();
    let put = put_of(&input.transact_items[0]);
    assert_eq!(
        (
            put.condition_expression.as_ref(),
            put.expression_attribute_names.as_ref()
        ),
        (None, None)
    );
    assert_eq!(put.return_values_on_condition_check_failure, None);
    let delete = delete_of(&input.transact_items[1]);
    assert_eq!(delete.key, item(&[("id", s("t1")), ("seq", n(2))]));
    assert_eq!(delete.condition_expression, None);
    assert_eq!(input.client_request_token, None);
}

#[tokio::test]
async fn a_namespace_prefixes_every_action_table() {
    let (db, rec) = Recorder::db();
    let db = db.with_namespace("test-");
    db.transact()
        .update::<Transfer>(("t", 1u32), |u| u.add(Transfer::amount(), 1))
        .condition_check::<Account>("a", Account::balance().ge(0))
        .await
        .expect("succeeds");
    let tables: Vec<String> = rec
        .only_write()
        .transact_items
        .iter()
        .map(|a| a.table_name().to_owned())
        .collect();
    assert_eq!(tables, ["test-transfers", "test-accounts"]);
}

#[tokio::test]
async fn build_errors_are_reported_when_awaited_and_nothing_is_sent() {
    let (db, rec) = Recorder::db();
    // Nothing to write is not an error (as an empty batch): nothing is sent.
    db.transact().await.expect("an empty transaction");
    assert!(rec.take().is_empty());

    let no_update = db
        .transact()
        .put(&account("a", 1, 1))
        .update::<Transfer>(("t", 1u32), |u| u.allow_no_actions())
        .await
        .expect_err("an update needs an action");
    assert!(
        no_update.message().contains("needs at least one action"),
        "{no_update}"
    );

    // The first problem wins; later actions do not hide it.
    let overlapping = db
        .transact()
        .update::<Transfer>(("t", 1u32), |u| {
            u.add(Transfer::amount(), 1).add(Transfer::amount(), 2)
        })
        .update::<Transfer>(("t", 2u32), |u| u)
        .await
        .expect_err("overlapping paths");
    assert!(overlapping.message().contains("overlap"), "{overlapping}");
    assert!(rec.take().is_empty(), "no request was sent");
}

#[tokio::test]
async fn cancellation_reasons_name_their_actions_and_decode_their_items() {
    let (db, rec) = Recorder::db();
    rec.fail(canceled(vec![
        CancellationReason::none(),
        failed_condition(Some(item(&[
            ("id", s("t0")),
            ("seq", n(9)),
            ("amount", n(10)),
        ]))),
    ]));
    let err = db
        .transact()
        .put(&Transfer {
            id: "t1".into(),
            seq: 1,
            amount: 5,
        })
        .update::<Transfer>(("t0", 9u32), |u| {
            u.add(Transfer::amount(), -30)
                .condition(Transfer::amount().ge(30))
        })
        .await
        .expect_err("canceled");
    assert!(matches!(err, Error::TransactionCanceled { .. }), "{err:?}");
    assert!(err.message().ends_with("[None, ConditionalCheckFailed]"));
    let reasons = err.cancellation_reasons();
    assert_eq!(reasons.len(), 2);

    let first = reasons[0].action.as_ref().expect("named");
    assert_eq!(
        (first.kind, first.model, first.table.as_str()),
        ("Put", "Transfer", "transfers")
    );
    assert_eq!(first.key, item(&[("id", s("t1")), ("seq", n(1))]));
    assert!(reasons[0].is_none());
    assert_eq!(reasons[0].item_as::<Transfer>(), Ok(None));

    let second = reasons[1].action.as_ref().expect("named");
    assert_eq!((second.kind, second.version.as_ref()), ("Update", None));
    assert_eq!(
        second.to_string(),
        r#"Update Transfer {id: "t0", seq: 9} in `transfers`"#
    );
    assert!(reasons[1].is_conditional_check_failed());
    // The stored item came back: the item exists, so the user's condition is what failed.
    assert!(!reasons[1].is_item_not_found());
    assert_eq!(
        second.existence,
        Some(ExistenceCheck {
            failed: false,
            stored_entity: None,
            stored_item_version: None,
        })
    );
    assert_eq!(first.existence, None, "a put makes no existence check");
    assert_eq!(
        reasons[1].item_as::<Transfer>(),
        Ok(Some(Transfer {
            id: "t0".into(),
            seq: 9,
            amount: 10
        }))
    );
    assert_eq!(
        reasons[0].item_as::<Account>(),
        Ok(None),
        "no item: nothing to decode, whatever the model"
    );
    let wrong = reasons[1].item_as::<Account>().expect_err("another model");
    assert_eq!(
        wrong.message(),
        "this cancellation reason is about a `Transfer`, not a `Account`"
    );
    assert!(!err.is_version_conflict());
}

#[tokio::test]
async fn other_errors_pass_through_unchanged() {
    let (db, rec) = Recorder::db();
    let mismatch = Error::Service {
        code: "IdempotentParameterMismatchException".into(),
        message: "Request parameters do not match".into(),
    };
    rec.fail(mismatch.clone());
    let err = db
        .transact()
        .update::<Transfer>(("t", 1u32), |u| u.add(Transfer::amount(), 1))
        .client_request_token("t")
        .await;
    assert_eq!(err, Err(mismatch));
    let validation =
        Error::validation("Transaction request cannot include multiple operations on one item");
    rec.fail(validation.clone());
    let err = db
        .transact()
        .update::<Transfer>(("t", 1u32), |u| u.add(Transfer::amount(), 1))
        .await;
    assert_eq!(err, Err(validation));
}

#[tokio::test]
async fn versioned_actions_check_and_bump_like_their_single_item_builders() {
    let (db, rec) = Recorder::db();
    let fresh = account("new", 5, 0);
    let saved = account("old", 7, 3);
    db.transact()
        .put(&fresh)
        .put(&saved)
        .update::<Account>("u", |u| u.add(Account::balance(), 1))
        .update::<Account>("w", |u| u.add(Account::balance(), 1).if_version(4u64))
        .delete(&account("d", 0, 9))
        .await
        .expect("succeeds");
    let input = rec.only_write();

    // A first save: create-only, storing version 1.
    let first = put_of(&input.transact_items[0]);
    assert_eq!(first.item, stored("new", 5, 1));
    assert_eq!(
        first.condition_expression.as_deref(),
        Some("attribute_not_exists(#n0)")
    );
    assert_eq!(first.expression_attribute_names, names(&[("#n0", "id")]));

    // A later save: `v = 3`, storing 4.
    let later = put_of(&input.transact_items[1]);
    assert_eq!(later.item, stored("old", 7, 4));
    assert_eq!(later.condition_expression.as_deref(), Some("#n0 = :v0"));
    assert_eq!(later.expression_attribute_names, names(&[("#n0", "v")]));
    assert_eq!(
        later.expression_attribute_values,
        Some(item(&[(":v0", n(3))]))
    );

    // Updates bump; `if_version` also checks.
    let bump = update_of(&input.transact_items[2]);
    assert_eq!(bump.update_expression, "ADD #n0 :v0, #n1 :v1");
    assert_eq!(
        bump.expression_attribute_names,
        names(&[("#n0", "balance"), ("#n1", "v"), ("#n2", "id")])
    );
    assert_eq!(
        bump.expression_attribute_values,
        Some(item(&[(":v0", n(1)), (":v1", n(1))]))
    );
    assert_eq!(
        bump.condition_expression.as_deref(),
        Some("attribute_exists(#n2)")
    );
    let checked = update_of(&input.transact_items[3]);
    assert_eq!(
        checked.condition_expression.as_deref(),
        Some("#n1 = :v2 AND attribute_exists(#n2)")
    );
    assert_eq!(
        checked
            .expression_attribute_values
            .as_ref()
            .map(|v| v[":v2"].clone()),
        Some(n(4))
    );

    let delete = delete_of(&input.transact_items[4]);
    assert_eq!(delete.condition_expression.as_deref(), Some("#n0 = :v0"));
    assert_eq!(
        delete.expression_attribute_values,
        Some(item(&[(":v0", n(9))]))
    );
}

#[tokio::test]
async fn ignore_version_sends_actions_as_if_unversioned() {
    let (db, rec) = Recorder::db();
    let saved = account("a", 7, 3);
    db.transact()
        .put_with(&saved, |p| p.ignore_version())
        .update::<Account>("b", |u| u.add(Account::balance(), 1).ignore_version())
        .delete_with(&account("c", 0, 2), |d| d.ignore_version())
        .await
        .expect("succeeds");
    let input = rec.only_write();
    let put = put_of(&input.transact_items[0]);
    assert_eq!(
        (put.item.clone(), put.condition_expression.clone()),
        (stored("a", 7, 3), None)
    );
    assert_eq!(
        update_of(&input.transact_items[1]).update_expression,
        "ADD #n0 :v0"
    );
    assert_eq!(
        delete_of(&input.transact_items[2]).condition_expression,
        None
    );
}

#[tokio::test]
async fn save_bumps_its_values_only_when_the_transaction_succeeds() {
    let (db, rec) = Recorder::db();
    let (mut a, mut b) = (account("a", 1, 0), account("b", 2, 5));
    db.transact()
        .save(&mut a)
        .save_with(&mut b, |s| s.condition(Account::balance().ge(0)))
        .await
        .expect("succeeds");
    assert_eq!((a.version, b.version), (1, 6));
    let input = rec.only_write();
    assert_eq!(
        put_of(&input.transact_items[1])
            .condition_expression
            .as_deref(),
        Some("#n0 = :v0 AND #n1 >= :v1")
    );

    rec.fail(canceled(vec![
        CancellationReason::none(),
        failed_condition(Some(stored("b", 2, 7))),
    ]));
    let err = db
        .transact()
        .save(&mut a)
        .save(&mut b)
        .await
        .expect_err("canceled");
    assert!(err.is_version_conflict());
    assert_eq!((a.version, b.version), (1, 6), "untouched on failure");
}

#[tokio::test]
async fn a_reason_is_a_version_conflict_only_when_the_stored_version_differs() {
    fn guarded(db: &crate::db::Db) -> crate::db::Transaction<'_> {
        db.transact()
            .update::<Account>("a", |u| {
                u.add(Account::balance(), -5)
                    .condition(Account::balance().ge(5))
                    .if_version(3u64)
            })
            .put(&account("b", 0, 0))
    }
    let (db, rec) = Recorder::db();

    // Stored at version 4: the version check failed (whatever the balance).
    rec.fail(canceled(vec![
        failed_condition(Some(stored("a", 10, 4))),
        CancellationReason::none(),
    ]));
    let err = guarded(&db).await.expect_err("canceled");
    let reasons = err.cancellation_reasons();
    assert!(reasons[0].is_version_conflict());
    assert_eq!(
        reasons[0].action.as_ref().and_then(|a| a.version.clone()),
        Some(VersionCheck {
            expected: Some(3),
            stored: Some(4),
            failed: true
        })
    );
    assert!(!reasons[1].is_version_conflict(), "a None reason never is");
    assert_eq!(
        reasons[1].action.as_ref().and_then(|a| a.version.clone()),
        Some(VersionCheck {
            expected: None,
            stored: None,
            failed: false
        })
    );
    assert!(err.is_version_conflict());

    // Stored at version 3: the balance condition failed, not the version.
    rec.fail(canceled(vec![
        failed_condition(Some(stored("a", 1, 3))),
        CancellationReason::none(),
    ]));
    let err = guarded(&db).await.expect_err("canceled");
    assert!(!err.cancellation_reasons()[0].is_version_conflict());
    assert!(!err.is_version_conflict());

    // The first save of `b` found an item: that is its version check (create-only) failing.
    rec.fail(canceled(vec![
        CancellationReason::none(),
        failed_condition(Some(stored("b", 0, 1))),
    ]));
    let err = guarded(&db).await.expect_err("canceled");
    assert!(err.cancellation_reasons()[1].is_version_conflict());
    assert_eq!(
        err.cancellation_reasons()[1].item_as::<Account>(),
        Ok(Some(account("b", 0, 1)))
    );

    // A missing item fails the existence check first: not found, not a version conflict.
    rec.fail(canceled(vec![
        failed_condition(None),
        CancellationReason::none(),
    ]));
    let err = guarded(&db).await.expect_err("canceled");
    let reasons = err.cancellation_reasons();
    assert!(reasons[0].is_item_not_found() && !reasons[0].is_version_conflict());
    assert!(err.is_item_not_found() && !err.is_version_conflict());
    assert!(
        !reasons[1].is_item_not_found(),
        "a put makes no existence check"
    );

    // Other codes are never version conflicts, nor missing items, even on a versioned update.
    rec.fail(canceled(vec![
        CancellationReason::new(
            CancellationCode::TransactionConflict,
            "Transaction is ongoing for the item",
        ),
        CancellationReason::none(),
    ]));
    let err = guarded(&db).await.expect_err("canceled");
    assert!(!err.is_version_conflict());
    assert!(!err.is_item_not_found());
}
