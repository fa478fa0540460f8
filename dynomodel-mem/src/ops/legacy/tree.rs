//! The pieces of the trees a legacy parameter stands for: its attribute names are
//! [`Name::Attribute`]s and its values [`Operand::Literal`]s, so the tree needs neither text nor
//! placeholders.

use std::borrow::Cow;

use dynomodel::AttributeValue;

use crate::expr::ast::{Condition, Function, Name, Operand, Path, PathElement};

/// The top-level attribute `name` as a path (a legacy name is one attribute, dots and brackets
/// included). The name moves in: the hooks that own their request's names give them up rather than
/// copy them (a copy and a free per entry of a long `Expected` or `AttributeUpdates`).
pub(super) fn path(name: String) -> Path {
    Path {
        elements: smallvec::smallvec![PathElement::Name(Name::Attribute(name))],
    }
}

/// The top-level attribute `name` as an operand.
pub(super) fn attribute(name: String) -> Operand {
    Operand::Path(path(name))
}

/// A request's value as an operand.
pub(super) fn literal(value: AttributeValue) -> Operand {
    Operand::Literal(value)
}

/// The function `name` applied to `args`, as a condition.
pub(super) fn call(name: &'static str, args: Vec<Operand>) -> Condition {
    Condition::Function(function(name, args))
}

/// The function `name` applied to `args`.
pub(super) fn function(name: &'static str, args: Vec<Operand>) -> Function {
    Function {
        name: Cow::Borrowed(name),
        args,
    }
}
