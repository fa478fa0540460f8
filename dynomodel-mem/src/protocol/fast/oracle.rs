//! The exact path as the one pass's oracle, in test builds: every request a test sends through
//! `respond` is decoded both ways, and the one pass's answer must be the exact path's (see
//! [`verify`]). The byte-for-byte comparison of whole answers is in `tests.rs`.

use std::cell::Cell;

use serde_json::Value;

use super::keys::COUNTED_KEY;
use super::legacy::Legacy;
use super::{Outcome, Predecoded, Slot};
use crate::protocol::batch::{key_as_sent, write_requests};
use crate::protocol::item::names_in;
use crate::protocol::legacy::{attribute_updates, attributes_to_get, conditions, expected};
use crate::protocol::partiql::parameters;
use crate::protocol::transact::decode_transact_items;
use crate::protocol::value::{parse_attribute_value, parse_item};
use crate::protocol::{exact_request, Decoder, Members, WireResult};

thread_local! {
    /// Whether `super::decode` stands aside on this thread, so that the exact path answers.
    pub(super) static EXACT_ONLY: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with the one pass off on this thread (for `tests.rs`, which needs the server).
#[cfg(feature = "server")]
pub(crate) fn exact_only<T>(f: impl FnOnce() -> T) -> T {
    EXACT_ONLY.with(|off| off.set(true));
    let out = f();
    EXACT_ONLY.with(|off| off.set(false));
    out
}

/// What `f` answers, held to what it answers with the one pass off (compared as printed, `context`
/// naming the request in the failure).
#[cfg(feature = "server")]
pub(crate) fn held_to_exact<T: std::fmt::Debug>(f: impl Fn() -> T, context: &str) -> T {
    let fast = f();
    let exact = exact_only(f);
    assert_eq!(format!("{fast:?}"), format!("{exact:?}"), "{context}");
    fast
}

/// Panics unless `outcome`, the one pass's decoding of `body`, is what the exact path makes of it:
/// a body the one pass calls malformed is not JSON; a decoded one passes the exact path's parse and
/// model check, its skeleton equals the exact path's tree wherever it has no marker, and each marker
/// stands for exactly the attribute value, item or names map the exact decoder makes of that part of the tree,
/// without a validation error, or (a flawed value) with the one message it keeps.
pub(crate) fn verify(operation: &str, body: &[u8], outcome: &Outcome) {
    match outcome {
        Outcome::Fallback => {}
        Outcome::Malformed => assert!(
            serde_json::from_slice::<Value>(body).is_err(),
            "{operation}: the one pass called JSON malformed: {}",
            String::from_utf8_lossy(body)
        ),
        // The exact path's tree, which it takes in place of its own parse: equal to that parse.
        Outcome::Exact(tree) => {
            let exact = crate::protocol::tree::parse(body);
            assert!(
                exact.as_ref().ok() == Some(&Value::Object(tree.clone())),
                "{operation}: the one pass's tree is not the exact parse: {}",
                String::from_utf8_lossy(body)
            );
        }
        Outcome::Decoded(skeleton, predecoded) => {
            let exact = match exact_request(operation, body) {
                Ok(exact) => exact,
                Err(e) => panic!(
                    "{operation}: the one pass accepted what the exact path refuses ({e:?}): {}",
                    String::from_utf8_lossy(body)
                ),
            };
            same(
                &Value::Object(exact),
                &Value::Object(skeleton.clone()),
                predecoded,
                operation,
            );
        }
    }
}

fn same(exact: &Value, skeleton: &Value, predecoded: &Predecoded, operation: &str) {
    if exact == skeleton {
        return;
    }
    match (exact, skeleton) {
        (_, Value::Number(n)) if n.is_u64() => {
            let slot = usize::try_from(n.as_u64().unwrap_or(u64::MAX))
                .ok()
                .and_then(|i| predecoded.slots.get(i));
            let mut d = Decoder::default();
            match slot {
                Some(Slot::Value(fast)) => {
                    let decoded = parse_attribute_value(exact, &mut d).and_then(|v| d.finish(v));
                    assert_eq!(decoded.as_ref(), Ok(fast), "{operation}: at {exact}");
                }
                Some(Slot::Item(fast)) => {
                    let decoded = parse_item(exact, &mut d).and_then(|v| d.finish(v));
                    assert_eq!(decoded, Ok(Some(fast.clone())), "{operation}: at {exact}");
                }
                // A flawed value: the exact decoder's placeholder, and its first message only.
                Some(Slot::FlawedValue(fast, message)) => {
                    let decoded = parse_attribute_value(exact, &mut d);
                    assert_eq!(decoded.as_ref(), Ok(fast), "{operation}: at {exact}");
                    flawed_alike(d, message, operation, exact);
                }
                Some(Slot::FlawedItem(fast, message)) => {
                    let decoded = parse_item(exact, &mut d);
                    assert_eq!(decoded, Ok(Some(fast.clone())), "{operation}: at {exact}");
                    flawed_alike(d, message, operation, exact);
                }
                // Built in part: the exact decoder's first flaw, or none and then the engine's
                // answer to the whole item, which is the part's (see `oversized`).
                Some(Slot::PartialItem(part, flaw)) => {
                    let decoded = parse_item(exact, &mut d);
                    let whole = match decoded {
                        Ok(Some(whole)) => whole,
                        other => panic!("{operation}: no item at {exact}: {other:?}"),
                    };
                    match flaw {
                        Some(message) => flawed_alike(d, message, operation, exact),
                        None => {
                            assert!(d.finish(()).is_ok(), "{operation}: refused at {exact}");
                            assert!(dynomodel::item_size(part) > dynomodel::MAX_ITEM_SIZE);
                            let answer = engine_check(&whole);
                            assert!(answer.is_err(), "{operation}: the whole item passes");
                            assert_eq!(engine_check(part), answer, "{operation}: at {exact}");
                        }
                    }
                }
                Some(Slot::Key(fast, spelling)) => {
                    let decoded = key_as_sent(exact, &mut d).and_then(|v| d.finish(v));
                    let fast = (fast.clone(), spelling.clone());
                    assert_eq!(decoded, Ok(Some(fast)), "{operation}: at {exact}");
                }
                Some(Slot::Names(fast)) => {
                    let decoded = names_in(exact);
                    assert_eq!(decoded, Ok(Some(fast.clone())), "{operation}: at {exact}");
                }
                // Reduced: part of the whole map, whose other keys the request's message lists.
                Some(Slot::ReducedNames(fast)) => {
                    let whole = match names_in(exact) {
                        Ok(Some(whole)) => whole,
                        other => panic!("{operation}: no names at {exact}: {other:?}"),
                    };
                    assert!(
                        super::unused::stands_for(
                            "ExpressionAttributeNames",
                            fast,
                            &whole,
                            &predecoded.slots
                        ),
                        "{operation}: at {exact}"
                    );
                }
                // Reduced values: as the names, of the whole map the exact decoder decodes
                // without a message.
                Some(Slot::ReducedValues(fast)) => {
                    let decoded = parse_item(exact, &mut d).and_then(|v| d.finish(v));
                    let whole = match decoded {
                        Ok(Some(whole)) => whole,
                        other => panic!("{operation}: no values at {exact}: {other:?}"),
                    };
                    assert!(
                        super::unused::stands_for(
                            "ExpressionAttributeValues",
                            fast,
                            &whole,
                            &predecoded.slots
                        ),
                        "{operation}: at {exact}"
                    );
                }
                // Resized: reduced, but for one unused value, a string bringing the map's measure
                // to the whole map's, or one byte past the cap (`unused_values::resize`).
                Some(Slot::ResizedValues(fast)) => {
                    let decoded = parse_item(exact, &mut d).and_then(|v| d.finish(v));
                    let whole = match decoded {
                        Ok(Some(whole)) => whole,
                        other => panic!("{operation}: no values at {exact}: {other:?}"),
                    };
                    let resized = resized_alike(fast, &whole);
                    assert!(
                        super::unused::stands_for(
                            "ExpressionAttributeValues",
                            &resized,
                            &whole,
                            &predecoded.slots
                        ),
                        "{operation}: at {exact}"
                    );
                }
                Some(Slot::Legacy(fast)) => {
                    let decoded = exact_legacy(fast, exact, &mut d).and_then(|v| d.finish(v));
                    assert_eq!(decoded.as_ref(), Ok(fast), "{operation}: at {exact}");
                }
                Some(Slot::Parameters(fast)) => {
                    let request =
                        serde_json::Map::from_iter([("Parameters".into(), exact.clone())]);
                    let decoded = parameters(&Members::new(&request), &mut d);
                    let decoded = decoded.and_then(|v| d.finish(v));
                    assert_eq!(decoded, Ok(Some(fast.clone())), "{operation}: at {exact}");
                }
                // Built in part: a strict prefix of the whole list, which the exact decoder
                // decodes without a message (the statement's side is checked with its structure).
                Some(Slot::ReducedParameters(fast)) => {
                    let request =
                        serde_json::Map::from_iter([("Parameters".into(), exact.clone())]);
                    let decoded = parameters(&Members::new(&request), &mut d);
                    let whole = match decoded.and_then(|v| d.finish(v)) {
                        Ok(Some(whole)) => whole,
                        other => panic!("{operation}: no parameters at {exact}: {other:?}"),
                    };
                    assert!(
                        fast.len() < whole.len() && whole.starts_with(fast),
                        "{operation}: at {exact}"
                    );
                }
                _ => panic!("{operation}: marker {n} stands for nothing"),
            }
        }
        (Value::Object(e), Value::Object(s)) => {
            assert!(
                e.keys().eq(s.keys()),
                "{operation}: members differ: {exact} / {skeleton}"
            );
            reduced_parameters_hold(e, s, predecoded, operation);
            for (a, b) in e.values().zip(s.values()) {
                same(a, b, predecoded, operation);
            }
        }
        // Keys checked and not built (`keys`): the exact decoder decodes each without a message.
        (Value::Array(e), Value::Array(s))
            if s.last().and_then(Value::as_u64) == Some(COUNTED_KEY) =>
        {
            let built = s.len() - 1;
            assert!(e.len() > built, "{operation}: no key was checked");
            for (a, b) in e.iter().zip(&s[..built]) {
                same(a, b, predecoded, operation);
            }
            for key in &e[built..] {
                let mut d = Decoder::default();
                let decoded = key_as_sent(key, &mut d).and_then(|v| d.finish(v));
                assert!(
                    matches!(decoded, Ok(Some(_))),
                    "{operation}: a key checked in one pass is not well formed: {key}"
                );
            }
        }
        // Writes past the limit read in compact form (`writes`): the exact decoder decodes each to
        // the same typed request, without a message.
        (Value::Array(e), Value::Array(s)) if past_limit(s, predecoded).is_some() => {
            let built = s.len() - 1;
            assert!(e.len() > built, "{operation}: no write past the limit");
            for (a, b) in e.iter().zip(&s[..built]) {
                same(a, b, predecoded, operation);
            }
            let rest = &e[built..];
            let mut d = Decoder::default();
            match past_limit(s, predecoded) {
                Some(Slot::Writes(fast)) => {
                    let decoded = write_requests(rest, "requestItems.t.member", &mut d)
                        .and_then(|v| d.finish(v));
                    assert_eq!(
                        decoded.as_ref(),
                        Ok(fast),
                        "{operation}: writes past the limit"
                    );
                }
                Some(Slot::Actions(fast)) => {
                    let request = serde_json::Map::from_iter([(
                        "TransactItems".to_owned(),
                        Value::Array(rest.to_vec()),
                    )]);
                    let decoded = decode_transact_items(&Members::new(&request), &mut d)
                        .and_then(|v| d.finish(v));
                    assert_eq!(
                        decoded.as_ref(),
                        Ok(fast),
                        "{operation}: actions past the limit"
                    );
                }
                _ => unreachable!(),
            }
        }
        (Value::Array(e), Value::Array(s)) => {
            assert_eq!(e.len(), s.len(), "{operation}: lists differ");
            for (a, b) in e.iter().zip(s) {
                same(a, b, predecoded, operation);
            }
        }
        _ => panic!("{operation}: the skeleton has {skeleton} where the request has {exact}"),
    }
}

/// Panics if the statement `e` (the exact path's tree) has `Parameters` reduced in the skeleton `s`
/// (`parameters`) to a list the engine could answer otherwise than the whole one: the engine
/// refuses a statement it cannot parse before it counts, and a parsed one whose `?` are not fewer
/// than the values built could use them.
fn reduced_parameters_hold(
    e: &serde_json::Map<String, Value>,
    s: &serde_json::Map<String, Value>,
    predecoded: &Predecoded,
    operation: &str,
) {
    let slot = s
        .get("Parameters")
        .and_then(Value::as_u64)
        .and_then(|n| predecoded.slots.get(usize::try_from(n).ok()?));
    let Some(Slot::ReducedParameters(built)) = slot else {
        return;
    };
    let statement = e.get("Statement").and_then(Value::as_str);
    let statement = statement.unwrap_or_else(|| panic!("{operation}: reduced without a statement"));
    if let Ok((_, count)) = crate::frontends::partiql::parse_syntax(statement) {
        assert!(
            count < built.len(),
            "{operation}: {count} `?` with {} parameters built: {statement}",
            built.len()
        );
    }
}

/// The slot of the writes past the limit that the skeleton's list `s` ends with, if it does.
fn past_limit<'p>(s: &[Value], predecoded: &'p Predecoded) -> Option<&'p Slot> {
    let index = usize::try_from(s.last()?.as_u64()?).ok()?;
    predecoded
        .slots
        .get(index)
        .filter(|slot| matches!(slot, Slot::Writes(_) | Slot::Actions(_)))
}

/// The engine's checks of a put's item (`ops::items::check_put`'s): its code and message if refused.
fn engine_check(item: &dynomodel::Item) -> Result<(), (String, String)> {
    crate::validate::sized_attribute_values(item)
        .and_then(crate::validate::item_size_within_limit)
        .map_err(|e| (e.code().to_owned(), e.message()))
}

/// Panics unless the exact decoder `d`, having decoded `exact`, recorded `message` as its one
/// validation error (a flaw is a message of the operation's, never a member constraint).
fn flawed_alike(d: Decoder, message: &str, operation: &str, exact: &Value) {
    assert_eq!(d.broken, 0, "{operation}: constraints broken at {exact}");
    assert_eq!(
        d.custom.as_deref(),
        Some(message),
        "{operation}: another first flaw at {exact}"
    );
}

/// What the exact decoder makes of `exact`, the exact path's tree of the legacy parameter that the
/// one pass decoded as `fast` (of the same kind; a kind that cannot be is a failure too).
fn exact_legacy(fast: &Legacy, exact: &Value, d: &mut Decoder) -> WireResult<Legacy> {
    let name = match fast {
        Legacy::Expected(_) => "Expected",
        Legacy::Conditions(_) => "ScanFilter",
        Legacy::Updates(_) => "AttributeUpdates",
        Legacy::Names(_) => "AttributesToGet",
    };
    let request = serde_json::Map::from_iter([(name.to_owned(), exact.clone())]);
    let m = Members::new(&request);
    let decoded = match fast {
        Legacy::Expected(_) => expected(&m, d)?.map(Legacy::Expected),
        Legacy::Conditions(_) => conditions(&m, name, d)?.map(Legacy::Conditions),
        Legacy::Updates(_) => attribute_updates(&m, d)?.map(Legacy::Updates),
        Legacy::Names(_) => attributes_to_get(&m, d)?.map(Legacy::Names),
    };
    Ok(decoded.unwrap_or_else(|| panic!("the exact decoder found no {name} in {exact}")))
}

/// `fast`, a resized values map, with its one resized value put back as `whole` has it, once its
/// measure is checked: the whole map's, or one byte past the cap when that is less, or past the
/// cap already without the resized value.
fn resized_alike(fast: &dynomodel::Item, whole: &dynomodel::Item) -> dynomodel::Item {
    use crate::expr::substitution::{values_size, MAX_MAP_BYTES};
    let (size, whole_size) = (values_size(fast), values_size(whole));
    assert!(
        size == whole_size.min(MAX_MAP_BYTES + 1)
            || (whole_size > MAX_MAP_BYTES && size > MAX_MAP_BYTES),
        "resized to {size} of {whole_size}"
    );
    let differing: Vec<&String> = fast
        .iter()
        .filter(|(key, value)| whole.get(*key) != Some(*value))
        .map(|(key, _)| key)
        .collect();
    assert!(differing.len() <= 1, "resized: {differing:?}");
    let mut alike = fast.clone();
    for key in differing {
        assert!(matches!(fast[key], dynomodel::AttributeValue::S(_)));
        if let Some(value) = whole.get(key) {
            alike.insert(key.clone(), value.clone());
        }
    }
    alike
}
