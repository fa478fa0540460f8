//! Hash tables of what a request sends: names and set elements checked for duplicates or looked up,
//! one table per request, sized by the request.
//!
//! A client chooses every key of these tables, so the hash is keyed with random keys, or a client could
//! send names that all collide and make one request quadratic. The standard library's SipHash is
//! keyed but was a quarter of an `AttributesToGet` of 64,000 names and a sixth of a set ADD
//! (docs/performance.md, "Request size scaling"). aHash is keyed too (random keys per process from the
//! operating system, mixed with a counter per table) and states the same aim: its hashes "cannot be
//! predicted without knowing the keys", which prevents a client from sending colliding keys. (foldhash,
//! as fast, calls itself only "minimally DoS-resistant" and advises against it where someone may study
//! a long-running program's behaviour to recover its seed: a server's case.)

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// The hasher of a request's tables: aHash with random keys.
pub(crate) type RequestState = ahash::RandomState;

/// A set of keys a request chose.
pub(crate) type RequestSet<T> = HashSet<T, RequestState>;

/// A map from keys a request chose.
pub(crate) type RequestMap<K, V> = HashMap<K, V, RequestState>;

/// An empty [`RequestSet`] with room for `capacity` keys, with fresh random keys.
pub(crate) fn set_with_capacity<T>(capacity: usize) -> RequestSet<T> {
    HashSet::with_capacity_and_hasher(capacity, RequestState::new())
}

/// An empty [`RequestMap`] with room for `capacity` keys, with fresh random keys.
pub(crate) fn map_with_capacity<K, V>(capacity: usize) -> RequestMap<K, V> {
    HashMap::with_capacity_and_hasher(capacity, RequestState::new())
}

/// A set of hashes a [`RequestState`] made, taken as they are (they are keyed and mixed already):
/// a table of `u64`s is cheaper to probe than one of the strings they stand for.
pub(crate) type HashesSeen = HashSet<u64, BuildHasherDefault<Taken>>;

/// An empty [`HashesSeen`] with room for `capacity` hashes.
pub(crate) fn hashes_with_capacity(capacity: usize) -> HashesSeen {
    HashSet::with_capacity_and_hasher(capacity, BuildHasherDefault::default())
}

/// The hasher of [`HashesSeen`]: a `u64` that is a hash already is its own hash.
#[derive(Default)]
pub(crate) struct Taken(u64);

impl Hasher for Taken {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 << 8) | u64::from(byte);
        }
    }

    fn write_u64(&mut self, hash: u64) {
        self.0 = hash;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// `2^blocks` distinct names of `2 * blocks` characters that all share one Java `String.hashCode`
/// (each block is `Aa` or `BB`, which hash alike): keys that a fixed-key hash of that shape sends to
/// one bucket, for tests that a request of such names is still answered as any other.
#[cfg(test)]
pub(crate) fn colliding_names(blocks: u32) -> Vec<String> {
    (0..1usize << blocks)
        .map(|i| {
            (0..blocks)
                .map(|b| if i >> b & 1 == 0 { "Aa" } else { "BB" })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_keyed_apart() {
        // Two tables hash alike only by chance (2^-64 per key): each gets its own keys.
        let (a, b) = (RequestState::new(), RequestState::new());
        let differ = (0..8).any(|i| a.hash_one(format!("n{i}")) != b.hash_one(format!("n{i}")));
        assert!(differ);
        let mut set = set_with_capacity(2);
        assert!(set.insert("a"));
        assert!(!set.insert("a"));
        let mut map = map_with_capacity(1);
        map.insert("k", 1);
        assert_eq!(map.get("k"), Some(&1));
        let mut hashes = hashes_with_capacity(2);
        assert!(hashes.insert(a.hash_one("a")));
        assert!(hashes.insert(a.hash_one("b")));
        assert!(!hashes.insert(a.hash_one("a")));
        let mut taken = Taken::default();
        taken.write_u64(7);
        assert_eq!(taken.finish(), 7);
    }

    #[test]
    fn colliding_names_are_distinct_and_share_a_java_hash() {
        let names = colliding_names(10);
        let distinct: RequestSet<&str> = names.iter().map(String::as_str).collect();
        assert_eq!(distinct.len(), 1024);
        // Java's `String.hashCode` of ASCII: h = 31 * h + c.
        let java = |s: &str| {
            s.bytes()
                .fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(b.into()))
        };
        assert!(names.iter().all(|n| java(n) == java(&names[0])));
    }
}
