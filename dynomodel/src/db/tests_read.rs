//! Request shapes and decoding of the read-side builders: get, projections, refresh, and the
//! put and delete builders (whose requests carry no update).

use crate::backend::*;
use crate::db::testing::*;
use crate::error::Error;
use crate::model::Model;
use crate::value::Item;

#[tokio::test]
async fn a_plain_get_sends_only_table_and_key() {
    let (db, rec) = Recorder::db();
    rec.answer(Ok(Some(tweet().to_item().expect("converts"))));
    let got = db.get::<Tweet>(("abc", "1")).await.expect("succeeds");
    assert_eq!(got, Some(tweet()));
    let expected = GetItemInput {
        table_name: "tweets".into(),
        key: key(),
        ..Default::default()
    };
    assert_eq!(rec.only(), Request::GetItem(expected));
}

#[tokio::test]
async fn namespaces_prefix_tables_and_consistent_reads_say_so() {
    let (db, rec) = Recorder::db();
    let db = db.with_namespace("test-");
    assert_eq!(db.get::<Tweet>(("abc", "1")).consistent().await, Ok(None));
    let Request::GetItem(input) = rec.only() else {
        panic!("a GetItem")
    };
    assert_eq!(input.table_name, "test-tweets");
    assert_eq!(input.consistent_read, Some(true));
}

#[tokio::test]
async fn projections_render_names_and_decode_into_partials() {
    let (db, rec) = Recorder::db();
    rec.answer(Ok(Some(Item::from([("likes".to_owned(), n(7))]))));
    let partial = db
        .get::<Tweet>(("abc", "1"))
        .project((Tweet::text(), Tweet::likes(), Tweet::history().index(2)))
        .consistent()
        .await
        .expect("succeeds")
        .expect("the item exists");
    assert_eq!(partial.get(Tweet::likes()), Ok(Some(7)));
    assert_eq!(partial.get(Tweet::text()), Ok(None));
    let expected = GetItemInput {
        table_name: "tweets".into(),
        key: key(),
        consistent_read: Some(true),
        projection_expression: Some("#n0, #n1, #n2[2]".into()),
        expression_attribute_names: names(&[("#n0", "text"), ("#n1", "likes"), ("#n2", "history")]),
        ..Default::default()
    };
    assert_eq!(rec.only(), Request::GetItem(expected));

    let missing = db.get::<Tweet>(("abc", "2")).project(Tweet::text()).await;
    assert_eq!(missing, Ok(None));
}

#[tokio::test]
async fn a_bad_projection_is_an_error_and_sends_nothing() {
    let (db, rec) = Recorder::db();
    let err = db
        .get::<Tweet>(("abc", "1"))
        .project((Tweet::history(), Tweet::history().index(0)))
        .await
        .expect_err("overlapping paths");
    assert!(
        err.message().contains("Two document paths overlap"),
        "{err}"
    );
    assert!(rec.take().is_empty());
}

#[tokio::test]
async fn a_plain_put_sends_the_item_and_nothing_else() {
    let (db, rec) = Recorder::db();
    db.put(&tweet()).await.expect("succeeds");
    let expected = PutItemInput {
        table_name: "tweets".into(),
        item: tweet().to_item().expect("converts"),
        ..Default::default()
    };
    assert_eq!(rec.only(), Request::PutItem(expected));
}

#[tokio::test]
async fn create_only_conditions_on_the_hash_key_and_asks_for_the_item_on_failure() {
    let (db, rec) = Recorder::db();
    db.put(&tweet()).if_not_exists().await.expect("succeeds");
    let input = rec.only_put();
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("attribute_not_exists(#n0)")
    );
    assert_eq!(
        input.expression_attribute_names,
        names(&[("#n0", "userid")])
    );
    assert_eq!(input.expression_attribute_values, None);
    assert_eq!(input.return_values, None);
    assert_eq!(
        input.return_values_on_condition_check_failure,
        Some(ReturnValuesOnConditionCheckFailure::AllOld)
    );
}

#[tokio::test]
async fn conditions_join_the_key_check_with_one_allocator() {
    let (db, rec) = Recorder::db();
    db.put(&tweet())
        .if_not_exists()
        .condition(Tweet::likes().ge(10) | Tweet::text().eq("x"))
        .condition(Tweet::userid().ne("abc"))
        .item_on_failure(false)
        .await
        .expect("succeeds");
    let input = rec.only_put();
    assert_eq!(
        input.condition_expression.as_deref(),
        Some("attribute_not_exists(#n0) AND (#n1 >= :v0 OR #n2 = :v1) AND #n0 <> :v2")
    );
    assert_eq!(
        input.expression_attribute_names,
        names(&[("#n0", "userid"), ("#n1", "likes"), ("#n2", "text")])
    );
    assert_eq!(
        input.expression_attribute_values,
        values(&[(":v0", n(10)), (":v1", s("x")), (":v2", s("abc"))])
    );
    assert_eq!(input.return_values_on_condition_check_failure, None);
}

#[tokio::test]
async fn returning_old_asks_for_and_decodes_the_replaced_item() {
    let (db, rec) = Recorder::db();
    let mut old = tweet();
    old.text = "before".into();
    rec.answer(Ok(Some(old.to_item().expect("converts"))));
    assert_eq!(db.put(&tweet()).returning_old().await, Ok(Some(old)));
    assert_eq!(db.put(&tweet()).returning_old().await, Ok(None));
    for request in rec.take() {
        let Request::PutItem(input) = request else {
            panic!("a PutItem")
        };
        assert_eq!(input.return_values, Some(ReturnValue::AllOld));
    }
}

#[tokio::test]
async fn a_failed_condition_carries_the_stored_item_as_a_model() {
    let (db, rec) = Recorder::db();
    let mut stored = tweet();
    stored.likes = 99;
    rec.answer(Err(conditional_failure(Some(
        stored.to_item().expect("converts"),
    ))));
    let err = db.put(&tweet()).if_not_exists().await.expect_err("fails");
    assert!(err.is_conditional_check_failed());
    assert_eq!(err.conditional_item::<Tweet>(), Ok(Some(stored)));
    assert_eq!(
        conditional_failure(None).conditional_item::<Tweet>(),
        Ok(None)
    );
    let undecodable = conditional_failure(Some(Item::from([("likes".to_owned(), s("x"))])));
    // Named by the key found in the item (none here) and the attribute.
    assert!(matches!(
        undecodable.conditional_item::<Tweet>(),
        Err(Error::ItemDecode(e)) if e.model == "Tweet" && e.key.is_empty() && !e.error.path.is_empty()
    ));
}

#[tokio::test]
async fn a_put_returning_old_passes_its_failures_through() {
    // The error arm of the put's one combinator, with a caller's step after it (`returning_old`).
    let (db, rec) = Recorder::db();
    let mut stored = tweet();
    stored.likes = 99;
    rec.answer(Err(conditional_failure(Some(
        stored.to_item().expect("converts"),
    ))));
    let err = db
        .put(&tweet())
        .if_not_exists()
        .returning_old()
        .await
        .expect_err("fails");
    assert!(err.is_conditional_check_failed());
    assert_eq!(err.conditional_item::<Tweet>(), Ok(Some(stored)));
    rec.fail(Error::validation("something else"));
    let err = db.put(&tweet()).returning_old().await;
    assert!(matches!(err, Err(Error::Validation { .. })), "{err:?}");
    // An item that does not decode as the model is the caller's step's error.
    rec.answer(Ok(Some(Item::from([("likes".to_owned(), s("x"))]))));
    let err = db.put(&tweet()).returning_old().await;
    assert!(matches!(err, Err(Error::ItemDecode(_))), "{err:?}");
    assert_eq!(rec.take().len(), 3);
}

#[tokio::test]
async fn a_plain_write_renders_nothing_and_a_conditional_one_still_does() {
    // A write with nothing to check skips the expression context: the same request as before.
    let (db, rec) = Recorder::db();
    db.put(&tweet()).await.expect("succeeds");
    db.put(&tweet())
        .condition(Tweet::likes().ge(1))
        .await
        .expect("succeeds");
    db.delete(&tweet()).await.expect("succeeds");
    let requests = rec.take();
    let [Request::PutItem(plain), Request::PutItem(checked), Request::DeleteItem(delete)] =
        &requests[..]
    else {
        panic!("two puts and a delete: {requests:?}")
    };
    assert_eq!(plain.condition_expression, None);
    assert_eq!(plain.expression_attribute_names, None);
    assert_eq!(plain.expression_attribute_values, None);
    assert_eq!(plain.return_values_on_condition_check_failure, None);
    assert_eq!(checked.condition_expression.as_deref(), Some("#n0 >= :v0"));
    assert_eq!(
        checked.expression_attribute_names,
        names(&[("#n0", "likes")])
    );
    assert_eq!(
        checked.expression_attribute_values,
        values(&[(":v0", n(1))])
    );
    assert_eq!(
        checked.return_values_on_condition_check_failure,
        Some(ReturnValuesOnConditionCheckFailure::AllOld)
    );
    assert_eq!(delete.condition_expression, None);
    assert_eq!(delete.expression_attribute_names, None);
}

#[tokio::test]
async fn rendering_errors_are_errors_and_send_nothing() {
    let (db, rec) = Recorder::db();
    let empty_in = Tweet::likes().is_in(Vec::<i64>::new());
    let err = db.put(&tweet()).condition(empty_in.clone()).await;
    assert!(matches!(err, Err(Error::Validation { .. })), "{err:?}");
    let err = db.delete(&tweet()).condition(empty_in.clone()).await;
    assert!(matches!(err, Err(Error::Validation { .. })), "{err:?}");
    let err = db
        .delete_key::<Tweet>(("abc", "1"))
        .condition(empty_in)
        .await;
    assert!(matches!(err, Err(Error::Validation { .. })), "{err:?}");
    assert!(rec.take().is_empty());
}

#[tokio::test]
async fn a_plain_delete_asks_for_nothing_back() {
    let (db, rec) = Recorder::db();
    db.delete(&tweet()).await.expect("succeeds");
    let expected = DeleteItemInput {
        table_name: "tweets".into(),
        key: key(),
        ..Default::default()
    };
    assert_eq!(rec.only(), Request::DeleteItem(expected));

    rec.answer(Ok(Some(tweet().to_item().expect("converts"))));
    let gone = db.delete(&tweet()).returning_old().await;
    assert_eq!(gone, Ok(Some(tweet())));
    let input = rec.only_delete();
    assert_eq!(input.return_values, Some(ReturnValue::AllOld));
}

#[tokio::test]
async fn an_atomic_delete_conditions_on_every_stored_attribute() {
    let (db, rec) = Recorder::db();
    db.delete(&tweet())
        .atomic()
        .condition(Tweet::retweets().lt(5))
        .await
        .expect("succeeds");
    let input = rec.only_delete();
    // The item's attributes in name order; `nick` (None) stores nothing and is not checked.
    assert_eq!(
        input.condition_expression.as_deref(),
        Some(
            "#n0 = :v0 AND #n1 = :v1 AND #n2 = :v2 AND #n3 = :v3 AND #n4 = :v4 AND #n5 = :v5 \
             AND #n6 = :v6 AND #n3 < :v7"
        )
    );
    let stored = tweet().to_item().expect("converts");
    let expected_names: Vec<&str> = stored.keys().map(String::as_str).collect();
    let sent = input.expression_attribute_names.expect("names");
    assert_eq!(
        sent.values().map(String::as_str).collect::<Vec<_>>().len(),
        7
    );
    assert_eq!(sent["#n3"], "retweets");
    for (i, name) in expected_names.iter().enumerate() {
        assert_eq!(sent[&format!("#n{i}")], *name);
        let value = &input.expression_attribute_values.as_ref().expect("values")[&format!(":v{i}")];
        assert_eq!(value, &stored[*name]);
    }
    assert_eq!(
        input.return_values_on_condition_check_failure,
        Some(ReturnValuesOnConditionCheckFailure::AllOld)
    );
}

#[tokio::test]
async fn delete_key_returns_the_old_item_unless_told_not_to() {
    let (db, rec) = Recorder::db();
    rec.answer(Ok(Some(tweet().to_item().expect("converts"))));
    let gone = db
        .delete_key::<Tweet>(("abc", "1"))
        .condition(Tweet::likes().eq(3))
        .await;
    assert_eq!(gone, Ok(Some(tweet())));
    let expected = DeleteItemInput {
        table_name: "tweets".into(),
        key: key(),
        condition_expression: Some("#n0 = :v0".into()),
        expression_attribute_names: names(&[("#n0", "likes")]),
        expression_attribute_values: values(&[(":v0", n(3))]),
        return_values: Some(ReturnValue::AllOld),
        return_values_on_condition_check_failure: Some(ReturnValuesOnConditionCheckFailure::AllOld),
        ..Default::default()
    };
    assert_eq!(rec.only(), Request::DeleteItem(expected));

    db.delete_key::<Tweet>(("abc", "1"))
        .without_old()
        .await
        .expect("succeeds");
    let input = rec.only_delete();
    assert_eq!(input.return_values, None);
}

#[tokio::test]
async fn refresh_overwrites_with_a_consistent_read_or_reports_absence() {
    let (db, rec) = Recorder::db();
    let mut fresh = tweet();
    fresh.likes = 42;
    rec.answer(Ok(Some(fresh.to_item().expect("converts"))));
    let mut mine = tweet();
    assert_eq!(db.refresh(&mut mine).await, Ok(true));
    assert_eq!(mine, fresh);
    assert_eq!(db.refresh(&mut mine).await, Ok(false));
    assert_eq!(mine, fresh, "left untouched when gone");
    for request in rec.take() {
        let Request::GetItem(input) = request else {
            panic!("a GetItem")
        };
        assert_eq!(input.consistent_read, Some(true));
        assert_eq!(input.key, key());
    }
}
