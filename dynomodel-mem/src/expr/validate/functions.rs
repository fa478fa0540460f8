//! The condition functions (`attribute_exists`, `attribute_not_exists`, `attribute_type`, `begins_with`,
//! `contains`, `size`): known names, number of operands and operand types.

use dynomodel::AttributeValue;

use super::{Category, Checker};
use crate::expr::ast::{Function, Operand};
use crate::expr::eval;

impl Checker<'_, '_> {
    /// A function's own checks (name, arity, operand types), after its arguments were walked and it
    /// was counted (`condition::function_start`).
    pub(super) fn function(&mut self, f: &Function) {
        let arity = match &*f.name {
            "attribute_exists" | "attribute_not_exists" | "size" => 1,
            "attribute_type" | "begins_with" | "contains" => 2,
            "if_not_exists" | "list_append" => {
                // DynamoDB Local's wording (dynalite, which predates it, calls them unknown functions).
                self.report(
                    Category::MisusedFunction,
                    format!(
                        "The function is not allowed in a condition expression; function: {}",
                        f.name
                    ),
                );
                return;
            }
            _ => {
                self.report(
                    Category::UnknownFunction,
                    format!("Invalid function name; function: {}", f.name),
                );
                return;
            }
        };
        if f.args.len() != arity {
            self.report(Category::OperandCount, format!("Incorrect number of operands for operator or function; operator or function: {}, number of operands: {}", f.name, f.args.len()));
            return;
        }
        let args: Vec<&Operand> = f.args.iter().collect();
        self.distinct(&f.name, &args);
        let type_error = |t: &str| {
            format!("Incorrect operand type for operator or function; operator or function: {}, operand type: {t}", f.name)
        };
        match &*f.name {
            "attribute_exists" | "attribute_not_exists"
                if !f
                    .args
                    .iter()
                    .all(|a| matches!(a.unparen(), Operand::Path(_))) =>
            {
                self.report(
                    Category::Function,
                    format!(
                        "Operator or function requires a document path; operator or function: {}",
                        f.name
                    ),
                );
            }
            "begins_with" => {
                for arg in &f.args {
                    if let Some(t) = self.static_type(arg).filter(|t| !matches!(*t, "S" | "B")) {
                        self.report(Category::Function, type_error(t));
                        break;
                    }
                }
            }
            "size" => {
                if let Some(t) = f
                    .args
                    .first()
                    .and_then(|a| self.static_type(a))
                    .filter(|t| matches!(*t, "N" | "BOOL" | "NULL"))
                {
                    self.report(Category::Function, type_error(t));
                }
            }
            "attribute_type" => match f
                .args
                .get(1)
                .map(|a| (self.static_type(a), self.static_value(a)))
            {
                Some((_, Some(AttributeValue::S(s)))) => {
                    if !eval::TYPE_NAMES.contains(&s.as_str()) {
                        self.report(Category::Function, format!("Invalid attribute type name found; type: {s}, valid types: {{N,BS,L,B,NULL,M,S,SS,NS,BOOL}}"));
                    }
                }
                Some((Some(t), _)) => self.report(Category::Function, type_error(t)),
                _ => self.report(
                    Category::Function,
                    type_error("{NS,SS,L,BS,N,M,B,BOOL,NULL,S}"),
                ),
            },
            _ => {}
        }
    }
}

/// The functions of the condition language.
pub(super) fn is_condition_function(name: &str) -> bool {
    matches!(
        name,
        "attribute_exists"
            | "attribute_not_exists"
            | "attribute_type"
            | "begins_with"
            | "contains"
            | "size"
    )
}
