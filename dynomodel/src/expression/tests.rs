//! Rendering tests for conditions built from field handles: exact strings, names and values.
//!
//! The models are written by hand: the derive is not needed to produce handles.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::Error;
use crate::expression::{AttributeType, Condition, ExpressionContext};
use crate::model::Field;
use crate::value::{AttributeValue, Item, Number};

pub(crate) struct Tweet;
pub(crate) struct Author;

impl Tweet {
    pub(crate) fn likes() -> Field<Tweet, i64> {
        Field::new("likes")
    }
    pub(crate) fn views() -> Field<Tweet, u64> {
        Field::new("views")
    }
    pub(crate) fn score() -> Field<Tweet, f64> {
        Field::new("score")
    }
    pub(crate) fn text() -> Field<Tweet, String> {
        Field::new("text")
    }
    pub(crate) fn nick() -> Field<Tweet, Option<String>> {
        Field::new("nick")
    }
    pub(crate) fn tags() -> Field<Tweet, BTreeSet<String>> {
        Field::new("tags")
    }
    pub(crate) fn lucky() -> Field<Tweet, BTreeSet<i64>> {
        Field::new("lucky")
    }
    pub(crate) fn history() -> Field<Tweet, Vec<String>> {
        Field::new("history")
    }
    pub(crate) fn meta() -> Field<Tweet, BTreeMap<String, Vec<i64>>> {
        Field::new("meta")
    }
    pub(crate) fn author() -> Field<Tweet, Option<Author>> {
        Field::new("author")
    }
    pub(crate) fn flag() -> Field<Tweet, bool> {
        Field::new("flag")
    }
}

impl Author {
    pub(crate) fn name() -> Field<Author, String> {
        Field::new("name")
    }
    pub(crate) fn langs() -> Field<Author, Vec<String>> {
        Field::new("langs")
    }
}

pub(crate) fn n(v: i64) -> AttributeValue {
    AttributeValue::N(Number::from(v))
}

pub(crate) fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.to_owned())
}

fn render(c: &Condition<Tweet>) -> (String, BTreeMap<String, String>, Item) {
    let mut ctx = ExpressionContext::new();
    let text = ctx.condition(c).expect("the condition renders");
    let (names, values) = ctx.finish();
    (text, names, values)
}

fn rendered(c: &Condition<Tweet>) -> String {
    render(c).0
}

fn render_err(c: &Condition<Tweet>) -> Error {
    let mut ctx = ExpressionContext::new();
    let err = ctx.condition(c).expect_err("the condition fails to render");
    let (names, values) = ctx.finish();
    assert!(
        names.is_empty() && values.is_empty(),
        "a failed render allocates nothing"
    );
    err
}

#[test]
fn comparisons_render_with_placeholders() {
    let cases = [
        (Tweet::likes().eq(1), "#n0 = :v0"),
        (Tweet::likes().ne(1), "#n0 <> :v0"),
        (Tweet::likes().lt(1), "#n0 < :v0"),
        (Tweet::likes().le(1), "#n0 <= :v0"),
        (Tweet::likes().gt(1), "#n0 > :v0"),
        (Tweet::likes().ge(1), "#n0 >= :v0"),
    ];
    for (condition, expected) in cases {
        let (text, names, values) = render(&condition);
        assert_eq!(text, expected);
        assert_eq!(
            names,
            BTreeMap::from([("#n0".to_owned(), "likes".to_owned())])
        );
        assert_eq!(values, Item::from([(":v0".to_owned(), n(1))]));
    }
}

#[test]
fn literals_take_the_field_type_and_strings_take_str() {
    let (_, _, values) = render(&Tweet::views().ge(10));
    assert_eq!(values[":v0"], n(10));
    let (_, _, values) = render(&Tweet::score().lt(1.5));
    assert_eq!(
        values[":v0"],
        AttributeValue::N("1.5".parse().expect("a number"))
    );
    let owned = String::from("owned");
    let (_, _, values) = render(&(Tweet::text().eq("x") | Tweet::text().eq(&owned)));
    assert_eq!(values[":v0"], s("x"));
    assert_eq!(values[":v1"], s("owned"));
    assert_eq!(rendered(&Tweet::flag().eq(true)), "#n0 = :v0");
}

#[test]
fn option_fields_compare_with_plain_values() {
    let (text, names, values) = render(&Tweet::nick().eq("ada"));
    assert_eq!(text, "#n0 = :v0");
    assert_eq!(names["#n0"], "nick");
    assert_eq!(values[":v0"], s("ada"));
    let (_, _, values) = render(&Tweet::nick().begins_with(String::from("a")));
    assert_eq!(values[":v0"], s("a"));
    assert_eq!(
        rendered(&Tweet::nick().not_exists()),
        "attribute_not_exists(#n0)"
    );
}

#[test]
fn between_and_in() {
    let (text, _, values) = render(&Tweet::likes().between(1, 5));
    assert_eq!(text, "#n0 BETWEEN :v0 AND :v1");
    assert_eq!((values[":v0"].clone(), values[":v1"].clone()), (n(1), n(5)));
    let (text, _, values) = render(&Tweet::text().is_in(["a", "b", "c"]));
    assert_eq!(text, "#n0 IN (:v0, :v1, :v2)");
    assert_eq!(values[":v2"], s("c"));
    assert_eq!(text_of_in(100), "ok");
}

fn text_of_in(count: i64) -> &'static str {
    let mut ctx = ExpressionContext::new();
    match ctx.condition(&Tweet::likes().is_in(0..count)) {
        Ok(_) => "ok",
        Err(_) => "error",
    }
}

#[test]
fn in_takes_one_to_a_hundred_operands() {
    assert_eq!(text_of_in(1), "ok");
    assert_eq!(text_of_in(101), "error");
    let err = render_err(&Tweet::likes().is_in(Vec::<i64>::new()));
    assert!(matches!(err, Error::Validation { .. }), "{err:?}");
    assert!(err.message().contains("operand count: 0"), "{err}");
}

#[test]
fn functions() {
    assert_eq!(rendered(&Tweet::text().exists()), "attribute_exists(#n0)");
    assert_eq!(
        rendered(&Tweet::text().not_exists()),
        "attribute_not_exists(#n0)"
    );
    let (text, _, values) = render(&Tweet::tags().attribute_type(AttributeType::Ss));
    assert_eq!(text, "attribute_type(#n0, :v0)");
    assert_eq!(values[":v0"], s("SS"));
    let (text, _, values) = render(&Tweet::text().begins_with("ab"));
    assert_eq!(
        (text.as_str(), &values[":v0"]),
        ("begins_with(#n0, :v0)", &s("ab"))
    );
}

#[test]
fn contains_takes_substrings_set_elements_and_list_elements() {
    let (text, _, values) = render(&Tweet::text().contains("sub"));
    assert_eq!(
        (text.as_str(), &values[":v0"]),
        ("contains(#n0, :v0)", &s("sub"))
    );
    let (_, _, values) = render(&Tweet::tags().contains("rust"));
    assert_eq!(values[":v0"], s("rust"));
    let (_, _, values) = render(&Tweet::lucky().contains(7));
    assert_eq!(values[":v0"], n(7));
    let (_, _, values) = render(&Tweet::history().contains("v1"));
    assert_eq!(values[":v0"], s("v1"));
}

#[test]
fn size_compares_with_integers() {
    let (text, _, values) = render(&Tweet::tags().size().gt(2));
    assert_eq!((text.as_str(), &values[":v0"]), ("size(#n0) > :v0", &n(2)));
    assert_eq!(
        text_of(Tweet::text().size().between(1, 280)),
        "size(#n0) BETWEEN :v0 AND :v1"
    );
    assert_eq!(
        text_of(Tweet::history().index(0).size().eq(3usize)),
        "size(#n0[0]) = :v0"
    );
    for (c, op) in [
        (Tweet::text().size().ne(1), "<>"),
        (Tweet::text().size().lt(1), "<"),
        (Tweet::text().size().le(1), "<="),
        (Tweet::text().size().ge(1), ">="),
    ] {
        assert_eq!(rendered(&c), format!("size(#n0) {op} :v0"));
    }
}

fn text_of(c: Condition<Tweet>) -> String {
    rendered(&c)
}

#[test]
fn precedence_and_minimal_parentheses() {
    let a = || Tweet::likes().eq(1);
    let b = || Tweet::views().eq(2);
    let c = || Tweet::score().eq(3.0);
    let d = || Tweet::text().eq("d");
    let cases = [
        (a() & (b() | c()), "#n0 = :v0 AND (#n1 = :v1 OR #n2 = :v2)"),
        ((a() | b()) & c(), "(#n0 = :v0 OR #n1 = :v1) AND #n2 = :v2"),
        (a() | b() & c(), "#n0 = :v0 OR #n1 = :v1 AND #n2 = :v2"),
        (a() & b() | c(), "#n0 = :v0 AND #n1 = :v1 OR #n2 = :v2"),
        (a() & (b() & c()), "#n0 = :v0 AND #n1 = :v1 AND #n2 = :v2"),
        (
            (a() | b()) | (c() | d()),
            "#n0 = :v0 OR #n1 = :v1 OR #n2 = :v2 OR #n3 = :v3",
        ),
        (!(a() & b()), "NOT (#n0 = :v0 AND #n1 = :v1)"),
        (!a() & b(), "NOT #n0 = :v0 AND #n1 = :v1"),
        (
            !(a() | b()) & c(),
            "NOT (#n0 = :v0 OR #n1 = :v1) AND #n2 = :v2",
        ),
        (!!a(), "#n0 = :v0"),
        (!(!a() | b()), "NOT (NOT #n0 = :v0 OR #n1 = :v1)"),
        (
            (a() | b()) & (c() | d()),
            "(#n0 = :v0 OR #n1 = :v1) AND (#n2 = :v2 OR #n3 = :v3)",
        ),
        (
            a().and(b()).or(c().not()),
            "#n0 = :v0 AND #n1 = :v1 OR NOT #n2 = :v2",
        ),
    ];
    for (condition, expected) in cases {
        let rendered = rendered(&condition);
        assert_eq!(rendered, expected);
        assert!(
            !rendered.contains("(("),
            "no redundant parentheses in {rendered}"
        );
    }
}

#[test]
fn names_are_reused_within_and_across_expressions() {
    let c = Tweet::likes().gt(1) & Tweet::likes().lt(9) & Tweet::meta().key("likes").exists();
    let (text, names, _) = render(&c);
    assert_eq!(
        text,
        "#n0 > :v0 AND #n0 < :v1 AND attribute_exists(#n1.#n0)"
    );
    assert_eq!(names.len(), 2);
}

#[test]
fn nested_paths_alias_every_element() {
    let (text, names, _) = render(&Tweet::meta().key("a").index(2).eq(5));
    assert_eq!(text, "#n0.#n1[2] = :v0");
    assert_eq!(names["#n1"], "a");
    let c = Tweet::author().then(Author::langs()).index(0).eq("fr")
        & Tweet::author().then(Author::name()).begins_with("A");
    assert_eq!(text_of(c), "#n0.#n1[0] = :v0 AND begins_with(#n0.#n2, :v1)");
    // Reserved words and odd characters need nothing special: every element is a placeholder.
    let (text, names, _) = render(&Tweet::meta().key("size.of #x").exists());
    assert_eq!(text, "attribute_exists(#n0.#n1)");
    assert_eq!(names["#n1"], "size.of #x");
}

#[test]
fn conversion_errors_surface_at_render_time() {
    let err = render_err(&(Tweet::likes().eq(1) & Tweet::score().gt(f64::NAN)));
    match err {
        Error::Conversion(e) => assert_eq!(e.path, "score"),
        other => panic!("expected a conversion error, got {other:?}"),
    }
    let err = render_err(&Tweet::tags().eq(BTreeSet::new()));
    assert!(matches!(err, Error::Validation { .. }), "{err:?}");
    assert!(err.message().contains("`tags`"), "{err}");
}

#[test]
fn key_conditions_accept_only_their_grammar() {
    let mut ctx = ExpressionContext::new();
    let ok = [
        Tweet::text().eq("u") & Tweet::likes().between(1, 2),
        Tweet::text().eq("u") & Tweet::likes().le(3),
        Tweet::text().eq("u"),
    ];
    for c in ok {
        assert!(ctx.key_condition(&c).is_ok(), "{c:?}");
    }
    let bad = [
        (Tweet::text().eq("u") | Tweet::likes().eq(1), "OR"),
        (!Tweet::text().eq("u"), "NOT"),
        (Tweet::likes().is_in([1]), "IN"),
        (Tweet::likes().ne(1), "<>"),
        (Tweet::text().exists(), "attribute_exists"),
        (Tweet::text().size().eq(1), "size"),
    ];
    for (c, operator) in bad {
        let err = ctx.key_condition(&c).expect_err("not a key condition");
        assert_eq!(
            err.message(),
            format!("Invalid operator used in KeyConditionExpression: {operator}")
        );
    }
    let three = Tweet::text().eq("u") & Tweet::likes().gt(1) & Tweet::likes().lt(3);
    let err = ctx.key_condition(&three).expect_err("three conditions");
    assert!(err.message().contains("length 1 or 2"), "{err}");
}

#[test]
fn a_failed_condition_leaves_the_context_usable() {
    let mut ctx = ExpressionContext::new();
    assert!(ctx.condition(&Tweet::score().eq(f64::INFINITY)).is_err());
    assert_eq!(
        ctx.condition(&Tweet::likes().eq(1)).expect("renders"),
        "#n0 = :v0"
    );
    let (names, values) = ctx.finish();
    assert_eq!((names.len(), values.len()), (1, 1));
}

#[test]
fn expressions_over_four_kilobytes_are_rejected() {
    let mut c = Tweet::likes().eq(0);
    for i in 1..400 {
        c = c | Tweet::likes().eq(i);
    }
    let err = render_err(&c);
    assert!(
        err.message().contains("Expression size has exceeded"),
        "{err}"
    );
}

#[test]
fn a_members_entity_check_is_anded_with_the_read_filter() {
    let mut ctx = ExpressionContext::new();
    let filter = Tweet::likes().ge(10i64) | Tweet::text().eq("x");
    let rendered = ctx.filter(Some(&filter), Some(("_et", "Tweet"))).unwrap();
    // Parenthesized: AND binds tighter than OR.
    assert_eq!(
        rendered.as_deref(),
        Some("(#n0 >= :v0 OR #n1 = :v1) AND #n2 = :v2")
    );
    let (names, values) = ctx.finish();
    assert_eq!(names["#n2"], "_et");
    assert_eq!(values[":v2"], AttributeValue::S("Tweet".into()));

    let mut ctx = ExpressionContext::new();
    let alone = ctx.filter::<Tweet>(None, Some(("type", "Tweet"))).unwrap();
    assert_eq!(alone.as_deref(), Some("#n0 = :v0"));
    let mut ctx = ExpressionContext::new();
    assert_eq!(ctx.filter::<Tweet>(None, None).unwrap(), None);
    let user_only = ctx.filter(Some(&Tweet::likes().ge(1i64)), None).unwrap();
    assert_eq!(user_only.as_deref(), Some("#n0 >= :v0"));
}
