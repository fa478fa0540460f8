//! The mapper's transactions and optimistic locking end to end on the in-memory engine: transfers,
//! cancellations with typed reasons and old items, client request tokens, `transact_get`, and
//! version conflicts between handles. One scenario, `on_every_backend`, also runs through
//! `AwsBackend` against DynamoDB Local and the engine's HTTP server, to show that what the mapper
//! renders and reads back means the same there.

#![allow(clippy::unwrap_used)] // Tests: a panic is the failure report.

use dynomodel::{CancellationCode, Db, Error, Model};
use dynomodel_mem::MemoryDb;
use dynomodel_tests::dual_test;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "accounts")]
struct Account {
    #[hash_key]
    id: String,
    owner: String,
    balance: i64,
    #[version]
    version: u64,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "transfers")]
struct Transfer {
    #[hash_key]
    id: String,
    from: String,
    to: String,
    amount: i64,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "banks")]
struct Bank {
    #[hash_key]
    id: String,
    open: bool,
}

fn account(id: &str, balance: i64) -> Account {
    Account {
        id: id.into(),
        owner: id.to_uppercase(),
        balance,
        version: 0,
    }
}

/// A database with the three tables, alice (100) and bob (0) saved, and an open bank.
async fn bank() -> Db {
    open_bank(Db::memory().with_namespace("tx-")).await
}

/// Creates the three tables in `db` and opens the accounts and the bank.
async fn open_bank(db: Db) -> Db {
    db.create_schema::<Account>().await.unwrap();
    db.create_schema::<Transfer>().await.unwrap();
    db.create_schema::<Bank>().await.unwrap();
    db.save(&mut account("alice", 100)).await.unwrap();
    db.save(&mut account("bob", 0)).await.unwrap();
    db.put(&Bank {
        id: "main".into(),
        open: true,
    })
    .await
    .unwrap();
    db
}

/// The (expected, stored) versions of a [`Error::VersionConflict`].
fn versions(error: &Error) -> Option<(Option<u64>, Option<u64>)> {
    match error {
        Error::VersionConflict(conflict) => Some((conflict.expected, conflict.stored)),
        _ => None,
    }
}

async fn balance(db: &Db, id: &str) -> Option<i64> {
    let account = db.get::<Account>(id).consistent().await.unwrap();
    account.map(|a| a.balance)
}

/// Moves `amount` from `from` to `to` if `from` has it and the bank is open, recording the transfer.
async fn transfer(db: &Db, id: &str, from: &str, to: &str, amount: i64) -> dynomodel::Result<()> {
    let record = Transfer {
        id: id.into(),
        from: from.into(),
        to: to.into(),
        amount,
    };
    db.transact()
        .update::<Account>(from, |u| {
            u.decr(Account::balance(), amount)
                .condition(Account::balance().ge(amount))
        })
        .update::<Account>(to, |u| {
            u.incr(Account::balance(), amount)
                .condition(Account::id().exists())
        })
        .put_with(&record, |p| p.if_not_exists())
        .condition_check::<Bank>("main", Bank::open().eq(true))
        .await
}

#[tokio::test]
async fn a_transfer_moves_the_amount_and_bumps_both_versions() {
    let db = bank().await;
    transfer(&db, "t1", "alice", "bob", 30).await.unwrap();
    let alice = db.get::<Account>("alice").await.unwrap().unwrap();
    let bob = db.get::<Account>("bob").await.unwrap().unwrap();
    assert_eq!((alice.balance, alice.version), (70, 2));
    assert_eq!((bob.balance, bob.version), (30, 2));
    let record = db.get::<Transfer>("t1").await.unwrap().unwrap();
    assert_eq!(record.amount, 30);
}

#[tokio::test]
async fn a_failed_transfer_writes_nothing_and_says_why_per_action() {
    let db = bank().await;
    let err = transfer(&db, "t1", "alice", "bob", 500).await.unwrap_err();
    assert!(
        matches!(err, Error::TransactionCanceled { .. }),
        "the variant both backends use: {err:?}"
    );
    let reasons = err.cancellation_reasons();
    let codes: Vec<&CancellationCode> = reasons.iter().map(|r| &r.code).collect();
    use CancellationCode::{ConditionalCheckFailed, None as Ok};
    assert_eq!(codes, [&ConditionalCheckFailed, &Ok, &Ok, &Ok]);

    let failed = &reasons[0];
    let action = failed.action.as_ref().unwrap();
    assert_eq!(
        (action.kind, action.model, action.table.as_str()),
        ("Update", "Account", "tx-accounts")
    );
    assert_eq!(
        action.key["id"],
        dynomodel::AttributeValue::S("alice".into())
    );
    assert!(failed.message.is_some());
    let old = failed.item_as::<Account>().unwrap().unwrap();
    assert_eq!((old.balance, old.version), (100, 1), "the item as it was");
    assert!(
        !failed.is_version_conflict(),
        "a business condition, not a version"
    );
    assert!(!err.is_version_conflict());
    let kinds: Vec<&str> = reasons
        .iter()
        .map(|r| r.action.as_ref().unwrap().kind)
        .collect();
    assert_eq!(kinds, ["Update", "Update", "Put", "ConditionCheck"]);

    assert_eq!(balance(&db, "alice").await, Some(100));
    assert_eq!(balance(&db, "bob").await, Some(0));
    assert_eq!(db.get::<Transfer>("t1").await.unwrap(), None);
}

#[tokio::test]
async fn a_condition_check_on_another_model_cancels_with_its_item() {
    let db = bank().await;
    db.put(&Bank {
        id: "main".into(),
        open: false,
    })
    .await
    .unwrap();
    let err = transfer(&db, "t1", "alice", "bob", 10).await.unwrap_err();
    let reason = &err.cancellation_reasons()[3];
    assert!(reason.is_conditional_check_failed());
    assert_eq!(
        reason.item_as::<Bank>().unwrap(),
        Some(Bank {
            id: "main".into(),
            open: false
        })
    );
    assert_eq!(
        reason.item_as::<Account>().unwrap_err().message(),
        "this cancellation reason is about a `Bank`, not a `Account`",
        "not an account"
    );
    assert_eq!(balance(&db, "alice").await, Some(100));
}

#[tokio::test]
async fn a_replayed_token_does_nothing_and_a_changed_one_is_a_mismatch() {
    let db = bank().await;
    let deposit = |amount: i64| {
        db.transact()
            .update::<Account>("bob", move |u| u.add(Account::balance(), amount))
            .client_request_token("deposit-1")
    };
    deposit(5).await.unwrap();
    deposit(5).await.unwrap();
    assert_eq!(balance(&db, "bob").await, Some(5), "applied once");
    let err = deposit(6).await.unwrap_err();
    assert_eq!(err.code(), "IdempotentParameterMismatchException");
    assert_eq!(balance(&db, "bob").await, Some(5));
}

#[tokio::test]
async fn transact_get_reads_several_models_at_once() {
    let db = bank().await;
    transfer(&db, "t1", "alice", "bob", 40).await.unwrap();
    let mut read = db.transact_get();
    let alice = read.get::<Account>("alice");
    let bob = read.get::<Account>("bob");
    let carol = read.get::<Account>("carol");
    let record = read.get::<Transfer>("t1");
    let bank = read.get::<Bank>("main");
    let reads = read.await.unwrap();
    assert_eq!(reads.get(alice).unwrap().map(|a| a.balance), Some(60));
    assert_eq!(reads.get(bob).unwrap().map(|a| a.balance), Some(40));
    assert_eq!(reads.get(carol).unwrap(), None);
    assert_eq!(reads.get(record).unwrap().map(|t| t.amount), Some(40));
    assert_eq!(reads.get(bank).unwrap().map(|b| b.open), Some(true));
}

#[tokio::test]
async fn two_actions_on_one_item_are_rejected_as_dynamodb_does() {
    let db = bank().await;
    let err = db
        .transact()
        .update::<Account>("alice", |u| u.incr(Account::balance(), 1))
        .update::<Account>("alice", |u| u.incr(Account::balance(), 1))
        .await
        .unwrap_err();
    assert_eq!(err.code(), "ValidationException");
    assert_eq!(balance(&db, "alice").await, Some(100));
}

#[tokio::test]
async fn two_copies_read_before_either_saves_cannot_both_win() {
    let db = bank().await;
    let other = db.clone(); // a second handle on the same database
    let mut mine = db.get::<Account>("alice").await.unwrap().unwrap();
    let mut theirs = other.get::<Account>("alice").await.unwrap().unwrap();

    theirs.balance += 50;
    other.save(&mut theirs).await.unwrap();
    mine.owner = "Alice Liddell".into();
    let err = db.save(&mut mine).await.unwrap_err();
    match &err {
        Error::VersionConflict(conflict) => assert_eq!(
            (conflict.model, conflict.expected, conflict.stored),
            ("Account", Some(1), Some(2))
        ),
        other => panic!("a version conflict, not {other:?}"),
    }
    assert!(err.message().contains("tx-accounts"), "{err}");
    assert_eq!(mine.version, 1, "a failed save leaves the copy as it was");

    // Retry on the stored item: both changes survive.
    let mut fresh: Account = err.conditional_item().unwrap().unwrap();
    fresh.owner = "Alice Liddell".into();
    db.save(&mut fresh).await.unwrap();
    let stored = db.get::<Account>("alice").await.unwrap().unwrap();
    assert_eq!(
        (stored.owner.as_str(), stored.balance, stored.version),
        ("Alice Liddell", 150, 3)
    );

    // A put of a stale copy fails too, and so does a delete; a delete of the current one works.
    assert!(db.put(&theirs).await.unwrap_err().is_version_conflict());
    assert!(db.delete(&theirs).await.unwrap_err().is_version_conflict());
    db.delete(&stored).await.unwrap();
    assert_eq!(balance(&db, "alice").await, None);
}

#[tokio::test]
async fn a_first_save_of_an_existing_key_is_a_conflict() {
    let db = bank().await;
    let err = db.save(&mut account("alice", 1)).await.unwrap_err();
    assert_eq!(versions(&err), Some((None, Some(1))));
}

#[tokio::test]
async fn a_stale_copy_in_a_transaction_cancels_it_with_a_version_conflict() {
    let db = bank().await;
    let mut alice = db.get::<Account>("alice").await.unwrap().unwrap();
    let mut bob = db.get::<Account>("bob").await.unwrap().unwrap();
    db.update::<Account>("bob")
        .add(Account::balance(), 1)
        .await
        .unwrap(); // someone else: bob is now at version 2

    alice.balance -= 10;
    bob.balance += 10;
    let err = db
        .transact()
        .save(&mut alice)
        .save(&mut bob)
        .await
        .unwrap_err();
    assert!(err.is_version_conflict());
    let reasons = err.cancellation_reasons();
    assert!(!reasons[0].is_version_conflict());
    assert!(reasons[1].is_version_conflict());
    let check = reasons[1].action.as_ref().unwrap().version.clone().unwrap();
    assert_eq!((check.expected, check.stored), (Some(1), Some(2)));
    assert_eq!(
        reasons[1].item_as::<Account>().unwrap().map(|b| b.balance),
        Some(1)
    );
    assert_eq!((alice.version, bob.version), (1, 1), "not bumped");
    assert_eq!(balance(&db, "alice").await, Some(100), "nothing written");

    // Re-read and redo: the transaction goes through and both copies are current.
    db.refresh(&mut alice).await.unwrap();
    db.refresh(&mut bob).await.unwrap();
    alice.balance -= 10;
    bob.balance += 10;
    db.transact().save(&mut alice).save(&mut bob).await.unwrap();
    assert_eq!((alice.version, bob.version), (2, 3));
    assert_eq!(db.get::<Account>("bob").await.unwrap(), Some(bob));
}

#[tokio::test]
async fn updates_bump_and_check_when_asked() {
    let db = bank().await;
    let alice = db.get::<Account>("alice").await.unwrap().unwrap();
    let after = db
        .update::<Account>("alice")
        .add(Account::balance(), 1)
        .returning_new()
        .await
        .unwrap();
    assert_eq!(after.version, 2);
    let stale = db
        .update::<Account>("alice")
        .set(Account::owner(), "x")
        .if_version(alice.version)
        .await
        .unwrap_err();
    assert_eq!(versions(&stale), Some((Some(1), Some(2))));
    db.update::<Account>("alice")
        .set(Account::owner(), "x")
        .if_version(after.version)
        .await
        .unwrap();
    // An upsert that creates an item starts its version at 1.
    let carol = db
        .update::<Account>("carol")
        .set(Account::owner(), "C")
        .set(Account::balance(), 0)
        .upsert()
        .returning_new()
        .await
        .unwrap();
    assert_eq!(carol.version, 1);
}

#[tokio::test]
async fn incr_and_sync_respect_the_version() {
    let db = bank().await;
    let mut alice = db.get::<Account>("alice").await.unwrap().unwrap();
    let snapshot = alice.clone();
    db.incr(&mut alice, Account::balance(), 5).await.unwrap();
    assert_eq!((alice.balance, alice.version), (105, 2));

    // `snapshot` was read before the increment: a sync from it must not go through.
    let edited = Account {
        owner: "Alice".into(),
        ..snapshot.clone()
    };
    let err = db.sync(&snapshot, &edited).await.unwrap_err();
    assert_eq!(versions(&err), Some((Some(1), Some(2))));
    // From the current copy it does, bumping the version and keeping the increment.
    let edited = Account {
        owner: "Alice".into(),
        ..alice.clone()
    };
    assert!(db.sync(&alice, &edited).await.unwrap());
    let stored = db.get::<Account>("alice").await.unwrap().unwrap();
    assert_eq!(
        (stored.owner.as_str(), stored.balance, stored.version),
        ("Alice", 105, 3)
    );
}

#[tokio::test]
async fn ignore_version_writes_without_checking() {
    let db = bank().await;
    let stale = account("alice", 7);
    db.put(&stale).ignore_version().await.unwrap();
    let stored = db.get::<Account>("alice").await.unwrap().unwrap();
    assert_eq!(
        (stored.balance, stored.version),
        (7, 0),
        "stored as it was in memory"
    );
}

#[tokio::test]
async fn concurrent_read_modify_save_loops_lose_no_update() {
    let db = bank().await;
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let db = db.clone();
            tokio::spawn(async move {
                let mut conflicts = 0;
                for _ in 0..25 {
                    loop {
                        let mut bob = db.get::<Account>("bob").consistent().await?.unwrap();
                        bob.balance += 1;
                        tokio::task::yield_now().await; // let the others interleave
                        match db.save(&mut bob).await {
                            Ok(()) => break,
                            Err(e) if e.is_version_conflict() => conflicts += 1,
                            Err(e) => return Err(e),
                        }
                    }
                }
                Ok::<usize, Error>(conflicts)
            })
        })
        .collect();
    let mut conflicts = 0;
    for task in tasks {
        conflicts += task.await.unwrap().unwrap();
    }
    let bob = db.get::<Account>("bob").await.unwrap().unwrap();
    assert_eq!(bob.balance, 200, "every increment counted once");
    assert_eq!(bob.version, 201);
    assert!(conflicts > 0, "the tasks did contend");
}

// The main paths once more, on the engine, on DynamoDB Local and on the engine's HTTP server.
dual_test!(on_every_backend, |t| {
    let db = t.namespaced_db();
    for table in [
        db.table_name::<Account>(),
        db.table_name::<Transfer>(),
        db.table_name::<Bank>(),
    ] {
        t.register_table(&table);
    }
    let db = open_bank(db).await;

    // A transfer, and one the balance does not cover: typed reasons, the old item.
    transfer(&db, "t1", "alice", "bob", 30).await.unwrap();
    let err = transfer(&db, "t2", "bob", "alice", 500).await.unwrap_err();
    let reasons = err.cancellation_reasons();
    let failed: Vec<bool> = reasons.iter().map(|r| !r.is_none()).collect();
    assert_eq!(failed, [true, false, false, false]);
    assert!(reasons[0].is_conditional_check_failed());
    let bob = reasons[0].item_as::<Account>().unwrap().unwrap();
    assert_eq!((bob.balance, bob.version), (30, 2));
    assert_eq!(reasons[0].action.as_ref().unwrap().model, "Account");

    // A stale copy in a transaction, then a fresh one.
    let mut alice = db
        .get::<Account>("alice")
        .consistent()
        .await
        .unwrap()
        .unwrap();
    let stale = alice.clone();
    alice.balance -= 1;
    db.transact().save(&mut alice).await.unwrap();
    let err = db.transact().put(&stale).await.unwrap_err();
    assert!(
        err.cancellation_reasons()[0].is_version_conflict(),
        "{err:?}"
    );
    let check = err.cancellation_reasons()[0]
        .action
        .as_ref()
        .unwrap()
        .version
        .clone()
        .unwrap();
    assert_eq!((check.expected, check.stored), (Some(2), Some(3)));

    // The same through the single-item builders.
    let err = db.put(&stale).await.unwrap_err();
    assert_eq!(versions(&err), Some((Some(2), Some(3))));
    assert_eq!(
        err.conditional_item::<Account>().unwrap(),
        Some(alice.clone())
    );

    // A replayed token, and a reused one. DynamoDB (Local) keeps tokens for 10 minutes, account-wide:
    // unique per run.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let token = format!("d-{}-{nanos}", std::process::id());
    let deposit = |amount: i64| {
        db.transact()
            .update::<Account>("bob", move |u| u.add(Account::balance(), amount))
            .client_request_token(token.clone())
    };
    deposit(5).await.unwrap();
    deposit(5).await.unwrap();
    assert_eq!(
        deposit(6).await.unwrap_err().code(),
        "IdempotentParameterMismatchException"
    );

    let mut read = db.transact_get();
    let (a, b, r) = (
        read.get::<Account>("alice"),
        read.get::<Account>("bob"),
        read.get::<Transfer>("t1"),
    );
    let reads = read.await.unwrap();
    assert_eq!(reads.get(a).unwrap(), Some(alice));
    assert_eq!(reads.get(b).unwrap().map(|b| b.balance), Some(35));
    assert_eq!(reads.get(r).unwrap().map(|r| r.amount), Some(30));
});
