//! The engine's `put_item_from` (the item written straight into the stored form,
//! `storage/stored/written.rs`) against `put_item` of the same attributes as an `Item`: for many
//! generated items (a fixed seed), valid and invalid, written in a shuffled order, with names
//! written twice and part of the item in the input, both leave identical engines (items, index
//! entries, stream records, table totals; a durable engine's log replays to the same items) and
//! give identical answers and errors.

use dynomodel::backend::{
    AttributeSink, AttributeWriter, Backend, CreateTableInput, DescribeTableInput,
    GlobalSecondaryIndex, KeySchemaElement, LocalSecondaryIndex, Projection, ProjectionType,
    PutItemInput, QueryInput, ReturnConsumedCapacity, ReturnItemCollectionMetrics, ReturnValue,
    ScalarAttributeType, ScanInput, StreamSpecification, StreamViewType, TimeToLiveSpecification,
    UpdateTimeToLiveInput,
};
use dynomodel::{AttributeValue, ConversionError, Item};

use super::{def, table_input};
use crate::MemBackend;

/// A small fixed-seed generator (xorshift), so that a failure replays.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// 0..n.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len() as u64) as usize]
    }

    fn string(&mut self) -> String {
        let len = self.below(6) as usize;
        (0..len)
            .map(|_| self.pick(&["a", "b", "é", "z", "0", "😀"]))
            .collect()
    }

    fn number(&mut self) -> dynomodel::Number {
        let text = match self.below(5) {
            0 => format!("{}", self.below(100)),
            1 => format!("-{}.{}", self.below(1000), self.below(100)),
            2 => format!("{}E{}", self.below(9) + 1, self.below(60)),
            3 => "0.000000000000000000001".to_owned(),
            _ => "123456789012345678901234567890.12345678".to_owned(),
        };
        text.parse().expect("a valid number")
    }

    /// A value of any type, nested up to `depth` more levels; sometimes invalid (an empty or
    /// duplicated set) when `invalid` allows.
    fn value(&mut self, depth: u32, invalid: bool) -> AttributeValue {
        let kinds = if depth == 0 { 9 } else { 11 };
        match self.below(kinds) {
            0 => AttributeValue::S(self.string()),
            1 => AttributeValue::N(self.number()),
            2 => AttributeValue::B((0..self.below(4)).map(|i| i as u8).collect()),
            3 => AttributeValue::Bool(self.one_in(2)),
            4 => AttributeValue::Null,
            5 => {
                let n = if invalid && self.one_in(4) {
                    0
                } else {
                    1 + self.below(3)
                };
                let mut set: Vec<String> = (0..n).map(|i| format!("s{i}")).collect();
                if invalid && n > 0 && self.one_in(4) {
                    set.push("s0".into());
                }
                AttributeValue::Ss(set)
            }
            6 => {
                let n = if invalid && self.one_in(4) {
                    0
                } else {
                    1 + self.below(3)
                };
                let mut set: Vec<dynomodel::Number> = (0..n).map(|i| (i as i64).into()).collect();
                if invalid && n > 0 && self.one_in(4) {
                    set.push("0.0".parse().expect("a number"));
                }
                AttributeValue::Ns(set)
            }
            7 => {
                let n = if invalid && self.one_in(4) {
                    0
                } else {
                    1 + self.below(3)
                };
                AttributeValue::Bs((0..n).map(|i| vec![i as u8]).collect())
            }
            8 => AttributeValue::S(String::new()),
            9 => AttributeValue::L(
                (0..self.below(3))
                    .map(|_| self.value(depth - 1, invalid))
                    .collect(),
            ),
            _ => {
                let mut map = Item::new();
                for _ in 0..self.below(3) {
                    let name = if invalid && self.one_in(8) {
                        String::new()
                    } else {
                        self.pick(&["x", "y", "é"]).to_owned()
                    };
                    map.insert(name, self.value(depth - 1, invalid));
                }
                AttributeValue::M(map)
            }
        }
    }

    /// A value nested 33 levels (one past DynamoDB's limit).
    fn too_deep(&mut self) -> AttributeValue {
        (0..33).fold(AttributeValue::Null, |v, _| AttributeValue::L(vec![v]))
    }
}

/// One generated put: the item, and how the writer hands it over.
struct Case {
    item: Item,
    /// The order the writer writes the item's names in.
    order: Vec<String>,
    /// Values written before the item's own under the same name (replaced by it).
    decoys: Vec<(String, AttributeValue)>,
    /// How many of the item's attributes (in `order`) go in the input's own item instead.
    in_input: usize,
}

fn case(g: &mut Gen) -> Case {
    let invalid = g.one_in(3);
    let mut item = Item::new();
    // The table key: sometimes missing, mistyped or empty.
    match g.below(if invalid { 12 } else { 1 }) {
        1 => {}
        2 => {
            item.insert("pk".into(), AttributeValue::N(1.into()));
        }
        3 => {
            item.insert("pk".into(), AttributeValue::S(String::new()));
        }
        _ => {
            item.insert("pk".into(), AttributeValue::S(format!("p{}", g.below(6))));
        }
    }
    match g.below(if invalid { 12 } else { 1 }) {
        1 => {}
        2 => {
            item.insert("sk".into(), AttributeValue::S("x".into()));
        }
        _ => {
            item.insert("sk".into(), AttributeValue::N(g.below(4).into()));
        }
    }
    // The index keys: sometimes absent, mistyped or empty.
    match g.below(if invalid { 5 } else { 3 }) {
        0 => {}
        3 => {
            item.insert("g".into(), AttributeValue::N(1.into()));
        }
        4 => {
            item.insert("g".into(), AttributeValue::S(String::new()));
        }
        _ => {
            item.insert("g".into(), AttributeValue::S(format!("g{}", g.below(3))));
        }
    }
    if g.one_in(2) {
        item.insert("l".into(), AttributeValue::N(g.below(5).into()));
    }
    if g.one_in(3) {
        item.insert(
            "ttl".into(),
            AttributeValue::N((START + g.below(10)).into()),
        );
    }
    for _ in 0..g.below(6) {
        let name = g.pick(&["a", "b", "c", "m", "zz", "Ä", "a1", "B"]);
        item.insert(name.into(), g.value(3, invalid));
    }
    if invalid && g.one_in(6) {
        item.insert(String::new(), AttributeValue::S("no name".into()));
    }
    if invalid && g.one_in(6) {
        item.insert("deep".into(), g.too_deep());
    }
    if g.one_in(20) {
        // Past the 400 KB limit.
        item.insert("big".into(), AttributeValue::S("x".repeat(410_000)));
    }
    let mut order: Vec<String> = item.keys().cloned().collect();
    for i in (1..order.len()).rev() {
        order.swap(i, g.below(i as u64 + 1) as usize);
    }
    let in_input = if g.one_in(5) {
        g.below(order.len() as u64 + 1) as usize
    } else {
        0
    };
    // A decoy is written by the writer before the value that replaces it (a name of the input's
    // item written by the writer would replace the input's value instead).
    let mut decoys = Vec::new();
    if order.len() > in_input && g.one_in(3) {
        let name = order[in_input + g.below((order.len() - in_input) as u64) as usize].clone();
        let value = if g.one_in(2) {
            AttributeValue::Ss(Vec::new())
        } else {
            g.value(2, false)
        };
        decoys.push((name, value));
    }
    Case {
        item,
        order,
        decoys,
        in_input,
    }
}

/// The writer of a case: its decoys, then the item's attributes past `in_input`, in `order`.
struct Writes<'a>(&'a Case);

impl AttributeWriter for Writes<'_> {
    fn write(&self, sink: &mut dyn AttributeSink) -> Result<(), ConversionError> {
        for (name, value) in &self.0.decoys {
            sink.insert(name.clone(), value.clone());
        }
        for name in self.0.order.iter().skip(self.0.in_input) {
            if let Some(value) = self.0.item.get(name) {
                sink.insert(name.clone(), value.clone());
            }
        }
        Ok(())
    }
}

/// When the engines' clock starts (2026-01-01, seconds since the epoch): the items' `ttl` values
/// lie in the ten seconds after it.
const START: u64 = 1_767_225_600;

/// The table of plain items, the one with a GSI (`g`), an LSI (`l`), a stream and TTL, and
/// `quiet`, the same without the stream (whose puts in the stored form keep the indexes, TTL and
/// item collections from the stored bytes, with no `Item` decoded).
fn tables() -> [CreateTableInput; 3] {
    let plain = table_input(
        "plain",
        ScalarAttributeType::S,
        Some(ScalarAttributeType::N),
    );
    let mut indexed = table_input(
        "indexed",
        ScalarAttributeType::S,
        Some(ScalarAttributeType::N),
    );
    indexed.attribute_definitions.extend([
        def("g", ScalarAttributeType::S),
        def("l", ScalarAttributeType::N),
    ]);
    indexed.global_secondary_indexes = vec![GlobalSecondaryIndex {
        index_name: "by-g".into(),
        key_schema: vec![KeySchemaElement::hash("g")],
        projection: Projection {
            projection_type: ProjectionType::Include,
            non_key_attributes: vec!["a".into()],
        },
        provisioned_throughput: None,
    }];
    indexed.local_secondary_indexes = vec![LocalSecondaryIndex {
        index_name: "by-l".into(),
        key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("l")],
        projection: Projection {
            projection_type: ProjectionType::All,
            non_key_attributes: Vec::new(),
        },
    }];
    indexed.stream_specification = Some(StreamSpecification {
        stream_enabled: true,
        stream_view_type: Some(StreamViewType::NewAndOldImages),
    });
    let quiet = CreateTableInput {
        table_name: "quiet".into(),
        stream_specification: None,
        ..indexed.clone()
    };
    [plain, indexed, quiet]
}

async fn create(backend: &MemBackend) {
    for table in tables() {
        backend.create_table(table).await.expect("create table");
    }
    for table in ["indexed", "quiet"] {
        backend
            .update_time_to_live(UpdateTimeToLiveInput {
                table_name: table.into(),
                time_to_live_specification: TimeToLiveSpecification {
                    enabled: true,
                    attribute_name: "ttl".into(),
                },
            })
            .await
            .expect("ttl");
    }
}

/// The request of a case's put (its item left to the caller).
fn request(g: &mut Gen) -> PutItemInput {
    PutItemInput {
        table_name: g
            .pick(&["plain", "indexed", "quiet", "indexed", "quiet", "missing"])
            .into(),
        condition_expression: g.one_in(6).then(|| "attribute_not_exists(a)".to_owned()),
        return_values: g.one_in(2).then_some(ReturnValue::AllOld),
        return_consumed_capacity: g.one_in(3).then_some(ReturnConsumedCapacity::Indexes),
        return_item_collection_metrics: g.one_in(3).then_some(ReturnItemCollectionMetrics::Size),
        ..Default::default()
    }
}

/// Puts the case's item through `put_item` into `by_item`, through `put_item_from` into each of
/// `by_writer`, and asserts the same answer from all; returns the error's message (`None`: stored).
async fn put_both(
    g: &mut Gen,
    by_item: &MemBackend,
    by_writer: &[&MemBackend],
    n: usize,
) -> Option<String> {
    let case = case(g);
    let input = request(g);
    let expected = by_item
        .put_item(PutItemInput {
            item: case.item.clone(),
            ..input.clone()
        })
        .await;
    let mut given = Item::new();
    for name in case.order.iter().take(case.in_input) {
        given.insert(name.clone(), case.item[name].clone());
    }
    for backend in by_writer {
        let written = backend
            .put_item_from(
                PutItemInput {
                    item: given.clone(),
                    ..input.clone()
                },
                &Writes(&case),
            )
            .await;
        assert_eq!(
            format!("{written:?}"),
            format!("{expected:?}"),
            "case {n}: {:?} written in the order {:?} after {:?}, {} in the input",
            case.item,
            case.order,
            case.decoys,
            case.in_input
        );
    }
    expected.err().map(|e| e.message())
}

/// Everything a client can read of the tables: items, index entries, stream records, totals.
async fn contents(backend: &MemBackend) -> Vec<String> {
    let mut out = Vec::new();
    for (table, index) in [
        ("plain", None),
        ("indexed", None),
        ("indexed", Some("by-g")),
        ("indexed", Some("by-l")),
        ("quiet", None),
        ("quiet", Some("by-g")),
        ("quiet", Some("by-l")),
    ] {
        let scan = backend
            .scan(ScanInput {
                table_name: table.into(),
                index_name: index.map(Into::into),
                ..Default::default()
            })
            .await
            .expect("scan");
        out.push(format!("{table} {index:?}: {:?}", scan.items));
    }
    for (table, pk) in ["indexed", "quiet"]
        .into_iter()
        .flat_map(|t| (0..6).map(move |pk| (t, pk)))
    {
        let query = backend
            .query(QueryInput {
                table_name: table.into(),
                index_name: Some("by-l".into()),
                key_condition_expression: Some("pk = :p".into()),
                expression_attribute_values: Some(Item::from([(
                    ":p".to_owned(),
                    AttributeValue::S(format!("p{pk}")),
                )])),
                ..Default::default()
            })
            .await
            .expect("query");
        out.push(format!("{table} by-l p{pk}: {:?}", query.items));
    }
    for table in ["plain", "indexed", "quiet"] {
        let d = backend
            .describe_table(DescribeTableInput {
                table_name: table.into(),
            })
            .await
            .expect("describe")
            .table;
        out.push(format!(
            "{table}: {} items, {} bytes, {:?}",
            d.item_count,
            d.table_size_bytes,
            d.local_secondary_indexes
                .iter()
                .map(|i| (i.item_count, i.index_size_bytes))
                .collect::<Vec<_>>()
        ));
    }
    out
}

async fn stream_records(backend: &MemBackend) -> Vec<String> {
    let d = backend
        .describe_table(DescribeTableInput {
            table_name: "indexed".into(),
        })
        .await
        .expect("describe")
        .table;
    let arn = d.latest_stream_arn.expect("a stream");
    super::stream_records(backend, &arn)
        .await
        .into_iter()
        .map(|r| {
            format!(
                "{:?} {:?} {:?} {:?} {}",
                r.event_name,
                r.dynamodb.keys,
                r.dynamodb.old_image,
                r.dynamodb.new_image,
                r.dynamodb.size_bytes
            )
        })
        .collect()
}

#[test]
fn put_item_from_and_put_item_leave_identical_engines() {
    block_on(async {
        let start = chrono::DateTime::from_timestamp(START as i64, 0).expect("a time");
        let clock = crate::ManualClock::new(start);
        let by_item = MemBackend::builder().clock(clock.clone()).build();
        let by_writer = MemBackend::builder().clock(clock.clone()).build();
        create(&by_item).await;
        create(&by_writer).await;
        let mut g = Gen(0x5eed_0028);
        let mut answers = std::collections::BTreeMap::<String, usize>::new();
        for n in 0..3000 {
            let answer = put_both(&mut g, &by_item, &[&by_writer], n).await;
            let answer = answer.unwrap_or_else(|| "stored".into());
            // The message up to its variable part (a set's elements, a name).
            let kind = answer.chars().take(100).collect();
            *answers.entry(kind).or_default() += 1;
        }
        // The generator reaches every rule a put checks.
        let seen = |text: &str| answers.keys().filter(|k| k.contains(text)).count();
        for text in [
            "stored",
            "An string set  may not be empty",
            "Binary sets should not be empty",
            "contains duplicates",
            "Empty attribute name",
            "Nesting Levels",
            "Item size has exceeded",
            "Missing the key",
            "Type mismatch for key",
            "Type mismatch for Index Key",
            "The AttributeValue for a key attribute cannot contain an",
            "A value specified for a secondary index key",
            "The conditional request failed",
            "Requested resource not found",
        ] {
            assert!(seen(text) > 0, "no put answered {text:?}: {answers:#?}");
        }
        assert_eq!(contents(&by_writer).await, contents(&by_item).await);
        let records = stream_records(&by_item).await;
        assert!(records.len() > 100, "the stream recorded the puts");
        assert_eq!(stream_records(&by_writer).await, records);
        assert_eq!(by_writer.consistency_problems(), Vec::<String>::new());
        // Time to Live finds the same expired items, in the table and its indexes.
        clock.advance(std::time::Duration::from_secs(3600));
        let swept = by_item.sweep_expired();
        assert!(swept > 0, "some items expired");
        assert_eq!(by_writer.sweep_expired(), swept);
        assert_eq!(contents(&by_writer).await, contents(&by_item).await);
    });
}

/// A durable engine's log of puts written straight into the stored form replays to the same items.
#[cfg(feature = "durable")]
#[test]
fn a_durable_log_of_written_puts_replays_to_the_same_items() {
    let dir = std::env::temp_dir().join(format!("dynomodel-written-puts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    block_on(async {
        let by_item = MemBackend::new();
        create(&by_item).await;
        let durable = MemBackend::builder().open(&dir).expect("open");
        create(&durable).await;
        let mut g = Gen(0xd00d_0028);
        for n in 0..600 {
            put_both(&mut g, &by_item, &[&durable], n).await;
        }
        let expected = contents(&by_item).await;
        assert_eq!(contents(&durable).await, expected);
        drop(durable);
        let reopened = MemBackend::builder().open(&dir).expect("reopen");
        assert_eq!(contents(&reopened).await, expected);
        assert_eq!(reopened.consistency_problems(), Vec::<String>::new());
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs a test's body (the engine's futures complete without a reactor).
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime")
        .block_on(future)
}
