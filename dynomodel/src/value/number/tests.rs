//! Unit tests of [`Number`]: DynamoDB's grammar, digit and range limits, numeric ordering and hashing,
//! exact arithmetic and the conversions.

#![allow(clippy::unwrap_used)]

use super::*;

fn n(s: &str) -> Number {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn grammar_accepts_dynamodb_forms() {
    for (input, canonical) in [
        ("+3", "3"),
        (".5", "0.5"),
        ("5.", "5"),
        ("0001.23", "1.23"),
        ("1e+5", "100000"),
        ("1E2", "100"),
        ("-0", "0"),
        ("-0.000", "0"),
        ("1.50", "1.5"),
        ("0001.000", "1"),
        ("-12.340e-2", "-0.1234"),
        ("0e125", "0"),
        ("0.000e-127", "0"),
        ("1.0000000000000000000000000000000000000000000000", "1"),
    ] {
        assert_eq!(n(input).to_string(), canonical, "{input}");
    }
}

#[test]
fn grammar_rejects_non_numbers() {
    for input in [
        "",
        "NaN",
        "Infinity",
        "-Infinity",
        " 1",
        "1 ",
        "0x10",
        "1e",
        "1e+",
        "+",
        "-",
        ".",
        "1..2",
        "1.2.3",
        "e5",
        "١",
    ] {
        assert_eq!(
            Number::parse(input),
            Err(NumberError::Invalid(input.to_owned())),
            "{input:?}"
        );
    }
    assert_eq!(
        NumberError::Invalid("b".into()).to_string(),
        "The parameter cannot be converted to a numeric value: b"
    );
    assert_eq!(
        NumberError::Invalid(String::new()).to_string(),
        "The parameter cannot be converted to a numeric value"
    );
}

#[test]
fn digit_counts_are_the_decimal_lengths() {
    let mut edges = vec![0u128, 1, u128::MAX, u128::MAX - 1];
    for k in 0..=38 {
        let power = 10u128.pow(k);
        edges.extend([power - 1, power, power + 1]);
    }
    for k in 0..128 {
        let power = 1u128 << k;
        edges.extend([power - 1, power, power + 1]);
    }
    for n in edges {
        assert_eq!(super::digit_count(n), n.to_string().len() as u32, "{n}");
    }
}

#[test]
fn digit_limit_is_38() {
    let d38 = "9".repeat(38);
    let d39 = "1".repeat(39);
    assert_eq!(n(&d38).to_string(), d38);
    assert_eq!(Number::parse(&d39), Err(NumberError::TooManyDigits));
    // Trailing zeros are not significant.
    assert_eq!(
        n(&format!("{}{}", "1".repeat(38), "0".repeat(10))).significant_digits(),
        38
    );
    assert_eq!(
        Number::parse(&format!("0.{d39}")),
        Err(NumberError::TooManyDigits)
    );
}

#[test]
fn range_limits() {
    assert_eq!(n("1E-130").to_string(), format!("0.{}1", "0".repeat(129)));
    assert_eq!(Number::parse("1E-131"), Err(NumberError::Underflow));
    assert_eq!(Number::parse("-1E-131"), Err(NumberError::Underflow));
    let max = format!("9.{}E+125", "9".repeat(37));
    assert_eq!(n(&max).to_string(), "9".repeat(38) + &"0".repeat(88));
    assert_eq!(Number::parse("1E126"), Err(NumberError::Overflow));
    assert_eq!(Number::parse("-1E126"), Err(NumberError::Overflow));
    assert_eq!(
        Number::parse("1e99999999999999999999"),
        Err(NumberError::Overflow)
    );
    // Zero by the exponent it is written with, less its fraction digits (issue 26 fact 24).
    assert_eq!(Number::parse("0E+126"), Err(NumberError::Overflow));
    assert_eq!(
        Number::parse("-0e999999999999999999999"),
        Err(NumberError::Overflow)
    );
    assert_eq!(Number::parse("0E-131"), Err(NumberError::Underflow));
    assert_eq!(Number::parse("0.0E-130"), Err(NumberError::Underflow));
    assert_eq!(Number::parse("0E-130"), Ok(Number::ZERO));
    assert_eq!(Number::parse("000.0E+126"), Ok(Number::ZERO));
    assert_eq!(Number::parse("0.").map(|z| z.is_zero()), Ok(true));
    // Range is checked before precision, as DynamoDB does.
    assert_eq!(
        Number::parse(&format!("{}e200", "1".repeat(39))),
        Err(NumberError::Overflow)
    );
    assert_eq!(
        NumberError::Overflow.to_string(),
        "Number overflow. Attempting to store a number with magnitude larger than supported range"
    );
}

#[test]
fn ordering_is_numeric() {
    let sorted = [
        "-1e10", "-5", "-0.5", "-1E-130", "0", "1E-130", "0.001", "0.5", "1", "1.01", "2", "10",
        "1e125",
    ];
    for pair in sorted.windows(2) {
        assert!(n(pair[0]) < n(pair[1]), "{} < {}", pair[0], pair[1]);
    }
    assert_eq!(n("1.0").cmp(&n("1")), Ordering::Equal);
    assert_eq!(n("1"), n("1.0"));
    assert_eq!(n("-0"), n("0"));
}

#[test]
fn hash_follows_value() {
    use std::collections::HashSet;
    let set: HashSet<Number> = ["1", "1.0", "1E0", "10e-1"].iter().map(|s| n(s)).collect();
    assert_eq!(set.len(), 1);
}

#[test]
fn exact_arithmetic() {
    assert_eq!(n("0.1").checked_add(&n("0.2")).unwrap(), n("0.3"));
    let max38 = "9".repeat(37) + "8";
    assert_eq!(
        n(&max38).checked_add(&n("1")).unwrap().to_string(),
        "9".repeat(38)
    );
    assert_eq!(
        n(&"9".repeat(38)).checked_add(&n("1")).unwrap().to_string(),
        format!("1{}", "0".repeat(38))
    );
    assert_eq!(
        n("1e50").checked_add(&n("1")),
        Err(NumberError::TooManyDigits)
    );
    assert_eq!(
        n("1e125").checked_add(&n("1e-130")),
        Err(NumberError::TooManyDigits)
    );
    assert_eq!(
        n("9e125").checked_add(&n("9e125")),
        Err(NumberError::Overflow)
    );
    assert_eq!(
        n("1e38").checked_sub(&n("1")).unwrap().to_string(),
        "9".repeat(38)
    );
    assert_eq!(n("5").checked_sub(&n("7.5")).unwrap(), n("-2.5"));
    assert_eq!(n("5").checked_sub(&n("5")).unwrap(), Number::ZERO);
    assert_eq!(n("1e-130").checked_sub(&n("2e-130")).unwrap(), n("-1e-130"));
}

#[test]
fn integer_and_float_conversions() {
    assert_eq!(Number::from(i64::MIN).to_string(), i64::MIN.to_string());
    assert_eq!(Number::from(u64::MAX).to_i128(), Some(u64::MAX as i128));
    assert_eq!(Number::try_from(i128::MAX), Err(NumberError::TooManyDigits)); // 39 digits
    let big = 10i128.pow(37) + 7;
    assert_eq!(Number::try_from(-big).unwrap().to_i128(), Some(-big));
    assert_eq!(Number::try_from(u128::MAX), Err(NumberError::TooManyDigits));
    assert_eq!(n("1.5").to_i128(), None);
    assert_eq!(n("1e40").to_i128(), None);
    assert_eq!(Number::from_f64(0.1).unwrap().to_string(), "0.1");
    assert_eq!(
        Number::from_f64(-2.5e-7).unwrap().to_string(),
        "-0.00000025"
    );
    assert!(Number::from_f64(f64::NAN).is_err());
    assert!(Number::from_f64(1e300).is_err());
    assert_eq!(n("0.1").to_f64(), 0.1);
    assert_eq!(n("-123.456").to_f64(), -123.456);
}

proptest::proptest! {
    #[test]
    fn display_parse_round_trip(negative: bool, coefficient in 0u128..10u128.pow(38), exponent in -160i64..140) {
        if let Ok(number) = Number::from_parts(negative, coefficient, exponent) {
            proptest::prop_assert_eq!(Number::parse(&number.to_string()), Ok(number));
        }
    }

    #[test]
    fn order_matches_f64_for_small_values(a in -1e12f64..1e12, b in -1e12f64..1e12) {
        let (x, y) = (Number::from_f64(a).unwrap(), Number::from_f64(b).unwrap());
        proptest::prop_assert_eq!(x.cmp(&y), a.partial_cmp(&b).unwrap());
    }

    #[test]
    fn add_matches_i128(a in -10i128.pow(30)..10i128.pow(30), b in -10i128.pow(30)..10i128.pow(30)) {
        let sum = Number::try_from(a).unwrap().checked_add(&Number::try_from(b).unwrap()).unwrap();
        proptest::prop_assert_eq!(sum.to_i128(), Some(a + b));
    }

    /// `to_i128` and `to_u128` (a `u64` fast path, then the general one) give the exact integer
    /// whenever it fits, around the edges of `u64`, of a `u64` power of ten (10^19) and of `i128`.
    #[test]
    fn integer_conversions_are_exact(
        negative: bool,
        coefficient in proptest::prop_oneof![
            0u128..1000,
            u128::from(u64::MAX) - 1000..u128::from(u64::MAX) + 1000,
            10u128.pow(38) - 1000..10u128.pow(38),
        ],
        exponent in -3i64..42,
    ) {
        if let Ok(number) = Number::from_parts(negative, coefficient, exponent) {
            // The reference: the value's own digits, parsed by Rust (`None` unless an integer that fits).
            let text = number.to_string();
            let (expected_i, expected_u) = if text.contains(['.', 'e', 'E']) {
                (None, None)
            } else {
                (text.parse::<i128>().ok(), text.parse::<u128>().ok())
            };
            proptest::prop_assert_eq!(number.to_i128(), expected_i, "{}", text);
            proptest::prop_assert_eq!(number.to_u128(), expected_u, "{}", text);
        }
    }

    /// The small-integer fast path parses what the general case does, around its 19-digit edge.
    #[test]
    fn small_integers_parse_as_the_general_case(s in "[+-]?[0-9]{0,21}") {
        proptest::prop_assert_eq!(Number::parse(&s), Number::parse_general(&s));
    }

    /// Integers ending in zeros (which the fast path normalises itself) and zeros written with a
    /// sign or leading zeros parse as the general case does.
    #[test]
    fn small_integers_with_trailing_zeros_parse_as_the_general_case(
        s in "[+-]?(0{0,3}[1-9][0-9]{0,8}0{1,10}|0{1,19})",
    ) {
        proptest::prop_assert_eq!(Number::parse(&s), Number::parse_general(&s));
    }

    #[test]
    fn parse_never_panics(s in "\\PC{0,50}") {
        let _ = Number::parse(&s);
    }
}

proptest::proptest! {
    /// `small_integer` is the exact integer whenever its magnitude fits a `u64`, and `None`
    /// otherwise, around `u64`'s edge and 10^19.
    #[test]
    fn small_integers_are_exact(
        negative: bool,
        coefficient in proptest::prop_oneof![
            0u128..1000,
            u128::from(u64::MAX) / 10 - 1000..u128::from(u64::MAX) / 10 + 1000,
            u128::from(u64::MAX) - 1000..u128::from(u64::MAX) + 1000,
        ],
        exponent in -3i64..22,
    ) {
        if let Ok(number) = Number::from_parts(negative, coefficient, exponent) {
            let expected = number.to_i128().filter(|i| i.unsigned_abs() <= u128::from(u64::MAX));
            let small = number.small_integer();
            proptest::prop_assert_eq!(small.is_some(), expected.is_some(), "{}", number);
            if let (Some((negative, magnitude)), Some(expected)) = (small, expected) {
                let value = i128::from(magnitude);
                proptest::prop_assert_eq!(if negative { -value } else { value }, expected);
            }
        }
    }

    /// `to_f64`'s exact path and its text path give the `f64` the number's own text parses to
    /// (`f64::from_str` rounds correctly), around 2^53 and 10^±22 and over the whole range.
    #[test]
    fn to_f64_is_the_nearest_f64(
        negative: bool,
        coefficient in proptest::prop_oneof![
            0u128..100_000,
            (1u128 << 53) - 1000..(1u128 << 53) + 1000,
            0u128..10u128.pow(38),
        ],
        exponent in proptest::prop_oneof![-25i64..25, -170i64..140],
    ) {
        if let Ok(number) = Number::from_parts(negative, coefficient, exponent) {
            let expected: f64 = number.to_string().parse().unwrap();
            let found = number.to_f64();
            proptest::prop_assert_eq!(found.to_bits(), expected.to_bits(), "{}", number);
            proptest::prop_assert_eq!(number.f64_through_text().to_bits(), expected.to_bits());
        }
    }
}

#[test]
fn to_f64_at_the_edges() {
    for (text, expected) in [
        ("9007199254740993", 9007199254740992.0), // 2^53 + 1: rounded to even
        ("9007199254740991e22", 9007199254740991.0 * 1e22),
        ("1e23", 1e23),
        ("1e-23", 1e-23),
        ("-0.1", -0.1),
        ("0", 0.0),
        ("1e125", 1e125),
        ("1e-130", 1e-130),
    ] {
        assert_eq!(n(text).to_f64().to_bits(), f64::to_bits(expected), "{text}");
    }
    assert!(!n("0").to_f64().is_sign_negative());
}

proptest::proptest! {
    /// The fast paths of the magnitude comparison agree with the general one, around their edges
    /// (coefficients near 2^64, exponents 0..=19 and beyond).
    #[test]
    fn magnitude_fast_paths_agree(
        a in 1u128..10u128.pow(38), ea in -5i64..25, b in 1u128..10u128.pow(38), eb in -5i64..25,
        near in 0u128..3, pick in 0u8..3,
    ) {
        let edge = |c: u128| match pick { 0 => c, 1 => (1u128 << 64) - 1 + near, _ => c % 100_000 };
        if let (Ok(x), Ok(y)) = (Number::from_parts(false, edge(a), ea), Number::from_parts(false, b, eb)) {
            proptest::prop_assert_eq!(x.magnitude_cmp(&y), x.magnitude_cmp_general(&y));
            proptest::prop_assert_eq!(y.magnitude_cmp(&x), y.magnitude_cmp_general(&x));
            proptest::prop_assert_eq!(x.magnitude_cmp(&x), std::cmp::Ordering::Equal);
        }
    }
}

#[test]
fn a_number_is_24_bytes_and_a_value_32() {
    // A `u128` field (16-byte aligned) made them 32 and 48: every item's map node, copy and move
    // carried the difference (see the `coefficient` field).
    assert_eq!(std::mem::size_of::<Number>(), 24);
    assert_eq!(std::mem::align_of::<Number>(), 8);
    assert_eq!(std::mem::size_of::<crate::AttributeValue>(), 32);
}

#[test]
fn the_small_coefficient_fast_path_keeps_the_limits() {
    // 20 digits, the most a u64 holds: its leading digit's exponent is the exponent + 19.
    let widest = u128::from(u64::MAX - 5); // 18446744073709551610 ends in zero; this one does not
    assert_eq!(widest % 10, 0);
    let widest = widest + 1;
    assert!(Number::from_parts(false, widest, 106).is_ok());
    assert_eq!(
        Number::from_parts(false, widest, 107),
        Err(NumberError::Overflow)
    );
    assert!(Number::from_parts(true, 1, -130).is_ok());
    assert_eq!(
        Number::from_parts(true, 1, -131),
        Err(NumberError::Underflow)
    );
    assert_eq!(
        Number::from_parts(false, 11, -131).unwrap().to_string(),
        format!("0.{}11", "0".repeat(129))
    );
    // A trailing zero still goes through the normalising path.
    assert_eq!(Number::from_parts(false, 120, 0), Ok(Number::from(120)));
    assert_eq!(
        Number::from_parts(false, 120, 0).unwrap().parts(),
        (false, 12, 1)
    );
    assert_eq!(Number::from_parts(true, 0, 5), Ok(Number::ZERO));
}

/// The small-integer fast path at its edges: `i64`'s and `u64`'s limits, 19 digits against 20,
/// zeros with a sign, and trailing zeros, each equal to the general case's result.
#[test]
fn small_integer_edges_parse_as_the_general_case() {
    for text in [
        "9223372036854775807",
        "-9223372036854775808",
        "9223372036854775808",
        "18446744073709551615",
        "9999999999999999999",
        "10000000000000000000",
        "-0",
        "+0",
        "-000",
        "0",
        "1000000000000000000",
        "-1200",
        "+10",
    ] {
        assert_eq!(Number::parse(text), Number::parse_general(text), "{text}");
    }
    assert_eq!(n("-0"), Number::ZERO);
    assert!(!n("-0").is_negative());
    assert_eq!(n("-1200").parts(), (true, 12, 2));
    assert_eq!(
        n("9223372036854775807").to_i128(),
        Some(i128::from(i64::MAX))
    );
    assert_eq!(
        n("-9223372036854775808").to_i128(),
        Some(i128::from(i64::MIN))
    );
}
