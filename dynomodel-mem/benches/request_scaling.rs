//! How a request's cost grows with its size (it must grow linearly): for each size dimension of a
//! DynamoDB request, the CPU time the wire layer and the engine spend on it (JSON body in, response
//! bytes out, as the server answers it, without HTTP), at sizes that double, and the ratio of each
//! size's cost to the previous one's. A linear step shows ×2 per doubling, an n log n one a little
//! more, a quadratic one ×4. Valid and invalid requests alike: what a request costs before it is
//! refused is what a hostile client can make the server spend.
//!
//! `cargo bench -p dynomodel-mem --features server --bench request_scaling [-- DIMENSION...]
//! [-- --full]`: without `--full`, each dimension stops four doublings after its smallest size (a
//! sanity check in seconds); with it, at its largest (most reach a 16 MB body: minutes). Figures for
//! `docs/performance.md` come from `--full`. With `--one`, each dimension runs at `n = 1` only: a
//! small request of its shape, whose instructions `valgrind --tool=callgrind` counts; with `--at=N`,
//! at `n = N` only and once (callgrind's instructions per MB of one dimension, with
//! `--toggle-collect='dynomodel_mem::protocol::respond*'`). Not run in CI.

#![allow(missing_docs, clippy::unwrap_used)]

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use dynomodel_mem::__private::wire;
use dynomodel_mem::MemBackend;

/// The `dynomodel-mem` binary's allocator, so that the figures are the server's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// One size dimension: requests whose size grows with `n`.
struct Dimension {
    name: &'static str,
    /// What `n` counts.
    unit: &'static str,
    /// The smallest and largest `n`; sizes double from the first to the last.
    sizes: (usize, usize),
    /// Requests that prepare the engine for size `n` (run once, not timed).
    setup: fn(usize) -> Vec<(&'static str, String)>,
    /// The timed request of size `n`.
    request: fn(usize) -> (&'static str, String),
}

fn no_setup(_: usize) -> Vec<(&'static str, String)> {
    Vec::new()
}

/// `n` placeholders `#n0`… naming `a0`…, as JSON members.
fn names(n: usize) -> String {
    let mut out = String::new();
    for i in 0..n {
        let _ = write!(out, r##"{}"#n{i}":"a{i}""##, if i > 0 { "," } else { "" });
    }
    out
}

/// `n` value placeholders `:v0`… as JSON members.
fn values(n: usize) -> String {
    let mut out = String::new();
    for i in 0..n {
        let _ = write!(
            out,
            r#"{}":v{i}":{{"S":"x"}}"#,
            if i > 0 { "," } else { "" }
        );
    }
    out
}

/// `items` separated by `sep`, each made by `one(i)`.
fn joined(n: usize, sep: &str, one: impl Fn(usize) -> String) -> String {
    (0..n).map(one).collect::<Vec<_>>().join(sep)
}

/// A PutItem of the item `pk = "big"` with more members.
fn put_item(item_members: &str) -> (&'static str, String) {
    let body = format!(r#"{{"TableName":"tbl","Item":{{"pk":{{"S":"big"}}{item_members}}}}}"#);
    ("PutItem", body)
}

/// A string of `n` bytes, all `x` but the last (so that prefixes compare equal for long).
fn long_name(n: usize, i: usize) -> String {
    let tail = format!("{i}");
    format!("{}{tail}", "x".repeat(n.saturating_sub(tail.len())))
}

/// The item `pk = "big"` holding a string set of `n` elements.
fn set_setup(n: usize) -> Vec<(&'static str, String)> {
    let set = joined(n, ",", |i| format!(r#""e{i}""#));
    vec![put_item(&format!(r#","s":{{"SS":[{set}]}}"#))]
}

/// The item `pk = "big"` holding a binary of `n` zero bytes.
fn binary_setup(n: usize) -> Vec<(&'static str, String)> {
    vec![put_item(&format!(
        r#","b":{{"B":"{}"}}"#,
        base64(&vec![0u8; n])
    ))]
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

const DIMENSIONS: &[Dimension] = &[
    Dimension {
        // Past 128,000 (1.7 MB of names) the map is past its 2 MiB cap, refused before the unused
        // check: the one pass then builds it whole for the engine to measure.
        name: "unused_names",
        unit: "ExpressionAttributeNames",
        sizes: (1_000, 512_000),
        setup: no_setup,
        request: |n| {
            let body = format!(
                r##"{{"TableName":"tbl","Key":{{"pk":{{"S":"k"}}}},"ProjectionExpression":"#n0","ExpressionAttributeNames":{{{}}}}}"##,
                names(n)
            );
            ("GetItem", body)
        },
    },
    Dimension {
        // Past 128,000 (1.0 MB of values; 256,000 are 2.2 MB) the map is past its 2 MiB cap,
        // refused before the unused check (the one pass still reduces it, its kept value
        // standing for the rest's measure).
        name: "unused_values",
        unit: "ExpressionAttributeValues",
        sizes: (1_000, 512_000),
        setup: no_setup,
        request: |n| {
            let body = format!(
                r#"{{"TableName":"tbl","Item":{{"pk":{{"S":"k"}}}},"ConditionExpression":"attribute_not_exists(a) OR a = :v0","ExpressionAttributeValues":{{{}}}}}"#,
                values(n)
            );
            ("PutItem", body)
        },
    },
    Dimension {
        name: "expression_bytes",
        unit: "bytes of FilterExpression",
        sizes: (256, 8_192),
        setup: no_setup,
        request: |n| {
            // `size(a0) > :v AND …`: 16 bytes a term.
            let text = joined(n / 16, " OR ", |i| format!("size(a{:03}) > :v", i % 1000));
            let body = format!(
                r#"{{"TableName":"tbl","FilterExpression":"{text}","ExpressionAttributeValues":{{":v":{{"N":"1"}}}}}}"#
            );
            ("Scan", body)
        },
    },
    Dimension {
        name: "operators",
        unit: "comparisons",
        sizes: (16, 1_024),
        setup: no_setup,
        request: |n| {
            let text = joined(n, " OR ", |_| "a=:v".into());
            let body = format!(
                r#"{{"TableName":"tbl","FilterExpression":"{text}","ExpressionAttributeValues":{{":v":{{"N":"1"}}}}}}"#
            );
            ("Scan", body)
        },
    },
    Dimension {
        name: "in_operands",
        unit: "IN operands",
        sizes: (16, 2_048),
        setup: no_setup,
        request: |n| {
            let text = format!("a IN ({})", joined(n, ",", |_| ":v".into()));
            let body = format!(
                r#"{{"TableName":"tbl","FilterExpression":"{text}","ExpressionAttributeValues":{{":v":{{"N":"1"}}}}}}"#
            );
            ("Scan", body)
        },
    },
    Dimension {
        name: "expression_nesting",
        unit: "levels of parentheses",
        sizes: (8, 2_048),
        setup: no_setup,
        request: |n| {
            let text = format!("{}a = :v{}", "(".repeat(n), ")".repeat(n));
            let body = format!(
                r#"{{"TableName":"tbl","FilterExpression":"{text}","ExpressionAttributeValues":{{":v":{{"N":"1"}}}}}}"#
            );
            ("Scan", body)
        },
    },
    Dimension {
        name: "value_nesting",
        unit: "levels of nested lists",
        sizes: (4, 256),
        setup: no_setup,
        request: |n| {
            let value = format!(r#"{}{{"S":"x"}}{}"#, r#"{"L":["#.repeat(n), "]}".repeat(n));
            put_item(&format!(r#","a":{value}"#))
        },
    },
    Dimension {
        name: "update_actions",
        unit: "SET actions",
        sizes: (16, 1_024),
        setup: no_setup,
        request: |n| {
            let text = format!("SET {}", joined(n, ", ", |i| format!("#n{i} = :v0")));
            let body = format!(
                r##"{{"TableName":"tbl","Key":{{"pk":{{"S":"k"}}}},"UpdateExpression":"{text}","ExpressionAttributeNames":{{{}}},"ExpressionAttributeValues":{{{}}}}}"##,
                names(n),
                values(1)
            );
            ("UpdateItem", body)
        },
    },
    Dimension {
        name: "projection_long_names",
        // Names of 4,000 bytes (16 KB until 2026-11-30): 512 of them stay within the 2 MB an
        // expression may substitute, past which the request is refused before it is projected.
        unit: "projected paths of 4,000-byte names",
        sizes: (16, 512),
        setup: no_setup,
        request: |n| {
            let text = joined(n, ", ", |i| format!("#n{i}"));
            let names = joined(n, ",", |i| {
                format!(r##""#n{i}":"{}""##, long_name(4_000, i))
            });
            let body = format!(
                r##"{{"TableName":"tbl","Key":{{"pk":{{"S":"k"}}}},"ProjectionExpression":"{text}","ExpressionAttributeNames":{{{names}}}}}"##
            );
            ("GetItem", body)
        },
    },
    Dimension {
        name: "attributes_to_get",
        unit: "AttributesToGet names",
        sizes: (1_000, 512_000),
        setup: no_setup,
        request: |n| {
            let list = joined(n, ",", |i| format!(r#""a{i}""#));
            let body = format!(
                r#"{{"TableName":"tbl","Key":{{"pk":{{"S":"k"}}}},"AttributesToGet":[{list}]}}"#
            );
            ("GetItem", body)
        },
    },
    Dimension {
        name: "legacy_expected",
        unit: "Expected entries",
        sizes: (1_000, 256_000),
        setup: no_setup,
        request: |n| {
            let expected = joined(n, ",", |i| format!(r#""a{i}":{{"Exists":false}}"#));
            let body = format!(
                r#"{{"TableName":"tbl","Item":{{"pk":{{"S":"k"}}}},"Expected":{{{expected}}}}}"#
            );
            ("PutItem", body)
        },
    },
    Dimension {
        name: "legacy_scan_filter",
        unit: "ScanFilter entries",
        sizes: (1_000, 256_000),
        setup: no_setup,
        request: |n| {
            let filter = joined(n, ",", |i| {
                format!(r#""a{i}":{{"ComparisonOperator":"NOT_NULL"}}"#)
            });
            let body = format!(r#"{{"TableName":"tbl","ScanFilter":{{{filter}}}}}"#);
            ("Scan", body)
        },
    },
    Dimension {
        name: "legacy_query_filter",
        unit: "QueryFilter entries",
        sizes: (1_000, 256_000),
        setup: no_setup,
        request: |n| {
            let filter = joined(n, ",", |i| {
                format!(r#""a{i}":{{"ComparisonOperator":"NOT_NULL"}}"#)
            });
            let body = format!(
                r#"{{"TableName":"tbl","KeyConditions":{{"pk":{{"ComparisonOperator":"EQ","AttributeValueList":[{{"S":"k"}}]}}}},"QueryFilter":{{{filter}}}}}"#
            );
            ("Query", body)
        },
    },
    Dimension {
        name: "legacy_filter_in",
        unit: "values of one ScanFilter IN",
        sizes: (1_000, 256_000),
        setup: no_setup,
        request: |n| {
            let list = joined(n, ",", |i| format!(r#"{{"S":"v{i}"}}"#));
            let body = format!(
                r#"{{"TableName":"tbl","ScanFilter":{{"a":{{"ComparisonOperator":"IN","AttributeValueList":[{list}]}}}}}}"#
            );
            ("Scan", body)
        },
    },
    Dimension {
        name: "legacy_expected_values",
        unit: "Expected entries with a Value",
        sizes: (1_000, 256_000),
        setup: no_setup,
        request: |n| {
            let expected = joined(n, ",", |i| {
                format!(
                    r#""a{i}":{{"ComparisonOperator":"NE","AttributeValueList":[{{"S":"x"}}]}}"#
                )
            });
            let body = format!(
                r#"{{"TableName":"tbl","Item":{{"pk":{{"S":"k"}}}},"Expected":{{{expected}}}}}"#
            );
            ("PutItem", body)
        },
    },
    Dimension {
        name: "legacy_attribute_updates",
        unit: "AttributeUpdates entries",
        sizes: (1_000, 256_000),
        setup: no_setup,
        request: |n| {
            let updates = joined(n, ",", |i| {
                format!(r#""a{i}":{{"Action":"PUT","Value":{{"N":"1"}}}}"#)
            });
            let body = format!(
                r#"{{"TableName":"tbl","Key":{{"pk":{{"S":"k"}}}},"AttributeUpdates":{{{updates}}}}}"#
            );
            ("UpdateItem", body)
        },
    },
    Dimension {
        name: "batch_write_items",
        unit: "PutRequests",
        sizes: (25, 102_400),
        setup: no_setup,
        request: |n| {
            let puts = joined(n, ",", |i| {
                format!(r#"{{"PutRequest":{{"Item":{{"pk":{{"S":"k{i}"}}}}}}}}"#)
            });
            (
                "BatchWriteItem",
                format!(r#"{{"RequestItems":{{"tbl":[{puts}]}}}}"#),
            )
        },
    },
    Dimension {
        name: "batch_write_heavy",
        unit: "attributes in 25 PutRequests",
        sizes: (4_096, 1_048_576),
        setup: no_setup,
        request: |n| {
            let puts = joined(25, ",", |i| {
                let members = joined(n / 25, "", |j| format!(r#","a{j}":{{"N":"{j}"}}"#));
                format!(r#"{{"PutRequest":{{"Item":{{"pk":{{"S":"k{i}"}}{members}}}}}}}"#)
            });
            (
                "BatchWriteItem",
                format!(r#"{{"RequestItems":{{"tbl":[{puts}]}}}}"#),
            )
        },
    },
    Dimension {
        name: "batch_get_keys",
        unit: "Keys",
        sizes: (100, 204_800),
        setup: no_setup,
        request: |n| {
            let keys = joined(n, ",", |i| format!(r#"{{"pk":{{"S":"k{i}"}}}}"#));
            let body = format!(r#"{{"RequestItems":{{"tbl":{{"Keys":[{keys}]}}}}}}"#);
            ("BatchGetItem", body)
        },
    },
    Dimension {
        name: "transaction_items",
        unit: "TransactItems",
        sizes: (100, 102_400),
        setup: no_setup,
        request: |n| {
            let items = joined(n, ",", |i| {
                format!(r#"{{"Put":{{"TableName":"tbl","Item":{{"pk":{{"S":"k{i}"}}}}}}}}"#)
            });
            (
                "TransactWriteItems",
                format!(r#"{{"TransactItems":[{items}]}}"#),
            )
        },
    },
    Dimension {
        name: "partiql_statement",
        unit: "bytes of statement",
        sizes: (256, 16_384),
        setup: no_setup,
        request: |n| {
            let terms = joined(n / 16, " OR ", |i| format!("pk = 'k{:04}'", i % 10_000));
            let body = format!(r#"{{"Statement":"SELECT * FROM tbl WHERE {terms}"}}"#);
            ("ExecuteStatement", body)
        },
    },
    Dimension {
        name: "partiql_parameters",
        unit: "Parameters",
        sizes: (1_000, 512_000),
        setup: no_setup,
        request: |n| {
            let parameters = joined(n, ",", |_| r#"{"S":"k"}"#.into());
            let body = format!(
                r#"{{"Statement":"SELECT * FROM tbl WHERE pk = ?","Parameters":[{parameters}]}}"#
            );
            ("ExecuteStatement", body)
        },
    },
    Dimension {
        name: "partiql_batch",
        unit: "statements in a batch",
        sizes: (25, 51_200),
        setup: no_setup,
        request: |n| {
            let statements = joined(n, ",", |i| {
                format!(r#"{{"Statement":"SELECT * FROM tbl WHERE pk = 'k{i}'"}}"#)
            });
            let body = format!(r#"{{"Statements":[{statements}]}}"#);
            ("BatchExecuteStatement", body)
        },
    },
    Dimension {
        name: "body_string",
        unit: "bytes of one S value",
        sizes: (64 * 1024, 16 * 1024 * 1024),
        setup: no_setup,
        request: |n| put_item(&format!(r#","a":{{"S":"{}"}}"#, "x".repeat(n - 64))),
    },
    Dimension {
        name: "body_number",
        unit: "digits of one N value",
        sizes: (64 * 1024, 16 * 1024 * 1024),
        setup: no_setup,
        request: |n| put_item(&format!(r#","a":{{"N":"{}1"}}"#, "0".repeat(n - 64))),
    },
    Dimension {
        name: "body_string_set",
        unit: "elements of one SS",
        sizes: (4_096, 2_097_152),
        setup: no_setup,
        request: |n| {
            let set = joined(n, ",", |i| format!(r#""{i:x}""#));
            put_item(&format!(r#","a":{{"SS":[{set}]}}"#))
        },
    },
    Dimension {
        name: "body_number_set",
        unit: "elements of one NS",
        sizes: (4_096, 1_048_576),
        setup: no_setup,
        request: |n| {
            let set = joined(n, ",", |i| format!(r#""{i}""#));
            put_item(&format!(r#","a":{{"NS":[{set}]}}"#))
        },
    },
    Dimension {
        name: "body_list",
        unit: "elements of one L",
        sizes: (4_096, 1_048_576),
        setup: no_setup,
        request: |n| {
            let list = joined(n, ",", |_| r#"{"N":"1"}"#.into());
            put_item(&format!(r#","a":{{"L":[{list}]}}"#))
        },
    },
    Dimension {
        name: "body_map",
        unit: "members of one M",
        sizes: (4_096, 1_048_576),
        setup: no_setup,
        request: |n| {
            let map = joined(n, ",", |i| format!(r#""m{i}":{{"N":"1"}}"#));
            put_item(&format!(r#","a":{{"M":{{{map}}}}}"#))
        },
    },
    Dimension {
        // Invalid at its very end (an `N` that is not a number): what a request costs that the
        // one-pass decoder reads whole before handing it to the exact path.
        name: "body_map_invalid_at_end",
        unit: "members of one M",
        sizes: (4_096, 1_048_576),
        setup: no_setup,
        request: |n| {
            let map = joined(n, ",", |i| format!(r#""m{i}":{{"N":"1"}}"#));
            put_item(&format!(r#","a":{{"M":{{{map}}}}},"z":{{"N":"x"}}"#))
        },
    },
    Dimension {
        name: "body_attributes",
        unit: "attributes of one item",
        sizes: (4_096, 1_048_576),
        setup: no_setup,
        request: |n| put_item(&joined(n, "", |i| format!(r#","a{i}":{{"N":"1"}}"#))),
    },
    Dimension {
        name: "body_escapes",
        unit: "escaped characters in one S",
        sizes: (16 * 1024, 4 * 1024 * 1024),
        setup: no_setup,
        request: |n| put_item(&format!(r#","a":{{"S":"{}"}}"#, "\\u00e9".repeat(n))),
    },
    Dimension {
        name: "set_add",
        unit: "elements ADDed to a set of as many",
        sizes: (256, 32_768),
        setup: set_setup,
        request: |n| {
            let set = joined(n, ",", |i| format!(r#""f{i}""#));
            let body = format!(
                r#"{{"TableName":"tbl","Key":{{"pk":{{"S":"big"}}}},"UpdateExpression":"ADD s :s","ExpressionAttributeValues":{{":s":{{"SS":[{set}]}}}}}}"#
            );
            ("UpdateItem", body)
        },
    },
    Dimension {
        // The operand alone past the item's 400 KB (the update refused for its size): what
        // `set_add` cannot reach, its stored set growing with the operand.
        name: "set_add_oversized",
        unit: "elements ADDed to a set of 3",
        sizes: (4_096, 1_048_576),
        setup: |_| set_setup(3),
        request: |n| {
            let set = joined(n, ",", |i| format!(r#""f{i}""#));
            let body = format!(
                r#"{{"TableName":"tbl","Key":{{"pk":{{"S":"big"}}}},"UpdateExpression":"ADD s :s","ExpressionAttributeValues":{{":s":{{"SS":[{set}]}}}}}}"#
            );
            ("UpdateItem", body)
        },
    },
    Dimension {
        name: "set_delete",
        unit: "elements DELETEd from a set of as many",
        sizes: (256, 32_768),
        setup: set_setup,
        request: |n| {
            let set = joined(n, ",", |i| format!(r#""g{i}""#));
            let body = format!(
                r#"{{"TableName":"tbl","Key":{{"pk":{{"S":"big"}}}},"UpdateExpression":"DELETE s :s","ExpressionAttributeValues":{{":s":{{"SS":[{set}]}}}}}}"#
            );
            ("UpdateItem", body)
        },
    },
    Dimension {
        // One value at each of 150 places of a condition: what the expression substitutes is
        // measured at each place, until the cap of 2 MB is passed. Up to 524,288 NULLs (1 MB):
        // a list of 1,048,576 (2,097,155 bytes) is past the values map's own cap, refused before
        // the expression is read (until 2026-11-30 the dimension went there).
        name: "value_reused",
        unit: "NULLs of a list used at 150 places",
        sizes: (1_024, 524_288),
        setup: no_setup,
        request: |n| {
            let condition = vec!["a <> :v"; 150].join(" OR ");
            let list = vec![r#"{"NULL":true}"#; n].join(",");
            let body = format!(
                r#"{{"TableName":"tbl","Item":{{"pk":{{"S":"k"}}}},"ConditionExpression":"{condition}","ExpressionAttributeValues":{{":v":{{"L":[{list}]}}}}}}"#
            );
            ("PutItem", body)
        },
    },
    Dimension {
        name: "contains_binary",
        unit: "bytes of a binary contains() needle (haystack as long)",
        sizes: (1_024, 131_072),
        setup: binary_setup,
        request: |n| {
            let mut needle = vec![0u8; n / 2];
            needle.push(1);
            let body = format!(
                r#"{{"TableName":"tbl","Item":{{"pk":{{"S":"big"}}}},"ConditionExpression":"contains(b, :n)","ExpressionAttributeValues":{{":n":{{"B":"{}"}}}}}}"#,
                base64(&needle)
            );
            ("PutItem", body)
        },
    },
];

/// The time of one run of `body`, the least of several runs (at least three, and at least 50 ms of
/// them) so that one scheduling hiccup does not make a ratio. Wall time: the thread's CPU time
/// (`/proc/thread-self/schedstat`) is only brought up to date at scheduler ticks, too coarse for the
/// small sizes; the least of several runs of a single-threaded request is its CPU time.
fn cost(rt: &tokio::runtime::Runtime, backend: &MemBackend, op: &str, body: &[u8]) -> Duration {
    let context = wire::Context::default();
    let mut best = Duration::MAX;
    let started = Instant::now();
    let mut runs = 0;
    while runs < 3 || started.elapsed() < Duration::from_millis(50) {
        let run = Instant::now();
        let _ = rt.block_on(wire::respond(&context, backend, op, body));
        best = best.min(run.elapsed());
        runs += 1;
    }
    best
}

fn main() {
    let mut full = false;
    let mut one = false;
    let mut at: Option<usize> = None;
    let mut chosen: Vec<String> = Vec::new();
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--full" => full = true,
            "--one" => one = true,
            "--bench" => {}
            size if size.starts_with("--at=") => at = size[5..].parse().ok(),
            name if DIMENSIONS.iter().any(|d| d.name == name) => chosen.push(arg),
            // A filter `cargo bench` meant for another bench.
            _ => return,
        }
    }
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    println!(
        "{:<24} {:>10} {:>10} {:>12} {:>8}",
        "dimension", "n", "body", "cpu", "ratio"
    );
    for dimension in DIMENSIONS {
        if !chosen.is_empty() && !chosen.iter().any(|c| c == dimension.name) {
            continue;
        }
        let (first, last) = match (one, at) {
            (true, _) => (1, 1),
            (false, Some(n)) => (n, n),
            (false, None) => dimension.sizes,
        };
        let last = if full { last } else { last.min(first << 4) };
        let mut previous: Option<Duration> = None;
        let mut worst: f64 = 0.0;
        let mut n = first;
        while n <= last {
            let backend = rt.block_on(fresh_backend());
            for (op, body) in (dimension.setup)(n) {
                rt.block_on(wire::call(&backend, op, body.as_bytes()))
                    .unwrap();
            }
            let (op, body) = (dimension.request)(n);
            let spent = if at.is_some() {
                // One run, whose instructions callgrind counts.
                let run = Instant::now();
                let _ = rt.block_on(wire::respond(
                    &wire::Context::default(),
                    &backend,
                    op,
                    body.as_bytes(),
                ));
                run.elapsed()
            } else {
                cost(&rt, &backend, op, body.as_bytes())
            };
            let ratio = previous.map(|p| spent.as_secs_f64() / p.as_secs_f64().max(1e-9));
            worst = worst.max(ratio.unwrap_or(0.0));
            println!(
                "{:<24} {:>10} {:>10} {:>9.3} ms {:>8}",
                dimension.name,
                n,
                human(body.len()),
                spent.as_secs_f64() * 1e3,
                ratio.map_or(String::new(), |r| format!("×{r:.2}"))
            );
            previous = Some(spent);
            n *= 2;
        }
        println!(
            "{:<24} worst ×{worst:.2} per doubling of {}\n",
            dimension.name, dimension.unit
        );
    }
}

fn human(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 => format!("{:.1} MB", b as f64 / (1 << 20) as f64),
        b if b >= 1 << 10 => format!("{:.1} KB", b as f64 / 1024.0),
        b => format!("{b} B"),
    }
}

/// An engine with the table `tbl` (key `pk`, a string).
async fn fresh_backend() -> MemBackend {
    let backend = MemBackend::new();
    let create = r#"{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
        "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}"#;
    wire::call(&backend, "CreateTable", create.as_bytes())
        .await
        .unwrap();
    backend
}
