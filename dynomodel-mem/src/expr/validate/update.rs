//! Update expressions: each clause used once, the operands of SET (arithmetic, `if_not_exists`,
//! `list_append`), and the value types ADD and DELETE accept. The paths they write are checked in
//! `targets`.

use super::functions::is_condition_function;
use super::{Category, Checker};
use crate::expr::ast::{Clause, Function, Operand, UpdateExpression};

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

/// One step of the walk over a SET value, on an explicit stack (nested calls can be 200 deep in
/// 4 KB): an operand, or a check that comes after an operand's parts.
enum Walk<'t> {
    /// An operand.
    Operand(&'t Operand),
    /// `+`/`-`'s operand types, after its operands.
    Arithmetic(&'t Operand, &'t Operand, &'static str),
    /// Whether an argument is itself a `list_append`, after the argument was walked.
    Argument(&'t Operand),
    /// A function's name, arity and operand types, after its arguments.
    Function(&'t Function),
}

impl Checker<'_, '_> {
    fn update_operand(&mut self, root: &Operand) {
        let mut stack = vec![Walk::Operand(root)];
        while let Some(step) = stack.pop() {
            match step {
                Walk::Operand(op) => match op {
                    Operand::Path(p) => {
                        self.path(p);
                    }
                    Operand::Value(v) => {
                        self.value(v);
                    }
                    Operand::Literal(_) => {}
                    Operand::Paren(inner) => stack.push(Walk::Operand(inner)),
                    Operand::Plus(a, b) | Operand::Minus(a, b) => {
                        self.operators += 1;
                        let name = if matches!(op, Operand::Plus(..)) {
                            "+"
                        } else {
                            "-"
                        };
                        stack.extend([
                            Walk::Arithmetic(a, b, name),
                            Walk::Operand(b),
                            Walk::Operand(a),
                        ]);
                    }
                    Operand::Function(f) => {
                        self.operators += 1;
                        stack.push(Walk::Function(f));
                        for arg in f.args.iter().rev() {
                            stack.extend([Walk::Argument(arg), Walk::Operand(arg)]);
                        }
                    }
                },
                Walk::Arithmetic(a, b, name) => {
                    for arg in [a, b] {
                        if let Some(t) = self.static_type(arg).filter(|t| *t != "N") {
                            self.report(Category::Function, format!("Incorrect operand type for operator or function; operator or function: {name}, operand type: {t}"));
                            break;
                        }
                    }
                }
                Walk::Argument(arg) => {
                    // list_append only at the top of a SET value: not inside another list_append
                    // nor an if_not_exists (real DynamoDB, issue 26 fact 17; DynamoDB Local 3.3.1
                    // agrees). if_not_exists may nest, and may sit inside list_append.
                    if matches!(arg.unparen(), Operand::Function(inner) if inner.name == "list_append")
                    {
                        self.report(
                            Category::MisusedFunction,
                            "The function is not allowed to be used this way in an expression; \
                             function: list_append",
                        );
                    }
                }
                Walk::Function(f) => self.update_function(f),
            }
        }
    }

    /// A SET value's function: a known name, two operands, and their types.
    fn update_function(&mut self, f: &Function) {
        match &*f.name {
            "if_not_exists" | "list_append" => {}
            name if is_condition_function(name) => {
                self.report(
                    Category::UnknownFunction,
                    format!(
                        "The function is not allowed in an update expression; function: {name}"
                    ),
                );
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
                        let Some(t) = self.value_operand(&a.value).map(|v| v.type_name()) else {
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
