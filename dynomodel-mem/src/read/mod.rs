//! The read layer: walking a table or index in order and cutting it into pages ([`paging`]), Query
//! ([`query`]), Scan ([`scan`]) and the mapper's typed reads ([`typed`]). This module holds what
//! Query and Scan share: their expressions, `Select`, the table-or-index they read, and
//! `ExclusiveStartKey`.
//!
//! Messages are real DynamoDB's as recorded by dynalite's test-suite (`test/query.js`, `test/scan.js`,
//! `actions/query.js`, `actions/scan.js`) and, where dynalite is silent, DynamoDB Local 3.3.1's (probed).

pub(crate) mod paging;
pub(crate) mod query;
pub(crate) mod scan;
pub(crate) mod stale;
pub(crate) mod typed;

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use dynomodel::backend::{ScalarAttributeType, Select};
use dynomodel::{AttributeValue, Error, Item, Result};

use crate::expr::ast::{Condition, Path};
use crate::expr::eval::{self, resolve, Steps};
use crate::expr::substitution::Oversized;
use crate::expr::{self, ExprKind, Expression, Given, Origin, Placeholders, Usage};
use crate::storage::index::{Index, IndexPosition, Tie};
use crate::storage::java_order::java_hash_set_order;
use crate::storage::key::{partition_slot, KeyValue, PartitionSlot, PrimaryKey};
use crate::storage::lifecycle::{IndexChange, View};
use crate::storage::stored::StoredItem;
use crate::storage::table::Table;
use crate::validate;

static NO_NAMES: BTreeMap<String, String> = BTreeMap::new();
static NO_VALUES: Item = BTreeMap::new();

/// A request's placeholders, empty maps standing in for absent ones.
pub(crate) fn placeholders<'a>(
    names: Option<&'a BTreeMap<String, String>>,
    values: Option<&'a Item>,
) -> Placeholders<'a> {
    Placeholders {
        names: names.unwrap_or(&NO_NAMES),
        values: values.unwrap_or(&NO_VALUES),
    }
}

/// The request-level checks on the placeholder maps (dynalite's `validateExpressionParams`).
pub(crate) fn placeholder_maps(
    names: Option<&BTreeMap<String, String>>,
    values: Option<&Item>,
    any_expression: bool,
) -> Result<()> {
    if names.is_some() && !any_expression {
        return Err(Error::validation(
            "ExpressionAttributeNames can only be specified when using expressions",
        ));
    }
    if values.is_some() && !any_expression {
        return Err(Error::validation(
            "ExpressionAttributeValues can only be specified when using expressions",
        ));
    }
    if names.is_some_and(BTreeMap::is_empty) {
        return Err(Error::validation(
            "ExpressionAttributeNames must not be empty",
        ));
    }
    if values.is_some_and(BTreeMap::is_empty) {
        return Err(Error::validation(
            "ExpressionAttributeValues must not be empty",
        ));
    }
    if let Some(values) = values {
        validate::attribute_values(values)?;
    }
    Ok(())
}

/// A read's expressions as given: the request's texts, or the trees its legacy parameters stand for
/// (see [`Given`]; a Query may pair a translated `KeyConditions` with its own FilterExpression).
#[derive(Debug, Default)]
pub(crate) struct ReadParams<'a> {
    /// The KeyConditionExpression (Query).
    pub key_condition: Option<Given<'a, Condition>>,
    /// The FilterExpression.
    pub filter: Option<Given<'a, Condition>>,
    /// The ProjectionExpression's paths.
    pub projection: Option<Given<'a, Vec<Path>>>,
}

impl ReadParams<'_> {
    /// Whether the read has any expression (placeholder maps need one).
    pub(crate) fn any(&self) -> bool {
        self.key_condition.is_some() || self.filter.is_some() || self.projection.is_some()
    }
}

/// The parsed and validated filter and projection of a read.
#[derive(Debug, Default)]
pub(crate) struct ReadExpressions {
    /// The FilterExpression.
    pub filter: Option<Condition>,
    /// The ProjectionExpression's paths as written.
    pub projection: Option<Vec<Path>>,
}

/// A condition of `kind`: a built tree as it is, a text parsed and validated (recording its
/// placeholders, and in `oversized` whether it substitutes past the cap).
pub(crate) fn condition(
    kind: ExprKind,
    given: Given<'_, Condition>,
    p: Placeholders<'_>,
    usage: &mut Usage,
    oversized: &mut Oversized,
) -> Result<Condition> {
    let text = match given {
        Given::Built(tree) => return Ok(tree),
        Given::Text(text) => text,
    };
    match expr::parse(kind, text, Origin::Request)? {
        Expression::Condition(parsed) => {
            let origin = Origin::Request;
            let substituted =
                expr::validate::validate_condition_sized(kind, &parsed, p, usage, origin)?;
            oversized.note(kind, text, substituted);
            Ok(parsed.tree)
        }
        // `parse` returns the variant of its kind.
        _ => Err(expr::invalid(kind, "The expression can not be empty;")),
    }
}

/// The paths of a projection: a built list as it is, a text parsed and validated.
fn projection(
    given: Given<'_, Vec<Path>>,
    p: Placeholders<'_>,
    usage: &mut Usage,
    oversized: &mut Oversized,
) -> Result<Option<Vec<Path>>> {
    let text = match given {
        Given::Built(paths) => return Ok(Some(paths)),
        Given::Text(text) => text,
    };
    match expr::parse(ExprKind::Projection, text, Origin::Request)? {
        Expression::Projection(parsed) => {
            let origin = Origin::Request;
            let substituted = expr::validate::validate_projection_sized(&parsed, p, usage, origin)?;
            oversized.note(ExprKind::Projection, text, substituted);
            Ok(Some(parsed.tree.paths))
        }
        _ => Ok(None),
    }
}

/// The filter and projection of a read, parsed and validated where they are text (and measured
/// against the cap on what they substitute, into `oversized`).
pub(crate) fn read_expressions(
    filter: Option<Given<'_, Condition>>,
    projection_given: Option<Given<'_, Vec<Path>>>,
    p: Placeholders<'_>,
    usage: &mut Usage,
    oversized: &mut Oversized,
) -> Result<ReadExpressions> {
    let mut out = ReadExpressions::default();
    // The filter first: with faults in both, DynamoDB Local reports the filter's (its size too).
    if let Some(given) = filter {
        out.filter = Some(condition(ExprKind::Filter, given, p, usage, oversized)?);
    }
    if let Some(given) = projection_given {
        out.projection = projection(given, p, usage, oversized)?;
    }
    Ok(out)
}

/// A path below a table or index key attribute (`sk.x`, `gk[0]`) is a ValidationException: key
/// attributes are scalars. Shared by reads (projections, filters) and write conditions.
pub(crate) fn scalar_keys(table: &Table, paths: &[&Path], p: &Placeholders<'_>) -> Result<()> {
    // Top-level names of the paths that reach inside an attribute.
    let nested: Vec<String> = paths
        .iter()
        .filter(|path| path.elements.len() >= 2)
        .filter_map(|path| top_name(path, p))
        .collect();
    // Reported in key-schema order (hash key first), whatever the order of the paths, as DynamoDB
    // Local does when several paths are at fault.
    if let Some(key) = table
        .schema
        .key_schema
        .iter()
        .find(|k| nested.contains(&k.attribute_name))
    {
        return Err(Error::validation(format!(
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not \
             allowed: Key: {}",
            key.attribute_name
        )));
    }
    if let Some(name) = nested.iter().find(|name| table.is_index_key(name)) {
        return Err(Error::validation(format!(
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not \
             allowed: IndexKey: {name}"
        )));
    }
    Ok(())
}

/// The top-level attribute name of a path.
pub(crate) fn top_name(path: &Path, p: &Placeholders<'_>) -> Option<String> {
    eval::top_name(path, p).map(str::to_owned)
}

/// Every path a condition reads, in source order.
pub(crate) fn condition_paths<'c>(c: &'c Condition, out: &mut Vec<&'c Path>) {
    c.paths(out);
}

/// The resolved steps of projection paths (validation guarantees they resolve).
pub(crate) fn projection_steps(paths: &[Path], p: &Placeholders<'_>) -> Vec<Steps> {
    paths.iter().filter_map(|path| resolve(path, p)).collect()
}

/// `Select` after its defaults, with DynamoDB's rules on combinations (request-level checks).
pub(crate) fn select(
    select: Option<Select>,
    has_projection: bool,
    has_index: bool,
) -> Result<Select> {
    if has_projection {
        let what = match select {
            None | Some(Select::SpecificAttributes) => return Ok(Select::SpecificAttributes),
            Some(Select::Count) => "only the Count",
            Some(Select::AllAttributes) => "ALL_ATTRIBUTES",
            Some(Select::AllProjectedAttributes) => "ALL_PROJECTED_ATTRIBUTES",
        };
        return Err(Error::validation(format!(
            "Cannot specify the ProjectionExpression when choosing to get {what}"
        )));
    }
    match select {
        Some(Select::SpecificAttributes) => Err(Error::validation(
            "Must specify the AttributesToGet or ProjectionExpression when choosing to get \
             SPECIFIC_ATTRIBUTES",
        )),
        Some(Select::AllProjectedAttributes) if !has_index => Err(Error::validation(
            "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName",
        )),
        Some(s) => Ok(s),
        None if has_index => Ok(Select::AllProjectedAttributes),
        None => Ok(Select::AllAttributes),
    }
}

/// The table or one of its indexes.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Source<'t> {
    /// The table itself.
    Table(&'t Table),
    /// A secondary index of the table.
    Index(&'t Table, &'t Index),
}

impl<'t> Source<'t> {
    /// The table, or the index `name` of it: "The table does not have the specified index: X".
    ///
    /// An index still being created by UpdateTable is refused here, when it is looked up and before
    /// anything is read or checked against it: "Cannot read from backfilling global secondary index:
    /// <name>" (quoted with the name in published reports of the live service's ValidationException).
    /// Which error wins when the request also has a problem with the index's key schema or start key
    /// is not documented, and DynamoDB Local 3.3 cannot tell (it serves a CREATING index); the engine
    /// refuses the index first, as a request cannot be validated against an index it may not read.
    pub(crate) fn find(
        table: &'t Table,
        index: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<Source<'t>> {
        let Some(name) = index else {
            return Ok(Source::Table(table));
        };
        let Some(found) = table.index(name) else {
            return Err(Error::validation(format!(
                "The table does not have the specified index: {name}"
            )));
        };
        let creating = table
            .lifecycle
            .index_change(name, &View::at(now))
            .is_some_and(|(c, _)| c == IndexChange::Creating);
        if creating {
            return Err(Error::validation(format!(
                "Cannot read from backfilling global secondary index: {name}"
            )));
        }
        Ok(Source::Index(table, found))
    }

    /// The partition key and optional sort key of what is read, with their types.
    pub(crate) fn key_schema(&self) -> Vec<(String, ScalarAttributeType)> {
        match self {
            Source::Table(t) => t
                .schema
                .key_attributes()
                .map(|(n, ty)| (n.to_owned(), ty))
                .collect(),
            Source::Index(_, i) => std::iter::once(i.hash.clone())
                .chain(i.range.clone())
                .collect(),
        }
    }

    /// The attributes of a `LastEvaluatedKey`: the table key, plus the index key for an index.
    pub(crate) fn lek_names(&self) -> Vec<String> {
        match self {
            Source::Table(t) => t
                .schema
                .key_schema
                .iter()
                .map(|k| k.attribute_name.clone())
                .collect(),
            Source::Index(_, i) => i.entry_key_names(),
        }
    }

    /// The `LastEvaluatedKey` of an entry, from its stored form: each name copied once, into the
    /// key.
    pub(crate) fn lek_of_stored(&self, bytes: &[u8]) -> Item {
        match self {
            Source::Table(t) => paging::stored_key(
                bytes,
                t.schema
                    .key_schema
                    .iter()
                    .map(|k| k.attribute_name.as_str()),
            ),
            Source::Index(_, i) => paging::stored_key(bytes, i.entry_key_name_refs()),
        }
    }
}

/// A validated `ExclusiveStartKey`: where in the source the read resumes.
#[derive(Debug, Clone)]
pub(crate) enum StartKey {
    /// A table position.
    Table(PartitionSlot, Option<KeyValue>),
    /// An index position.
    Index(PartitionSlot, IndexPosition),
}

fn invalid_start(detail: Option<&str>) -> Error {
    match detail {
        None => Error::validation("The provided starting key is invalid"),
        Some(d) => Error::validation(format!("The provided starting key is invalid: {d}")),
    }
}

/// Validates an `ExclusiveStartKey` against the source (dynalite's `actions/query.js` and
/// `actions/scan.js` order). `scan_table_wording`: a Scan of the table words a wrong attribute count
/// "…invalid: The provided key element does not match the schema"; everything else says "…invalid".
pub(crate) fn start_key(
    esk: &Item,
    source: &Source<'_>,
    scan_table_wording: bool,
) -> Result<StartKey> {
    validate::attribute_values(esk).map_err(|e| invalid_start(Some(&message(&e))))?;
    let names = source.lek_names();
    if esk.len() != names.len() || names.iter().any(|n| !esk.contains_key(n)) {
        return Err(if scan_table_wording {
            invalid_start(Some("The provided key element does not match the schema"))
        } else {
            invalid_start(None)
        });
    }
    let (table, index) = match source {
        Source::Table(t) => (*t, None),
        Source::Index(t, i) => (*t, Some(*i)),
    };
    let index_key = match index {
        Some(i) => {
            let value = |(name, ty): &(String, ScalarAttributeType)| {
                esk.get(name)
                    .and_then(|v| KeyValue::from_attribute(v, *ty))
                    .filter(|k| !is_empty_key(k))
                    .ok_or_else(|| {
                        invalid_start(Some("The provided key element does not match the schema"))
                    })
            };
            Some((value(&i.hash)?, i.range.as_ref().map(value).transpose()?))
        }
        None => None,
    };
    let table_part: Item = table
        .schema
        .key_schema
        .iter()
        .filter_map(|k| {
            Some((
                k.attribute_name.clone(),
                esk.get(&k.attribute_name)?.clone(),
            ))
        })
        .collect();
    let key = validate::request_key(&table_part, &table.schema)
        .map_err(|e| invalid_start(Some(&message(&e))))?;
    Ok(match index_key {
        Some((hash, range)) => StartKey::Index(partition_slot(hash), (range, Tie::Key(key))),
        None => StartKey::Table(partition_slot(key.hash.clone()), key.range),
    })
}

fn is_empty_key(k: &KeyValue) -> bool {
    match k {
        KeyValue::S(s) => s.is_empty(),
        KeyValue::B(b) => b.is_empty(),
        KeyValue::N(_) => false,
    }
}

/// The message of an error (for wrapping it in another message).
pub(crate) fn message(e: &Error) -> String {
    match e {
        Error::Validation { message } => message.clone(),
        other => other.to_string(),
    }
}

/// The checks a read of an index makes once the index is known, and the key-path checks of every read:
/// GSI consistent reads, ALL_ATTRIBUTES on a GSI that does not project everything, key attributes used as
/// documents, and (DynamoDB Local's rules, the only evidence) filters and GSI projections naming
/// attributes the index does not hold.
pub(crate) fn check_read(
    source: &Source<'_>,
    select: Select,
    consistent: bool,
    exprs: &ReadExpressions,
    p: &Placeholders<'_>,
) -> Result<()> {
    let mut filter_paths = Vec::new();
    if let Some(f) = &exprs.filter {
        condition_paths(f, &mut filter_paths);
    }
    let projection: Vec<&Path> = exprs.projection.iter().flatten().collect();
    let table = match source {
        Source::Table(t) | Source::Index(t, _) => *t,
    };
    let paths: Vec<&Path> = projection
        .iter()
        .chain(filter_paths.iter())
        .copied()
        .collect();
    scalar_keys(table, &paths, p)?;
    let Source::Index(_, index) = source else {
        return Ok(());
    };
    if index.global && consistent {
        return Err(Error::validation(
            "Consistent reads are not supported on global secondary indexes",
        ));
    }
    if index.global && select == Select::AllAttributes && !index.projects_all() {
        return Err(Error::validation(format!(
            "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for \
             global secondary index {} because its projection type is not ALL",
            index.name
        )));
    }
    let missing = |paths: &[&Path]| -> Vec<String> {
        let names: Vec<String> = paths
            .iter()
            .filter_map(|path| top_name(path, p))
            .filter(|n| !index.projects(n))
            .collect();
        java_hash_set_order(names.iter().map(String::as_str))
            .into_iter()
            .map(str::to_owned)
            .collect()
    };
    // The filter is checked before the projection, as DynamoDB Local does when both are at fault.
    let unprojected = missing(&filter_paths);
    if !unprojected.is_empty() {
        return Err(Error::validation(format!(
            "One or more parameter values were invalid: Secondary index {} does not project one or more \
             filter attributes: [{}]",
            index.name,
            unprojected.join(", ")
        )));
    }
    let unprojected = missing(&projection);
    if index.global && !unprojected.is_empty() {
        return Err(Error::validation(format!(
            "One or more parameter values were invalid: Global secondary index {} does not project [{}]",
            index.name,
            unprojected.join(", ")
        )));
    }
    Ok(())
}

/// Whether a read of `source` must fetch items from the table: an LSI that does not hold what Select or
/// the projection asks for (DynamoDB fetches those attributes from the table at extra cost).
pub(crate) fn fetches_from_table(
    source: &Source<'_>,
    select: Select,
    exprs: &ReadExpressions,
    p: &Placeholders<'_>,
) -> bool {
    let Source::Index(_, index) = source else {
        return false;
    };
    if index.global || index.projects_all() {
        return false;
    }
    select == Select::AllAttributes
        || exprs
            .projection
            .iter()
            .flatten()
            .filter_map(|path| top_name(path, p))
            .any(|n| !index.projects(&n))
}

/// The instant an index read sees the index at (eventual consistency on demand: its pending
/// changes, `storage/consistency/`): the engine's `now`, or for a strongly consistent read (an
/// LSI's) the end of time, by which every change has arrived.
pub(crate) fn seen_at(now: DateTime<Utc>, consistent: bool) -> DateTime<Utc> {
    if consistent {
        DateTime::<Utc>::MAX_UTC
    } else {
        now
    }
}

/// The table item an index entry stands for, as a read (strongly `consistent` or not) sees it.
pub(crate) fn table_item(table: &Table, entry: &Item, consistent: bool) -> Option<Item> {
    let mut key = table.schema.key_attributes().map(|(name, ty)| {
        entry
            .get(name)
            .and_then(|v| KeyValue::from_attribute(v, ty))
    });
    let hash = key.next().flatten()?;
    let range = key.next().flatten();
    table
        .seen(&PrimaryKey { hash, range }, consistent)
        .map(StoredItem::decode)
}

/// A value's type as a key type, if it can be one.
pub(crate) fn scalar_type(v: &AttributeValue) -> Option<ScalarAttributeType> {
    match v {
        AttributeValue::S(_) => Some(ScalarAttributeType::S),
        AttributeValue::N(_) => Some(ScalarAttributeType::N),
        AttributeValue::B(_) => Some(ScalarAttributeType::B),
        _ => None,
    }
}
