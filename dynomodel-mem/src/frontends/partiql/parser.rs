//! Parser of DynamoDB's PartiQL statements: recursive descent for the statements, Pratt (binding
//! powers) for the expressions of `WHERE` and `SET`, in the style of `expr/parser.rs`.
//!
//! Precedence, loosest first: `OR`, `AND`, `NOT`, then the comparisons, `BETWEEN`, `IN` and
//! `IS [NOT] MISSING` (which do not chain: `a = b = c` is malformed), then `+`/`-`. Every recursion goes
//! through [`Parser::enter`], which bounds the nesting so that hostile input (thousands of `(` or `NOT`)
//! is an error rather than a stack overflow. The parser checks syntax only; the planner checks names
//! against the table and values against the parameters.

use super::ast::{Assignment, CmpOp, Expr, Path, Projection, Returning, Statement, Step};
use super::lexer::{tokenize, Tok, Token};

/// Maximum nesting of parentheses, `NOT`s, calls and literals. DynamoDB documents no limit; this is far
/// above any hand-written statement and low enough for a 2 MB test-thread stack in debug builds.
pub(crate) const MAX_DEPTH: usize = 100;

/// Why a statement does not parse: the detail after "Statement wasn't well formed, can't be
/// processed: ", or (when the flag is set) a whole message of its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParseError(pub(crate) String, pub(crate) bool);

impl ParseError {
    /// A malformed statement, with this detail.
    fn syntax(detail: String) -> ParseError {
        ParseError(detail, false)
    }
}

type PResult<T> = Result<T, ParseError>;

/// Words that end or structure a clause and so cannot be unquoted attribute names.
const KEYWORDS: [&str; 20] = [
    "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "BETWEEN", "IN", "IS", "MISSING", "SET",
    "REMOVE", "VALUE", "INTO", "INSERT", "UPDATE", "DELETE", "TRUE", "FALSE", "NULL",
];

fn is_keyword(word: &str) -> bool {
    KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(word))
}

struct Parser<'s> {
    source: &'s str,
    /// Where the first `<<>>` is, if any (line and column).
    empty_bag: Option<(usize, usize)>,
    /// Where the first `<<>>` of the WHERE clause is.
    where_bag: Option<(usize, usize)>,
    /// Whether the WHERE clause is being read.
    in_where: bool,
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
    params: usize,
}

/// Parses one statement; also returns how many `?` it has.
pub(crate) fn parse(source: &str) -> PResult<(Statement, usize)> {
    let mut p = Parser {
        source,
        empty_bag: None,
        where_bag: None,
        in_where: false,
        tokens: tokenize(source),
        pos: 0,
        depth: 0,
        params: 0,
    };
    let statement = p.statement()?;
    // One trailing `;` is allowed, as in SQL.
    p.eat_punct(";");
    if p.peek() != &Tok::Eof {
        return Err(ParseError::syntax(
            "Unexpected token after expression".into(),
        ));
    }
    if let Some((line, column)) = p.where_bag.or(p.empty_bag) {
        return Err(ParseError(
            format!("Empty bags are not supported at {line}:{column}:2"),
            true,
        ));
    }
    Ok((statement, p.params))
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        self.tokens.get(self.pos).map_or(&Tok::Eof, |t| &t.tok)
    }

    fn bump(&mut self) -> Tok {
        let tok = self.peek().clone();
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        tok
    }

    fn unexpected<T>(&self) -> PResult<T> {
        Err(ParseError::syntax(match self.peek() {
            Tok::Eof => "Unexpected end of statement".into(),
            _ => "Unexpected token".into(),
        }))
    }

    fn is_word(&self, word: &str) -> bool {
        matches!(self.peek(), Tok::Word(w) if w.eq_ignore_ascii_case(word))
    }

    fn eat_word(&mut self, word: &str) -> bool {
        let found = self.is_word(word);
        if found {
            self.bump();
        }
        found
    }

    fn expect_word(&mut self, word: &str) -> PResult<()> {
        if self.eat_word(word) {
            Ok(())
        } else {
            self.unexpected()
        }
    }

    /// `WHERE`, noting that the clause has begun.
    fn eat_where(&mut self) -> bool {
        self.in_where = self.eat_word("WHERE");
        self.in_where
    }

    fn expect_where(&mut self) -> PResult<()> {
        if self.eat_where() {
            Ok(())
        } else {
            self.unexpected()
        }
    }

    fn eat_punct(&mut self, punct: &str) -> bool {
        let found = matches!(self.peek(), Tok::Punct(p) if *p == punct);
        if found {
            self.bump();
        }
        found
    }

    fn expect_punct(&mut self, punct: &str) -> PResult<()> {
        if self.eat_punct(punct) {
            Ok(())
        } else {
            self.unexpected()
        }
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(ParseError::syntax("Statement is nested too deeply".into()));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    // ----- statements -----

    fn statement(&mut self) -> PResult<Statement> {
        if self.eat_word("SELECT") {
            self.select()
        } else if self.eat_word("INSERT") {
            self.expect_word("INTO")?;
            let table = self.name()?;
            self.expect_word("VALUE")?;
            let value = self.expr(0)?;
            let returning = self.returning()?;
            Ok(Statement::Insert {
                table,
                value,
                returning,
            })
        } else if self.eat_word("UPDATE") {
            self.update()
        } else if self.eat_word("DELETE") {
            self.expect_word("FROM")?;
            let table = self.name()?;
            self.expect_where()?;
            let filter = self.expr(0)?;
            let returning = self.returning()?;
            Ok(Statement::Delete {
                table,
                filter,
                returning,
            })
        } else {
            Err(ParseError::syntax("Expected data manipulation".into()))
        }
    }

    fn select(&mut self) -> PResult<Statement> {
        let projection = if self.eat_punct("*") {
            Projection::All
        } else {
            let mut paths = vec![self.path()?];
            while self.eat_punct(",") {
                paths.push(self.path()?);
            }
            Projection::Paths(paths)
        };
        self.expect_word("FROM")?;
        let table = self.name()?;
        let index = if self.eat_punct(".") {
            Some(self.name()?)
        } else {
            None
        };
        let filter = if self.eat_where() {
            Some(self.expr(0)?)
        } else {
            None
        };
        Ok(Statement::Select {
            projection,
            table,
            index,
            filter,
        })
    }

    fn update(&mut self) -> PResult<Statement> {
        let table = self.name()?;
        let mut assignments = Vec::new();
        loop {
            if self.eat_word("SET") {
                loop {
                    let path = self.path()?;
                    self.expect_punct("=")?;
                    assignments.push(Assignment::Set(path, self.expr(0)?));
                    if !self.eat_punct(",") {
                        break;
                    }
                }
            } else if self.eat_word("REMOVE") {
                // One path per REMOVE (`REMOVE a REMOVE b`): DynamoDB refuses `REMOVE a, b` as malformed,
                // where `SET a = 1, b = 2` is accepted (measured on DynamoDB Local 3.3.1).
                assignments.push(Assignment::Remove(self.path()?));
            } else {
                break;
            }
        }
        if assignments.is_empty() {
            return self.unexpected();
        }
        self.expect_where()?;
        let filter = self.expr(0)?;
        let returning = self.returning()?;
        Ok(Statement::Update {
            table,
            assignments,
            filter,
            returning,
        })
    }

    /// An optional `RETURNING {ALL | MODIFIED} {OLD | NEW} *`.
    fn returning(&mut self) -> PResult<Option<Returning>> {
        if !self.eat_word("RETURNING") {
            return Ok(None);
        }
        let all = if self.eat_word("ALL") {
            true
        } else {
            self.expect_word("MODIFIED")?;
            false
        };
        let new = if self.eat_word("NEW") {
            true
        } else {
            self.expect_word("OLD")?;
            false
        };
        self.expect_punct("*")?;
        Ok(Some(Returning { all, new }))
    }

    /// A table, index or attribute name: quoted, or an unquoted word that is not a keyword.
    fn name(&mut self) -> PResult<String> {
        match self.peek().clone() {
            Tok::Quoted(name) => {
                self.bump();
                Ok(name)
            }
            Tok::Word(word) if !is_keyword(&word) => {
                self.bump();
                Ok(word)
            }
            _ => self.unexpected(),
        }
    }

    /// `name` followed by `.name`, `[n]` and `['name']` steps.
    fn path(&mut self) -> PResult<Path> {
        let root = self.name()?;
        self.steps(root)
    }

    fn steps(&mut self, root: String) -> PResult<Path> {
        let mut steps = Vec::new();
        loop {
            if self.eat_punct(".") {
                steps.push(Step::Field(self.name()?));
            } else if self.eat_punct("[") {
                match self.bump() {
                    Tok::Number(n) => match n.parse::<u32>() {
                        Ok(i) => steps.push(Step::Index(i)),
                        Err(_) => return Err(ParseError::syntax("Invalid list index".into())),
                    },
                    Tok::Str(s) => steps.push(Step::Field(s)),
                    _ => return self.unexpected(),
                }
                self.expect_punct("]")?;
            } else {
                return Ok(Path { root, steps });
            }
        }
    }

    // ----- expressions -----

    /// An expression whose operators bind tighter than `min_bp`.
    fn expr(&mut self, min_bp: u8) -> PResult<Expr> {
        self.enter()?;
        let result = self.expr_inner(min_bp);
        self.leave();
        result
    }

    fn expr_inner(&mut self, min_bp: u8) -> PResult<Expr> {
        let mut left = self.prefix()?;
        loop {
            // (left binding power, right binding power) of the operator ahead.
            let (lbp, rbp) = match self.peek() {
                Tok::Word(w) if w.eq_ignore_ascii_case("OR") => (1, 2),
                Tok::Word(w) if w.eq_ignore_ascii_case("AND") => (3, 4),
                Tok::Word(w)
                    if ["BETWEEN", "IN", "IS", "NOT"]
                        .iter()
                        .any(|k| k.eq_ignore_ascii_case(w)) =>
                {
                    (7, 8)
                }
                Tok::Punct("=" | "<>" | "!=" | "<" | "<=" | ">" | ">=") => (7, 8),
                Tok::Punct("+" | "-") => (9, 10),
                _ => break,
            };
            if lbp < min_bp {
                break;
            }
            left = self.infix(left, rbp)?;
        }
        Ok(left)
    }

    fn infix(&mut self, left: Expr, rbp: u8) -> PResult<Expr> {
        let l = Box::new(left);
        match self.bump() {
            Tok::Word(w) if w.eq_ignore_ascii_case("OR") => {
                Ok(Expr::Or(l, Box::new(self.expr(rbp)?)))
            }
            Tok::Word(w) if w.eq_ignore_ascii_case("AND") => {
                Ok(Expr::And(l, Box::new(self.expr(rbp)?)))
            }
            Tok::Word(w) if w.eq_ignore_ascii_case("BETWEEN") => {
                // The bounds bind tighter than AND, which separates them.
                let low = self.expr(rbp)?;
                self.expect_word("AND")?;
                let high = self.expr(rbp)?;
                Ok(Expr::Between(l, Box::new(low), Box::new(high)))
            }
            Tok::Word(w) if w.eq_ignore_ascii_case("IN") => {
                let close = if self.eat_punct("[") {
                    "]"
                } else {
                    self.expect_punct("(")?;
                    ")"
                };
                let items = self.items(close)?;
                Ok(Expr::In(l, items))
            }
            Tok::Word(w) if w.eq_ignore_ascii_case("IS") => {
                let negated = self.eat_word("NOT");
                self.expect_word("MISSING")?;
                Ok(Expr::Missing(l, negated))
            }
            Tok::Word(w) if w.eq_ignore_ascii_case("NOT") => {
                // `a NOT IN …` / `a NOT BETWEEN …`: the negation of the positive form.
                let positive = match self.peek() {
                    Tok::Word(k)
                        if k.eq_ignore_ascii_case("IN") || k.eq_ignore_ascii_case("BETWEEN") =>
                    {
                        self.infix(*l, rbp)?
                    }
                    _ => return self.unexpected(),
                };
                Ok(Expr::Not(Box::new(positive)))
            }
            Tok::Punct(p @ ("+" | "-")) => Ok(Expr::Arith(l, p == "+", Box::new(self.expr(rbp)?))),
            Tok::Punct(p) => {
                let op = match p {
                    "=" => CmpOp::Eq,
                    "<>" | "!=" => CmpOp::Ne,
                    "<" => CmpOp::Lt,
                    "<=" => CmpOp::Le,
                    ">" => CmpOp::Gt,
                    _ => CmpOp::Ge,
                };
                // Comparisons do not chain: `a = b = c` is malformed.
                if matches!(
                    *l,
                    Expr::Cmp(..) | Expr::Between(..) | Expr::In(..) | Expr::Missing(..)
                ) {
                    return self.unexpected();
                }
                Ok(Expr::Cmp(l, op, Box::new(self.expr(rbp)?)))
            }
            _ => self.unexpected(),
        }
    }

    /// Comma-separated expressions up to `close` (which may come first: an empty list).
    fn items(&mut self, close: &str) -> PResult<Vec<Expr>> {
        let mut items = Vec::new();
        if self.eat_punct(close) {
            return Ok(items);
        }
        loop {
            items.push(self.expr(0)?);
            if self.eat_punct(close) {
                return Ok(items);
            }
            self.expect_punct(",")?;
        }
    }

    fn prefix(&mut self) -> PResult<Expr> {
        match self.bump() {
            Tok::Word(w) if w.eq_ignore_ascii_case("NOT") => Ok(Expr::Not(Box::new(self.expr(5)?))),
            Tok::Word(w) if w.eq_ignore_ascii_case("TRUE") => Ok(Expr::Bool(true)),
            Tok::Word(w) if w.eq_ignore_ascii_case("FALSE") => Ok(Expr::Bool(false)),
            Tok::Word(w) if w.eq_ignore_ascii_case("NULL") => Ok(Expr::Null),
            Tok::Word(w) if self.peek() == &Tok::Punct("(") && !is_keyword(&w) => {
                self.bump();
                let args = self.items(")")?;
                Ok(Expr::Call(w.to_ascii_lowercase(), args))
            }
            Tok::Word(w) if !is_keyword(&w) => Ok(Expr::Path(self.steps(w)?)),
            Tok::Quoted(name) => Ok(Expr::Path(self.steps(name)?)),
            Tok::Str(s) => Ok(Expr::Str(s)),
            Tok::Number(n) => Ok(Expr::Number(n)),
            Tok::Param => {
                self.params += 1;
                Ok(Expr::Param(self.params - 1))
            }
            Tok::Punct("-") => match self.bump() {
                Tok::Number(n) => Ok(Expr::Number(format!("-{n}"))),
                _ => self.unexpected(),
            },
            Tok::Punct("(") => {
                let inner = self.expr(0)?;
                self.expect_punct(")")?;
                Ok(inner)
            }
            Tok::Punct("[") => Ok(Expr::List(self.items("]")?)),
            Tok::Punct("<<") => {
                if self.peek() == &Tok::Punct(">>") {
                    // Refused once the statement is read (DynamoDB Local 3.3.1's text: line,
                    // column and the length of `<<`).
                    let start = self
                        .tokens
                        .get(self.pos.saturating_sub(1))
                        .map_or(0, |t| t.start);
                    let before = self.source.get(..start).unwrap_or("");
                    let line = before.matches('\n').count() + 1;
                    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
                    // DynamoDB Local 3.3.1 reports the first in the WHERE clause, else the first.
                    if self.in_where && self.where_bag.is_none() {
                        self.where_bag = Some((line, column));
                    }
                    self.empty_bag = self.empty_bag.or(Some((line, column)));
                }
                Ok(Expr::Bag(self.items(">>")?))
            }
            Tok::Punct("{") => self.map(),
            Tok::Eof => Err(ParseError::syntax("Unexpected end of statement".into())),
            _ => Err(ParseError::syntax("Unexpected token".into())),
        }
    }

    /// `{'k': v, …}` after its `{`.
    fn map(&mut self) -> PResult<Expr> {
        let mut entries = Vec::new();
        if self.eat_punct("}") {
            return Ok(Expr::Map(entries));
        }
        loop {
            let key = match self.bump() {
                Tok::Str(k) | Tok::Quoted(k) => k,
                _ => return self.unexpected(),
            };
            self.expect_punct(":")?;
            entries.push((key, self.expr(0)?));
            if self.eat_punct("}") {
                return Ok(Expr::Map(entries));
            }
            self.expect_punct(",")?;
        }
    }
}
