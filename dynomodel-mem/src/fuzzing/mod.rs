//! What the fuzz targets run (`fuzz/`, cargo-fuzz, nightly) and the corpus replay test runs on
//! stable: each function takes arbitrary bytes and must return, whatever they are, without panicking
//! and without breaking the invariant it checks. Not part of the API (feature `fuzzing`, hidden).
//!
//! | target | input | what runs |
//! |---|---|---|
//! | `wire` | a byte choosing the operation, then the body | the server's whole protocol ([`protocol::respond`]) against an engine holding a table and items; no answer may be a 500, every answer is JSON |
//! | `expression` | a byte choosing the kind, then the text | the expression through the request that carries it (PutItem's condition, Scan's filter, Query's key condition, UpdateItem's update, GetItem's projection), its placeholders supplied from pools so that it gets past the check for undefined and unused ones |
//! | `partiql` | the statement | ExecuteStatement, its `?` parameters supplied from a pool |
//! | `log_record` | a log segment's bytes | the frame reader and the record decoder; a decoded record encodes back to itself |
//! | `data_dir` | a byte choosing the files, then records | a data directory holding them as a log, a snapshot or both (each record framed with its checksum, so that the decoders behind it are reached), opened as the server opens one |

use std::sync::atomic::{AtomicU64, Ordering};

use dynomodel::backend::{
    Backend, ExecuteStatementInput, GetItemInput, PutItemInput, QueryInput, ScanInput,
    UpdateItemInput,
};
use dynomodel::{AttributeValue, Item};

use crate::durable::frame::{self, Frames};
use crate::durable::journal;
use crate::durable::record::{Effect, Record};
use crate::protocol;
use crate::storage::stored::StoredItem;
use crate::MemBackend;

#[cfg(test)]
mod tests;

/// A fuzz target: runs one input.
pub type Target = fn(&[u8]);

/// The targets, by name: what `fuzz/` builds and what the replay test replays.
pub const TARGETS: &[(&str, Target)] = &[
    ("wire", wire),
    ("expression", expression),
    ("partiql", partiql),
    ("log_record", log_record),
    ("data_dir", data_dir),
];

/// Runs `future` to its end on this thread's runtime (one per thread, kept: a runtime per input
/// would cost more than most inputs); `None` if no runtime could be built, so nothing ran.
fn block_on<F: std::future::Future>(future: F) -> Option<F::Output> {
    thread_local! {
        static RUNTIME: Option<tokio::runtime::Runtime> = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .ok();
    }
    RUNTIME.with(|runtime| runtime.as_ref().map(|r| r.block_on(future)))
}

/// The engine every input starts from: table `tbl` (hash `pk`, a string; range `sk`, a number; an
/// index `by-g` on `g`) holding two items with nested documents and sets.
pub(crate) fn engine() -> MemBackend {
    let backend = MemBackend::new();
    let setup = [
        (
            "CreateTable",
            r#"{"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
                "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                    {"AttributeName":"sk","AttributeType":"N"},{"AttributeName":"g","AttributeType":"S"}],
                "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"sk","KeyType":"RANGE"}],
                "GlobalSecondaryIndexes":[{"IndexName":"by-g","KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
                    "Projection":{"ProjectionType":"ALL"}}],
                "StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}}"#,
        ),
        (
            "PutItem",
            r#"{"TableName":"tbl","Item":{"pk":{"S":"k"},"sk":{"N":"1"},"g":{"S":"x"},
                "a":{"S":"text"},"n":{"N":"7"},"b":{"B":"AAEC"},"t":{"BOOL":true},"z":{"NULL":true},
                "ss":{"SS":["x","y"]},"ns":{"NS":["1","2"]},"bs":{"BS":["AA=="]},
                "l":{"L":[{"N":"1"},{"S":"y"},{"M":{"c":{"N":"2"}}}]},
                "m":{"M":{"a":{"S":"b"},"n":{"M":{"d":{"L":[]}}}}}}}"#,
        ),
        (
            "PutItem",
            r#"{"TableName":"tbl","Item":{"pk":{"S":"k"},"sk":{"N":"2"},"a":{"N":"1"}}}"#,
        ),
    ];
    for (operation, body) in setup {
        // The setup is fixed and valid; were it ever not, inputs would merely reach less.
        let _ = block_on(protocol::call(&backend, operation, body.as_bytes()));
    }
    backend
}

/// `wire`: one request through the server's protocol.
pub fn wire(data: &[u8]) {
    let Some((&choice, body)) = data.split_first() else {
        return;
    };
    let operation = operation_for(choice);
    let backend = engine();
    let context = protocol::Context::default();
    match block_on(protocol::respond(&context, &backend, operation, body)) {
        None => {}
        // TagResource and UntagResource answer without a body, as DynamoDB does.
        Some(Ok(bytes)) if bytes.is_empty() => {
            assert!(
                ["TagResource", "UntagResource"].contains(&operation),
                "{operation} answered an empty body"
            );
        }
        Some(Ok(bytes)) => {
            let parsed = serde_json::from_slice::<serde_json::Value>(&bytes);
            assert!(parsed.is_ok(), "{operation} answered something not JSON");
        }
        Some(Err(fault)) => {
            let (status, body) = protocol::error_response(&fault);
            assert!(status != 500, "{operation} answered 500: {body}");
        }
    }
}

/// The operation the `wire` target's first byte chooses.
pub(crate) fn operation_for(choice: u8) -> &'static str {
    let operations: Vec<&str> = protocol::OPERATIONS
        .iter()
        .chain(protocol::STREAM_OPERATIONS)
        .copied()
        .collect();
    operations[usize::from(choice) % operations.len()]
}

/// The attribute names `#placeholders` stand for.
const NAMES: &[&str] = &[
    "pk", "sk", "g", "a", "n", "b", "l", "m", "ss", "ns", "z", "new", "c",
];

/// The values `:placeholders` and `?` parameters stand for.
fn value(choice: usize) -> AttributeValue {
    use AttributeValue::*;
    match choice % 12 {
        0 => S("k".into()),
        1 => N(1.into()),
        2 => S("x".into()),
        3 => N(2.into()),
        4 => B(vec![0, 1]),
        5 => Bool(true),
        6 => Null,
        7 => Ss(vec!["x".into(), "q".into()]),
        8 => Ns(vec![3.into()]),
        9 => Bs(vec![vec![0]]),
        10 => L(vec![N(1.into()), S("y".into())]),
        _ => M([("a".to_owned(), S("b".into()))].into()),
    }
}

/// A cheap, stable hash of a placeholder's name, choosing what it stands for.
fn pick(word: &str) -> usize {
    word.bytes().fold(7usize, |h, b| {
        h.wrapping_mul(31).wrapping_add(usize::from(b))
    })
}

/// The `#name` and `:value` placeholders `text` uses, each given a name or value from the pools, so
/// that the request passes the check that every placeholder is defined and used.
fn placeholders(
    text: &str,
) -> (
    Option<dynomodel::backend::ExpressionAttributeNames>,
    Option<Item>,
) {
    let mut names = std::collections::BTreeMap::new();
    let mut values = Item::new();
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b != b'#' && b != b':' {
            continue;
        }
        let end = bytes[i + 1..]
            .iter()
            .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
            .map_or(bytes.len(), |n| i + 1 + n);
        let Some(word) = text.get(i..end).filter(|w| w.len() > 1) else {
            continue;
        };
        if b == b'#' {
            names.insert(word.to_owned(), NAMES[pick(word) % NAMES.len()].to_owned());
        } else {
            values.insert(word.to_owned(), value(pick(word)));
        }
    }
    (
        (!names.is_empty()).then_some(names),
        (!values.is_empty()).then_some(values),
    )
}

fn key() -> Item {
    Item::from([
        ("pk".to_owned(), AttributeValue::S("k".into())),
        ("sk".to_owned(), AttributeValue::N(1.into())),
    ])
}

/// `expression`: one expression of each kind, through the request that carries it.
pub fn expression(data: &[u8]) {
    let Some((&choice, text)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(text).into_owned();
    let (names, values) = placeholders(&text);
    let backend = engine();
    let table_name = "tbl".to_owned();
    // Errors are answers: only panics and hangs are findings.
    let _ = block_on(async {
        match choice % 5 {
            0 => {
                let put = PutItemInput {
                    table_name,
                    item: key(),
                    condition_expression: Some(text),
                    expression_attribute_names: names,
                    expression_attribute_values: values,
                    ..Default::default()
                };
                backend.put_item(put).await.map(drop)
            }
            1 => {
                let scan = ScanInput {
                    table_name,
                    filter_expression: Some(text),
                    expression_attribute_names: names,
                    expression_attribute_values: values,
                    ..Default::default()
                };
                backend.scan(scan).await.map(drop)
            }
            2 => {
                let query = QueryInput {
                    table_name,
                    key_condition_expression: Some(text),
                    expression_attribute_names: names,
                    expression_attribute_values: values,
                    ..Default::default()
                };
                backend.query(query).await.map(drop)
            }
            3 => {
                let update = UpdateItemInput {
                    table_name,
                    key: key(),
                    update_expression: Some(text),
                    expression_attribute_names: names,
                    expression_attribute_values: values,
                    return_values: Some(dynomodel::backend::ReturnValue::UpdatedNew),
                    ..Default::default()
                };
                backend.update_item(update).await.map(drop)
            }
            _ => {
                let get = GetItemInput {
                    table_name,
                    key: key(),
                    projection_expression: Some(text),
                    expression_attribute_names: names,
                    ..Default::default()
                };
                backend.get_item(get).await.map(drop)
            }
        }
    });
}

/// `partiql`: one statement, with a parameter from the pool for each `?`.
pub fn partiql(data: &[u8]) {
    let statement = String::from_utf8_lossy(data).into_owned();
    let count = statement.matches('?').count();
    let parameters = (count > 0).then(|| (0..count).map(value).collect());
    let backend = engine();
    let input = ExecuteStatementInput {
        statement,
        parameters,
        ..Default::default()
    };
    let _ = block_on(backend.execute_statement(input));
}

/// `log_record`: a log segment's bytes through the frame reader and the record decoder, then each of
/// `data`'s chunks (split at `0xFF 0xFF`) framed with its checksum, so that the decoder sees payloads
/// that pass it. A record that decodes, encoded again by the journal (the log's one encoder), decodes
/// to the same record.
pub fn log_record(data: &[u8]) {
    let decode = |payload: &[u8]| {
        if let Some(record) = Record::from_bytes(payload) {
            let again = Record::from_bytes(&encode(&record));
            assert_eq!(again.as_ref(), Some(&record), "re-decoded otherwise");
        }
    };
    let mut frames = Frames::new(data);
    for payload in frames.by_ref() {
        decode(payload);
    }
    let _ = frames.damage();
    for chunk in chunks(data) {
        decode(chunk);
    }
}

/// `record`'s payload as the journal writes it: its command first (replay runs it before the rest),
/// then its effects, and its sequence number where the log puts it.
fn encode(record: &Record) -> Vec<u8> {
    journal::begin(record.at);
    if let Some((operation, request)) = &record.command {
        journal::command(operation, request);
    }
    for effect in &record.effects {
        match effect {
            Effect::Put { table, key, item } => {
                journal::put(table, key, &StoredItem::encode(item));
            }
            Effect::Delete { table, key } => journal::delete(table, key),
            Effect::Expire { table, key } => journal::expire(table, key),
            Effect::Token { token, actions } => journal::token(token, actions),
        }
    }
    journal::end();
    journal::with_frame(|frame| {
        let mut payload = frame.get(frame::HEADER..).unwrap_or_default().to_vec();
        if let Some(seq) = payload.get_mut(..8) {
            seq.copy_from_slice(&record.seq.to_le_bytes());
        }
        payload
    })
}

/// `data`'s chunks between `0xFF 0xFF` separators.
fn chunks(data: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = Some(data);
    std::iter::from_fn(move || {
        let here = rest?;
        match here.windows(2).position(|w| w == [0xFF, 0xFF]) {
            Some(at) => {
                rest = here.get(at + 2..);
                Some(&here[..at])
            }
            None => {
                rest = None;
                Some(here)
            }
        }
    })
}

/// `chunks` of `data`, each framed as the log and snapshots frame a record.
fn framed(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + 64);
    for chunk in chunks(data) {
        frame::encode(chunk, &mut out);
    }
    out
}

/// `data_dir`: a data directory opened as the server opens one. The first byte chooses what it holds:
/// the rest as raw log bytes (0), as framed log records (1), as framed snapshot records (2), or split
/// at the first `0xFF 0xFE` into framed snapshot records and framed log records (3).
pub fn data_dir(data: &[u8]) {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let (snapshot, log) = match choice % 4 {
        0 => (None, Some(rest.to_vec())),
        1 => (None, Some(framed(rest))),
        2 => (Some(framed(rest)), None),
        _ => {
            let at = rest.windows(2).position(|w| w == [0xFF, 0xFE]);
            let (first, second) = match at {
                Some(at) => (&rest[..at], &rest[at + 2..]),
                None => (rest, &[][..]),
            };
            (Some(framed(first)), Some(framed(second)))
        }
    };
    let Some(dir) = scratch_dir() else {
        return;
    };
    let write = |name: &str, bytes: &[u8]| std::fs::write(dir.join(name), bytes).is_ok();
    let mut ready = write("FORMAT", b"dynomodel-mem data directory, format 1\n");
    if let Some(bytes) = &snapshot {
        ready &= write("snapshot-00000000000000000001.dyno", bytes);
    }
    if let Some(bytes) = &log {
        ready &= write("log-00000000000000000001.dyno", bytes);
    }
    if ready {
        // Refused or opened, both are answers; an opened engine is dropped at once.
        let _ = MemBackend::open(&dir);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An empty directory of this process's own, in memory where the system has a tmpfs.
fn scratch_dir() -> Option<std::path::PathBuf> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let shm = std::path::Path::new("/dev/shm");
    let base = match shm.is_dir() {
        true => shm.to_path_buf(),
        false => std::env::temp_dir(),
    };
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let dir = base.join(format!("dynomodel-fuzz-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).ok().map(|()| dir)
}
