//! [`PutAttributes`]: the item a put stores, as what writes it ([`AttributeWriter`]) rather than
//! as an `Item`, so that the backend writes the model straight into the form it sends or stores
//! (`Backend::put_item_from`): the value's attributes, with the version and the timestamps the write
//! stores in place of the value's own.

use std::borrow::Cow;

use crate::backend::{AttributeRef, AttributeSink, AttributeWriter};
use crate::db::item_size;
use crate::db::stamps::Stamped;
use crate::error::ConversionError;
use crate::model::size::{item_size_limit, Measuring};
use crate::model::Model;
use crate::value::AttributeValue;

/// The item of a put of `value`: its attributes, with `version` (the next one, when the put checks
/// and bumps it) and the `stamped` timestamps stored instead of what the value holds.
pub(crate) struct PutAttributes<'v, M> {
    pub(crate) value: &'v M,
    pub(crate) version: Option<u64>,
    pub(crate) stamped: Option<Stamped>,
}

impl<M: Model> AttributeWriter for PutAttributes<'_, M> {
    /// Writes the item, measuring it on the way: one over its model's limit is an error (which the
    /// put names, see `item_size::name_write_error`) and is not sent.
    fn write(&self, sink: &mut dyn AttributeSink) -> Result<(), ConversionError> {
        let mut measuring = Measuring { sink, bytes: 0 };
        self.write_unmeasured(&mut measuring)?;
        match measuring.bytes > item_size_limit::<M>() {
            true => Err(item_size::over_limit(measuring.bytes)),
            false => Ok(()),
        }
    }

    fn len_hint(&self) -> usize {
        M::ATTRIBUTES.len()
    }
}

impl<M: Model> PutAttributes<'_, M> {
    fn write_unmeasured(&self, sink: &mut dyn AttributeSink) -> Result<(), ConversionError> {
        if self.version.is_none() && self.stamped.is_none() {
            return self.value.write_attributes(sink);
        }
        let mut replaced = Replaced(Vec::with_capacity(3));
        if let (Some(version), Some(name)) = (self.version, M::VERSION_ATTRIBUTE) {
            replaced.insert_static(name, M::version_value(version)?);
        }
        if let Some(stamped) = self.stamped {
            stamped.write::<M>(&mut replaced)?;
        }
        let mut replacing = Replacing {
            sink,
            replaced: &mut replaced.0,
        };
        self.value.write_attributes(&mut replacing)?;
        // What the value does not store (a `created_at` it holds none of) comes after its fields.
        for (name, value) in replaced.0.into_iter().flatten() {
            insert_named(sink, name, value);
        }
        Ok(())
    }
}

/// An attribute's name: a model's own names are `'static`.
type Name = Cow<'static, str>;

/// Inserts into `sink` by the name's kind (a `'static` name is not copied by a sink that reads it).
fn insert_named(sink: &mut dyn AttributeSink, name: Name, value: AttributeValue) {
    match name {
        Cow::Borrowed(name) => sink.insert_static(name, value),
        Cow::Owned(name) => sink.insert(name, value),
    }
}

/// The attributes stored in place of the value's: `None` once written.
struct Replaced(Vec<Option<(Name, AttributeValue)>>);

impl AttributeSink for Replaced {
    fn insert(&mut self, name: String, value: AttributeValue) {
        self.0.push(Some((Cow::Owned(name), value)));
    }

    fn insert_static(&mut self, name: &'static str, value: AttributeValue) {
        self.0.push(Some((Cow::Borrowed(name), value)));
    }
}

/// A sink writing the replacement of each replaced attribute the value writes.
struct Replacing<'s> {
    sink: &'s mut dyn AttributeSink,
    replaced: &'s mut [Option<(Name, AttributeValue)>],
}

impl Replacing<'_> {
    /// The replacement of the attribute `name`, taken (each is written once).
    fn replacement(&mut self, name: &str) -> Option<(Name, AttributeValue)> {
        self.replaced
            .iter_mut()
            .find_map(|slot| slot.take_if(|(replaced, _)| replaced == name))
    }
}

impl AttributeSink for Replacing<'_> {
    fn insert(&mut self, name: String, value: AttributeValue) {
        match self.replacement(&name) {
            Some((name, stored)) => insert_named(self.sink, name, stored),
            None => self.sink.insert(name, value),
        }
    }

    fn insert_static(&mut self, name: &'static str, value: AttributeValue) {
        match self.replacement(name) {
            Some((name, stored)) => insert_named(self.sink, name, stored),
            None => self.sink.insert_static(name, value),
        }
    }

    fn insert_ref(&mut self, name: &'static str, value: AttributeRef<'_>) {
        match self.replacement(name) {
            Some((name, stored)) => insert_named(self.sink, name, stored),
            None => self.sink.insert_ref(name, value),
        }
    }
}
