//! Operands resolved against the request's placeholders: paths (reporting reserved words, undefined
//! names and out-of-range list indexes), values (reporting undefined ones), and the types known before
//! evaluation, which the type checks of operators and functions rely on.

use dynomodel::{attribute_size, AttributeValue};

use super::{Category, Checker, MAX_PATH_DEPTH};
use crate::expr::ast::{Name, Operand, Path, PathElement};
use crate::expr::eval::{self, Step, Steps};
use crate::expr::reserved::is_reserved;
use crate::expr::substitution::MAX_SUBSTITUTED_BYTES;

impl Checker<'_, '_> {
    /// Resolves a path, reporting reserved words, undefined names and out-of-range indexes.
    pub(super) fn path(&mut self, path: &Path) -> Option<Steps> {
        if path.elements.len() > MAX_PATH_DEPTH {
            // Every expression kind, in its own prefix (issue 26 fact 20; DynamoDB Local 3.3.1 and
            // ScyllaDB's test_projection_expression.py agree): 32 levels are fine.
            self.report(
                Category::PathDepth,
                format!(
                    "The document path has too many nesting levels; nesting levels: {}",
                    path.elements.len()
                ),
            );
        }
        let mut steps = Steps::with_capacity(path.elements.len());
        let mut ok = true;
        for element in &path.elements {
            match element {
                PathElement::Name(Name::Plain(n)) => {
                    if is_reserved(n) {
                        self.report(
                            Category::Reserved,
                            format!("Attribute name is a reserved keyword; reserved keyword: {n}"),
                        );
                    }
                    steps.push(Step::Key(n.clone()));
                }
                PathElement::Name(Name::Attribute(n)) => steps.push(Step::Key(n.clone())),
                PathElement::Name(Name::Placeholder(p)) => {
                    self.usage.names.insert(p.clone());
                    match self.placeholders.names.get(p) {
                        Some(n) => {
                            self.substituted = self.substituted.saturating_add(n.len());
                            steps.push(Step::Key(n.clone()));
                        }
                        None => {
                            self.report(Category::Placeholder, format!("An expression attribute name used in the document path is not defined; attribute name: {p}"));
                            ok = false;
                        }
                    }
                }
                PathElement::Index(digits) => match element.index() {
                    Some(i) => steps.push(Step::Index(i)),
                    None => {
                        self.report(
                            Category::Limits,
                            format!(
                                "List index is not within the allowable range; index: [{digits}]"
                            ),
                        );
                        ok = false;
                    }
                },
            }
        }
        ok.then_some(steps)
    }

    // Inlined as it was before it measured the value: out of line, +0.6 % instructions on a
    // conditional update (datapath_cpu).
    #[inline(always)]
    pub(super) fn value(&mut self, name: &str) -> Option<&AttributeValue> {
        self.usage.values.insert(name.to_owned());
        let value = self.placeholders.values.get(name);
        if let Some(v) = value {
            // Not measured once past the cap: a large value used at each of an expression's
            // hundreds of places would be walked at each (the text's length times the value's).
            if self.substituted <= MAX_SUBSTITUTED_BYTES {
                let size = match v {
                    AttributeValue::S(s) => s.len(),
                    AttributeValue::Bool(_) | AttributeValue::Null => 1,
                    _ => attribute_size(v),
                };
                self.substituted = self.substituted.saturating_add(size);
            }
        } else {
            self.report(
                Category::Placeholder,
                format!("An expression attribute value used in expression is not defined; attribute value: {name}"),
            );
        }
        value
    }

    /// The value of an ADD or DELETE action: a placeholder's (recorded as used) or a literal.
    pub(super) fn value_operand<'s>(&'s mut self, op: &'s Operand) -> Option<&'s AttributeValue> {
        match op {
            Operand::Value(v) => self.value(v),
            Operand::Literal(v) => Some(v),
            _ => None,
        }
    }

    /// The type of an operand known before evaluation (values, and `size` which is a number).
    pub(super) fn static_type(&self, op: &Operand) -> Option<&'static str> {
        match op.unparen() {
            Operand::Value(_) | Operand::Literal(_) => {
                eval::value(op.unparen(), &self.placeholders).map(|v| v.type_name())
            }
            Operand::Function(f) if f.name == "size" => Some("N"),
            _ => None,
        }
    }

    pub(super) fn static_value<'s>(&'s self, op: &'s Operand) -> Option<&'s AttributeValue> {
        eval::value(op.unparen(), &self.placeholders)
    }
}
