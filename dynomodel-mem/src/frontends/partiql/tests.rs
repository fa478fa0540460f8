//! Parser unit tests, the parser's fuzz targets (fixed seeds: proptest's default deterministic
//! configuration per test name), and statements run end to end on the engine.

use dynomodel::backend::{
    Backend, BatchExecuteStatementInput, BatchStatementRequest, ExecuteStatementInput,
    ExecuteTransactionInput, ParameterizedStatement, ReturnValuesOnConditionCheckFailure,
    ScalarAttributeType,
};
use dynomodel::{AttributeValue, CancellationCode, Error, Item};
use proptest::prelude::*;

use super::ast::{CmpOp, Expr, Projection, Statement};
use super::parser::{parse, MAX_DEPTH};
use crate::tests::{backend_with, item, n, s, table_input};
use crate::MemBackend;

fn parsed(text: &str) -> Statement {
    match parse(text) {
        Ok((statement, _)) => statement,
        Err(e) => panic!("{text}: {e:?}"),
    }
}

fn parse_error(text: &str) -> String {
    match parse(text) {
        Ok(s) => panic!("{text} parsed: {s:?}"),
        Err(e) => e.0,
    }
}

#[test]
fn statements_parse() {
    let Statement::Select {
        projection,
        table,
        index,
        filter,
    } = parsed(r#"select a, "b".c[2], d['e'] FROM "t"."i" WHERE pk = ? AND NOT x IS MISSING"#)
    else {
        panic!("not a select");
    };
    assert_eq!((table.as_str(), index.as_deref()), ("t", Some("i")));
    let Projection::Paths(paths) = projection else {
        panic!("not paths")
    };
    assert_eq!(paths.len(), 3);
    assert!(matches!(filter, Some(Expr::And(..))));
    assert!(matches!(
        parsed("SELECT * FROM t"),
        Statement::Select {
            projection: Projection::All,
            ..
        }
    ));
    assert!(matches!(
        parsed("INSERT INTO t VALUE {'pk': ?, 'l': [1, -2.5e3, 'x'], 's': <<'a'>>, 'b': true};"),
        Statement::Insert { .. }
    ));
    assert!(matches!(
        parsed("UPDATE t SET a = a + 1, b.c = 'x' REMOVE d SET e = list_append(e, [1]) WHERE pk = 'k'"),
        Statement::Update { ref assignments, .. } if assignments.len() == 4
    ));
    assert!(matches!(
        parsed("DELETE FROM t WHERE pk='k' AND sk=1"),
        Statement::Delete { .. }
    ));
    assert_eq!(
        parse("SELECT * FROM t WHERE a = ? AND b IN [?, ?]").map(|p| p.1),
        Ok(3)
    );
}

#[test]
fn precedence() {
    // OR is loosest, then AND, then NOT; BETWEEN's AND belongs to BETWEEN.
    let Statement::Select {
        filter: Some(Expr::Or(left, right)),
        ..
    } = parsed("SELECT * FROM t WHERE a = 1 AND b BETWEEN 1 AND 2 OR NOT c < 3")
    else {
        panic!("not an OR");
    };
    assert!(matches!(*left, Expr::And(_, ref b) if matches!(**b, Expr::Between(..))));
    assert!(matches!(*right, Expr::Not(ref c) if matches!(**c, Expr::Cmp(_, CmpOp::Lt, _))));
}

#[test]
fn malformed_statements() {
    for (text, detail) in [
        ("SELEC * FROM t", "Expected data manipulation"),
        ("", "Expected data manipulation"),
        ("SELECT * FROM t WHERE", "Unexpected end of statement"),
        ("SELECT * FROM t x", "Unexpected token after expression"),
        ("SELECT * FROM t WHERE a = 1 = 2", "Unexpected token"),
        ("SELECT * FROM t WHERE a = 'open", "Unexpected token"),
        ("UPDATE t WHERE a = 1", "Unexpected token"),
        ("INSERT INTO t VALUES {'a': 1}", "Unexpected token"),
        ("UPDATE t REMOVE a, b WHERE pk = 1", "Unexpected token"),
        (
            "SELECT * FROM t WHERE a[99999999999] = 1",
            "Invalid list index",
        ),
    ] {
        assert_eq!(parse_error(text), detail, "{text}");
    }
}

#[test]
fn depth_is_bounded() {
    let deep = format!(
        "SELECT * FROM t WHERE {}a = 1{}",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    assert_eq!(parse_error(&deep), "Statement is nested too deeply");
    let nots = format!("SELECT * FROM t WHERE {}a = 1", "NOT ".repeat(5000));
    assert_eq!(parse_error(&nots), "Statement is nested too deeply");
    let lists = format!("INSERT INTO t VALUE {}", "[".repeat(5000));
    assert_eq!(parse_error(&lists), "Statement is nested too deeply");
    let ok = format!(
        "SELECT * FROM t WHERE {}a = 1{}",
        "(".repeat(MAX_DEPTH - 5),
        ")".repeat(MAX_DEPTH - 5)
    );
    assert!(parse(&ok).is_ok());
}

/// Valid statements the mutation fuzz starts from.
const SEEDS: [&str; 5] = [
    r#"SELECT a, b.c[1] FROM "t"."i" WHERE pk = ? AND sk BETWEEN 1 AND 2 OR begins_with(a, 'x')"#,
    "INSERT INTO t VALUE {'pk': 'a', 'l': [1, 2.5, <<'s'>>], 'm': {'n': NULL, 'b': TRUE}}",
    "UPDATE t SET a = a + 1, b = list_append(b, [1]) REMOVE c[0] WHERE pk = 'k' AND x IS NOT MISSING",
    "DELETE FROM t WHERE pk = ? AND sk = ? AND attribute_type(a, 'S') AND size(b) > 3",
    "SELECT * FROM t WHERE NOT (a IN [1, 2, 3]) AND contains(b, 'x') AND c <> d",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn parser_never_panics(text in r#"[ a-zA-Z0-9"'?.,:;*=<>!+\-()\[\]{}]{0,160}"#) {
        let _ = parse(&text);
    }

    #[test]
    fn parser_never_panics_on_any_string(text in "\\PC{0,200}") {
        let _ = parse(&text);
    }

    #[test]
    fn mutated_statements_never_panic(
        seed in 0..SEEDS.len(),
        cut in 0usize..200,
        insert in r#"[ a-z0-9"'?.,()\[\]{}<>=]{0,6}"#,
        remove in 0usize..8,
    ) {
        let base = SEEDS[seed];
        let at = base.char_indices().map(|(i, _)| i).nth(cut % base.chars().count()).unwrap_or(0);
        let end = base.char_indices().map(|(i, _)| i).find(|i| *i >= at + remove).unwrap_or(base.len());
        let mutated = format!("{}{}{}", &base[..at], insert, &base[end..]);
        let _ = parse(&mutated);
    }
}

// ----- end to end -----

async fn table() -> MemBackend {
    backend_with(table_input(
        "tbl",
        ScalarAttributeType::S,
        Some(ScalarAttributeType::N),
    ))
    .await
}

pub(super) async fn run(
    b: &MemBackend,
    statement: &str,
    params: &[AttributeValue],
) -> Result<Vec<Item>, Error> {
    b.execute_statement(ExecuteStatementInput {
        statement: statement.into(),
        parameters: (!params.is_empty()).then(|| params.to_vec()),
        ..Default::default()
    })
    .await
    .map(|o| o.items.unwrap_or_default())
}

#[tokio::test]
async fn crud_round_trip() {
    let b = table().await;
    assert_eq!(
        run(
            &b,
            "INSERT INTO tbl VALUE {'pk': ?, 'sk': 1, 'x': {'y': [1, 2]}}",
            &[s("a")]
        )
        .await,
        Ok(vec![])
    );
    let dup = run(&b, "INSERT INTO tbl VALUE {'pk': 'a', 'sk': 1}", &[]).await;
    assert_eq!(
        dup.map_err(|e| (e.code().to_owned(), e.message())),
        Err((
            "DuplicateItemException".into(),
            "Duplicate primary key exists in table".into()
        ))
    );
    let got = run(&b, "SELECT x.y[1], pk FROM tbl WHERE pk = 'a'", &[])
        .await
        .unwrap();
    assert_eq!(got, vec![item(&[("y[1]", n("2")), ("pk", s("a"))])]);
    run(
        &b,
        "UPDATE tbl SET z = 'q', x.y[0] = 9 REMOVE w WHERE pk = 'a' AND sk = 1",
        &[],
    )
    .await
    .unwrap();
    let missing = run(&b, "UPDATE tbl SET z = 'q' WHERE pk = 'zz' AND sk = 1", &[]).await;
    assert_eq!(
        missing.map_err(|e| e.code().to_owned()),
        Err("ConditionalCheckFailedException".into())
    );
    let no_key = run(&b, "DELETE FROM tbl WHERE pk = 'a'", &[]).await;
    assert_eq!(
        no_key.map_err(|e| e.message()),
        Err(super::errors::KEY_EQUALITY.into())
    );
    let got = run(
        &b,
        "SELECT * FROM tbl WHERE pk = 'a' AND sk >= 1 AND z = 'q'",
        &[],
    )
    .await
    .unwrap();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].get("z"), Some(&s("q")));
    run(&b, "DELETE FROM tbl WHERE pk = 'a' AND sk = 1", &[])
        .await
        .unwrap();
    assert_eq!(run(&b, "SELECT * FROM tbl", &[]).await, Ok(vec![]));
}

#[tokio::test]
async fn errors() {
    let b = table().await;
    let code_message =
        |r: Result<Vec<Item>, Error>| r.map_err(|e| (e.code().to_owned(), e.message()));
    assert_eq!(
        code_message(run(&b, "SELECT * FROM tbl WHERE pk = ?", &[]).await),
        Err((
            "ValidationException".into(),
            "Number of parameters in request and statement don't match.".into()
        ))
    );
    assert_eq!(
        code_message(run(&b, "SELECT * FROM nope", &[]).await).map_err(|e| e.0),
        Err("ResourceNotFoundException".into())
    );
    assert_eq!(
        code_message(run(&b, "SELECT * FROM tbl WHERE pk = 1", &[]).await),
        Err((
            "ValidationException".into(),
            "Key attribute's data type should match its data type in table's schema: Key pk".into()
        ))
    );
    assert_eq!(
        code_message(run(&b, "INSERT INTO tbl VALUE {'pk': 'a'}", &[]).await),
        Err((
            "ValidationException".into(),
            "Key attribute should be present in the item: Key sk".into()
        ))
    );
    assert!(matches!(
        code_message(run(&b, "SELEC * FROM tbl", &[]).await),
        Err((_, m)) if m.starts_with(super::errors::MALFORMED)
    ));
    run(
        &b,
        "INSERT INTO tbl VALUE {'pk': 'a', 'sk': 1, 'q': 1}",
        &[],
    )
    .await
    .unwrap();
    let failed = b
        .execute_statement(ExecuteStatementInput {
            statement: "DELETE FROM tbl WHERE pk = 'a' AND sk = 1 AND q = 2".into(),
            return_values_on_condition_check_failure: Some(
                ReturnValuesOnConditionCheckFailure::AllOld,
            ),
            ..Default::default()
        })
        .await;
    assert!(matches!(
        failed,
        Err(Error::ConditionalCheckFailed { item: Some(_), .. })
    ));
}

#[tokio::test]
async fn pages_with_next_token() {
    let b = table().await;
    for i in 0..5 {
        run(
            &b,
            "INSERT INTO tbl VALUE {'pk': 'p', 'sk': ?}",
            &[n(&i.to_string())],
        )
        .await
        .unwrap();
    }
    let mut token = None;
    let mut seen = Vec::new();
    for _ in 0..10 {
        let out = b
            .execute_statement(ExecuteStatementInput {
                statement: "SELECT sk FROM tbl WHERE pk = 'p'".into(),
                limit: Some(2),
                next_token: token.clone(),
                ..Default::default()
            })
            .await
            .unwrap();
        seen.extend(out.items.unwrap_or_default());
        token = out.next_token;
        if token.is_none() {
            break;
        }
    }
    assert_eq!(seen.len(), 5);
    let bad = b
        .execute_statement(ExecuteStatementInput {
            statement: "SELECT * FROM tbl".into(),
            next_token: Some("garbage".into()),
            ..Default::default()
        })
        .await;
    assert_eq!(
        bad.map_err(|e| e.message()).err().as_deref(),
        Some("Invalid NextToken")
    );
}

#[tokio::test]
async fn batch_and_transaction() {
    let b = table().await;
    let stmt = |text: &str| BatchStatementRequest {
        statement: text.into(),
        ..Default::default()
    };
    let out = b
        .batch_execute_statement(BatchExecuteStatementInput {
            statements: vec![
                stmt("INSERT INTO tbl VALUE {'pk': 'a', 'sk': 1}"),
                stmt("INSERT INTO tbl VALUE {'pk': 'b', 'sk': 1}"),
                stmt("UPDATE tbl SET q = 1 WHERE pk = 'zz' AND sk = 1"),
                stmt("DELETE FROM tbl WHERE pk = 'b'"),
            ],
            ..Default::default()
        })
        .await
        .unwrap();
    let codes: Vec<Option<&str>> = out
        .responses
        .iter()
        .map(|r| r.error.as_ref().map(|e| e.code.as_str()))
        .collect();
    assert_eq!(
        codes,
        vec![
            None,
            None,
            Some("ConditionalCheckFailed"),
            Some("ValidationError")
        ]
    );
    let out = b
        .batch_execute_statement(BatchExecuteStatementInput {
            statements: vec![
                stmt("SELECT * FROM tbl WHERE pk = 'a' AND sk = 1"),
                stmt("SELECT * FROM tbl WHERE pk = 'a'"),
            ],
            ..Default::default()
        })
        .await
        .unwrap();
    assert!(out.responses[0].item.is_some());
    assert_eq!(
        out.responses[1].error.as_ref().map(|e| e.code.as_str()),
        Some("ValidationError")
    );

    let tx = |texts: &[&str]| ExecuteTransactionInput {
        transact_statements: texts
            .iter()
            .map(|t| ParameterizedStatement {
                statement: (*t).into(),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    let cancelled = b
        .execute_transaction(tx(&[
            "INSERT INTO tbl VALUE {'pk': 'a', 'sk': 1}",
            "DELETE FROM tbl WHERE pk = 'b' AND sk = 1",
        ]))
        .await;
    let Err(Error::TransactionCanceled { reasons, .. }) = cancelled else {
        panic!("{cancelled:?}");
    };
    assert_eq!(reasons[0].code, CancellationCode::ValidationError);
    assert_eq!(reasons[1].code, CancellationCode::None);
    b.execute_transaction(tx(&[
        "INSERT INTO tbl VALUE {'pk': 'c', 'sk': 1}",
        "DELETE FROM tbl WHERE pk = 'b' AND sk = 1",
    ]))
    .await
    .unwrap();
    let read = b
        .execute_transaction(tx(&[
            "SELECT * FROM tbl WHERE pk = 'c' AND sk = 1",
            "SELECT * FROM tbl WHERE pk = 'b' AND sk = 1",
        ]))
        .await
        .unwrap();
    assert!(read.responses[0].is_some() && read.responses[1].is_none());
    let mixed = b
        .execute_transaction(tx(&[
            "SELECT * FROM tbl WHERE pk = 'c' AND sk = 1",
            "DELETE FROM tbl WHERE pk = 'b' AND sk = 1",
        ]))
        .await;
    assert_eq!(
        mixed.map_err(|e| e.message()).err().as_deref(),
        Some(super::errors::MIXED_TRANSACTION)
    );
}

#[test]
fn empty_bags_are_refused_with_a_position() {
    let refused = |text: &str| parse(text).err().filter(|e| e.1).map(|e| e.0);
    assert_eq!(
        refused("INSERT INTO t VALUE {'a': <<>>,\n 'b': <<>>}").as_deref(),
        Some("Empty bags are not supported at 1:27:2")
    );
    // The WHERE clause's first, if it has one.
    assert_eq!(
        refused("UPDATE t SET a = <<>> WHERE pk = 1 AND\n  b = <<>>").as_deref(),
        Some("Empty bags are not supported at 2:7:2")
    );
}
