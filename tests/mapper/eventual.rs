//! The mapper on an engine with eventual consistency on demand: a read-after-write on a GSI
//! misses the write until the GSI's delay has passed or the engine settles; the table read with
//! `.consistent()` never does, the one without within the stale window only; a conditional
//! write is evaluated on the current item, whatever readers see.

use std::time::Duration;

use dynomodel::{Db, Error, Model};
use dynomodel_mem::{EventualConsistency, ManualClock, MemBackend};

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "accounts")]
#[global_index(all("by-email", hash = email))]
struct Account {
    #[hash_key]
    id: String,
    email: String,
    name: String,
}

fn account(id: &str, email: &str) -> Account {
    Account {
        id: id.into(),
        email: email.into(),
        name: id.to_uppercase(),
    }
}

async fn engine() -> (Db, MemBackend, ManualClock) {
    let clock = ManualClock::default();
    let backend = MemBackend::builder()
        .clock(clock.clone())
        .eventual_consistency(
            EventualConsistency::new()
                .gsi_delay(Duration::from_millis(500))
                .stale_reads(Duration::from_millis(100)),
        )
        .build();
    let db = Db::new(backend.clone());
    db.create_schema::<Account>().await.unwrap();
    (db, backend, clock)
}

async fn by_email(db: &Db, email: &str) -> Vec<Account> {
    db.query_index(Account::by_email(), email)
        .all()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_gsi_read_after_write_misses_until_the_delay_or_settle() {
    let (db, backend, clock) = engine().await;
    db.put(&account("a1", "ada@x")).await.unwrap();
    assert!(by_email(&db, "ada@x").await.is_empty());
    assert_eq!(
        db.get::<Account>("a1").consistent().await.unwrap(),
        Some(account("a1", "ada@x"))
    );
    assert_eq!(db.get::<Account>("a1").await.unwrap(), None, "stale");
    clock.advance(Duration::from_millis(100));
    assert!(db.get::<Account>("a1").await.unwrap().is_some());
    clock.advance(Duration::from_millis(400));
    assert_eq!(by_email(&db, "ada@x").await, [account("a1", "ada@x")]);

    // An email change: the old key answers until the change arrives.
    db.put(&account("a1", "ada@y")).await.unwrap();
    assert_eq!(by_email(&db, "ada@x").await, [account("a1", "ada@x")]);
    assert!(by_email(&db, "ada@y").await.is_empty());
    backend.settle();
    assert!(by_email(&db, "ada@x").await.is_empty());
    assert_eq!(by_email(&db, "ada@y").await, [account("a1", "ada@y")]);
}

#[tokio::test]
async fn a_conditional_write_sees_the_current_item() {
    let (db, _backend, _clock) = engine().await;
    db.put(&account("a1", "ada@x")).await.unwrap();
    // Readers without ConsistentRead do not see it yet; the condition does.
    assert_eq!(db.get::<Account>("a1").await.unwrap(), None);
    let again = db.put(&account("a1", "other@x")).if_not_exists().await;
    assert!(
        matches!(again, Err(Error::ConditionalCheckFailed { .. })),
        "{again:?}"
    );
}
