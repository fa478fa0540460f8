//! The usual entries of a legacy map (`Expected`, `KeyConditions`, `QueryFilter`, `ScanFilter`,
//! `AttributeUpdates`), read from the body's raw text without serde_json and cut out of the body,
//! as `scan` and `splice` do for the over-long lists of writes.
//!
//! [`entries`] reads a map's entries from its first while they have the usual shape: the entry's
//! name spelled without escapes or control characters and one its key shape takes; an object of
//! the members its type reads (`Value`, `Exists`, `ComparisonOperator`, `AttributeValueList`,
//! `Action`), each once, spelled without escapes; values `null`, `true`/`false`, the enums' words,
//! `{"S": "…"}` (no escapes or control characters) and `{"N": "…"}` (a text [`Number::parse`]
//! takes), lists of these; JSON whitespace; each entry followed by a comma or the map's end. It
//! stops at the first entry it declines, which is left to serde_json and the seeds (`legacy`), as
//! is everything after it. What it takes is JSON, and what the seeds make of the same text (the
//! same typed entry; of names sent twice the map keeps the last, as the seeds' entries do; a
//! condition without its `ComparisonOperator` is declined, as the seeds refuse it).
//!
//! serde_json cannot skip text, so the first parse learns where a map begins from the address of
//! its first name, borrowed from the body ([`Cut::try_cut`]); if the scanner reads at least
//! [`MIN_CUT`] bytes and as many as precede the map, the parse stops and the one pass parses the
//! body again without those entries, which the map's seed puts first among its entries
//! ([`Cut::take_scanned`]). One cut a request: a request costs at most about twice its parse.

use std::cell::{Cell, RefCell};

use dynomodel::backend::{
    AttributeAction, AttributeValueUpdate, ComparisonOperator, ExpectedAttributeValue,
    LegacyCondition,
};
use dynomodel::{AttributeValue, Number};

use super::legacy::{action_named, operator_named};
use super::raw::RawJson;
use crate::protocol::model::{self, Service};

/// The fewest bytes of entries worth a second parse of what precedes them: a short map read by the
/// seeds costs less than the scan, the copy of the body and the second parse's fixed cost.
const MIN_CUT: usize = 4096;

/// The entries the scanner read, by the map's type.
#[derive(Debug)]
pub(super) enum Scanned {
    Expected(Vec<(String, ExpectedAttributeValue)>),
    Conditions(Vec<(String, LegacyCondition)>),
    Updates(Vec<(String, AttributeValueUpdate)>),
}

/// Where the entries were cut from the body, and what they were.
#[derive(Debug)]
pub(super) struct Made {
    /// The map's ordinal among the body's legacy maps.
    map: usize,
    /// The first entry's offset (its name's opening quote).
    from: usize,
    /// The map's closing brace's offset, or the first entry left's.
    to: usize,
    entries: Scanned,
}

impl Made {
    /// `body` without the entries cut.
    pub(super) fn body(&self, body: &str) -> Option<String> {
        let (head, tail) = (body.get(..self.from)?, body.get(self.to..)?);
        let mut out = String::with_capacity(head.len() + tail.len());
        out.push_str(head);
        out.push_str(tail);
        Some(out)
    }
}

/// The state of the cut over one parse of a body: the first parse may make one; the second hands
/// its entries to their map.
pub(super) struct Cut<'t> {
    /// The body parsed.
    text: &'t str,
    /// Whether this parse may still cut a map.
    armed: Cell<bool>,
    /// The legacy maps met so far.
    maps: Cell<usize>,
    /// The cut made by this parse.
    made: RefCell<Option<Made>>,
    /// The entries cut by the parse before, for the map of that ordinal.
    scanned: RefCell<Option<(usize, Scanned)>>,
}

impl<'t> Cut<'t> {
    /// A first parse of `text`: a legacy map in it may be cut.
    pub(super) fn new(text: &'t str) -> Self {
        Cut {
            text,
            armed: Cell::new(true),
            maps: Cell::new(0),
            made: RefCell::new(None),
            scanned: RefCell::new(None),
        }
    }

    /// A parse that cuts nothing.
    pub(super) fn off() -> Cut<'static> {
        let cut = Cut::new("");
        cut.armed.set(false);
        cut
    }

    /// The parse of the body without the entries `made` took out, which go to their map.
    pub(super) fn resumed(made: Made) -> Cut<'static> {
        let cut = Cut::off();
        *cut.scanned.borrow_mut() = Some((made.map, made.entries));
        cut
    }

    /// A legacy map begins: its ordinal.
    pub(super) fn next_map(&self) -> usize {
        let map = self.maps.get();
        self.maps.set(map + 1);
        map
    }

    /// Whether this parse may cut a map.
    pub(super) fn armed(&self) -> bool {
        self.armed.get()
    }

    /// The entries cut for the map `map`, if any (`None` too if they are not `T`s, which the same
    /// map of the same body cannot be).
    pub(super) fn take_scanned<T: Scan>(&self, map: usize) -> Option<Vec<(String, T)>> {
        let mut scanned = self.scanned.borrow_mut();
        match &*scanned {
            Some((of, _)) if *of == map => scanned.take().and_then(|(_, s)| T::unwrap(s)),
            _ => None,
        }
    }

    /// Tries the cut at the map `map` whose first name is `name`, at `address` (a slice of the body
    /// if serde_json borrowed it) and whose names have the key shape `key`: true if it is made, and
    /// the parse is to stop. A map too short for the cut stays armed for the next.
    pub(super) fn try_cut<T: Scan>(
        &self,
        map: usize,
        name: &str,
        address: usize,
        service: &Service,
        key: usize,
    ) -> bool {
        let Some(start) = address.checked_sub(self.text.as_ptr().addr()) else {
            return false;
        };
        if start == 0 || self.text.get(start..start + name.len()) != Some(name) {
            return false;
        }
        let from = start - 1;
        let (scanned, to) = entries::<T>(self.text, from, service, key);
        // Worth the second parse of what precedes it (module docs).
        if scanned.is_empty() || to - from < from.max(MIN_CUT) {
            return false;
        }
        self.armed.set(false);
        *self.made.borrow_mut() = Some(Made {
            map,
            from,
            to,
            entries: T::wrap(scanned),
        });
        true
    }

    /// The cut made by this parse, if any.
    pub(super) fn take_made(&self) -> Option<Made> {
        self.made.borrow_mut().take()
    }
}

/// The members of an entry the scanner read: each `None` until read, then its value (`None` for
/// `null`).
#[derive(Default)]
pub(super) struct Members {
    value: Option<Option<AttributeValue>>,
    exists: Option<Option<bool>>,
    operator: Option<Option<ComparisonOperator>>,
    list: Option<Option<Vec<AttributeValue>>>,
    action: Option<Option<AttributeAction>>,
}

/// An entry's type as the scanner reads it: the members it takes (any other is declined: the
/// seeds read and drop it) and the entry made of them.
pub(super) trait Scan: Sized {
    /// Takes `Value`, `Exists`, `ComparisonOperator`, `AttributeValueList`, `Action`.
    const TAKES: [bool; 5];
    /// The entry, or `None` where the seeds refuse it.
    fn build(members: Members) -> Option<Self>;
    fn wrap(entries: Vec<(String, Self)>) -> Scanned;
    fn unwrap(scanned: Scanned) -> Option<Vec<(String, Self)>>;
}

impl Scan for ExpectedAttributeValue {
    const TAKES: [bool; 5] = [true, true, true, true, false];

    #[inline]
    fn build(m: Members) -> Option<Self> {
        Some(ExpectedAttributeValue {
            value: m.value.flatten(),
            exists: m.exists.flatten(),
            comparison_operator: m.operator.flatten(),
            attribute_value_list: m.list.flatten(),
        })
    }

    fn wrap(entries: Vec<(String, Self)>) -> Scanned {
        Scanned::Expected(entries)
    }

    fn unwrap(scanned: Scanned) -> Option<Vec<(String, Self)>> {
        match scanned {
            Scanned::Expected(entries) => Some(entries),
            _ => None,
        }
    }
}

impl Scan for LegacyCondition {
    const TAKES: [bool; 5] = [false, false, true, true, false];

    #[inline]
    fn build(m: Members) -> Option<Self> {
        Some(LegacyCondition {
            // Required: the seeds refuse a condition without one.
            comparison_operator: m.operator.flatten()?,
            attribute_value_list: m.list.flatten(),
        })
    }

    fn wrap(entries: Vec<(String, Self)>) -> Scanned {
        Scanned::Conditions(entries)
    }

    fn unwrap(scanned: Scanned) -> Option<Vec<(String, Self)>> {
        match scanned {
            Scanned::Conditions(entries) => Some(entries),
            _ => None,
        }
    }
}

impl Scan for AttributeValueUpdate {
    const TAKES: [bool; 5] = [true, false, false, false, true];

    #[inline]
    fn build(m: Members) -> Option<Self> {
        Some(AttributeValueUpdate {
            value: m.value.flatten(),
            action: m.action.flatten(),
        })
    }

    fn wrap(entries: Vec<(String, Self)>) -> Scanned {
        Scanned::Updates(entries)
    }

    fn unwrap(scanned: Scanned) -> Option<Vec<(String, Self)>> {
        match scanned {
            Scanned::Updates(entries) => Some(entries),
            _ => None,
        }
    }
}

/// The entries of a map of `T`s whose names have the key shape `key`, read from `text` at `from`
/// (an entry's opening quote) while they have the usual shape (module docs): the entries, and
/// where the scanner stopped: the map's closing brace, or the first entry it declined; where what
/// follows a comma is not an entry's quote (JSON would refuse it, the map without the entries
/// would not), no entries. Never inlined: in the seed's large `visit_map` the reader's state
/// lives in memory, not in registers.
#[inline(never)]
pub(super) fn entries<T: Scan>(
    text: &str,
    from: usize,
    service: &Service,
    key: usize,
) -> (Vec<(String, T)>, usize) {
    let mut s = Reader { text, at: from };
    let mut out = Vec::new();
    loop {
        s.skip_whitespace();
        let start = s.at;
        if s.text.as_bytes().get(start) != Some(&b'"') {
            return (Vec::new(), from);
        }
        let Some(entry) = s.entry::<T>(service, key) else {
            return (out, start);
        };
        match s.peek() {
            Some(b',') => s.at += 1,
            Some(b'}') => {
                out.push(entry);
                return (out, s.at);
            }
            _ => return (out, start),
        }
        // From sixteen on: a short map's vector grows as usual.
        if out.len() == out.capacity() && out.len() >= 16 {
            reserve_rest(&mut out, s.at - from, s.text.len() - s.at);
        }
        out.push(entry);
    }
}

/// Room in `out`, full, for as many more entries as `rest` bytes hold if they are as long as the
/// `read` bytes of those read so far (at least doubling it, as a push would): a long map's vector
/// grown by doubling writes its entries about twice, each time into memory the system must clear
/// first. Room never written is never touched; at most the text's length over the average entry is
/// reserved.
fn reserve_rest<T>(out: &mut Vec<T>, read: usize, rest: usize) {
    let average = (read / (out.len() + 1)).max(1);
    out.reserve((rest / average + 1).max(out.len()));
}

/// A reader of a legacy map's raw JSON text (see the module docs).
struct Reader<'t> {
    text: &'t str,
    at: usize,
}

impl<'t> RawJson<'t> for Reader<'t> {
    #[inline]
    fn text(&self) -> &'t str {
        self.text
    }

    #[inline]
    fn at(&mut self) -> &mut usize {
        &mut self.at
    }
}

impl<'t> Reader<'t> {
    /// One entry: its name, then an object of `T`'s members.
    #[inline]
    fn entry<T: Scan>(&mut self, service: &Service, key: usize) -> Option<(String, T)> {
        let name = self.string()?;
        if !model::key_is_valid(service, key, name) {
            return None;
        }
        self.byte(b':')?;
        self.byte(b'{')?;
        let mut m = Members::default();
        if self.peek()? == b'}' {
            self.at += 1;
        } else {
            loop {
                let member = self.member()?;
                self.byte(b':')?;
                match member {
                    Member::Value if T::TAKES[0] && m.value.is_none() => {
                        m.value = Some(self.av()?);
                    }
                    Member::Exists if T::TAKES[1] && m.exists.is_none() => {
                        m.exists = Some(self.boolean()?);
                    }
                    Member::ComparisonOperator if T::TAKES[2] && m.operator.is_none() => {
                        m.operator = Some(self.word(operator_named)?);
                    }
                    Member::AttributeValueList if T::TAKES[3] && m.list.is_none() => {
                        m.list = Some(self.list()?);
                    }
                    Member::Action if T::TAKES[4] && m.action.is_none() => {
                        m.action = Some(self.word(action_named)?);
                    }
                    _ => return None,
                }
                match self.peek()? {
                    b',' => self.at += 1,
                    b'}' => {
                        self.at += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        Some((name.to_owned(), T::build(m)?))
    }

    /// `null` or an attribute value `{"S": "…"}` or `{"N": "…"}`.
    #[inline]
    fn av(&mut self) -> Option<Option<AttributeValue>> {
        if self.peek()? == b'n' {
            return self.literal(b"null").map(|()| None);
        }
        self.byte(b'{')?;
        // The tag's three bytes at once.
        self.skip_whitespace();
        let string = match self.text.as_bytes().get(self.at..self.at + 3)? {
            b"\"S\"" => true,
            b"\"N\"" => false,
            _ => return None,
        };
        self.at += 3;
        self.byte(b':')?;
        let text = self.string()?;
        let value = if string {
            AttributeValue::S(text.to_owned())
        } else {
            AttributeValue::N(Number::parse(text).ok()?)
        };
        self.byte(b'}')?;
        Some(Some(value))
    }

    /// `null` or a list of attribute values, whose `null`s are left out (as the seeds leave them).
    fn list(&mut self) -> Option<Option<Vec<AttributeValue>>> {
        match self.peek()? {
            b'n' => return self.literal(b"null").map(|()| None),
            b'[' => self.at += 1,
            _ => return None,
        }
        let mut out = Vec::new();
        if self.peek()? == b']' {
            self.at += 1;
            return Some(Some(out));
        }
        loop {
            if let Some(value) = self.av()? {
                out.push(value);
            }
            match self.peek()? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Some(Some(out));
                }
                _ => return None,
            }
        }
    }

    /// `null`, `true` or `false`.
    #[inline]
    fn boolean(&mut self) -> Option<Option<bool>> {
        match self.peek()? {
            b't' => self.literal(b"true").map(|()| Some(true)),
            b'f' => self.literal(b"false").map(|()| Some(false)),
            b'n' => self.literal(b"null").map(|()| None),
            _ => None,
        }
    }

    /// `null` or a string `parse` takes.
    #[inline]
    fn word<T>(&mut self, parse: fn(&str) -> Option<T>) -> Option<Option<T>> {
        if self.peek()? == b'n' {
            return self.literal(b"null").map(|()| None);
        }
        parse(self.string()?).map(Some)
    }

    /// A member's name, one of the five an entry may have, spelled without escapes (its bytes
    /// compared at once, without a string read).
    #[inline]
    fn member(&mut self) -> Option<Member> {
        self.byte(b'"')?;
        let rest = self.text.as_bytes().get(self.at..)?;
        let (member, len) = match rest.first()? {
            b'V' if rest.starts_with(b"Value\"") => (Member::Value, 6),
            b'E' if rest.starts_with(b"Exists\"") => (Member::Exists, 7),
            b'C' if rest.starts_with(b"ComparisonOperator\"") => (Member::ComparisonOperator, 19),
            b'A' if rest.starts_with(b"Action\"") => (Member::Action, 7),
            b'A' if rest.starts_with(b"AttributeValueList\"") => (Member::AttributeValueList, 19),
            _ => return None,
        };
        self.at += len;
        Some(member)
    }
}

/// The members an entry may have.
#[derive(Clone, Copy)]
enum Member {
    Value,
    Exists,
    ComparisonOperator,
    AttributeValueList,
    Action,
}

#[cfg(test)]
mod tests;
