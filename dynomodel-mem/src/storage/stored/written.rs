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

use std::borrow::Cow;
use std::cell::RefCell;
use std::ops::Range;

use dynomodel::backend::{AttributeRef, AttributeSink, AttributeWriter};
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
    name: Cow<'static, str>,
    structure: Range<usize>,
    text: Range<usize>,
    checked: Result<usize>,
}

/// The encoder's buffers and the notes of the attributes written so far, with the order of the
/// last item's names.
#[derive(Default)]
struct Scratch {
    writer: Writer,
    notes: Vec<Note>,
    /// The names written so far, in the order written (each length-prefixed).
    written: Vec<u8>,
    /// The last item's order: its names as written, which of its notes are kept in name order
    /// (`kept`), and its names block. A writer writes the items of one model in one order, so
    /// the sort is done once per order, not per item.
    last: Order,
    /// The values a borrowed attribute is copied into (a string, a string set), kept between writes.
    copies: [Option<AttributeValue>; 2],
}

/// The order of an item's names: see [`Scratch::last`].
#[derive(Default)]
struct Order {
    written: Vec<u8>,
    kept: Vec<usize>,
    names: Vec<u8>,
}

/// The sink a writer writes into (the scratch and the check).
struct Sink<'s> {
    scratch: &'s mut Scratch,
    check: AttributeCheck,
}

impl AttributeSink for Sink<'_> {
    fn insert(&mut self, name: String, value: AttributeValue) {
        self.note(Cow::Owned(name), &value);
    }

    fn insert_static(&mut self, name: &'static str, value: AttributeValue) {
        self.note(Cow::Borrowed(name), &value);
    }

    /// The value is copied into a kept value of its type (no allocation once it has grown), which
    /// the check and the encoder read as they read an owned one.
    fn insert_ref(&mut self, name: &'static str, value: AttributeRef<'_>) {
        let kept = match value {
            AttributeRef::Ss(_) => 1,
            _ => 0,
        };
        let mut copy = self.scratch.copies[kept]
            .take()
            .unwrap_or(AttributeValue::Null);
        value.copy_into(&mut copy);
        self.note(Cow::Borrowed(name), &copy);
        // A huge value's buffers are not kept.
        if value.size() <= 64 * 1024 {
            self.scratch.copies[kept] = Some(copy);
        }
    }
}

impl Sink<'_> {
    /// Checks and encodes one attribute, noting where it went.
    fn note(&mut self, name: Cow<'static, str>, value: &AttributeValue) {
        let checked = (self.check)(&name, value);
        varint(&mut self.scratch.written, name.len());
        self.scratch.written.extend_from_slice(name.as_bytes());
        let w = &mut self.scratch.writer;
        let (structure, text) = (w.structure.len(), w.text.len());
        // A value that failed its check is never stored (nor walked: it may nest without bound).
        if checked.is_ok() {
            w.value(value);
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
            || self.last.names.capacity() > 64 * 1024
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
        self.written.clear();
    }

    /// Sorts the notes by name unless they are in the last item's order, keeping the last write of
    /// each name, and the names block of the kept ones.
    fn order(&mut self) {
        // (A computed order's names block holds at least its count.)
        if self.written == self.last.written && !self.last.names.is_empty() {
            return;
        }
        let notes = &self.notes;
        let last = &mut self.last;
        last.kept.clear();
        last.kept.extend(0..notes.len());
        // Stable: the writes of one name stay in their order, the last one last.
        last.kept
            .sort_by(|&a, &b| notes[a].name.cmp(&notes[b].name));
        let mut kept = Vec::with_capacity(last.kept.len());
        for (i, &note) in last.kept.iter().enumerate() {
            let replaced = last
                .kept
                .get(i + 1)
                .is_some_and(|&next| notes[next].name == notes[note].name);
            if !replaced {
                kept.push(note);
            }
        }
        last.kept = kept;
        last.names.clear();
        varint(&mut last.names, last.kept.len());
        for &note in &last.kept {
            let name = &notes[note].name;
            varint(&mut last.names, name.len());
            last.names.extend_from_slice(name.as_bytes());
        }
        std::mem::swap(&mut last.written, &mut self.written);
    }

    /// The item of the attributes noted: sorted by name, the last write of each name kept.
    fn finish(&mut self) -> WrittenItem {
        self.order();
        let notes = &self.notes;
        let Order { kept, names, .. } = &self.last;
        let mut size = 0;
        let (mut structure_len, mut text_len) = (0, 0);
        for note in kept.iter().filter_map(|&i| notes.get(i)) {
            match &note.checked {
                Ok(n) => size += n,
                Err(e) => return WrittenItem(Err(e.clone())),
            }
            structure_len += note.structure.len();
            text_len += note.text.len();
        }
        let w = &self.writer;
        let len = varint_len(size)
            + varint_len(names.len())
            + names.len()
            + varint_len(structure_len)
            + structure_len
            + text_len;
        let mut out = Vec::with_capacity(len);
        varint(&mut out, size);
        varint(&mut out, names.len());
        out.extend_from_slice(names);
        varint(&mut out, structure_len);
        for note in kept.iter().filter_map(|&i| notes.get(i)) {
            out.extend_from_slice(w.structure.get(note.structure.clone()).unwrap_or_default());
        }
        let text = w.text.as_bytes();
        for note in kept.iter().filter_map(|&i| notes.get(i)) {
            out.extend_from_slice(text.get(note.text.clone()).unwrap_or_default());
        }
        WrittenItem(Ok((StoredItem(out.into_boxed_slice()), size)))
    }
}

#[cfg(test)]
mod tests {
    use dynomodel::{item_size, Item};

    use super::*;
    use crate::storage::stored::AttributeLookup;

    fn measure(name: &str, value: &AttributeValue) -> Result<usize> {
        Ok(name.len() + dynomodel::attribute_size(value))
    }

    fn items() -> Vec<Item> {
        let s = |v: &str| AttributeValue::S(v.into());
        let nested = Item::from([
            (
                "z".to_owned(),
                AttributeValue::L(vec![s("a"), AttributeValue::Null]),
            ),
            ("é".to_owned(), AttributeValue::Ns(vec![1.into(), 2.into()])),
        ]);
        vec![
            Item::new(),
            Item::from([("pk".to_owned(), s("a"))]),
            Item::from([
                ("pk".to_owned(), s("héllo")),
                (
                    "sk".to_owned(),
                    AttributeValue::N("-1.5E+30".parse().expect("a number")),
                ),
                ("b".to_owned(), AttributeValue::B(vec![0, 255])),
                (
                    "ss".to_owned(),
                    AttributeValue::Ss(vec!["y".into(), "x".into()]),
                ),
                ("bs".to_owned(), AttributeValue::Bs(vec![vec![1], vec![]])),
                ("m".to_owned(), AttributeValue::M(nested.clone())),
                (
                    "l".to_owned(),
                    AttributeValue::L(vec![AttributeValue::M(nested)]),
                ),
                ("t".to_owned(), AttributeValue::Bool(true)),
                ("Z".to_owned(), s("")),
                ("long".to_owned(), s(&"x".repeat(70_000))),
            ]),
        ]
    }

    /// Written in any order, an item's bytes are those `StoredItem::encode` writes for it, and
    /// every attribute is found by name.
    #[test]
    fn a_written_item_is_the_encoded_item_in_any_order() {
        for item in items() {
            let mut reversed = Item::new();
            let writer = Reversed(&item);
            let written = WrittenItem::write(&[&writer], measure).expect("written");
            writer.write(&mut reversed).expect("written");
            assert_eq!(reversed, item);
            assert_eq!(written.checked(), Ok(item_size(&item)));
            let stored = written.into_stored().expect("encoded");
            assert_eq!(stored, StoredItem::encode(&item));
            assert_eq!(stored.attribute_count(), item.len());
            for (name, value) in &item {
                assert_eq!(stored.attribute(name).as_deref(), Some(value), "{name}");
            }
            assert_eq!(stored.attribute("absent"), None);
        }
    }

    /// The attributes of `0` in reverse name order.
    struct Reversed<'a>(&'a Item);

    impl AttributeWriter for Reversed<'_> {
        fn write(&self, sink: &mut dyn AttributeSink) -> std::result::Result<(), ConversionError> {
            for (name, value) in self.0.iter().rev() {
                sink.insert(name.clone(), value.clone());
            }
            Ok(())
        }
    }

    /// A name written twice keeps its last value, and the check of a replaced value does not
    /// count; of two failed checks, the first name's (in name order) is the answer.
    #[test]
    fn the_last_write_of_a_name_counts_and_the_first_failure_by_name() {
        let strict = |name: &str, value: &AttributeValue| match value {
            AttributeValue::Null => Err(dynomodel::Error::validation(format!("null {name}"))),
            _ => measure(name, value),
        };
        let first = Item::from([("b".to_owned(), AttributeValue::Null)]);
        let second = Item::from([
            ("b".to_owned(), AttributeValue::Bool(true)),
            ("a".to_owned(), AttributeValue::S("x".into())),
        ]);
        let written = WrittenItem::write(&[&first, &second], strict).expect("written");
        assert_eq!(written.checked(), Ok(item_size(&second)));
        assert_eq!(
            written.into_stored().ok(),
            Some(StoredItem::encode(&second))
        );
        let both = Item::from([
            ("d".to_owned(), AttributeValue::Null),
            ("c".to_owned(), AttributeValue::Null),
        ]);
        let failed = WrittenItem::write(&[&both], strict).expect("written");
        assert_eq!(
            failed.checked().map_err(|e| e.message()),
            Err("null c".into())
        );
        assert!(failed.stored().is_none());
    }

    /// A writer's own error is the answer, and leaves the scratch clean for the next item.
    #[test]
    fn a_writer_error_is_returned_and_nothing_kept() {
        struct Fails;
        impl AttributeWriter for Fails {
            fn write(
                &self,
                sink: &mut dyn AttributeSink,
            ) -> std::result::Result<(), ConversionError> {
                sink.insert("x".into(), AttributeValue::S("kept?".into()));
                Err(ConversionError::new("a number", "NaN").at("bad"))
            }
        }
        let err = WrittenItem::write(&[&Fails], measure).expect_err("fails");
        assert!(err.to_string().contains("bad"), "{err}");
        let item = Item::from([("y".to_owned(), AttributeValue::Bool(false))]);
        let written = WrittenItem::write(&[&item], measure).expect("written");
        assert_eq!(written.into_stored().ok(), Some(StoredItem::encode(&item)));
    }
}
