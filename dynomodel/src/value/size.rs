//! DynamoDB's item-size arithmetic. This is the one size function behind every limit (400 KB items,
//! key sizes, 1 MB pages, 16 MB batches, 4 MB transactions) and every capacity figure.
//!
//! Rules from the Developer Guide ("Item sizes and formats"): strings count their UTF-8 bytes,
//! binaries their raw bytes, BOOL and NULL one byte, a list or map 3 bytes plus one byte per element
//! plus the elements (map keys included), sets the sum of their elements. Numbers are "approximately
//! one byte per two significant digits plus one"; the exact fit used here matches DynamoDB's capacity
//! figures: `1 + ceil(digits / 2)`, one more when both the digit count and the leading digit's exponent
//! are even, one more for a negative number, and 1 for zero.

use super::{AttributeValue, Item, Number};

/// Largest item DynamoDB stores, in bytes, names included (400 KB).
pub const MAX_ITEM_SIZE: usize = 409_600;

/// The size of an item: the sum over its attributes of the name's UTF-8 bytes plus the value's size.
///
/// ```
/// use dynomodel::{item_size, AttributeValue, Item};
/// let mut item = Item::new();
/// item.insert("shirt-color".into(), AttributeValue::S("R".into()));
/// item.insert("shirt-size".into(), AttributeValue::S("M".into()));
/// assert_eq!(item_size(&item), 23); // the Developer Guide's own example
/// ```
pub fn item_size(item: &Item) -> usize {
    item.iter()
        .map(|(name, value)| name.len() + attribute_size(value))
        .sum()
}

/// The size of one attribute value (without its name).
///
/// ```
/// use dynomodel::{attribute_size, AttributeValue, Number};
/// assert_eq!(attribute_size(&AttributeValue::S("héllo".into())), 6); // UTF-8 bytes
/// assert_eq!(attribute_size(&AttributeValue::N(Number::from(12345))), 4);
/// let list = AttributeValue::L(vec![AttributeValue::Bool(true), AttributeValue::Null]);
/// assert_eq!(attribute_size(&list), 3 + 2 + 2); // overhead, one byte per element, the elements
/// ```
pub fn attribute_size(value: &AttributeValue) -> usize {
    match value {
        AttributeValue::S(s) => s.len(),
        AttributeValue::N(n) => number_size(n),
        AttributeValue::B(b) => b.len(),
        AttributeValue::Bool(_) | AttributeValue::Null => 1,
        AttributeValue::Ss(set) => set.iter().map(String::len).sum(),
        AttributeValue::Ns(set) => set.iter().map(number_size).sum(),
        AttributeValue::Bs(set) => set.iter().map(Vec::len).sum(),
        AttributeValue::L(list) => 3 + list.iter().map(|v| 1 + attribute_size(v)).sum::<usize>(),
        AttributeValue::M(map) => 3 + map.len() + item_size(map),
    }
}

fn number_size(n: &Number) -> usize {
    let digits = n.significant_digits() as i64;
    if digits == 0 {
        return 1;
    }
    let leading_exponent = i64::from(n.exponent()) + digits - 1;
    let alignment = usize::from(digits % 2 == 0 && leading_exponent % 2 == 0);
    1 + (digits as usize).div_ceil(2) + alignment + usize::from(n.is_negative())
}

/// One read capacity unit covers a strongly consistent read of this many bytes (4 KB).
const READ_UNIT_BYTES: usize = 4096;
/// One write capacity unit covers a write of this many bytes (1 KB).
const WRITE_UNIT_BYTES: usize = 1024;

/// An item's size by DynamoDB's rule ([`item_size`]) and what reading or writing it costs, from the
/// Developer Guide's capacity rules: a write costs 1 unit per 1 KB, a strongly consistent read 1 unit
/// per 4 KB, an eventually consistent read half that, a transactional read or write twice; sizes round
/// up to the unit and nothing costs less than one unit's worth. [`Model::item_size`](crate::Model::item_size)
/// measures a model value; the in-memory engine charges with the same arithmetic.
///
/// These are the costs of this item alone: a put or update that replaces a larger stored item costs
/// the larger of the two, and each index the item is projected into costs a write of its own.
///
/// ```
/// use dynomodel::ItemSize;
/// let size = ItemSize::new(5_000);
/// assert_eq!(size.bytes(), 5_000);
/// assert_eq!(size.write_units(), 5.0); // 5 000 bytes round up to 5 KB
/// assert_eq!(size.strongly_consistent_read_units(), 2.0); // 8 KB
/// assert_eq!(size.eventually_consistent_read_units(), 1.0);
/// assert_eq!(size.transactional_write_units(), 10.0);
/// assert_eq!(ItemSize::new(0).write_units(), 1.0);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct ItemSize(usize);

impl ItemSize {
    /// The size of an item of `bytes` bytes.
    pub const fn new(bytes: usize) -> ItemSize {
        ItemSize(bytes)
    }

    /// The size of `item`.
    pub fn of(item: &Item) -> ItemSize {
        ItemSize(item_size(item))
    }

    /// The size in bytes (attribute names included).
    pub const fn bytes(self) -> usize {
        self.0
    }

    /// Whether DynamoDB stores it: at most [`MAX_ITEM_SIZE`] (400 KB).
    pub const fn fits(self) -> bool {
        self.0 <= MAX_ITEM_SIZE
    }

    /// Write capacity units of a `PutItem` (or an `UpdateItem` or `DeleteItem`) of it.
    pub fn write_units(self) -> f64 {
        units(self.0, WRITE_UNIT_BYTES)
    }

    /// Write capacity units of writing it in a transaction (twice [`write_units`](Self::write_units)).
    pub fn transactional_write_units(self) -> f64 {
        2.0 * self.write_units()
    }

    /// Read capacity units of a strongly consistent `GetItem` of it.
    pub fn strongly_consistent_read_units(self) -> f64 {
        units(self.0, READ_UNIT_BYTES)
    }

    /// Read capacity units of an eventually consistent `GetItem` of it (half a strongly consistent one).
    pub fn eventually_consistent_read_units(self) -> f64 {
        0.5 * self.strongly_consistent_read_units()
    }

    /// Read capacity units of reading it in a transaction (twice a strongly consistent read).
    pub fn transactional_read_units(self) -> f64 {
        2.0 * self.strongly_consistent_read_units()
    }
}

/// `bytes` in whole units of `unit` bytes, rounded up, at least one.
fn units(bytes: usize, unit: usize) -> f64 {
    bytes.div_ceil(unit).max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> AttributeValue {
        AttributeValue::N(s.parse().expect("number"))
    }

    #[test]
    fn strings_count_utf8_bytes() {
        assert_eq!(attribute_size(&AttributeValue::S("é".into())), 2);
        assert_eq!(attribute_size(&AttributeValue::S("😀".into())), 4);
        assert_eq!(attribute_size(&AttributeValue::S(String::new())), 0);
    }

    #[test]
    fn numbers() {
        assert_eq!(attribute_size(&n("0")), 1);
        assert_eq!(attribute_size(&n("1")), 2);
        assert_eq!(attribute_size(&n("-1")), 3);
        // Even digit count with an odd leading exponent packs exactly; both even costs one more byte.
        assert_eq!(attribute_size(&n("12")), 2);
        assert_eq!(attribute_size(&n("123")), 3);
        assert_eq!(attribute_size(&n("1234")), 3);
        assert_eq!(attribute_size(&n("12.34")), 3);
        assert_eq!(attribute_size(&n("1.234")), 4);
        assert_eq!(attribute_size(&n(&"9".repeat(38))), 20);
    }

    #[test]
    fn documents() {
        assert_eq!(attribute_size(&AttributeValue::L(vec![])), 3);
        assert_eq!(attribute_size(&AttributeValue::M(Default::default())), 3);
        let list = AttributeValue::L(vec![AttributeValue::S("ab".into()), AttributeValue::Null]);
        assert_eq!(attribute_size(&list), 3 + (1 + 2) + (1 + 1));
        let mut map = Item::new();
        map.insert("k".into(), AttributeValue::Bool(true));
        assert_eq!(attribute_size(&AttributeValue::M(map)), 3 + 1 + 1 + 1);
        let set = AttributeValue::Ss(vec!["a".into(), "bcd".into()]);
        assert_eq!(attribute_size(&set), 4);
    }
}
