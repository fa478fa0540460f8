//! One-pass decoding of well-formed requests: the body is parsed once, driven by the service model's
//! shapes, and every attribute value (and every map of them: an item, a key, expression values) is
//! decoded straight into [`AttributeValue`]s and [`Item`]s while it is read, without the `Value` tree
//! that the exact path (`super::respond`'s `exact_request`, then the operation's decoder) builds for
//! the whole request. On an element-heavy request that tree (a map node and a string per member, then
//! a second walk to type-check it and a third to decode it) was most of the server's CPU.
//!
//! What the one pass yields is a *skeleton*: the request's `Value` with each attribute value and each
//! map of them replaced by a marker, a JSON number indexing [`Predecoded`], which the operation's
//! decoder gets in its [`super::Decoder`] and from which `value.rs` takes them where it meets a
//! marker. Everything else (names, expressions, enums, the batches' structure) stays a `Value` and is
//! walked and decoded by the exact code as before, so its errors are the exact path's own.
//!
//! The fast path only has to decide "this request is decoded as the exact path decodes it": at the
//! first anomaly (a JSON type that is not the shape's, an attribute value that has several types or
//! an unknown member, a `null` inside one, a bad base64 text, a map key that breaks its shape's
//! constraint, a skeleton the model check does not pass) it stops and the request is decoded again
//! by the exact path, which reports the errors in DynamoDB's order. A body that is not JSON at all
//! is answered at once (the exact parse would fail where this one did: both are serde_json's parser
//! over the same bytes), without a second parse. Nor is a body in which nothing was decoded (no
//! marker: a Scan without values, a PartiQL batch without parameters, valid or not): its skeleton is
//! the exact path's own tree, which the exact path checks, reports and decodes as it is
//! ([`Outcome::Exact`]).
//!
//! An attribute value that the exact decoder decodes to a placeholder while it records a validation
//! message (an `N` that is not a number, `NULL` other than `true`, an empty value `{}`) is a *flaw*,
//! not an anomaly: the one pass reads on, decodes the placeholder, and keeps the first flaw of each
//! marked value or item in the exact decoder's order (a list's in its order, a map's in its members'
//! name order; a flawed map with a member named twice is an anomaly) in its slot
//! ([`Slot::FlawedValue`], [`Slot::FlawedItem`]). The operation's decoder records it when it takes
//! the marker, which is where the exact decoder meets that value; it keeps only the first message
//! recorded, so the request's error is the exact path's, and a serialization error anywhere (an
//! anomaly, so the exact path's) still wins. The model check cannot tell a flaw from a valid value (it
//! only type-checks attribute values), so the skeleton's check is the whole tree's. A large body
//! invalid at its end is thus read once, not twice (`body_map_invalid_at_end` in
//! docs/performance.md).
//!
//! `ExpressionAttributeNames` maps are decoded too ([`Slot::Names`], `names.rs`): a request can
//! carry hundreds of thousands of them, and their `Value` map, its walk and its copy into the
//! request type were most of such a request's cost. A request's own map (at its top level) is read
//! into entries borrowed from the body and decided once its expressions are known: with unused
//! keys, the engine gets it reduced and its message is put back as the whole map's
//! ([`Slot::ReducedNames`], [`Slot::Unused`], `unused`). So is its `ExpressionAttributeValues`:
//! the entries past what its expressions can use are checked and not built, and built only if an
//! expression turns out to use them ([`Slot::ReducedValues`], `unused_values`).
//!
//! PartiQL `Parameters` lists are decoded as one marker each ([`Slot::Parameters`], `parameters.rs`).
//!
//! The legacy parameters (`Expected`, `KeyConditions`, `QueryFilter`, `ScanFilter`,
//! `AttributeUpdates`, `AttributesToGet`) are decoded too ([`Slot::Legacy`], `legacy.rs`), for the
//! same reason. A long legacy map's entries of the usual shapes are read from the body's text by a
//! scanner of their own and cut out of it, and the body parsed again without them, as the lists
//! of writes below (`legacy_scan`).
//!
//! BatchGetItem's keys are kept with their spellings where these matter ([`Slot::Key`]): its decoder
//! tells keys sent alike from keys equal in value but spelled apart. A table's keys past the point
//! where its list is sure to be refused as too long are only checked, not built (`keys`). Not taken
//! for the operations without attribute values, whose requests are small.
//!
//! A PutItem's `Item` past the point where it is sure to be refused for its size is only checked
//! from there, not built ([`Slot::PartialItem`], `oversized`).
//!
//! A BatchWriteItem table's write requests past 25 and a TransactWriteItems' actions past 100 (a
//! list the backend refuses, echoing every entry) are read straight into their typed requests, one
//! slot for all of them at the end of the skeleton's list ([`Slot::Writes`], [`Slot::Actions`],
//! `writes`). The first such list's entries of the usual shapes are read from the body's text by a
//! scanner of their own and cut out of it, and the body is parsed again without them (`splice`,
//! `scan`): serde_json never reads them.

mod keys;
pub(crate) mod legacy;
mod legacy_scan;
mod names;
mod oversized;
mod parameters;
mod raw;
mod scan;
mod skeleton;
mod splice;
mod unused;
mod unused_values;
mod value;
pub(crate) mod writes;

use std::mem;

use dynomodel::backend::{ExpressionAttributeNames, TransactWriteItem, WriteRequest};
use dynomodel::{AttributeValue, Error, Item};
use serde::de::DeserializeSeed;
use serde_json::{Map, Value};

use super::{model, Fault, WireResult};
use legacy_scan::Cut;
use splice::Splice;
pub(crate) use unused::Unused;

/// The operations decoded in one pass: those whose requests carry attribute values in bulk.
const OPERATIONS: &[&str] = &[
    "PutItem",
    "GetItem",
    "DeleteItem",
    "UpdateItem",
    "Query",
    "Scan",
    "BatchGetItem",
    "BatchWriteItem",
    "TransactGetItems",
    "TransactWriteItems",
    "ExecuteStatement",
    "BatchExecuteStatement",
    "ExecuteTransaction",
];

/// What the one pass made of a body.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// Well formed: the skeleton (a JSON object) and the values its markers stand for.
    Decoded(Map<String, Value>, Predecoded),
    /// Well formed, with nothing in it decoded (no marker: a Scan without values, a PartiQL batch
    /// without parameters): the skeleton is then the exact path's own tree, which the exact path
    /// checks and decodes as its own, without parsing the body again.
    Exact(Map<String, Value>),
    /// Not JSON: DynamoDB's bare `SerializationException`.
    Malformed,
    /// Not decoded here (another operation, or an anomaly): the exact path decodes the body.
    Fallback,
}

/// Decodes `body`, a request of `operation`, in one pass (see the module docs).
pub(crate) fn decode(operation: &str, body: &[u8]) -> Outcome {
    #[cfg(test)]
    if oracle::EXACT_ONLY.with(std::cell::Cell::get) {
        return Outcome::Fallback;
    }
    if !OPERATIONS.contains(&operation) {
        return Outcome::Fallback;
    }
    let Some((service, input)) = model::input_of(operation) else {
        return Outcome::Fallback;
    };
    // One check of the whole body, so that serde_json does not check each string again (a body that
    // is not UTF-8 is refused by the exact path).
    let Ok(text) = std::str::from_utf8(body) else {
        return Outcome::Fallback;
    };
    let mut slots = Vec::new();
    let keys = operation == "BatchGetItem";
    // An over-long list of writes may be cut out of the body and scanned, the rest parsed again.
    let splice = match operation {
        "BatchWriteItem" | "TransactWriteItems" => Splice::new(text),
        _ => Splice::off(),
    };
    // So may a legacy map's usual entries (`legacy_scan`): the two operations' lists have none.
    let legacy = match operation {
        "PutItem" | "UpdateItem" | "DeleteItem" | "Query" | "Scan" => Cut::new(text),
        _ => Cut::off(),
    };
    let mut parsed = parse(service, input, text, &mut slots, keys, (&splice, &legacy));
    if let Some(made) = legacy.take_made() {
        #[cfg(test)]
        CUTS.with(|cuts| cuts.set(cuts.get() + 1));
        let Some(rest) = made.body(text) else {
            return Outcome::Fallback;
        };
        slots.clear();
        let resumed = Cut::resumed(made);
        parsed = parse(service, input, &rest, &mut slots, keys, (&splice, &resumed));
    }
    if let Some(cut) = splice.take_cut() {
        #[cfg(test)]
        CUTS.with(|cuts| cuts.set(cuts.get() + 1));
        let Some(rest) = cut.body(text) else {
            return Outcome::Fallback;
        };
        slots.clear();
        parsed = parse(
            service,
            input,
            &rest,
            &mut slots,
            keys,
            (&Splice::resumed(cut), &Cut::off()),
        );
    }
    match parsed {
        // Nothing stands for a value: the skeleton is the exact path's tree (structures, lists and
        // maps read as `Value`s, each object's members the last of each name, scalars as
        // serde_json reads them), whose model check is the exact path's (one walk, not two).
        Ok(Value::Object(skeleton)) if slots.is_empty() => Outcome::Exact(skeleton),
        Ok(Value::Object(skeleton))
            if model::passes_decoded(operation, &skeleton)
                && !(keys && keys::needs_every_key(&skeleton)) =>
        {
            Outcome::Decoded(
                skeleton,
                Predecoded {
                    slots,
                    active: true,
                },
            )
        }
        // Not an object, or the model check finds something to report: the exact path reports it.
        Ok(_) => Outcome::Fallback,
        Err(e) if e.is_syntax() || e.is_eof() => Outcome::Malformed,
        // One of the seeds' anomalies (or a JSON type serde_json refused for a seed).
        Err(_) => Outcome::Fallback,
    }
}

/// One parse of `text` by the skeleton's seed, to its end, cutting a list of writes (`splice`) or
/// a legacy map (`legacy_scan`) if it may.
fn parse(
    service: &'static model::Service,
    input: usize,
    text: &str,
    slots: &mut Vec<Slot>,
    keys: bool,
    (splice, legacy): (&Splice<'_>, &Cut<'_>),
) -> serde_json::Result<Value> {
    let mut parser = serde_json::Deserializer::from_str(text);
    let members = std::cell::Cell::new(0);
    let shared = skeleton::Shared::new(service, input, keys, splice, &members)
        .reading(text)
        .cutting(legacy);
    skeleton::Seed::new(&shared, input, slots)
        .deserialize(&mut parser)
        .and_then(|skeleton| parser.end().map(|()| skeleton))
}

/// The attribute values and items of a request decoded in one pass, by marker; inactive (taking
/// nothing) for a request decoded by the exact path.
#[derive(Debug, Default)]
pub(crate) struct Predecoded {
    slots: Vec<Slot>,
    active: bool,
}

/// A value decoded in one pass and the validation message of its first flaw, if it has one (see
/// `value`).
pub(crate) type Flawed<T> = (T, Option<String>);

/// What one marker stands for.
#[derive(Debug)]
enum Slot {
    Value(AttributeValue),
    Item(Item),
    /// A flawed attribute value (see `value`): the exact decoder's placeholder for it and the first
    /// flaw's message, which the decoder records when it takes the value.
    FlawedValue(AttributeValue, String),
    /// A flawed item, as [`Slot::FlawedValue`].
    FlawedItem(Item, String),
    /// A PutItem's item past its size limit, built only in part (see `oversized`), and its first
    /// flaw if it has one.
    PartialItem(Item, Option<String>),
    /// A BatchGetItem key, with its spelling where it matters (see `value::spelled_key`).
    Key(Item, Option<Vec<u8>>),
    /// An `ExpressionAttributeNames` map (see `names`).
    Names(ExpressionAttributeNames),
    /// A top-level `ExpressionAttributeNames` map with unused keys, reduced to the used ones and
    /// one unused one (see `unused`).
    ReducedNames(ExpressionAttributeNames),
    /// A top-level `ExpressionAttributeValues` map with unused keys, reduced to the used ones and
    /// one unused one (see `unused_values`).
    ReducedValues(Item),
    /// A top-level `ExpressionAttributeValues` map past the maps' caps, reduced as
    /// [`Slot::ReducedValues`] with its kept unused value replaced by a string that brings its
    /// measure to the whole map's, or just past the cap (see `unused_values`).
    ResizedValues(Item),
    /// What the engine's message about a reduced map stands for (no marker names it; see `unused`).
    Unused(unused::Reduced),
    /// A legacy parameter: `Expected`, conditions, `AttributeUpdates`, `AttributesToGet` (see `legacy`).
    Legacy(legacy::Legacy),
    /// A PartiQL statement's `Parameters` (see `parameters`).
    Parameters(Vec<AttributeValue>),
    /// A PartiQL statement's `Parameters` past its `?`, built only in part: more values than the
    /// statement has `?` (see `parameters`).
    ReducedParameters(Vec<AttributeValue>),
    /// A BatchWriteItem table's write requests past the limit, typed (see `writes`).
    Writes(Vec<WriteRequest>),
    /// A TransactWriteItems' actions past the limit, typed (see `writes`).
    Actions(Vec<TransactWriteItem>),
    /// Taken by the decoder already.
    Taken,
}

impl Predecoded {
    /// The attribute value `v` stands for, if `v` is a marker, with its first flaw's message (see
    /// `value`), which the caller records as the exact decoder would have at this value.
    pub(crate) fn value(&mut self, v: &Value) -> Option<WireResult<Flawed<AttributeValue>>> {
        match self.take(v)? {
            Slot::Value(value) => Some(Ok((value, None))),
            Slot::FlawedValue(value, message) => Some(Ok((value, Some(message)))),
            _ => Some(Err(lost(v))),
        }
    }

    /// The item (map of attribute values) `v` stands for, if `v` is a marker, with its first flaw's
    /// message, as [`Predecoded::value`].
    pub(crate) fn item(&mut self, v: &Value) -> Option<WireResult<Flawed<Item>>> {
        match self.take(v)? {
            Slot::Item(item) => Some(Ok((item, None))),
            Slot::FlawedItem(item, message) => Some(Ok((item, Some(message)))),
            Slot::PartialItem(item, flaw) => Some(Ok((item, flaw))),
            Slot::ReducedValues(values) | Slot::ResizedValues(values) => Some(Ok((values, None))),
            _ => Some(Err(lost(v))),
        }
    }

    /// The BatchGetItem key `v` stands for, with its spelling, if `v` is a marker.
    pub(crate) fn key(&mut self, v: &Value) -> Option<WireResult<(Item, Option<Vec<u8>>)>> {
        match self.take(v)? {
            Slot::Key(key, spelling) => Some(Ok((key, spelling))),
            _ => Some(Err(lost(v))),
        }
    }

    /// Whether `v` is a BatchGetItem key past its table's limit, checked and not built (see
    /// `keys`): the decoder skips it.
    pub(crate) fn is_counted_key(&self, v: &Value) -> bool {
        self.active && v.as_u64() == Some(keys::COUNTED_KEY)
    }

    /// The write requests past the limit `v` stands for, if `v` (the last element of a table's
    /// list in the skeleton) is a marker (see `writes`).
    pub(crate) fn writes(&mut self, v: &Value) -> Option<WireResult<Vec<WriteRequest>>> {
        match self.take(v)? {
            Slot::Writes(writes) => Some(Ok(writes)),
            _ => Some(Err(lost(v))),
        }
    }

    /// The actions past the limit `v` stands for, if `v` (the last element of `TransactItems` in
    /// the skeleton) is a marker (see `writes`).
    pub(crate) fn actions(&mut self, v: &Value) -> Option<WireResult<Vec<TransactWriteItem>>> {
        match self.take(v)? {
            Slot::Actions(actions) => Some(Ok(actions)),
            _ => Some(Err(lost(v))),
        }
    }

    /// Whether writes past a list's limit were read in compact form (for the server's tests).
    #[cfg(all(test, feature = "server"))]
    pub(crate) fn has_past_limit(&self) -> bool {
        self.slots
            .iter()
            .any(|slot| matches!(slot, Slot::Writes(_) | Slot::Actions(_)))
    }

    /// The `ExpressionAttributeNames` map `v` stands for, if `v` is a marker.
    pub(crate) fn names(&mut self, v: &Value) -> Option<WireResult<ExpressionAttributeNames>> {
        match self.take(v)? {
            Slot::Names(names) | Slot::ReducedNames(names) => Some(Ok(names)),
            _ => Some(Err(lost(v))),
        }
    }

    /// The unused keys the reduced maps stand for, if the request's maps were reduced (see
    /// `unused`): what restores the engine's answer to the whole maps.
    pub(crate) fn take_unused(&mut self) -> Option<Unused> {
        if !self.active {
            return None;
        }
        let reduced: Vec<unused::Reduced> = self
            .slots
            .iter_mut()
            .filter_map(|slot| match slot {
                Slot::Unused(_) => match mem::replace(slot, Slot::Taken) {
                    Slot::Unused(reduced) => Some(reduced),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        (!reduced.is_empty()).then(|| Unused::new(reduced))
    }

    /// Takes the slot of the marker `v`. In a skeleton a JSON number where an attribute value, an
    /// item, a names map or a legacy parameter belongs can only be a marker: the seeds refuse a
    /// number there.
    fn take(&mut self, v: &Value) -> Option<Slot> {
        if !self.active {
            return None;
        }
        let index = usize::try_from(v.as_u64()?).ok()?;
        Some(
            self.slots
                .get_mut(index)
                .map_or(Slot::Taken, |slot| mem::replace(slot, Slot::Taken)),
        )
    }

    /// Stores a decoded value and returns its marker.
    fn mark(slots: &mut Vec<Slot>, slot: Slot) -> Value {
        slots.push(slot);
        Value::from(slots.len() - 1)
    }
}

/// A marker that stands for nothing, or was taken twice: a bug of this module, answered as an
/// internal error rather than with a wrong value.
fn lost(marker: &Value) -> Fault {
    Fault::Backend(Error::Service {
        code: "InternalServerError".into(),
        message: format!("the one-pass decoder lost the attribute value of marker {marker}"),
    })
}

#[cfg(test)]
thread_local! {
    /// How many bodies this thread's one pass cut a list out of (`splice`), for the tests.
    pub(crate) static CUTS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
pub(crate) mod oracle;
// The corpus replay and the generator drive the fuzzing entry points, which need the server.
#[cfg(all(test, feature = "server"))]
mod tests;
// The legacy maps against the exact path, as `tests` does.
#[cfg(all(test, feature = "server"))]
mod tests_legacy;
