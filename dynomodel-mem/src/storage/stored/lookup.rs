//! One attribute of an item by name, whether the item is an [`Item`] or a stored one: what the key
//! checks read of a put's item (its key and index key attributes), so that a put written straight
//! into the stored form (`written.rs`) is checked by the same code as an `Item`.

use std::borrow::Cow;

use dynomodel::{AttributeValue, Item};

use super::{Reader, StoredItem, B, BS, FALSE, L, M, N, NS, NULL, S, SS, TRUE};

/// An item whose attributes can be looked up by name.
pub(crate) trait AttributeLookup {
    /// The attribute `name`, borrowed where the item holds values, decoded where it holds bytes.
    fn attribute(&self, name: &str) -> Option<Cow<'_, AttributeValue>>;

    /// The item's size by DynamoDB's rule (`dynomodel::item_size`).
    fn item_size(&self) -> usize;

    /// The size by the same rule of the attributes whose names `keep` keeps (an index entry's:
    /// its projection).
    fn kept_size(&self, keep: &dyn Fn(&str) -> bool) -> usize;
}

impl AttributeLookup for Item {
    fn attribute(&self, name: &str) -> Option<Cow<'_, AttributeValue>> {
        self.get(name).map(Cow::Borrowed)
    }

    fn item_size(&self) -> usize {
        dynomodel::item_size(self)
    }

    fn kept_size(&self, keep: &dyn Fn(&str) -> bool) -> usize {
        self.iter()
            .filter(|(name, _)| keep(name))
            .map(|(name, value)| name.len() + dynomodel::attribute_size(value))
            .sum()
    }
}

impl AttributeLookup for StoredItem {
    /// Finds the name in the names block, then skips the values before it (nothing decoded, no
    /// text validated) and decodes its value alone, validating only its own text.
    fn attribute(&self, name: &str) -> Option<Cow<'_, AttributeValue>> {
        let mut header = Reader::new(&self.0);
        header.varint()?;
        let mut names = Reader::new(header.bytes()?);
        let len = header.varint()?;
        let (structure, text) = header.structure.split_at_checked(len)?;
        let mut values = Reader::new(structure);
        let mut offset = 0;
        let count = names.varint()?;
        for _ in 0..count {
            if names.bytes()? == name.as_bytes() {
                let start = offset;
                Reader::new(values.structure).skip(&mut offset)?;
                let text = std::str::from_utf8(text.get(start..offset)?).ok()?;
                let mut value = Reader {
                    structure: values.structure,
                    text,
                };
                return value.value().map(Cow::Owned);
            }
            values.skip(&mut offset)?;
        }
        None
    }

    /// Measured when it was written.
    fn item_size(&self) -> usize {
        self.size()
    }

    /// Decodes the attributes one by one, without an `Item` (for LSI tables with a projection).
    fn kept_size(&self, keep: &dyn Fn(&str) -> bool) -> usize {
        StoredItem::attributes_of(self.as_bytes())
            .filter(|(name, _)| keep(name))
            .map(|(name, value)| name.len() + dynomodel::attribute_size(&value))
            .sum()
    }
}

impl Reader<'_> {
    /// Moves past one value without decoding it, adding the length of its text to `text` (`None`
    /// for damaged bytes). Recursion is bounded: stored values nest at most 32 levels (the checks
    /// before every write).
    fn skip(&mut self, text: &mut usize) -> Option<()> {
        match self.byte()? {
            S => self.skip_string(text),
            N => self.skip_number(),
            FALSE | TRUE | NULL => Some(()),
            B => self.bytes().map(drop),
            SS => self.skip_each(|r| r.skip_string(text)),
            NS => self.skip_each(Self::skip_number),
            BS => self.skip_each(|r| r.bytes().map(drop)),
            L => self.skip_each(|r| r.skip(text)),
            M => self.skip_each(|r| {
                r.skip_string(text)?;
                r.skip(text)
            }),
            _ => None,
        }
    }

    fn skip_string(&mut self, text: &mut usize) -> Option<()> {
        *text = text.checked_add(self.varint()?)?;
        Some(())
    }

    /// A number: its exponent's varint, then its coefficient's.
    fn skip_number(&mut self) -> Option<()> {
        self.varint()?;
        while self.byte()? >= 0x80 {}
        Some(())
    }

    fn skip_each(&mut self, mut one: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        let count = self.varint()?;
        (0..count).try_for_each(|_| one(self))
    }
}
