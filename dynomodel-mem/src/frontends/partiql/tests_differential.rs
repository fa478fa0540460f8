//! Divergences from DynamoDB in single statements found by the differential generator
//! (tests/differential, PartiQL forms), each pinned here with the text DynamoDB answers.

use dynomodel::backend::{Backend, ExecuteStatementInput, ScalarAttributeType};

use crate::tests::{backend_with, table_input};
use crate::MemBackend;

pub(super) async fn table() -> MemBackend {
    backend_with(table_input(
        "tbl",
        ScalarAttributeType::S,
        Some(ScalarAttributeType::N),
    ))
    .await
}

pub(super) async fn error_of(b: &MemBackend, statement: &str) -> (String, String) {
    match b
        .execute_statement(ExecuteStatementInput {
            statement: statement.into(),
            ..Default::default()
        })
        .await
    {
        Ok(out) => panic!("{statement}: succeeded with {out:?}"),
        Err(e) => (e.code().to_owned(), e.message()),
    }
}

pub(super) fn validation(message: &str) -> (String, String) {
    ("ValidationException".into(), message.into())
}

/// A nested path into a key attribute in a write's extra conditions: PartiQL's text, `Key pk`.
#[tokio::test]
async fn nested_key_path_in_a_condition() {
    let b = table().await;
    assert_eq!(
        error_of(&b, "DELETE FROM tbl WHERE pk = 'a' AND sk = 1 AND begins_with(pk[1].x, 'a')").await,
        validation(
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key pk"
        )
    );
}

/// A nested key path compared with values only in a top-level term is PartiQL's `Key sk`; elsewhere
/// (inside `size`, against another path, under `NOT`) the condition's `Key: sk`.
#[tokio::test]
async fn nested_key_path_forms() {
    let b = table().await;
    const PARTIQL: &str =
        "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key sk";
    const CONDITION: &str =
        "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: sk";
    for (term, want) in [
        ("sk.x = 1", PARTIQL),
        ("1 = sk.x", PARTIQL),
        ("sk[1] IN [1, a]", PARTIQL),
        ("sk.x BETWEEN 1 AND 2", PARTIQL),
        ("contains(sk.x, 1)", PARTIQL),
        ("size(sk[2]) >= 0", CONDITION),
        ("sk.x = a", CONDITION),
        ("NOT (sk.x = 1 OR a = 2)", CONDITION),
        ("sk.x IS MISSING", CONDITION),
    ] {
        for write in [
            format!("DELETE FROM tbl WHERE pk = 'a' AND sk = 1 AND {term}"),
            format!("UPDATE tbl SET q = 1 WHERE pk = 'a' AND sk = 1 AND {term}"),
        ] {
            assert_eq!(error_of(&b, &write).await, validation(want), "{write}");
        }
    }
    // Before the key equalities are looked for; a SELECT's filter has the condition's text.
    assert_eq!(
        error_of(&b, "DELETE FROM tbl WHERE pk = 'a' AND sk.x = 1").await,
        validation(PARTIQL)
    );
    assert_eq!(
        error_of(&b, "SELECT * FROM tbl WHERE pk = 'a' AND sk.x = 1").await,
        validation(CONDITION)
    );
}

/// Projected paths with the same result name: refused before the table is looked up.
#[tokio::test]
async fn duplicate_identifiers_in_a_projection() {
    let b = table().await;
    for (projection, name) in [
        ("a, a", Some("a")),
        ("x.y, y", Some("y")),
        ("x.y.z, w.z", Some("z")),
        ("x.y[0], w.y[0]", Some("y[0]")),
        ("x[0].y, y", Some("y")),
        ("b, a, b, a", Some("b")),
        ("\"count\".\"a\".\"é\", \"é\"", Some("é")),
        ("x.y[1], y", None),
        ("a.b, a.c", None),
        ("x[0], x[1]", None),
        ("x.y[0], y[1]", None),
    ] {
        for table in ["tbl", "nosuch"] {
            let statement = format!("SELECT {projection} FROM {table} WHERE pk = 'zz'");
            let result = b
                .execute_statement(ExecuteStatementInput {
                    statement: statement.clone(),
                    ..Default::default()
                })
                .await
                .map_err(|e| e.message());
            match name {
                Some(name) => assert_eq!(
                    result,
                    Err(format!("Duplicate identifiers in select clause: {name}")),
                    "{statement}"
                ),
                None if table == "tbl" => assert!(result.is_ok(), "{statement}: {result:?}"),
                None => {}
            }
        }
    }
}

/// A projection list with nested paths is checked as a ProjectionExpression would be, though it is
/// not sent as one: overlaps, paths into table keys, then into index keys.
#[tokio::test]
async fn nested_projection_is_validated() {
    let mut input = table_input("idx", ScalarAttributeType::S, Some(ScalarAttributeType::N));
    input
        .attribute_definitions
        .push(dynomodel::backend::AttributeDefinition {
            attribute_name: "g".into(),
            attribute_type: ScalarAttributeType::S,
        });
    input
        .global_secondary_indexes
        .push(dynomodel::backend::GlobalSecondaryIndex {
            index_name: "by-g".into(),
            key_schema: vec![dynomodel::backend::KeySchemaElement::hash("g")],
            projection: dynomodel::backend::Projection {
                projection_type: dynomodel::backend::ProjectionType::All,
                non_key_attributes: vec![],
            },
            provisioned_throughput: None,
        });
    let b = backend_with(input).await;
    const NESTED: &str =
        "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: ";
    for (projection, want) in [
        ("g[0].x", format!("{NESTED}IndexKey: g")),
        ("a, g.x, sk.y", format!("{NESTED}Key: sk")),
        (
            "x[1], x",
            "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [x], path two: [x, [1]]".to_owned(),
        ),
    ] {
        for from in ["idx", "idx.\"by-g\""] {
            let statement = format!("SELECT {projection} FROM {from}");
            assert_eq!(error_of(&b, &statement).await, validation(&want), "{statement}");
        }
    }
    // The overlap is found before the table is looked up or the parameters counted.
    assert_eq!(
        error_of(&b, "SELECT x[1], x FROM nosuch WHERE pk = ?").await.1,
        "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [x], path two: [x, [1]]"
    );
    // A batch's single-item read reads the whole item: no key-path check.
    let out = b
        .batch_execute_statement(dynomodel::backend::BatchExecuteStatementInput {
            statements: vec![dynomodel::backend::BatchStatementRequest {
                statement: "SELECT g.x, sk.y FROM idx WHERE pk = 'a' AND sk = 1".into(),
                ..Default::default()
            }],
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(out.responses[0].error, None);
}

/// A SELECT's filter reading into a key attribute: before the key values' types are checked.
#[tokio::test]
async fn nested_key_in_a_filter_before_key_types() {
    let b = table().await;
    assert_eq!(
        error_of(&b, "SELECT * FROM tbl WHERE contains(pk, 1.5) OR sk[1] IN [1, 2]").await,
        validation(
            "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: sk"
        )
    );
}

/// Both key values of the wrong type: the first key attribute in `java.util.HashSet` order is
/// reported (`sk` before `pk`), whatever the order of the terms.
#[tokio::test]
async fn sort_key_type_reported_first() {
    let b = table().await;
    for statement in [
        "SELECT * FROM tbl WHERE pk = 1 AND sk = 'x'",
        "SELECT * FROM tbl WHERE begins_with(sk, 'x') AND pk = 1",
        "DELETE FROM tbl WHERE pk = 1 AND sk = 'x'",
        "UPDATE tbl SET a = 1 WHERE pk = 1 AND sk = 'x'",
    ] {
        assert_eq!(
            error_of(&b, statement).await,
            validation(
                "Key attribute's data type should match its data type in table's schema: Key sk"
            ),
            "{statement}"
        );
    }
}

/// `attribute_type(key, 'T')`: the type name is a string value compared with the key's declared
/// type, for the table's keys and the queried index's: refused for a key of type N, any name
/// accepted for a key of type S.
#[tokio::test]
async fn attribute_type_of_a_key() {
    let b = table().await;
    for (condition, refused) in [
        ("attribute_type(sk, 'M')", true),
        ("attribute_type(sk, 'N')", true),
        ("pk = 'a' AND attribute_type(sk, 'S')", true),
        ("attribute_type(pk, 'M')", false),
        ("attribute_type(pk, 'N')", false),
    ] {
        let statement = format!("SELECT * FROM tbl WHERE {condition}");
        let out = b
            .execute_statement(ExecuteStatementInput {
                statement: statement.clone(),
                ..Default::default()
            })
            .await
            .map_err(|e| e.message());
        if refused {
            assert_eq!(
                out,
                Err("One or more parameter values were invalid: Condition parameter type does not match schema type".into()),
                "{statement}"
            );
        } else {
            assert!(out.is_ok(), "{statement}: {out:?}");
        }
    }
}

/// The order of a SELECT's checks: the key terms' value types, then a consistent read of a GSI, then
/// the other terms' value types.
#[tokio::test]
async fn select_check_order() {
    let mut input = table_input("gtab", ScalarAttributeType::S, None);
    input
        .attribute_definitions
        .push(dynomodel::backend::AttributeDefinition {
            attribute_name: "g".into(),
            attribute_type: ScalarAttributeType::S,
        });
    input
        .global_secondary_indexes
        .push(dynomodel::backend::GlobalSecondaryIndex {
            index_name: "by-g".into(),
            key_schema: vec![dynomodel::backend::KeySchemaElement::hash("g")],
            projection: dynomodel::backend::Projection {
                projection_type: dynomodel::backend::ProjectionType::All,
                non_key_attributes: vec![],
            },
            provisioned_throughput: None,
        });
    let b = backend_with(input).await;
    for (condition, want) in [
        (
            "g = 1",
            "Key attribute's data type should match its data type in table's schema: Key g",
        ),
        (
            "g = 'a' AND contains(pk, 1)",
            "Consistent reads are not supported on global secondary indexes",
        ),
        (
            "contains(g, 1)",
            "Consistent reads are not supported on global secondary indexes",
        ),
    ] {
        let out = b
            .execute_statement(ExecuteStatementInput {
                statement: format!("SELECT * FROM gtab.\"by-g\" WHERE {condition}"),
                consistent_read: Some(true),
                ..Default::default()
            })
            .await
            .map_err(|e| e.message());
        assert_eq!(out, Err(want.to_owned()), "{condition}");
    }
}

/// An UPDATE's or DELETE's key value that is no scalar: PartiQL's own text, before the types.
#[tokio::test]
async fn key_value_of_no_key_type() {
    let b = table().await;
    for (statement, want) in [
        (
            "DELETE FROM tbl WHERE pk = 'a' AND sk = TRUE",
            "Key name: sk, Key type: BOOL",
        ),
        (
            "DELETE FROM tbl WHERE pk = 1 AND sk = NULL",
            "Key name: sk, Key type: NULL",
        ),
        (
            "UPDATE tbl SET a = 1 WHERE pk = <<'a'>> AND sk = 1",
            "Key name: pk, Key type: SS",
        ),
        (
            "DELETE FROM tbl WHERE pk = {'a': 1} AND sk = 1",
            "Key name: pk, Key type: M",
        ),
    ] {
        assert_eq!(
            error_of(&b, statement).await,
            validation(&format!("Key value must be of type S, N, or B. {want}")),
            "{statement}"
        );
    }
}

/// The order of a SELECT's checks: paths into keys in the filter (before the key terms), values compared with
/// keys in the other terms (not a simple term on a key attribute that a later term names), then the
/// projection's paths.
#[tokio::test]
async fn filter_and_projection_check_order() {
    let mut input = table_input("ntab", ScalarAttributeType::N, Some(ScalarAttributeType::B));
    for (name, ty) in [
        ("ia", ScalarAttributeType::N),
        ("ib", ScalarAttributeType::B),
    ] {
        input
            .attribute_definitions
            .push(dynomodel::backend::AttributeDefinition {
                attribute_name: name.into(),
                attribute_type: ty,
            });
    }
    input
        .global_secondary_indexes
        .push(dynomodel::backend::GlobalSecondaryIndex {
            index_name: "gg4".into(),
            key_schema: vec![
                dynomodel::backend::KeySchemaElement::hash("ia"),
                dynomodel::backend::KeySchemaElement::range("ib"),
            ],
            projection: dynomodel::backend::Projection {
                projection_type: dynomodel::backend::ProjectionType::All,
                non_key_attributes: vec![],
            },
            provisioned_throughput: None,
        });
    let b = backend_with(input).await;
    const NESTED: &str =
        "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: ";
    const TYPES: &str =
        "One or more parameter values were invalid: Condition parameter type does not match schema type";
    for (statement, want) in [
        (
            "SELECT pk.x FROM ntab.gg4 WHERE attribute_type(ia, 'M') AND ia = 1",
            format!("{NESTED}Key: pk"),
        ),
        (
            "SELECT pk.x FROM ntab.gg4 WHERE attribute_type(ia, 'M')",
            TYPES.to_owned(),
        ),
        (
            "SELECT a FROM ntab.gg4 WHERE ia = 1 AND contains(ib, 'M')",
            TYPES.to_owned(),
        ),
        (
            "SELECT a FROM ntab.gg4 WHERE ia = 1 AND contains(pk, 'M')",
            TYPES.to_owned(),
        ),
        (
            "SELECT sk.x FROM ntab WHERE contains(pk, 'M')",
            TYPES.to_owned(),
        ),
        (
            "SELECT a FROM ntab WHERE attribute_type(pk, 'M') AND sk.x = 1",
            format!("{NESTED}Key: sk"),
        ),
        (
            "SELECT a FROM ntab WHERE pk.m > 'a' AND sk <= 1 AND pk = 1",
            format!("{NESTED}Key: pk"),
        ),
        (
            "SELECT a FROM ntab WHERE pk = 1 AND contains(pk, 'M')",
            TYPES.to_owned(),
        ),
        (
            "SELECT a FROM ntab WHERE (contains(pk, 'M') OR a = 1) AND pk = 1",
            TYPES.to_owned(),
        ),
    ] {
        assert_eq!(
            error_of(&b, statement).await,
            validation(&want),
            "{statement}"
        );
    }
    for statement in [
        "SELECT a FROM ntab.gg4 WHERE (pk = 'x' AND pk = 1) AND ia = 1",
        "SELECT a FROM ntab WHERE pk <> 'x' AND NOT pk IN [1]",
        "SELECT a FROM ntab.gg4 WHERE ia = 1 AND NOT (pk = 'x') AND (contains(pk, 1) OR a = 1)",
        "SELECT a FROM ntab WHERE contains(pk, 'M') AND pk = 1",
        "SELECT a FROM ntab WHERE pk < 'x' AND pk = 1",
        "SELECT a FROM ntab WHERE NOT contains(pk, 'M') AND pk = 1",
        "SELECT a FROM ntab WHERE pk = 1 AND contains(pk, 'x') AND pk = 1",
    ] {
        let ok = b
            .execute_statement(ExecuteStatementInput {
                statement: statement.into(),
                ..Default::default()
            })
            .await;
        assert!(ok.is_ok(), "{statement}: {ok:?}");
    }
    // The sort key's key term is its last equality.
    let t = table().await;
    for statement in [
        "SELECT a FROM tbl WHERE pk = 'a' AND sk = 1 AND sk < 'x'",
        "SELECT a FROM tbl WHERE pk = 'a' AND (pk IN [1] AND b = 1)",
        "SELECT a FROM tbl WHERE size(sk) = 1 AND sk >= 'x' AND pk = 'a'",
        "SELECT a FROM tbl WHERE pk = 'a' AND pk = 1",
    ] {
        assert_eq!(
            error_of(&t, statement).await,
            validation(TYPES),
            "{statement}"
        );
    }
    let ok = t
        .execute_statement(ExecuteStatementInput {
            statement: "SELECT a FROM tbl WHERE a = 1 AND pk = 'a' AND sk = 'x' AND sk = 1".into(),
            ..Default::default()
        })
        .await;
    assert!(ok.is_ok(), "{ok:?}");
}

/// An operand of the wrong type is found before the table is looked up.
#[tokio::test]
async fn operand_types_before_the_table() {
    let b = table().await;
    for (statement, want) in [
        (
            "DELETE FROM nosuch WHERE pk = 'a' AND begins_with(a, 1)",
            "begins_with, operand type: N",
        ),
        (
            "UPDATE nosuch SET a = a + 'x' WHERE pk = 'a'",
            "+, operand type: S",
        ),
        (
            "SELECT * FROM nosuch WHERE begins_with(a, 1)",
            "begins_with, operand type: N",
        ),
    ] {
        assert_eq!(
            error_of(&b, statement).await,
            validation(&format!(
                "Incorrect operand type for operator or function; operator or function: {want}"
            )),
            "{statement}"
        );
    }
}

/// Only the first value of an IN on a key attribute is checked against the key's type.
#[tokio::test]
async fn first_in_value_is_type_checked() {
    let b = table().await;
    assert_eq!(
        error_of(&b, "SELECT * FROM tbl WHERE sk IN ['x', 1]").await,
        validation("One or more parameter values were invalid: Condition parameter type does not match schema type")
    );
    let ok = b
        .execute_statement(ExecuteStatementInput {
            statement: "SELECT * FROM tbl WHERE NOT (sk IN [1, 'x'])".into(),
            ..Default::default()
        })
        .await;
    assert!(ok.is_ok(), "{ok:?}");
}
