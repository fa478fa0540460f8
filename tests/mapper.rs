//! The mapper end to end on the in-memory engine: `Db`'s builders for put, get, delete, update
//! and flywheel's conveniences, through `dynomodel_mem::MemBackend`.

use std::collections::BTreeSet;

use dynomodel::{Db, Error, Model};
use dynomodel_mem::MemoryDb;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "tweets")]
struct Tweet {
    #[hash_key]
    userid: String,
    #[range_key]
    id: String,
    text: String,
    likes: i64,
    tags: BTreeSet<String>,
    nick: Option<String>,
}

fn tweet(id: &str) -> Tweet {
    Tweet {
        userid: "abc".into(),
        id: id.into(),
        text: format!("tweet {id}"),
        likes: 3,
        tags: BTreeSet::from(["rust".to_owned()]),
        nick: None,
    }
}

async fn db() -> Db {
    let db = Db::memory().with_namespace("mapper-");
    assert_eq!(db.create_schema::<Tweet>().await, Ok(true));
    db
}

#[tokio::test]
async fn put_get_and_delete_round_trip() {
    let db = db().await;
    db.put(&tweet("1")).await.expect("put");
    assert_eq!(
        db.get::<Tweet>(("abc", "1")).consistent().await,
        Ok(Some(tweet("1")))
    );
    db.delete(&tweet("1")).await.expect("delete");
    assert_eq!(db.get::<Tweet>(("abc", "1")).await, Ok(None));
    db.delete(&tweet("1"))
        .await
        .expect("deleting a missing item is fine");
}

#[tokio::test]
async fn returning_old_gives_back_replaced_and_deleted_items() {
    let db = db().await;
    assert_eq!(db.put(&tweet("1")).returning_old().await, Ok(None));
    let mut edited = tweet("1");
    edited.text = "edited".into();
    assert_eq!(db.put(&edited).returning_old().await, Ok(Some(tweet("1"))));
    assert_eq!(
        db.delete_key::<Tweet>(("abc", "1")).await,
        Ok(Some(edited.clone()))
    );
    assert_eq!(db.delete_key::<Tweet>(("abc", "1")).await, Ok(None));
    db.put(&edited).await.expect("put");
    assert_eq!(db.delete(&edited).returning_old().await, Ok(Some(edited)));
}

#[tokio::test]
async fn projections_read_typed_values() {
    let db = db().await;
    db.put(&tweet("1")).await.expect("put");
    let partial = db
        .get::<Tweet>(("abc", "1"))
        .project((Tweet::likes(), Tweet::tags()))
        .await
        .expect("get")
        .expect("stored");
    assert_eq!(partial.get(Tweet::likes()), Ok(Some(3)));
    assert_eq!(
        partial.get(Tweet::tags()),
        Ok(Some(BTreeSet::from(["rust".to_owned()])))
    );
    assert_eq!(partial.get(Tweet::nick()), Ok(None), "never stored");
    let missing = db.get::<Tweet>(("abc", "2")).project(Tweet::likes()).await;
    assert_eq!(missing, Ok(None));
}

#[tokio::test]
async fn refresh_and_unconditional_operations() {
    let db = db().await;
    let mut mine = tweet("1");
    assert_eq!(db.refresh(&mut mine).await, Ok(false), "not stored yet");
    db.put(&mine).await.expect("put");
    let mut theirs = mine.clone();
    theirs.likes = 10;
    db.put(&theirs).await.expect("put");
    assert_eq!(db.refresh(&mut mine).await, Ok(true));
    assert_eq!(mine, theirs);
}

#[tokio::test]
async fn builder_errors_surface_before_any_request() {
    let db = db().await;
    let err = db
        .update::<Tweet>(("abc", "1"))
        .await
        .expect_err("no actions");
    assert!(matches!(err, Error::Validation { .. }), "{err:?}");
    let err = db
        .put(&tweet("1"))
        .condition(Tweet::likes().is_in(Vec::<i64>::new()))
        .await
        .expect_err("empty IN");
    assert!(matches!(err, Error::Validation { .. }), "{err:?}");
    assert_eq!(
        db.get::<Tweet>(("abc", "1")).await,
        Ok(None),
        "nothing written"
    );
}

#[tokio::test]
async fn create_only_puts_and_conditional_deletes() {
    let db = db().await;
    db.put(&tweet("1")).if_not_exists().await.expect("creates");
    let mut other = tweet("1");
    other.text = "other".into();
    let err = db.put(&other).if_not_exists().await.expect_err("exists");
    assert!(err.is_conditional_check_failed());
    assert_eq!(err.conditional_item::<Tweet>(), Ok(Some(tweet("1"))));

    let err = db
        .delete(&other)
        .atomic()
        .await
        .expect_err("the stored text differs");
    assert!(err.is_conditional_check_failed());
    db.delete(&tweet("1"))
        .atomic()
        .await
        .expect("unchanged, so deleted");
    assert_eq!(db.get::<Tweet>(("abc", "1")).await, Ok(None));
}

#[tokio::test]
async fn projections_return_only_the_projected_attributes() {
    let db = db().await;
    db.put(&tweet("1")).await.expect("put");
    let partial = db
        .get::<Tweet>(("abc", "1"))
        .project(Tweet::likes())
        .await
        .expect("get")
        .expect("stored");
    assert_eq!(partial.item().len(), 1);
    assert_eq!(partial.get(Tweet::text()), Ok(None));
}

#[tokio::test]
async fn updates_with_return_values_and_flywheel_conveniences() {
    let db = db().await;
    db.put(&tweet("1")).await.expect("put");
    let new = db
        .update::<Tweet>(("abc", "1"))
        .set(Tweet::text(), "edited")
        .add(Tweet::likes(), 2)
        .condition(Tweet::likes().ge(3))
        .returning_new()
        .await
        .expect("updated");
    assert_eq!((new.text.as_str(), new.likes), ("edited", 5));

    let changed = db
        .update::<Tweet>(("abc", "1"))
        .incr(Tweet::likes(), 1)
        .returning_updated_new()
        .await
        .expect("updated");
    assert_eq!(changed.get(Tweet::likes()), Ok(Some(6)));
    assert_eq!(changed.get(Tweet::text()), Ok(None), "not updated");

    let err = db
        .update::<Tweet>(("abc", "1"))
        .set(Tweet::text(), "again")
        .condition(Tweet::likes().lt(0))
        .await
        .expect_err("the condition fails");
    assert_eq!(
        err.conditional_item::<Tweet>().map(|t| t.map(|t| t.likes)),
        Ok(Some(6))
    );

    let mut mine = new;
    db.incr(&mut mine, Tweet::likes(), 10).await.expect("incr");
    assert_eq!(mine.likes, 16);
    let mut edited = mine.clone();
    edited.nick = Some("ada".into());
    assert_eq!(db.sync_atomic(&mine, &edited).await, Ok(true));
    assert_eq!(db.get::<Tweet>(("abc", "1")).await, Ok(Some(edited)));
}
