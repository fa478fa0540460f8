//! Whether the keyed hashes of a large set's elements are all distinct, in linear time.
//!
//! Past the hash table's range (`super::HASH_TABLE_UP_TO`: its random accesses leave the caches)
//! the hashes were sorted, n log n (two thirds of the check's cost at 262,144 elements). They are
//! uniform (keyed with random keys, `storage::request_hash`), so one counting pass by their top
//! bits spreads them over buckets of a few dozen each, written in sequence into one buffer; each
//! bucket is then sorted in the first cache, and equal hashes are neighbours in their bucket.
//! (docs/performance.md, "Request size scaling", has the measurements against the sort, a radix
//! sort and the table.)

/// Buckets of about this many hashes (a power of two) on average: small enough to sort in the
/// first cache, few enough that the counts stay in it too.
const PER_BUCKET_BITS: u32 = 6;

/// At most this many bits of a hash choose its bucket (65,536 counts, 256 KB).
const MAX_BUCKET_BITS: u32 = 16;

/// Whether the hashes are all distinct. Equal hashes (equal elements, or a collision of 64 random
/// bits) are the caller's to settle by the elements.
pub(crate) fn all_distinct(hashes: &[u64]) -> bool {
    let Some(bits) = (usize::BITS - hashes.len().leading_zeros())
        .checked_sub(PER_BUCKET_BITS)
        .filter(|&bits| bits > 0)
    else {
        return distinct_sorted(&mut hashes.to_vec());
    };
    let bits = bits.min(MAX_BUCKET_BITS);
    let shift = u64::BITS - bits;
    let bucket = |hash: u64| (hash >> shift) as usize;
    // Each bucket's end, then (as the hashes are placed) its start.
    let mut ends = vec![0usize; 1 << bits];
    for &hash in hashes {
        ends[bucket(hash)] += 1;
    }
    let mut sum = 0;
    for end in &mut ends {
        sum += *end;
        *end = sum;
    }
    let mut placed = vec![0u64; hashes.len()];
    let mut next = ends.clone();
    for &hash in hashes.iter().rev() {
        let at = &mut next[bucket(hash)];
        *at -= 1;
        placed[*at] = hash;
    }
    let mut start = 0;
    ends.iter().all(|&end| {
        let distinct = distinct_sorted(&mut placed[start..end]);
        start = end;
        distinct
    })
}

/// Whether `hashes` are all distinct, sorting them.
fn distinct_sorted(hashes: &mut [u64]) -> bool {
    hashes.sort_unstable();
    hashes.windows(2).all(|w| w[0] != w[1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::request_hash::RequestState;

    /// What a sort of all of them says.
    fn sorted_answer(hashes: &[u64]) -> bool {
        distinct_sorted(&mut hashes.to_vec())
    }

    #[test]
    fn distinct_hashes_of_every_count_are_found_distinct() {
        let state = RequestState::new();
        for n in [0, 1, 2, 63, 64, 65, 127, 128, 1_000, 65_537, 300_000] {
            let hashes: Vec<u64> = (0..n).map(|i: u64| state.hash_one(i)).collect();
            assert!(all_distinct(&hashes), "{n}");
        }
    }

    /// A hash repeated at the start, the middle and the end; in the first and the last bucket; and
    /// hashes crowded into one bucket (not uniform: still exact).
    #[test]
    fn a_repeated_hash_is_found_wherever_it_is() {
        let state = RequestState::new();
        for n in [3usize, 100, 65_537, 200_000] {
            let hashes: Vec<u64> = (0..n as u64).map(|i| state.hash_one(i)).collect();
            for (from, to) in [
                (0, 1),
                (0, n / 2),
                (n / 2, n - 1),
                (0, n - 1),
                (n - 2, n - 1),
            ] {
                let mut with = hashes.clone();
                with[to] = with[from];
                assert!(!all_distinct(&with), "{n}: {from} at {to}");
            }
            let mut edges = hashes.clone();
            edges[0] = 0;
            edges[n - 1] = u64::MAX;
            assert_eq!(all_distinct(&edges), sorted_answer(&edges));
            edges[1] = u64::MAX;
            assert!(!all_distinct(&edges), "{n}: the last bucket");
            edges[1] = 0;
            assert!(!all_distinct(&edges), "{n}: the first bucket");
        }
        let crowded: Vec<u64> = (0..100_000u64).map(|i| i * 3).collect();
        assert!(all_distinct(&crowded));
        let mut crowded_twice = crowded.clone();
        crowded_twice.push(150_000);
        assert!(!all_distinct(&crowded_twice));
    }
}
