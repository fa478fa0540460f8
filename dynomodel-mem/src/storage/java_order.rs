//! The order in which DynamoDB lists a *set* of names in its messages.
//!
//! DynamoDB is a Java service: messages such as "Global secondary index g does not project [é, list]" or
//! "unused in expressions: keys: {#a, #b}" print a `java.util.HashSet<String>`, whose iteration order is
//! neither sorted nor insertion order but bucket order. Measured on DynamoDB Local: `[é, list]` (buckets
//! 9 and 12 of 16) and `[a, data]` (buckets 1 and 4). Names that share a bucket print in insertion
//! order, which depends on how the service received the request's maps (a client may serialise them in
//! any order), so only the bucket order is reproducible. Reproducing it keeps most messages
//! byte-for-byte equal instead of merely equivalent.

use std::collections::HashSet;

/// Java's `String.hashCode`: over UTF-16 code units, `h = 31 * h + c`, wrapping.
fn java_string_hash(s: &str) -> u32 {
    s.encode_utf16().fold(0u32, |h, unit| {
        h.wrapping_mul(31).wrapping_add(u32::from(unit))
    })
}

/// The iteration order of a `java.util.HashSet<String>` into which `names` were inserted in order
/// (duplicates ignored): default capacity 16, load factor 0.75, doubling on resize. Java 8's resize keeps
/// the relative order of the entries of a bucket, so the final order is by bucket, then by insertion.
/// (Buckets turn into trees only past 8 collisions in a table of 64+, far beyond these messages.)
///
/// Linear in the names plus a sort: a request can list hundreds of thousands of unused placeholders,
/// and removing duplicates by scanning the names kept so far made one such request take minutes.
pub(crate) fn java_hash_set_order<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut seen = HashSet::new();
    let mut unique: Vec<&str> = names.into_iter().filter(|n| seen.insert(*n)).collect();
    let mut capacity = 16usize;
    while unique.len() * 4 > capacity * 3 {
        capacity *= 2;
    }
    let bucket = |name: &str| {
        let h = java_string_hash(name);
        ((h ^ (h >> 16)) as usize) & (capacity - 1)
    };
    // A stable sort keeps insertion order within a bucket; each name is hashed once.
    unique.sort_by_cached_key(|name| bucket(name));
    unique
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn string_hash_matches_java() {
        // Values from Java's "…".hashCode().
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("a"), 97);
        assert_eq!(java_string_hash("list") as i32, 3_322_014);
        assert_eq!(java_string_hash("é"), 233);
        assert_eq!(java_string_hash("hello") as i32, 99_162_322);
        // Wrapping past i32: "polygenelubricants".hashCode() == Integer.MIN_VALUE.
        assert_eq!(java_string_hash("polygenelubricants") as i32, i32::MIN);
    }

    #[test]
    fn order_is_bucket_order() {
        // Measured on DynamoDB Local: "does not project [é, list]" for a request naming list, then é,
        // and "does not project [a, data]" for a projection naming data, then a.
        assert_eq!(java_hash_set_order(["list", "é"]), ["é", "list"]);
        assert_eq!(java_hash_set_order(["data", "a"]), ["a", "data"]);
        assert_eq!(java_hash_set_order(["b", "a", "b"]), ["a", "b"]);
    }
}
