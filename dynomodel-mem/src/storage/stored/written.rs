//! An item written attribute by attribute straight into the stored form, without an [`Item`] in
//! between: what the engine's `put_item_from` stores (the mapper's puts hand over their model as
//! an [`AttributeWriter`]).
//!
//! A writer gives its attributes in its own order (a model's field order) and may write a name twice
//! (the second value replaces the first, as in a map), while the stored form lists the names in the
//! order of an `Item` (byte order) and the decoder's shapes rely on it. So each value is checked and
//! encoded as it comes, into this thread's scratch buffers, and its place there noted; the finish sorts
//! the notes by name, keeps the last write of each name and copies the encoded parts in name order into
//! the item's one allocation: the bytes [`StoredItem::encode`] writes for the equivalent `Item`.
//!
//! The rules are not this layer's: the caller passes the check every attribute passes (the validate
//! layer's, the same one a PutItem's `Item` goes through), which also measures it. A failed check is
//! kept, not returned at once: the put reports it where the `Item`'s checks would (after the
//! request's own parameter checks), and for the attribute an `Item`'s walk meets first, the first in
//! name order.

use std::cell::RefCell;
use std::ops::Range;

use dynomodel::backend::{AttributeSink, AttributeWriter};
use dynomodel::{AttributeValue, ConversionError, Result};

use super::{varint, varint_len, StoredItem, Writer};

/// The check of one attribute (its name and value) against DynamoDB's rules, returning its size by
/// DynamoDB's rule (the name's bytes and the value's).
pub(crate) type AttributeCheck = fn(&str, &AttributeValue) -> Result<usize>;

/// An item a writer wrote: encoded with its size, or the error of its first attribute in name
/// order that failed its check (such an item is never encoded).
#[derive(Debug)]
pub(crate) struct WrittenItem(Result<(StoredItem, usize)>);

impl WrittenItem {
    /// Has `writers` write their attributes, one after the other (a later write of a name replaces
    /// an earlier one), checking each with `check` and encoding it. Fails only with a writer's own
    /// error (a value the model cannot write); the checks' outcome is kept for
    /// [`WrittenItem::checked`].
    pub(crate) fn write(
        writers: &[&dyn AttributeWriter],
        check: AttributeCheck,
    ) -> std::result::Result<WrittenItem, ConversionError> {
        SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
            Ok(mut scratch) => scratch.write(writers, check),
            // Only a writer that puts an item while writing one could find the scratch taken.
            Err(_) => Scratch::default().write(writers, check),
        })
    }

    /// The item's size by DynamoDB's rule, or the error of the first attribute (in name order) that
    /// failed its check: what `validate::sized_attribute_values` answers for the equivalent `Item`.
    pub(crate) fn checked(&self) -> Result<usize> {
        match &self.0 {
            Ok((_, size)) => Ok(*size),
            Err(e) => Err(e.clone()),
        }
    }

    /// The encoded item (`None` when a check failed).
    pub(crate) fn stored(&self) -> Option<&StoredItem> {
        self.0.as_ref().ok().map(|(stored, _)| stored)
    }

    /// The encoded item, to store, or the error of its checks.
    pub(crate) fn into_stored(self) -> Result<StoredItem> {
        self.0.map(|(stored, _)| stored)
    }
}

thread_local! {
    /// The buffers of [`WrittenItem::write`], kept between writes so that a write allocates only its
    /// result.
    static SCRATCH: RefCell<Scratch> = RefCell::default();
}

/// Where one attribute went: its name, its encoded parts in the scratch buffers and its check.
#[derive(Debug)]
struct Note {
    name: String,
    structure: Range<usize>,
    text: Range<usize>,
    checked: Result<usize>,
}

/// The encoder's buffers and the notes of the attributes written so far.
#[derive(Default)]
struct Scratch {
    writer: Writer,
    notes: Vec<Note>,
}

/// The sink a writer writes into (the scratch and the check).
struct Sink<'s> {
    scratch: &'s mut Scratch,
    check: AttributeCheck,
}

impl AttributeSink for Sink<'_> {
    fn insert(&mut self, name: String, value: AttributeValue) {
        let checked = (self.check)(&name, &value);
        let w = &mut self.scratch.writer;
        let (structure, text) = (w.structure.len(), w.text.len());
        // A value that failed its check is never stored (nor walked: it may nest without bound).
        if checked.is_ok() {
            w.value(&value);
        }
        self.scratch.notes.push(Note {
            name,
            structure: structure..w.structure.len(),
            text: text..w.text.len(),
            checked,
        });
    }
}

impl Scratch {
    fn write(
        &mut self,
        writers: &[&dyn AttributeWriter],
        check: AttributeCheck,
    ) -> std::result::Result<WrittenItem, ConversionError> {
        self.clear();
        let mut sink = Sink {
            scratch: self,
            check,
        };
        let wrote = writers.iter().try_for_each(|w| w.write(&mut sink));
        let written = wrote.map(|()| self.finish());
        self.clear();
        // Buffers grown by one huge item are not kept.
        if self.writer.text.capacity() > 64 * 1024
            || self.writer.structure.capacity() > 64 * 1024
            || self.notes.capacity() > 1024
        {
            *self = Scratch::default();
        }
        written
    }

    fn clear(&mut self) {
        self.writer.names.clear();
        self.writer.structure.clear();
        self.writer.text.clear();
        self.notes.clear();
    }

    /// The item of the attributes noted: sorted by name, the last write of each name kept.
    fn finish(&mut self) -> WrittenItem {
        // Stable: the writes of one name stay in their order, the last one last.
        self.notes.sort_by(|a, b| a.name.cmp(&b.name));
        let notes = &self.notes;
        let kept = || {
            notes.iter().enumerate().filter_map(|(i, note)| {
                let replaced = notes.get(i + 1).is_some_and(|next| next.name == note.name);
                (!replaced).then_some(note)
            })
        };
        let mut size = 0;
        for note in kept() {
            match &note.checked {
                Ok(n) => size += n,
                Err(e) => return WrittenItem(Err(e.clone())),
            }
        }
        let w = &mut self.writer;
        let (mut count, mut structure_len, mut text_len) = (0, 0, 0);
        for note in kept() {
            count += 1;
            varint(&mut w.names, note.name.len());
            w.names.extend_from_slice(note.name.as_bytes());
            structure_len += note.structure.len();
            text_len += note.text.len();
        }
        let names_len = varint_len(count) + w.names.len();
        let len = varint_len(size)
            + varint_len(names_len)
            + names_len
            + varint_len(structure_len)
            + structure_len
            + text_len;
        let mut out = Vec::with_capacity(len);
        varint(&mut out, size);
        varint(&mut out, names_len);
        varint(&mut out, count);
        out.extend_from_slice(&w.names);
        varint(&mut out, structure_len);
        for note in kept() {
            out.extend_from_slice(w.structure.get(note.structure.clone()).unwrap_or_default());
        }
        for note in kept() {
            out.extend_from_slice(
                w.text
                    .as_bytes()
                    .get(note.text.clone())
                    .unwrap_or_default(),
            );
        }
        WrittenItem(Ok((StoredItem(out.into_boxed_slice()), size)))
    }
}
