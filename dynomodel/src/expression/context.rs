//! [`ExpressionContext`]: renders the expressions of one request with one placeholder allocator.
//!
//! DynamoDB takes a request's names and values in two maps shared by all its expressions (condition,
//! update, projection, filter, key condition) and rejects any entry no expression uses. Allocating
//! every placeholder from one context is what guarantees both: a placeholder exists only because some
//! rendered expression wrote it, and the same attribute name reuses the same `#n` everywhere.

use std::collections::{BTreeMap, HashMap};

use crate::backend::numbered::{push_decimal, push_placeholder};
use crate::backend::NumberedAttributes;
use crate::error::{Error, Result};
use crate::expression::condition::Condition;
use crate::expression::path::PathElement;
use crate::expression::projection::ProjectionExpression;
use crate::expression::update::Update;
use crate::value::{AttributeValue, Item};

/// DynamoDB's limit on the length of one expression string, in bytes.
pub const MAX_EXPRESSION_SIZE: usize = 4096;

/// Collects the expressions of one request and the `ExpressionAttributeNames`/`Values` they use.
///
/// Every path element is aliased (`#n0`, `#n1`, ...), so reserved words and special characters never
/// matter; every value is a placeholder (`:v0`, `:v1`, ...), never spliced into the text. If rendering
/// an expression fails, the context is left as it was before the call.
///
/// ```
/// use dynomodel::{Field, Update};
/// use dynomodel::expression::ExpressionContext;
///
/// struct Tweet;
/// impl Tweet {
///     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
///     fn text() -> Field<Tweet, String> { Field::new("text") }
/// }
///
/// let mut ctx = ExpressionContext::new();
/// let cond = ctx.condition(&Tweet::likes().ge(10))?;
/// let upd = ctx.update(&Update::new().set(Tweet::text(), "edited").incr(Tweet::likes(), 1))?;
/// let (names, values) = ctx.finish();
/// assert_eq!(cond, "#n0 >= :v0");
/// assert_eq!(upd.as_deref(), Some("SET #n1 = :v1, #n0 = #n0 + :v2"));
/// assert_eq!(names["#n0"], "likes");
/// assert_eq!(values.len(), 3);
/// # Ok::<(), dynomodel::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct ExpressionContext {
    placeholders: Placeholders,
}

impl ExpressionContext {
    /// An empty context, for one request.
    pub fn new() -> Self {
        Self::default()
    }

    /// Renders a `ConditionExpression` (or a `FilterExpression`: the grammar is the same) from a
    /// [`Condition`] or a [`SortKeyCondition`](crate::SortKeyCondition).
    ///
    /// Errors: a value that failed to convert, an empty or over-long `IN` list, an expression longer
    /// than 4 KB.
    pub fn condition<M>(&mut self, condition: &impl AsRef<Condition<M>>) -> Result<String> {
        let condition = condition.as_ref();
        self.render("ConditionExpression", |out, p| condition.render(out, p))
    }

    /// Renders a `KeyConditionExpression`, checking its restricted grammar first: one or two
    /// conditions joined by `AND`, each `=`, `<`, `<=`, `>`, `>=`, `BETWEEN` or `begins_with`.
    ///
    /// ```
    /// use dynomodel::Field;
    /// use dynomodel::expression::ExpressionContext;
    /// struct Tweet;
    /// impl Tweet {
    ///     fn userid() -> Field<Tweet, String> { Field::new("userid") }
    ///     fn id() -> Field<Tweet, String> { Field::new("id") }
    /// }
    /// let mut ctx = ExpressionContext::new();
    /// let key = Tweet::userid().eq("abc") & Tweet::id().begins_with("2026-");
    /// assert_eq!(ctx.key_condition(&key)?, "#n0 = :v0 AND begins_with(#n1, :v1)");
    /// assert!(ctx.key_condition(&(Tweet::userid().eq("a") | Tweet::userid().eq("b"))).is_err());
    /// # Ok::<(), dynomodel::Error>(())
    /// ```
    pub fn key_condition<M>(&mut self, condition: &impl AsRef<Condition<M>>) -> Result<String> {
        let condition = condition.as_ref();
        condition.check_key_condition()?;
        self.render("KeyConditionExpression", |out, p| condition.render(out, p))
    }

    /// Renders an `UpdateExpression`, or `None` when the update has no actions (an `UpdateItem`
    /// without an expression only creates the item if missing).
    ///
    /// Errors: a value that failed to convert, two actions on overlapping paths.
    pub fn update<M>(&mut self, update: &Update<M>) -> Result<Option<String>> {
        if update.is_empty() {
            return Ok(None);
        }
        self.render("UpdateExpression", |out, p| update.render(out, p))
            .map(Some)
    }

    /// Renders a `ProjectionExpression`, or `None` when it names no path (all attributes).
    ///
    /// Errors: overlapping paths (`a` and `a.b`).
    pub fn projection<M>(
        &mut self,
        projection: &ProjectionExpression<M>,
    ) -> Result<Option<String>> {
        if projection.is_empty() {
            return Ok(None);
        }
        self.render("ProjectionExpression", |out, p| projection.render(out, p))
            .map(Some)
    }

    /// The request's `ExpressionAttributeNames` (placeholder → name) and `ExpressionAttributeValues`
    /// (placeholder → value). Both are empty when nothing was rendered; DynamoDB wants them omitted then.
    pub fn finish(self) -> (BTreeMap<String, String>, Item) {
        self.placeholders.numbered().into_maps()
    }

    /// The request's names and values as [`finish`](ExpressionContext::finish) gives them, but
    /// numbered (`#n<i>` is `names[i]`, `:v<i>` is `values[i]`) rather than in maps: for a backend
    /// that builds maps of its own from them
    /// ([`Backend::query_numbered_into`](crate::Backend::query_numbered_into)).
    pub fn finish_numbered(self) -> NumberedAttributes {
        self.placeholders.numbered()
    }

    /// Renders `conditions` joined by `AND` as one `KeyConditionExpression`, checking the grammar of
    /// the whole as [`key_condition`](ExpressionContext::key_condition) does.
    pub(crate) fn key_conditions<M>(&mut self, conditions: &[&Condition<M>]) -> Result<String> {
        crate::expression::condition::check_key_conditions(conditions)?;
        self.render("KeyConditionExpression", |out, p| {
            crate::expression::condition::render_and(conditions.iter().copied(), out, p)
        })
    }

    /// Renders `conditions` joined by `AND` as one `ConditionExpression`, as if they had been
    /// combined with `&` first (the same text), without building the combined tree.
    pub(crate) fn conditions<'c, M: 'c>(
        &mut self,
        conditions: impl Iterator<Item = &'c Condition<M>> + Clone,
    ) -> Result<String> {
        self.render("ConditionExpression", |out, p| {
            crate::expression::condition::render_and(conditions, out, p)
        })
    }

    /// Renders a read's `FilterExpression`: the user's `filter` (if any) `AND` the single-table
    /// member's entity check `attribute = entity` (if any); `None` when there is neither.
    pub(crate) fn filter<M>(
        &mut self,
        filter: Option<&Condition<M>>,
        entity: Option<(&str, &str)>,
    ) -> Result<Option<String>> {
        let Some((attribute, entity)) = entity else {
            return filter.map(|f| self.condition(f)).transpose();
        };
        self.render("FilterExpression", |out, p| {
            if let Some(filter) = filter {
                out.push('(');
                filter.render(out, p)?;
                out.push_str(") AND ");
            }
            p.name(out, attribute);
            out.push_str(" = ");
            p.value(out, AttributeValue::S(entity.to_owned()));
            Ok(())
        })
        .map(Some)
    }

    /// The key condition `#n = :v` of a query on its partition key alone: what
    /// [`key_condition`](Self::key_condition) renders for `name = value`, without building the
    /// condition (its path, its copy of the value) first. Such a condition is always of an allowed
    /// shape.
    pub(crate) fn key_equals(&mut self, name: &str, value: AttributeValue) -> Result<String> {
        self.render("KeyConditionExpression", |out, p| {
            p.name(out, name);
            out.push_str(" = ");
            p.value(out, value);
            Ok(())
        })
    }

    /// Runs one renderer transactionally and enforces the size limit.
    fn render(
        &mut self,
        kind: &str,
        render: impl FnOnce(&mut String, &mut Placeholders) -> Result<()>,
    ) -> Result<String> {
        // Placeholders are only ever appended, so undoing a failed expression is truncating them
        // back to this mark: no copy of the maps per expression.
        let mark = self.placeholders.mark();
        let mut out = String::with_capacity(32);
        let result = render(&mut out, &mut self.placeholders).and_then(|()| {
            if out.len() > MAX_EXPRESSION_SIZE {
                Err(Error::validation(format!(
                    "Invalid {kind}: Expression size has exceeded the maximum allowed size; \
                     expression size: {}",
                    out.len()
                )))
            } else {
                Ok(())
            }
        });
        match result {
            Ok(()) => Ok(out),
            Err(e) => {
                // Placeholders allocated by a failed expression would be "unused" in the request.
                self.placeholders.rollback(mark);
                Err(e)
            }
        }
    }
}

/// Above this many names, finding a name's placeholder goes through a hash index rather than a scan.
const SCAN_NAMES: usize = 16;

/// The allocator: names are deduplicated, values are not (equal values in two places are two uses).
///
/// Placeholder `#n<i>` is `names[i]` and `:v<i>` is `values[i]`: placeholders are written straight
/// into the expression text and the request's maps are built once, by `finish`, so rendering
/// allocates no placeholder strings of its own. (A request names a handful of attributes, which a
/// scan finds faster than a hash; `index` only exists for the rare request naming many.)
#[derive(Debug, Clone, Default)]
pub(crate) struct Placeholders {
    names: Vec<String>,
    /// Built only once there are more than [`SCAN_NAMES`] names (`None` until then, so that a
    /// request with few names never makes a hasher).
    index: Option<HashMap<String, usize>>,
    values: Vec<AttributeValue>,
}

/// How many placeholders there were: what [`Placeholders::rollback`] returns to.
#[derive(Clone, Copy)]
pub(crate) struct Mark {
    names: usize,
    values: usize,
}

impl Placeholders {
    /// Writes the placeholder of an attribute name or map key, reusing it if the name was seen.
    pub(crate) fn name(&mut self, out: &mut String, name: &str) {
        let found = match self.names.len() > SCAN_NAMES {
            true => self
                .index
                .as_ref()
                .and_then(|index| index.get(name))
                .copied(),
            false => self.names.iter().position(|n| n == name),
        };
        let i = found.unwrap_or_else(|| {
            let i = self.names.len();
            self.names.push(name.to_owned());
            if self.names.len() > SCAN_NAMES {
                match &mut self.index {
                    Some(index) => {
                        index.insert(name.to_owned(), i);
                    }
                    None => {
                        let all = self.names.iter().enumerate();
                        self.index = Some(all.map(|(i, n)| (n.clone(), i)).collect());
                    }
                }
            }
            i
        });
        push_placeholder(out, "#n", i);
    }

    /// Writes a new placeholder holding `value`.
    pub(crate) fn value(&mut self, out: &mut String, value: AttributeValue) {
        push_placeholder(out, ":v", self.values.len());
        self.values.push(value);
    }

    /// Writes a document path: `#n0.#n1[2]`.
    pub(crate) fn path(&mut self, out: &mut String, path: &[PathElement]) {
        for (i, element) in path.iter().enumerate() {
            match element {
                PathElement::Name(name) => {
                    if i > 0 {
                        out.push('.');
                    }
                    self.name(out, name);
                }
                PathElement::Index(index) => {
                    out.push('[');
                    push_decimal(out, *index);
                    out.push(']');
                }
            }
        }
    }

    fn mark(&self) -> Mark {
        Mark {
            names: self.names.len(),
            values: self.values.len(),
        }
    }

    fn rollback(&mut self, mark: Mark) {
        self.names.truncate(mark.names);
        self.values.truncate(mark.values);
        match (self.names.len() > SCAN_NAMES, &mut self.index) {
            (true, Some(index)) => index.retain(|_, i| *i < mark.names),
            (true, None) => {}
            (false, _) => self.index = None,
        }
    }

    /// The request's names and values, numbered as their placeholders (the index is dropped).
    fn numbered(self) -> NumberedAttributes {
        NumberedAttributes {
            names: self.names,
            values: self.values,
        }
    }

    #[cfg(test)]
    fn finish(self) -> (BTreeMap<String, String>, Item) {
        self.numbered().into_maps()
    }
}

/// Two paths overlap when one is a prefix of the other (`a` and `a.b`, or the same path twice);
/// DynamoDB rejects an update or projection naming both, with this message.
pub(crate) fn check_overlaps(kind: &str, paths: &[&[PathElement]]) -> Result<()> {
    for (i, one) in paths.iter().enumerate() {
        for two in &paths[i + 1..] {
            let shorter = one.len().min(two.len());
            if one[..shorter] == two[..shorter] {
                return Err(Error::validation(format!(
                    "Invalid {kind}: Two document paths overlap with each other; must remove or \
                     rewrite one of these paths; path one: {}, path two: {}",
                    bracketed(one),
                    bracketed(two)
                )));
            }
        }
    }
    Ok(())
}

/// DynamoDB's way of printing a path in messages: `[a, b, [2]]`.
fn bracketed(path: &[PathElement]) -> String {
    let parts: Vec<String> = path
        .iter()
        .map(|e| match e {
            PathElement::Name(n) => n.clone(),
            PathElement::Index(i) => format!("[{i}]"),
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(n: &str) -> PathElement {
        PathElement::Name(n.into())
    }

    #[test]
    fn names_are_reused_and_values_are_not() {
        let mut p = Placeholders::default();
        let mut out = String::new();
        p.path(&mut out, &[name("a"), name("b"), PathElement::Index(2)]);
        out.push(' ');
        p.path(&mut out, &[name("b"), PathElement::Index(0), name("a")]);
        assert_eq!(out, "#n0.#n1[2] #n1[0].#n0");
        out.clear();
        p.value(&mut out, AttributeValue::Bool(true));
        p.value(&mut out, AttributeValue::Bool(true));
        assert_eq!(out, ":v0:v1");
        assert_eq!(p.names.len(), 2);
    }

    #[test]
    fn many_names_are_indexed_and_rolled_back() {
        let mut p = Placeholders::default();
        let mut out = String::new();
        for i in 0..SCAN_NAMES {
            p.name(&mut out, &format!("a{i}"));
        }
        // A few names are scanned: no index is built for them.
        assert!(p.index.is_none());
        let few = p.mark();
        for i in SCAN_NAMES..40 {
            p.name(&mut out, &format!("a{i}"));
        }
        assert_eq!(p.index.as_ref().map(HashMap::len), Some(40));
        let mark = p.mark();
        out.clear();
        p.name(&mut out, "a7");
        p.name(&mut out, "a39");
        p.name(&mut out, "new");
        assert_eq!(out, "#n7#n39#n40");
        p.rollback(mark);
        out.clear();
        p.name(&mut out, "other");
        p.name(&mut out, "a12");
        assert_eq!(out, "#n40#n12");
        let (names, values) = p.finish();
        assert_eq!((names.len(), values.len()), (41, 0));
        assert_eq!(names["#n40"], "other");
        assert_eq!(names["#n9"], "a9");

        // Rolled back to a few names, the index goes, and comes back whole past them again.
        let mut p = Placeholders::default();
        for i in 0..40 {
            p.name(&mut out, &format!("a{i}"));
        }
        p.rollback(few);
        assert!(p.index.is_none());
        for i in SCAN_NAMES..20 {
            p.name(&mut out, &format!("b{i}"));
        }
        assert_eq!(p.index.as_ref().map(HashMap::len), Some(20));
        out.clear();
        p.name(&mut out, "a3");
        p.name(&mut out, "b18");
        p.name(&mut out, "a30");
        assert_eq!(out, "#n3#n18#n20");
    }

    #[test]
    fn overlaps_are_prefixes_including_equality() {
        let a = [name("a")];
        let ab = [name("a"), name("b")];
        let a0 = [name("a"), PathElement::Index(0)];
        let c = [name("c")];
        assert!(check_overlaps("UpdateExpression", &[&ab, &c, &a0]).is_ok());
        let err = check_overlaps("UpdateExpression", &[&a, &c, &ab]).expect_err("a overlaps a.b");
        assert_eq!(
            err.message(),
            "Invalid UpdateExpression: Two document paths overlap with each other; must remove or \
             rewrite one of these paths; path one: [a], path two: [a, b]"
        );
        assert!(check_overlaps("ProjectionExpression", &[&c, &c]).is_err());
        assert!(check_overlaps(
            "UpdateExpression",
            &[&a0, &[name("a"), PathElement::Index(0)]]
        )
        .is_err());
    }
}
