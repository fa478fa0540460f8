//! [`ProjectionExpression`]: the attributes (or nested paths) a read returns.

use std::fmt;
use std::marker::PhantomData;

use crate::error::Result;
use crate::expression::context::{check_overlaps, Placeholders};
use crate::expression::path::{IntoPath, PathElement};

/// A `ProjectionExpression` on items of model `M`: a list of paths, rendered `#n0, #n1.#n2[0]`.
///
/// Naming the same path twice keeps one; naming overlapping paths (`a` and `a.b`) is an error when
/// rendered, as in DynamoDB. An empty projection renders no expression (all attributes).
///
/// ```
/// use std::collections::BTreeMap;
/// use dynomodel::{ExpressionContext, Field, ProjectionExpression};
///
/// struct Tweet;
/// impl Tweet {
///     fn text() -> Field<Tweet, String> { Field::new("text") }
///     fn meta() -> Field<Tweet, BTreeMap<String, Vec<String>>> { Field::new("meta") }
/// }
///
/// let projection = ProjectionExpression::new().with(Tweet::text()).with(Tweet::meta().key("langs").index(0));
/// let mut ctx = ExpressionContext::new();
/// assert_eq!(ctx.projection(&projection)?.as_deref(), Some("#n0, #n1.#n2[0]"));
/// # Ok::<(), dynomodel::Error>(())
/// ```
pub struct ProjectionExpression<M> {
    paths: Vec<Vec<PathElement>>,
    _marker: PhantomData<fn() -> M>,
}

impl<M> ProjectionExpression<M> {
    /// A projection naming nothing yet.
    pub fn new() -> Self {
        ProjectionExpression {
            paths: Vec::new(),
            _marker: PhantomData,
        }
    }

    /// Adds a path (a [`Field`](crate::Field) or a [`Path`](crate::Path)).
    pub fn with<T>(mut self, path: impl IntoPath<M, T>) -> Self {
        let path = path.into_path().into_elements();
        if !self.paths.contains(&path) {
            self.paths.push(path);
        }
        self
    }

    /// Whether the projection names no path.
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    pub(crate) fn render(&self, out: &mut String, p: &mut Placeholders) -> Result<()> {
        let paths: Vec<&[PathElement]> = self.paths.iter().map(Vec::as_slice).collect();
        check_overlaps("ProjectionExpression", &paths)?;
        for (i, path) in self.paths.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            p.path(out, path);
        }
        Ok(())
    }
}

impl<M> Default for ProjectionExpression<M> {
    fn default() -> Self {
        ProjectionExpression::new()
    }
}

impl<M> Clone for ProjectionExpression<M> {
    fn clone(&self) -> Self {
        ProjectionExpression {
            paths: self.paths.clone(),
            _marker: PhantomData,
        }
    }
}

impl<M> fmt::Debug for ProjectionExpression<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.paths).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expression::ExpressionContext;
    use crate::model::Field;

    struct T;
    impl T {
        fn a() -> Field<T, Vec<String>> {
            Field::new("a")
        }
        fn b() -> Field<T, String> {
            Field::new("b")
        }
    }

    #[test]
    fn duplicates_collapse_and_overlaps_fail() {
        let mut ctx = ExpressionContext::new();
        let p = ProjectionExpression::new()
            .with(T::b())
            .with(T::a().index(1))
            .with(T::b());
        assert_eq!(
            ctx.projection(&p).expect("renders").as_deref(),
            Some("#n0, #n1[1]")
        );
        let err = ctx
            .projection(
                &ProjectionExpression::new()
                    .with(T::a())
                    .with(T::a().index(0)),
            )
            .expect_err("a overlaps a[0]");
        assert!(err
            .message()
            .starts_with("Invalid ProjectionExpression: Two document paths overlap"));
        assert_eq!(
            ctx.projection(&ProjectionExpression::<T>::new())
                .expect("renders"),
            None
        );
        let (names, values) = ctx.finish();
        assert_eq!(names.len(), 2, "the failed projection allocated nothing");
        assert!(values.is_empty());
    }
}
