//! Evaluating conditions against an item.
//!
//! DynamoDB's semantics: a comparison between different types, or with a missing attribute, is false
//! (`<>` is then true), never an error; `<`, `<=`, `>`, `>=` and BETWEEN order only S, N and B (S and B by
//! unsigned bytes, N numerically); `=`/`<>` compare any types, sets order-insensitively. Functions on the
//! wrong type are false. Evaluation assumes the expression passed validation; a placeholder that is
//! nevertheless missing evaluates as a missing attribute.

use std::borrow::Cow;
use std::cmp::Ordering;

use dynomodel::{AttributeValue, Item, Number};
use smallvec::SmallVec;

use super::ast::{Comparator, Condition, Function, Name, Operand, Path, PathElement};
use super::Placeholders;

/// The ten type names `attribute_type` accepts.
pub(crate) const TYPE_NAMES: [&str; 10] =
    ["S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL", "L", "M"];

/// One resolved step of a document path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Step {
    /// A map key (or top-level attribute name).
    Key(String),
    /// A list index.
    Index(usize),
}

/// A path's resolved steps: the first inline, as in [`Path`] (most paths, and every legacy
/// parameter's, are one name).
pub(crate) type Steps = SmallVec<[Step; 1]>;

/// Resolves `#name` placeholders and indexes; `None` if a placeholder is undefined or an index is out of
/// DynamoDB's range (validation reports both).
pub(crate) fn resolve(path: &Path, placeholders: &Placeholders<'_>) -> Option<Steps> {
    // Sized at once: collecting an iterator of options started every path at four steps.
    let mut steps = Steps::with_capacity(path.elements.len());
    for e in &path.elements {
        steps.push(match e {
            PathElement::Name(_) => Step::Key(element_name(e, placeholders)?.to_owned()),
            PathElement::Index(_) => Step::Index(e.index()?),
        });
    }
    Some(steps)
}

/// [`resolve`] of a path the caller owns: its names move into the steps rather than being copied
/// (a placeholder's name is still copied from the map).
pub(crate) fn resolve_owned(mut path: Path, placeholders: &Placeholders<'_>) -> Option<Steps> {
    // One name (every legacy parameter's path): its string moves into the one inline step, without
    // the element iterator's moves and checks.
    if let [PathElement::Name(Name::Plain(n) | Name::Attribute(n))] = path.elements.as_mut_slice() {
        return Some(SmallVec::from_buf([Step::Key(std::mem::take(n))]));
    }
    let mut steps = Steps::with_capacity(path.elements.len());
    for e in path.elements {
        steps.push(match e {
            PathElement::Name(Name::Plain(n) | Name::Attribute(n)) => Step::Key(n),
            PathElement::Name(Name::Placeholder(p)) => {
                Step::Key(placeholders.names.get(&p)?.clone())
            }
            PathElement::Index(_) => Step::Index(e.index()?),
        });
    }
    Some(steps)
}

/// The top-level attribute name of a path, its placeholder resolved (`None` if undefined).
pub(crate) fn top_name<'p>(path: &'p Path, placeholders: &Placeholders<'p>) -> Option<&'p str> {
    match path.elements.first()? {
        PathElement::Name(Name::Plain(n) | Name::Attribute(n)) => Some(n),
        PathElement::Name(Name::Placeholder(h)) => placeholders.names.get(h).map(String::as_str),
        PathElement::Index(_) => None,
    }
}

/// The value an operand names directly: a placeholder's (`None` when undefined) or a literal; `None`
/// for any other operand.
pub(crate) fn value<'a>(
    op: &'a Operand,
    placeholders: &Placeholders<'a>,
) -> Option<&'a AttributeValue> {
    match op {
        Operand::Value(v) => placeholders.values.get(v),
        Operand::Literal(v) => Some(v),
        _ => None,
    }
}

/// The value at `steps` in `item`, if present.
pub(crate) fn lookup<'i>(item: &'i Item, steps: &[Step]) -> Option<&'i AttributeValue> {
    let (first, rest) = steps.split_first()?;
    let Step::Key(name) = first else {
        return None;
    };
    let mut value = item.get(name)?;
    for step in rest {
        value = match (step, value) {
            (Step::Key(k), AttributeValue::M(m)) => m.get(k)?,
            (Step::Index(i), AttributeValue::L(l)) => l.get(*i)?,
            _ => return None,
        };
    }
    Some(value)
}

/// The value `path` names in `item`, its placeholders resolved, if present: [`resolve`] and
/// [`lookup`] in one walk, without building the steps (a vector and a copy of each name per path
/// evaluated, which a condition of 100,000 `Expected` entries paid per entry).
pub(crate) fn lookup_path<'i>(
    item: &'i Item,
    path: &Path,
    placeholders: &Placeholders<'_>,
) -> Option<&'i AttributeValue> {
    let mut elements = path.elements.iter();
    let mut value = item.get(element_name(elements.next()?, placeholders)?)?;
    for element in elements {
        value = match (element, value) {
            (PathElement::Name(_), AttributeValue::M(m)) => {
                m.get(element_name(element, placeholders)?)?
            }
            (PathElement::Index(_), AttributeValue::L(l)) => l.get(element.index()?)?,
            _ => return None,
        };
    }
    Some(value)
}

/// A name element's attribute name, its placeholder resolved (`None` for an index or an undefined
/// placeholder).
fn element_name<'a>(element: &'a PathElement, placeholders: &Placeholders<'a>) -> Option<&'a str> {
    match element {
        PathElement::Name(Name::Plain(n) | Name::Attribute(n)) => Some(n),
        PathElement::Name(Name::Placeholder(p)) => placeholders.names.get(p).map(String::as_str),
        PathElement::Index(_) => None,
    }
}

/// Orders two values of the same scalar type (S, N, B); `None` for other types or mixed types.
pub(crate) fn compare_values(a: &AttributeValue, b: &AttributeValue) -> Option<Ordering> {
    match (a, b) {
        (AttributeValue::S(x), AttributeValue::S(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
        (AttributeValue::N(x), AttributeValue::N(y)) => Some(x.cmp(y)),
        (AttributeValue::B(x), AttributeValue::B(y)) => Some(x.cmp(y)),
        _ => None,
    }
}

/// DynamoDB's `size`: string length (UTF-16 code units, as DynamoDB's Java implementation counts — one
/// per character for text in the Basic Multilingual Plane; DynamoDB Local gives 5 for "héllo", not the
/// 6 UTF-8 bytes), binary bytes, and element counts of sets, lists and maps.
pub(crate) fn size_of(value: &AttributeValue) -> Option<usize> {
    Some(match value {
        AttributeValue::S(s) => s.encode_utf16().count(),
        AttributeValue::B(b) => b.len(),
        AttributeValue::Ss(v) => v.len(),
        AttributeValue::Ns(v) => v.len(),
        AttributeValue::Bs(v) => v.len(),
        AttributeValue::L(v) => v.len(),
        AttributeValue::M(v) => v.len(),
        AttributeValue::N(_) | AttributeValue::Bool(_) | AttributeValue::Null => return None,
    })
}

/// Evaluates an operand; `None` when it refers to a missing attribute.
pub(crate) fn operand<'i>(
    op: &'i Operand,
    item: &'i Item,
    placeholders: &Placeholders<'i>,
) -> Option<Cow<'i, AttributeValue>> {
    match op {
        Operand::Path(p) => lookup_path(item, p, placeholders).map(Cow::Borrowed),
        Operand::Value(_) | Operand::Literal(_) => value(op, placeholders).map(Cow::Borrowed),
        Operand::Paren(inner) => operand(inner, item, placeholders),
        Operand::Function(f) if f.name == "size" => {
            let v = operand(f.args.first()?, item, placeholders)?;
            let n = size_of(&v)?;
            let n = Number::try_from(n as u128).ok()?;
            Some(Cow::Owned(AttributeValue::N(n)))
        }
        // Update-only operands never reach a condition (validation rejects them).
        Operand::Function(_) | Operand::Plus(..) | Operand::Minus(..) => None,
    }
}

fn compare(op: Comparator, a: Option<&AttributeValue>, b: Option<&AttributeValue>) -> bool {
    let (Some(a), Some(b)) = (a, b) else {
        return op == Comparator::Ne;
    };
    match op {
        Comparator::Eq => a == b,
        Comparator::Ne => a != b,
        _ => match compare_values(a, b) {
            Some(ord) => match op {
                Comparator::Lt => ord == Ordering::Less,
                Comparator::Le => ord != Ordering::Greater,
                Comparator::Gt => ord == Ordering::Greater,
                _ => ord != Ordering::Less,
            },
            None => false,
        },
    }
}

fn contains(haystack: &AttributeValue, needle: &AttributeValue) -> bool {
    match (haystack, needle) {
        (AttributeValue::S(h), AttributeValue::S(n)) => h.contains(n.as_str()),
        // A linear search (as `str::contains` is for strings): comparing the needle at every offset
        // costs the product of the lengths, seconds for a 400 KB binary of zeros.
        (AttributeValue::B(h), AttributeValue::B(n)) => memchr::memmem::find(h, n).is_some(),
        (AttributeValue::Ss(h), AttributeValue::S(n)) => h.contains(n),
        (AttributeValue::Ns(h), AttributeValue::N(n)) => h.contains(n),
        (AttributeValue::Bs(h), AttributeValue::B(n)) => h.contains(n),
        (AttributeValue::L(h), n) => h.contains(n),
        _ => false,
    }
}

fn function<'i>(f: &'i Function, item: &'i Item, placeholders: &Placeholders<'i>) -> bool {
    let arg = |i: usize| f.args.get(i).and_then(|a| operand(a, item, placeholders));
    match &*f.name {
        "attribute_exists" => arg(0).is_some(),
        "attribute_not_exists" => arg(0).is_none(),
        "attribute_type" => match (arg(0), arg(1)) {
            (Some(v), Some(t)) => t.as_s() == Some(v.type_name()),
            _ => false,
        },
        "begins_with" => match (arg(0), arg(1)) {
            (Some(v), Some(p)) => match (&*v, &*p) {
                (AttributeValue::S(s), AttributeValue::S(p)) => s.starts_with(p.as_str()),
                (AttributeValue::B(b), AttributeValue::B(p)) => b.starts_with(p),
                _ => false,
            },
            _ => false,
        },
        "contains" => match (arg(0), arg(1)) {
            (Some(h), Some(n)) => contains(&h, &n),
            _ => false,
        },
        _ => false,
    }
}

/// Whether every one of `parts` holds: a legacy join, flat (each part is one entry's shallow
/// tree). Out of [`evaluate`], whose frame a deep parsed tree repeats hundreds of times.
#[inline(never)]
fn all_hold<'i>(parts: &'i [Condition], item: &'i Item, placeholders: &Placeholders<'i>) -> bool {
    parts.iter().all(|c| part_holds(c, item, placeholders))
}

/// Whether any of `parts` holds (see [`all_hold`]).
#[inline(never)]
fn any_holds<'i>(parts: &'i [Condition], item: &'i Item, placeholders: &Placeholders<'i>) -> bool {
    parts.iter().any(|c| part_holds(c, item, placeholders))
}

/// [`evaluate`] of a legacy join's part: a presence test (`Exists`, `NULL`, `NOT_NULL`, the usual
/// entry of a long `Expected` or filter) in place, without going through `evaluate` and `leaf`.
#[inline(always)]
fn part_holds<'i>(part: &'i Condition, item: &'i Item, placeholders: &Placeholders<'i>) -> bool {
    match part {
        Condition::Exists(exists, path) => {
            lookup_path(item, path, placeholders).is_some() == *exists
        }
        other => evaluate(other, item, placeholders),
    }
}

/// Whether `condition` holds for `item` (an absent item is an empty one).
pub(crate) fn evaluate<'i>(
    condition: &'i Condition,
    item: &'i Item,
    placeholders: &Placeholders<'i>,
) -> bool {
    // Recursive, on the hot path without an allocation: only validated trees get here, and validation
    // bounds them to 300 operators (299 `NOT`s, each in parentheses, are the deepest);
    // `tests::deepest_expressions_fit_a_small_stack` measures that on a small stack. The leaves'
    // operands are read in `leaf`, so that their locals are not part of every level's frame (in a
    // debug build the deepest requests needed ~500 KB of stack with them in it, ~110 KB without).
    match condition {
        Condition::Not(c) => !evaluate(c, item, placeholders),
        Condition::And(a, b) => evaluate(a, item, placeholders) && evaluate(b, item, placeholders),
        Condition::Or(a, b) => evaluate(a, item, placeholders) || evaluate(b, item, placeholders),
        Condition::Paren(c) => evaluate(c, item, placeholders),
        Condition::All(parts) => all_hold(parts, item, placeholders),
        Condition::Any(parts) => any_holds(parts, item, placeholders),
        Condition::Compare(..)
        | Condition::Between(..)
        | Condition::In(..)
        | Condition::Function(_)
        | Condition::Exists(..) => leaf(condition, item, placeholders),
    }
}

/// [`evaluate`] of a comparison, `BETWEEN`, `IN` or a function: a condition on operands, not on
/// other conditions.
fn leaf<'i>(condition: &'i Condition, item: &'i Item, placeholders: &Placeholders<'i>) -> bool {
    match condition {
        Condition::Compare(op, a, b) => {
            let a = operand(a, item, placeholders);
            let b = operand(b, item, placeholders);
            compare(*op, a.as_deref(), b.as_deref())
        }
        Condition::Between(a, lo, hi) => {
            match (
                operand(a, item, placeholders),
                operand(lo, item, placeholders),
                operand(hi, item, placeholders),
            ) {
                (Some(v), Some(lo), Some(hi)) => {
                    compare_values(&v, &lo).is_some_and(|o| o != Ordering::Less)
                        && compare_values(&v, &hi).is_some_and(|o| o != Ordering::Greater)
                }
                _ => false,
            }
        }
        Condition::In(a, list) => match operand(a, item, placeholders) {
            Some(v) => list
                .iter()
                .any(|o| operand(o, item, placeholders).is_some_and(|w| *w == *v)),
            None => false,
        },
        Condition::Function(f) => function(f, item, placeholders),
        Condition::Exists(exists, path) => {
            lookup_path(item, path, placeholders).is_some() == *exists
        }
        other => evaluate(other, item, placeholders),
    }
}
