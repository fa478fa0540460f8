//! The order in which DynamoDB lists a *set* of names in its messages.
//!
//! DynamoDB is a Java service: messages such as "Global secondary index g does not project [é, list]" or
//! "unused in expressions: keys: {#a, #b}" print a `java.util.HashSet<String>`, whose iteration order is
//! neither sorted nor insertion order but bucket order. Measured on DynamoDB Local: `[é, list]` (buckets
//! 9 and 12 of 16) and `[a, data]` (buckets 1 and 4). Names that share a bucket print in insertion
//! order, which depends on how the service received the request's maps (a client may serialise them in
//! any order), so only the bucket order is reproducible. Reproducing it keeps most messages
//! byte-for-byte equal instead of merely equivalent.

use super::request_hash;

/// Java's `String.hashCode`: over UTF-16 code units, `h = 31 * h + c`, wrapping.
fn java_string_hash(s: &str) -> u32 {
    let step = |h: u32, unit: u32| h.wrapping_mul(31).wrapping_add(unit);
    // An ASCII byte is its own code unit: no UTF-16 encoding for the usual placeholder (a fifth of
    // the ordering of a request's hundreds of thousands of unused ones), and no separate pass to
    // tell that the name is ASCII.
    let mut h = 0;
    for &b in s.as_bytes() {
        if !b.is_ascii() {
            return s.encode_utf16().fold(0, |h, unit| step(h, u32::from(unit)));
        }
        h = step(h, u32::from(b));
    }
    h
}

/// The iteration order of a `java.util.HashSet<String>` into which `names` were inserted in order
/// (duplicates ignored): default capacity 16, load factor 0.75, doubling on resize. Java 8's resize keeps
/// the relative order of the entries of a bucket, so the final order is by bucket, then by insertion.
/// (Buckets turn into trees only past 8 collisions in a table of 64+, far beyond these messages.)
///
/// Linear in the names: a request can list hundreds of thousands of unused placeholders, and removing
/// duplicates by scanning the names kept so far made one such request take minutes.
pub(crate) fn java_hash_set_order<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let names: Vec<&str> = names.into_iter().collect();
    let mut seen = request_hash::set_with_capacity(names.len());
    let unique = names.into_iter().filter(|n| seen.insert(*n)).collect();
    in_bucket_order(unique)
}

/// [`java_hash_set_order`] of names known to be distinct (a map's keys), without the set that
/// removes duplicates (which was half the cost of ordering many names).
pub(crate) fn java_hash_set_order_of_distinct<'a>(
    names: impl IntoIterator<Item = &'a str>,
) -> Vec<&'a str> {
    in_bucket_order(names.into_iter().collect())
}

/// `unique` in bucket order, insertion order within a bucket.
fn in_bucket_order(unique: Vec<&str>) -> Vec<&str> {
    // Every request checks its placeholders: none or one is the rule, and needs no table.
    if unique.len() < 2 {
        return unique;
    }
    bucketed(unique).0
}

/// The order of a `java.util.HashSet<String>` into which the distinct names of `names` were
/// inserted in sorted order (a map's keys, as the engine walks them), from names in any order with
/// duplicates: only the few names of each bucket are sorted, not all of them (a sort of hundreds of
/// thousands of unused placeholders was a sixth of such a request).
// The one-pass decoder's (`protocol`), and this module's tests.
#[cfg_attr(not(feature = "protocol"), allow(dead_code))]
pub(crate) fn java_hash_set_order_of_sorted(names: Vec<&str>) -> Vec<&str> {
    if names.len() < 2 {
        return names;
    }
    let sent = names.len();
    let (mut ordered, ends) = bucketed(names);
    let mut distinct = Vec::with_capacity(sent);
    let mut start = 0;
    for end in ends {
        // Most buckets hold one name or none (the table has more buckets than names): neither
        // sorted nor compared (names of different buckets differ), which was half the ordering.
        match &mut ordered[start..end] {
            [] => {}
            [name] => distinct.push(*name),
            bucket => {
                bucket.sort_unstable();
                distinct.push(bucket[0]);
                for pair in bucket.windows(2) {
                    if pair[0] != pair[1] {
                        distinct.push(pair[1]);
                    }
                }
            }
        }
        start = end;
    }
    // Fewer distinct names may make a smaller table, with other buckets.
    if capacity(distinct.len()) != capacity(sent) {
        return java_hash_set_order_of_sorted(distinct);
    }
    distinct
}

/// The table's number of buckets once `len` names are in it.
fn capacity(len: usize) -> usize {
    let mut capacity = 16usize;
    while len * 4 > capacity * 3 {
        capacity *= 2;
    }
    capacity
}

/// `names` in bucket order, in their order within a bucket, and where each bucket ends in it.
fn bucketed(names: Vec<&str>) -> (Vec<&str>, Vec<usize>) {
    let capacity = capacity(names.len());
    let bucket = |name: &str| {
        let h = java_string_hash(name);
        ((h ^ (h >> 16)) as usize) & (capacity - 1)
    };
    // A counting sort by bucket: stable, and linear (the table has fewer than 3 buckets a name).
    let buckets: Vec<usize> = names.iter().map(|name| bucket(name)).collect();
    let mut next = vec![0usize; capacity];
    for &b in &buckets {
        next[b] += 1;
    }
    let mut start = 0;
    for slot in &mut next {
        let count = *slot;
        *slot = start;
        start += count;
    }
    let mut ordered = vec![""; names.len()];
    for (name, b) in names.into_iter().zip(buckets) {
        ordered[next[b]] = name;
        next[b] += 1;
    }
    (ordered, next)
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
        // Past the BMP: two code units ("😀".hashCode() == 1772899).
        assert_eq!(java_string_hash("😀"), 1_772_899);
        assert_eq!(java_string_hash("a😀é") as i32, 57_849_829);
    }

    #[test]
    fn order_is_bucket_order() {
        // Measured on DynamoDB Local: "does not project [é, list]" for a request naming list, then é,
        // and "does not project [a, data]" for a projection naming data, then a.
        assert_eq!(java_hash_set_order(["list", "é"]), ["é", "list"]);
        assert_eq!(java_hash_set_order(["data", "a"]), ["a", "data"]);
        assert_eq!(java_hash_set_order(["b", "a", "b"]), ["a", "b"]);
        assert_eq!(
            java_hash_set_order_of_distinct(["list", "é"]),
            ["é", "list"]
        );
    }

    #[test]
    fn sorted_insertion_order_from_any_order() {
        // "Aa" and "BB" share a hash: inserted sorted, "Aa" comes first, whatever order they came.
        let names: Vec<String> = (0..300).map(|i| format!("#n{i}")).collect();
        let mut sent: Vec<&str> = names.iter().map(String::as_str).collect();
        sent.extend(["BB", "Aa", "#n7", "BB"]);
        sent.reverse();
        let mut sorted = sent.clone();
        sorted.sort_unstable();
        sorted.dedup();
        let expected = java_hash_set_order_of_distinct(sorted.iter().copied());
        assert_eq!(java_hash_set_order_of_sorted(sent.clone()), expected);
        let at = |name: &str| expected.iter().position(|n| *n == name);
        assert!(at("Aa") < at("BB"));
        // Duplicates enough to make a smaller table than the names sent would.
        let mut doubled: Vec<&str> = names[..12].iter().map(String::as_str).collect();
        doubled.extend(doubled.clone());
        let mut distinct = doubled.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(
            java_hash_set_order_of_sorted(doubled),
            java_hash_set_order_of_distinct(distinct.iter().copied())
        );
        assert_eq!(java_hash_set_order_of_sorted(vec!["#a"]), ["#a"]);
        assert!(java_hash_set_order_of_sorted(Vec::new()).is_empty());
    }

    #[test]
    fn names_of_one_bucket_keep_their_order_past_resizes() {
        // "Aa" and "BB" share a hash; 40 names make the table grow twice (to 64 buckets).
        let mut names: Vec<String> = (0..38).map(|i| format!("n{i}")).collect();
        names.insert(5, "BB".into());
        names.insert(20, "Aa".into());
        let ordered = java_hash_set_order_of_distinct(names.iter().map(String::as_str));
        let at = |name: &str| ordered.iter().position(|n| *n == name);
        assert!(at("BB") < at("Aa"));
        assert_eq!(ordered.len(), names.len());
        let bucket = |name: &str| {
            let h = java_string_hash(name);
            (h ^ (h >> 16)) & 63
        };
        assert!(ordered.windows(2).all(|w| bucket(w[0]) <= bucket(w[1])));
    }
}
