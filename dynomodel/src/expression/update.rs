//! [`Update`]: the typed actions of an `UpdateExpression`, rendered with each clause keyword once.

use std::fmt;
use std::marker::PhantomData;

use crate::convert::Attribute;
use crate::error::Result;
use crate::expression::context::{check_overlaps, Placeholders};
use crate::expression::path::{ListValue, PathElement, UpdateTarget};
use crate::expression::value::{convert, operand, FieldValue, IntoValue, Numeric, SetValue, Value};
use crate::value::AttributeValue;

/// The actions of one `UpdateItem` on an item of model `M`.
///
/// Actions render grouped by clause, in the order `SET`, `REMOVE`, `ADD`, `DELETE`, each keyword
/// once and the actions of a clause in the order they were added. Two actions on overlapping paths
/// (`a` and `a.b`, or `a` twice) are an error when rendered, as they are in DynamoDB.
///
/// **Setting nothing removes.** `set(path, v)` where `v` converts to no attribute (`None`, an empty
/// set) becomes `REMOVE path`: DynamoDB cannot store an empty set, and an absent attribute is how a
/// model stores `None`, so this is what writing that value means. Likewise `add`/`delete` of an empty
/// set and `set_if_not_exists` of nothing do nothing.
///
/// ```
/// use std::collections::BTreeSet;
/// use dynomodel::{Field, Update};
/// use dynomodel::expression::ExpressionContext;
///
/// struct Tweet;
/// impl Tweet {
///     fn text() -> Field<Tweet, String> { Field::new("text") }
///     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
///     fn retweets() -> Field<Tweet, i64> { Field::new("retweets") }
///     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
/// }
///
/// let update = Update::new()
///     .set(Tweet::text(), "edited")
///     .set(Tweet::nick(), None)
///     .add(Tweet::retweets(), 1)
///     .delete(Tweet::tags(), BTreeSet::from(["old".to_owned()]));
/// let mut ctx = ExpressionContext::new();
/// assert_eq!(
///     ctx.update(&update)?.as_deref(),
///     Some("SET #n0 = :v0 REMOVE #n1 ADD #n2 :v1 DELETE #n3 :v2")
/// );
/// # Ok::<(), dynomodel::Error>(())
/// ```
pub struct Update<M> {
    actions: Vec<Action>,
    _marker: PhantomData<fn() -> M>,
}

#[derive(Debug, Clone)]
enum Action {
    Set(Vec<PathElement>, SetValue_),
    Remove(Vec<PathElement>),
    Add(Vec<PathElement>, Value),
    Delete(Vec<PathElement>, Value),
}

/// The right-hand side of a `SET` action (named with a trailing `_` to stay apart from the
/// [`SetValue`] marker trait).
#[allow(non_camel_case_types)]
#[derive(Debug, Clone)]
enum SetValue_ {
    Value(Value),
    IfNotExists(Value),
    /// `path + v` (`true`) or `path - v` (`false`).
    Arithmetic(bool, Value),
    /// `list_append(if_not_exists(path, :empty), v)`, or with the operands swapped to prepend.
    Append {
        prepend: bool,
        list: Value,
    },
}

impl<M> Update<M> {
    /// An update with no actions.
    ///
    /// ```
    /// # use std::collections::BTreeSet;
    /// # use dynomodel::{Field, Update};
    /// # use dynomodel::expression::ExpressionContext;
    /// # struct Tweet;
    /// # impl Tweet {
    /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
    /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
    /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
    /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
    /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
    /// # }
    /// let mut ctx = ExpressionContext::new();
    /// let update: Update<Tweet> = Update::new();
    /// assert!(update.is_empty());
    /// assert_eq!(ctx.update(&update)?, None); // no UpdateExpression at all
    /// # Ok::<(), dynomodel::Error>(())
    /// ```
    pub fn new() -> Self {
        Update {
            actions: Vec::new(),
            _marker: PhantomData,
        }
    }

    /// Whether no action was added (then there is no `UpdateExpression` at all).
    pub fn is_empty(&self) -> bool {
        self.actions.is_empty()
    }

    fn push(mut self, action: Action) -> Self {
        self.actions.push(action);
        self
    }

    /// `SET path = value`, or `REMOVE path` when `value` converts to nothing (see the type docs).
    ///
    /// ```
    /// # use std::collections::BTreeSet;
    /// # use dynomodel::{Field, Update};
    /// # use dynomodel::expression::ExpressionContext;
    /// # struct Tweet;
    /// # impl Tweet {
    /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
    /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
    /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
    /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
    /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
    /// # }
    /// let mut ctx = ExpressionContext::new();
    /// let update = Update::new().set(Tweet::text(), "edited").set(Tweet::nick(), None);
    /// assert_eq!(ctx.update(&update)?.as_deref(), Some("SET #n0 = :v0 REMOVE #n1"));
    /// # Ok::<(), dynomodel::Error>(())
    /// ```
    pub fn set<T: Attribute>(
        self,
        path: impl UpdateTarget<M, T>,
        value: impl IntoValue<T>,
    ) -> Self {
        let path = path.into_path().into_elements();
        match convert(&value.into_value(), &path).transpose() {
            None => self.push(Action::Remove(path)),
            Some(value) => self.push(Action::Set(path, SetValue_::Value(value))),
        }
    }

    /// `SET path = if_not_exists(path, value)`: writes `value` only if the attribute is absent.
    ///
    /// ```
    /// # use std::collections::BTreeSet;
    /// # use dynomodel::{Field, Update};
    /// # use dynomodel::expression::ExpressionContext;
    /// # struct Tweet;
    /// # impl Tweet {
    /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
    /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
    /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
    /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
    /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
    /// # }
    /// let mut ctx = ExpressionContext::new();
    /// let update = Update::new().set_if_not_exists(Tweet::likes(), 0);
    /// assert_eq!(ctx.update(&update)?.as_deref(), Some("SET #n0 = if_not_exists(#n0, :v0)"));
    /// # Ok::<(), dynomodel::Error>(())
    /// ```
    pub fn set_if_not_exists<T: Attribute>(
        self,
        path: impl UpdateTarget<M, T>,
        value: impl IntoValue<T>,
    ) -> Self {
        let path = path.into_path().into_elements();
        match convert(&value.into_value(), &path).transpose() {
            None => self,
            Some(value) => self.push(Action::Set(path, SetValue_::IfNotExists(value))),
        }
    }

    /// `ADD path value`: adds to a number or unions into a set, creating a missing attribute
    /// (as `0 + value` or the set itself).
    ///
    /// ```
    /// # use std::collections::BTreeSet;
    /// # use dynomodel::{Field, Update};
    /// # use dynomodel::expression::ExpressionContext;
    /// # struct Tweet;
    /// # impl Tweet {
    /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
    /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
    /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
    /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
    /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
    /// # }
    /// let mut ctx = ExpressionContext::new();
    /// let update = Update::new()
    ///     .add(Tweet::likes(), 1)
    ///     .add(Tweet::tags(), BTreeSet::from(["rust".to_owned()]));
    /// assert_eq!(ctx.update(&update)?.as_deref(), Some("ADD #n0 :v0, #n1 :v1"));
    /// # Ok::<(), dynomodel::Error>(())
    /// ```
    pub fn add<T>(self, path: impl UpdateTarget<M, T>, value: impl IntoValue<T::Value>) -> Self
    where
        T: FieldValue,
        T::Value: Attribute + Addable,
    {
        let path = path.into_path().into_elements();
        match convert(&value.into_value(), &path).transpose() {
            None => self,
            Some(value) => self.push(Action::Add(path, value)),
        }
    }

    /// `SET path = path + n`. Unlike [`add`](Self::add), this fails on a missing attribute
    /// ("The provided expression refers to an attribute that does not exist in the item").
    ///
    /// ```
    /// # use std::collections::BTreeSet;
    /// # use dynomodel::{Field, Update};
    /// # use dynomodel::expression::ExpressionContext;
    /// # struct Tweet;
    /// # impl Tweet {
    /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
    /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
    /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
    /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
    /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
    /// # }
    /// let mut ctx = ExpressionContext::new();
    /// let update = Update::new().incr(Tweet::likes(), 2);
    /// assert_eq!(ctx.update(&update)?.as_deref(), Some("SET #n0 = #n0 + :v0"));
    /// # Ok::<(), dynomodel::Error>(())
    /// ```
    pub fn incr<T>(self, path: impl UpdateTarget<M, T>, n: impl IntoValue<T::Value>) -> Self
    where
        T: FieldValue,
        T::Value: Attribute + Numeric,
    {
        self.arithmetic(true, path.into_path().into_elements(), n.into_value())
    }

    /// `SET path = path - n`; see [`incr`](Self::incr).
    pub fn decr<T>(self, path: impl UpdateTarget<M, T>, n: impl IntoValue<T::Value>) -> Self
    where
        T: FieldValue,
        T::Value: Attribute + Numeric,
    {
        self.arithmetic(false, path.into_path().into_elements(), n.into_value())
    }

    fn arithmetic<V: Attribute>(self, plus: bool, path: Vec<PathElement>, n: V) -> Self {
        let value = operand(&n, &path, "an arithmetic update");
        self.push(Action::Set(path, SetValue_::Arithmetic(plus, value)))
    }

    /// `REMOVE path`. Removing a missing attribute is not an error.
    ///
    /// ```
    /// # use std::collections::BTreeSet;
    /// # use dynomodel::{Field, Update};
    /// # use dynomodel::expression::ExpressionContext;
    /// # struct Tweet;
    /// # impl Tweet {
    /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
    /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
    /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
    /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
    /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
    /// # }
    /// let mut ctx = ExpressionContext::new();
    /// let update = Update::new().remove(Tweet::nick()).remove(Tweet::history().index(0));
    /// assert_eq!(ctx.update(&update)?.as_deref(), Some("REMOVE #n0, #n1[0]"));
    /// # Ok::<(), dynomodel::Error>(())
    /// ```
    pub fn remove<T>(self, path: impl UpdateTarget<M, T>) -> Self {
        self.push(Action::Remove(path.into_path().into_elements()))
    }

    /// `DELETE path subset`: removes elements from a set; removing the last one removes the attribute.
    ///
    /// ```
    /// # use std::collections::BTreeSet;
    /// # use dynomodel::{Field, Update};
    /// # use dynomodel::expression::ExpressionContext;
    /// # struct Tweet;
    /// # impl Tweet {
    /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
    /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
    /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
    /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
    /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
    /// # }
    /// let mut ctx = ExpressionContext::new();
    /// let update = Update::new().delete(Tweet::tags(), BTreeSet::from(["old".to_owned()]));
    /// assert_eq!(ctx.update(&update)?.as_deref(), Some("DELETE #n0 :v0"));
    /// # Ok::<(), dynomodel::Error>(())
    /// ```
    pub fn delete<T>(self, path: impl UpdateTarget<M, T>, subset: impl IntoValue<T::Value>) -> Self
    where
        T: FieldValue,
        T::Value: Attribute + SetValue,
    {
        let path = path.into_path().into_elements();
        match convert(&subset.into_value(), &path).transpose() {
            None => self,
            Some(value) => self.push(Action::Delete(path, value)),
        }
    }

    /// `SET path = list_append(if_not_exists(path, :empty), list)`: appends to a list, starting from
    /// an empty list when the attribute is missing (plain `list_append(path, ..)` would fail then).
    ///
    /// ```
    /// # use std::collections::BTreeSet;
    /// # use dynomodel::{Field, Update};
    /// # use dynomodel::expression::ExpressionContext;
    /// # struct Tweet;
    /// # impl Tweet {
    /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
    /// #     fn text() -> Field<Tweet, String> { Field::new("text") }
    /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
    /// #     fn tags() -> Field<Tweet, BTreeSet<String>> { Field::new("tags") }
    /// #     fn history() -> Field<Tweet, Vec<String>> { Field::new("history") }
    /// # }
    /// let mut ctx = ExpressionContext::new();
    /// // `prepend` is the same with the operands of `list_append` swapped.
    /// let update = Update::new().append(Tweet::history(), vec!["new".to_owned()]);
    /// assert_eq!(
    ///     ctx.update(&update)?.as_deref(),
    ///     Some("SET #n0 = list_append(if_not_exists(#n0, :v1), :v0)")
    /// );
    /// # Ok::<(), dynomodel::Error>(())
    /// ```
    pub fn append<T>(self, path: impl UpdateTarget<M, T>, list: impl IntoValue<T::Value>) -> Self
    where
        T: FieldValue,
        T::Value: Attribute + ListValue,
    {
        self.list_append(false, path.into_path().into_elements(), list.into_value())
    }

    /// `SET path = list_append(list, if_not_exists(path, :empty))`: inserts at the front of a list.
    pub fn prepend<T>(self, path: impl UpdateTarget<M, T>, list: impl IntoValue<T::Value>) -> Self
    where
        T: FieldValue,
        T::Value: Attribute + ListValue,
    {
        self.list_append(true, path.into_path().into_elements(), list.into_value())
    }

    fn list_append<V: Attribute>(self, prepend: bool, path: Vec<PathElement>, list: V) -> Self {
        let list = operand(&list, &path, "list_append");
        self.push(Action::Set(path, SetValue_::Append { prepend, list }))
    }

    /// `SET name = value` on a top-level attribute, with the value already converted: how the
    /// mapper writes attributes it names at run time (whole-item writes, timestamps).
    pub(crate) fn set_attribute(self, name: &str, value: AttributeValue) -> Self {
        self.push(Action::Set(top_level(name), SetValue_::Value(Ok(value))))
    }

    /// `SET name = if_not_exists(name, value)` on a top-level attribute.
    pub(crate) fn set_attribute_if_not_exists(self, name: &str, value: AttributeValue) -> Self {
        self.push(Action::Set(
            top_level(name),
            SetValue_::IfNotExists(Ok(value)),
        ))
    }

    /// `REMOVE name` on a top-level attribute.
    pub(crate) fn remove_attribute(self, name: &str) -> Self {
        self.push(Action::Remove(top_level(name)))
    }

    /// `ADD name value` on a top-level attribute (a number, or a set's elements).
    pub(crate) fn add_attribute(self, name: &str, value: AttributeValue) -> Self {
        self.push(Action::Add(top_level(name), Ok(value)))
    }

    /// `DELETE name value` on a top-level attribute (a set's elements).
    pub(crate) fn delete_attribute(self, name: &str, value: AttributeValue) -> Self {
        self.push(Action::Delete(top_level(name), Ok(value)))
    }

    /// Whether an action targets the top-level attribute `name` or a path inside it.
    pub(crate) fn touches(&self, name: &str) -> bool {
        self.actions.iter().any(|a| a.attribute() == Some(name))
    }

    /// The top-level attribute of the first action on none of `names`; `None` when every action
    /// is on one of them.
    pub(crate) fn first_outside<'s>(&'s self, names: &[&str]) -> Option<&'s str> {
        self.actions
            .iter()
            .map(|action| action.attribute().unwrap_or(""))
            .find(|name| !names.contains(name))
    }

    /// Whether an action writes the top-level attribute `name` itself (not a path inside it) with
    /// `SET` (any form: a value, `if_not_exists`, arithmetic, `list_append`) or `ADD`: the actions
    /// that leave the attribute on an item that did not have it, or fail (arithmetic on a missing
    /// attribute), rather than leave it missing. What an upsert must do for each required attribute.
    pub(crate) fn assigns(&self, name: &str) -> bool {
        self.actions.iter().any(|action| match action {
            Action::Set(path, _) | Action::Add(path, _) => {
                matches!(path.as_slice(), [PathElement::Name(top)] if top == name)
            }
            Action::Remove(_) | Action::Delete(..) => false,
        })
    }

    /// Writes the expression: `SET a = :v0, b = :v1 REMOVE c ADD d :v2 DELETE e :v3`.
    pub(crate) fn render(&self, out: &mut String, p: &mut Placeholders) -> Result<()> {
        // One action cannot overlap another (and needs no vector of its path to tell).
        if self.actions.len() > 1 {
            let targets: Vec<&[PathElement]> = self.actions.iter().map(Action::path).collect();
            check_overlaps("UpdateExpression", &targets)?;
        }
        let clauses = [("SET", 0), ("REMOVE", 1), ("ADD", 2), ("DELETE", 3)];
        for (keyword, clause) in clauses {
            let mut first = true;
            for action in self.actions.iter().filter(|a| a.clause() == clause) {
                if first {
                    if !out.is_empty() {
                        out.push(' ');
                    }
                    out.push_str(keyword);
                    out.push(' ');
                    first = false;
                } else {
                    out.push_str(", ");
                }
                action.render(out, p)?;
            }
        }
        Ok(())
    }
}

/// Types `ADD` accepts: numbers and sets.
#[diagnostic::on_unimplemented(message = "`ADD` applies to numbers and sets, not to `{Self}`")]
pub trait Addable {}

impl<T: Numeric> Addable for T {}

impl<E, S> Addable for std::collections::HashSet<E, S> {}

impl<E> Addable for std::collections::BTreeSet<E> {}

/// The path of a top-level attribute.
fn top_level(name: &str) -> Vec<PathElement> {
    vec![PathElement::Name(name.to_owned())]
}

impl Action {
    /// The top-level attribute the action targets (its path's first element).
    fn attribute(&self) -> Option<&str> {
        match self.path().first() {
            Some(PathElement::Name(name)) => Some(name),
            _ => None,
        }
    }

    fn path(&self) -> &[PathElement] {
        match self {
            Action::Set(p, _) | Action::Remove(p) | Action::Add(p, _) | Action::Delete(p, _) => p,
        }
    }

    fn clause(&self) -> usize {
        match self {
            Action::Set(..) => 0,
            Action::Remove(_) => 1,
            Action::Add(..) => 2,
            Action::Delete(..) => 3,
        }
    }

    fn render(&self, out: &mut String, p: &mut Placeholders) -> Result<()> {
        let target = self.path();
        p.path(out, target);
        match self {
            Action::Remove(_) => {}
            Action::Add(_, value) | Action::Delete(_, value) => {
                out.push(' ');
                p.value(out, value.clone()?);
            }
            Action::Set(_, rhs) => {
                out.push_str(" = ");
                // The target written again reuses its placeholders (names are deduplicated).
                match rhs {
                    SetValue_::Value(v) => p.value(out, v.clone()?),
                    SetValue_::IfNotExists(v) => {
                        let v = v.clone()?;
                        out.push_str("if_not_exists(");
                        p.path(out, target);
                        out.push_str(", ");
                        p.value(out, v);
                        out.push(')');
                    }
                    SetValue_::Arithmetic(plus, v) => {
                        let v = v.clone()?;
                        p.path(out, target);
                        out.push_str(if *plus { " + " } else { " - " });
                        p.value(out, v);
                    }
                    SetValue_::Append { prepend, list } => {
                        let list = list.clone()?;
                        // Placeholders number in the order they were allocated before: the list,
                        // then the empty list.
                        out.push_str("list_append(");
                        let mut existing = String::new();
                        let mut appended = String::new();
                        p.value(&mut appended, list);
                        existing.push_str("if_not_exists(");
                        p.path(&mut existing, target);
                        existing.push_str(", ");
                        p.value(&mut existing, AttributeValue::L(Vec::new()));
                        existing.push(')');
                        let (first, second) = match prepend {
                            true => (appended, existing),
                            false => (existing, appended),
                        };
                        out.push_str(&first);
                        out.push_str(", ");
                        out.push_str(&second);
                        out.push(')');
                    }
                }
            }
        }
        Ok(())
    }
}

impl<M> Default for Update<M> {
    fn default() -> Self {
        Update::new()
    }
}

impl<M> Clone for Update<M> {
    fn clone(&self) -> Self {
        Update {
            actions: self.actions.clone(),
            _marker: PhantomData,
        }
    }
}

impl<M> fmt::Debug for Update<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.actions).finish()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::error::Error;
    use crate::expression::tests::{n, s, Author, Tweet};
    use crate::expression::ExpressionContext;
    use crate::value::Item;

    fn render(update: &Update<Tweet>) -> (Option<String>, Item) {
        let mut ctx = ExpressionContext::new();
        let text = ctx.update(update).expect("the update renders");
        (text, ctx.finish().1)
    }

    fn rendered(update: Update<Tweet>) -> String {
        render(&update).0.expect("the update has actions")
    }

    fn set_of(items: &[&str]) -> BTreeSet<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn clauses_are_grouped_with_each_keyword_once() {
        let update = Update::new()
            .add(Tweet::likes(), 1)
            .set(Tweet::text(), "t")
            .remove(Tweet::history())
            .delete(Tweet::tags(), set_of(&["old"]))
            .set(Tweet::flag(), true)
            .remove(Tweet::meta());
        let (text, values) = render(&update);
        assert_eq!(
            text.as_deref(),
            Some("SET #n0 = :v0, #n1 = :v1 REMOVE #n2, #n3 ADD #n4 :v2 DELETE #n5 :v3")
        );
        assert_eq!(values[":v0"], s("t"));
        assert_eq!(values[":v2"], n(1));
        assert_eq!(values[":v3"], AttributeValue::Ss(vec!["old".into()]));
    }

    #[test]
    fn setting_nothing_removes() {
        assert_eq!(
            rendered(Update::new().set(Tweet::nick(), None)),
            "REMOVE #n0"
        );
        assert_eq!(
            rendered(Update::new().set(Tweet::tags(), set_of(&[]))),
            "REMOVE #n0"
        );
        let (text, values) = render(&Update::new().set(Tweet::nick(), "ada"));
        assert_eq!(
            (text.as_deref(), &values[":v0"]),
            (Some("SET #n0 = :v0"), &s("ada"))
        );
        let nick: Option<String> = Some("bob".into());
        assert_eq!(
            rendered(Update::new().set(Tweet::nick(), nick)),
            "SET #n0 = :v0"
        );
    }

    #[test]
    fn empty_sets_add_and_delete_nothing() {
        let update = Update::new()
            .add(Tweet::tags(), set_of(&[]))
            .delete(Tweet::tags(), set_of(&[]))
            .set_if_not_exists(Tweet::nick(), None);
        assert!(update.is_empty());
        assert_eq!(render(&update), (None, Item::new()));
    }

    #[test]
    fn if_not_exists_and_arithmetic() {
        let (text, values) = render(
            &Update::new()
                .set_if_not_exists(Tweet::likes(), 0)
                .incr(Tweet::views(), 2)
                .decr(Tweet::score(), 0.5),
        );
        assert_eq!(
            text.as_deref(),
            Some("SET #n0 = if_not_exists(#n0, :v0), #n1 = #n1 + :v1, #n2 = #n2 - :v2")
        );
        assert_eq!(values[":v1"], n(2));
    }

    #[test]
    fn append_and_prepend_start_from_an_empty_list() {
        let (text, values) = render(&Update::new().append(Tweet::history(), vec!["b".to_owned()]));
        assert_eq!(
            text.as_deref(),
            Some("SET #n0 = list_append(if_not_exists(#n0, :v1), :v0)")
        );
        assert_eq!(values[":v0"], AttributeValue::L(vec![s("b")]));
        assert_eq!(values[":v1"], AttributeValue::L(vec![]));
        assert_eq!(
            rendered(Update::new().prepend(Tweet::history(), vec!["a".to_owned()])),
            "SET #n0 = list_append(:v0, if_not_exists(#n0, :v1))"
        );
    }

    #[test]
    fn add_takes_numbers_and_sets() {
        let (text, values) = render(
            &Update::new()
                .add(Tweet::lucky(), BTreeSet::from([3, 4]))
                .add(Tweet::views(), 5),
        );
        assert_eq!(text.as_deref(), Some("ADD #n0 :v0, #n1 :v1"));
        assert_eq!(values[":v0"], AttributeValue::Ns(vec![3.into(), 4.into()]));
    }

    #[test]
    fn nested_paths() {
        let update = Update::new()
            .set(Tweet::meta().key("a").index(2), 7)
            .set(Tweet::author().then(Author::name()), "ada")
            .remove(Tweet::author().then(Author::langs()).index(0));
        assert_eq!(
            rendered(update),
            "SET #n0.#n1[2] = :v0, #n2.#n3 = :v1 REMOVE #n2.#n4[0]"
        );
    }

    #[test]
    fn overlapping_paths_are_rejected() {
        let mut ctx = ExpressionContext::new();
        for update in [
            Update::new().set(Tweet::text(), "a").remove(Tweet::text()),
            Update::new()
                .remove(Tweet::meta())
                .set(Tweet::meta().key("k").index(0), 1),
            Update::new().add(Tweet::likes(), 1).incr(Tweet::likes(), 1),
        ] {
            let err = ctx.update(&update).expect_err("paths overlap");
            assert!(
                err.message().contains("Two document paths overlap"),
                "{err}"
            );
        }
        let update = Update::new()
            .set(Tweet::history().index(0), "x")
            .set(Tweet::history().index(1), "y");
        assert_eq!(
            ctx.update(&update)
                .expect("siblings do not overlap")
                .as_deref(),
            Some("SET #n0[0] = :v0, #n0[1] = :v1")
        );
    }

    #[test]
    fn conversion_errors_surface_at_render_time() {
        let mut ctx = ExpressionContext::new();
        let err = ctx
            .update(
                &Update::new()
                    .set(Tweet::likes(), 1)
                    .set(Tweet::score(), f64::NAN),
            )
            .expect_err("NaN is not a number");
        assert!(
            matches!(&err, Error::Conversion(e) if e.path == "score"),
            "{err:?}"
        );
        let err = ctx
            .update(&Update::new().incr(Tweet::score(), f64::INFINITY))
            .expect_err("infinity is not a number");
        assert!(matches!(err, Error::Conversion(_)), "{err:?}");
        assert_eq!(ctx.finish(), (Default::default(), Item::new()));
    }

    #[test]
    fn assigned_attributes_are_top_level_sets_and_adds() {
        let update = Update::new()
            .set(Tweet::text(), "t")
            .set_if_not_exists(Tweet::likes(), 0)
            .incr(Tweet::views(), 1)
            .append(Tweet::history(), vec!["a".to_owned()])
            .add(Tweet::lucky(), BTreeSet::from([1]))
            .set(Tweet::meta().key("a").index(0), 1)
            .remove(Tweet::nick())
            .delete(Tweet::tags(), set_of(&["x"]));
        for name in ["text", "likes", "views", "history", "lucky"] {
            assert!(update.assigns(name), "{name}");
        }
        // Inside a map, removed, or only had elements deleted: not given a value.
        for name in ["meta", "nick", "tags", "flag"] {
            assert!(!update.assigns(name), "{name}");
        }
        // Setting nothing removes, so assigns nothing.
        assert!(!Update::new().set(Tweet::nick(), None).assigns("nick"));
    }

    #[test]
    fn one_context_serves_condition_update_and_projection() {
        use crate::expression::ProjectionExpression;
        let mut ctx = ExpressionContext::new();
        let condition = ctx.condition(&Tweet::likes().ge(10)).expect("renders");
        let update = ctx
            .update(
                &Update::new()
                    .incr(Tweet::likes(), 1)
                    .set(Tweet::text(), "t"),
            )
            .expect("renders");
        let projection = ctx
            .projection(
                &ProjectionExpression::new()
                    .with(Tweet::text())
                    .with(Tweet::likes()),
            )
            .expect("renders");
        assert_eq!(condition, "#n0 >= :v0");
        assert_eq!(update.as_deref(), Some("SET #n0 = #n0 + :v1, #n1 = :v2"));
        assert_eq!(projection.as_deref(), Some("#n1, #n0"));
        let (names, values) = ctx.finish();
        assert_eq!(names.len(), 2);
        assert_eq!(values.len(), 3);
    }
}
