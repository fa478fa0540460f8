//! `#[version]` in the single-item builders and flywheel's conveniences: the checks and bumps they
//! render, and failed conditions read as version conflicts (or not).

use crate::backend::*;
use crate::db::tests_tx::*;
use crate::error::{Error, VersionConflict};

#[tokio::test]
async fn a_first_put_is_create_only_and_stores_version_one() {
    let (db, rec) = Recorder::db();
    db.put(&account("a", 5, 0)).await.expect("put");
    let input = rec.only_put();
    assert_eq!(input.item, stored("a", 5, 1));
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("attribute_not_exists(#n0)")
    );
    assert_eq!(input.expression_attribute_names, names(&[("#n0", "id")]));
    assert_eq!(input.expression_attribute_values, None);
    assert_eq!(
        input.return_values_on_condition_check_failure,
        Some(ReturnValuesOnConditionCheckFailure::AllOld)
    );

    // `if_not_exists` says the same thing: rendered once.
    db.put(&account("a", 5, 0))
        .if_not_exists()
        .await
        .expect("put");
    let input = rec.only_put();
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("attribute_not_exists(#n0)")
    );
}

#[tokio::test]
async fn a_later_put_checks_the_version_held_and_stores_the_next() {
    let (db, rec) = Recorder::db();
    db.put(&account("a", 5, 3))
        .condition(Account::balance().ge(0))
        .await
        .expect("put");
    let input = rec.only_put();
    assert_eq!(input.item, stored("a", 5, 4));
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("#n0 = :v0 AND #n1 >= :v1")
    );
    assert_eq!(
        input.expression_attribute_names,
        names(&[("#n0", "v"), ("#n1", "balance")])
    );
    assert_eq!(
        input.expression_attribute_values,
        Some(item(&[(":v0", n(3)), (":v1", n(0))]))
    );
}

#[tokio::test]
async fn a_failed_version_check_is_a_version_conflict_naming_both_versions() {
    let (db, rec) = Recorder::db();
    rec.fail(conditional_failure(Some(stored("a", 9, 4))));
    let err = db.put(&account("a", 5, 3)).await.expect_err("stale");
    assert_eq!(
        err,
        Error::VersionConflict(Box::new(VersionConflict {
            message: r#"Account {id: "a"} in `accounts`: expected version 3, found version 4"#
                .into(),
            model: "Account",
            key: item(&[("id", s("a"))]),
            expected: Some(3),
            stored: Some(4),
            item: Some(stored("a", 9, 4)),
        }))
    );
    assert_eq!(err.code(), "VersionConflict");
    assert!(err.is_version_conflict() && !err.is_conditional_check_failed());
    assert_eq!(
        err.conditional_item::<Account>(),
        Ok(Some(account("a", 9, 4)))
    );

    // A first save that finds an item.
    rec.fail(conditional_failure(Some(stored("a", 9, 4))));
    let err = db.put(&account("a", 5, 0)).await.expect_err("exists");
    assert!(err
        .message()
        .ends_with("expected no stored item (a first save), found version 4"));

    // A later save that finds nothing: deleted meanwhile.
    rec.fail(conditional_failure(None));
    let err = db.put(&account("a", 5, 3)).await.expect_err("gone");
    assert_eq!(conflict(&err).map(|c| c.stored), Some(None));
    assert!(
        err.message().ends_with("expected version 3, found no item"),
        "{err}"
    );
}

#[tokio::test]
async fn a_failed_user_condition_stays_a_failed_condition() {
    let (db, rec) = Recorder::db();
    // The stored version is the one expected: the balance condition is what failed.
    rec.fail(conditional_failure(Some(stored("a", -1, 3))));
    let err = db
        .put(&account("a", 5, 3))
        .condition(Account::balance().ge(0))
        .await
        .expect_err("condition");
    assert!(err.is_conditional_check_failed() && !err.is_version_conflict());

    // A first save whose condition failed on a missing item: not the version check.
    rec.fail(conditional_failure(None));
    let err = db
        .put(&account("a", 5, 0))
        .condition(Account::balance().ge(0))
        .await
        .expect_err("condition");
    assert!(err.is_conditional_check_failed());

    // Without the item, only a lone version check can be blamed.
    rec.fail(conditional_failure(None));
    let err = db
        .put(&account("a", 5, 3))
        .item_on_failure(false)
        .await
        .expect_err("stale");
    assert_eq!(
        conflict(&err).map(|c| (c.stored, c.item.clone())),
        Some((None, None))
    );
    assert!(err.message().contains("not returned"), "{err}");
    rec.fail(conditional_failure(None));
    let err = db
        .put(&account("a", 5, 3))
        .condition(Account::balance().ge(0))
        .item_on_failure(false)
        .await
        .expect_err("ambiguous");
    assert!(
        err.is_conditional_check_failed(),
        "cannot tell: passed through"
    );
}

#[tokio::test]
async fn ignore_version_stores_the_value_as_it_is() {
    let (db, rec) = Recorder::db();
    db.put(&account("a", 5, 3))
        .ignore_version()
        .await
        .expect("put");
    let input = rec.only_put();
    assert_eq!(
        (input.item, input.condition_expression),
        (stored("a", 5, 3), None)
    );
    rec.fail(conditional_failure(Some(stored("a", 5, 4))));
    let err = db
        .put(&account("a", 5, 3))
        .ignore_version()
        .condition(Account::balance().ge(9))
        .await
        .expect_err("condition");
    assert!(
        err.is_conditional_check_failed(),
        "no version check to blame"
    );
}

#[tokio::test]
async fn save_keeps_the_value_current_and_only_on_success() {
    let (db, rec) = Recorder::db();
    let mut a = account("a", 5, 0);
    db.save(&mut a).await.expect("saved");
    assert_eq!(a.version, 1);
    db.save(&mut a).await.expect("saved");
    assert_eq!(a.version, 2);
    let sent = rec.take();
    assert!(matches!(&sent[1], Request::PutItem(p) if p.item == stored("a", 5, 2)));

    rec.fail(conditional_failure(Some(stored("a", 5, 7))));
    assert!(db
        .save(&mut a)
        .await
        .is_err_and(|e| e.is_version_conflict()));
    assert_eq!(a.version, 2, "unchanged by a failed save");

    // `Option<u8>`: `None` is not saved yet; a version that would not fit is refused before sending.
    let mut tiny = Tiny {
        id: "t".into(),
        version: None,
    };
    db.save(&mut tiny).await.expect("saved");
    assert_eq!(tiny.version, Some(1));
    rec.take();
    tiny.version = Some(255);
    let err = db.save(&mut tiny).await.expect_err("256 does not fit a u8");
    assert_eq!(err.code(), "ConversionError");
    assert!(err.message().contains("`version`"), "{err}");
    assert!(rec.take().is_empty(), "nothing sent");
    assert_eq!(tiny.version, Some(255));
}

#[tokio::test]
async fn every_update_bumps_and_checks_only_when_asked() {
    let (db, rec) = Recorder::db();
    db.update::<Account>("a")
        .add(Account::balance(), 5)
        .condition(Account::balance().ge(0))
        .await
        .expect("update");
    let input = rec.only_update();
    assert_eq!(
        input.update_expression.as_deref(),
        Some("ADD #n0 :v0, #n1 :v1")
    );
    assert_eq!(
        input.expression_attribute_names,
        names(&[("#n0", "balance"), ("#n1", "v"), ("#n2", "id")])
    );
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("attribute_exists(#n2) AND #n0 >= :v2")
    );

    db.update::<Account>("a")
        .set(Account::balance(), 1)
        .if_version(6u64)
        .await
        .expect("update");
    let input = rec.only_update();
    assert_eq!(
        input.update_expression.as_deref(),
        Some("SET #n0 = :v0 ADD #n1 :v1")
    );
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("#n1 = :v2 AND attribute_exists(#n2)")
    );
    assert_eq!(
        input.expression_attribute_values.map(|v| v[":v2"].clone()),
        Some(n(6))
    );

    // `if_version(0)`: no item may exist yet, which only an upsert may create.
    let err = db
        .update::<Account>("a")
        .set(Account::balance(), 1)
        .if_version(0u64)
        .await
        .expect_err("an update needs an item");
    assert!(err.message().contains("call upsert()"), "{err}");
    assert!(rec.take().is_empty(), "nothing sent");
    db.update::<Account>("a")
        .set(Account::balance(), 1)
        .if_version(0u64)
        .upsert()
        .await
        .expect("upsert");
    let input = rec.only_update();
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("attribute_not_exists(#n2)")
    );

    // No actions: nothing changes, nothing is bumped. `ignore_version`: neither bump nor check
    // (the existence check stays).
    db.update::<Account>("a")
        .allow_no_actions()
        .await
        .expect("update");
    assert_eq!(rec.only_update().update_expression, None);
    db.update::<Account>("a")
        .set(Account::version(), 40)
        .if_version(3u64)
        .ignore_version()
        .await
        .expect("update");
    let input = rec.only_update();
    assert_eq!(input.update_expression.as_deref(), Some("SET #n0 = :v0"));
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("attribute_exists(#n1)")
    );
}

#[tokio::test]
async fn update_errors_are_read_with_the_version_asked_for() {
    let (db, rec) = Recorder::db();
    rec.fail(conditional_failure(Some(stored("a", 1, 8))));
    let err = db
        .update::<Account>("a")
        .add(Account::balance(), 1)
        .if_version(7u64)
        .await
        .expect_err("stale");
    assert_eq!(versions(&err), Some((Some(7), Some(8))));

    // Without `if_version` there is no version check to blame.
    rec.fail(conditional_failure(Some(stored("a", 1, 8))));
    let err = db
        .update::<Account>("a")
        .add(Account::balance(), 1)
        .condition(Account::balance().ge(5))
        .await
        .expect_err("condition");
    assert!(err.is_conditional_check_failed());
    assert_eq!(rec.take().len(), 2);

    let err = db
        .update::<Account>("a")
        .add(Account::balance(), 1)
        .if_version(-1i64)
        .await
        .expect_err("not a version");
    assert_eq!(err.code(), "ConversionError");
    assert!(rec.take().is_empty(), "nothing sent");
}

#[tokio::test]
async fn deletes_check_the_version_of_the_value_or_the_one_given() {
    let (db, rec) = Recorder::db();
    db.delete(&account("a", 0, 3)).await.expect("delete");
    let input = rec.only_delete();
    assert_eq!(input.condition_expression.as_deref(), Some("#n0 = :v0"));
    assert_eq!(
        input.expression_attribute_values,
        Some(item(&[(":v0", n(3))]))
    );

    db.delete(&account("a", 0, 3))
        .ignore_version()
        .await
        .expect("delete");
    assert_eq!(rec.only_delete().condition_expression, None);

    db.delete_key::<Account>("a").await.expect("delete");
    assert_eq!(
        rec.only_delete().condition_expression,
        None,
        "no value, no check"
    );
    rec.fail(conditional_failure(Some(stored("a", 0, 5))));
    let err = db
        .delete_key::<Account>("a")
        .if_version(4u64)
        .await
        .expect_err("stale");
    assert_eq!(versions(&err), Some((Some(4), Some(5))));
}

#[tokio::test]
async fn sync_checks_before_and_bumps_without_writing_the_version_itself() {
    let (db, rec) = Recorder::db();
    let before = account("a", 5, 3);
    let after = Account {
        balance: 6,
        version: 99, // edits to the version are not written
        ..before.clone()
    };
    assert_eq!(db.sync(&before, &after).await, Ok(true));
    let input = rec.only_update();
    assert_eq!(
        input.update_expression.as_deref(),
        Some("SET #n0 = :v0 ADD #n1 :v1")
    );
    assert_eq!(
        input.expression_attribute_names,
        names(&[("#n0", "balance"), ("#n1", "v"), ("#n2", "id")])
    );
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("#n1 = :v2 AND attribute_exists(#n2)")
    );
    assert_eq!(
        input.expression_attribute_values.map(|v| v[":v2"].clone()),
        Some(n(3))
    );

    // Only the version differs: nothing to write, nothing sent.
    assert_eq!(
        db.sync(
            &before,
            &Account {
                version: 4,
                ..before.clone()
            }
        )
        .await,
        Ok(false)
    );
    assert!(rec.take().is_empty());

    assert_eq!(db.sync_atomic(&before, &after).await, Ok(true));
    let input = rec.only_update();
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("#n1 = :v2 AND attribute_exists(#n2) AND #n0 = :v3")
    );

    rec.fail(conditional_failure(Some(stored("a", 5, 4))));
    let err = db.sync(&before, &after).await.expect_err("stale");
    assert_eq!(versions(&err), Some((Some(3), Some(4))));

    // Deleted since `before` was read: not found, not re-created (and not a version conflict).
    rec.fail(conditional_failure(None));
    let err = db.sync(&before, &after).await.expect_err("deleted");
    assert!(
        err.is_item_not_found() && !err.is_version_conflict(),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        r#"ItemNotFound: Update Account {id: "a"} in `accounts`: no such item"#
    );
}

#[tokio::test]
async fn incr_bumps_and_refreshes_the_version() {
    let (db, rec) = Recorder::db();
    rec.answer(Ok(Some(stored("a", 7, 4))));
    let mut a = account("a", 5, 3);
    db.incr(&mut a, Account::balance(), 2).await.expect("incr");
    assert_eq!(a, account("a", 7, 4));
    let input = rec.only_update();
    assert_eq!(
        input.update_expression.as_deref(),
        Some("ADD #n0 :v0, #n1 :v1")
    );
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("attribute_exists(#n2)")
    );
    assert_eq!(input.return_values, Some(ReturnValue::AllNew));
}
