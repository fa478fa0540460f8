//! Isolation by access key ([`ServerBuilder::isolate_by_access_key`](super::ServerBuilder::isolate_by_access_key),
//! `serve --isolate`): each distinct access key gets a database of its own, a fork of the served
//! engine (its seed) made on the key's first request, as DynamoDB Local keeps one database per
//! access key. Tests in any language isolate themselves by signing with a key of their own: no
//! table-name prefixes, no cleanup.
//!
//! The key is the `Credential=KEY/…` of the request's SigV4 `Authorization` header (whether or not
//! the server verifies signatures); a request without one is served by the database of the empty
//! key. The forks share the seed's clock and fault rules (the admin endpoints act on every
//! database), and are in memory only, whatever the seed's durability. At most `max` databases are
//! kept (the builder's argument): a request with a new key beyond that is refused with
//! `LimitExceededException`, never served by another key's database, and `DELETE
//! /_dynomodel/databases` drops them all (`admin.rs`). The periodic TTL sweeper of `serve` sweeps
//! the seed and every key's database (`sweeper.rs`), and `POST /_dynomodel/settle` settles them
//! all unless it names one key.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::fork::ForkOptions;
use crate::MemBackend;

/// The databases of a server that isolates its clients by access key.
#[derive(Debug)]
pub(crate) struct Isolation {
    /// What a new key's database starts as.
    seed: MemBackend,
    /// The databases by access key.
    /// (Behind an `Arc`: a request takes its database without an allocation.)
    databases: Mutex<HashMap<String, Arc<MemBackend>>>,
    /// The most databases kept at once.
    max: usize,
}

/// Why a request gets no database.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Full {
    /// The server's limit.
    pub(crate) max: usize,
}

impl Full {
    /// The message of the `LimitExceededException` a client receives.
    pub(crate) fn message(&self) -> String {
        format!(
            "this server isolates at most {} access keys, each with a database of its own, and \
             holds that many: a request with a new access key gets none (DELETE \
             /_dynomodel/databases drops them all, or start the server with a higher limit)",
            self.max
        )
    }
}

impl Isolation {
    /// Databases forked from `seed`, at most `max` of them.
    pub(crate) fn new(seed: MemBackend, max: usize) -> Isolation {
        Isolation {
            seed,
            databases: Mutex::new(HashMap::new()),
            max,
        }
    }

    /// The database of `key`, forked from the seed on its first use.
    pub(crate) fn database(&self, key: &str) -> Result<Arc<MemBackend>, Full> {
        let mut databases = self.lock();
        if let Some(database) = databases.get(key) {
            return Ok(Arc::clone(database));
        }
        if databases.len() >= self.max {
            return Err(Full { max: self.max });
        }
        let database = Arc::new(self.seed.fork_with(ForkOptions::new().share_faults()));
        databases.insert(key.to_owned(), Arc::clone(&database));
        Ok(database)
    }

    /// The database of the request with this `Authorization` header.
    pub(crate) fn database_for(
        &self,
        authorization: Option<&[u8]>,
    ) -> Result<Arc<MemBackend>, Full> {
        self.database(access_key(authorization).unwrap_or(""))
    }

    /// The access keys that have a database, in order.
    pub(crate) fn keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = self.lock().keys().cloned().collect();
        keys.sort();
        keys
    }

    /// Drops the database of `key` (`None`: every database); answers how many were dropped.
    pub(crate) fn drop_databases(&self, key: Option<&str>) -> usize {
        let mut databases = self.lock();
        match key {
            Some(key) => usize::from(databases.remove(key).is_some()),
            None => databases.drain().count(),
        }
    }

    /// Every key's database (what the TTL sweeper and `POST /_dynomodel/settle` go through).
    pub(crate) fn databases(&self) -> Vec<Arc<MemBackend>> {
        self.lock().values().cloned().collect()
    }

    /// The most databases kept.
    pub(crate) fn max(&self) -> usize {
        self.max
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<MemBackend>>> {
        self.databases
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// The access key of a SigV4 `Authorization` header (`Credential=KEY/DATE/REGION/SERVICE/…`):
/// 1 to 128 characters, as IAM's access key ids (letters and digits; anything else a client sends
/// is taken as it is, printable ASCII only).
pub(crate) fn access_key(authorization: Option<&[u8]>) -> Option<&str> {
    let header = std::str::from_utf8(authorization?).ok()?;
    let (_, credential) = header.trim_start().split_once("Credential=")?;
    let (key, _) = credential.split_once('/')?;
    let printable = key.bytes().all(|b| b.is_ascii_graphic());
    ((1..=128).contains(&key.len()) && printable).then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_access_key_is_the_credential_s_first_part() {
        let header =
            "AWS4-HMAC-SHA256 Credential=AKIDTEST1/20260101/us-east-1/dynamodb/aws4_request, \
                      SignedHeaders=host;x-amz-date, Signature=abc";
        assert_eq!(access_key(Some(header.as_bytes())), Some("AKIDTEST1"));
        for other in [
            "",
            "Bearer x",
            "AWS4-HMAC-SHA256 Credential=/20260101/us-east-1/dynamodb/aws4_request",
            "AWS4-HMAC-SHA256 Credential=AKID",
            "AWS4-HMAC-SHA256 Credential=A K/20260101/us-east-1/dynamodb/aws4_request",
        ] {
            assert_eq!(access_key(Some(other.as_bytes())), None, "{other}");
        }
        assert_eq!(access_key(None), None);
    }

    #[test]
    fn databases_are_per_key_and_bounded() {
        let isolation = Isolation::new(MemBackend::new(), 2);
        let a = isolation.database("a").expect("a");
        assert!(isolation.database("b").is_ok());
        assert_eq!(isolation.database("c").unwrap_err(), Full { max: 2 });
        // The same key, the same database.
        let again = isolation.database("a").expect("a again");
        assert!(Arc::ptr_eq(&a, &again));
        assert_eq!(isolation.keys(), ["a", "b"]);
        assert_eq!(isolation.drop_databases(Some("a")), 1);
        assert!(isolation.database("c").is_ok());
        assert_eq!(isolation.drop_databases(None), 2);
    }
}
