//! The syntax tree of DynamoDB expressions.
//!
//! Placeholders stay unresolved (`#n`, `:v`) so that a tree can be cached by expression text and shared by
//! requests with different `ExpressionAttributeNames`/`Values`; they are resolved at validation and
//! evaluation. Every node prints back as the expression it came from (canonical spacing, keywords upper
//! case), so `parse(s).to_string() == s` for canonical `s`.

use std::borrow::Cow;
use std::fmt;

use dynomodel::AttributeValue;
use smallvec::SmallVec;

/// One attribute name in a document path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Name {
    /// A name written in the expression, e.g. `city`.
    Plain(String),
    /// An `ExpressionAttributeNames` placeholder, e.g. `#c` (kept with its `#`).
    Placeholder(String),
    /// An attribute name given outside any expression text (a legacy parameter's, e.g. an
    /// `Expected` key): taken as it is, never a reserved word or a placeholder.
    Attribute(String),
}

/// One step of a document path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum PathElement {
    /// `.name` (or the first element).
    Name(Name),
    /// `[digits]`, kept as written: DynamoDB quotes the digits in its range error.
    Index(String),
}

/// A document path: `a.b[2].#c`. The first element is always a [`PathElement::Name`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Path {
    /// The steps, outermost first; a path of one step (most, and every legacy parameter's) holds it
    /// inline, without an allocation of its own.
    pub(crate) elements: PathElements,
}

/// The steps of a [`Path`]: the first inline.
pub(crate) type PathElements = SmallVec<[PathElement; 1]>;

/// Largest list index DynamoDB accepts in a path (a Java `int`).
pub(crate) const MAX_LIST_INDEX: u64 = i32::MAX as u64;

impl PathElement {
    /// The index value, if this is an index within DynamoDB's range.
    pub(crate) fn index(&self) -> Option<usize> {
        match self {
            PathElement::Index(digits) => digits
                .parse::<u64>()
                .ok()
                .filter(|&i| i <= MAX_LIST_INDEX)
                .and_then(|i| usize::try_from(i).ok()),
            PathElement::Name(_) => None,
        }
    }
}

/// A function call, e.g. `begins_with(a, :p)`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Function {
    /// The name as written (function names are case-sensitive); borrowed in the trees the engine
    /// builds (a legacy parameter's), which name a function per entry.
    pub(crate) name: Cow<'static, str>,
    /// The arguments.
    pub(crate) args: Vec<Operand>,
}

/// A value-producing operand.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Operand {
    /// An attribute of the item.
    Path(Path),
    /// An `ExpressionAttributeValues` placeholder, e.g. `:v` (kept with its `:`).
    Value(String),
    /// A value given outside any expression text (a legacy parameter's operand). Held inline: an
    /// `AttributeValue` (32 bytes) is smaller than a function call, the largest operand, so this
    /// costs no operand any size, and each legacy value no allocation of its own.
    Literal(AttributeValue),
    /// A function call: `size(a)`, or in updates `if_not_exists(a, :v)` and `list_append(a, :l)`.
    Function(Function),
    /// `a + b` (updates only).
    Plus(Box<Operand>, Box<Operand>),
    /// `a - b` (updates only).
    Minus(Box<Operand>, Box<Operand>),
    /// `( operand )`, kept so that the tree prints back as written.
    Paren(Box<Operand>),
}

/// A node of [`Condition::paths`]' walk.
enum PathsOf<'e> {
    Condition(&'e Condition),
    Operand(&'e Operand),
}

impl Operand {
    /// Appends every path the operand reads to `out`, in source order. On an explicit stack: a SET
    /// value nests up to 300 calls, each possibly in parentheses.
    pub(crate) fn paths<'e>(&'e self, out: &mut Vec<&'e Path>) {
        walk_paths(PathsOf::Operand(self), out);
    }

    /// The operand without its parentheses.
    pub(crate) fn unparen(&self) -> &Operand {
        let mut op = self;
        while let Operand::Paren(inner) = op {
            op = inner;
        }
        op
    }
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Comparator {
    /// `=`
    Eq,
    /// `<>`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

impl Comparator {
    /// The operator as written.
    pub(crate) fn as_str(self) -> &'static str {
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

/// A condition (ConditionExpression, FilterExpression, KeyConditionExpression).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Condition {
    /// `a <op> b`
    Compare(Comparator, Operand, Operand),
    /// `a BETWEEN low AND high`
    Between(Operand, Operand, Operand),
    /// `a IN (b, c, …)`
    In(Operand, Vec<Operand>),
    /// A function used as a condition: `attribute_exists(a)`, `begins_with(a, :p)`, …
    Function(Function),
    /// `NOT c`
    Not(Box<Condition>),
    /// `a AND b`
    And(Box<Condition>, Box<Condition>),
    /// `a OR b`
    Or(Box<Condition>, Box<Condition>),
    /// `( c )`, kept so that the tree prints back as written.
    Paren(Box<Condition>),
    /// `a AND b AND …`, as one node: the engine's join of a legacy parameter's conditions (never
    /// parsed), which can hold hundreds of thousands of them. Nested `And`s cost two boxes per
    /// condition and a tree to balance so that the recursive evaluator stays shallow.
    All(Vec<Condition>),
    /// `a OR b OR …`, as one node (see [`Condition::All`]).
    Any(Vec<Condition>),
    /// `attribute_exists(path)` (`true`) or `attribute_not_exists(path)` (`false`), as one node: the
    /// engine's tree of a legacy condition on one attribute's presence (`Exists: false`, `NULL`,
    /// `NOT_NULL`; never parsed), without a function's name to match and its arguments' vector (an
    /// allocation per entry of a long `Expected`). It prints as that call.
    Exists(bool, Path),
}

impl Condition {
    /// Appends every path the condition reads to `out`, in source order (on an explicit stack, as
    /// [`Operand::paths`]).
    pub(crate) fn paths<'e>(&'e self, out: &mut Vec<&'e Path>) {
        walk_paths(PathsOf::Condition(self), out);
    }
}

/// The path of a leaf operand (`Some(None)` for a value or a literal), `None` for any other.
fn leaf(op: &Operand) -> Option<Option<&Path>> {
    match op {
        Operand::Path(path) => Some(Some(path)),
        Operand::Value(_) | Operand::Literal(_) => Some(None),
        Operand::Function(_) | Operand::Plus(..) | Operand::Minus(..) | Operand::Paren(_) => None,
    }
}

/// A function's arguments: when they are all leaves (the rule: `attribute_exists(a)`,
/// `begins_with(a, :p)`, every legacy condition's), their paths go straight to `out`, which is where
/// the stack would put them next; otherwise they go on the stack, last first.
fn leaves_or_pending<'e>(
    args: &'e [Operand],
    out: &mut Vec<&'e Path>,
    pending: &mut Vec<PathsOf<'e>>,
) {
    if args.iter().all(|a| leaf(a).is_some()) {
        out.extend(args.iter().filter_map(|a| leaf(a).flatten()));
    } else {
        pending.extend(args.iter().rev().map(PathsOf::Operand));
    }
}

/// The paths under `root`, in source order: parts are pushed last first (leaves taken at once).
fn walk_paths<'e>(root: PathsOf<'e>, out: &mut Vec<&'e Path>) {
    let mut pending = vec![root];
    while let Some(node) = pending.pop() {
        match node {
            PathsOf::Operand(op) => match op {
                Operand::Path(path) => out.push(path),
                Operand::Value(_) | Operand::Literal(_) => {}
                Operand::Function(f) => leaves_or_pending(&f.args, out, &mut pending),
                Operand::Plus(a, b) | Operand::Minus(a, b) => {
                    pending.extend([PathsOf::Operand(b), PathsOf::Operand(a)]);
                }
                Operand::Paren(inner) => pending.push(PathsOf::Operand(inner)),
            },
            PathsOf::Condition(c) => match c {
                Condition::Compare(_, a, b) => match (leaf(a), leaf(b)) {
                    (Some(a), Some(b)) => out.extend(a.into_iter().chain(b)),
                    _ => pending.extend([PathsOf::Operand(b), PathsOf::Operand(a)]),
                },
                Condition::Between(a, lo, hi) => pending.extend([
                    PathsOf::Operand(hi),
                    PathsOf::Operand(lo),
                    PathsOf::Operand(a),
                ]),
                Condition::In(a, list) => {
                    pending.extend(list.iter().rev().map(PathsOf::Operand));
                    pending.push(PathsOf::Operand(a));
                }
                Condition::Function(f) => leaves_or_pending(&f.args, out, &mut pending),
                Condition::Not(inner) | Condition::Paren(inner) => {
                    pending.push(PathsOf::Condition(inner));
                }
                Condition::And(a, b) | Condition::Or(a, b) => {
                    pending.extend([PathsOf::Condition(b), PathsOf::Condition(a)]);
                }
                Condition::All(parts) | Condition::Any(parts) => {
                    pending.extend(parts.iter().rev().map(PathsOf::Condition));
                }
                Condition::Exists(_, path) => out.push(path),
            },
        }
    }
}

/// One `SET` action: `path = value`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SetAction {
    /// The attribute to write.
    pub(crate) path: Path,
    /// The new value.
    pub(crate) value: Operand,
}

/// One `ADD` or `DELETE` action: `path :value`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ValueAction {
    /// The attribute to change.
    pub(crate) path: Path,
    /// The value: a placeholder ([`Operand::Value`]) in an expression, a [`Operand::Literal`] in a
    /// legacy translation.
    pub(crate) value: Operand,
}

/// One clause of an update expression, in source order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Clause {
    /// `SET a = b, …`
    Set(Vec<SetAction>),
    /// `REMOVE a, …`
    Remove(Vec<Path>),
    /// `ADD a :v, …`
    Add(Vec<ValueAction>),
    /// `DELETE a :v, …`
    Delete(Vec<ValueAction>),
}

impl Clause {
    /// The clause keyword.
    pub(crate) fn keyword(&self) -> &'static str {
        match self {
            Clause::Set(_) => "SET",
            Clause::Remove(_) => "REMOVE",
            Clause::Add(_) => "ADD",
            Clause::Delete(_) => "DELETE",
        }
    }
}

/// An UpdateExpression: clauses in source order (a repeated keyword is rejected by validation, with
/// DynamoDB's message, rather than by the grammar).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct UpdateExpression {
    /// The clauses.
    pub(crate) clauses: Vec<Clause>,
}

/// A ProjectionExpression: the paths to return.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Projection {
    /// The paths, in source order.
    pub(crate) paths: Vec<Path>,
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Name::Plain(s) | Name::Placeholder(s) | Name::Attribute(s) => f.write_str(s),
        }
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.elements.iter().enumerate() {
            match e {
                PathElement::Name(n) if i == 0 => write!(f, "{n}")?,
                PathElement::Name(n) => write!(f, ".{n}")?,
                PathElement::Index(d) => write!(f, "[{d}]")?,
            }
        }
        Ok(())
    }
}

fn write_list<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    write_joined(f, items, ", ")
}

fn write_joined<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T], by: &str) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(by)?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

/// The function [`Condition::Exists`] stands for.
pub(crate) fn exists_function(exists: bool) -> &'static str {
    if exists {
        "attribute_exists"
    } else {
        "attribute_not_exists"
    }
}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", self.name)?;
        write_list(f, &self.args)?;
        f.write_str(")")
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Path(p) => write!(f, "{p}"),
            Operand::Value(v) => f.write_str(v),
            // Only engine-built trees hold literals, and nothing prints those back as text.
            Operand::Literal(v) => write!(f, "{v:?}"),
            Operand::Function(func) => write!(f, "{func}"),
            Operand::Plus(a, b) => write!(f, "{a} + {b}"),
            Operand::Minus(a, b) => write!(f, "{a} - {b}"),
            Operand::Paren(inner) => write!(f, "({inner})"),
        }
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Condition::Compare(op, a, b) => write!(f, "{a} {} {b}", op.as_str()),
            Condition::Between(a, lo, hi) => write!(f, "{a} BETWEEN {lo} AND {hi}"),
            Condition::In(a, list) => {
                write!(f, "{a} IN (")?;
                write_list(f, list)?;
                f.write_str(")")
            }
            Condition::Function(func) => write!(f, "{func}"),
            Condition::Not(c) => write!(f, "NOT {c}"),
            Condition::And(a, b) => write!(f, "{a} AND {b}"),
            Condition::Or(a, b) => write!(f, "{a} OR {b}"),
            Condition::Paren(c) => write!(f, "({c})"),
            Condition::All(parts) => write_joined(f, parts, " AND "),
            Condition::Any(parts) => write_joined(f, parts, " OR "),
            Condition::Exists(exists, path) => write!(f, "{}({path})", exists_function(*exists)),
        }
    }
}

impl fmt::Display for SetAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {}", self.path, self.value)
    }
}

impl fmt::Display for ValueAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.path, self.value)
    }
}

impl fmt::Display for Clause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.keyword())?;
        match self {
            Clause::Set(a) => write_list(f, a),
            Clause::Remove(a) => write_list(f, a),
            Clause::Add(a) | Clause::Delete(a) => write_list(f, a),
        }
    }
}

impl fmt::Display for UpdateExpression {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.clauses.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Projection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_list(f, &self.paths)
    }
}
