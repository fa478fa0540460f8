//! A bounded cache of parsed expressions keyed by (kind, text).
//!
//! Placeholders are resolved at validation and evaluation, so the same text always parses to the same tree
//! and requests that repeat an expression (the usual case) skip the parser. When the cache is full it is
//! emptied: simpler than LRU and good enough for a test double whose working set is small.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use dynomodel::Error;

use super::{check_size, parse_syntax, ExprKind, Expression, Origin};

/// Parsed expressions shared between requests.
#[derive(Debug)]
pub(crate) struct ExpressionCache {
    capacity: usize,
    entries: Mutex<HashMap<(ExprKind, String), Arc<Expression>>>,
}

/// How many parsed expressions the engine keeps by default: far more than a test suite's distinct texts.
pub(crate) const DEFAULT_CAPACITY: usize = 1024;

impl Default for ExpressionCache {
    fn default() -> ExpressionCache {
        ExpressionCache::new(DEFAULT_CAPACITY)
    }
}

impl ExpressionCache {
    /// A cache holding at most `capacity` expressions.
    pub(crate) fn new(capacity: usize) -> ExpressionCache {
        ExpressionCache {
            capacity: capacity.max(1),
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// The parsed expression of a request's own text, parsing on a miss, after the size limit (so
    /// the cache holds at most its capacity times 4 KB of text; legacy parameters never come here,
    /// their trees are built directly). Failures are not cached (they are rare and cheap).
    pub(crate) fn get(&self, kind: ExprKind, text: &str) -> Result<Arc<Expression>, Error> {
        check_size(kind, text, Origin::Request)?;
        let key = (kind, text.to_owned());
        if let Some(hit) = self.lock().get(&key) {
            return Ok(Arc::clone(hit));
        }
        // Parse outside the lock so that a slow parse does not block other requests.
        let parsed = Arc::new(parse_syntax(kind, text)?);
        let mut entries = self.lock();
        if entries.len() >= self.capacity {
            entries.clear();
        }
        entries.insert(key, Arc::clone(&parsed));
        Ok(parsed)
    }

    /// How many expressions are cached.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(ExprKind, String), Arc<Expression>>> {
        // A panic while holding the lock cannot leave the map inconsistent (inserts are atomic), so a
        // poisoned lock is still usable.
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_text_is_parsed_once_and_shared() {
        let cache = ExpressionCache::new(2);
        let a = cache.get(ExprKind::Condition, "a = :v").expect("parses");
        let b = cache.get(ExprKind::Condition, "a = :v").expect("parses");
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(cache.len(), 1);
        // Same text, other kind: another entry.
        assert!(cache.get(ExprKind::Filter, "a = :v").is_ok());
        assert_eq!(cache.len(), 2);
        // Full: emptied, then the new entry.
        assert!(cache.get(ExprKind::Projection, "a").is_ok());
        assert_eq!(cache.len(), 1);
        assert!(cache.get(ExprKind::Condition, "a =").is_err());
        assert_eq!(cache.len(), 1);
        // Over 4 KB: refused, not kept.
        let long = vec!["a = :v"; 600].join(" AND ");
        assert!(cache.get(ExprKind::Condition, &long).is_err());
        assert_eq!(cache.len(), 1);
    }
}
