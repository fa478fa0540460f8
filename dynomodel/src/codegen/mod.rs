//! Rust models generated from an existing table (feature `cli`).
//!
//! [`TableSample::read`] reads a live table through any [`Backend`](crate::Backend) (the AWS backend
//! against Amazon DynamoDB or DynamoDB Local, the engine, its server): `DescribeTable`,
//! `DescribeTimeToLive`, `ListTagsOfResource` and a sample of items by `Scan`.
//! [`TableSample::to_rust`] writes the models that describe it, as Rust source:
//!
//! - a `#[derive(Model)]` struct with the table's keys, its local and global indexes with their
//!   projections (and throughput where it differs from the table's), its billing, time to live,
//!   stream, table class, deletion protection and tags;
//! - a field per attribute of the sample, typed by the values seen: `Option` where an attribute is
//!   sometimes missing; `String`, `bool`, `Vec<u8>` (B); numbers as `i64`, `u64`, `f64` (when every
//!   value is the shortest text of an `f64`), `rust_decimal::Decimal` or [`Number`](crate::Number),
//!   the narrowest that holds every value exactly; sets as `BTreeSet`; lists as `Vec`; maps with
//!   consistent keys as `#[derive(Document)]` structs, other maps as `BTreeMap<String, T>`,
//!   `serde_json::Value` or maps of [`AttributeValue`](crate::AttributeValue); an attribute whose
//!   values have several types as an `AttributeValue`, which stores any of them unchanged;
//! - snake_case field names, with `#[dynomodel(rename = "...")]` where the attribute's name differs,
//!   keywords raw (`r#type`);
//! - for a shared table (items holding an entity-type attribute such as `_et` or `type`, or key values
//!   with entity prefixes such as `USER#u1`), one model per entity type with composite keys for the
//!   prefixes, and a `#[derive(Collection)]` enum of them where the items name their type; a comment
//!   says what evidence the split rests on.
//!
//! Every type is chosen so that each sampled item reads into its model and writes back unchanged.
//! A sample shows what is, not what may be: review the types (an `Option` the sample did not need, a
//! number that may one day hold a fraction) before relying on them.
//!
//! ```
//! use dynomodel::codegen::TableSample;
//! use dynomodel::Model;
//!
//! #[derive(Model, Debug, Clone, PartialEq)]
//! #[dynomodel(table = "users")]
//! struct User {
//!     #[hash_key]
//!     id: String,
//!     name: String,
//!     nickname: Option<String>,
//!     visits: u32,
//! }
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let db = dynomodel_mem::memory();
//! db.create_schema::<User>().await?;
//! db.put(&User { id: "u1".into(), name: "Ada".into(), nickname: None, visits: 3 }).await?;
//! db.put(&User { id: "u2".into(), name: "Grace".into(), nickname: Some("amazing".into()), visits: 9 }).await?;
//!
//! let source = TableSample::read(&db, "users", 100).await?.to_rust();
//! assert!(source.contains("#[dynomodel(table = \"users\")]\npub struct Users {"));
//! assert!(source.contains("    #[hash_key]\n    pub id: String,\n"));
//! assert!(source.contains("    pub nickname: Option<String>,\n"));
//! assert!(source.contains("    pub visits: i64,\n"));
//! # Ok::<(), dynomodel::Error>(())
//! # }).unwrap();
//! ```
//!
//! The command line's `generate` subcommand is [`GenerateArgs`].

mod args;
mod emit;
mod entities;
mod model;
mod names;
mod shape;
mod types;

pub use args::{GenerateArgs, GenerateError};

use crate::backend::{
    DescribeTableInput, DescribeTimeToLiveInput, ListTagsOfResourceInput, ScanInput,
    TableDescription, Tag, TimeToLiveStatus,
};
use crate::error::Result;
use crate::value::Item;
use crate::Db;

use emit::{CollectionDef, File};
use entities::{common_prefix, Evidence};
use model::Member;
use names::{pascal_case, Names};

/// The type names a generated file uses unqualified (the prelude's and its imports).
const PRELUDE: &[&str] = &[
    "BTreeMap",
    "BTreeSet",
    "Box",
    "Collection",
    "Document",
    "Model",
    "Option",
    "Result",
    "Self",
    "String",
    "Vec",
];

/// What the generator knows of a table: its description, time to live and tags, and a sample of its
/// items. Read with [`TableSample::read`], or built by hand (a test, a description saved earlier).
#[derive(Debug, Clone, PartialEq)]
pub struct TableSample {
    /// `DescribeTable`'s answer.
    pub table: TableDescription,
    /// The time-to-live attribute, when TTL is enabled (or being enabled).
    pub time_to_live: Option<String>,
    /// The table's tags.
    pub tags: Vec<Tag>,
    /// Why the tags could not be read, when the backend does not serve `ListTagsOfResource`
    /// (DynamoDB Local); the generated source says so.
    pub tags_unavailable: Option<String>,
    /// The sampled items, in scan order.
    pub items: Vec<Item>,
}

impl TableSample {
    /// Reads `table`'s description, time to live and tags, and scans up to `sample` items (`0`:
    /// none; the scan stops at the end of the table). Errors are the backend's, naming the table
    /// (a missing one is [`Error::ResourceNotFound`](crate::Error::ResourceNotFound)); only a backend
    /// without tagging (DynamoDB Local) is no error: [`tags_unavailable`](Self::tags_unavailable)
    /// records it. The scan is eventually consistent and costs what it reads (a read capacity unit
    /// per 8 KB of a page).
    pub async fn read(db: &Db, table: &str, sample: usize) -> Result<TableSample> {
        let backend = db.backend();
        let description = backend
            .describe_table(DescribeTableInput {
                table_name: table.to_owned(),
            })
            .await?
            .table;
        let ttl = backend
            .describe_time_to_live(DescribeTimeToLiveInput {
                table_name: table.to_owned(),
            })
            .await?
            .time_to_live_description;
        let time_to_live = match ttl.time_to_live_status {
            TimeToLiveStatus::Enabled | TimeToLiveStatus::Enabling => ttl.attribute_name,
            TimeToLiveStatus::Disabled | TimeToLiveStatus::Disabling => None,
        };

        let mut tags = Vec::new();
        let mut tags_unavailable = None;
        let mut next_token = None;
        loop {
            let input = ListTagsOfResourceInput {
                resource_arn: description.table_arn.clone(),
                next_token: next_token.take(),
            };
            match backend.list_tags_of_resource(input).await {
                Ok(page) => {
                    tags.extend(page.tags);
                    next_token = page.next_token;
                }
                Err(err) if err.code() == "UnknownOperationException" => {
                    tags_unavailable = Some(err.to_string());
                }
                Err(err) => return Err(err),
            }
            if next_token.is_none() {
                break;
            }
        }

        let mut items = Vec::new();
        let mut start = None;
        while items.len() < sample {
            let input = ScanInput {
                table_name: table.to_owned(),
                limit: Some(i32::try_from(sample - items.len()).unwrap_or(i32::MAX)),
                exclusive_start_key: start.take(),
                ..Default::default()
            };
            let page = backend.scan(input).await?;
            items.extend(page.items.unwrap_or_default());
            match page.last_evaluated_key {
                Some(key) => start = Some(key),
                None => break,
            }
        }
        items.truncate(sample);
        Ok(TableSample {
            table: description,
            time_to_live,
            tags,
            tags_unavailable,
            items,
        })
    }

    /// The models of the table as Rust source (a whole file: header, imports, structs).
    pub fn to_rust(&self) -> String {
        let table = &self.table;
        let keys: Vec<&str> = table
            .key_schema
            .iter()
            .map(|k| k.attribute_name.as_str())
            .collect();
        let hash = keys.first().copied().unwrap_or_default();
        let range = keys.get(1).copied();
        let mut file = File {
            header: vec![format!(
                "Models of table `{}`, generated by `dynomodel::codegen` from its description and {} \
                 sampled item{}. A sample shows what is, not what may be: review the \
                 types before relying on them.",
                table.table_name,
                self.items.len(),
                if self.items.len() == 1 { "" } else { "s" },
            )],
            ..Default::default()
        };
        if self.items.is_empty() {
            file.header.push(
                "The sample is empty: the fields are the keys, the index keys, the time to live \
                 and the attributes indexes include, typed by the table's description alone."
                    .to_owned(),
            );
        }
        if let Some(why) = &self.tags_unavailable {
            file.header.push(format!(
                "The table's tags could not be read ({why}): none are declared."
            ));
        }
        let mut types = Names::default();
        // The names the file uses unqualified: a model named after them would shadow them.
        for used in PRELUDE {
            types.reserve(used);
        }
        let base = pascal_case(&table.table_name);

        let members: Vec<Member<'_>> = match entities::detect(&self.items, &keys) {
            None => {
                let all: Vec<&Item> = self.items.iter().collect();
                vec![Member {
                    name: types.unique_type(&base),
                    doc: format!("An item of table `{}`.", table.table_name),
                    hash_prefix: common_prefix(&all, hash),
                    range_prefix: range.and_then(|r| common_prefix(&all, r)),
                    items: all,
                    entity: None,
                    only_populated_indexes: false,
                }]
            }
            Some(found) => {
                let counts: Vec<String> = found
                    .groups
                    .iter()
                    .map(|(kind, items)| format!("{kind}: {}", items.len()))
                    .collect();
                let members: Vec<Member<'_>> = found
                    .groups
                    .iter()
                    .map(|(kind, items)| Member {
                        name: types.unique_type(&pascal_case(kind)),
                        doc: match &found.evidence {
                            Evidence::Attribute(attribute) => format!(
                                "An item of table `{}` whose `{attribute}` is `{kind}`.",
                                table.table_name
                            ),
                            Evidence::KeyPrefix(key) => format!(
                                "An item of table `{}` whose `{key}` starts with `{kind}#`.",
                                table.table_name
                            ),
                        },
                        hash_prefix: common_prefix(items, hash),
                        range_prefix: range.and_then(|r| common_prefix(items, r)),
                        items: items.clone(),
                        entity: match &found.evidence {
                            Evidence::Attribute(attribute) => {
                                Some((kind.clone(), attribute.clone()))
                            }
                            Evidence::KeyPrefix(_) => None,
                        },
                        only_populated_indexes: true,
                    })
                    .collect();
                match &found.evidence {
                    Evidence::Attribute(attribute) => {
                        file.header.push(format!(
                            "Single-table design: every sampled item names its entity type in `{attribute}` \
                             ({}), so there is one model per entity type (`entity = \"...\"`), with composite \
                             keys where all of a type's key values share a prefix.",
                            counts.join(", ")
                        ));
                        let same_partitions =
                            members.windows(2).all(|m| m[0].hash_prefix == m[1].hash_prefix);
                        if same_partitions {
                            file.header.push(
                                "The entity types share partitions (their hash keys are written \
                                 alike), so a collection of them reads one partition whole."
                                    .to_owned(),
                            );
                            file.collection = Some(CollectionDef {
                                name: types.unique_type(&format!("{base}Collection")),
                                members: members.iter().map(|m| m.name.clone()).collect(),
                            });
                        } else {
                            file.header.push(
                                "The entity types' hash keys have different prefixes, so no collection \
                                 (whose members share partitions) is declared: declare one of the \
                                 models that do share them, if their items are read together."
                                    .to_owned(),
                            );
                        }
                    }
                    Evidence::KeyPrefix(key) => file.header.push(format!(
                        "Single-table design: every sampled `{key}` starts with an entity prefix ({}), so \
                         there is one model per prefix, with composite keys. The items hold no entity-type \
                         attribute, which `entity = \"...\"` and `#[derive(Collection)]` need: a query or \
                         scan of one model meets the other models' items and fails to decode them (narrow \
                         queries by the sort key's prefix), until the items get one (a backfill).",
                        counts.iter().map(|c| c.replacen(':', "#:", 1)).collect::<Vec<_>>().join(", ")
                    )),
                }
                members
            }
        };
        for member in &members {
            let model = model::build(self, member, &mut types);
            file.models.push(model);
        }
        file.render()
    }
}
