//! The JSON writer's responses are byte for byte what the server printed before: for each response
//! that is written directly, over a broad set of outputs (every attribute type, nesting, unicode and
//! control characters, empty sets, lists and maps, big and small numbers, binaries, every optional
//! member present and absent), the writer's bytes equal `serde_json::to_vec` of the old builder's
//! `Value` (`oracle.rs`).

use std::collections::BTreeMap;

use chrono::{TimeZone, Utc};
use dynomodel::backend::{
    BatchExecuteStatementOutput, BatchGetItemOutput, BatchStatementError, BatchStatementResponse,
    BatchWriteItemOutput, Capacity, ConsumedCapacity, ExecuteStatementOutput, GetRecordsOutput,
    Identity, ItemCollectionMetrics, KeysAndAttributes, OperationType, QueryOutput, Record,
    StreamRecord, StreamViewType, TransactGetItemsOutput, TransactWriteItemsOutput, WriteRequest,
};
use dynomodel::{AttributeValue, Item, Number};
use serde_json::Value;

use super::oracle;
use crate::protocol::{batch, item, partiql, streams, transact, value};

/// Asserts that the writer's `bytes` are the oracle's `Value` as serde_json prints it.
#[track_caller]
fn same(bytes: Vec<u8>, oracle: Value) {
    let expected = serde_json::to_string(&oracle).unwrap();
    let written = String::from_utf8(bytes).unwrap();
    assert_eq!(written, expected);
}

fn n(text: &str) -> Number {
    text.parse().unwrap()
}

/// Strings that exercise every escape: all control characters, quotes, backslashes, U+007F,
/// multi-byte UTF-8, the line separators JavaScript minds, an empty string.
fn awkward_strings() -> Vec<String> {
    let controls: String = (0u8..0x20).map(char::from).collect();
    vec![
        String::new(),
        "plain".into(),
        controls,
        "\"quoted\" \\ back/slash\u{7f}".into(),
        "é ü 中文 🦀 \u{2028}\u{2029} \u{feff}".into(),
        "tab\tnew\nline\rfeed\u{8}\u{c}".into(),
    ]
}

/// One value of every type, nested, empty and awkward.
fn every_value() -> Vec<AttributeValue> {
    let strings = awkward_strings();
    let mut values: Vec<AttributeValue> = strings.iter().cloned().map(AttributeValue::S).collect();
    values.extend(
        [
            "0",
            "-1",
            "1.5",
            "-0.000000000000000000000000000000000000001",
            "12345678901234567890123456789012345678",
            "9.9999999999999999999999999999999999999E+125",
            "1E-130",
        ]
        .map(|t| AttributeValue::N(n(t))),
    );
    values.extend([
        AttributeValue::B(Vec::new()),
        AttributeValue::B(vec![0]),
        AttributeValue::B(vec![0xff, 0xfe]),
        AttributeValue::B((0..=255).collect()),
        AttributeValue::Bool(true),
        AttributeValue::Bool(false),
        AttributeValue::Null,
        AttributeValue::Ss(Vec::new()),
        AttributeValue::Ss(strings.clone()),
        AttributeValue::Ns(Vec::new()),
        AttributeValue::Ns(vec![n("1"), n("-2.5"), n("1E+100")]),
        AttributeValue::Bs(Vec::new()),
        AttributeValue::Bs(vec![vec![1], vec![2, 3], Vec::new()]),
        AttributeValue::L(Vec::new()),
        AttributeValue::M(Item::new()),
    ]);
    let flat = values.clone();
    values.push(AttributeValue::L(flat.clone()));
    let named: Item = flat
        .iter()
        .enumerate()
        .map(|(i, v)| (format!("{}{i}", strings[i % strings.len()]), v.clone()))
        .collect();
    values.push(AttributeValue::M(named.clone()));
    values.push(AttributeValue::L(vec![
        AttributeValue::M(named.clone()),
        AttributeValue::L(vec![AttributeValue::M(named)]),
    ]));
    values
}

/// Items: empty, one of every value under names that need escaping, and a typical one.
fn items() -> Vec<Item> {
    let all: Item = every_value()
        .into_iter()
        .enumerate()
        .map(|(i, v)| (format!("a\u{1}\"é{i:03}"), v))
        .collect();
    let typical: Item = [
        ("pk".to_owned(), AttributeValue::S("user0001".into())),
        ("sk".to_owned(), AttributeValue::N(n("17"))),
        ("active".to_owned(), AttributeValue::Bool(true)),
    ]
    .into();
    vec![Item::new(), all, typical]
}

fn capacity(units: f64) -> Capacity {
    Capacity {
        read_capacity_units: Some(units / 2.0),
        write_capacity_units: Some(units * 3.0),
        capacity_units: Some(units),
    }
}

/// Consumed capacities: bare, total only, with every member (tables, indexes, odd doubles).
fn consumed() -> Vec<ConsumedCapacity> {
    let indexes = |names: &[&str]| -> BTreeMap<String, Capacity> {
        names
            .iter()
            .enumerate()
            .map(|(i, name)| (name.to_string(), capacity(i as f64 + 0.5)))
            .collect()
    };
    vec![
        ConsumedCapacity {
            table_name: "t".into(),
            ..Default::default()
        },
        ConsumedCapacity {
            table_name: "t\"\n".into(),
            capacity_units: Some(1.0),
            ..Default::default()
        },
        ConsumedCapacity {
            table_name: "orders".into(),
            capacity_units: Some(132.0),
            read_capacity_units: Some(0.5),
            write_capacity_units: Some(1e16),
            table: Some(capacity(1.0)),
            local_secondary_indexes: indexes(&["lsi", "by_date"]),
            global_secondary_indexes: indexes(&["gsi"]),
        },
        ConsumedCapacity {
            table_name: "odd".into(),
            capacity_units: Some(f64::NAN),
            read_capacity_units: Some(1.0 / 3.0),
            table: Some(Capacity::default()),
            ..Default::default()
        },
    ]
}

fn metrics() -> Vec<ItemCollectionMetrics> {
    vec![
        ItemCollectionMetrics::default(),
        ItemCollectionMetrics {
            item_collection_key: items()[2].clone(),
            size_estimate_range_gb: vec![0.0, 1.0],
        },
        ItemCollectionMetrics {
            item_collection_key: items()[1].clone(),
            size_estimate_range_gb: vec![1.5e-7, f64::INFINITY],
        },
    ]
}

/// `None` and each of `list`.
fn optional<T: Clone>(list: &[T]) -> Vec<Option<T>> {
    std::iter::once(None)
        .chain(list.iter().cloned().map(Some))
        .collect()
}

#[test]
fn attribute_values_and_items() {
    for v in every_value() {
        let mut out = Vec::new();
        value::write_attribute_value(&mut out, &v);
        same(out, value::attribute_value_to_json(&v));
    }
    for item in items() {
        let mut out = Vec::new();
        value::write_item(&mut out, &item);
        same(out, value::item_to_json(&item));
    }
}

#[test]
fn single_item_responses() {
    for member in ["Attributes", "Item"] {
        for found in optional(&items()) {
            for c in optional(&consumed()) {
                for m in optional(&metrics()) {
                    same(
                        item::single_item(member, found.as_ref(), c.as_ref(), m.as_ref()),
                        oracle::single_item(member, found.as_ref(), c.as_ref(), m.as_ref()),
                    );
                }
            }
        }
    }
}

#[test]
fn query_and_scan_pages() {
    let lists = [None, Some(Vec::new()), Some(items())];
    for found in lists {
        for key in optional(&items()) {
            for c in optional(&consumed()) {
                let out = QueryOutput {
                    count: found.as_ref().map_or(7, Vec::len) as i32,
                    scanned_count: i32::MAX,
                    items: found.clone(),
                    last_evaluated_key: key.clone(),
                    consumed_capacity: c,
                };
                same(item::page(out.clone()), oracle::page(&out));
            }
        }
    }
}

#[test]
fn batch_responses() {
    let lists = [Vec::new(), consumed()];
    let keys = KeysAndAttributes {
        keys: items(),
        consistent_read: Some(true),
        projection_expression: Some("#a, b.c[1]".into()),
        expression_attribute_names: Some([("#a".to_owned(), "é\"".to_owned())].into()),
        attributes_to_get: Some(awkward_strings()),
    };
    let bare = KeysAndAttributes {
        keys: vec![items()[2].clone()],
        consistent_read: Some(false),
        ..Default::default()
    };
    for consumed in &lists {
        for unprocessed in [
            BTreeMap::new(),
            [
                ("t".to_owned(), keys.clone()),
                ("u\n".to_owned(), bare.clone()),
            ]
            .into(),
        ] {
            for responses in [
                BTreeMap::new(),
                [("t".to_owned(), items()), ("empty".to_owned(), Vec::new())].into(),
            ] {
                let out = BatchGetItemOutput {
                    responses,
                    unprocessed_keys: unprocessed.clone(),
                    consumed_capacity: consumed.clone(),
                };
                same(
                    batch::batch_get_response(&out),
                    oracle::batch_get_response(&out),
                );
            }
        }
        let writes: Vec<WriteRequest> = items()
            .into_iter()
            .flat_map(|i| {
                [
                    WriteRequest::Put { item: i.clone() },
                    WriteRequest::Delete { key: i },
                ]
            })
            .collect();
        for unprocessed in [BTreeMap::new(), [("t".to_owned(), writes)].into()] {
            for per_table in [BTreeMap::new(), [("t".to_owned(), metrics())].into()] {
                let out = BatchWriteItemOutput {
                    unprocessed_items: unprocessed.clone(),
                    consumed_capacity: consumed.clone(),
                    item_collection_metrics: per_table,
                };
                same(
                    batch::batch_write_response(&out),
                    oracle::batch_write_response(&out),
                );
            }
        }
    }
}

#[test]
fn transaction_responses() {
    let found: Vec<Option<Item>> = optional(&items());
    for consumed in [Vec::new(), consumed()] {
        for responses in [Vec::new(), found.clone()] {
            let out = TransactGetItemsOutput {
                responses: responses.clone(),
                consumed_capacity: consumed.clone(),
            };
            same(
                transact::transact_get_response(&out),
                oracle::transact_get_response(&out),
            );
            // ExecuteTransaction answers the same shape.
            same(
                transact::responses_body(&responses, &consumed),
                oracle::execute_transaction_response(&responses, &consumed),
            );
        }
        for per_table in [
            BTreeMap::new(),
            [("a".to_owned(), metrics()), ("b".to_owned(), Vec::new())].into(),
        ] {
            let out = TransactWriteItemsOutput {
                consumed_capacity: consumed.clone(),
                item_collection_metrics: per_table,
            };
            same(
                transact::transact_write_response(&out),
                oracle::transact_write_response(&out),
            );
        }
    }
}

#[test]
fn partiql_responses() {
    for found in [None, Some(Vec::new()), Some(items())] {
        for token in [None, Some("tok\u{0}en".to_owned())] {
            for key in optional(&items()) {
                for c in optional(&consumed()) {
                    let out = ExecuteStatementOutput {
                        items: found.clone(),
                        next_token: token.clone(),
                        consumed_capacity: c,
                        last_evaluated_key: key.clone(),
                    };
                    same(
                        partiql::execute_statement_response(&out),
                        oracle::execute_statement_response(&out),
                    );
                }
            }
        }
    }
    let mut responses = Vec::new();
    for code in [None, Some("ConditionalCheckFailed")] {
        for message in [None, Some("The conditional request failed \"x\"\n")] {
            for error_item in optional(&items()) {
                for table in [None, Some("t")] {
                    for item in [None, Some(items()[1].clone())] {
                        responses.push(BatchStatementResponse {
                            error: code.map(|code| BatchStatementError {
                                code: code.into(),
                                message: message.map(str::to_owned),
                                item: error_item.clone(),
                            }),
                            table_name: table.map(str::to_owned),
                            item,
                        });
                    }
                }
            }
        }
    }
    for consumed in [Vec::new(), consumed()] {
        for responses in [Vec::new(), responses.clone()] {
            let out = BatchExecuteStatementOutput {
                responses,
                consumed_capacity: consumed.clone(),
            };
            same(
                partiql::batch_execute_statement_response(&out),
                oracle::batch_execute_statement_response(&out),
            );
        }
    }
}

#[test]
fn stream_records() {
    let at = Utc.timestamp_millis_opt(1_700_000_000_123).unwrap();
    let whole = Utc.timestamp_millis_opt(1_700_000_000_000).unwrap();
    let mut records = Vec::new();
    for (i, (name, view)) in [
        (OperationType::Insert, StreamViewType::NewImage),
        (OperationType::Modify, StreamViewType::NewAndOldImages),
        (OperationType::Remove, StreamViewType::KeysOnly),
        (OperationType::Remove, StreamViewType::OldImage),
    ]
    .into_iter()
    .enumerate()
    {
        for images in optional(&items()) {
            records.push(Record {
                event_id: format!("id{i}"),
                event_name: name,
                event_version: "1.1".into(),
                event_source: "aws:dynamodb".into(),
                aws_region: "ddblocal".into(),
                dynamodb: StreamRecord {
                    approximate_creation_date_time: [None, Some(at), Some(whole)][i % 3],
                    keys: items()[2].clone(),
                    new_image: images.clone(),
                    old_image: images.clone().filter(|_| i % 2 == 1),
                    sequence_number: format!("{:021}", i),
                    size_bytes: 149 + i as i64,
                    stream_view_type: view,
                },
                user_identity: (i == 3).then(Identity::time_to_live),
            });
        }
    }
    for next in [None, Some("shard-iterator/é".to_owned())] {
        for records in [Vec::new(), records.clone()] {
            let out = GetRecordsOutput {
                records,
                next_shard_iterator: next.clone(),
            };
            same(
                streams::get_records_response(&out),
                oracle::get_records_response(&out),
            );
        }
    }
}
