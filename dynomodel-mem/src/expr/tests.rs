//! End-to-end tests of the expression module: parse → validate → evaluate / apply, with the messages
//! measured on DynamoDB Local (see the module docs for where real DynamoDB differs).

use std::collections::BTreeMap;

use dynomodel::{AttributeValue, Item, Number};
use proptest::prelude::*;

use super::parser::MAX_EXPRESSION_BYTES;
use super::*;
use crate::validate::SetTables;

fn num(s: &str) -> AttributeValue {
    AttributeValue::N(s.parse::<Number>().unwrap_or_default())
}

fn s(x: &str) -> AttributeValue {
    AttributeValue::S(x.to_owned())
}

fn values() -> BTreeMap<String, AttributeValue> {
    [
        (":s", s("x")),
        (":t", s("y")),
        (":n", num("1")),
        (":l", AttributeValue::L(vec![s("q")])),
        (":m", AttributeValue::M(BTreeMap::new())),
        (":ss", AttributeValue::Ss(vec!["a".into()])),
        (":ssab", AttributeValue::Ss(vec!["a".into(), "b".into()])),
        (":big", num("1e125")),
        (":h", s("hé")),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect()
}

fn names() -> BTreeMap<String, String> {
    [("#x", "x"), ("#pk", "pk")]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

/// Parses and validates; the error message, or "OK".
fn check(kind: ExprKind, text: &str) -> String {
    let (n, v) = (names(), values());
    let ph = Placeholders {
        names: &n,
        values: &v,
    };
    let mut usage = Usage::default();
    let origin = Origin::Request;
    let result = parse(kind, text, origin).and_then(|e| match e {
        Expression::Condition(c) => validate::validate_condition(kind, &c, ph, &mut usage, origin),
        Expression::Update(u) => validate::validate_update(&u, ph, &mut usage, origin),
        Expression::Projection(p) => validate::validate_projection(&p, ph, &mut usage, origin),
    });
    match result {
        Ok(()) => "OK".to_owned(),
        Err(e) => e.message(),
    }
}

fn item() -> Item {
    let mut m = BTreeMap::new();
    m.insert("x".to_owned(), num("1"));
    [
        ("pk", s("a")),
        ("s", s("héllo")),
        ("n", num("5")),
        ("big", num(&"9".repeat(38))),
        (
            "l",
            AttributeValue::L((0..6).map(|i| num(&i.to_string())).collect()),
        ),
        ("m", AttributeValue::M(m)),
        ("ss", AttributeValue::Ss(vec!["a".into(), "b".into()])),
        ("b", AttributeValue::B(vec![1, 2])),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect()
}

fn holds(text: &str) -> bool {
    let (n, v) = (names(), values());
    let ph = Placeholders {
        names: &n,
        values: &v,
    };
    match parse(ExprKind::Condition, text, Origin::Request) {
        Ok(Expression::Condition(c)) => eval::evaluate(&c.tree, &item(), &ph),
        other => panic!("{text}: {other:?}"),
    }
}

fn updated(text: &str) -> Result<update::Updated, String> {
    let (n, v) = (names(), values());
    let ph = Placeholders {
        names: &n,
        values: &v,
    };
    match parse(ExprKind::Update, text, Origin::Request) {
        Ok(Expression::Update(u)) => update::check_key_attributes(&u.tree, &ph, &["pk"])
            .and_then(|()| {
                update::apply(
                    std::borrow::Cow::Borrowed(&u.tree),
                    item(),
                    &ph,
                    true,
                    &SetTables::default(),
                    Item::new(),
                )
            })
            .map_err(|e| e.message()),
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn canonical_expressions_print_back() {
    for text in [
        "a = :s",
        "a.b[2].#x <> :s",
        "NOT a = :s AND (b < :s OR c >= :t)",
        "a BETWEEN :s AND :t",
        "a IN (:s, :t, b)",
        "begins_with(a, :s) AND size(l) > :n",
        "(size(a)) = :n",
    ] {
        match parse(ExprKind::Condition, text, Origin::Request) {
            Ok(Expression::Condition(c)) => assert_eq!(c.tree.to_string(), text),
            other => panic!("{text}: {other:?}"),
        }
    }
    for text in [
        "SET a = :s, b = c + :n REMOVE d[1] ADD e :n DELETE f :ss",
        "SET a = list_append(if_not_exists(a, :l), :l)",
        "SET a = (b - :n)",
    ] {
        match parse(ExprKind::Update, text, Origin::Request) {
            Ok(Expression::Update(u)) => assert_eq!(u.tree.to_string(), text),
            other => panic!("{text}: {other:?}"),
        }
    }
    match parse(ExprKind::Projection, "a, b.c[3], #x", Origin::Request) {
        Ok(Expression::Projection(p)) => assert_eq!(p.tree.to_string(), "a, b.c[3], #x"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_path_of_one_step_holds_it_inline_and_longer_ones_spill() {
    let Ok(Expression::Projection(p)) = parse(
        ExprKind::Projection,
        "a, #x, b.c, d[0], e.f[1].g",
        Origin::Request,
    ) else {
        panic!("the projection parses");
    };
    let spilled: Vec<(String, usize, bool)> = p
        .tree
        .paths
        .iter()
        .map(|path| {
            (
                path.to_string(),
                path.elements.len(),
                path.elements.spilled(),
            )
        })
        .collect();
    assert_eq!(
        spilled,
        [
            ("a".into(), 1, false),
            ("#x".into(), 1, false),
            ("b.c".into(), 2, true),
            ("d[0]".into(), 2, true),
            ("e.f[1].g".into(), 4, true),
        ]
    );
    // Inline or not, a path reads the item alike.
    assert!(holds(
        "attribute_exists(pk) AND attribute_exists(m.x) AND attribute_exists(l[5])"
    ));
    assert!(!holds("attribute_exists(nope)"));
    assert!(!holds("attribute_exists(m.y)"));
    assert!(!holds("attribute_exists(l[6])"));
}

#[test]
fn resolved_steps_of_one_name_are_inline_and_longer_ones_spill() {
    let Ok(Expression::Projection(p)) = parse(
        ExprKind::Projection,
        "a, #x, b.c, d[0], #undefined",
        Origin::Request,
    ) else {
        panic!("the projection parses");
    };
    let names: BTreeMap<String, String> = [("#x".to_owned(), "x.y".to_owned())].into();
    let values = BTreeMap::new();
    let ph = Placeholders {
        names: &names,
        values: &values,
    };
    let resolved: Vec<Option<(Vec<eval::Step>, bool)>> = p
        .tree
        .paths
        .iter()
        .map(|path| eval::resolve(path, &ph).map(|s| (s.to_vec(), s.spilled())))
        .collect();
    let key = |k: &str| eval::Step::Key(k.to_owned());
    assert_eq!(
        resolved,
        [
            Some((vec![key("a")], false)),
            // A placeholder's name is one step, dots and all.
            Some((vec![key("x.y")], false)),
            Some((vec![key("b"), key("c")], true)),
            Some((vec![key("d"), eval::Step::Index(0)], true)),
            // An undefined placeholder resolves to nothing (validation reports it).
            None,
        ]
    );
}

#[test]
fn precedence() {
    let Ok(Expression::Condition(c)) = parse(
        ExprKind::Condition,
        "a = :a OR b = :b AND c = :c",
        Origin::Request,
    ) else {
        panic!("parses")
    };
    assert!(matches!(&c.tree, ast::Condition::Or(_, r) if matches!(**r, ast::Condition::And(..))));
    let Ok(Expression::Condition(c)) = parse(
        ExprKind::Condition,
        "NOT a = :a AND b = :b",
        Origin::Request,
    ) else {
        panic!("parses")
    };
    assert!(matches!(&c.tree, ast::Condition::And(l, _) if matches!(**l, ast::Condition::Not(_))));
}

#[test]
fn syntax_errors_match_dynamodb() {
    let cases = [
        (
            "a b",
            "Invalid ConditionExpression: Syntax error; token: \"b\", near: \"a b\"",
        ),
        (
            "!!!",
            "Invalid ConditionExpression: Syntax error; token: \"!\", near: \"!!\"",
        ),
        (
            "a = ",
            "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"= \"",
        ),
        (
            "a = :s AND",
            "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"AND\"",
        ),
        (
            "a === :s",
            "Invalid ConditionExpression: Syntax error; token: \"=\", near: \"===\"",
        ),
        (
            "a = 1abc",
            "Invalid ConditionExpression: Syntax error; token: \"1\", near: \"= 1abc\"",
        ),
        (
            "a[-1] = :s",
            "Invalid ConditionExpression: Syntax error; token: \"-\", near: \"[-1\"",
        ),
        (
            "_a = :s",
            "Invalid ConditionExpression: Syntax error; token: \"_\", near: \"_a\"",
        ),
        (
            "NOT a",
            "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"a\"",
        ),
        (
            "a = b = c",
            "Invalid ConditionExpression: Syntax error; token: \"=\", near: \"b = c\"",
        ),
        (
            "remove = :s",
            "Invalid ConditionExpression: Syntax error; token: \"remove\", near: \"remove =\"",
        ),
        (
            "a IN ()",
            "Invalid ConditionExpression: Syntax error; token: \")\", near: \"()\"",
        ),
        (
            "a IN :s",
            "Invalid ConditionExpression: Syntax error; token: \":s\", near: \"IN :s\"",
        ),
        (
            "",
            "Invalid ConditionExpression: The expression can not be empty;",
        ),
        (
            "   ",
            "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"   \"",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(check(ExprKind::Condition, text), want, "{text}");
    }
    assert_eq!(
        check(ExprKind::Update, "SET a = b + c + d"),
        "Invalid UpdateExpression: Syntax error; token: \"+\", near: \"c + d\""
    );
    assert_eq!(
        check(ExprKind::Update, "SET a = :s,"),
        "Invalid UpdateExpression: Syntax error; token: \"<EOF>\", near: \",\""
    );
    assert_eq!(
        check(ExprKind::Projection, "a,"),
        "Invalid ProjectionExpression: Syntax error; token: \"<EOF>\", near: \",\""
    );
    assert_eq!(
        check(ExprKind::Filter, "a b"),
        "Invalid FilterExpression: Syntax error; token: \"b\", near: \"a b\""
    );
}

#[test]
fn condition_validation_messages() {
    let p = "Invalid ConditionExpression: ";
    let cases = [
        ("((a = :s))", "The expression has redundant parentheses;"),
        ("a = ((:s))", "The expression has redundant parentheses;"),
        ("foo(a)", "Invalid function name; function: foo"),
        ("Size(a) = :n", "Invalid function name; function: Size"),
        ("size(a)", "The function is not allowed to be used this way in an expression; function: size"),
        ("attribute_exists(a) = :s", "The function is not allowed to be used this way in an expression; function: attribute_exists"),
        ("if_not_exists(a, :s) = :s", "The function is not allowed in a condition expression; function: if_not_exists"),
        ("begins_with(a)", "Incorrect number of operands for operator or function; operator or function: begins_with, number of operands: 1"),
        ("begins_with(a, :n)", "Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"),
        ("size(:n) = :n", "Incorrect operand type for operator or function; operator or function: size, operand type: N"),
        ("attribute_type(a, :s)", "Invalid attribute type name found; type: x, valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}"),
        ("attribute_type(a, :n)", "Incorrect operand type for operator or function; operator or function: attribute_type, operand type: N"),
        ("attribute_exists(:s)", "Operator or function requires a document path; operator or function: attribute_exists"),
        ("a = a", "The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [a]"),
        ("contains(#x, x)", "The first operand must be distinct from the remaining operands for this operator or function; operator: contains, first operand: [x]"),
        ("a BETWEEN :t AND :s", "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {S:y}, upper bound operand: AttributeValue: {S:x}"),
        ("a BETWEEN :s AND :n", "The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {S:x}, upper bound operand: AttributeValue: {N:1}"),
        ("m < :m", "Incorrect operand type for operator or function; operator or function: <, operand type: M"),
        ("name = :s", "Attribute name is a reserved keyword; reserved keyword: name"),
        ("a.name = :s", "Attribute name is a reserved keyword; reserved keyword: name"),
        ("#nope = :s", "An expression attribute name used in the document path is not defined; attribute name: #nope"),
        ("a = :nope", "An expression attribute value used in expression is not defined; attribute value: :nope"),
        ("a[99999999999999999999] = :s", "List index is not within the allowable range; index: [99999999999999999999]"),
    ];
    for (text, want) in cases {
        assert_eq!(
            check(ExprKind::Condition, text),
            format!("{p}{want}"),
            "{text}"
        );
    }
    for ok in [
        "a_1 = :s",
        "NOT NOT a = :s",
        "(a) = :s",
        "attribute_exists((a))",
        "size(:s) = :n",
        "contains(:s, a)",
    ] {
        assert_eq!(check(ExprKind::Condition, ok), "OK", "{ok}");
    }
}

#[test]
fn limits() {
    let ops = |n: usize| vec!["a = :s"; n].join(" AND ");
    assert_eq!(check(ExprKind::Condition, &ops(150)), "OK");
    assert_eq!(check(ExprKind::Condition, &ops(151)), "Invalid ConditionExpression: The expression contains too many operators; operator count: 301");
    let list = |n: usize| format!("a IN ({})", vec![":s"; n].join(","));
    assert_eq!(check(ExprKind::Condition, &list(100)), "OK");
    assert_eq!(check(ExprKind::Condition, &list(101)), "Invalid ConditionExpression: The IN operator is provided with too many operands; number of operands: 101");
    let big = format!("a = :s{}", " ".repeat(4091));
    assert_eq!(big.len(), 4097);
    assert_eq!(
        check(ExprKind::Projection, &big[..4096].replace("= :s", "   ")),
        "OK"
    );
    assert_eq!(check(ExprKind::Condition, &big), "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: 4097");
    let deep = format!("{}a = :s{}", "(".repeat(10_000), ")".repeat(10_000));
    assert!(check(ExprKind::Condition, &deep).contains("Expression size has exceeded"));
    let deep = format!("{}a = :s{}", "(".repeat(2000), ")".repeat(2000));
    assert_eq!(
        check(ExprKind::Condition, &deep),
        "Invalid ConditionExpression: The expression has redundant parentheses;"
    );
    let nots = format!("{}a = :s", "NOT ".repeat(1000));
    assert!(check(ExprKind::Condition, &nots).contains("too many operators"));
}

#[test]
fn update_validation_messages() {
    let p = "Invalid UpdateExpression: ";
    let cases = [
        ("SET a = :s, a.b = :s", "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]"),
        ("SET a[1] = :s, a.b = :s", "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, [1]], path two: [a, b]"),
        ("SET a = :s REMOVE a", "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]"),
        ("SET a = :s SET b = :s", "The \"SET\" section can only be used once in an update expression;"),
        ("SET a = size(b)", "The function is not allowed in an update expression; function: size"),
        ("SET a = foo(b)", "Invalid function name; function: foo"),
        ("SET a = LIST_APPEND(a, :l)", "Invalid function name; function: LIST_APPEND"),
        ("SET a = if_not_exists(:s, :s)", "Operator or function requires a document path; operator or function: if_not_exists"),
        ("SET a = if_not_exists(a)", "Incorrect number of operands for operator or function; operator or function: if_not_exists, number of operands: 1"),
        ("SET a = list_append(:s, :l)", "Incorrect operand type for operator or function; operator or function: list_append, operand type: S"),
        ("SET a = :s + :n", "Incorrect operand type for operator or function; operator or function: +, operand type: S"),
        ("ADD a :s", "Incorrect operand type for operator or function; operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND"),
        ("ADD a :l", "Incorrect operand type for operator or function; operator: ADD, operand type: LIST, typeSet: ALLOWED_FOR_ADD_OPERAND"),
        ("DELETE a :n", "Incorrect operand type for operator or function; operator: DELETE, operand type: NUMBER, typeSet: ALLOWED_FOR_DELETE_OPERAND"),
        ("SET name = :s", "Attribute name is a reserved keyword; reserved keyword: name"),
        ("SET a = ((:s))", "The expression has redundant parentheses;"),
        ("REMOVE a[0], a[0]", "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a, [0]], path two: [a, [0]]"),
    ];
    for (text, want) in cases {
        assert_eq!(
            check(ExprKind::Update, text),
            format!("{p}{want}"),
            "{text}"
        );
    }
    assert_eq!(check(ExprKind::Update, "set a = (:s)"), "OK");
    // Arithmetic takes operands, optionally in parentheses, and the whole value may be in
    // parentheses; arithmetic inside arithmetic is a syntax error at its operator (DynamoDB Local
    // 3.3.1's answers; the documented grammar is `operand '+' operand`).
    for text in [
        "SET a = (:n + :n)",
        "SET a = (:n) + (:n)",
        "SET a = ((:n) - :n)",
    ] {
        assert_eq!(check(ExprKind::Update, text), "OK", "{text}");
    }
    for (text, op, near) in [
        ("SET a = :n + (:n + :n)", "+", ":n + :n"),
        ("SET a = (:n + :n) + :n", "+", ") + :n"),
        ("SET a = :n + :n + :n", "+", ":n + :n"),
        ("SET a = :n - (:n - (:n + :n))", "-", ":n - ("),
    ] {
        assert_eq!(
            check(ExprKind::Update, text),
            format!("{p}Syntax error; token: \"{op}\", near: \"{near}\""),
            "{text}"
        );
    }
    assert_eq!(check(ExprKind::Projection, "a.b, a"), "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a, b], path two: [a]");
    assert_eq!(check(ExprKind::Projection, "a, name"), "Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: name");
}

#[test]
fn unused_placeholders() {
    let (n, v) = (names(), values());
    let ph = Placeholders {
        names: &n,
        values: &v,
    };
    let mut usage = Usage::default();
    usage.names.insert("#x".into());
    let e = check_unused(&ph, &usage).map_err(|e| e.message());
    assert_eq!(
        e,
        Err(
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {#pk}"
                .to_owned()
        )
    );
    usage.names.insert("#pk".into());
    let e = check_unused(&ph, &usage).map_err(|e| e.message());
    // Listed in java.util.HashSet order, as DynamoDB prints the set (see java_order.rs).
    let message = e.expect_err("values are unused");
    assert!(
        message.starts_with(
            "Value provided in ExpressionAttributeValues unused in expressions: keys: {"
        ),
        "{message}"
    );
    assert!(message.contains(":big"), "{message}");
}

/// Tens of thousands of unused names that all share Java's `String.hashCode` (and so one bucket of
/// the ordering DynamoDB prints): each is listed once, in the map's order within that bucket, and the
/// used one is not.
#[test]
fn many_colliding_unused_names_are_each_listed_once() {
    let keys: Vec<String> = crate::storage::request_hash::colliding_names(16)
        .into_iter()
        .map(|n| format!("#{n}"))
        .collect();
    let n: BTreeMap<String, String> = keys.iter().map(|k| (k.clone(), "a".into())).collect();
    let v = BTreeMap::new();
    let ph = Placeholders {
        names: &n,
        values: &v,
    };
    let mut usage = Usage::default();
    let used = keys[12_345].clone();
    usage.names.insert(used.clone());
    let message = check_unused(&ph, &usage)
        .map_err(|e| e.message())
        .unwrap_err();
    let listed: Vec<&str> = n
        .keys()
        .map(String::as_str)
        .filter(|k| *k != used)
        .collect();
    assert_eq!(
        message,
        format!(
            "Value provided in ExpressionAttributeNames unused in expressions: keys: {{{}}}",
            listed.join(", ")
        )
    );
}

/// The unused keys are the map's keys less the used ones, whichever of the two runs out first.
#[test]
fn unused_keys_walk_both_sorted_sequences() {
    let map: BTreeMap<String, String> = ["#a", "#b", "#c", "#d", "#e"]
        .iter()
        .map(|k| ((*k).to_owned(), String::new()))
        .collect();
    let cases: [(&[&str], &[&str]); 5] = [
        (&[], &["#a", "#b", "#c", "#d", "#e"]),
        (&["#a", "#c", "#e"], &["#b", "#d"]),
        (&["#0", "#b", "#bb", "#e", "#z"], &["#a", "#c", "#d"]),
        (&["#a", "#b", "#c", "#d", "#e"], &[]),
        (&["#z"], &["#a", "#b", "#c", "#d", "#e"]),
    ];
    for (used, want) in cases {
        let used: BTreeSet<String> = used.iter().map(|u| (*u).to_owned()).collect();
        assert_eq!(super::unused_keys(&map, &used), want, "{used:?}");
    }
}

#[test]
fn evaluation_table() {
    let cases = [
        ("n = :n", false),
        ("n <> :n", true),
        ("n > :n", true),
        ("n >= :n", true),
        ("n < :n", false),
        ("n <= :n", false),
        ("s > :s", false),
        ("s < :s", true),
        ("n < :s", false),
        ("n = :s", false),
        ("nope = :n", false),
        ("nope <> :n", true),
        ("nope < :n", false),
        ("n BETWEEN :n AND :n", false),
        ("s BETWEEN :h AND :s", true),
        ("n IN (:s, :n)", false),
        ("s IN (:s, s)", true),
        ("attribute_exists(m.x)", true),
        ("attribute_exists(l[9])", false),
        ("attribute_not_exists(nope)", true),
        ("attribute_type(ss, :ss)", false),
        ("begins_with(s, :h)", true),
        ("begins_with(n, :h)", false),
        ("contains(s, :s)", false),
        ("contains(ss, :s)", false),
        ("contains(l, :n)", true),
        ("size(s) = :n", false),
        ("size(l) > :n", true),
        ("size(nope) <> :n", true),
        ("size(n) = :n", false),
        ("m.x = :n", true),
        ("l[1] = :n", true),
        ("ss = :ssab", true),
        ("NOT l[1] = :n", false),
        ("n = :n OR l[1] = :n AND m.x = :n", true),
    ];
    for (text, want) in cases {
        assert_eq!(holds(text), want, "{text}");
    }
}

#[test]
fn size_counts_characters_and_bytes() {
    assert_eq!(eval::size_of(&s("héllo")), Some(5));
    assert_eq!(eval::size_of(&AttributeValue::B(vec![1, 2])), Some(2));
    assert_eq!(eval::size_of(&num("3")), None);
}

#[test]
fn update_semantics() {
    let get = |u: &update::Updated, k: &str| u.item.get(k).cloned();
    let u = updated("SET l[10] = :n").expect("appends");
    assert_eq!(get(&u, "l").and_then(|l| l.as_l().map(<[_]>::len)), Some(7));
    let u = updated("REMOVE l[1], l[3]").expect("removes");
    assert_eq!(
        get(&u, "l"),
        Some(AttributeValue::L(vec![
            num("0"),
            num("2"),
            num("4"),
            num("5")
        ]))
    );
    let u = updated("ADD n :n, newset :ss DELETE ss :ssab").expect("adds");
    assert_eq!(get(&u, "n"), Some(num("6")));
    assert_eq!(
        get(&u, "newset"),
        Some(AttributeValue::Ss(vec!["a".into()]))
    );
    assert_eq!(get(&u, "ss"), None);
    let u = updated("SET big = big + :n, n = if_not_exists(nope, :n), l = list_append(:l, l)")
        .expect("sets");
    assert_eq!(get(&u, "big"), Some(num("1e38")));
    assert_eq!(get(&u, "n"), Some(num("1")));
    let u = updated("SET m.x = :s").expect("nested");
    let mut want = BTreeMap::new();
    want.insert("x".to_owned(), s("x"));
    let mut want_item = Item::new();
    want_item.insert("m".to_owned(), AttributeValue::M(want));
    assert_eq!(u.updated_new(), want_item);
    for (text, want) in [
        ("SET n = n + :big", "Number overflow. Attempting to store a number with magnitude larger than supported range"),
        ("SET n = s + :n", "An operand in the update expression has an incorrect data type"),
        ("SET n = nope + :n", "The provided expression refers to an attribute that does not exist in the item"),
        ("SET nope.z = :n", "The document path provided in the update expression is invalid for update"),
        ("SET s[0] = :n", "The document path provided in the update expression is invalid for update"),
        ("REMOVE nope.x", "The document path provided in the update expression is invalid for update"),
        ("ADD s :n", "An operand in the update expression has an incorrect data type"),
        ("SET #pk = :s", "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"),
    ] {
        assert_eq!(updated(text).err().as_deref(), Some(want), "{text}");
    }
    assert!(updated("REMOVE m.nope, l[10], nope").is_ok());
}

/// A literal operand is held inline (`Operand::Literal`) because a value is no larger than a function
/// call, the largest operand: the operand's size does not grow with it.
#[test]
fn a_literal_costs_an_operand_no_size() {
    use std::mem::size_of;
    assert!(size_of::<AttributeValue>() <= size_of::<ast::Function>());
    assert!(size_of::<ast::Operand>() <= size_of::<ast::Function>() + size_of::<usize>());
}

/// An update whose paths are not kept (no `UPDATED_*`, no index) writes the same item as one that
/// keeps them, top-level SET names moved rather than copied, in text order or not, below and past
/// the merge of many top-level SETs; and its failures are the same.
#[test]
fn updates_without_their_paths_write_the_same_items() {
    let many_sorted = (0..40)
        .map(|i| format!("a{i:02} = :n"))
        .collect::<Vec<_>>()
        .join(", ");
    let many_unsorted = (0..40)
        .rev()
        .map(|i| format!("a{i:02} = :s"))
        .collect::<Vec<_>>()
        .join(", ");
    let texts = [
        "SET a = :s, b = c + :n REMOVE d[1] ADD e :n DELETE f :ss",
        "SET z = :s, n = :n, m.x = :s, a = :n, l[10] = :n",
        "SET l[4] = :s, l[2] = :n REMOVE l[0]",
        "ADD n :n, newset :ss DELETE ss :ssab",
        "SET n = n + :big",
        "SET nope.z = :n",
        &format!("SET {many_sorted}"),
        &format!("SET {many_unsorted}, m.x = :n REMOVE s"),
    ];
    let (n, v) = (names(), values());
    let ph = Placeholders {
        names: &n,
        values: &v,
    };
    for text in texts {
        let Ok(Expression::Update(u)) = parse(ExprKind::Update, text, Origin::Request) else {
            panic!("{text}");
        };
        let kept = update::apply(
            std::borrow::Cow::Borrowed(&u.tree),
            item(),
            &ph,
            true,
            &SetTables::default(),
            Item::new(),
        )
        .map_err(|e| e.message());
        let moved = update::apply(
            std::borrow::Cow::Borrowed(&u.tree),
            item(),
            &ph,
            false,
            &SetTables::default(),
            Item::new(),
        )
        .map_err(|e| e.message());
        assert_eq!(
            moved.as_ref().map(|u| &u.item),
            kept.as_ref().map(|u| &u.item),
            "{text}"
        );
        if let (Ok(kept), Ok(moved)) = (&kept, &moved) {
            assert!(!kept.paths.is_empty(), "{text}");
            assert!(moved.paths.is_empty(), "{text}");
        }
    }
}

/// An update applied as owned (a legacy tree, whose names and values move into the item) writes
/// what the same tree applied borrowed writes, with its paths kept or not, and fails alike: the
/// request's texts with their placeholders, the same trees with each placeholder value given as a
/// literal (as `AttributeUpdates` gives it), an undefined name or value, a wrong path.
#[test]
fn owned_updates_write_what_borrowed_ones_write() {
    use std::borrow::Cow;
    let texts = [
        "SET a = :s, b = c + :n REMOVE d[1] ADD e :n DELETE f :ss",
        "SET z = :s, n = :n, m.x = :s, a = :n, l[10] = :n, #x = :l",
        "SET l[4] = :s, l[2] = :n REMOVE l[0], #x",
        "ADD n :n, newset :ss, ss :ssab DELETE ss :ss",
        "ADD s :n",
        "DELETE n :ss",
        "SET n = n + :big",
        "SET nope.z = :n",
        "SET #undefined = :n",
        "SET a = :undefined",
        "ADD a :undefined",
        "DELETE ss :undefined",
        "SET m.#undefined.y = :n",
        "SET a = list_append(if_not_exists(a, :l), :l), b = if_not_exists(n, :s)",
    ];
    let (n, v) = (names(), values());
    let ph = Placeholders {
        names: &n,
        values: &v,
    };
    // Each value placeholder of an action's value given as a literal, as a legacy tree gives it.
    let literal = |op: &mut ast::Operand| {
        if let ast::Operand::Value(p) = op
            && let Some(value) = v.get(p.as_str())
        {
            *op = ast::Operand::Literal(value.clone());
        }
    };
    for text in texts {
        let parsed = match parse(ExprKind::Update, text, Origin::Request) {
            Ok(Expression::Update(u)) => u.tree,
            other => panic!("{text}: {other:?}"),
        };
        let mut literals = parsed.clone();
        for clause in &mut literals.clauses {
            match clause {
                ast::Clause::Set(actions) => actions.iter_mut().for_each(|a| literal(&mut a.value)),
                ast::Clause::Add(actions) | ast::Clause::Delete(actions) => {
                    actions.iter_mut().for_each(|a| literal(&mut a.value))
                }
                ast::Clause::Remove(_) => {}
            }
        }
        for tree in [&parsed, &literals] {
            for keep in [true, false] {
                let outcome = |u: Result<update::Updated, Error>| {
                    u.map(|u| (u.item, u.paths)).map_err(|e| e.message())
                };
                let borrowed = outcome(update::apply(
                    Cow::Borrowed(tree),
                    item(),
                    &ph,
                    keep,
                    &SetTables::default(),
                    Item::new(),
                ));
                let owned = outcome(update::apply(
                    Cow::Owned(tree.clone()),
                    item(),
                    &ph,
                    keep,
                    &SetTables::default(),
                    Item::new(),
                ));
                assert_eq!(owned, borrowed, "{text} (kept: {keep}, tree: {tree:?})");
            }
        }
    }
}

#[test]
fn key_conditions() {
    let kc = |text: &str| match parse(ExprKind::KeyCondition, text, Origin::Request) {
        Ok(Expression::Condition(c)) => keycond::key_condition(&c.tree).map_err(|e| e.message()),
        other => panic!("{other:?}"),
    };
    assert_eq!(kc("pk = :s AND :t < sk").map(|k| k.terms.len()), Ok(2));
    assert!(matches!(
        kc(":t < sk").map(|k| k.terms[0].op.clone()),
        Ok(keycond::KeyOp::Gt(_))
    ));
    assert_eq!(
        kc("pk = :s OR sk = :t").err().as_deref(),
        Some("Invalid operator used in KeyConditionExpression: OR")
    );
    assert_eq!(
        kc("pk = :s AND pk = :t").err().as_deref(),
        Some("KeyConditionExpressions must only contain one condition per key")
    );
    assert_eq!(
        kc("pk = :s AND size(sk) = :n").err().as_deref(),
        Some("KeyConditionExpressions cannot contain nested operations")
    );
    assert_eq!(
        kc("pk = :s AND a = :s AND b = :s").err().as_deref(),
        Some("Conditions can be of length 1 or 2 only")
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic(text in "[ a-z#:()\\[\\]0-9,.=<>+\\-ANDORTBEWINSXMVLC_]{0,120}") {
        for kind in [ExprKind::Condition, ExprKind::KeyCondition, ExprKind::Update, ExprKind::Projection] {
            let _ = check(kind, &text);
        }
    }

    #[test]
    fn parsers_never_panic_on_any_string(text in "\\PC{0,200}") {
        for kind in [ExprKind::Condition, ExprKind::Update, ExprKind::Projection] {
            let _ = check(kind, &text);
        }
    }
}

/// The deepest expressions 4 KB can hold, and the deepest valid ones, go through parse, validation
/// and (for the valid) evaluation on a quarter of the 2 MB stack that test, Tokio and blocking-pool
/// threads get by default (debug build): no nesting a request writes can overflow the stack
/// (issue 26 fact 19).
#[test]
fn deepest_expressions_fit_a_small_stack() {
    let fill = |open: &str, inner: &str, close: &str, fixed: usize| {
        let depth = (MAX_EXPRESSION_BYTES - fixed - inner.len()) / (open.len() + close.len());
        format!("{}{inner}{}", open.repeat(depth), close.repeat(depth))
    };
    let nest = |open: &str, inner: &str, close: &str, depth: usize| {
        format!("{}{inner}{}", open.repeat(depth), close.repeat(depth))
    };
    let too_many = "Invalid ConditionExpression: The expression contains too many operators; operator count: 301";
    let cases: Vec<(ExprKind, String, &str)> = vec![
        // As deep as 4 KB allows.
        (ExprKind::Condition, fill("(", "a < :n", ")", 0), "Invalid ConditionExpression: The expression has redundant parentheses;"),
        (ExprKind::Condition, format!("{}a < :n", "NOT ".repeat((MAX_EXPRESSION_BYTES - 6) / 4)), too_many),
        (ExprKind::Condition, format!("a < {}", fill("f(", "b", ")", 4)), "Invalid ConditionExpression: Invalid function name; function: f"),
        (ExprKind::Condition, format!("a < {}", fill("size(", "b", ")", 4)), "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: size, operand type: N"),
        (ExprKind::Condition, fill("a < :n OR (", "a < :n", ")", 0), too_many),
        (ExprKind::Update, format!("SET a = {}", fill("(", ":n", ")", 8)), "Invalid UpdateExpression: The expression has redundant parentheses;"),
        // Arithmetic does not nest: the second operator is a syntax error.
        (ExprKind::Update, format!("SET a = {}", fill(":n + (", ":n", ")", 8)), "Invalid UpdateExpression: Syntax error; token: \"+\", near: \":n + (\""),
        // As deep as a valid expression goes: 227 nested calls fill 4 KB.
        (ExprKind::Update, format!("SET a = {}", fill("if_not_exists(a, ", ":n", ")", 8)), "OK"),
        (ExprKind::Update, format!("SET a = {}", nest("if_not_exists(a, (", ":n", "))", 200)), "OK"),
        (ExprKind::Condition, nest("a < :n OR (", "a < :n", ")", 149), "OK"),
        (ExprKind::Condition, nest("a < :n OR (", "a < :n", ")", 150), too_many),
        (ExprKind::Condition, format!("{}a < :n", "NOT ".repeat(299)), "OK"),
        (ExprKind::Condition, nest("(NOT ", "a < :n", ")", 299), "OK"),
    ];
    std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || {
            for (kind, text, want) in cases {
                assert!(text.len() <= MAX_EXPRESSION_BYTES, "{}", text.len());
                assert_eq!(check(kind, &text), want, "{}…", &text[..40]);
                if want != "OK" {
                    continue;
                }
                // What passes validation is evaluated too.
                let (n, v) = (names(), values());
                let ph = Placeholders {
                    names: &n,
                    values: &v,
                };
                match parse(kind, &text, Origin::Request) {
                    Ok(Expression::Condition(c)) => {
                        eval::evaluate(&c.tree, &Item::new(), &ph);
                    }
                    Ok(Expression::Update(u)) => {
                        let applied = update::apply(
                            std::borrow::Cow::Borrowed(&u.tree),
                            Item::new(),
                            &ph,
                            true,
                            &SetTables::default(),
                            Item::new(),
                        );
                        assert!(
                            applied.is_ok_and(|u| u.item.contains_key("a")),
                            "{}…",
                            &text[..40]
                        );
                    }
                    other => panic!("{other:?}"),
                }
            }
        })
        .expect("spawns")
        .join()
        .expect("no stack overflow");
}

/// A condition's paths come in source order, whether its operands are leaves taken at once or
/// nested operands walked on the stack.
#[test]
fn a_condition_s_paths_are_in_source_order() {
    let cases: [(&str, &[&str]); 7] = [
        (
            "a = :v AND begins_with(b.c, :p) AND size(d) > e",
            &["a", "b.c", "d", "e"],
        ),
        (
            "contains(x, y) OR NOT (z BETWEEN :a AND w)",
            &["x", "y", "z", "w"],
        ),
        (
            "attribute_exists(#n) AND q IN (r, :v, s)",
            &["#n", "q", "r", "s"],
        ),
        ("size(a) = size(b)", &["a", "b"]),
        ("a = b", &["a", "b"]),
        (":v = a", &["a"]),
        (
            "begins_with(a[1], :p) AND size(b) = c OR d <> :v",
            &["a[1]", "b", "c", "d"],
        ),
    ];
    for (text, want) in cases {
        let condition =
            super::parser::parse_condition(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        let mut paths = Vec::new();
        condition.tree.paths(&mut paths);
        let got: Vec<String> = paths.iter().map(ToString::to_string).collect();
        assert_eq!(got, want, "{text}");
    }
}

/// A legacy join's presence tests, taken in place (`eval::part_holds`), answer as the same parts
/// evaluated one by one: present and missing attributes, nested paths and placeholders, mixed with
/// comparisons, under AND and OR.
#[test]
fn a_joins_presence_tests_answer_as_the_parts_alone() {
    use super::ast::{Comparator, Condition, Name, Operand, Path, PathElement};
    let path = |elements: Vec<PathElement>| Path {
        elements: elements.into_iter().collect(),
    };
    let attribute = |n: &str| PathElement::Name(Name::Attribute(n.to_owned()));
    let paths = [
        path(vec![attribute("a")]),
        path(vec![attribute("zz")]),
        path(vec![
            attribute("m"),
            PathElement::Name(Name::Plain("k".into())),
        ]),
        path(vec![
            attribute("m"),
            PathElement::Name(Name::Plain("q".into())),
        ]),
        path(vec![PathElement::Name(Name::Placeholder("#x".into()))]),
        path(vec![attribute("l"), PathElement::Index("0".into())]),
        path(vec![attribute("l"), PathElement::Index("5".into())]),
    ];
    let mut parts = Vec::new();
    for p in &paths {
        for exists in [true, false] {
            parts.push(Condition::Exists(exists, p.clone()));
        }
    }
    parts.push(Condition::Compare(
        Comparator::Eq,
        Operand::Path(path(vec![attribute("a")])),
        Operand::Literal(num("1")),
    ));
    let item: Item = [
        ("a", num("1")),
        ("x", s("x")),
        ("m", AttributeValue::M([("k".to_owned(), s("v"))].into())),
        ("l", AttributeValue::L(vec![s("q")])),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    let (names, values) = (names(), values());
    let ph = Placeholders {
        names: &names,
        values: &values,
    };
    for item in [&item, &Item::new()] {
        let alone: Vec<bool> = parts
            .iter()
            .map(|c| eval::evaluate(&Condition::Paren(Box::new(c.clone())), item, &ph))
            .collect();
        // Every pair and triple of parts, joined both ways.
        for i in 0..parts.len() {
            for j in 0..parts.len() {
                for k in [None, Some(0), Some(parts.len() - 1)] {
                    let mut chosen = vec![i, j];
                    chosen.extend(k);
                    let joined: Vec<Condition> = chosen.iter().map(|&x| parts[x].clone()).collect();
                    let all = chosen.iter().all(|&x| alone[x]);
                    let any = chosen.iter().any(|&x| alone[x]);
                    assert_eq!(
                        eval::evaluate(&Condition::All(joined.clone()), item, &ph),
                        all,
                        "{chosen:?}"
                    );
                    assert_eq!(
                        eval::evaluate(&Condition::Any(joined), item, &ph),
                        any,
                        "{chosen:?}"
                    );
                }
            }
        }
        // The presence tests' own answers.
        assert_eq!(
            &alone[..paths.len() * 2],
            if item.is_empty() {
                &[
                    false, true, false, true, false, true, false, true, false, true, false, true,
                    false, true,
                ][..]
            } else {
                &[
                    true, false, false, true, true, false, false, true, true, false, true, false,
                    false, true,
                ][..]
            }
        );
    }
}
