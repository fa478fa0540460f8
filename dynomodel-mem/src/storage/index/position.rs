//! Key values as byte strings whose byte order is DynamoDB's order of the values, and which are
//! prefix-free, so that the concatenation of several of them (an index position: partition hash,
//! index keys, table key) orders as the tuple of the values does.
//!
//! - S and B: the bytes, with each 0x00 escaped as `00 FF`, then the terminator `00 00`. Unescaped,
//!   "a" would be a prefix of "ab"; with the terminator, "a" < "a\0" < "a\x01" < "ab" still holds,
//!   because the terminator's `00 00` sorts below an escaped `00 FF` and below every other byte.
//! - N: a class byte (negative `01`, zero `02`, positive `03`); for a non-zero number then the
//!   exponent of its leading digit plus 130 in one byte (DynamoDB's magnitudes run from 1E-130 to
//!   below 1E126, exactly 256 exponents), then its significant digits two to a byte (`10 × d1 + d2 +
//!   1`, a trailing odd digit paired with a 0, which does not change the value), then the terminator
//!   `00`. A negative number has every byte after the class complemented, which reverses the order
//!   of magnitudes as the value's order requires. Two numbers with the same leading exponent compare
//!   by their digits left-aligned, where a shorter run of digits ends in the terminator, below any
//!   digit pair: 1.2 < 1.25.
//!
//! The order tests below hold these against `KeyValue`'s own `Ord` (which is `Number`'s for N).

use dynomodel::Number;

use crate::storage::key::KeyRef;

/// The class byte of a negative number.
const NEGATIVE: u8 = 0x01;
/// The encoding of zero (the whole of it).
const ZERO: u8 = 0x02;
/// The class byte of a positive number.
const POSITIVE: u8 = 0x03;
/// Added to a leading-digit exponent (-130..=125) to give a byte.
const EXPONENT_BIAS: i32 = 130;

/// Appends the encoding of `key`.
pub(super) fn push_key(out: &mut Vec<u8>, key: KeyRef<'_>) {
    match key {
        KeyRef::S(s) => push_bytes(out, s.as_bytes()),
        KeyRef::B(b) => push_bytes(out, b),
        KeyRef::N(n) => push_number(out, n),
    }
}

/// Appends the escaped and terminated bytes.
fn push_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    out.reserve(bytes.len() + 2);
    // Runs between zero bytes are copied whole: keys rarely hold a 0x00.
    let mut rest = bytes;
    while let Some(zero) = rest.iter().position(|&b| b == 0) {
        out.extend_from_slice(&rest[..zero]);
        out.extend_from_slice(&[0x00, 0xFF]);
        rest = &rest[zero + 1..];
    }
    out.extend_from_slice(rest);
    out.extend_from_slice(&[0x00, 0x00]);
}

/// Appends the encoding of a number.
fn push_number(out: &mut Vec<u8>, n: &Number) {
    let (negative, coefficient, exponent) = n.parts();
    if coefficient == 0 {
        out.push(ZERO);
        return;
    }
    // The coefficient's digits, most significant first (at most 38; a u128 has at most 39).
    let mut digits = [0u8; 40];
    let mut len = 0;
    match u64::try_from(coefficient) {
        // Most keys: u64 division is several times cheaper than u128's.
        Ok(mut rest) => {
            while rest > 0 && len < digits.len() {
                // Truncation intended: a remainder below 10.
                digits[len] = (rest % 10) as u8;
                rest /= 10;
                len += 1;
            }
        }
        Err(_) => {
            let mut rest = coefficient;
            while rest > 0 && len < digits.len() {
                digits[len] = (rest % 10) as u8;
                rest /= 10;
                len += 1;
            }
        }
    }
    digits[..len].reverse();
    // `len` ≤ 40, so the cast is exact.
    let leading = exponent.saturating_add(len as i32 - 1);
    // Every `Number` is within DynamoDB's range, so the clamp never applies; it keeps this total.
    let biased = u8::try_from(leading.saturating_add(EXPONENT_BIAS).clamp(0, 255)).unwrap_or(0);
    let flip = |b: u8| if negative { !b } else { b };
    out.push(if negative { NEGATIVE } else { POSITIVE });
    out.push(flip(biased));
    for pair in digits[..len].chunks(2) {
        let low = pair.get(1).copied().unwrap_or(0);
        out.push(flip(pair[0] * 10 + low + 1));
    }
    out.push(flip(0));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::key::KeyValue;
    use proptest::prelude::*;

    fn enc(k: &KeyValue) -> Vec<u8> {
        let mut out = Vec::new();
        push_key(&mut out, k.as_key_ref());
        out
    }

    fn n(s: &str) -> KeyValue {
        KeyValue::N(s.parse().expect("number"))
    }

    /// Checks that byte order is value order, and equality is equality, for every pair of `keys`.
    fn assert_order(keys: &[KeyValue]) {
        for a in keys {
            for b in keys {
                assert_eq!(enc(a).cmp(&enc(b)), a.cmp(b), "{a:?} against {b:?}");
            }
        }
    }

    /// Appending anything to the encodings keeps their order: they are prefix-free.
    fn assert_prefix_free(keys: &[KeyValue]) {
        for a in keys {
            for b in keys {
                let (mut x, mut y) = (enc(a), enc(b));
                x.extend_from_slice(&[0xFF, 0xFF]);
                y.push(0x00);
                if a != b {
                    assert_eq!(x.cmp(&y), a.cmp(b), "{a:?} against {b:?}");
                }
            }
        }
    }

    #[test]
    fn numbers_at_the_edges() {
        let keys: Vec<KeyValue> = [
            "0",
            "1",
            "-1",
            "1.2",
            "1.25",
            "-1.2",
            "-1.25",
            "10",
            "9.99",
            "100",
            "1E-130",
            "-1E-130",
            "9.9999999999999999999999999999999999999E+125",
            "-9.9999999999999999999999999999999999999E+125",
            "12345678901234567890123456789012345678",
            "12345678901234567890123456789012345679",
            "0.5",
            "-0.5",
            "1000001",
            "1000000",
        ]
        .iter()
        .map(|s| n(s))
        .collect();
        assert_order(&keys);
        assert_prefix_free(&keys);
        assert_eq!(enc(&n("1.0")), enc(&n("1")));
        assert_eq!(enc(&n("0")), [ZERO]);
        assert_eq!(enc(&n("42")), [POSITIVE, 131, 43, 0]);
    }

    #[test]
    fn strings_and_binaries_with_zero_bytes() {
        let keys: Vec<KeyValue> = [
            "",
            "a",
            "a\0",
            "a\0\0",
            "a\u{1}",
            "ab",
            "b",
            "é",
            "\u{1F600}",
        ]
        .iter()
        .map(|s| KeyValue::S((*s).to_owned()))
        .collect();
        assert_order(&keys);
        assert_prefix_free(&keys);
        let bins: Vec<KeyValue> = [
            &[][..],
            &[0],
            &[0, 0],
            &[0, 0xFF],
            &[0xFF],
            &[0xFF, 0],
            &[1],
        ]
        .iter()
        .map(|b| KeyValue::B(b.to_vec()))
        .collect();
        assert_order(&bins);
        assert_prefix_free(&bins);
        assert_eq!(enc(&KeyValue::B(vec![1, 0, 2])), [1, 0, 0xFF, 2, 0, 0]);
    }

    /// Numbers from their parts across DynamoDB's whole range (those beyond it are skipped).
    fn number() -> impl Strategy<Value = KeyValue> {
        (any::<bool>(), 0u128..10u128.pow(38), -168i32..126, 0u32..38).prop_filter_map(
            "beyond DynamoDB's range",
            |(negative, coefficient, exponent, cut)| {
                // Short coefficients too, and numbers that differ in their last digit only.
                let coefficient = coefficient / 10u128.pow(cut);
                Number::try_from_parts(negative, coefficient, exponent)
                    .ok()
                    .map(KeyValue::N)
            },
        )
    }

    proptest! {
        #[test]
        fn number_bytes_order_as_numbers(a in number(), b in number()) {
            prop_assert_eq!(enc(&a).cmp(&enc(&b)), a.cmp(&b));
            let (mut x, y) = (enc(&a), enc(&b));
            x.push(0xFF);
            if a < b {
                prop_assert!(x < y, "prefix-free");
            }
        }

        #[test]
        fn nearby_numbers_order_as_numbers(a in number(), step in 1u128..1000, shift in 0i32..3) {
            // A number and one a little above or below it, at the same scale: the same leading
            // exponent and digits that differ late.
            let KeyValue::N(x) = a else { return Ok(()) };
            let (negative, coefficient, exponent) = x.parts();
            if let Ok(y) = Number::try_from_parts(negative, coefficient + step, exponent - shift) {
                let b = KeyValue::N(y);
                prop_assert_eq!(enc(&a).cmp(&enc(&b)), a.cmp(&b));
            }
        }

        #[test]
        fn byte_strings_order_as_bytes(a in proptest::collection::vec(0u8..4, 0..6),
                                       b in proptest::collection::vec(0u8..4, 0..6)) {
            let (a, b) = (KeyValue::B(a), KeyValue::B(b));
            prop_assert_eq!(enc(&a).cmp(&enc(&b)), a.cmp(&b));
            let (mut x, mut y) = (enc(&a), enc(&b));
            x.push(0xFF);
            y.push(0x00);
            if a < b {
                prop_assert!(x < y, "prefix-free");
            }
        }

        #[test]
        fn strings_order_as_utf8(a in "[a\\x00é\u{1F600}]{0,5}", b in "[a\\x00é\u{1F600}]{0,5}") {
            let (a, b) = (KeyValue::S(a), KeyValue::S(b));
            prop_assert_eq!(enc(&a).cmp(&enc(&b)), a.cmp(&b));
        }
    }
}
