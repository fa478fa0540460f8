//! An over-long list of writes cut out of the body: its entries past the limit read by the scanner
//! (`scan`) straight from the body's text, and the body parsed again without them.
//!
//! serde_json cannot skip text, so an entry it reads costs its scan even when the scanner reads the
//! entry (a `RawValue`: about as much as the seeds' reading of it, docs/performance.md). Instead the
//! first parse stops at the first over-long list's first entry past the limit, whose position in
//! the body it learns from that entry's raw text; the scanner reads the entries from there, each
//! followed by a comma or the list's end, until one it declines or the list's end; and the one pass
//! parses the body again with those entries cut out, handing them to that list ([`Splice`]), which
//! puts them first among its entries past the limit. The list's other entries, and every other
//! over-long list, are read as before. A list within its limit is cut whole when the scanner
//! takes every entry of it ([`Awaited`], [`Splice::try_cut_list`]).
//!
//! What the first parse read before the cut is parsed twice, so the cut is made only when it takes
//! out at least as many bytes as precede it, and only once a request: a request costs at most
//! twice its parse, however its lists are laid out. The scanner checks the JSON it takes (strings
//! without control characters, JSON whitespace, exact punctuation), so the body the one pass reads
//! is JSON exactly when the whole body is; whatever it declines is left in the body.
//!
//! A list of writes' first entry, in a parse that may cut ([`Awaited`]): where the list begins in the
//! body, learned from the entry's first key, so that a list of the scanner's usual entries
//! (`scan`) within its limit is cut out whole and read by the scanner rather than by serde_json
//! and the seeds (a valid BatchWriteItem or TransactWriteItems of `S` and `N` items, whose
//! members were most of its cost).
//!
//! serde_json says nowhere where it is in the text, but a key without escapes is handed to the
//! visitor as a slice of the body: the entry's `{` is the last byte before it that is not JSON
//! whitespace. From there the scanner reads entries; if it takes every one of them, at most the
//! limit's number, the cut is made (`Splice::try_cut_list`) and the parse stops. Otherwise the
//! entry is read as any other, its first key handed back to the structure's reader
//! ([`Splice::first_key`], called by `skeleton`'s structure reader while a list awaits it; a
//! wrapper of the map was tried, and its second call sites of serde_json's key and value reads put
//! them out of line in other readers: `Expected` +4 %): the scanner's reading of the entries it took is lost, at most the limit's number of entries
//! (what the seeds then read again), so a request still costs at most about twice its parse.
//!
//! Cut whole, the list is `[marker]` in the skeleton: one element where the request has between
//! one and the limit, so the model's bounds on the list's length (1 to 25, 1 to 100) pass alike,
//! and the decoder takes every entry from the marker's slot.

use std::cell::{Cell, RefCell};
use std::fmt;

use dynomodel::backend::{TransactWriteItem, WriteRequest};
use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, Visitor};

use super::scan::{self, Shapes};
use super::value::anomaly;

/// The entries the scanner read.
#[derive(Debug)]
pub(super) enum Scanned {
    Writes(Vec<WriteRequest>),
    Actions(Vec<TransactWriteItem>),
}

/// Where the entries were cut from the body, and what they were.
#[derive(Debug)]
pub(super) struct Cut {
    /// The list's ordinal among the body's lists of writes.
    list: usize,
    /// The first entry's offset.
    from: usize,
    /// Whether the first entry cut is the list's first (the whole list was cut).
    whole: bool,
    /// The list's closing bracket's offset (`closed`), else the first entry left's.
    to: usize,
    closed: bool,
    entries: Scanned,
}

/// The state of the cut over one parse of a body: the first parse may make one; the second hands
/// its entries to their list.
pub(super) struct Splice<'t> {
    /// The body parsed.
    text: &'t str,
    /// Whether this parse may still cut a list.
    armed: Cell<bool>,
    /// The lists of writes met so far.
    lists: Cell<usize>,
    /// The cut made by this parse.
    cut: RefCell<Option<Cut>>,
    /// The list whose first entry's first key is awaited (module docs).
    awaited: Cell<Option<Awaited>>,
    /// The entries cut by the parse before, for the list of that ordinal.
    scanned: RefCell<Option<(usize, Scanned)>>,
}

impl<'t> Splice<'t> {
    /// A first parse of `text`: its first over-long list may be cut.
    pub(super) fn new(text: &'t str) -> Self {
        Splice {
            text,
            armed: Cell::new(true),
            lists: Cell::new(0),
            cut: RefCell::new(None),
            scanned: RefCell::new(None),
            awaited: Cell::new(None),
        }
    }

    /// A parse that cuts nothing.
    pub(super) fn off() -> Splice<'static> {
        let splice = Splice::new("");
        splice.armed.set(false);
        splice
    }

    /// The parse of the body without the entries `cut` took out, which go to their list.
    pub(super) fn resumed(cut: Cut) -> Splice<'static> {
        let splice = Splice::off();
        *splice.scanned.borrow_mut() = Some((cut.list, cut.entries));
        splice
    }

    /// A list of writes begins: its ordinal.
    pub(super) fn next_list(&self) -> usize {
        let list = self.lists.get();
        self.lists.set(list + 1);
        list
    }

    /// The entries cut for the list `list`, if any.
    pub(super) fn take_scanned(&self, list: usize) -> Option<Scanned> {
        let mut scanned = self.scanned.borrow_mut();
        match &*scanned {
            Some((of, _)) if *of == list => scanned.take().map(|(_, entries)| entries),
            _ => None,
        }
    }

    /// Whether this parse may cut a list.
    pub(super) fn armed(&self) -> bool {
        self.armed.get()
    }

    /// Tries the cut at `entry`, the raw text of the first entry past the limit of the list `list`
    /// (a slice of the body): true if it is made, and the parse is to stop. Tried once a parse.
    pub(super) fn try_cut(&self, list: usize, entry: &str, transact: bool, shapes: Shapes) -> bool {
        if !self.armed.replace(false) {
            return false;
        }
        let Some(from) = entry.as_ptr().addr().checked_sub(self.text.as_ptr().addr()) else {
            return false;
        };
        if self.text.get(from..from + entry.len()) != Some(entry) {
            return false;
        }
        let (entries, to, closed) = scan::entries(self.text, from, transact, shapes, usize::MAX);
        // Worth the second parse of what precedes it (module docs).
        if count(&entries) == 0 || to - from < from {
            return false;
        }
        *self.cut.borrow_mut() = Some(Cut {
            list,
            from,
            whole: false,
            to,
            closed,
            entries,
        });
        true
    }

    /// Tries the cut of the whole list `awaited`, whose first entry begins at `from` in the body:
    /// true if the scanner takes every entry, at most the list's limit, and the cut is made (the
    /// parse is to stop). Unlike [`Splice::try_cut`], a list not cut leaves the parse armed, for
    /// the cut past this list's limit.
    fn try_cut_list(&self, awaited: Awaited, from: usize) -> bool {
        let Awaited {
            list,
            transact,
            limit,
            shapes,
        } = awaited;
        // Worth the second parse of what precedes it, even if the list ran to the body's end.
        if !self.armed.get() || self.text.len() - from < from {
            return false;
        }
        let (entries, to, closed) = scan::entries(self.text, from, transact, shapes, limit);
        if !closed || count(&entries) == 0 || to - from < from {
            return false;
        }
        self.armed.set(false);
        *self.cut.borrow_mut() = Some(Cut {
            list,
            from,
            whole: true,
            to,
            closed,
            entries,
        });
        true
    }

    /// The next structure read is the first entry of a list of writes: its first key is to be
    /// read by [`Splice::first_key`] (until [`Splice::stop_awaiting`]).
    pub(super) fn await_first(&self, awaited: Awaited) {
        self.awaited.set(Some(awaited));
    }

    /// No structure read from now on is a list's first entry.
    #[inline]
    pub(super) fn stop_awaiting(&self) {
        self.awaited.set(None);
    }

    /// Whether a structure read now is a list's first entry, whose first key is to be read by
    /// [`Splice::first_key`].
    #[inline]
    pub(super) fn awaits(&self) -> bool {
        self.awaited.get().is_some()
    }

    /// A list's first entry's first key, read from `map` (the entry's members): the whole list cut
    /// from the entry's start if the scanner takes it (an anomaly error: the parse stops), else
    /// the key, for the structure's reader to go on from (`None` for an entry without members).
    #[cold]
    #[inline(never)]
    pub(super) fn first_key<'de, A: MapAccess<'de>>(
        &self,
        map: &mut A,
    ) -> Result<Option<String>, A::Error> {
        let Some(awaited) = self.awaited.take() else {
            return Ok(None);
        };
        Ok(match map.next_key_seed(KeyText)? {
            None => None,
            Some(Key::Owned(key)) => Some(key),
            Some(Key::Borrowed(key)) => {
                if let Some(from) = entry_start(self.text, key)
                    && self.try_cut_list(awaited, from)
                {
                    return Err(A::Error::custom(anomaly()));
                }
                Some(key.to_owned())
            }
        })
    }

    /// The cut made by this parse, if any.
    pub(super) fn take_cut(&self) -> Option<Cut> {
        self.cut.borrow_mut().take()
    }
}

/// A list of writes whose first entry's first key is awaited: the list's ordinal among the
/// body's lists of writes, whether it is a transaction's, its limit and its entries' shapes.
#[derive(Clone, Copy)]
pub(super) struct Awaited {
    pub(super) list: usize,
    pub(super) transact: bool,
    pub(super) limit: usize,
    pub(super) shapes: Shapes,
}

/// How many entries the scanner read.
fn count(entries: &Scanned) -> usize {
    match entries {
        Scanned::Writes(writes) => writes.len(),
        Scanned::Actions(actions) => actions.len(),
    }
}

impl Cut {
    /// `body` without the entries cut: up to the comma before the first (a list closed after them)
    /// or up to the first (the whole list, or entries left), then from where they end.
    pub(super) fn body(&self, body: &str) -> Option<String> {
        let head = if self.closed && !self.whole {
            let before = body.get(..self.from)?;
            let kept = before.trim_end_matches([' ', '\t', '\n', '\r']);
            kept.strip_suffix(',')?
        } else {
            body.get(..self.from)?
        };
        let tail = body.get(self.to..)?;
        let mut out = String::with_capacity(head.len() + tail.len());
        out.push_str(head);
        out.push_str(tail);
        Some(out)
    }
}

/// Where in `text` the entry whose first key is `key` (a slice of `text`) begins: the `{` before
/// the key's opening quote and whitespace.
fn entry_start(text: &str, key: &str) -> Option<usize> {
    let at = key.as_ptr().addr().checked_sub(text.as_ptr().addr())?;
    if !std::ptr::eq(text.get(at..at + key.len())?, key) {
        return None;
    }
    let before = text.get(..at.checked_sub(1)?)?;
    let kept = before.trim_end_matches([' ', '\t', '\n', '\r']);
    kept.strip_suffix('{').map(str::len)
}

/// A key as serde_json hands it over: a slice of the body (no escapes) or a string of its own.
enum Key<'de> {
    Borrowed(&'de str),
    Owned(String),
}

/// The seed of a [`Key`].
struct KeyText;

impl<'de> DeserializeSeed<'de> for KeyText {
    type Value = Key<'de>;

    fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Key<'de>, D::Error> {
        de.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyText {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E>(self, key: &'de str) -> Result<Key<'de>, E> {
        Ok(Key::Borrowed(key))
    }

    fn visit_str<E>(self, key: &str) -> Result<Key<'de>, E> {
        Ok(Key::Owned(key.to_owned()))
    }

    fn visit_string<E>(self, key: String) -> Result<Key<'de>, E> {
        Ok(Key::Owned(key))
    }
}
