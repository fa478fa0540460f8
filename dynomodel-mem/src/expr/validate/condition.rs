//! Conditions (ConditionExpression, FilterExpression, KeyConditionExpression): comparisons, `BETWEEN`,
//! `IN`, the logical operators, and the operand rules they share with the functions.

use dynomodel::AttributeValue;

use super::functions::is_condition_function;
use super::{path_string, Category, Checker, MAX_IN_OPERANDS};
use crate::expr::ast::{Comparator, Condition, Function, Operand};
use crate::expr::eval::{self, compare_values};

/// A value as DynamoDB's BETWEEN messages print it (`{S:x}`, `{N:1}`): Java's `toString` of its
/// AttributeValue, so a binary shows as the `ByteBuffer` that holds it (measured on DynamoDB Local).
fn short_value(v: &AttributeValue) -> String {
    match v {
        AttributeValue::S(s) => format!("{{S:{s}}}"),
        AttributeValue::N(n) => format!("{{N:{n}}}"),
        AttributeValue::B(b) => {
            format!(
                "{{B:java.nio.HeapByteBuffer[pos=0 lim={0} cap={0}]}}",
                b.len()
            )
        }
        other => format!("{{{}:{other}}}", other.type_name()),
    }
}

/// One step of the walk over a condition, kept on an explicit stack: a tree 4 KB of text can nest
/// 1,300 calls or 500 `OR (…)` deep, too deep for recursion on a small stack. Checks that look at a
/// node after its operands come back as their own step, so reports come in the order a recursive
/// walk would make them.
enum Walk<'t> {
    /// A condition.
    Condition(&'t Condition),
    /// An operand of a comparison or function.
    Operand(&'t Operand),
    /// A function's own checks, after its arguments.
    Function(&'t Function),
    /// A comparison's checks, after its operands.
    Compare(Comparator, &'t Operand, &'t Operand),
    /// BETWEEN's checks, after its operands.
    Between(&'t Operand, &'t Operand, &'t Operand),
}

impl Checker<'_, '_> {
    pub(super) fn condition(&mut self, root: &Condition) {
        let mut stack = vec![Walk::Condition(root)];
        while let Some(step) = stack.pop() {
            match step {
                Walk::Condition(c) => self.condition_step(c, &mut stack),
                Walk::Operand(op) => self.operand_step(op, &mut stack),
                Walk::Function(f) => self.function(f),
                Walk::Compare(op, a, b) => {
                    self.distinct(op.as_str(), &[a, b]);
                    if !matches!(op, Comparator::Eq | Comparator::Ne) {
                        self.scalar_operands(op.as_str(), &[a, b]);
                    }
                }
                Walk::Between(a, lo, hi) => self.between(a, lo, hi),
            }
        }
    }

    /// A condition's own checks before its parts, which go on `stack` (last pushed, first walked).
    fn condition_step<'t>(&mut self, c: &'t Condition, stack: &mut Vec<Walk<'t>>) {
        match c {
            Condition::Compare(op, a, b) => {
                self.operators += 1;
                stack.extend([Walk::Compare(*op, a, b), Walk::Operand(b), Walk::Operand(a)]);
            }
            Condition::Between(a, lo, hi) => {
                self.operators += 1;
                stack.extend([
                    Walk::Between(a, lo, hi),
                    Walk::Operand(hi),
                    Walk::Operand(lo),
                    Walk::Operand(a),
                ]);
            }
            Condition::In(a, list) => {
                self.operators += 1;
                if self.limited && list.len() > MAX_IN_OPERANDS {
                    self.report(
                        Category::Limits,
                        format!("The IN operator is provided with too many operands; number of operands: {}", list.len()),
                    );
                }
                stack.extend(list.iter().rev().map(Walk::Operand));
                stack.push(Walk::Operand(a));
            }
            Condition::Function(f) => {
                if f.name == "size" {
                    self.report(
                        Category::MisusedFunction,
                        "The function is not allowed to be used this way in an expression; function: size",
                    );
                }
                self.function_start(f, stack);
            }
            Condition::Not(inner) | Condition::Paren(inner) => {
                if matches!(c, Condition::Not(_)) {
                    self.operators += 1;
                }
                stack.push(Walk::Condition(inner));
            }
            Condition::And(a, b) | Condition::Or(a, b) => {
                self.operators += 1;
                stack.extend([Walk::Condition(b), Walk::Condition(a)]);
            }
            // Only built trees hold these, and they are not validated; counted as the chain of
            // ANDs or ORs they stand for.
            Condition::All(parts) | Condition::Any(parts) => {
                self.operators += parts.len().saturating_sub(1);
                stack.extend(parts.iter().rev().map(Walk::Condition));
            }
            // Only built trees hold it: its path is an attribute's name, neither a placeholder nor
            // a reserved word to check, and a function call counts no operator.
            Condition::Exists(..) => {}
        }
    }

    /// An operand of a comparison or function: only `size` may be a function there.
    fn operand_step<'t>(&mut self, op: &'t Operand, stack: &mut Vec<Walk<'t>>) {
        match op.unparen() {
            Operand::Function(f) => {
                if f.name != "size" && is_condition_function(&f.name) {
                    self.report(
                        Category::MisusedFunction,
                        format!("The function is not allowed to be used this way in an expression; function: {}", f.name),
                    );
                }
                self.function_start(f, stack);
            }
            Operand::Path(p) => {
                self.path(p);
            }
            Operand::Value(v) => {
                self.value(v);
            }
            Operand::Literal(_) => {}
            // The condition grammar has no arithmetic; kept total for safety.
            Operand::Plus(a, b) | Operand::Minus(a, b) => {
                stack.extend([Walk::Operand(b), Walk::Operand(a)]);
            }
            Operand::Paren(_) => {}
        }
    }

    /// A function call: counted, its arguments walked, then its own checks.
    fn function_start<'t>(&mut self, f: &'t Function, stack: &mut Vec<Walk<'t>>) {
        self.operators += 1;
        stack.push(Walk::Function(f));
        stack.extend(f.args.iter().rev().map(Walk::Operand));
    }

    /// BETWEEN's checks on its operands.
    fn between(&mut self, a: &Operand, lo: &Operand, hi: &Operand) {
        self.distinct("BETWEEN", &[a, lo, hi]);
        self.scalar_operands("BETWEEN", &[a, lo, hi]);
        if let (Some(x), Some(y)) = (self.static_value(lo), self.static_value(hi)) {
            let bounds = format!(
                "lower bound operand: AttributeValue: {}, upper bound operand: AttributeValue: {}",
                short_value(x),
                short_value(y)
            );
            if x.type_name() != y.type_name() {
                self.report(Category::Function, format!("The BETWEEN operator requires same data type for lower and upper bounds; {bounds}"));
            } else if compare_values(x, y) == Some(std::cmp::Ordering::Greater) {
                self.report(Category::Function, format!("The BETWEEN operator requires upper bound to be greater than or equal to lower bound; {bounds}"));
            }
        }
    }

    pub(super) fn distinct(&mut self, operator: &str, operands: &[&Operand]) {
        let Some((first, rest)) = operands.split_first() else {
            return;
        };
        let Operand::Path(p) = first.unparen() else {
            return;
        };
        let Some(first_steps) = eval::resolve(p, &self.placeholders) else {
            return;
        };
        for other in rest {
            if let Operand::Path(q) = other.unparen()
                && eval::resolve(q, &self.placeholders).as_ref() == Some(&first_steps)
            {
                self.report(
                        Category::Distinct,
                        format!("The first operand must be distinct from the remaining operands for this operator or function; operator: {operator}, first operand: {}", path_string(&first_steps)),
                    );
                return;
            }
        }
    }

    /// `<`, `<=`, `>`, `>=` and BETWEEN compare only strings, numbers and binaries.
    fn scalar_operands(&mut self, operator: &str, operands: &[&Operand]) {
        for op in operands {
            if let Some(t) = self.static_type(op)
                && !matches!(t, "S" | "N" | "B")
            {
                self.report(Category::Function, format!("Incorrect operand type for operator or function; operator or function: {operator}, operand type: {t}"));
                return;
            }
        }
    }
}
