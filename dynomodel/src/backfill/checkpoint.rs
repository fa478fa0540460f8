//! Where a backfill keeps its position: a [`Checkpoint`] (each segment's last processed key) in a
//! [`CheckpointStore`]: a file ([`FileCheckpoint`]), an item in a table ([`TableCheckpoint`]), or
//! memory ([`MemoryCheckpoint`], for tests and runs stopped and resumed in one process).

use std::fmt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use serde_json::{json, Map, Value};

use super::error::BackfillError;
use crate::backend::{DeleteItemInput, GetItemInput, PutItemInput};
use crate::db::Db;
use crate::error::{Error, Result};
use crate::value::{AttributeValue, Item, Number};

/// Where one segment of a backfill stands.
#[derive(Debug, Clone, PartialEq)]
pub enum SegmentPosition {
    /// Nothing processed yet.
    Start,
    /// Every item up to and including this key (the table's key attributes) was processed: the
    /// scan resumes after it (DynamoDB's `ExclusiveStartKey`).
    After(Item),
    /// The segment was read to its end.
    Done,
}

/// A backfill's position: the table and each segment's [`SegmentPosition`]. A run resuming from
/// it scans each segment from where it stood (items after the last processed one are read again,
/// and rewritten only if still behind: resuming is safe at any point).
#[derive(Debug, Clone, PartialEq)]
pub struct Checkpoint {
    /// The table (namespace included) the backfill reads.
    pub table: String,
    /// One position per segment (`TotalSegments` is their number).
    pub segments: Vec<SegmentPosition>,
}

impl Checkpoint {
    /// Whether every segment was read to its end.
    pub fn is_done(&self) -> bool {
        self.segments.iter().all(|s| *s == SegmentPosition::Done)
    }

    /// The checkpoint as JSON text (keys in DynamoDB JSON: `{"id": {"S": "a"}}`).
    ///
    /// ```
    /// use dynomodel::backfill::{Checkpoint, SegmentPosition};
    /// use dynomodel::AttributeValue;
    ///
    /// let checkpoint = Checkpoint {
    ///     table: "users".into(),
    ///     segments: vec![
    ///         SegmentPosition::Done,
    ///         SegmentPosition::After([("id".to_owned(), AttributeValue::S("u7".into()))].into()),
    ///         SegmentPosition::Start,
    ///     ],
    /// };
    /// let text = checkpoint.to_json();
    /// assert_eq!(text, r#"{"segments":["done",{"id":{"S":"u7"}},"start"],"table":"users"}"#);
    /// assert_eq!(Checkpoint::from_json(&text)?, checkpoint);
    /// # Ok::<(), dynomodel::Error>(())
    /// ```
    pub fn to_json(&self) -> String {
        let segments: Vec<Value> = self
            .segments
            .iter()
            .map(|segment| match segment {
                SegmentPosition::Start => json!("start"),
                SegmentPosition::Done => json!("done"),
                SegmentPosition::After(key) => Value::Object(
                    key.iter()
                        .map(|(name, value)| (name.clone(), key_value_json(value)))
                        .collect(),
                ),
            })
            .collect();
        json!({ "table": self.table, "segments": segments }).to_string()
    }

    /// Reads what [`to_json`](Checkpoint::to_json) wrote; anything else is an
    /// [`Error::Backfill`] saying what is wrong.
    pub fn from_json(text: &str) -> Result<Checkpoint> {
        let bad = |what: &str| BackfillError::checkpoint(format!("malformed checkpoint: {what}"));
        let value: Value = serde_json::from_str(text).map_err(|e| bad(&e.to_string()))?;
        let table = value
            .get("table")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("no `table`"))?
            .to_owned();
        let segments = value
            .get("segments")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("no `segments`"))?
            .iter()
            .map(|segment| match segment {
                Value::String(s) if s == "start" => Ok(SegmentPosition::Start),
                Value::String(s) if s == "done" => Ok(SegmentPosition::Done),
                Value::Object(key) => key
                    .iter()
                    .map(|(name, value)| {
                        Ok((
                            name.clone(),
                            key_value_from_json(value).ok_or_else(|| {
                                bad(&format!("key attribute `{name}` is not S, N or B"))
                            })?,
                        ))
                    })
                    .collect::<Result<Item>>()
                    .map(SegmentPosition::After),
                other => Err(bad(&format!("segment position {other}"))),
            })
            .collect::<Result<Vec<_>>>()?;
        if segments.is_empty() {
            return Err(bad("no segment"));
        }
        Ok(Checkpoint { table, segments })
    }
}

/// A key attribute (S, N or B) in DynamoDB JSON; other types cannot be key attributes and never
/// reach here, but are written as NULL rather than lost silently (reading them back fails).
fn key_value_json(value: &AttributeValue) -> Value {
    match value {
        AttributeValue::S(s) => json!({ "S": s }),
        AttributeValue::N(n) => json!({ "N": n.to_string() }),
        AttributeValue::B(b) => json!({ "B": STANDARD.encode(b) }),
        _ => json!({ "NULL": true }),
    }
}

fn key_value_from_json(value: &Value) -> Option<AttributeValue> {
    let object: &Map<String, Value> = value.as_object()?;
    let (kind, inner) = object.iter().next()?;
    let text = inner.as_str()?;
    match kind.as_str() {
        "S" => Some(AttributeValue::S(text.to_owned())),
        "N" => text.parse::<Number>().ok().map(AttributeValue::N),
        "B" => STANDARD.decode(text).ok().map(AttributeValue::B),
        _ => None,
    }
}

/// Where a backfill loads and saves its [`Checkpoint`]. A run loads it once at its start (none:
/// from the beginning), saves it after each page of each segment and when it stops, and clears it
/// once every segment is done (so the next run starts afresh).
#[async_trait::async_trait]
pub trait CheckpointStore: Send + Sync + fmt::Debug {
    /// The saved checkpoint, if any.
    async fn load(&self) -> Result<Option<Checkpoint>>;
    /// Saves `checkpoint`, replacing the one saved before.
    async fn save(&self, checkpoint: &Checkpoint) -> Result<()>;
    /// Forgets the saved checkpoint.
    async fn clear(&self) -> Result<()>;
}

/// A checkpoint kept in memory; clones share it. For tests, and for a run stopped and resumed in
/// one process.
///
/// ```
/// use dynomodel::backfill::{Checkpoint, CheckpointStore, MemoryCheckpoint, SegmentPosition};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let store = MemoryCheckpoint::new();
/// assert_eq!(store.load().await?, None);
/// let checkpoint = Checkpoint { table: "t".into(), segments: vec![SegmentPosition::Start] };
/// store.save(&checkpoint).await?;
/// assert_eq!(store.clone().load().await?, Some(checkpoint));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone, Default)]
pub struct MemoryCheckpoint {
    saved: Arc<Mutex<Option<Checkpoint>>>,
}

impl MemoryCheckpoint {
    /// An empty store.
    pub fn new() -> MemoryCheckpoint {
        MemoryCheckpoint::default()
    }
}

#[async_trait::async_trait]
impl CheckpointStore for MemoryCheckpoint {
    async fn load(&self) -> Result<Option<Checkpoint>> {
        Ok(self.saved.lock().unwrap_or_else(|e| e.into_inner()).clone())
    }
    async fn save(&self, checkpoint: &Checkpoint) -> Result<()> {
        *self.saved.lock().unwrap_or_else(|e| e.into_inner()) = Some(checkpoint.clone());
        Ok(())
    }
    async fn clear(&self) -> Result<()> {
        *self.saved.lock().unwrap_or_else(|e| e.into_inner()) = None;
        Ok(())
    }
}

/// A checkpoint kept in a file as JSON ([`Checkpoint::to_json`]). A save writes a temporary file
/// beside it and renames it over the old one, so a crash mid-save leaves the previous checkpoint
/// whole. The writes are small and synchronous.
///
/// ```
/// use dynomodel::backfill::{Checkpoint, CheckpointStore, FileCheckpoint, SegmentPosition};
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let path = std::env::temp_dir().join(format!("backfill-doc-{}.json", std::process::id()));
/// let store = FileCheckpoint::new(&path);
/// let checkpoint = Checkpoint { table: "t".into(), segments: vec![SegmentPosition::Done] };
/// store.save(&checkpoint).await?;
/// assert_eq!(FileCheckpoint::new(&path).load().await?, Some(checkpoint));
/// store.clear().await?;
/// assert!(!path.exists());
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct FileCheckpoint {
    path: PathBuf,
}

impl FileCheckpoint {
    /// A checkpoint kept at `path` (absent: none saved yet).
    pub fn new(path: impl Into<PathBuf>) -> FileCheckpoint {
        FileCheckpoint { path: path.into() }
    }

    fn io_error(&self, doing: &str, error: std::io::Error) -> Error {
        BackfillError::checkpoint(format!(
            "cannot {doing} the checkpoint file {}: {error}",
            self.path.display()
        ))
    }
}

#[async_trait::async_trait]
impl CheckpointStore for FileCheckpoint {
    async fn load(&self) -> Result<Option<Checkpoint>> {
        match std::fs::read_to_string(&self.path) {
            Ok(text) => Checkpoint::from_json(&text).map(Some),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(self.io_error("read", e)),
        }
    }
    async fn save(&self, checkpoint: &Checkpoint) -> Result<()> {
        let mut temporary = self.path.clone().into_os_string();
        temporary.push(".tmp");
        std::fs::write(&temporary, checkpoint.to_json()).map_err(|e| self.io_error("write", e))?;
        std::fs::rename(&temporary, &self.path).map_err(|e| self.io_error("replace", e))
    }
    async fn clear(&self) -> Result<()> {
        match std::fs::remove_file(&self.path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(self.io_error("remove", e)),
        }
    }
}

/// A checkpoint kept as one item of a table whose hash key is the string attribute `id`: the
/// item `{id: <id>, checkpoint: <JSON text>}`. The table (namespace applied by `db`) must exist;
/// several backfills share it under different ids. Survives the loss of the machine running the
/// backfill, which a file does not.
///
/// ```
/// use dynomodel::backfill::{Checkpoint, CheckpointStore, SegmentPosition, TableCheckpoint};
/// use dynomodel::Model;
/// # use dynomodel::Db;
/// # use dynomodel_mem::MemoryDb;
///
/// #[derive(Model)]
/// #[dynomodel(table = "checkpoints")]
/// struct CheckpointRow { #[hash_key] id: String, checkpoint: String }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// # let db = Db::memory();
/// db.create_schema::<CheckpointRow>().await?;
/// let store = TableCheckpoint::new(&db, "checkpoints", "users-v3");
/// let checkpoint = Checkpoint { table: "users".into(), segments: vec![SegmentPosition::Start] };
/// store.save(&checkpoint).await?;
/// assert_eq!(store.load().await?, Some(checkpoint));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct TableCheckpoint {
    db: Db,
    table: String,
    id: String,
}

impl TableCheckpoint {
    /// The checkpoint `id` in table `table` (namespace of `db` applied).
    pub fn new(db: &Db, table: &str, id: impl Into<String>) -> TableCheckpoint {
        TableCheckpoint {
            table: format!("{}{table}", db.namespace()),
            db: db.clone(),
            id: id.into(),
        }
    }

    fn key(&self) -> Item {
        [("id".to_owned(), AttributeValue::S(self.id.clone()))].into()
    }
}

#[async_trait::async_trait]
impl CheckpointStore for TableCheckpoint {
    async fn load(&self) -> Result<Option<Checkpoint>> {
        let output = self
            .db
            .backend()
            .get_item(GetItemInput {
                table_name: self.table.clone(),
                key: self.key(),
                consistent_read: Some(true),
                ..Default::default()
            })
            .await?;
        match output.item.as_ref().and_then(|item| item.get("checkpoint")) {
            None => Ok(None),
            Some(AttributeValue::S(text)) => Checkpoint::from_json(text).map(Some),
            Some(other) => Err(BackfillError::checkpoint(format!(
                "the checkpoint `{}` in `{}` is a {}, not a string",
                self.id,
                self.table,
                other.type_name()
            ))),
        }
    }
    async fn save(&self, checkpoint: &Checkpoint) -> Result<()> {
        let mut item = self.key();
        item.insert(
            "checkpoint".to_owned(),
            AttributeValue::S(checkpoint.to_json()),
        );
        self.db
            .backend()
            .put_item(PutItemInput {
                table_name: self.table.clone(),
                item,
                ..Default::default()
            })
            .await
            .map(drop)
    }
    async fn clear(&self) -> Result<()> {
        self.db
            .backend()
            .delete_item(DeleteItemInput {
                table_name: self.table.clone(),
                key: self.key(),
                ..Default::default()
            })
            .await
            .map(drop)
    }
}
