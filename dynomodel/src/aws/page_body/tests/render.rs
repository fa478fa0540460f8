//! Random pages in DynamoDB JSON, rendered with random escapes, whitespace and members around
//! `Items`.

use proptest::prelude::*;

use crate::value::Number;

/// A value as it stands in the body (numbers as their text, which may be one DynamoDB refuses).
#[derive(Debug, Clone)]
pub(super) enum Wire {
    S(String),
    N(String),
    B(Vec<u8>),
    Bool(bool),
    Null(bool),
    Ss(Vec<String>),
    Ns(Vec<String>),
    Bs(Vec<Vec<u8>>),
    L(Vec<Wire>),
    M(Vec<(String, Wire)>),
}

/// How a page is rendered: the seed of its choices, and how often it escapes a character that
/// needs none (0: never) and puts whitespace between tokens (0: never), each out of 8.
#[derive(Debug, Clone, Copy)]
pub(super) struct Rendering {
    seed: u64,
    escapes: u64,
    spaces: u64,
}

impl Rendering {
    /// No escape that is not needed, no whitespace.
    pub(super) fn plain() -> Rendering {
        Rendering {
            seed: 1,
            escapes: 0,
            spaces: 0,
        }
    }
}

impl Arbitrary for Rendering {
    type Parameters = ();
    type Strategy = BoxedStrategy<Rendering>;

    fn arbitrary_with((): ()) -> Self::Strategy {
        (any::<u64>(), 0u64..4, 0u64..4)
            .prop_map(|(seed, escapes, spaces)| Rendering {
                seed,
                escapes,
                spaces,
            })
            .boxed()
    }
}

/// A string: any characters, or mostly the ones JSON escapes.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![".{0,6}", "[ab\"\\\\/\\n\\t\\u{0}-\\u{1f}\\u{7f}é€😀]{0,5}"]
}

/// A number's text: canonical, in exponent form (possibly out of DynamoDB's range), or short.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (any::<bool>(), 0u128..10u128.pow(38), -130i32..90).prop_filter_map(
            "in DynamoDB's range",
            |(negative, c, e)| Number::try_from_parts(negative, c, e)
                .ok()
                .map(|n| n.to_string())
        ),
        ("-?[0-9]{1,40}", "[eE]", -140i32..140)
            .prop_map(|(c, e, exponent)| format!("{c}{e}{exponent}")),
        "-?[0-9]{1,3}(\\.[0-9]{0,3})?",
    ]
}

fn bytes() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..8)
}

/// Any value, documents nested a few levels.
fn value() -> impl Strategy<Value = Wire> {
    let leaf = prop_oneof![
        text().prop_map(Wire::S),
        number().prop_map(Wire::N),
        bytes().prop_map(Wire::B),
        any::<bool>().prop_map(Wire::Bool),
        any::<bool>().prop_map(Wire::Null),
        proptest::collection::vec(text(), 0..4).prop_map(Wire::Ss),
        proptest::collection::vec(number(), 0..4).prop_map(Wire::Ns),
        proptest::collection::vec(bytes(), 0..3).prop_map(Wire::Bs),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Wire::L),
            proptest::collection::btree_map(text(), inner, 0..4)
                .prop_map(|m| Wire::M(m.into_iter().collect())),
        ]
    })
}

/// An item: distinct names (a duplicated one is a fixed case: the reader leaves it).
pub(super) fn item() -> impl Strategy<Value = Vec<(String, Wire)>> {
    proptest::collection::btree_map(text(), value(), 0..6).prop_map(|m| m.into_iter().collect())
}

/// A Query body of `items`, with some of the other members of a Query response before and after.
pub(super) fn body(items: &[Vec<(String, Wire)>], rendering: Rendering) -> String {
    response(
        "Items",
        &[
            "Count",
            "ScannedCount",
            "LastEvaluatedKey",
            "ConsumedCapacity",
        ],
        items,
        rendering,
    )
}

/// A GetItem body of `item`, with or without `ConsumedCapacity` before or after it.
pub(super) fn get_body(item: &[(String, Wire)], rendering: Rendering) -> String {
    response(
        "Item",
        &["ConsumedCapacity"],
        std::slice::from_ref(&item.to_vec()),
        rendering,
    )
}

/// A response body of `member` (`Items`, or `Item`: the first of `items`), with some of `others`.
fn response(
    member: &str,
    others: &[&'static str],
    items: &[Vec<(String, Wire)>],
    rendering: Rendering,
) -> String {
    let mut out = Out {
        text: String::new(),
        state: rendering.seed | 1,
        rendering,
    };
    let mut members: Vec<&str> = vec![member];
    for &other in others {
        if out.one_in(2) {
            let at = out.below(members.len() as u64 + 1) as usize;
            members.insert(at, other);
        }
    }
    out.space();
    out.text.push('{');
    for (i, member) in members.into_iter().enumerate() {
        if i > 0 {
            out.text.push(',');
        }
        out.space();
        out.string(member);
        out.space();
        out.text.push(':');
        out.space();
        match member {
            "Items" => {
                out.text.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.text.push(',');
                    }
                    out.space();
                    out.map(item);
                    out.space();
                }
                out.text.push(']');
            }
            "Item" => out.map(&items[0]),
            "Count" | "ScannedCount" => out.text.push_str(&items.len().to_string()),
            "LastEvaluatedKey" => out.map(&[
                ("pk".to_owned(), Wire::S("last".into())),
                ("sk".to_owned(), Wire::N("7".into())),
            ]),
            _ => out
                .text
                .push_str(r#"{"TableName":"t","CapacityUnits":1.5}"#),
        }
        out.space();
    }
    out.text.push('}');
    out.space();
    out.text
}

/// The text being rendered and the random choices (xorshift: reproducible from the seed).
struct Out {
    text: String,
    state: u64,
    rendering: Rendering,
}

impl Out {
    fn below(&mut self, n: u64) -> u64 {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        self.state % n
    }

    fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }

    /// Whitespace between tokens, as often as the rendering says.
    fn space(&mut self) {
        while self.below(8) < self.rendering.spaces {
            let space = [' ', '\t', '\n', '\r'][self.below(4) as usize];
            self.text.push(space);
        }
    }

    /// A JSON string of `s`: what JSON requires escaped, escaped (short or `\u` form), and other
    /// characters escaped as often as the rendering says (`\u`, upper or lower case, surrogate
    /// pairs beyond the BMP, `\/`).
    fn string(&mut self, s: &str) {
        self.text.push('"');
        for c in s.chars() {
            let needed = c == '"' || c == '\\' || c < ' ';
            if !needed && self.below(8) >= self.rendering.escapes {
                self.text.push(c);
                continue;
            }
            let short = match c {
                '"' => Some('"'),
                '\\' => Some('\\'),
                '/' => Some('/'),
                '\u{8}' => Some('b'),
                '\u{c}' => Some('f'),
                '\n' => Some('n'),
                '\r' => Some('r'),
                '\t' => Some('t'),
                _ => None,
            };
            match short {
                Some(short) if self.one_in(2) => {
                    self.text.push('\\');
                    self.text.push(short);
                }
                _ => {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        let escape = if self.one_in(2) {
                            format!("\\u{unit:04x}")
                        } else {
                            format!("\\u{unit:04X}")
                        };
                        self.text.push_str(&escape);
                    }
                }
            }
        }
        self.text.push('"');
    }

    /// An item or an `M` value's map.
    fn map(&mut self, attributes: &[(String, Wire)]) {
        self.text.push('{');
        for (i, (name, value)) in attributes.iter().enumerate() {
            if i > 0 {
                self.text.push(',');
            }
            self.space();
            self.string(name);
            self.space();
            self.text.push(':');
            self.space();
            self.value(value);
            self.space();
        }
        self.text.push('}');
    }

    fn array<T>(&mut self, elements: &[T], mut element: impl FnMut(&mut Out, &T)) {
        self.text.push('[');
        for (i, e) in elements.iter().enumerate() {
            if i > 0 {
                self.text.push(',');
            }
            self.space();
            element(self, e);
            self.space();
        }
        self.text.push(']');
    }

    /// A value object; its type name may be escaped too, and a binary's text as well (which the
    /// SDK, decoding the escaped text, refuses).
    fn value(&mut self, value: &Wire) {
        let kind = match value {
            Wire::S(_) => "S",
            Wire::N(_) => "N",
            Wire::B(_) => "B",
            Wire::Bool(_) => "BOOL",
            Wire::Null(_) => "NULL",
            Wire::Ss(_) => "SS",
            Wire::Ns(_) => "NS",
            Wire::Bs(_) => "BS",
            Wire::L(_) => "L",
            Wire::M(_) => "M",
        };
        self.text.push('{');
        self.space();
        self.string(kind);
        self.space();
        self.text.push(':');
        self.space();
        match value {
            Wire::S(s) | Wire::N(s) => self.string(s),
            Wire::B(b) => self.string(&aws_smithy_types::base64::encode(b)),
            Wire::Bool(b) | Wire::Null(b) => self.text.push_str(if *b { "true" } else { "false" }),
            Wire::Ss(v) | Wire::Ns(v) => self.array(v, |out, s| out.string(s)),
            Wire::Bs(v) => self.array(v, |out, b| out.string(&aws_smithy_types::base64::encode(b))),
            Wire::L(v) => self.array(v, Out::value),
            Wire::M(m) => self.map(m),
        }
        self.space();
        self.text.push('}');
    }
}
