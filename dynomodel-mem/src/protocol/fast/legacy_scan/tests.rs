//! The legacy maps' scanner against the seeds: every entry it takes is read as the seeds read it,
//! every entry it declines is left to them; and, with the server's engine, bodies cut at every
//! place answered byte for byte as the exact path answers them.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::fmt::Debug;

use dynomodel::backend::{AttributeValueUpdate, ExpectedAttributeValue, LegacyCondition};
use serde::de::DeserializeSeed;

use super::super::legacy::{self, Legacy, Parameter};
use super::{entries, Scan};
use crate::protocol::model::{self, Kind, Service};

/// The service and the shape of the legacy map named `name`, and its key shape.
fn shapes(name: &str) -> (&'static Service, usize, usize) {
    let (service, _) = model::input_of("Query").unwrap();
    let shape = service.shapes.iter().position(|s| s.name == name).unwrap();
    let Kind::Map { key, .. } = service.shapes[shape].kind else {
        panic!("{name} is not a map");
    };
    (service, shape, key)
}

/// The seeds' reading of the map `text`, if they take it.
fn by_seeds(name: &str, text: &str) -> Option<Legacy> {
    let (service, shape, _) = shapes(name);
    let mut slots = Vec::new();
    let seed = legacy::Seed {
        service,
        shape,
        parameter: Parameter::of(name).unwrap(),
        slots: &mut slots,
        cut: None,
    };
    let mut parser = serde_json::Deserializer::from_str(text);
    seed.deserialize(&mut parser).ok()?;
    parser.end().ok()?;
    match slots.pop() {
        Some(super::super::Slot::Legacy(legacy)) => Some(legacy),
        other => panic!("{text}: {other:?}"),
    }
}

/// The scanner's reading of the map `text` (`{` then entries): the entries it took as a map, and
/// whether it took them all (`None`: none).
fn by_scanner<T: Scan>(name: &str, text: &str) -> Option<(BTreeMap<String, T>, bool)> {
    let (service, _, key) = shapes(name);
    let from = text.find('"')?;
    let (scanned, to) = entries::<T>(text, from, service, key);
    if scanned.is_empty() {
        return None;
    }
    let closed = text.as_bytes()[to] == b'}';
    if closed {
        assert!(text[to + 1..].trim().is_empty(), "{text}");
    } else {
        assert_eq!(text.as_bytes()[to], b'"', "{text}");
    }
    Some((scanned.into_iter().collect(), closed))
}

/// Whether the scanner takes the whole map `text`; if it does, its map must be the seeds',
/// field for field.
fn taken<T: Scan + Debug + PartialEq>(
    name: &str,
    text: &str,
    pick: fn(Legacy) -> Option<BTreeMap<String, T>>,
) -> bool {
    let Some((scanned, true)) = by_scanner::<T>(name, text) else {
        return false;
    };
    let seeds = by_seeds(name, text).and_then(pick);
    assert_eq!(Some(&scanned), seeds.as_ref(), "{text}");
    assert_eq!(
        format!("{scanned:?}"),
        format!("{:?}", seeds.unwrap()),
        "{text}"
    );
    true
}

const EXPECTED: &str = "ExpectedAttributeMap";
const CONDITIONS: &str = "FilterConditionMap";
const UPDATES: &str = "AttributeUpdates";

fn expected(text: &str) -> bool {
    taken::<ExpectedAttributeValue>(EXPECTED, text, Legacy::expected)
}

fn conditions(text: &str) -> bool {
    taken::<LegacyCondition>(CONDITIONS, text, Legacy::conditions)
}

fn updates(text: &str) -> bool {
    taken::<AttributeValueUpdate>(UPDATES, text, Legacy::updates)
}

/// Every member of each type, alone, together in every order, `null`, with odd whitespace.
#[test]
fn the_usual_entries_are_scanned_as_the_seeds_read_them() {
    let members_expected = [
        r#""Value":{"S":"x"}"#,
        r#""Exists":true"#,
        r#""ComparisonOperator":"BETWEEN""#,
        r#""AttributeValueList":[{"N":"1"},null,{"S":"é€"}]"#,
    ];
    for order in permutations(&members_expected) {
        let entry = order.join(",");
        assert!(expected(&format!(r#"{{"a":{{{entry}}}}}"#)), "{entry}");
    }
    let members_updates = [r#""Action":"ADD""#, r#""Value":{"N":"-1.5e3"}"#];
    for order in permutations(&members_updates) {
        let entry = order.join(",");
        assert!(updates(&format!(r#"{{"a":{{{entry}}}}}"#)), "{entry}");
    }
    let members_conditions = [
        r#""ComparisonOperator":"IN""#,
        r#""AttributeValueList":[{"S":""},{"N":"0"}]"#,
    ];
    for order in permutations(&members_conditions) {
        let entry = order.join(",");
        assert!(conditions(&format!(r#"{{"a":{{{entry}}}}}"#)), "{entry}");
    }
    for text in [
        r#"{"a":{}}"#,
        r#"{"a":{"Exists":false}}"#,
        r#"{"a":{"Exists":null,"Value":null,"ComparisonOperator":null,"AttributeValueList":null}}"#,
        r#"{"a":{"AttributeValueList":[]}}"#,
        r#"{"a":{"AttributeValueList":[null,null]}}"#,
        // Names sent twice: the last kept.
        r#"{"a":{"Exists":false},"b":{"Exists":true},"a":{"Value":{"S":"2"}}}"#,
        // Whitespace everywhere JSON allows it.
        " {\t\"a\" :\n{ \"Value\"\r: { \"N\" : \"1\" } ,\"Exists\" : true } , \"b\":{ } \n}",
        // Numbers at their limits.
        r#"{"a":{"Value":{"N":"9.9999999999999999999999999999999999999E+125"}}}"#,
        r#"{"a":{"Value":{"N":"-1E-130"}}}"#,
        r#"{"a":{"Value":{"N":"0.00000000000000000000000000000000000001"}}}"#,
        // Names past ASCII, with quotes' neighbours.
        r#"{"ü€":{"Exists":false},"a'b":{"Exists":false}}"#,
    ] {
        assert!(expected(text), "{text}");
    }
    for text in [
        r#"{"a":{"ComparisonOperator":"NOT_NULL"}}"#,
        r#"{"a":{"ComparisonOperator":"EQ","AttributeValueList":null}}"#,
        r#"{"a":{"ComparisonOperator":"EQ"},"a":{"ComparisonOperator":"NE"}}"#,
    ] {
        assert!(conditions(text), "{text}");
    }
    for text in [
        r#"{"a":{}}"#,
        r#"{"a":{"Action":"DELETE"}}"#,
        r#"{"a":{"Action":null,"Value":null}}"#,
        r#"{"a":{"Value":{"S":"x"}}}"#,
    ] {
        assert!(updates(text), "{text}");
    }
    // Every operator and action by its word.
    for (word, _) in crate::protocol::legacy::COMPARISON_OPERATORS {
        assert!(conditions(&format!(
            r#"{{"a":{{"ComparisonOperator":"{word}"}}}}"#
        )));
    }
    for (word, _) in crate::protocol::legacy::ATTRIBUTE_ACTIONS {
        assert!(updates(&format!(r#"{{"a":{{"Action":"{word}"}}}}"#)));
    }
}

/// Entries the scanner declines, which the seeds read (or refuse) as before: escapes, other types,
/// unknown and repeated members, wrong JSON types, invalid numbers, a condition without its
/// operator, names the key shape refuses, JSON's flaws.
#[test]
fn unusual_entries_are_declined() {
    let declined_expected = [
        r#"{"a\u0062":{"Exists":false}}"#,
        r#"{"a":{"Exi\u0073ts":false}}"#,
        r#"{"a":{"Value":{"S":"x\ny"}}}"#,
        r#"{"a":{"Value":{"S":"x\"y"}}}"#,
        r#"{"a":{"Value":{"B":"AAEC"}}}"#,
        r#"{"a":{"Value":{"BOOL":true}}}"#,
        r#"{"a":{"Value":{"S":"x","N":"1"}}}"#,
        r#"{"a":{"Value":{}}}"#,
        r#"{"a":{"Value":{"N":"x"}}}"#,
        r#"{"a":{"Value":{"N":"1e126"}}}"#,
        r#"{"a":{"Value":{"N":""}}}"#,
        r#"{"a":{"Value":"x"}}"#,
        r#"{"a":{"Exists":"true"}}"#,
        r#"{"a":{"Exists":1}}"#,
        r#"{"a":{"Exists":false,"Exists":true}}"#,
        r#"{"a":{"Value":{"S":"x"},"Value":{"S":"y"}}}"#,
        r#"{"a":{"Action":"PUT"}}"#,
        r#"{"a":{"Other":1}}"#,
        r#"{"a":{"ComparisonOperator":"eq"}}"#,
        r#"{"a":{"ComparisonOperator":1}}"#,
        r#"{"a":{"AttributeValueList":{"S":"x"}}}"#,
        r#"{"a":{"AttributeValueList":[{"S":"x"},]}}"#,
        r#"{"a":null}"#,
        r#"{"a":[]}"#,
        r#"{"a":{"Exists":nul}}"#,
        r#"{"a":{"Exists":falsey}}"#,
        r#"{"a":{"Exists":false,}}"#,
        "{\"a\":{\"Exists\":\u{c}false}}",
        "{\"a\t\":{\"Exists\":false}}",
        r#"{"a":{"Exists":false}]"#,
        // A name the key shape refuses (too long).
        &format!(r#"{{"{}":{{"Exists":false}}}}"#, "n".repeat(65_536)),
    ];
    for text in declined_expected {
        assert!(
            by_scanner::<ExpectedAttributeValue>(EXPECTED, text).is_none(),
            "{text}"
        );
    }
    for text in [
        r#"{"a":{}}"#,
        r#"{"a":{"AttributeValueList":[{"S":"x"}]}}"#,
        r#"{"a":{"ComparisonOperator":null}}"#,
        r#"{"a":{"ComparisonOperator":"EQ","Value":{"S":"x"}}}"#,
        r#"{"a":{"ComparisonOperator":"EQ","Exists":true}}"#,
    ] {
        assert!(
            by_scanner::<LegacyCondition>(CONDITIONS, text).is_none(),
            "{text}"
        );
    }
    for text in [
        r#"{"a":{"Action":"put"}}"#,
        r#"{"a":{"Exists":true}}"#,
        r#"{"a":{"Action":"PUT","Action":"ADD"}}"#,
        r#"{"a":{"Value":{"SS":["x"]}}}"#,
    ] {
        assert!(
            by_scanner::<AttributeValueUpdate>(UPDATES, text).is_none(),
            "{text}"
        );
    }
}

/// A declined entry after taken ones: the scanner stops at its quote, and the map is the seeds'
/// once they read the rest; a comma not followed by an entry is no cut at all.
#[test]
fn the_scanner_stops_at_the_first_entry_it_declines() {
    let usual = |name: String| format!(r#""{name}":{{"Exists":false}}"#);
    let odd = r#""b":{"Exists":1}"#;
    for (before, after) in [(1, 0), (1, 2), (5, 1)] {
        let mut parts: Vec<String> = (0..before).map(|i| usual(format!("a{i}"))).collect();
        parts.push(odd.to_owned());
        parts.extend((0..after).map(|i| usual(format!("c{i}"))));
        let text = format!("{{{}}}", parts.join(" ,\n"));
        let (scanned, closed) = by_scanner::<ExpectedAttributeValue>(EXPECTED, &text).unwrap();
        assert!(!closed, "{text}");
        assert_eq!(scanned.len(), before, "{text}");
    }
    for text in [
        r#"{"a":{"Exists":false},}"#,
        r#"{"a":{"Exists":false}, }"#,
        r#"{"a":{"Exists":false},]"#,
        r#"{"a":{"Exists":false},"#,
        r#"{"a":{"Exists":false}"#,
        r#"{"a":{"Exists":false}"b":{}}"#,
    ] {
        let (service, _, key) = shapes(EXPECTED);
        let (scanned, _) = entries::<ExpectedAttributeValue>(text, 1, service, key);
        assert!(scanned.is_empty(), "{text}");
    }
}

/// Strings of every length about the byte-by-byte head's end (`SHORT`), read by the head, by
/// `memchr2` or by both: as the seeds read them where they are plain; declined at an escape, a
/// control character or a missing quote at any place, as names and as values.
#[test]
fn strings_are_read_alike_at_every_length_and_place() {
    for len in (0..=crate::protocol::fast::raw::SHORT + 40).chain([200, 5_000]) {
        let plain: String = (0..len).map(|i| ["a", "é", "€"][i % 3]).collect();
        assert!(
            expected(&format!(r#"{{"n{plain}":{{"Value":{{"S":"{plain}"}}}}}}"#)),
            "{len}"
        );
        assert!(updates(&format!(
            r#"{{"n{plain}":{{"Value":{{"S":"{plain}"}}}}}}"#
        )));
        let chars: Vec<char> = format!("n{plain}").chars().collect();
        for at in (0..=chars.len()).step_by(len / 16 + 1) {
            for odd in ["\\\\", "\\\"", "\\u0061", "\n", "\u{1f}", "\u{0}"] {
                let (head, tail): (String, String) =
                    (chars[..at].iter().collect(), chars[at..].iter().collect());
                let spelled = format!("{head}{odd}{tail}");
                for text in [
                    format!(r#"{{"{spelled}":{{"Exists":false}}}}"#),
                    format!(r#"{{"a":{{"Value":{{"S":"{spelled}"}}}}}}"#),
                ] {
                    assert!(
                        by_scanner::<ExpectedAttributeValue>(EXPECTED, &text).is_none(),
                        "{text:?}"
                    );
                }
            }
        }
        // The text's end before the closing quote.
        for text in [
            format!(r#"{{"{plain}"#),
            format!(r#"{{"a":{{"Value":{{"S":"{plain}"#),
        ] {
            assert!(
                by_scanner::<ExpectedAttributeValue>(EXPECTED, &text).is_none(),
                "{text:?}"
            );
        }
    }
}

/// Every order of `items`.
fn permutations<'a>(items: &[&'a str]) -> Vec<Vec<&'a str>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            out.push(tail);
        }
    }
    out
}

#[cfg(feature = "server")]
mod wire;
