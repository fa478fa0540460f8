//! The encoded index against a model that orders the same entries by their key values: Query ranges
//! (every kind of bound, both directions) and Scans (segments, start keys) return the same entries in
//! the same order.

use std::ops::{Bound, RangeBounds};

use dynomodel::backend::{
    AttributeDefinition, GlobalSecondaryIndex, KeySchemaElement, LocalSecondaryIndex, Projection,
    ProjectionType, ScalarAttributeType,
};
use dynomodel::{AttributeValue, Item, Number};
use proptest::prelude::*;

use super::{indexes_of, Index, IndexPosition, Tie};
use crate::storage::key::{KeyValue, PrimaryKey};
use crate::storage::schema::TableSchema;

/// A table keyed by `p` (S) and `s` (N), with an LSI on `r` (S) and a GSI on `g` (N) and `r`.
fn schema() -> TableSchema {
    let def = |name: &str, attribute_type| AttributeDefinition {
        attribute_name: name.into(),
        attribute_type,
    };
    let projection = Projection {
        projection_type: ProjectionType::KeysOnly,
        non_key_attributes: vec![],
    };
    TableSchema {
        name: "t".into(),
        attribute_definitions: vec![
            def("p", ScalarAttributeType::S),
            def("s", ScalarAttributeType::N),
            def("g", ScalarAttributeType::N),
            def("r", ScalarAttributeType::S),
        ],
        key_schema: vec![KeySchemaElement::hash("p"), KeySchemaElement::range("s")],
        billing_mode: None,
        provisioned_throughput: None,
        local_secondary_indexes: vec![LocalSecondaryIndex {
            index_name: "l".into(),
            key_schema: vec![KeySchemaElement::hash("p"), KeySchemaElement::range("r")],
            projection: projection.clone(),
        }],
        global_secondary_indexes: vec![GlobalSecondaryIndex {
            index_name: "g".into(),
            key_schema: vec![KeySchemaElement::hash("g"), KeySchemaElement::range("r")],
            projection,
            provisioned_throughput: None,
        }],
        created: chrono::DateTime::UNIX_EPOCH,
        table_id: String::new(),
        arn: String::new(),
        stream_specification: None,
        table_class: None,
        deletion_protection_enabled: false,
    }
}

/// Few distinct values, so that partitions hold several entries and sort keys tie.
fn number() -> impl Strategy<Value = Number> {
    prop::sample::select(vec!["-2.5", "-1", "0", "0.5", "1", "10", "1E5"])
        .prop_map(|s| s.parse().expect("number"))
}

fn string() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["", "a", "a\0", "ab", "b", "é"]).prop_map(str::to_owned)
}

/// An item: its table key, and its index keys (each may be missing: a sparse index).
fn item() -> impl Strategy<Value = (PrimaryKey, Item)> {
    (
        prop::sample::select(vec!["x", "y", "z"]),
        number(),
        prop::option::weighted(0.9, number()),
        prop::option::weighted(0.9, string().prop_filter("an index key", |s| !s.is_empty())),
    )
        .prop_map(|(p, s, g, r)| {
            let key = PrimaryKey {
                hash: KeyValue::S(p.into()),
                range: Some(KeyValue::N(s)),
            };
            let mut item = Item::from([
                ("p".to_string(), AttributeValue::S(p.into())),
                ("s".to_string(), AttributeValue::N(s)),
            ]);
            if let Some(g) = g {
                item.insert("g".into(), AttributeValue::N(g));
            }
            if let Some(r) = r {
                item.insert("r".into(), AttributeValue::S(r));
            }
            (key, item)
        })
}

/// A bound on a position: sort key values from the same small set, and every kind of tie.
fn bound() -> impl Strategy<Value = Bound<IndexPosition>> {
    let tie = prop_oneof![
        Just(Tie::Min),
        Just(Tie::Max),
        item().prop_map(|(key, _)| Tie::Key(key)),
    ];
    let position = (string(), tie).prop_map(|(r, tie)| (Some(KeyValue::S(r)), tie));
    (0..3u8, position).prop_map(|(kind, position)| match kind {
        0 => Bound::Unbounded,
        1 => Bound::Included(position),
        _ => Bound::Excluded(position),
    })
}

/// `bound` with its tie's table partition key set to `hash`.
fn in_partition(bound: &Bound<IndexPosition>, hash: &KeyValue) -> Bound<IndexPosition> {
    bound.clone().map(|(range, tie)| match tie {
        Tie::Key(key) => (
            range,
            Tie::Key(PrimaryKey {
                hash: hash.clone(),
                range: key.range,
            }),
        ),
        other => (range, other),
    })
}

/// The index's entries as the model holds them: partition hash, partition key, position, item.
type Model = Vec<(u64, KeyValue, IndexPosition, Item)>;

fn model(index: &Index, items: &std::collections::BTreeMap<PrimaryKey, Item>) -> Model {
    let mut entries: Model = items
        .iter()
        .filter(|(_, item)| index.holds(*item))
        .map(|(key, item)| {
            let value = |(name, ty): &(String, ScalarAttributeType)| {
                item.get(name)
                    .and_then(|v| KeyValue::from_attribute(v, *ty))
            };
            let hash = value(&index.hash).expect("held");
            let range = index.range.as_ref().and_then(value);
            let entry = item
                .iter()
                .filter(|(n, _)| index.projects(n))
                .map(|(n, v)| (n.clone(), v.clone()))
                .collect();
            (
                hash.stable_hash(),
                hash,
                (range, Tie::Key(key.clone())),
                entry,
            )
        })
        .collect();
    entries.sort_by(|a, b| (a.0, &a.1, &a.2).cmp(&(b.0, &b.1, &b.2)));
    entries
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn queries_and_scans_match_the_model(
        writes in prop::collection::vec((item(), any::<bool>()), 1..40),
        queries in prop::collection::vec((number(), bound(), bound(), any::<bool>()), 8),
        scans in prop::collection::vec((0u64..4, prop::option::of(0usize..40)), 4),
    ) {
        let schema = schema();
        let mut indexes = indexes_of(&schema);
        let mut items = std::collections::BTreeMap::new();
        for ((key, item), delete) in writes {
            let old = items.remove(&key);
            if let Some(old) = &old {
                for index in &mut indexes {
                    index.remove(&key, old);
                }
            }
            if !delete {
                for index in &mut indexes {
                    index.insert(&key, &item);
                }
                items.insert(key, item);
            }
        }
        for index in &indexes {
            let model = model(index, &items);
            prop_assert_eq!(index.item_count(), model.len() as i64);
            for (g, lo, hi, forward) in &queries {
                // The GSI's partitions by `g`; the LSI's by `p` (the same values for every query).
                let hash = if index.global {
                    KeyValue::N(*g)
                } else {
                    KeyValue::S("y".into())
                };
                // An LSI's start keys hold the partition's own table partition key (read.rs checks
                // that), which its positions leave out.
                let (lo, hi) = if index.global {
                    (lo.clone(), hi.clone())
                } else {
                    (in_partition(lo, &hash), in_partition(hi, &hash))
                };
                let (lo, hi) = (&lo, &hi);
                let got: Vec<Item> = index
                    .range(&hash, lo.clone(), hi.clone(), *forward)
                    .map(|e| e.decode())
                    .collect();
                let mut want: Vec<Item> = model
                    .iter()
                    .filter(|e| e.1 == hash && (lo.clone(), hi.clone()).contains(&e.2))
                    .map(|e| e.3.clone())
                    .collect();
                if !forward {
                    want.reverse();
                }
                prop_assert_eq!(got, want, "{} {:?} {:?} {:?}", index.name, lo, hi, forward);
            }
            for (segment, start) in &scans {
                // Four segments of the hash space; a start key taken from the model's entries.
                let from = crate::read::paging::segment_start(*segment as u32, 4);
                let to = (*segment < 3).then(|| crate::read::paging::segment_start(*segment as u32 + 1, 4));
                let start = start.and_then(|i| model.get(i)).filter(|e| {
                    crate::read::paging::segment_of(e.0, 4) == *segment as u32
                });
                let got: Vec<Item> = index
                    .scan(from, to, start.map(|e| (e.1.clone(), e.2.clone())))
                    .map(|e| e.decode())
                    .collect();
                let want: Vec<Item> = model
                    .iter()
                    .filter(|e| e.0 >= from && to.is_none_or(|to| e.0 < to))
                    .filter(|e| start.is_none_or(|s| (e.0, &e.1, &e.2) > (s.0, &s.1, &s.2)))
                    .map(|e| e.3.clone())
                    .collect();
                prop_assert_eq!(got, want, "{} scan {:?}", index.name, segment);
            }
        }
    }
}

#[test]
fn entry_key_names_are_the_table_key_then_the_index_key_without_repeats() {
    let schema = schema();
    let indexes = indexes_of(&schema);
    let names = |name: &str| {
        let index = indexes.iter().find(|i| i.name == name).unwrap();
        let borrowed: Vec<&str> = index.entry_key_name_refs().collect();
        assert_eq!(index.entry_key_names(), borrowed, "{name}");
        index.entry_key_names()
    };
    // The LSI shares the partition key with the table: `p` once.
    assert_eq!(names("l"), ["p", "s", "r"]);
    assert_eq!(names("g"), ["p", "s", "g", "r"]);
}
