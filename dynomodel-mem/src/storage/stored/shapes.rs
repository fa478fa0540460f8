//! The attribute names of recently decoded items, kept as ready-built maps ("skeletons": every name,
//! each with a placeholder value), so that decoding an item of a known shape is a clone of its
//! skeleton and one pass over the values.
//!
//! Why: an [`Item`] is a `BTreeMap`, and the cheapest way to build one is `Clone`, which copies a node
//! slot by slot; building it from decoded attributes (by insert, or by the sorted bulk build behind
//! `From<[_; N]>`) searches or sorts and moves every attribute several times, which made a Scan page
//! ~70% slower than the deep copy the engine did before items were stored compactly. Tables mostly
//! hold items of a handful of shapes (a model's fields, less the optional ones that are absent), so a
//! small per-thread cache keyed by the encoded names catches nearly every read.
//!
//! Skeletons are shared (`Rc`): a [`super::Decoder`] reading a page keeps the last one while the
//! items' names blocks equal it, and comes here only when they change.
//!
//! A shape is cached at its second sighting (a table of one-off shapes pays a name comparison and a
//! copy of the names, not a skeleton per item), at most [`CAPACITY`] per thread, the most recently used
//! first; shapes of long names are never cached.

use std::cell::RefCell;
use std::rc::Rc;

use dynomodel::{AttributeValue, Item};

/// Shapes kept per thread.
const CAPACITY: usize = 16;

/// Names blocks longer than this are not cached (a lookup compares the whole block).
const MAX_NAMES: usize = 1024;

/// A shape's skeleton: the encoded names block it was built from, and the map.
pub(super) struct Skeleton {
    names: Box<[u8]>,
    item: Item,
}

impl Skeleton {
    /// Whether this is the skeleton of the encoded `names` block.
    #[inline]
    pub(super) fn is_of(&self, names: &[u8]) -> bool {
        *self.names == *names
    }

    /// A fresh map of the shape's names, each with [`AttributeValue::Null`].
    #[inline]
    pub(super) fn item(&self) -> Item {
        self.item.clone()
    }
}

/// One shape: the encoded names block and, from its second sighting, its skeleton.
struct Shape {
    names: Box<[u8]>,
    skeleton: Option<Rc<Skeleton>>,
}

thread_local! {
    static SHAPES: RefCell<Vec<Shape>> = const { RefCell::new(Vec::new()) };
}

/// The skeleton of the encoded `names` block, when the shape is known: shared, so that a decoder of
/// many items (a page) keeps it while they share it, without a lookup per item. `None` for a shape
/// seen for the first time (the caller decodes the names itself). `parse` turns a names block into
/// the names, `None` when damaged.
pub(super) fn skeleton(
    names: &[u8],
    parse: impl FnOnce(&[u8]) -> Option<Vec<String>>,
) -> Option<Rc<Skeleton>> {
    if names.len() > MAX_NAMES {
        return None;
    }
    SHAPES.with(|shapes| {
        // Only a re-entrant decode could find the cache taken; it decodes without it.
        let mut shapes = shapes.try_borrow_mut().ok()?;
        let Some(at) = shapes.iter().position(|s| *s.names == *names) else {
            if shapes.len() == CAPACITY {
                shapes.pop();
            }
            shapes.insert(
                0,
                Shape {
                    names: names.into(),
                    skeleton: None,
                },
            );
            return None;
        };
        shapes[..=at].rotate_right(1);
        let shape = &mut shapes[0];
        if shape.skeleton.is_none() {
            let item = parse(names)?
                .into_iter()
                .map(|name| (name, AttributeValue::Null))
                .collect();
            shape.skeleton = Some(Rc::new(Skeleton {
                names: names.into(),
                item,
            }));
        }
        shape.skeleton.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(names: &[u8]) -> Option<Vec<String>> {
        Some(
            std::str::from_utf8(names)
                .ok()?
                .split(',')
                .map(String::from)
                .collect(),
        )
    }

    #[test]
    fn a_shape_is_built_at_its_second_sighting_and_evicted_last_used_first() {
        assert!(skeleton(b"a,b", parse).is_none());
        let built = skeleton(b"a,b", parse).expect("second sighting");
        assert!(built.is_of(b"a,b") && !built.is_of(b"a,c"));
        assert_eq!(
            built.item(),
            Item::from([
                ("a".to_string(), AttributeValue::Null),
                ("b".to_string(), AttributeValue::Null),
            ])
        );
        for i in 0..CAPACITY - 1 {
            assert!(skeleton(format!("x{i}").as_bytes(), parse).is_none());
        }
        // Still cached: the oldest of CAPACITY.
        assert!(skeleton(b"a,b", parse).is_some());
        assert!(skeleton(b"y", parse).is_none());
        assert!(skeleton(b"a,b", parse).is_some(), "recently used");
        let long = vec![b'a'; MAX_NAMES + 1];
        assert!(skeleton(&long, parse).is_none());
        assert!(skeleton(&long, parse).is_none());
    }

    #[test]
    fn damaged_names_build_nothing() {
        assert!(skeleton(b"\xff", parse).is_none());
        assert!(skeleton(b"\xff", parse).is_none());
    }
}
