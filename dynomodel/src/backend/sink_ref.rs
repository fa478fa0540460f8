//! [`AttributeRef`]: a value a model writes into an [`AttributeSink`](super::AttributeSink),
//! borrowed from the model rather than copied, so that a sink that only reads it (the size pass, the
//! engine's encoder) copies nothing and a sink that keeps it copies it once, where it keeps it.

use std::fmt;

use crate::value::AttributeValue;

/// A value borrowed from the model writing it
/// ([`AttributeSink::insert_ref`](super::AttributeSink::insert_ref)): the strings and string sets a
/// derived model holds. It stands for the [`AttributeValue`] [`to_value`](AttributeRef::to_value)
/// makes, and a sink treats it exactly as that value.
///
/// ```
/// use dynomodel::backend::AttributeRef;
/// use dynomodel::AttributeValue;
///
/// let name = String::from("Ada");
/// let value = AttributeRef::S(&name);
/// assert_eq!(value.to_value(), AttributeValue::S("Ada".into()));
/// assert_eq!(value.size(), 3);
///
/// // A sink keeping a value of its own refills it without allocating again.
/// let mut slot = AttributeValue::S(String::with_capacity(16));
/// AttributeRef::S("Lovelace").copy_into(&mut slot);
/// assert_eq!(slot, AttributeValue::S("Lovelace".into()));
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum AttributeRef<'a> {
    /// A string (S).
    S(&'a str),
    /// A string set (SS), never empty (a model writes an empty set as no attribute at all).
    Ss(StrSet<'a>),
}

impl AttributeRef<'_> {
    /// The value as an owned [`AttributeValue`] (what a sink that keeps it stores).
    pub fn to_value(&self) -> AttributeValue {
        match self {
            AttributeRef::S(s) => AttributeValue::S((*s).to_owned()),
            AttributeRef::Ss(set) => {
                let mut strings = Vec::with_capacity(set.len());
                set.for_each(|s| strings.push(s.to_owned()));
                AttributeValue::Ss(strings)
            }
        }
    }

    /// Makes `slot` this value, reusing its buffers when it holds a value of the same type (a sink
    /// that needs an `AttributeValue` to read, e.g. to check it, keeps one and refills it).
    pub fn copy_into(&self, slot: &mut AttributeValue) {
        match (self, slot) {
            (AttributeRef::S(s), AttributeValue::S(buffer)) => {
                buffer.clear();
                buffer.push_str(s);
            }
            (AttributeRef::Ss(set), AttributeValue::Ss(buffers)) => {
                let mut filled = 0;
                set.for_each(|s| {
                    match buffers.get_mut(filled) {
                        Some(buffer) => {
                            buffer.clear();
                            buffer.push_str(s);
                        }
                        None => buffers.push(s.to_owned()),
                    }
                    filled += 1;
                });
                buffers.truncate(filled);
            }
            (value, slot) => *slot = value.to_value(),
        }
    }

    /// The value's size by DynamoDB's rule, as [`attribute_size`](crate::attribute_size) of
    /// [`to_value`](AttributeRef::to_value).
    pub fn size(&self) -> usize {
        match self {
            AttributeRef::S(s) => s.len(),
            AttributeRef::Ss(set) => {
                let mut size = 0;
                set.for_each(|s| size += s.len());
                size
            }
        }
    }
}

/// The strings of a string set, borrowed from the set a model holds (a `HashSet<String>` or
/// `BTreeSet<String>`), in the set's iteration order.
#[derive(Clone, Copy)]
pub struct StrSet<'a>(&'a dyn StrElements);

impl<'a> StrSet<'a> {
    /// The set's strings. Every element must be one ([`StrElements::for_each_str`] gives them all).
    pub(crate) fn new(elements: &'a dyn StrElements) -> Self {
        StrSet(elements)
    }

    /// How many strings the set holds.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the set holds no string (a model never writes one).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `f` with each string, in the set's order.
    pub fn for_each(&self, mut f: impl FnMut(&str)) {
        self.0.for_each_str(&mut f);
    }
}

impl fmt::Debug for StrSet<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_set();
        self.for_each(|s| {
            list.entry(&s);
        });
        list.finish()
    }
}

/// A collection of strings behind a [`StrSet`] (the set conversions implement it).
pub(crate) trait StrElements {
    /// How many elements.
    fn len(&self) -> usize;

    /// Calls `f` with each element's string, in order.
    fn for_each_str(&self, f: &mut dyn FnMut(&str));
}
