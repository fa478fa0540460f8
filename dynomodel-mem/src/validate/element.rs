//! Set elements as hash-table keys, hashed in one write.
//!
//! A `str`'s `Hash` writes its bytes and then a `0xFF` terminator, a `Vec<u8>`'s its length and
//! then its bytes: two writes into the standard hasher, each a call that buffers its bytes. Every
//! write of a set hashes its elements (the duplicate check of each set, then an ADD's union and a
//! DELETE's difference), and that second write was a sixth of an ADD of 16,384 strings. One table
//! holds elements of one kind, and the tables' hasher (aHash, `storage::request_hash`; SipHash before
//! it) mixes each write's length in, so the bytes alone, written once, key an element: equal elements
//! hash alike, and the hasher's random keys still keep a client from choosing elements that collide.

use std::hash::{Hash, Hasher};

use dynomodel::{attribute_size, AttributeValue, Number};

/// An element of a string, number or binary set.
pub(crate) trait SetElement: Eq {
    /// Feeds the element to `state` (equal elements feed alike).
    fn hash_once<H: Hasher>(&self, state: &mut H);

    /// The element's bytes by DynamoDB's size rule (a set's size is the sum of its elements').
    fn size(&self) -> usize;
}

// Inline, as the one write they are: left to the compiler, a change elsewhere in the crate moved
// `String`'s out of line into a call per element (a set DELETE of 16,384 strings +1.7 %).
impl SetElement for String {
    #[inline]
    fn hash_once<H: Hasher>(&self, state: &mut H) {
        state.write(self.as_bytes());
    }

    #[inline]
    fn size(&self) -> usize {
        self.len()
    }
}

impl SetElement for Vec<u8> {
    #[inline]
    fn hash_once<H: Hasher>(&self, state: &mut H) {
        state.write(self);
    }

    #[inline]
    fn size(&self) -> usize {
        self.len()
    }
}

impl SetElement for Number {
    /// A number is normalised: its `Hash` is the numeric one (`1` and `1.0` alike).
    fn hash_once<H: Hasher>(&self, state: &mut H) {
        self.hash(state);
    }

    /// The one size function's (a `Number` is a copy, not an allocation).
    fn size(&self) -> usize {
        attribute_size(&AttributeValue::N(*self))
    }
}

/// A set element borrowed as a hash-table key, hashed by [`SetElement::hash_once`].
#[derive(PartialEq, Eq)]
pub(crate) struct Keyed<'a, T>(pub(crate) &'a T);

impl<T: SetElement> Hash for Keyed<'_, T> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash_once(state);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use crate::storage::request_hash::{RequestSet, RequestState};

    use super::*;

    #[test]
    fn equal_elements_hash_alike_and_distinct_ones_stay_apart() {
        let state = RequestState::new();
        let strings = ["", "a", "a\u{0}", "ab", "é"].map(String::from);
        let hashes: HashSet<u64> = strings.iter().map(|s| state.hash_one(Keyed(s))).collect();
        assert_eq!(hashes.len(), strings.len());
        let copy = String::from("ab");
        assert_eq!(
            state.hash_one(Keyed(&copy)),
            state.hash_one(Keyed(&strings[3]))
        );
        let binaries = [vec![], vec![0u8], vec![0, 0], vec![1]];
        let set: RequestSet<Keyed<'_, Vec<u8>>> = binaries.iter().map(Keyed).collect();
        assert_eq!(set.len(), binaries.len());
        assert!(set.contains(&Keyed(&vec![0, 0])));
        let (one, one_point_zero): (Number, Number) =
            ("1".parse().unwrap(), "1.0".parse().unwrap());
        assert_eq!(
            state.hash_one(Keyed(&one)),
            state.hash_one(Keyed(&one_point_zero))
        );
    }
}
