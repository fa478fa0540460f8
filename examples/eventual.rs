//! Read-after-write on a global secondary index: a bug that passes on every emulator and fails on
//! DynamoDB, caught by the engine's eventual consistency on demand, and its fix.
//!
//! DynamoDB maintains a GSI asynchronously: a Query of the index right after a write may not see
//! it. The sign-up below writes an account, then looks it up by email on the `by-email` GSI to
//! greet it. On a strongly consistent engine (DynamoDB Local, every other emulator, and this one by
//! default) that always works; on DynamoDB it sometimes answers "no such account". An engine built
//! with [`MemBackendBuilder::eventual_consistency`](dynomodel_mem::MemBackendBuilder::eventual_consistency)
//! makes the GSI lag on its clock, so the test fails every time, until the code reads the account
//! by key with a strongly consistent read (or, where it really must use the index, waits for it).
//!
//! `cargo run -p dynomodel-examples --example eventual`; the scenarios run as tests with
//! `cargo test -p dynomodel-examples --example eventual`.

use std::time::Duration;

use dynomodel::{Db, Error, Model};
use dynomodel_mem::{EventualConsistency, ManualClock, MemBackend};

/// An account, found by email through a GSI.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "accounts")]
#[global_index(all("by-email", hash = email))]
pub struct Account {
    /// The account id.
    #[hash_key]
    pub id: String,
    /// Unique per account (the application's rule), the GSI's key.
    pub email: String,
    /// Shown in the greeting.
    pub name: String,
}

/// The greeting of `account`, or `None` when no account has its email.
fn greeting(account: Option<Account>) -> Option<String> {
    account.map(|a| format!("Welcome, {}!", a.name))
}

/// The bug: signs `account` up, then finds it again by email, on the GSI, right after the write.
pub async fn sign_up_buggy(db: &Db, account: &Account) -> Result<Option<String>, Error> {
    db.put(account).if_not_exists().await?;
    let found = db
        .query_index(Account::by_email(), account.email.as_str())
        .first()
        .await?;
    Ok(greeting(found))
}

/// The fix: the write's own key is known, so the account is read back from the table, with a
/// strongly consistent read (an eventually consistent one may miss a write just made, too).
pub async fn sign_up(db: &Db, account: &Account) -> Result<Option<String>, Error> {
    db.put(account).if_not_exists().await?;
    let found = db.get::<Account>(account.id.as_str()).consistent().await?;
    Ok(greeting(found))
}

/// An engine that behaves as DynamoDB's eventual consistency may: GSI writes arrive 500 ms after
/// the write, reads without `ConsistentRead` are stale for 100 ms, on a clock the test moves.
async fn eventually_consistent() -> Result<(Db, MemBackend, ManualClock), Error> {
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
    db.create_schema::<Account>().await?;
    Ok((db, backend, clock))
}

fn ada() -> Account {
    Account {
        id: "a1".into(),
        email: "ada@example.com".into(),
        name: "Ada".into(),
    }
}

// ---- The scenarios --------------------------------------------------------------------------

/// A strongly consistent engine hides the bug: the buggy sign-up passes.
pub async fn strong_engines_hide_the_bug() -> Result<Option<String>, Error> {
    let db = Db::new(MemBackend::new());
    db.create_schema::<Account>().await?;
    sign_up_buggy(&db, &ada()).await
}

/// With eventual consistency on demand, the buggy sign-up finds no account, every time.
pub async fn eventual_consistency_catches_it() -> Result<Option<String>, Error> {
    let (db, _, _) = eventually_consistent().await?;
    sign_up_buggy(&db, &ada()).await
}

/// The fix greets the account on the same engine.
pub async fn the_fix_passes() -> Result<Option<String>, Error> {
    let (db, _, _) = eventually_consistent().await?;
    sign_up(&db, &ada()).await
}

/// Where a test must read the GSI after a write, it waits for it as the application would on
/// DynamoDB: here by moving the clock past the delay, or with `settle()`.
pub async fn waiting_for_the_index() -> Result<(Option<String>, Option<String>), Error> {
    let (db, backend, clock) = eventually_consistent().await?;
    db.put(&ada()).await?;
    clock.advance(Duration::from_millis(500));
    let after_the_delay = db
        .query_index(Account::by_email(), "ada@example.com")
        .first()
        .await?;
    let bob = Account {
        id: "b1".into(),
        email: "bob@example.com".into(),
        name: "Bob".into(),
    };
    db.put(&bob).await?;
    backend.settle();
    let settled = db
        .query_index(Account::by_email(), "bob@example.com")
        .first()
        .await?;
    Ok((greeting(after_the_delay), greeting(settled)))
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    println!(
        "strongly consistent engine, buggy sign-up: {:?}",
        strong_engines_hide_the_bug().await?
    );
    println!(
        "eventually consistent engine, buggy sign-up: {:?}",
        eventual_consistency_catches_it().await?
    );
    println!(
        "eventually consistent engine, fixed sign-up: {:?}",
        the_fix_passes().await?
    );
    println!(
        "the GSI after its delay, and after settle(): {:?}",
        waiting_for_the_index().await?
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    const WELCOME: Option<&str> = Some("Welcome, Ada!");

    #[tokio::test]
    async fn strong_engines_hide_the_bug() {
        let greeted = super::strong_engines_hide_the_bug().await.expect("runs");
        assert_eq!(greeted.as_deref(), WELCOME, "the bug passes here");
    }

    #[tokio::test]
    async fn eventual_consistency_catches_it() {
        let greeted = super::eventual_consistency_catches_it()
            .await
            .expect("runs");
        assert_eq!(greeted, None, "the GSI does not have the account yet");
    }

    #[tokio::test]
    async fn the_fix_passes() {
        let greeted = super::the_fix_passes().await.expect("runs");
        assert_eq!(greeted.as_deref(), WELCOME);
    }

    #[tokio::test]
    async fn waiting_for_the_index() {
        let (after_the_delay, settled) = super::waiting_for_the_index().await.expect("runs");
        assert_eq!(after_the_delay.as_deref(), WELCOME);
        assert_eq!(settled.as_deref(), Some("Welcome, Bob!"));
    }
}
