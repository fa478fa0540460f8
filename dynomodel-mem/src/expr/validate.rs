//! DynamoDB's semantic checks on a parsed expression, with its exact messages.
//!
//! DynamoDB reports one error per request. When an expression breaks several rules, which one it reports
//! depends on the rule's category, not on the position in the text (dynalite's parsers, whose test
//! expectations were recorded against DynamoDB, keep the first error of each category and report the
//! categories in a fixed order; that order is copied here per expression kind).

use std::collections::BTreeMap;

use dynomodel::{AttributeValue, Error};

use super::ast::{
    Clause, Comparator, Condition, Function, Name, Operand, Path, PathElement, Projection,
    UpdateExpression,
};
use super::eval::{compare_values, Step};
use super::reserved::is_reserved;
use super::{invalid, ExprKind, Parsed, Placeholders, Usage};

/// Most operators and functions in one expression.
pub(crate) const MAX_OPERATORS: usize = 300;
/// Most operands on the right of `IN`.
pub(crate) const MAX_IN_OPERANDS: usize = 100;

/// Error categories; each kind reports them in its own order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Category {
    Limits,
    Parens,
    UnknownFunction,
    MisusedFunction,
    Reserved,
    Section,
    Placeholder,
    OperandCount,
    Distinct,
    PathOverlap,
    PathConflict,
    AddDeleteOperand,
    Function,
}

const CONDITION_ORDER: &[Category] = &[
    Category::Limits,
    Category::Parens,
    Category::UnknownFunction,
    Category::MisusedFunction,
    Category::Reserved,
    Category::Placeholder,
    Category::OperandCount,
    Category::Distinct,
    Category::Function,
];

const UPDATE_ORDER: &[Category] = &[
    Category::Limits,
    Category::Parens,
    Category::Reserved,
    Category::UnknownFunction,
    Category::Section,
    Category::Placeholder,
    Category::PathOverlap,
    Category::PathConflict,
    Category::AddDeleteOperand,
    Category::Function,
];

const PROJECTION_ORDER: &[Category] = &[
    Category::Limits,
    Category::Reserved,
    Category::Placeholder,
    Category::PathOverlap,
    Category::PathConflict,
];

/// DynamoDB's path notation in messages: `[a, b, [1]]`.
pub(crate) fn path_string(steps: &[Step]) -> String {
    let parts: Vec<String> = steps
        .iter()
        .map(|s| match s {
            Step::Key(k) => k.clone(),
            Step::Index(i) => format!("[{i}]"),
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

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

/// How DynamoDB prints a value in BETWEEN messages: `{S:x}`, `{N:1}`.
/// A value as DynamoDB's messages print it: Java's `toString` of its AttributeValue, so a binary shows as
/// the `ByteBuffer` that holds it (measured on DynamoDB Local).
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

struct Checker<'a, 'u> {
    kind: ExprKind,
    placeholders: Placeholders<'a>,
    usage: &'u mut Usage,
    errors: BTreeMap<Category, String>,
    operators: usize,
    /// Resolved target paths seen so far (updates, projections), for overlap checks.
    paths: Vec<Vec<Step>>,
}

impl Checker<'_, '_> {
    fn report(&mut self, category: Category, message: impl Into<String>) {
        self.errors
            .entry(category)
            .or_insert_with(|| message.into());
    }

    fn finish(self, order: &[Category]) -> Result<(), Error> {
        for category in order {
            if let Some(message) = self.errors.get(category) {
                return Err(invalid(self.kind, message));
            }
        }
        Ok(())
    }

    /// Resolves a path, reporting reserved words, undefined names and out-of-range indexes.
    fn path(&mut self, path: &Path) -> Option<Vec<Step>> {
        let mut steps = Vec::with_capacity(path.elements.len());
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
                PathElement::Name(Name::Placeholder(p)) => {
                    self.usage.names.insert(p.clone());
                    match self.placeholders.names.get(p) {
                        Some(n) => steps.push(Step::Key(n.clone())),
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

    fn value(&mut self, name: &str) -> Option<&AttributeValue> {
        self.usage.values.insert(name.to_owned());
        let value = self.placeholders.values.get(name);
        if value.is_none() {
            self.report(
                Category::Placeholder,
                format!("An expression attribute value used in expression is not defined; attribute value: {name}"),
            );
        }
        value
    }

    /// The type of an operand known before evaluation (values, and `size` which is a number).
    fn static_type(&self, op: &Operand) -> Option<&'static str> {
        match op.unparen() {
            Operand::Value(v) => self.placeholders.values.get(v).map(|v| v.type_name()),
            Operand::Function(f) if f.name == "size" => Some("N"),
            _ => None,
        }
    }

    fn static_value(&self, op: &Operand) -> Option<&AttributeValue> {
        match op.unparen() {
            Operand::Value(v) => self.placeholders.values.get(v),
            _ => None,
        }
    }

    /// Records a target path (update action, projection) and checks it against the earlier ones.
    fn target(&mut self, steps: Vec<Step>) {
        for earlier in &self.paths {
            let common = earlier.len().min(steps.len());
            let mut diverged = false;
            for i in 0..common {
                let (a, b) = (&earlier[i], &steps[i]);
                if std::mem::discriminant(a) != std::mem::discriminant(b) {
                    let msg = format!("Two document paths conflict with each other; must remove or rewrite one of these paths; path one: {}, path two: {}", path_string(earlier), path_string(&steps));
                    self.errors.entry(Category::PathConflict).or_insert(msg);
                    diverged = true;
                    break;
                }
                if a != b {
                    diverged = true;
                    break;
                }
            }
            if !diverged {
                let msg = format!("Two document paths overlap with each other; must remove or rewrite one of these paths; path one: {}, path two: {}", path_string(earlier), path_string(&steps));
                self.errors.entry(Category::PathOverlap).or_insert(msg);
            }
        }
        self.paths.push(steps);
    }

    // ----- conditions -----

    fn condition(&mut self, c: &Condition) {
        match c {
            Condition::Compare(op, a, b) => {
                self.operators += 1;
                self.operand_in_condition(a);
                self.operand_in_condition(b);
                self.distinct(op.as_str(), &[a, b]);
                if !matches!(op, Comparator::Eq | Comparator::Ne) {
                    self.scalar_operands(op.as_str(), &[a, b]);
                }
            }
            Condition::Between(a, lo, hi) => {
                self.operators += 1;
                for op in [a, lo, hi] {
                    self.operand_in_condition(op);
                }
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
            Condition::In(a, list) => {
                self.operators += 1;
                if list.len() > MAX_IN_OPERANDS {
                    self.report(
                        Category::Limits,
                        format!("The IN operator is provided with too many operands; number of operands: {}", list.len()),
                    );
                }
                self.operand_in_condition(a);
                for op in list {
                    self.operand_in_condition(op);
                }
            }
            Condition::Function(f) => {
                if f.name == "size" {
                    self.report(
                        Category::MisusedFunction,
                        "The function is not allowed to be used this way in an expression; function: size",
                    );
                }
                self.function(f);
            }
            Condition::Not(inner) | Condition::Paren(inner) => {
                if matches!(c, Condition::Not(_)) {
                    self.operators += 1;
                }
                self.condition(inner);
            }
            Condition::And(a, b) | Condition::Or(a, b) => {
                self.operators += 1;
                self.condition(a);
                self.condition(b);
            }
        }
    }

    /// An operand of a comparison or function: only `size` may be a function there.
    fn operand_in_condition(&mut self, op: &Operand) {
        match op.unparen() {
            Operand::Function(f) => {
                if f.name != "size" && is_condition_function(&f.name) {
                    self.report(
                        Category::MisusedFunction,
                        format!("The function is not allowed to be used this way in an expression; function: {}", f.name),
                    );
                }
                self.function(f);
            }
            Operand::Path(p) => {
                self.path(p);
            }
            Operand::Value(v) => {
                self.value(v);
            }
            // The condition grammar has no arithmetic; kept total for safety.
            Operand::Plus(a, b) | Operand::Minus(a, b) => {
                self.operand_in_condition(a);
                self.operand_in_condition(b);
            }
            Operand::Paren(_) => {}
        }
    }

    fn distinct(&mut self, operator: &str, operands: &[&Operand]) {
        let Some((first, rest)) = operands.split_first() else {
            return;
        };
        let Operand::Path(p) = first.unparen() else {
            return;
        };
        let Some(first_steps) = super::eval::resolve(p, &self.placeholders) else {
            return;
        };
        for other in rest {
            if let Operand::Path(q) = other.unparen() {
                if super::eval::resolve(q, &self.placeholders).as_ref() == Some(&first_steps) {
                    self.report(
                        Category::Distinct,
                        format!("The first operand must be distinct from the remaining operands for this operator or function; operator: {operator}, first operand: {}", path_string(&first_steps)),
                    );
                    return;
                }
            }
        }
    }

    /// `<`, `<=`, `>`, `>=` and BETWEEN compare only strings, numbers and binaries.
    fn scalar_operands(&mut self, operator: &str, operands: &[&Operand]) {
        for op in operands {
            if let Some(t) = self.static_type(op) {
                if !matches!(t, "S" | "N" | "B") {
                    self.report(Category::Function, format!("Incorrect operand type for operator or function; operator or function: {operator}, operand type: {t}"));
                    return;
                }
            }
        }
    }

    fn function(&mut self, f: &Function) {
        self.operators += 1;
        for arg in &f.args {
            self.operand_in_condition(arg);
        }
        let arity = match f.name.as_str() {
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
        match f.name.as_str() {
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
                    if !super::eval::TYPE_NAMES.contains(&s.as_str()) {
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

    // ----- updates -----

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

    fn target_path(&mut self, path: &Path) {
        if let Some(steps) = self.path(path) {
            self.target(steps);
        }
    }

    fn update(&mut self, u: &UpdateExpression) {
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

    fn check_operator_count(&mut self) {
        if self.operators > MAX_OPERATORS {
            // DynamoDB stops counting at the first operator over the limit, so it always reports 301
            // (measured on DynamoDB Local: 151 comparisons + 150 ORs and 400 + 399 both say 301).
            let msg = format!(
                "The expression contains too many operators; operator count: {}",
                MAX_OPERATORS + 1
            );
            self.report(Category::Limits, msg);
        }
    }
}

/// The functions of the condition language.
fn is_condition_function(name: &str) -> bool {
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

fn checker<'a, 'u>(
    kind: ExprKind,
    placeholders: Placeholders<'a>,
    usage: &'u mut Usage,
) -> Checker<'a, 'u> {
    Checker {
        kind,
        placeholders,
        usage,
        errors: BTreeMap::new(),
        operators: 0,
        paths: Vec::new(),
    }
}

/// Validates a condition, filter or key condition; records the placeholders it uses in `usage`.
pub(crate) fn validate_condition(
    kind: ExprKind,
    parsed: &Parsed<Condition>,
    placeholders: Placeholders<'_>,
    usage: &mut Usage,
) -> Result<(), Error> {
    let mut c = checker(kind, placeholders, usage);
    if parsed.redundant_parens {
        c.report(
            Category::Parens,
            "The expression has redundant parentheses;",
        );
    }
    c.condition(&parsed.tree);
    c.check_operator_count();
    c.finish(CONDITION_ORDER)
}

/// Validates an update expression; records the placeholders it uses in `usage`.
pub(crate) fn validate_update(
    parsed: &Parsed<UpdateExpression>,
    placeholders: Placeholders<'_>,
    usage: &mut Usage,
) -> Result<(), Error> {
    let mut c = checker(ExprKind::Update, placeholders, usage);
    if parsed.redundant_parens {
        c.report(
            Category::Parens,
            "The expression has redundant parentheses;",
        );
    }
    c.update(&parsed.tree);
    c.check_operator_count();
    c.finish(UPDATE_ORDER)
}

/// Validates a projection expression; records the placeholders it uses in `usage`.
pub(crate) fn validate_projection(
    parsed: &Parsed<Projection>,
    placeholders: Placeholders<'_>,
    usage: &mut Usage,
) -> Result<(), Error> {
    let mut c = checker(ExprKind::Projection, placeholders, usage);
    for p in &parsed.tree.paths {
        c.target_path(p);
    }
    c.finish(PROJECTION_ORDER)
}
