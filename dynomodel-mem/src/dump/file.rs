//! The files' lines: writing them byte-for-byte deterministically, and reading them back with the
//! number of every line, so that a problem found later (by the engine) still names its line.

use std::io::{BufRead, Write};

use serde_json::{json, Map, Value};

use super::{DumpError, Summary, FORMAT_NAME, FORMAT_VERSION};

/// An item as read, with the line it came from.
pub(crate) type Line = (u64, Value);

/// One table of a dump: its `Table` line and the items after it.
#[derive(Debug)]
pub(crate) struct TableSection {
    /// The number of the `Table` line.
    pub(crate) line: u64,
    /// The CreateTable request.
    pub(crate) create: Value,
    /// `{"AttributeName": …, "Enabled": true}` when TTL is enabled.
    pub(crate) ttl: Option<Value>,
    pub(crate) items: Vec<Line>,
}

/// Writes one JSON value and a newline. `serde_json`'s maps are ordered by key, so the same value
/// always gives the same bytes.
pub(crate) fn write_line(out: &mut dyn Write, value: &Value) -> Result<(), DumpError> {
    serde_json::to_writer(&mut *out, value).map_err(std::io::Error::from)?;
    out.write_all(b"\n")?;
    Ok(())
}

/// Writes `{"Item":<item>}` and a newline, without copying the item into a new value.
pub(crate) fn write_item(out: &mut dyn Write, item: &Value) -> Result<(), DumpError> {
    out.write_all(b"{\"Item\":")?;
    serde_json::to_writer(&mut *out, item).map_err(std::io::Error::from)?;
    out.write_all(b"}\n")?;
    Ok(())
}

/// A dump's first line.
pub(crate) fn header() -> Value {
    json!({ "Format": FORMAT_NAME, "Version": FORMAT_VERSION })
}

/// A table's line: its CreateTable request and, when enabled, its TTL setting.
pub(crate) fn table_line(create: Value, ttl: Option<Value>) -> Value {
    let mut line = Map::new();
    line.insert("Table".into(), create);
    if let Some(ttl) = ttl {
        line.insert("TimeToLive".into(), ttl);
    }
    Value::Object(line)
}

/// A dump's last line.
pub(crate) fn end_line(summary: Summary) -> Value {
    json!({ "End": { "Tables": summary.tables, "Items": summary.items } })
}

/// The lines of `input` that are not blank, numbered from 1, each parsed as a JSON object.
fn objects(
    input: &mut dyn BufRead,
) -> impl Iterator<Item = Result<(u64, Map<String, Value>), DumpError>> + '_ {
    input.lines().enumerate().filter_map(|(index, text)| {
        let line = index as u64 + 1;
        let text = match text {
            Ok(text) => text,
            Err(e) => {
                return Some(Err(DumpError::Line {
                    line,
                    message: format!("unreadable: {e}"),
                }))
            }
        };
        if text.trim().is_empty() {
            return None;
        }
        Some(match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(object)) => Ok((line, object)),
            Ok(_) => Err(DumpError::Line {
                line,
                message: "expected a JSON object".into(),
            }),
            Err(e) => Err(DumpError::Line {
                line,
                message: format!("invalid JSON: {e}"),
            }),
        })
    })
}

/// The item of an `{"Item": {…}}` line.
fn item(line: u64, mut object: Map<String, Value>) -> Result<Line, DumpError> {
    match (object.len(), object.remove("Item")) {
        (1, Some(item @ Value::Object(_))) => Ok((line, item)),
        _ => Err(DumpError::Line {
            line,
            message: "expected {\"Item\": {…attribute values…}}".into(),
        }),
    }
}

/// Reads a table export: one item per line.
pub(crate) fn read_items(input: &mut dyn BufRead) -> Result<Vec<Line>, DumpError> {
    objects(input)
        .map(|parsed| parsed.and_then(|(line, object)| item(line, object)))
        .collect()
}

/// Reads a whole dump, checking its header, the order of its lines and its `End` line.
pub(crate) fn read_dump(input: &mut dyn BufRead) -> Result<Vec<TableSection>, DumpError> {
    let mut lines = objects(input);
    let bad = |line: u64, message: String| DumpError::Line { line, message };
    match lines.next().transpose()? {
        None => return Err(bad(1, "empty: not a dynomodel dump".into())),
        Some((line, header)) => check_header(line, &header)?,
    }
    let mut tables: Vec<TableSection> = Vec::new();
    let mut items = 0u64;
    let mut last = 1;
    for parsed in lines.by_ref() {
        let (line, mut object) = parsed?;
        last = line;
        if object.contains_key("Item") {
            let Some(table) = tables.last_mut() else {
                return Err(bad(line, "an item before the first \"Table\" line".into()));
            };
            table.items.push(item(line, object)?);
            items += 1;
        } else if let Some(create) = object.remove("Table") {
            let ttl = object.remove("TimeToLive");
            if !create.is_object() || ttl.as_ref().is_some_and(|t| !t.is_object()) {
                return Err(bad(line, "\"Table\" and \"TimeToLive\" are objects".into()));
            }
            if let Some(other) = object.keys().next() {
                return Err(bad(line, format!("unknown member {other:?}")));
            }
            tables.push(TableSection {
                line,
                create,
                ttl,
                items: Vec::new(),
            });
        } else if let Some(end) = object.get("End") {
            let count = |name: &str| end.get(name).and_then(Value::as_u64);
            let counted = (Some(tables.len() as u64), Some(items));
            if (count("Tables"), count("Items")) != counted {
                return Err(bad(
                    line,
                    format!(
                        "the end line counts {end}, the dump holds {} tables and {items} items",
                        tables.len()
                    ),
                ));
            }
            return match lines.next().transpose()? {
                Some((after, _)) => Err(bad(after, "a line after the \"End\" line".into())),
                None => Ok(tables),
            };
        } else {
            return Err(bad(
                line,
                "expected a \"Table\", \"Item\" or \"End\" line".into(),
            ));
        }
    }
    Err(bad(
        last,
        "the dump ends without its \"End\" line: truncated".into(),
    ))
}

fn check_header(line: u64, header: &Map<String, Value>) -> Result<(), DumpError> {
    let bad = |message: String| Err(DumpError::Line { line, message });
    if header.get("Format").and_then(Value::as_str) != Some(FORMAT_NAME) {
        return bad(format!(
            "not a dynomodel dump: the first line is not {{\"Format\":\"{FORMAT_NAME}\",\"Version\":N}}"
        ));
    }
    match header.get("Version").and_then(Value::as_u64) {
        Some(version) if version > FORMAT_VERSION => bad(format!(
            "dump format version {version} is newer than this dynomodel-mem reads \
             ({FORMAT_VERSION}): use a newer dynomodel-mem"
        )),
        Some(version) if version >= 1 => Ok(()),
        _ => bad("the header's \"Version\" is not a format version".into()),
    }
}
