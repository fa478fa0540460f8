//! The usual entry of an over-long list of writes, read from the body's raw text without serde_json:
//! a `PutRequest` or `DeleteRequest` (a transaction's `Put` or `Delete` with its `TableName`) whose
//! item holds `S` and `N` values only (`splice` cuts such entries out of the body).
//!
//! [`entries`] reads entries from a position in the body while they have the usual shape: the
//! members' names spelled without escapes, each once, strings without escapes or control
//! characters, JSON whitespace, every number one [`Number::parse`] takes, every attribute name one
//! the model's key shape takes, each entry followed by a comma or the list's end. It stops at the
//! first entry it declines, which is left to serde_json and the seeds (`writes`), as is everything
//! after it. So what it takes is JSON, and is what the seeds make of the same text: the same typed
//! request, members of the same name the last one kept ([`sorted`]); the tests hold the two equal.

use dynomodel::backend::{TransactDelete, TransactPut, TransactWriteItem, WriteRequest};
use dynomodel::{AttributeValue, Item, Number};

use super::raw::RawJson;
use super::splice::Scanned;
use super::value::sorted;
use crate::protocol::model::{self, Kind, Service};

/// The shapes the scanner needs, resolved once per list: the key shape of each item's map.
#[derive(Clone, Copy)]
pub(super) struct Shapes {
    service: &'static Service,
    /// The key shape of a `PutRequest`'s `Item` (a transaction's `Put`'s).
    put: usize,
    /// The key shape of a `DeleteRequest`'s `Key` (a transaction's `Delete`'s).
    delete: usize,
}

impl Shapes {
    /// The shapes of the entries of `element` (`WriteRequest` or `TransactWriteItem`), whose members
    /// `put` and `delete` hold an `Item` and a `Key`; `None` if the model says otherwise.
    pub(super) fn of(
        service: &'static Service,
        element: usize,
        put: &str,
        delete: &str,
    ) -> Option<Shapes> {
        Some(Shapes {
            service,
            put: map_key(service, member(service, element, put)?, "Item")?,
            delete: map_key(service, member(service, element, delete)?, "Key")?,
        })
    }
}

/// The shape of the member `name` of the structure `shape`.
fn member(service: &Service, shape: usize, name: &str) -> Option<usize> {
    match &service.shapes[shape].kind {
        Kind::Structure(members) => members.iter().find(|m| m.name == name).map(|m| m.shape),
        _ => None,
    }
}

/// The key shape of the map that is the member `name` of the structure `shape`.
fn map_key(service: &Service, shape: usize, name: &str) -> Option<usize> {
    match &service.shapes[member(service, shape, name)?].kind {
        Kind::Map { key, .. } => Some(*key),
        _ => None,
    }
}

/// A reader of one entry's raw JSON text (see the module docs).
pub(super) struct Scanner<'t> {
    text: &'t str,
    at: usize,
    /// The members of the item of two or more read last, at most [`MEMBERS_HINT`]: the room
    /// the next one's vector starts with (a batch's items are alike; grown by doubling, the
    /// vector of an item of thousands of members was copied about once more).
    members: usize,
}

/// The most members an item's vector starts with room for (~900 KB, so that a small item after
/// a large one does not ask for megabytes), as the seeds' `Shared::members`.
const MEMBERS_HINT: usize = 16_384;

impl<'t> RawJson<'t> for Scanner<'t> {
    #[inline]
    fn text(&self) -> &'t str {
        self.text
    }

    #[inline]
    fn at(&mut self) -> &mut usize {
        &mut self.at
    }
}

/// The entries of a list of `TransactWriteItem`s (`transact`) or `WriteRequest`s read from `text`
/// at `from` (an entry's start) while they have the usual shape (module docs), at most `most` of
/// them: the entries, where the scanner stopped (the closing bracket, or the first entry it
/// declined or that would pass `most`) and whether the list ended there.
pub(super) fn entries(
    text: &str,
    from: usize,
    transact: bool,
    shapes: Shapes,
    most: usize,
) -> (Scanned, usize, bool) {
    let mut s = Scanner {
        text,
        at: from,
        members: 0,
    };
    // The over-long lists' loop without a count (a check per entry cost ~1 % of theirs).
    let mut left = most;
    let mut counted = || left.checked_sub(1).map(|rest| left = rest);
    if transact {
        let mut actions = Vec::new();
        let (to, closed) = match most {
            usize::MAX => s.each(&mut actions, |s| s.action(shapes)),
            _ => s.each(&mut actions, |s| counted().and_then(|()| s.action(shapes))),
        };
        (Scanned::Actions(actions), to, closed)
    } else {
        let mut writes = Vec::new();
        let (to, closed) = match most {
            usize::MAX => s.each(&mut writes, |s| s.write_request(shapes)),
            _ => s.each(&mut writes, |s| {
                counted().and_then(|()| s.write_request(shapes))
            }),
        };
        (Scanned::Writes(writes), to, closed)
    }
}

impl<'t> Scanner<'t> {
    /// Entries read by `entry` into `out` while it takes them and a comma or the list's end
    /// follows (an entry followed by anything else is declined): where it stopped, and whether at
    /// the list's end.
    fn each<T>(
        &mut self,
        out: &mut Vec<T>,
        mut entry: impl FnMut(&mut Self) -> Option<T>,
    ) -> (usize, bool) {
        let from = self.at;
        loop {
            self.skip_whitespace();
            let start = self.at;
            let Some(taken) = entry(self) else {
                return (start, false);
            };
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    out.push(taken);
                    return (self.at, true);
                }
                _ => return (start, false),
            }
            if out.len() == out.capacity() {
                self.reserve_rest(out, from);
            }
            out.push(taken);
        }
    }

    /// Room in `out`, full, for as many more entries as the rest of the text holds if they are
    /// as long as the ones read from `from` so far (at least doubling it, as a push would): an
    /// over-long list holds tens of thousands of entries, and a vector grown by doubling copies
    /// them about once more. At most the text's length over the entries' average (40 bytes or
    /// more) is reserved, so a few times the text in memory at worst.
    fn reserve_rest<T>(&self, out: &mut Vec<T>, from: usize) {
        let read = self.at - from;
        let average = (read / (out.len() + 1)).max(1);
        out.reserve((self.text.len() - self.at) / average + 1);
    }

    /// A BatchWriteItem `WriteRequest`: `{"PutRequest": {"Item": {…}}}` or
    /// `{"DeleteRequest": {"Key": {…}}}`.
    // Inlined into each of the two loops that call it, as it was into the one (out of line, a
    // call per entry and its punctuation's reads out of line too: +0.9 % for an over-long batch).
    #[inline(always)]
    fn write_request(&mut self, shapes: Shapes) -> Option<WriteRequest> {
        let s = self;
        s.byte(b'{')?;
        let request = match s.string()? {
            "PutRequest" => {
                s.byte(b':')?;
                s.byte(b'{')?;
                s.name("Item")?;
                WriteRequest::Put {
                    item: s.item(shapes.service, shapes.put)?,
                }
            }
            "DeleteRequest" => {
                s.byte(b':')?;
                s.byte(b'{')?;
                s.name("Key")?;
                WriteRequest::Delete {
                    key: s.item(shapes.service, shapes.delete)?,
                }
            }
            _ => return None,
        };
        s.byte(b'}')?;
        s.byte(b'}')?;
        Some(request)
    }

    /// A TransactWriteItems `TransactWriteItem`: `{"Put": {"TableName": "…", "Item": {…}}}` or
    /// `{"Delete": {"TableName": "…", "Key": {…}}}`, the two members in either order.
    #[inline(always)]
    fn action(&mut self, shapes: Shapes) -> Option<TransactWriteItem> {
        let s = self;
        s.byte(b'{')?;
        let (put, item_member, key_shape) = match s.string()? {
            "Put" => (true, "Item", shapes.put),
            "Delete" => (false, "Key", shapes.delete),
            _ => return None,
        };
        s.byte(b':')?;
        s.byte(b'{')?;
        let mut table_name = None;
        let mut item = None;
        for i in 0..2 {
            if i > 0 {
                s.byte(b',')?;
            }
            let name = s.string()?;
            s.byte(b':')?;
            if name == "TableName" && table_name.is_none() {
                table_name = Some(s.string()?.to_owned());
            } else if name == item_member && item.is_none() {
                item = Some(s.item(shapes.service, key_shape)?);
            } else {
                return None;
            }
        }
        s.byte(b'}')?;
        s.byte(b'}')?;
        let (table_name, item) = (table_name?, item?);
        Some(if put {
            TransactWriteItem::Put(TransactPut {
                table_name,
                item,
                condition_expression: None,
                expression_attribute_names: None,
                expression_attribute_values: None,
                return_values_on_condition_check_failure: None,
            })
        } else {
            TransactWriteItem::Delete(TransactDelete {
                table_name,
                key: item,
                condition_expression: None,
                expression_attribute_names: None,
                expression_attribute_values: None,
                return_values_on_condition_check_failure: None,
            })
        })
    }

    /// The member name `name`, then its colon.
    #[inline]
    fn name(&mut self, name: &str) -> Option<()> {
        (self.string()? == name).then_some(())?;
        self.byte(b':')
    }

    /// A map of attribute values whose names the key shape `key_shape` takes, each value `S` or
    /// `N`; members of the same name keep the last, as `writes::ItemSeed` keeps them.
    fn item(&mut self, service: &Service, key_shape: usize) -> Option<Item> {
        self.byte(b'{')?;
        let mut item = Item::new();
        if self.peek()? == b'}' {
            self.at += 1;
            return Some(item);
        }
        let first = self.member(service, key_shape)?;
        if self.peek()? == b'}' {
            self.at += 1;
            item.insert(first.0, first.1);
            return Some(item);
        }
        let mut members = Vec::with_capacity(self.members.max(2));
        members.push(first);
        while self.peek()? == b',' {
            self.at += 1;
            members.push(self.member(service, key_shape)?);
        }
        self.members = members.len().min(MEMBERS_HINT);
        self.byte(b'}')?;
        Some(sorted(members))
    }

    /// One member of an item: `"name": {"S": "…"}` or `"name": {"N": "…"}`.
    #[inline]
    fn member(&mut self, service: &Service, key_shape: usize) -> Option<(String, AttributeValue)> {
        let name = self.string()?;
        if !model::key_is_valid(service, key_shape, name) {
            return None;
        }
        self.byte(b':')?;
        self.byte(b'{')?;
        let tag = self.string()?;
        self.byte(b':')?;
        let text = self.string()?;
        let value = match tag {
            "S" => AttributeValue::S(text.to_owned()),
            "N" => AttributeValue::N(Number::parse(text).ok()?),
            _ => return None,
        };
        self.byte(b'}')?;
        Some((name.to_owned(), value))
    }
}

/// Whether `text` (JSON) nests deeper than `limit` arrays and objects: serde_json stops at a depth
/// of its own, which an entry read apart from its request would not share (see `writes`).
pub(super) fn nests_deeper_than(text: &str, limit: usize) -> bool {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in text.as_bytes() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests;
