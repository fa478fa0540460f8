//! Measuring what a model value stores as it is written: [`Measure`] sums DynamoDB's size of each
//! attribute handed to a sink, so that [`Model::item_size`](crate::Model::item_size) needs no
//! [`Item`](crate::Item) and a put checks its size limit without encoding the item twice.

use crate::backend::{AttributeRef, AttributeSink};
use crate::value::{attribute_size, AttributeValue, MAX_ITEM_SIZE};

use super::Model;

/// A sink that keeps only the size of what is written to it.
#[derive(Default)]
pub(crate) struct Measure {
    pub(crate) bytes: usize,
}

impl AttributeSink for Measure {
    fn insert(&mut self, name: String, value: AttributeValue) {
        self.bytes += name.len() + attribute_size(&value);
    }

    fn insert_static(&mut self, name: &'static str, value: AttributeValue) {
        self.bytes += name.len() + attribute_size(&value);
    }

    fn insert_ref(&mut self, name: &'static str, value: AttributeRef<'_>) {
        self.bytes += name.len() + value.size();
    }
}

/// A sink passing every attribute on to `sink`, summing their sizes on the way.
pub(crate) struct Measuring<'s> {
    pub(crate) sink: &'s mut dyn AttributeSink,
    pub(crate) bytes: usize,
}

impl AttributeSink for Measuring<'_> {
    fn insert(&mut self, name: String, value: AttributeValue) {
        self.bytes += name.len() + attribute_size(&value);
        self.sink.insert(name, value);
    }

    fn insert_static(&mut self, name: &'static str, value: AttributeValue) {
        self.bytes += name.len() + attribute_size(&value);
        self.sink.insert_static(name, value);
    }

    fn insert_ref(&mut self, name: &'static str, value: AttributeRef<'_>) {
        self.bytes += name.len() + value.size();
        self.sink.insert_ref(name, value);
    }
}

/// The largest item `M` may write: its `max_item_size` budget, or DynamoDB's 400 KB.
pub(crate) fn item_size_limit<M: Model>() -> usize {
    M::MAX_ITEM_SIZE.map_or(MAX_ITEM_SIZE, |budget| budget.min(MAX_ITEM_SIZE))
}
