//! A bank on the in-memory engine: accounts with a `#[version]` field, transfers as transactions
//! with balance conditions, a transfer that loses a race on a version conflict and is retried, a
//! failed transfer and its typed cancellation reasons, an idempotent deposit, and balances read
//! with `transact_get`. Needs no service: `cargo run -p dynomodel-examples --example bank`.
//!
//! To run the same code against Amazon DynamoDB (or DynamoDB Local), build `dynomodel` with the `aws`
//! feature and replace `dynomodel_mem::memory()` by `Db::from_env().await?`.

use std::future::Future;
use std::pin::Pin;

use dynomodel::{Db, Error, Model};

/// An account. `version` counts its writes: a copy read before someone else's write cannot be saved.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "accounts")]
pub struct Account {
    /// The account number.
    #[hash_key]
    pub id: String,
    /// Who holds it.
    pub owner: String,
    /// In cents; never negative (the transfers' conditions see to it).
    pub balance: i64,
    /// The optimistic-locking version: 0 until the account is first saved.
    #[version]
    pub version: u64,
}

/// The record of a transfer, written in the same transaction as the two balances.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "transfers")]
pub struct Transfer {
    /// Unique per transfer: a second transfer with the same id is refused.
    #[hash_key]
    pub id: String,
    /// The account debited.
    pub from: String,
    /// The account credited.
    pub to: String,
    /// In cents.
    pub amount: i64,
}

/// How many times a read-modify-save transfer is attempted before giving up.
const ATTEMPTS: u32 = 10;

/// Moves `amount` by conditional updates, with no read: the debit happens only if the balance
/// covers it, the credit only to an existing account, and the record only once.
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
        .await
}

/// Writes that happen while a clerk works, to show a race deterministically.
type Race<'a> = Pin<Box<dyn Future<Output = dynomodel::Result<()>> + 'a>>;

/// Moves `amount` by reading both accounts (one snapshot), changing them in memory and saving both
/// in a transaction that checks their versions. Someone else's write in between cancels it with a
/// version conflict: read again and redo, up to [`ATTEMPTS`] times. `meanwhile` runs between the
/// first read and the first save, to show a race deterministically. Returns the conflicts met, one
/// line per stale account.
async fn transfer_by_saving(
    db: &Db,
    from: &str,
    to: &str,
    amount: i64,
    mut meanwhile: Option<Race<'_>>,
) -> dynomodel::Result<Vec<String>> {
    let mut conflicts = Vec::new();
    for attempt in 1..=ATTEMPTS {
        let mut read = db.transact_get();
        let (debit, credit) = (read.get::<Account>(from), read.get::<Account>(to));
        let reads = read.await?;
        let (Some(mut debit), Some(mut credit)) = (reads.get(debit)?, reads.get(credit)?) else {
            return Err(Error::validation(format!("no account {from} or {to}")));
        };
        if debit.balance < amount {
            return Err(Error::validation(format!("{from} cannot pay {amount}")));
        }
        debit.balance -= amount;
        credit.balance += amount;
        // A real clerk (or the network) takes a while here: let the others run.
        tokio::task::yield_now().await;
        if let Some(race) = meanwhile.take() {
            race.await?;
        }
        // Both versions are checked: if either account changed since the read, nothing is written.
        match db.transact().save(&mut debit).save(&mut credit).await {
            Ok(()) => return Ok(conflicts),
            Err(e) if e.is_version_conflict() => {
                let stale = e
                    .cancellation_reasons()
                    .iter()
                    .filter(|r| r.is_version_conflict());
                for action in stale.filter_map(|r| r.action.as_ref()) {
                    let Some(check) = &action.version else {
                        continue;
                    };
                    let shown = |v: Option<u64>| v.map_or("none".to_owned(), |v| v.to_string());
                    conflicts.push(format!(
                        "attempt {attempt}: {action}: expected version {}, stored {}",
                        shown(check.expected),
                        shown(check.stored)
                    ));
                }
            }
            Err(e) => return Err(e),
        }
    }
    Err(Error::validation(format!(
        "gave up after {ATTEMPTS} version conflicts"
    )))
}

/// The balances of `ids`, read as one consistent snapshot.
async fn balances(db: &Db, ids: &[&str]) -> dynomodel::Result<Vec<(String, i64)>> {
    let mut read = db.transact_get();
    let slots: Vec<_> = ids.iter().map(|id| read.get::<Account>(*id)).collect();
    let reads = read.await?;
    slots
        .into_iter()
        .zip(ids)
        .map(|(slot, id)| Ok((id.to_string(), reads.get(slot)?.map_or(0, |a| a.balance))))
        .collect()
}

/// The error of an operation that should have been refused.
fn refused(result: dynomodel::Result<()>, what: &str) -> Result<Error, String> {
    match result {
        Err(error) => Ok(error),
        Ok(()) => Err(format!("{what} should have been refused")),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let db = dynomodel_mem::memory();
    db.create_schema::<Account>().await?;
    db.create_schema::<Transfer>().await?;
    let ids = ["alice", "bob", "carol"];

    // Opening an account is a first save: create-only, version 1.
    for (id, deposit) in ids.iter().zip([1_000, 500, 0]) {
        let mut account = Account {
            id: id.to_string(),
            owner: id.to_uppercase(),
            balance: deposit,
            version: 0,
        };
        db.save(&mut account).await?;
        println!("opened {id} with {deposit} (version {})", account.version);
    }
    let mut again = Account {
        id: "alice".into(),
        owner: "MALLORY".into(),
        balance: 1_000_000,
        version: 0,
    };
    let err = refused(db.save(&mut again).await, "opening alice twice")?;
    println!("opening alice again: {err}");

    // A transfer as a transaction with balance conditions.
    transfer(&db, "t1", "alice", "bob", 300).await?;
    println!("t1: alice -> bob 300: done");

    // A transfer the balance does not cover: every action's reason, typed.
    let err = refused(transfer(&db, "t2", "carol", "alice", 100).await, "t2")?;
    println!("t2: carol -> alice 100: {}", err.code());
    for reason in err.cancellation_reasons() {
        let action = reason.action.as_ref().map(ToString::to_string);
        println!("    {}: {}", action.unwrap_or_default(), reason.code);
        if let Some(carol) = reason.item_as::<Account>()? {
            println!("        as stored: {} has {}", carol.id, carol.balance);
        }
    }
    // The same record twice: the put's create-only condition cancels it.
    let err = refused(transfer(&db, "t1", "bob", "alice", 1).await, "t1 twice")?;
    let failed: Vec<String> = err
        .cancellation_reasons()
        .iter()
        .filter(|r| !r.is_none())
        .filter_map(|r| r.action.as_ref().map(ToString::to_string))
        .collect();
    println!("t1 again: refused by {}", failed.join(", "));

    // A race: a clerk reads alice and bob, then other writes land before the clerk saves. The
    // clerk's transaction is canceled on their versions; it reads again and retries.
    let other = db.clone();
    let race = Box::pin(async move {
        transfer(&other, "t3", "bob", "carol", 50).await?;
        if let Some(mut alice) = other.get::<Account>("alice").await? {
            alice.owner = "Alice Liddell".into();
            other.save(&mut alice).await?;
        }
        println!("    meanwhile: t3 bob -> carol 50, and alice renamed");
        Ok(())
    });
    let conflicts = transfer_by_saving(&db, "alice", "bob", 200, Some(race)).await?;
    for conflict in &conflicts {
        println!("    version conflict, {conflict}");
    }
    println!(
        "clerk: alice -> bob 200 done, after {} conflicts",
        conflicts.len()
    );

    // Several clerks at once, each retrying on conflicts: no transfer lost, none doubled.
    let clerks = (0..6).map(|i| {
        let from = if i % 2 == 0 { "alice" } else { "bob" };
        let db = db.clone();
        async move { transfer_by_saving(&db, from, "carol", 10, None).await }
    });
    let conflicts: Vec<usize> = futures::future::try_join_all(clerks)
        .await?
        .iter()
        .map(Vec::len)
        .collect();
    println!("6 concurrent clerks -> carol 10 each: conflicts met per clerk {conflicts:?}");

    // An idempotent deposit: the client retries after a lost answer; the token makes it count once.
    let deposit = |amount: i64| {
        db.transact()
            .update::<Account>("carol", move |u| u.add(Account::balance(), amount))
            .client_request_token("deposit-carol-1")
    };
    deposit(1).await?;
    deposit(1).await?;
    let err = refused(deposit(2).await, "a reused token")?;
    println!(
        "deposit replayed: counted once; reused for another amount: {}",
        err.code()
    );

    let balances = balances(&db, &ids).await?;
    let total: i64 = balances.iter().map(|(_, balance)| balance).sum();
    println!("balances: {balances:?}, total {total}");
    if total != 1_500 + 1 {
        return Err(format!("money was created or lost: {total}").into());
    }
    Ok(())
}
