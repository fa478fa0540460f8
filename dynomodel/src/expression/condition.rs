//! [`Condition`]: a typed condition (or filter) on items of one model, and its rendering.
//!
//! Conditions are built from field handles (`Tweet::likes().ge(10)`, see [`crate::Field`]) and combined
//! with `&`, `|` and `!` (or [`Condition::and`], [`Condition::or`], [`Condition::not`]). Rendering
//! follows DynamoDB's precedence, `NOT` > `AND` > `OR`, and writes a parenthesis only where the tree
//! needs one: DynamoDB rejects redundant parentheses such as `((a < b))`.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{BitAnd, BitOr, Not};

use crate::error::{Error, Result};
use crate::expression::context::Placeholders;
use crate::expression::path::PathElement;
use crate::expression::value::Value;
use crate::value::{AttributeValue, Number};

/// DynamoDB's limit on the operands of one `IN`.
pub const MAX_IN_OPERANDS: usize = 100;

/// A condition on items of model `M`; conditions of different models do not mix.
///
/// ```
/// use dynomodel::Field;
/// use dynomodel::expression::ExpressionContext;
///
/// struct Tweet;
/// impl Tweet {
///     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
///     fn city() -> Field<Tweet, String> { Field::new("city") }
/// }
///
/// let c = Tweet::likes().ge(10) & (Tweet::city().eq("Paris") | Tweet::city().eq("Lyon"));
/// let mut ctx = ExpressionContext::new();
/// assert_eq!(ctx.condition(&c)?, "#n0 >= :v0 AND (#n1 = :v1 OR #n1 = :v2)");
/// # Ok::<(), dynomodel::Error>(())
/// ```
pub struct Condition<M> {
    node: Node,
    _marker: PhantomData<fn() -> M>,
}

/// The untyped tree; the model type lives only on [`Condition`].
#[derive(Debug, Clone)]
pub(crate) enum Node {
    Compare(Operand, Comparator, Operand),
    Between(Operand, Operand, Operand),
    In(Operand, Vec<Operand>),
    /// `name(path)` or `name(path, operand)`: the functions `attribute_exists`, `begins_with`...
    Function(&'static str, Vec<PathElement>, Option<Operand>),
    And(Box<Node>, Box<Node>),
    Or(Box<Node>, Box<Node>),
    Not(Box<Node>),
}

/// One side of a comparison.
#[derive(Debug, Clone)]
pub(crate) enum Operand {
    Path(Vec<PathElement>),
    Size(Vec<PathElement>),
    Value(Value),
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Comparator {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Comparator {
    fn symbol(self) -> &'static str {
        match self {
            Comparator::Eq => "=",
            Comparator::Ne => "<>",
            Comparator::Lt => "<",
            Comparator::Le => "<=",
            Comparator::Gt => ">",
            Comparator::Ge => ">=",
        }
    }
}

/// Binding strength, loosest first; a child binding looser than its parent needs parentheses.
const OR: u8 = 1;
const AND: u8 = 2;
const NOT: u8 = 3;
const ATOM: u8 = 4;

impl<M> Condition<M> {
    /// The tree, for builders that inspect a condition's shape (the query's key conditions).
    pub(crate) fn node(&self) -> &Node {
        &self.node
    }

    pub(crate) fn from_node(node: Node) -> Self {
        Condition {
            node,
            _marker: PhantomData,
        }
    }

    /// Both conditions hold; the same as `self & other`.
    ///
    /// ```
    /// # use dynomodel::Field;
    /// # use dynomodel::expression::ExpressionContext;
    /// # struct Tweet;
    /// # impl Tweet {
    /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
    /// #     fn city() -> Field<Tweet, String> { Field::new("city") }
    /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
    /// # }
    /// let mut ctx = ExpressionContext::new();
    /// let popular_in_paris = Tweet::likes().ge(10).and(Tweet::city().eq("Paris"));
    /// assert_eq!(ctx.condition(&popular_in_paris)?, "#n0 >= :v0 AND #n1 = :v1");
    /// # Ok::<(), dynomodel::Error>(())
    /// ```
    pub fn and(self, other: impl Into<Condition<M>>) -> Condition<M> {
        let other = other.into();
        Condition::from_node(Node::And(Box::new(self.node), Box::new(other.node)))
    }

    /// Either condition holds; the same as `self | other`.
    ///
    /// ```
    /// # use dynomodel::Field;
    /// # use dynomodel::expression::ExpressionContext;
    /// # struct Tweet;
    /// # impl Tweet {
    /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
    /// #     fn city() -> Field<Tweet, String> { Field::new("city") }
    /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
    /// # }
    /// let mut ctx = ExpressionContext::new();
    /// // Parentheses appear only where precedence needs them (AND binds tighter than OR).
    /// let lyon_or_popular = Tweet::city().eq("Lyon").or(Tweet::likes().ge(10));
    /// let c = lyon_or_popular & Tweet::nick().exists();
    /// assert_eq!(ctx.condition(&c)?, "(#n0 = :v0 OR #n1 >= :v1) AND attribute_exists(#n2)");
    /// # Ok::<(), dynomodel::Error>(())
    /// ```
    pub fn or(self, other: impl Into<Condition<M>>) -> Condition<M> {
        let other = other.into();
        Condition::from_node(Node::Or(Box::new(self.node), Box::new(other.node)))
    }

    /// The condition does not hold; the same as `!self`. `!!c` is simplified to `c`.
    ///
    /// ```
    /// # use dynomodel::Field;
    /// # use dynomodel::expression::ExpressionContext;
    /// # struct Tweet;
    /// # impl Tweet {
    /// #     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
    /// #     fn city() -> Field<Tweet, String> { Field::new("city") }
    /// #     fn nick() -> Field<Tweet, Option<String>> { Field::new("nick") }
    /// # }
    /// let mut ctx = ExpressionContext::new();
    /// assert_eq!(ctx.condition(&Tweet::city().eq("Paris").not())?, "NOT #n0 = :v0");
    /// assert_eq!(ctx.condition(&!!Tweet::city().eq("Lyon"))?, "#n0 = :v1");
    /// # Ok::<(), dynomodel::Error>(())
    /// ```
    #[allow(clippy::should_implement_trait)] // `Not` is implemented too; this reads well in chains.
    pub fn not(self) -> Condition<M> {
        match self.node {
            Node::Not(inner) => Condition::from_node(*inner),
            node => Condition::from_node(Node::Not(Box::new(node))),
        }
    }

    /// Checks the restricted grammar of a `KeyConditionExpression`: one or two conditions joined by
    /// `AND`, each `=`, `<`, `<=`, `>`, `>=`, `BETWEEN` or `begins_with` on a path. (Which attributes
    /// they name, the table's keys, is for the query builder that knows the schema.)
    pub(crate) fn check_key_condition(&self) -> Result<()> {
        check_key_conditions(&[self])
    }

    /// Writes the expression, allocating placeholders.
    pub(crate) fn render(&self, out: &mut String, p: &mut Placeholders) -> Result<()> {
        render_node(&self.node, out, p)
    }
}

/// [`Condition::check_key_condition`] of `conditions` joined by `AND`.
pub(crate) fn check_key_conditions<M>(conditions: &[&Condition<M>]) -> Result<()> {
    let mut atoms = Vec::new();
    for condition in conditions {
        flatten_and(&condition.node, &mut atoms);
    }
    if atoms.len() > 2 {
        return Err(Error::validation(
            "Invalid KeyConditionExpression: Conditions can be of length 1 or 2 only",
        ));
    }
    for atom in atoms {
        let operator = match atom {
            Node::Compare(Operand::Path(_), Comparator::Ne, _) => "<>",
            Node::Compare(Operand::Path(_), ..) | Node::Between(Operand::Path(_), ..) => continue,
            Node::Function("begins_with", ..) => continue,
            Node::Function(name, ..) => name,
            Node::Compare(..) | Node::Between(..) => "size",
            Node::In(..) => "IN",
            Node::Or(..) => "OR",
            Node::Not(..) => "NOT",
            Node::And(..) => "AND",
        };
        return Err(Error::validation(format!(
            "Invalid operator used in KeyConditionExpression: {operator}"
        )));
    }
    Ok(())
}

/// Collects the operands of a tree of `AND`s, left to right.
fn flatten_and<'a>(node: &'a Node, out: &mut Vec<&'a Node>) {
    match node {
        Node::And(left, right) => {
            flatten_and(left, out);
            flatten_and(right, out);
        }
        other => out.push(other),
    }
}

fn render_node(node: &Node, out: &mut String, p: &mut Placeholders) -> Result<()> {
    match node {
        Node::Compare(left, op, right) => {
            render_operand(left, out, p)?;
            out.push(' ');
            out.push_str(op.symbol());
            out.push(' ');
            render_operand(right, out, p)
        }
        Node::Between(subject, low, high) => {
            render_operand(subject, out, p)?;
            out.push_str(" BETWEEN ");
            render_operand(low, out, p)?;
            out.push_str(" AND ");
            render_operand(high, out, p)
        }
        Node::In(subject, list) => {
            if list.is_empty() || list.len() > MAX_IN_OPERANDS {
                return Err(Error::validation(format!(
                    "Invalid ConditionExpression: the IN operator takes 1 to {MAX_IN_OPERANDS} \
                     operands; operand count: {}",
                    list.len()
                )));
            }
            render_operand(subject, out, p)?;
            out.push_str(" IN (");
            for (i, operand) in list.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                render_operand(operand, out, p)?;
            }
            out.push(')');
            Ok(())
        }
        Node::Function(name, path, argument) => {
            out.push_str(name);
            out.push('(');
            p.path(out, path);
            if let Some(argument) = argument {
                out.push_str(", ");
                render_operand(argument, out, p)?;
            }
            out.push(')');
            Ok(())
        }
        Node::And(left, right) => {
            render_child(left, AND, out, p)?;
            out.push_str(" AND ");
            render_child(right, AND, out, p)
        }
        Node::Or(left, right) => {
            render_child(left, OR, out, p)?;
            out.push_str(" OR ");
            render_child(right, OR, out, p)
        }
        Node::Not(inner) => {
            out.push_str("NOT ");
            render_child(inner, NOT, out, p)
        }
    }
}

/// Parenthesises `node` only if it binds looser than its parent: the sole source of parentheses,
/// so none is ever redundant. (`AND` and `OR` are associative, so `a AND (b AND c)` needs none.)
fn render_child(node: &Node, parent: u8, out: &mut String, p: &mut Placeholders) -> Result<()> {
    if precedence(node) < parent {
        out.push('(');
        render_node(node, out, p)?;
        out.push(')');
        Ok(())
    } else {
        render_node(node, out, p)
    }
}

fn precedence(node: &Node) -> u8 {
    match node {
        Node::Or(..) => OR,
        Node::And(..) => AND,
        Node::Not(..) => NOT,
        _ => ATOM,
    }
}

fn render_operand(operand: &Operand, out: &mut String, p: &mut Placeholders) -> Result<()> {
    match operand {
        Operand::Path(path) => p.path(out, path),
        Operand::Size(path) => {
            out.push_str("size(");
            p.path(out, path);
            out.push(')');
        }
        Operand::Value(value) => p.value(out, value.clone()?),
    }
    Ok(())
}

/// Writes `conditions` joined by `AND`: the text `c1 & c2 & ...` would render to.
pub(crate) fn render_and<'c, M: 'c>(
    conditions: impl Iterator<Item = &'c Condition<M>> + Clone,
    out: &mut String,
    p: &mut Placeholders,
) -> Result<()> {
    let mut first_two = conditions.clone();
    if let (Some(one), None) = (first_two.next(), first_two.next()) {
        return render_node(&one.node, out, p);
    }
    for (i, condition) in conditions.enumerate() {
        if i > 0 {
            out.push_str(" AND ");
        }
        render_child(&condition.node, AND, out, p)?;
    }
    Ok(())
}

/// Lets [`ExpressionContext`](crate::expression::ExpressionContext) render a [`Condition`] and a
/// [`SortKeyCondition`](crate::SortKeyCondition) alike.
impl<M> AsRef<Condition<M>> for Condition<M> {
    fn as_ref(&self) -> &Condition<M> {
        self
    }
}

impl<M> Clone for Condition<M> {
    fn clone(&self) -> Self {
        Condition::from_node(self.node.clone())
    }
}

impl<M> fmt::Debug for Condition<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.node.fmt(f)
    }
}

impl<M, C: Into<Condition<M>>> BitAnd<C> for Condition<M> {
    type Output = Condition<M>;

    fn bitand(self, other: C) -> Condition<M> {
        self.and(other)
    }
}

impl<M, C: Into<Condition<M>>> BitOr<C> for Condition<M> {
    type Output = Condition<M>;

    fn bitor(self, other: C) -> Condition<M> {
        self.or(other)
    }
}

impl<M> Not for Condition<M> {
    type Output = Condition<M>;

    fn not(self) -> Condition<M> {
        Condition::not(self)
    }
}

/// DynamoDB's type descriptors, for [`attribute_type`](crate::Field::attribute_type).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AttributeType {
    /// String.
    S,
    /// Number.
    N,
    /// Binary.
    B,
    /// Boolean.
    Bool,
    /// Null.
    Null,
    /// String set.
    Ss,
    /// Number set.
    Ns,
    /// Binary set.
    Bs,
    /// List.
    L,
    /// Map.
    M,
}

impl AttributeType {
    /// The descriptor as DynamoDB spells it: `"S"`, `"BOOL"`, `"SS"`...
    ///
    /// ```
    /// assert_eq!(dynomodel::expression::AttributeType::Bool.as_str(), "BOOL");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            AttributeType::S => "S",
            AttributeType::N => "N",
            AttributeType::B => "B",
            AttributeType::Bool => "BOOL",
            AttributeType::Null => "NULL",
            AttributeType::Ss => "SS",
            AttributeType::Ns => "NS",
            AttributeType::Bs => "BS",
            AttributeType::L => "L",
            AttributeType::M => "M",
        }
    }

    pub(crate) fn operand(self) -> Operand {
        Operand::Value(Ok(AttributeValue::S(self.as_str().to_owned())))
    }
}

/// `size(path)`: the length of a string or binary, or the element count of a set, list or map.
/// It compares with integers.
///
/// ```
/// use dynomodel::Field;
/// use dynomodel::expression::ExpressionContext;
/// struct Tweet;
/// impl Tweet { fn text() -> Field<Tweet, String> { Field::new("text") } }
///
/// let mut ctx = ExpressionContext::new();
/// assert_eq!(ctx.condition(&Tweet::text().size().le(280))?, "size(#n0) <= :v0");
/// # Ok::<(), dynomodel::Error>(())
/// ```
pub struct Size<M> {
    path: Vec<PathElement>,
    _marker: PhantomData<fn() -> M>,
}

impl<M> Size<M> {
    pub(crate) fn new(path: Vec<PathElement>) -> Self {
        Size {
            path,
            _marker: PhantomData,
        }
    }

    fn compare(self, op: Comparator, n: impl Into<Number>) -> Condition<M> {
        let value = Operand::Value(Ok(AttributeValue::N(n.into())));
        Condition::from_node(Node::Compare(Operand::Size(self.path), op, value))
    }

    /// `size(path) = n`.
    pub fn eq(self, n: impl Into<Number>) -> Condition<M> {
        self.compare(Comparator::Eq, n)
    }

    /// `size(path) <> n`.
    pub fn ne(self, n: impl Into<Number>) -> Condition<M> {
        self.compare(Comparator::Ne, n)
    }

    /// `size(path) < n`.
    pub fn lt(self, n: impl Into<Number>) -> Condition<M> {
        self.compare(Comparator::Lt, n)
    }

    /// `size(path) <= n`.
    pub fn le(self, n: impl Into<Number>) -> Condition<M> {
        self.compare(Comparator::Le, n)
    }

    /// `size(path) > n`.
    pub fn gt(self, n: impl Into<Number>) -> Condition<M> {
        self.compare(Comparator::Gt, n)
    }

    /// `size(path) >= n`.
    pub fn ge(self, n: impl Into<Number>) -> Condition<M> {
        self.compare(Comparator::Ge, n)
    }

    /// `size(path) BETWEEN low AND high`.
    pub fn between(self, low: impl Into<Number>, high: impl Into<Number>) -> Condition<M> {
        let low = Operand::Value(Ok(AttributeValue::N(low.into())));
        let high = Operand::Value(Ok(AttributeValue::N(high.into())));
        Condition::from_node(Node::Between(Operand::Size(self.path), low, high))
    }
}

impl<M> Clone for Size<M> {
    fn clone(&self) -> Self {
        Size::new(self.path.clone())
    }
}

impl<M> fmt::Debug for Size<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Size({:?})", self.path)
    }
}
