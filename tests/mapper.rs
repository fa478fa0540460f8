//! The mapper end to end on the in-memory engine: `Db`'s builders for put, get, delete, update
//! and flywheel's conveniences, through `dynomodel_mem::MemBackend`.

#![allow(clippy::unwrap_used)] // Tests: a panic is the failure report.

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

/// Every kind of expression the typed builders emit must be accepted by the engine's parser and
/// validator: a `ValidationException` here means the builders and the engine disagree on DynamoDB's
/// grammar. (A failed condition is fine: only the syntax and placeholders are under test.)
mod every_builder_expression_parses {
    use std::collections::{BTreeMap, BTreeSet};

    use chrono::{TimeZone, Utc};
    use dynomodel::expression::AttributeType;
    use dynomodel::{Binary, Condition, Db, Document, Error, Model, Update};
    use dynomodel_mem::MemoryDb;

    #[derive(Document, Debug, Clone, PartialEq, Default)]
    struct Address {
        city: String,
        zip: Option<String>,
    }

    #[derive(Model, Debug, Clone, PartialEq)]
    #[dynomodel(table = "everything")]
    struct Everything {
        #[hash_key]
        id: String,
        name: String,
        count: i64,
        ratio: f64,
        flag: bool,
        data: Vec<u8>,
        tags: BTreeSet<String>,
        scores: BTreeSet<i64>,
        list: Vec<String>,
        map: BTreeMap<String, i64>,
        address: Address,
        nick: Option<String>,
        when: chrono::DateTime<Utc>,
    }

    type E = Everything;

    fn item() -> Everything {
        Everything {
            id: "e".into(),
            name: "name".into(),
            count: 3,
            ratio: 0.5,
            flag: true,
            data: vec![1, 2, 3],
            tags: BTreeSet::from(["rust".to_owned(), "db".to_owned()]),
            scores: BTreeSet::from([1, 2]),
            list: vec!["x".into(), "y".into()],
            map: BTreeMap::from([("k".to_owned(), 1)]),
            address: Address {
                city: "Paris".into(),
                zip: None,
            },
            nick: None,
            when: Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap(),
        }
    }

    fn conditions() -> Vec<Condition<E>> {
        let when = Utc.with_ymd_and_hms(2025, 1, 1, 0, 0, 0).unwrap();
        vec![
            E::name().eq("name"),
            E::name().ne("x"),
            E::count().lt(5),
            E::count().le(3),
            E::count().gt(1),
            E::count().ge(3),
            E::count().between(1, 5),
            E::count().is_in([1, 2, 3]),
            E::ratio().lt(1.5),
            E::flag().eq(true),
            E::when().gt(when),
            E::nick().eq("n"),
            E::nick().not_exists(),
            E::name().exists(),
            E::name().attribute_type(AttributeType::S),
            E::tags().attribute_type(AttributeType::Ss),
            E::name().begins_with("na"),
            E::data().begins_with(Binary::from(vec![1])),
            E::name().contains("am"),
            E::tags().contains("rust"),
            E::scores().contains(2),
            E::list().contains("x"),
            E::name().size().gt(1),
            E::tags().size().eq(2),
            E::list().size().between(1, 3),
            E::map().size().ge(1),
            E::map().key("k").eq(1),
            E::map().key("reserved name").ge(0),
            E::list().index(0).eq("x"),
            E::address().then(Address::city()).eq("Paris"),
            E::address().then(Address::zip()).not_exists(),
            E::name().eq("name") & E::count().gt(1),
            E::name().eq("x") | E::count().gt(1),
            !E::flag().eq(false),
            (E::name().eq("a") | E::name().eq("b")) & !(E::count().lt(0) | E::count().gt(10)),
            !(E::tags().contains("x") & E::list().index(1).eq("y")) | E::nick().exists(),
        ]
    }

    fn updates() -> Vec<Update<E>> {
        vec![
            Update::new().set(E::name(), "new"),
            Update::new().set(E::nick(), None::<String>),
            Update::new().set(E::nick(), "nick"),
            Update::new().set_if_not_exists(E::nick(), "first"),
            Update::new().set(E::map().key("k2"), 5),
            Update::new().set(E::list().index(1), "z"),
            Update::new().set(E::address().then(Address::city()), "Lyon"),
            Update::new().add(E::count(), 2),
            Update::new().add(E::tags(), BTreeSet::from(["new".to_owned()])),
            Update::new().incr(E::count(), 1),
            Update::new().decr(E::count(), 1),
            Update::new().remove(E::nick()),
            Update::new().remove(E::list().index(0)),
            Update::new().delete(E::tags(), BTreeSet::from(["db".to_owned()])),
            Update::new().append(E::list(), vec!["end".to_owned()]),
            Update::new().prepend(E::list(), vec!["start".to_owned()]),
            Update::new()
                .set(E::name(), "all")
                .incr(E::count(), 1)
                .remove(E::nick())
                .add(E::scores(), BTreeSet::from([9]))
                .delete(E::tags(), BTreeSet::from(["rust".to_owned()]))
                .append(E::list(), vec!["w".to_owned()]),
        ]
    }

    fn accepted<T: std::fmt::Debug>(what: &str, result: Result<T, Error>) {
        match result {
            Ok(_) | Err(Error::ConditionalCheckFailed { .. }) => {}
            Err(other) => panic!("{what}: the engine rejected a builder's expression: {other}"),
        }
    }

    async fn db() -> Db {
        let db = Db::memory();
        db.create_schema::<E>().await.unwrap();
        db.put(&item()).await.unwrap();
        db
    }

    #[tokio::test]
    async fn conditions_parse_in_puts_deletes_and_updates() {
        let db = db().await;
        for (i, condition) in conditions().into_iter().enumerate() {
            accepted(
                &format!("put condition {i}"),
                db.put(&item()).condition(condition.clone()).await,
            );
            accepted(
                &format!("update condition {i}"),
                db.update::<E>("e")
                    .set(E::flag(), true)
                    .condition(condition.clone())
                    .await,
            );
            accepted(
                &format!("delete condition {i}"),
                db.delete_key::<E>("e")
                    .condition(condition)
                    .without_old()
                    .await,
            );
            db.put(&item()).await.unwrap();
        }
    }

    #[tokio::test]
    async fn updates_parse_and_apply() {
        let db = db().await;
        for (i, update) in updates().into_iter().enumerate() {
            db.put(&item()).await.unwrap();
            accepted(
                &format!("update {i}"),
                db.update::<E>("e").actions(update).returning_new().await,
            );
        }
    }

    #[tokio::test]
    async fn projections_parse() {
        let db = db().await;
        let partial = db
            .get::<E>("e")
            .project((
                E::name(),
                E::map().key("k"),
                E::list().index(1),
                E::address().then(Address::city()),
                E::tags(),
            ))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(partial.get(E::name()), Ok(Some("name".to_owned())));
        assert_eq!(
            partial.get(E::address().then(Address::city())),
            Ok(Some("Paris".to_owned()))
        );
        assert_eq!(partial.get(E::count()), Ok(None));
    }
}

#[path = "mapper/seconds.rs"]
mod seconds;

#[path = "mapper/capacity.rs"]
mod capacity;

#[path = "mapper/changes.rs"]
mod changes;

#[path = "mapper/collection_changes.rs"]
mod collection_changes;

#[path = "mapper/eventual.rs"]
mod eventual;

#[path = "mapper/throughput.rs"]
mod throughput;

#[path = "mapper/faults.rs"]
mod faults;
