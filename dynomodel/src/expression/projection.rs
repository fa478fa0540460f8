//! [`ProjectionExpression`]: the attributes (or nested paths) a read returns.

use std::fmt;
use std::marker::PhantomData;

use crate::error::Result;
use crate::expression::context::{check_overlaps, Placeholders};
use crate::expression::path::{IntoPath, Path, PathElement};
use crate::model::Field;

/// A `ProjectionExpression` on items of model `M`: a list of paths, rendered `#n0, #n1.#n2[0]`.
///
/// Naming the same path twice keeps one; naming overlapping paths (`a` and `a.b`) is an error when
/// rendered, as in DynamoDB. An empty projection renders no expression (all attributes).
///
/// ```
/// use std::collections::BTreeMap;
/// use dynomodel::{Field, ProjectionExpression};
/// use dynomodel::expression::ExpressionContext;
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
    ///
    /// ```
    /// # use dynomodel::{Field, ProjectionExpression};
    /// # use dynomodel::expression::ExpressionContext;
    /// # struct Tweet;
    /// # impl Tweet {
    /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
    /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
    /// # }
    /// let projection = ProjectionExpression::new()
    ///     .with(Tweet::text())
    ///     .with(Tweet::history().index(0))
    ///     .with(Tweet::text()); // already there: kept once
    /// let mut ctx = ExpressionContext::new();
    /// assert_eq!(ctx.projection(&projection)?.as_deref(), Some("#n0, #n1[0]"));
    /// # Ok::<(), dynomodel::Error>(())
    /// ```
    pub fn with<T>(mut self, path: impl IntoPath<M, T>) -> Self {
        let path = path.into_path().into_elements();
        if !self.paths.contains(&path) {
            self.paths.push(path);
        }
        self
    }

    /// Adds every path of `other` (a field, a path, a tuple of them...) after these.
    ///
    /// ```
    /// use dynomodel::{Field, ProjectionExpression};
    /// struct T;
    /// impl T { fn a() -> Field<T, i64> { Field::new("a") } fn b() -> Field<T, i64> { Field::new("b") } }
    /// let p = ProjectionExpression::new().with(T::a()).merge((T::b(), T::a()));
    /// assert_eq!(p.paths().len(), 2);
    /// ```
    pub fn merge(mut self, other: impl IntoProjection<M>) -> Self {
        for path in other.into_projection().paths {
            if !self.paths.contains(&path) {
                self.paths.push(path);
            }
        }
        self
    }

    /// The projected paths, in order.
    pub fn paths(&self) -> &[Vec<PathElement>] {
        &self.paths
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

/// What a read's `.project(..)` accepts: a [`Field`], a [`Path`], a [`ProjectionExpression`], a tuple
/// of up to 12 of those (of any value types), or an array or `Vec` of one kind.
///
/// Tuples are the pleasant form, `.project((Tweet::text(), Tweet::likes()))`: the handles keep their
/// own value types, which an array could not hold, and no `.into()` or builder chain is needed.
///
/// ```
/// use dynomodel::Field;
/// use dynomodel::expression::{ExpressionContext, IntoProjection};
///
/// struct Tweet;
/// impl Tweet {
///     fn text() -> Field<Tweet, String> { Field::new("text") }
///     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
///     fn tags() -> Field<Tweet, Vec<String>> { Field::new("tags") }
/// }
///
/// let projection = (Tweet::text(), Tweet::likes(), Tweet::tags().index(0)).into_projection();
/// let mut ctx = ExpressionContext::new();
/// assert_eq!(ctx.projection(&projection)?.as_deref(), Some("#n0, #n1, #n2[0]"));
/// # Ok::<(), dynomodel::Error>(())
/// ```
pub trait IntoProjection<M> {
    /// The paths as one projection, in the order given.
    fn into_projection(self) -> ProjectionExpression<M>;
}

impl<M> IntoProjection<M> for ProjectionExpression<M> {
    fn into_projection(self) -> ProjectionExpression<M> {
        self
    }
}

impl<M, T, R> IntoProjection<M> for Field<M, T, R> {
    fn into_projection(self) -> ProjectionExpression<M> {
        ProjectionExpression::new().with(self)
    }
}

impl<M, T> IntoProjection<M> for Path<M, T> {
    fn into_projection(self) -> ProjectionExpression<M> {
        ProjectionExpression::new().with(self)
    }
}

impl<M, P: IntoProjection<M>, const N: usize> IntoProjection<M> for [P; N] {
    fn into_projection(self) -> ProjectionExpression<M> {
        self.into_iter()
            .fold(ProjectionExpression::new(), |all, p| all.merge(p))
    }
}

impl<M, P: IntoProjection<M>> IntoProjection<M> for Vec<P> {
    fn into_projection(self) -> ProjectionExpression<M> {
        self.into_iter()
            .fold(ProjectionExpression::new(), |all, p| all.merge(p))
    }
}

macro_rules! tuple_projections {
    ($($name:ident)+) => {
        impl<M, $($name: IntoProjection<M>),+> IntoProjection<M> for ($($name,)+) {
            #[allow(non_snake_case)] // the bindings reuse the type parameters' names
            fn into_projection(self) -> ProjectionExpression<M> {
                let ($($name,)+) = self;
                ProjectionExpression::new()$(.merge($name))+
            }
        }
    };
}

tuple_projections!(A);
tuple_projections!(A B);
tuple_projections!(A B C);
tuple_projections!(A B C D);
tuple_projections!(A B C D E);
tuple_projections!(A B C D E F);
tuple_projections!(A B C D E F G);
tuple_projections!(A B C D E F G H);
tuple_projections!(A B C D E F G H I);
tuple_projections!(A B C D E F G H I J);
tuple_projections!(A B C D E F G H I J K);
tuple_projections!(A B C D E F G H I J K L);

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
    fn tuples_arrays_and_merges_keep_order_and_collapse_duplicates() {
        let mut ctx = ExpressionContext::new();
        let p = (T::b(), T::a().index(2), T::b()).into_projection();
        assert_eq!(
            ctx.projection(&p).expect("renders").as_deref(),
            Some("#n0, #n1[2]")
        );
        let p = [T::a().index(0), T::a().index(1)]
            .into_projection()
            .merge(T::b());
        assert_eq!(
            ctx.projection(&p).expect("renders").as_deref(),
            Some("#n1[0], #n1[1], #n0")
        );
        assert!(vec![T::b()].into_projection().paths().len() == 1);
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
