//! The syntax tree of a PartiQL statement. Values stay expressions until the planner resolves them
//! against the request's `Parameters`, so that a tree does not depend on one request.

/// One step of a path after its first name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// `.name` or `."name"` (also `['name']`).
    Field(String),
    /// `[3]`
    Index(u32),
}

/// An attribute path: `a`, `"a".b[2]."c"`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Path {
    /// The top-level attribute.
    pub(crate) root: String,
    /// The rest.
    pub(crate) steps: Vec<Step>,
}

impl Path {
    /// Whether this is exactly the top-level attribute `name`.
    pub(crate) fn is_attribute(&self, name: &str) -> bool {
        self.steps.is_empty() && self.root == name
    }
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CmpOp {
    /// `=`
    Eq,
    /// `<>` or `!=`
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

impl CmpOp {
    /// The operator in DynamoDB's expression language.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            CmpOp::Eq => "=",
            CmpOp::Ne => "<>",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

/// An expression: a condition, an operand or a value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expr {
    /// An attribute path.
    Path(Path),
    /// `'text'`
    Str(String),
    /// A number as written (a leading `-` included).
    Number(String),
    /// `TRUE` / `FALSE`
    Bool(bool),
    /// `NULL`
    Null,
    /// `?`, numbered from 0 in the order they appear.
    Param(usize),
    /// `[a, b]`
    List(Vec<Expr>),
    /// `{'k': v, …}`
    Map(Vec<(String, Expr)>),
    /// `<<a, b>>`: a set.
    Bag(Vec<Expr>),
    /// `a op b`
    Cmp(Box<Expr>, CmpOp, Box<Expr>),
    /// `a AND b`
    And(Box<Expr>, Box<Expr>),
    /// `a OR b`
    Or(Box<Expr>, Box<Expr>),
    /// `NOT a`
    Not(Box<Expr>),
    /// `a BETWEEN b AND c`
    Between(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `a IN [b, c]` or `a IN (b, c)`
    In(Box<Expr>, Vec<Expr>),
    /// `a IS [NOT] MISSING`; `true` for `IS NOT MISSING`.
    Missing(Box<Expr>, bool),
    /// `a + b` (`true`) or `a - b` (`false`), in `SET` only.
    Arith(Box<Expr>, bool, Box<Expr>),
    /// A function call, its name lower-cased.
    Call(String, Vec<Expr>),
}

/// What a `SELECT` returns of each item.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Projection {
    /// `*`
    All,
    /// A list of paths.
    Paths(Vec<Path>),
}

/// One `SET` or `REMOVE` of an `UPDATE`, in statement order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Assignment {
    /// `SET path = value`
    Set(Path, Expr),
    /// `REMOVE path`
    Remove(Path),
}

/// `RETURNING {ALL | MODIFIED} {OLD | NEW} *` of a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Returning {
    /// `ALL` (the whole item) rather than `MODIFIED` (the updated attributes).
    pub(crate) all: bool,
    /// `NEW` (after the write) rather than `OLD` (before).
    pub(crate) new: bool,
}

impl Returning {
    /// The clause as DynamoDB quotes it in its messages.
    pub(crate) fn text(self) -> String {
        format!(
            "RETURNING {} {} *",
            if self.all { "ALL" } else { "MODIFIED" },
            if self.new { "NEW" } else { "OLD" }
        )
    }
}

/// A statement.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Statement {
    /// `SELECT projection FROM "table"[."index"] [WHERE …]`
    Select {
        /// What to return.
        projection: Projection,
        /// The table.
        table: String,
        /// The index, if any.
        index: Option<String>,
        /// The condition.
        filter: Option<Expr>,
    },
    /// `INSERT INTO "table" VALUE {…}`
    Insert {
        /// The table.
        table: String,
        /// The item (a map literal, possibly with parameters).
        value: Expr,
        /// A `RETURNING` clause (which INSERT refuses).
        returning: Option<Returning>,
    },
    /// `UPDATE "table" SET … REMOVE … WHERE …`
    Update {
        /// The table.
        table: String,
        /// The changes, in order.
        assignments: Vec<Assignment>,
        /// The key equalities and any further conditions.
        filter: Expr,
        /// What to return of the item.
        returning: Option<Returning>,
    },
    /// `DELETE FROM "table" WHERE …`
    Delete {
        /// The table.
        table: String,
        /// The key equalities and any further conditions.
        filter: Expr,
        /// What to return of the item.
        returning: Option<Returning>,
    },
}

impl Statement {
    /// The statement's table.
    pub(crate) fn table(&self) -> &str {
        match self {
            Statement::Select { table, .. }
            | Statement::Insert { table, .. }
            | Statement::Update { table, .. }
            | Statement::Delete { table, .. } => table,
        }
    }

    /// Whether it reads (`SELECT`) rather than writes.
    pub(crate) fn is_read(&self) -> bool {
        matches!(self, Statement::Select { .. })
    }
}
