//! [`ExpressionContext`]: renders the expressions of one request with one placeholder allocator.
//!
//! DynamoDB takes a request's names and values in two maps shared by all its expressions (condition,
//! update, projection, filter, key condition) and rejects any entry no expression uses. Allocating
//! every placeholder from one context is what guarantees both: a placeholder exists only because some
//! rendered expression wrote it, and the same attribute name reuses the same `#n` everywhere.

use std::collections::{BTreeMap, HashMap};

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
/// use dynomodel::{ExpressionContext, Field, Update};
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

    /// Renders a `ConditionExpression` (or a `FilterExpression`: the grammar is the same).
    ///
    /// Errors: a value that failed to convert, an empty or over-long `IN` list, an expression longer
    /// than 4 KB.
    pub fn condition<M>(&mut self, condition: &Condition<M>) -> Result<String> {
        self.render("ConditionExpression", |out, p| condition.render(out, p))
    }

    /// Renders a `KeyConditionExpression`, checking its restricted grammar first: one or two
    /// conditions joined by `AND`, each `=`, `<`, `<=`, `>`, `>=`, `BETWEEN` or `begins_with`.
    ///
    /// ```
    /// use dynomodel::{ExpressionContext, Field};
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
    pub fn key_condition<M>(&mut self, condition: &Condition<M>) -> Result<String> {
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
        (self.placeholders.names, self.placeholders.values)
    }

    /// Runs one renderer transactionally and enforces the size limit.
    fn render(
        &mut self,
        kind: &str,
        render: impl FnOnce(&mut String, &mut Placeholders) -> Result<()>,
    ) -> Result<String> {
        let before = self.placeholders.clone();
        let mut out = String::new();
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
                self.placeholders = before;
                Err(e)
            }
        }
    }
}

/// The allocator: names are deduplicated, values are not (equal values in two places are two uses).
#[derive(Debug, Clone, Default)]
pub(crate) struct Placeholders {
    names: BTreeMap<String, String>,
    by_name: HashMap<String, String>,
    values: Item,
}

impl Placeholders {
    /// The placeholder for an attribute name or map key, reused if the name was seen before.
    pub(crate) fn name(&mut self, name: &str) -> String {
        if let Some(placeholder) = self.by_name.get(name) {
            return placeholder.clone();
        }
        let placeholder = format!("#n{}", self.by_name.len());
        self.by_name.insert(name.to_owned(), placeholder.clone());
        self.names.insert(placeholder.clone(), name.to_owned());
        placeholder
    }

    /// A new placeholder holding `value`.
    pub(crate) fn value(&mut self, value: AttributeValue) -> String {
        let placeholder = format!(":v{}", self.values.len());
        self.values.insert(placeholder.clone(), value);
        placeholder
    }

    /// Writes a document path: `#n0.#n1[2]`.
    pub(crate) fn path(&mut self, out: &mut String, path: &[PathElement]) {
        for (i, element) in path.iter().enumerate() {
            match element {
                PathElement::Name(name) => {
                    if i > 0 {
                        out.push('.');
                    }
                    out.push_str(&self.name(name));
                }
                PathElement::Index(index) => {
                    out.push('[');
                    out.push_str(&index.to_string());
                    out.push(']');
                }
            }
        }
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
        assert_eq!(p.value(AttributeValue::Bool(true)), ":v0");
        assert_eq!(p.value(AttributeValue::Bool(true)), ":v1");
        assert_eq!(p.names.len(), 2);
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
