//! Update expressions: each clause used once, the operands of SET (arithmetic, `if_not_exists`,
//! `list_append`), and the value types ADD and DELETE accept. The paths they write are checked in
//! `targets`.

use super::functions::is_condition_function;
use super::{Category, Checker};
use crate::expr::ast::{Clause, Operand, UpdateExpression};

/// DynamoDB's long type names in ADD/DELETE messages.
fn long_type_name(t: &str) -> &'static str {
    match t {
        "S" => "STRING",
        "N" => "NUMBER",
        "B" => "BINARY",
        "BOOL" => "BOOLEAN",
        "NULL" => "NULL",
        "L" => "LIST",
        "M" => "MAP",
        "SS" => "STRING_SET",
        "NS" => "NUMBER_SET",
        _ => "BINARY_SET",
    }
}

impl Checker<'_, '_> {
    fn update_operand(&mut self, op: &Operand) {
        match op {
            Operand::Path(p) => {
                self.path(p);
            }
            Operand::Value(v) => {
                self.value(v);
            }
            Operand::Paren(inner) => self.update_operand(inner),
            Operand::Plus(a, b) | Operand::Minus(a, b) => {
                self.operators += 1;
                self.update_operand(a);
                self.update_operand(b);
                let name = if matches!(op, Operand::Plus(..)) {
                    "+"
                } else {
                    "-"
                };
                for arg in [a, b] {
                    if let Some(t) = self.static_type(arg).filter(|t| *t != "N") {
                        self.report(Category::Function, format!("Incorrect operand type for operator or function; operator or function: {name}, operand type: {t}"));
                        break;
                    }
                }
            }
            Operand::Function(f) => {
                self.operators += 1;
                for arg in &f.args {
                    self.update_operand(arg);
                }
                match f.name.as_str() {
                    "if_not_exists" | "list_append" => {}
                    name if is_condition_function(name) => {
                        self.report(Category::UnknownFunction, format!("The function is not allowed in an update expression; function: {name}"));
                        return;
                    }
                    name => {
                        self.report(
                            Category::UnknownFunction,
                            format!("Invalid function name; function: {name}"),
                        );
                        return;
                    }
                }
                if f.args.len() != 2 {
                    self.report(Category::Function, format!("Incorrect number of operands for operator or function; operator or function: {}, number of operands: {}", f.name, f.args.len()));
                    return;
                }
                if f.name == "if_not_exists" {
                    if !matches!(f.args.first().map(Operand::unparen), Some(Operand::Path(_))) {
                        self.report(Category::Function, "Operator or function requires a document path; operator or function: if_not_exists");
                    }
                } else {
                    for arg in &f.args {
                        if let Some(t) = self.static_type(arg).filter(|t| *t != "L") {
                            self.report(Category::Function, format!("Incorrect operand type for operator or function; operator or function: list_append, operand type: {t}"));
                            break;
                        }
                    }
                }
            }
        }
    }

    pub(super) fn update(&mut self, u: &UpdateExpression) {
        let mut seen: Vec<&str> = Vec::new();
        for clause in &u.clauses {
            let keyword = clause.keyword();
            if seen.contains(&keyword) {
                self.report(
                    Category::Section,
                    format!(
                        "The \"{keyword}\" section can only be used once in an update expression;"
                    ),
                );
            }
            seen.push(keyword);
            match clause {
                Clause::Set(actions) => {
                    for a in actions {
                        self.target_path(&a.path);
                        self.update_operand(&a.value);
                    }
                }
                Clause::Remove(paths) => {
                    for p in paths {
                        self.target_path(p);
                    }
                }
                Clause::Add(actions) | Clause::Delete(actions) => {
                    let add = matches!(clause, Clause::Add(_));
                    for a in actions {
                        self.target_path(&a.path);
                        let Some(t) = self.value(&a.value).map(|v| v.type_name()) else {
                            continue;
                        };
                        let allowed = matches!(t, "SS" | "NS" | "BS") || (add && t == "N");
                        if !allowed {
                            let (op, set) = if add {
                                ("ADD", "ALLOWED_FOR_ADD_OPERAND")
                            } else {
                                ("DELETE", "ALLOWED_FOR_DELETE_OPERAND")
                            };
                            self.report(Category::AddDeleteOperand, format!("Incorrect operand type for operator or function; operator: {op}, operand type: {}, typeSet: {set}", long_type_name(t)));
                        }
                    }
                }
            }
        }
    }
}
