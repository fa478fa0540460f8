//! Parser for the four grammars (condition, update, projection; key conditions parse as conditions
//! and are narrowed in `keycond.rs`).
//!
//! Condition precedence, loosest first: `OR`, `AND`, `NOT`, then parentheses and the comparisons,
//! `BETWEEN`, `IN` and function calls, which are all atoms here because DynamoDB's grammar does not let them
//! chain (`a = b = c` is a syntax error).
//!
//! Stack-safe: nothing recurses on the nesting a request writes. The boolean layer is an operator-stack
//! (shunting-yard) loop, operands (function calls, parenthesised operands) and SET values (`(a + b)`)
//! keep their open calls and parentheses on explicit stacks. DynamoDB has no nesting limit of its own —
//! 149 nested `a<b or (…)` (299 operators) are accepted, and what stops deeper expressions is the
//! 4 KB size, the 300 operators or the redundant parentheses, reported by `validate` — so nesting is
//! bounded only by the 4 KB text. The trees that deep are walked recursively by `validate`, which
//! `tests::deepest_expressions_fit_a_small_stack` proves affordable on a small stack; only valid trees
//! (at most 300 operators) are ever evaluated.
//!
//! The parser only checks syntax. Semantic rules (placeholders, reserved words, functions, operand types,
//! limits) are checked by `validate` against a request's placeholders, so a parsed tree can be cached.

use std::borrow::Cow;

use super::ast::{
    Clause, Comparator, Condition, Function, Name, Operand, Path, PathElement, PathElements,
    Projection, SetAction, UpdateExpression, ValueAction,
};
use super::lexer::{tokenize, Keyword, Token, TokenKind};

/// Maximum expression size in bytes.
pub(crate) const MAX_EXPRESSION_BYTES: usize = 4096;

/// Why text is not an expression (messages are built in `mod.rs`, which knows the expression kind).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ParseError {
    /// The text is empty.
    Empty,
    /// More than 4096 bytes of the request's own expression (found by `expr::check_size`, before
    /// the parser: a legacy translation has no such limit).
    TooLarge(usize),
    /// A syntax error at a token.
    Syntax {
        /// The offending token's text (`<EOF>` at the end).
        token: String,
        /// DynamoDB's context: the previous, offending and next tokens as written.
        near: String,
    },
}

/// A parse result plus the facts validation needs that the tree does not keep.
#[derive(Debug, Clone, PartialEq)]
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
    redundant: bool,
}

/// A pending operator of the condition grammar's boolean layer, or an open parenthesis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pending {
    Or,
    And,
    Not,
    Open,
}

impl Pending {
    /// Binding strength: `NOT` over `AND` over `OR`; an open parenthesis is never reduced by an
    /// operator.
    fn precedence(self) -> u8 {
        match self {
            Pending::Open => 0,
            Pending::Or => 1,
            Pending::And => 2,
            Pending::Not => 3,
        }
    }
}

/// An open construct of an operand, while its inner operand is parsed.
enum OperandFrame {
    /// `(` of a parenthesised operand.
    Paren,
    /// A function call with the arguments parsed so far.
    Call { name: String, args: Vec<Operand> },
}

/// An open construct of a SET value.
enum SetFrame {
    /// `(` of a parenthesised SET value.
    Paren,
    /// `left +` or `left -`, waiting for its right term.
    Right { left: Operand, plus: bool },
}

type PResult<T> = Result<T, ParseError>;

/// Wraps `op` in parentheses, noting `((x))`. Redundant parentheses are noted, not nested: such an
/// expression is refused whatever its tree, and 2,000 of them must not make a tree 2,000 deep.
fn paren_operand(op: Operand, redundant: &mut bool) -> Operand {
    if matches!(op, Operand::Paren(_)) {
        *redundant = true;
        return op;
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
        Ok(Parser {
            source,
            tokens: tokenize(source),
            pos: 0,
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

    /// A condition (or, in parentheses, an operand): operators and open parentheses wait on `ops`,
    /// finished parts on `nodes`. Each node becomes a condition exactly where the recursive grammar
    /// would make it one (before `AND`/`OR`, at the token after an operator's right side), so syntax
    /// errors name the same token.
    fn condition(&mut self) -> PResult<Node> {
        let mut ops: Vec<Pending> = Vec::new();
        let mut nodes: Vec<Node> = Vec::new();
        let mut open = 0usize;
        loop {
            // Where an operand is expected.
            match self.peek() {
                TokenKind::Keyword(Keyword::Not) => {
                    self.advance();
                    ops.push(Pending::Not);
                    continue;
                }
                TokenKind::LParen => {
                    self.advance();
                    ops.push(Pending::Open);
                    open += 1;
                    continue;
                }
                _ => {
                    let left = self.operand()?;
                    nodes.push(self.comparison(left)?);
                }
            }
            // Where an operator is expected.
            loop {
                let op = match self.peek() {
                    TokenKind::Keyword(Keyword::Or) => Pending::Or,
                    TokenKind::Keyword(Keyword::And) => Pending::And,
                    TokenKind::RParen if open > 0 => {
                        self.reduce(&mut ops, &mut nodes, Pending::Open)?;
                        ops.pop();
                        open -= 1;
                        self.advance();
                        let node = match nodes.pop() {
                            // Redundant parentheses are noted, not nested (see `paren_operand`).
                            Some(Node::Cond(c)) if matches!(c, Condition::Paren(_)) => {
                                self.redundant = true;
                                Node::Cond(c)
                            }
                            Some(Node::Cond(c)) => Node::Cond(Condition::Paren(Box::new(c))),
                            Some(Node::Operand(op)) => {
                                let left = paren_operand(op, &mut self.redundant);
                                self.comparison(left)?
                            }
                            None => return self.error(),
                        };
                        nodes.push(node);
                        continue;
                    }
                    _ if open > 0 => return self.error(),
                    _ => {
                        self.reduce(&mut ops, &mut nodes, Pending::Open)?;
                        return nodes.pop().map_or_else(|| self.error(), Ok);
                    }
                };
                self.reduce(&mut ops, &mut nodes, op)?;
                let left = match nodes.pop() {
                    Some(node) => self.node_to_condition(node)?,
                    None => return self.error(),
                };
                nodes.push(Node::Cond(left));
                self.advance();
                ops.push(op);
                break;
            }
        }
    }

    /// Applies the pending operators that bind at least as tightly as `next` (all of them down to the
    /// innermost open parenthesis for [`Pending::Open`]), converting their operands to conditions at
    /// the current token.
    fn reduce(&self, ops: &mut Vec<Pending>, nodes: &mut Vec<Node>, next: Pending) -> PResult<()> {
        while let Some(&top) = ops.last() {
            if top == Pending::Open || top.precedence() < next.precedence() {
                break;
            }
            ops.pop();
            let right = match nodes.pop() {
                Some(node) => self.node_to_condition(node)?,
                None => return self.error(),
            };
            let combined = match top {
                Pending::Not => Condition::Not(Box::new(right)),
                Pending::And | Pending::Or => {
                    let left = match nodes.pop() {
                        Some(node) => self.node_to_condition(node)?,
                        None => return self.error(),
                    };
                    if top == Pending::And {
                        Condition::And(Box::new(left), Box::new(right))
                    } else {
                        Condition::Or(Box::new(left), Box::new(right))
                    }
                }
                Pending::Open => return self.error(),
            };
            nodes.push(Node::Cond(combined));
        }
        Ok(())
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
        self.operand_tree(true)
    }

    fn operand(&mut self) -> PResult<Operand> {
        self.operand_tree(false)
    }

    /// A value placeholder, a path or a function call (whose arguments are operands, optionally in
    /// parentheses); the whole in parentheses when `parens` allows it. Open calls and parentheses wait
    /// on a stack.
    fn operand_tree(&mut self, parens: bool) -> PResult<Operand> {
        let mut frames: Vec<OperandFrame> = Vec::new();
        'operand: loop {
            let mut value = loop {
                match self.peek() {
                    TokenKind::LParen if parens || !frames.is_empty() => {
                        self.advance();
                        frames.push(OperandFrame::Paren);
                    }
                    TokenKind::ValuePlaceholder => {
                        let v = self.text().to_owned();
                        self.advance();
                        break Operand::Value(v);
                    }
                    TokenKind::Identifier
                        if self.tokens.get(self.pos + 1).map(|t| t.kind)
                            == Some(TokenKind::LParen) =>
                    {
                        let name = self.text().to_owned();
                        self.advance();
                        self.advance();
                        frames.push(OperandFrame::Call {
                            name,
                            args: Vec::new(),
                        });
                    }
                    TokenKind::Identifier | TokenKind::NamePlaceholder => {
                        break Operand::Path(self.path()?)
                    }
                    _ => return self.error(),
                }
            };
            loop {
                match frames.pop() {
                    None => return Ok(value),
                    Some(OperandFrame::Paren) => {
                        self.expect(TokenKind::RParen)?;
                        value = paren_operand(value, &mut self.redundant);
                    }
                    Some(OperandFrame::Call { name, mut args }) => {
                        args.push(value);
                        if self.peek() == TokenKind::Comma {
                            self.advance();
                            frames.push(OperandFrame::Call { name, args });
                            continue 'operand;
                        }
                        self.expect(TokenKind::RParen)?;
                        value = Operand::Function(Function {
                            name: Cow::Owned(name),
                            args,
                        });
                    }
                }
            }
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
        let mut elements: PathElements = smallvec::smallvec![PathElement::Name(self.name()?)];
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

    /// `term [(+|-) term]` or a parenthesised SET value, where a term is an operand, optionally in
    /// parentheses: arithmetic does not nest (`:a + (:b + :c)` and `(:a + :b) + :c` are syntax errors
    /// at their second operator, as the documented grammar `operand '+' operand` has it and DynamoDB
    /// Local answers). Open parentheses and a pending left operand wait on a stack: which `(` opens
    /// the value and which a term is only known at its `)`.
    fn set_value(&mut self) -> PResult<Operand> {
        let mut frames: Vec<SetFrame> = Vec::new();
        // Inside a `+`/`-` waiting for its right term.
        let mut in_arithmetic = false;
        'term: loop {
            while self.peek() == TokenKind::LParen {
                self.advance();
                frames.push(SetFrame::Paren);
            }
            let mut value = self.operand()?;
            loop {
                // `value` is a whole term: the right side of a pending `+`/`-`, or a left side.
                let complete = match frames.last() {
                    Some(SetFrame::Right { .. }) => {
                        let Some(SetFrame::Right { left, plus }) = frames.pop() else {
                            return self.error();
                        };
                        value = if plus {
                            Operand::Plus(Box::new(left), Box::new(value))
                        } else {
                            Operand::Minus(Box::new(left), Box::new(value))
                        };
                        in_arithmetic = false;
                        true
                    }
                    _ => false,
                };
                if !complete {
                    let plus = match self.peek() {
                        TokenKind::Plus => Some(true),
                        TokenKind::Minus => Some(false),
                        _ => None,
                    };
                    if let Some(plus) = plus {
                        let arithmetic =
                            matches!(value.unparen(), Operand::Plus(..) | Operand::Minus(..));
                        if in_arithmetic || arithmetic {
                            return self.error();
                        }
                        in_arithmetic = true;
                        self.advance();
                        frames.push(SetFrame::Right { left: value, plus });
                        continue 'term;
                    }
                }
                // A whole SET value: the request's, or the inside of a parenthesised term.
                match frames.pop() {
                    None => return Ok(value),
                    Some(SetFrame::Paren) => {
                        self.expect(TokenKind::RParen)?;
                        value = paren_operand(value, &mut self.redundant);
                    }
                    Some(SetFrame::Right { .. }) => return self.error(),
                }
            }
        }
    }

    fn value_action(&mut self) -> PResult<ValueAction> {
        let path = self.path()?;
        if self.peek() != TokenKind::ValuePlaceholder {
            return self.error();
        }
        let value = Operand::Value(self.text().to_owned());
        self.advance();
        Ok(ValueAction { path, value })
    }
}

/// Parses a ConditionExpression, FilterExpression or (before narrowing) KeyConditionExpression.
pub(crate) fn parse_condition(source: &str) -> Result<Parsed<Condition>, ParseError> {
    let mut p = Parser::new(source)?;
    let node = p.condition()?;
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
