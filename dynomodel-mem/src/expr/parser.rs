//! Recursive-descent parser for the four grammars (condition, update, projection; key conditions parse as
//! conditions and are narrowed in `keycond.rs`).
//!
//! Condition precedence, loosest first: `OR`, `AND`, `NOT`, then parentheses and the comparisons,
//! `BETWEEN`, `IN` and function calls, which are all atoms here because DynamoDB's grammar does not let them
//! chain (`a = b = c` is a syntax error). Every recursion goes through [`Parser::enter`], which bounds the
//! nesting so that hostile input (thousands of `(`) returns an error instead of overflowing the stack.
//!
//! The parser only checks syntax. Semantic rules (placeholders, reserved words, functions, operand types,
//! limits) are checked by `validate` against a request's placeholders, so a parsed tree can be cached.

use super::ast::{
    Clause, Comparator, Condition, Function, Name, Operand, Path, PathElement, Projection,
    SetAction, UpdateExpression, ValueAction,
};
use super::lexer::{tokenize, Keyword, Token, TokenKind};

/// Maximum nesting of parentheses, `NOT`s and function calls. DynamoDB has no documented nesting limit
/// (DynamoDB Local accepts 200 levels and stops at 300 operators instead), so this is set above anything a
/// hand-written expression needs, and low enough for a 2 MB test-thread stack in debug builds.
pub(crate) const MAX_DEPTH: usize = 100;

/// Maximum expression size in bytes.
pub(crate) const MAX_EXPRESSION_BYTES: usize = 4096;

/// Why text is not an expression (messages are built in `mod.rs`, which knows the expression kind).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ParseError {
    /// The text is empty.
    Empty,
    /// More than 4096 bytes.
    TooLarge(usize),
    /// A syntax error at a token.
    Syntax {
        /// The offending token's text (`<EOF>` at the end).
        token: String,
        /// DynamoDB's context: the previous, offending and next tokens as written.
        near: String,
    },
    /// Nesting deeper than [`MAX_DEPTH`]; `redundant` says whether the text has `((`, which DynamoDB
    /// would report as redundant parentheses; `operators` counts operator tokens for the other message.
    TooDeep {
        /// The text contains two adjacent `(`.
        redundant: bool,
        /// Operator and function tokens in the text.
        operators: usize,
    },
}

/// A parse result plus the facts validation needs that the tree does not keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Parsed<T> {
    /// The tree.
    pub(crate) tree: T,
    /// The text wraps something in two pairs of parentheses (`((a))`), which DynamoDB rejects.
    pub(crate) redundant_parens: bool,
}

/// Either a condition or a bare operand: `(a)` is an operand until a comparator follows.
enum Node {
    Cond(Condition),
    Operand(Operand),
}

struct Parser<'s> {
    source: &'s str,
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
    redundant: bool,
}

type PResult<T> = Result<T, ParseError>;

/// Wraps `op` in parentheses, noting `((x))`.
fn paren_operand(op: Operand, redundant: &mut bool) -> Operand {
    if matches!(op, Operand::Paren(_)) {
        *redundant = true;
    }
    Operand::Paren(Box::new(op))
}

/// A function call (possibly parenthesised) used where a condition is expected.
fn operand_to_condition(op: Operand) -> Result<Condition, Operand> {
    match op {
        Operand::Function(f) => Ok(Condition::Function(f)),
        Operand::Paren(inner) => match operand_to_condition(*inner) {
            Ok(c) => Ok(Condition::Paren(Box::new(c))),
            Err(inner) => Err(Operand::Paren(Box::new(inner))),
        },
        other => Err(other),
    }
}

impl<'s> Parser<'s> {
    fn new(source: &'s str) -> PResult<Parser<'s>> {
        if source.is_empty() {
            return Err(ParseError::Empty);
        }
        if source.len() > MAX_EXPRESSION_BYTES {
            return Err(ParseError::TooLarge(source.len()));
        }
        Ok(Parser {
            source,
            tokens: tokenize(source),
            pos: 0,
            depth: 0,
            redundant: false,
        })
    }

    fn peek(&self) -> TokenKind {
        self.tokens.get(self.pos).map_or(TokenKind::Eof, |t| t.kind)
    }

    fn text(&self) -> &'s str {
        self.tokens
            .get(self.pos)
            .map_or("", |t| self.source.get(t.start..t.end).unwrap_or(""))
    }

    fn advance(&mut self) {
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
    }

    /// A syntax error at the current token.
    fn error<T>(&self) -> PResult<T> {
        let token = self
            .tokens
            .get(self.pos)
            .map_or("<EOF>", |t| t.text(self.source))
            .to_owned();
        Err(ParseError::Syntax {
            token,
            near: super::lexer::near(self.source, &self.tokens, self.pos),
        })
    }

    fn expect(&mut self, kind: TokenKind) -> PResult<()> {
        if self.peek() == kind {
            self.advance();
            Ok(())
        } else {
            self.error()
        }
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let kinds: Vec<TokenKind> = self.tokens.iter().map(|t| t.kind).collect();
            let redundant = kinds
                .windows(2)
                .any(|w| w == [TokenKind::LParen, TokenKind::LParen]);
            let operators = self
                .tokens
                .iter()
                .enumerate()
                .filter(|(i, t)| is_operator_token(&self.tokens, *i, t.kind))
                .count();
            return Err(ParseError::TooDeep {
                redundant,
                operators,
            });
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    fn finish<T>(&self, tree: T) -> PResult<Parsed<T>> {
        if self.peek() != TokenKind::Eof {
            return self.error();
        }
        Ok(Parsed {
            tree,
            redundant_parens: self.redundant,
        })
    }

    // ----- conditions -----

    fn node_to_condition(&self, node: Node) -> PResult<Condition> {
        match node {
            Node::Cond(c) => Ok(c),
            Node::Operand(op) => match operand_to_condition(op) {
                Ok(c) => Ok(c),
                Err(_) => self.error(),
            },
        }
    }

    fn or(&mut self) -> PResult<Node> {
        let mut left = self.and()?;
        while self.peek() == TokenKind::Keyword(Keyword::Or) {
            let l = self.node_to_condition(left)?;
            self.advance();
            let right = self.and()?;
            let r = self.node_to_condition(right)?;
            left = Node::Cond(Condition::Or(Box::new(l), Box::new(r)));
        }
        Ok(left)
    }

    fn and(&mut self) -> PResult<Node> {
        let mut left = self.not()?;
        while self.peek() == TokenKind::Keyword(Keyword::And) {
            let l = self.node_to_condition(left)?;
            self.advance();
            let right = self.not()?;
            let r = self.node_to_condition(right)?;
            left = Node::Cond(Condition::And(Box::new(l), Box::new(r)));
        }
        Ok(left)
    }

    fn not(&mut self) -> PResult<Node> {
        if self.peek() != TokenKind::Keyword(Keyword::Not) {
            return self.primary();
        }
        self.advance();
        self.enter()?;
        let inner = self.not()?;
        self.leave();
        let c = self.node_to_condition(inner)?;
        Ok(Node::Cond(Condition::Not(Box::new(c))))
    }

    fn primary(&mut self) -> PResult<Node> {
        if self.peek() != TokenKind::LParen {
            let left = self.operand()?;
            return self.comparison(left);
        }
        self.advance();
        self.enter()?;
        let inner = self.or()?;
        self.expect(TokenKind::RParen)?;
        self.leave();
        match inner {
            Node::Cond(c) => {
                if matches!(c, Condition::Paren(_)) {
                    self.redundant = true;
                }
                Ok(Node::Cond(Condition::Paren(Box::new(c))))
            }
            Node::Operand(op) => {
                let left = paren_operand(op, &mut self.redundant);
                self.comparison(left)
            }
        }
    }

    /// What follows a left operand: a comparison, `BETWEEN`, `IN`, or nothing (a function as a condition,
    /// or a parenthesised operand whose `)` the caller consumes).
    fn comparison(&mut self, left: Operand) -> PResult<Node> {
        let comparator = match self.peek() {
            TokenKind::Eq => Some(Comparator::Eq),
            TokenKind::Ne => Some(Comparator::Ne),
            TokenKind::Lt => Some(Comparator::Lt),
            TokenKind::Le => Some(Comparator::Le),
            TokenKind::Gt => Some(Comparator::Gt),
            TokenKind::Ge => Some(Comparator::Ge),
            _ => None,
        };
        if let Some(op) = comparator {
            self.advance();
            let right = self.operand_paren()?;
            return Ok(Node::Cond(Condition::Compare(op, left, right)));
        }
        match self.peek() {
            TokenKind::Keyword(Keyword::Between) => {
                self.advance();
                let low = self.operand_paren()?;
                self.expect(TokenKind::Keyword(Keyword::And))?;
                let high = self.operand_paren()?;
                Ok(Node::Cond(Condition::Between(left, low, high)))
            }
            TokenKind::Keyword(Keyword::In) => {
                self.advance();
                self.expect(TokenKind::LParen)?;
                let list = self.operand_list()?;
                self.expect(TokenKind::RParen)?;
                Ok(Node::Cond(Condition::In(left, list)))
            }
            TokenKind::RParen => Ok(Node::Operand(left)),
            _ => match operand_to_condition(left) {
                Ok(c) => Ok(Node::Cond(c)),
                Err(_) => self.error(),
            },
        }
    }

    // ----- operands -----

    fn operand_list(&mut self) -> PResult<Vec<Operand>> {
        let mut list = vec![self.operand_paren()?];
        while self.peek() == TokenKind::Comma {
            self.advance();
            list.push(self.operand_paren()?);
        }
        Ok(list)
    }

    /// An operand, optionally in parentheses.
    fn operand_paren(&mut self) -> PResult<Operand> {
        if self.peek() != TokenKind::LParen {
            return self.operand();
        }
        self.advance();
        self.enter()?;
        let inner = self.operand_paren()?;
        self.expect(TokenKind::RParen)?;
        self.leave();
        Ok(paren_operand(inner, &mut self.redundant))
    }

    fn operand(&mut self) -> PResult<Operand> {
        match self.peek() {
            TokenKind::ValuePlaceholder => {
                let v = self.text().to_owned();
                self.advance();
                Ok(Operand::Value(v))
            }
            TokenKind::Identifier
                if self.tokens.get(self.pos + 1).map(|t| t.kind) == Some(TokenKind::LParen) =>
            {
                let name = self.text().to_owned();
                self.advance();
                self.advance();
                self.enter()?;
                let args = self.operand_list()?;
                self.expect(TokenKind::RParen)?;
                self.leave();
                Ok(Operand::Function(Function { name, args }))
            }
            TokenKind::Identifier | TokenKind::NamePlaceholder => Ok(Operand::Path(self.path()?)),
            _ => self.error(),
        }
    }

    fn name(&mut self) -> PResult<Name> {
        let name = match self.peek() {
            TokenKind::Identifier => Name::Plain(self.text().to_owned()),
            TokenKind::NamePlaceholder => Name::Placeholder(self.text().to_owned()),
            _ => return self.error(),
        };
        self.advance();
        Ok(name)
    }

    fn path(&mut self) -> PResult<Path> {
        let mut elements = vec![PathElement::Name(self.name()?)];
        loop {
            match self.peek() {
                TokenKind::Dot => {
                    self.advance();
                    elements.push(PathElement::Name(self.name()?));
                }
                TokenKind::LBracket => {
                    self.advance();
                    if self.peek() != TokenKind::Number {
                        return self.error();
                    }
                    elements.push(PathElement::Index(self.text().to_owned()));
                    self.advance();
                    self.expect(TokenKind::RBracket)?;
                }
                _ => return Ok(Path { elements }),
            }
        }
    }

    // ----- updates -----

    fn update(&mut self) -> PResult<UpdateExpression> {
        let mut clauses = Vec::new();
        loop {
            let clause = match self.peek() {
                TokenKind::Keyword(Keyword::Set) => {
                    self.advance();
                    Clause::Set(self.comma_list(Parser::set_action)?)
                }
                TokenKind::Keyword(Keyword::Remove) => {
                    self.advance();
                    Clause::Remove(self.comma_list(Parser::path)?)
                }
                TokenKind::Keyword(Keyword::Add) => {
                    self.advance();
                    Clause::Add(self.comma_list(Parser::value_action)?)
                }
                TokenKind::Keyword(Keyword::Delete) => {
                    self.advance();
                    Clause::Delete(self.comma_list(Parser::value_action)?)
                }
                TokenKind::Eof if !clauses.is_empty() => {
                    return Ok(UpdateExpression { clauses });
                }
                _ => return self.error(),
            };
            clauses.push(clause);
        }
    }

    fn comma_list<T>(&mut self, item: fn(&mut Parser<'s>) -> PResult<T>) -> PResult<Vec<T>> {
        let mut items = vec![item(self)?];
        while self.peek() == TokenKind::Comma {
            self.advance();
            items.push(item(self)?);
        }
        Ok(items)
    }

    fn set_action(&mut self) -> PResult<SetAction> {
        let path = self.path()?;
        self.expect(TokenKind::Eq)?;
        let value = self.set_value()?;
        Ok(SetAction { path, value })
    }

    /// `term [(+|-) term]`, where a term is an operand or a parenthesised set value.
    fn set_value(&mut self) -> PResult<Operand> {
        let left = self.set_term()?;
        let plus = match self.peek() {
            TokenKind::Plus => true,
            TokenKind::Minus => false,
            _ => return Ok(left),
        };
        self.advance();
        let right = self.set_term()?;
        Ok(if plus {
            Operand::Plus(Box::new(left), Box::new(right))
        } else {
            Operand::Minus(Box::new(left), Box::new(right))
        })
    }

    fn set_term(&mut self) -> PResult<Operand> {
        if self.peek() != TokenKind::LParen {
            return self.operand();
        }
        self.advance();
        self.enter()?;
        let inner = self.set_value()?;
        self.expect(TokenKind::RParen)?;
        self.leave();
        Ok(paren_operand(inner, &mut self.redundant))
    }

    fn value_action(&mut self) -> PResult<ValueAction> {
        let path = self.path()?;
        if self.peek() != TokenKind::ValuePlaceholder {
            return self.error();
        }
        let value = self.text().to_owned();
        self.advance();
        Ok(ValueAction { path, value })
    }
}

/// Whether token `i` is an operator or function name (for the too-deep message's operator count).
fn is_operator_token(tokens: &[Token], i: usize, kind: TokenKind) -> bool {
    match kind {
        TokenKind::Eq
        | TokenKind::Ne
        | TokenKind::Lt
        | TokenKind::Le
        | TokenKind::Gt
        | TokenKind::Ge
        | TokenKind::Plus
        | TokenKind::Minus
        | TokenKind::Keyword(Keyword::And | Keyword::Or | Keyword::Not | Keyword::Between)
        | TokenKind::Keyword(Keyword::In) => true,
        TokenKind::Identifier => tokens.get(i + 1).map(|t| t.kind) == Some(TokenKind::LParen),
        _ => false,
    }
}

/// Parses a ConditionExpression, FilterExpression or (before narrowing) KeyConditionExpression.
pub(crate) fn parse_condition(source: &str) -> Result<Parsed<Condition>, ParseError> {
    let mut p = Parser::new(source)?;
    let node = p.or()?;
    let tree = p.node_to_condition(node)?;
    p.finish(tree)
}

/// Parses an UpdateExpression.
pub(crate) fn parse_update(source: &str) -> Result<Parsed<UpdateExpression>, ParseError> {
    let mut p = Parser::new(source)?;
    let tree = p.update()?;
    p.finish(tree)
}

/// Parses a ProjectionExpression.
pub(crate) fn parse_projection(source: &str) -> Result<Parsed<Projection>, ParseError> {
    let mut p = Parser::new(source)?;
    let paths = p.comma_list(Parser::path)?;
    p.finish(Projection { paths })
}
