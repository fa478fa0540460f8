//! Request shapes and decoding of the update builder and of flywheel's `incr` and `sync`.

use std::collections::BTreeSet;

use crate::backend::*;
use crate::db::testing::*;
use crate::error::Error;
use crate::expression::Update;
use crate::model::Model;
use crate::value::{AttributeValue, Item};

#[tokio::test]
async fn every_action_renders_in_clause_order_with_one_allocator() {
    let (db, rec) = Recorder::db();
    db.update::<Tweet>(("abc", "1"))
        .set(Tweet::text(), "edited")
        .add(Tweet::retweets(), 1)
        .remove(Tweet::nick())
        .delete(Tweet::tags(), BTreeSet::from(["old".to_owned()]))
        .append(Tweet::history(), vec!["v2".to_owned()])
        .incr(Tweet::likes(), 2)
        .condition(Tweet::text().ne("edited"))
        .await
        .expect("succeeds");
    let input = rec.only_update();
    assert_eq!(input.table_name, "tweets");
    assert_eq!(input.key, key());
    assert_eq!(
        input.update_expression.as_deref(),
        Some(
            "SET #n0 = :v0, #n1 = list_append(if_not_exists(#n1, :v2), :v1), #n2 = #n2 + :v3 \
             REMOVE #n3 ADD #n4 :v4 DELETE #n5 :v5"
        )
    );
    // The existence check, then the user's condition, which reuses `#n0` for `text`: names are
    // shared across the request's expressions.
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("attribute_exists(#n6) AND #n0 <> :v6")
    );
    assert_eq!(
        input.expression_attribute_names,
        names(&[
            ("#n0", "text"),
            ("#n1", "history"),
            ("#n2", "likes"),
            ("#n3", "nick"),
            ("#n4", "retweets"),
            ("#n5", "tags"),
            ("#n6", "userid"),
        ])
    );
    let sent = input.expression_attribute_values.expect("values");
    assert_eq!(sent.len(), 7, "no unused value");
    assert_eq!(sent[":v0"], s("edited"));
    assert_eq!(sent[":v1"], AttributeValue::L(vec![s("v2")]));
    assert_eq!(
        sent[":v2"],
        AttributeValue::L(vec![]),
        "the empty list for a missing one"
    );
    assert_eq!(sent[":v5"], AttributeValue::Ss(vec!["old".into()]));
    assert_eq!(sent[":v6"], s("edited"));
    assert_eq!(input.return_values, None);
    assert_eq!(
        input.return_values_on_condition_check_failure,
        Some(ReturnValuesOnConditionCheckFailure::AllOld)
    );
}

#[tokio::test]
async fn the_other_actions_render_too() {
    let (db, rec) = Recorder::db();
    db.update::<Tweet>(("abc", "1"))
        .set_if_not_exists(Tweet::text(), "first")
        .prepend(Tweet::history(), vec!["v0".to_owned()])
        .decr(Tweet::likes(), 1)
        .set(Tweet::nick(), None)
        .await
        .expect("succeeds");
    let input = rec.only_update();
    assert_eq!(
        input.update_expression.as_deref(),
        Some(
            "SET #n0 = if_not_exists(#n0, :v0), #n1 = list_append(:v1, if_not_exists(#n1, :v2)), \
             #n2 = #n2 - :v3 REMOVE #n3"
        )
    );
    // An update only updates: on condition that the item exists (its hash key, `userid`).
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("attribute_exists(#n4)")
    );
    assert_eq!(
        input.return_values_on_condition_check_failure,
        Some(ReturnValuesOnConditionCheckFailure::AllOld)
    );
}

#[tokio::test]
async fn an_update_without_actions_is_an_error_unless_allowed() {
    let (db, rec) = Recorder::db();
    let err = db
        .update::<Tweet>(("abc", "1"))
        .condition(Tweet::likes().gt(1))
        .await
        .expect_err("no actions");
    assert!(matches!(err, Error::Validation { .. }));
    assert!(err.message().contains("`tweets` has no actions"), "{err}");
    // Skipped actions (adding an empty set) leave none either.
    let err = db
        .update::<Tweet>(("abc", "1"))
        .add(Tweet::tags(), BTreeSet::new())
        .await;
    assert!(
        err.is_err_and(|e| e.message().contains("`tweets` has no actions")),
        "an empty set adds nothing"
    );
    assert!(rec.take().is_empty(), "nothing was sent");

    db.update::<Tweet>(("abc", "1"))
        .allow_no_actions()
        .await
        .expect("succeeds");
    // A "touch": it checks that the item exists, and changes nothing.
    let expected = UpdateItemInput {
        table_name: "tweets".into(),
        key: key(),
        condition_expression: Some("attribute_exists(#n0)".into()),
        expression_attribute_names: names(&[("#n0", "userid")]),
        return_values_on_condition_check_failure: Some(ReturnValuesOnConditionCheckFailure::AllOld),
        ..Default::default()
    };
    assert_eq!(rec.only(), Request::UpdateItem(expected));
    // An upsert without actions would create an item of the key alone, which a Tweet is not.
    let err = db
        .update::<Tweet>(("abc", "1"))
        .allow_no_actions()
        .upsert()
        .await
        .expect_err("a Tweet needs more than its key");
    assert!(err.message().contains("missing `text`"), "{err}");
    assert!(rec.take().is_empty(), "nothing was sent");
}

#[tokio::test]
async fn rendering_errors_are_errors_and_send_nothing() {
    let (db, rec) = Recorder::db();
    let err = db
        .update::<Tweet>(("abc", "1"))
        .set(Tweet::history(), vec![])
        .remove(Tweet::history().index(0))
        .await
        .expect_err("overlapping paths");
    assert!(err.message().contains("overlap"), "{err}");
    let err = db
        .update::<Tweet>(("abc", "1"))
        .set(Tweet::text(), "x")
        .condition(Tweet::likes().is_in(Vec::<i64>::new()))
        .returning_new()
        .await;
    assert!(matches!(err, Err(Error::Validation { .. })), "{err:?}");
    assert!(rec.take().is_empty());
}

#[tokio::test]
async fn finishers_choose_return_values_and_decode_them() {
    let (db, rec) = Recorder::db();
    let update = || db.update::<Tweet>(("abc", "1")).add(Tweet::likes(), 1);
    let mut new = tweet();
    new.likes = 4;

    rec.answer(Ok(Some(new.to_item().expect("converts"))));
    assert_eq!(update().returning_new().await, Ok(new.clone()));
    assert_eq!(rec.only_update().return_values, Some(ReturnValue::AllNew));

    rec.answer(Ok(Some(tweet().to_item().expect("converts"))));
    assert_eq!(update().returning_old().await, Ok(Some(tweet())));
    assert_eq!(rec.only_update().return_values, Some(ReturnValue::AllOld));
    assert_eq!(update().returning_old().await, Ok(None), "no item returned");
    rec.take();

    rec.answer(Ok(Some(Item::from([("likes".to_owned(), n(4))]))));
    let partial = update().returning_updated_new().await.expect("succeeds");
    assert_eq!(partial.get(Tweet::likes()), Ok(Some(4)));
    assert_eq!(
        rec.only_update().return_values,
        Some(ReturnValue::UpdatedNew)
    );

    let partial = update().returning_updated_old().await.expect("succeeds");
    assert!(
        partial.is_empty(),
        "no attributes: the counter did not exist"
    );
    assert_eq!(
        rec.only_update().return_values,
        Some(ReturnValue::UpdatedOld)
    );
}

#[tokio::test]
async fn a_missing_all_new_item_or_a_bad_one_is_a_conversion_error() {
    let (db, _rec) = Recorder::db();
    let err = db
        .update::<Tweet>(("abc", "1"))
        .add(Tweet::likes(), 1)
        .returning_new()
        .await
        .expect_err("no item");
    assert!(matches!(err, Error::Conversion(_)), "{err:?}");
    assert!(
        err.to_string().contains("the updated item of `tweets`"),
        "{err}"
    );
}

#[tokio::test]
async fn prebuilt_updates_and_failed_conditions() {
    let (db, rec) = Recorder::db();
    let mut stored = tweet();
    stored.likes = 0;
    rec.answer(Err(conditional_failure(Some(
        stored.to_item().expect("converts"),
    ))));
    let err = db
        .update::<Tweet>(("abc", "1"))
        .actions(Update::new().decr(Tweet::likes(), 1))
        .condition(Tweet::likes().gt(0))
        .await
        .expect_err("the condition fails");
    assert_eq!(err.conditional_item::<Tweet>(), Ok(Some(stored)));
    let input = rec.only_update();
    assert_eq!(
        input.update_expression.as_deref(),
        Some("SET #n0 = #n0 - :v0")
    );
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("attribute_exists(#n1) AND #n0 > :v1")
    );
}

#[tokio::test]
async fn incr_adds_on_condition_of_existence_and_refreshes_the_value() {
    let (db, rec) = Recorder::db();
    let mut after = tweet();
    after.likes = 5;
    after.text = "changed meanwhile".into();
    rec.answer(Ok(Some(after.to_item().expect("converts"))));
    let mut mine = tweet();
    db.incr(&mut mine, Tweet::likes(), 2)
        .await
        .expect("succeeds");
    assert_eq!(mine, after);
    let expected = UpdateItemInput {
        table_name: "tweets".into(),
        key: key(),
        update_expression: Some("ADD #n0 :v0".into()),
        condition_expression: Some("attribute_exists(#n1)".into()),
        expression_attribute_names: names(&[("#n0", "likes"), ("#n1", "userid")]),
        expression_attribute_values: values(&[(":v0", n(2))]),
        return_values: Some(ReturnValue::AllNew),
        return_values_on_condition_check_failure: Some(ReturnValuesOnConditionCheckFailure::AllOld),
        ..Default::default()
    };
    assert_eq!(rec.only(), Request::UpdateItem(expected));

    rec.answer(Err(conditional_failure(None)));
    let before = mine.clone();
    let err = db.incr(&mut mine, Tweet::likes(), 1).await;
    assert!(err.is_err_and(|e| e.is_item_not_found()));
    assert_eq!(mine, before, "unchanged on failure");
}

#[tokio::test]
async fn sync_writes_only_the_differences() {
    let (db, rec) = Recorder::db();
    let before = tweet();
    let mut after = before.clone();
    after.text = "edited".into();
    after.nick = Some("ada".into());
    after.tags = BTreeSet::new();
    assert_eq!(db.sync(&before, &after).await, Ok(true));
    let input = rec.only_update();
    // Attributes in name order, old ones (`tags`, `text`) before new ones (`nick`); placeholders
    // in rendering order, SET before REMOVE.
    assert_eq!(
        input.update_expression.as_deref(),
        Some("SET #n0 = :v0, #n1 = :v1 REMOVE #n2")
    );
    assert_eq!(
        input.expression_attribute_names,
        names(&[
            ("#n0", "text"),
            ("#n1", "nick"),
            ("#n2", "tags"),
            ("#n3", "userid")
        ])
    );
    // A sync never re-creates an item deleted since `before` was read.
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("attribute_exists(#n3)")
    );

    assert_eq!(db.sync(&before, &before).await, Ok(false));
    assert!(rec.take().is_empty(), "nothing to write, nothing sent");

    let mut moved = before.clone();
    moved.id = "2".into();
    let err = db.sync(&before, &moved).await.expect_err("key changed");
    assert!(err.message().contains("the key changed"), "{err}");
}

#[tokio::test]
async fn atomic_sync_conditions_on_the_old_values() {
    let (db, rec) = Recorder::db();
    let before = tweet();
    let mut after = before.clone();
    after.text = "edited".into();
    after.nick = Some("ada".into());
    assert_eq!(db.sync_atomic(&before, &after).await, Ok(true));
    let input = rec.only_update();
    assert_eq!(
        input.update_expression.as_deref(),
        Some("SET #n0 = :v0, #n1 = :v1")
    );
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("attribute_exists(#n2) AND #n0 = :v2 AND attribute_not_exists(#n1)")
    );
    assert_eq!(
        input.expression_attribute_values,
        values(&[(":v0", s("edited")), (":v1", s("ada")), (":v2", s("hello"))])
    );
}
