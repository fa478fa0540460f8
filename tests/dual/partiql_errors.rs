//! PartiQL's errors on the engine, DynamoDB Local and the server (texts measured on
//! DynamoDB Local 3.3.1; see `dynomodel-mem/src/frontends/partiql/errors.rs` for their sources).

use dynomodel::backend::*;
use dynomodel::*;

use super::partiql::{exec, table};
use super::*;

const MALFORMED: &str = "Statement wasn't well formed, can't be processed: ";

dual_test!(partiql_statement_errors, |t| {
    let tb = table(&t).await;
    // KNOWN DIFFERENCE: after the common prefix, DynamoDB Local echoes the statement, where the service
    // names the parser's complaint ("Expected data manipulation", …), as the engine does.
    for statement in [
        "SELEC * FROM x".to_owned(),
        format!("SELECT * FROM \"{tb}\" WHERE"),
    ] {
        let e = exec(&t, &statement, &[]).await.unwrap_err();
        assert_eq!(e.code(), "ValidationException", "{statement}");
        let message = e.message();
        let detail = message
            .strip_prefix(MALFORMED)
            .unwrap_or_else(|| panic!("{message}"));
        match t.target() {
            Target::DynamoDbLocal => assert_eq!(detail, statement),
            _ => assert!(!detail.is_empty()),
        }
    }
    t.expect_error(
        exec(&t, &format!("SELECT * FROM \"{tb}\" WHERE pk = ?"), &[]).await,
        "ValidationException",
        "Number of parameters in request and statement don't match.",
    );
    // KNOWN DIFFERENCE: DynamoDB Local ignores extra parameters; the engine refuses any mismatch, as the
    // message says.
    // Hundreds of extra parameters too: past the first 64, the server's one pass checks them and
    // does not build them (`fast::parameters`); the answer is the same.
    let many: Vec<AttributeValue> = (0..300).map(|i| s(&format!("v{i}"))).collect();
    for parameters in [vec![s("a"), s("b")], many] {
        let extra = exec(
            &t,
            &format!("SELECT * FROM \"{tb}\" WHERE pk = ?"),
            &parameters,
        )
        .await;
        if t.target() == Target::DynamoDbLocal {
            assert_eq!(extra.unwrap(), vec![]);
        } else {
            t.expect_error(
                extra,
                "ValidationException",
                "Number of parameters in request and statement don't match.",
            );
        }
    }
    for statement in [
        format!("UPDATE \"{tb}\" SET v = 1 WHERE pk = 'a'"),
        format!("DELETE FROM \"{tb}\" WHERE pk = 'a'"),
        format!("DELETE FROM \"{tb}\" WHERE pk = 'a' OR sk = 1"),
    ] {
        t.expect_error(
            exec(&t, &statement, &[]).await,
            "ValidationException",
            "Where clause does not contain a mandatory equality on all key attributes",
        );
    }
    t.expect_error(
        exec(
            &t,
            &format!("SELECT * FROM \"{tb}\" WHERE pk = ?"),
            &[num("1")],
        )
        .await,
        "ValidationException",
        "Key attribute's data type should match its data type in table's schema: Key pk",
    );
    t.expect_error(
        exec(
            &t,
            &format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'a'}}"),
            &[],
        )
        .await,
        "ValidationException",
        "Key attribute should be present in the item: Key sk",
    );
    t.expect_error(
        exec(&t, &format!("SELECT * FROM \"{tb}\".\"nope\""), &[]).await,
        "ValidationException",
        "The table does not have the specified index: nope",
    );
    t.expect_error(
        exec(&t, &format!("SELECT * FROM \"{tb}\" WHERE foo(pk)"), &[]).await,
        "ValidationException",
        "Unrecognized function: foo",
    );
    // Values compared with key attributes must have their type: in the key condition, the key text;
    // elsewhere, Query's and Scan's.
    t.expect_error(
        exec(
            &t,
            &format!("SELECT * FROM \"{tb}\" WHERE pk = 'a' AND sk <= 'x'"),
            &[],
        )
        .await,
        "ValidationException",
        "Key attribute's data type should match its data type in table's schema: Key sk",
    );
    for condition in [
        "contains(pk, 1)",
        "pk = 'a' AND pk < -3",
        "NOT pk = 2",
        "attribute_type(sk, 'S')",
    ] {
        t.expect_error(
            exec(&t, &format!("SELECT * FROM \"{tb}\" WHERE {condition}"), &[]).await,
            "ValidationException",
            "One or more parameter values were invalid: Condition parameter type does not match schema type",
        );
    }
    // The expression errors of the underlying operations, without their `Invalid …Expression: ` prefix.
    t.expect_error(
        exec(&t, &format!("SELECT * FROM \"{tb}\" WHERE pk = 'a' AND n > null"), &[]).await,
        "ValidationException",
        "Incorrect operand type for operator or function; operator or function: >, operand type: NULL",
    );
    t.expect_error(
        exec(&t, &format!("UPDATE \"{tb}\" SET n = 1 WHERE pk = 'a' AND sk = 1 AND n BETWEEN 2 AND 1"), &[]).await,
        "ValidationException",
        "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {N:2}, upper bound operand: AttributeValue: {N:1}",
    );
    // Statement-level checks come before the key checks: empty bags, set_add's operand, the update's
    // operand types.
    let statement = format!("UPDATE \"{tb}\" SET a = <<>> WHERE pk = 'a'");
    let column = statement.find("<<").unwrap() + 1;
    t.expect_error(
        exec(&t, &statement, &[]).await,
        "ValidationException",
        &format!("Empty bags are not supported at 1:{column}:2"),
    );
    t.expect_error(
        exec(
            &t,
            &format!("UPDATE \"{tb}\" SET a.b = set_add(a.b, 1) WHERE pk = 'a'"),
            &[],
        )
        .await,
        "ValidationException",
        "The second argument to SET_ADD must be a value with type SET",
    );
    t.expect_error(
        exec(&t, &format!("UPDATE \"{tb}\" SET n = list_append(n, 1) WHERE pk = 1"), &[]).await,
        "ValidationException",
        "Incorrect operand type for operator or function; operator or function: list_append, operand type: N",
    );
    t.expect_error(
        exec(
            &t,
            &format!("UPDATE \"{tb}\" SET n = 1 WHERE pk = 'a' AND sk = 1 AND pk = 'b'"),
            &[],
        )
        .await,
        "ValidationException",
        "Multiple conditions on same key pk. Only single item Update/Insert/Delete are supported",
    );
    // Even before the missing sort key is noticed.
    t.expect_error(
        exec(
            &t,
            &format!("DELETE FROM \"{tb}\" WHERE pk = 'a' AND pk = 'b'"),
            &[],
        )
        .await,
        "ValidationException",
        "Multiple conditions on same key pk. Only single item Update/Insert/Delete are supported",
    );
    // KNOWN DIFFERENCE: DynamoDB Local's text for a missing table; the engine answers as its item
    // operations do (real DynamoDB's "Requested resource not found").
    let missing = t.table_name("missing");
    t.expect_error_differs(
        exec(&t, &format!("SELECT * FROM \"{missing}\""), &[]).await,
        "ResourceNotFoundException",
        "Requested resource not found",
        "Cannot do operations on a non-existent table",
    );
    t.expect_error(
        t.backend()
            .execute_statement(ExecuteStatementInput {
                statement: format!("SELECT * FROM \"{tb}\""),
                next_token: Some("garbage".into()),
                ..Default::default()
            })
            .await,
        "ValidationException",
        "Invalid NextToken",
    );
});

dual_test!(partiql_batch_and_transaction_errors, |t| {
    let tb = table(&t).await;
    let stmt = |text: String| BatchStatementRequest {
        statement: text,
        ..Default::default()
    };
    let batch = |statements: Vec<BatchStatementRequest>| BatchExecuteStatementInput {
        statements,
        ..Default::default()
    };
    t.expect_error(
        t.backend()
            .batch_execute_statement(batch(vec![
                stmt(format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'a', 'sk': 1}}")),
                stmt(format!("SELECT * FROM \"{tb}\" WHERE pk = 'a' AND sk = 1")),
            ]))
            .await,
        "ValidationException",
        "Read and write requests together in the same batch is not supported.",
    );
    t.expect_error(
        t.backend()
            .batch_execute_statement(batch(vec![
                stmt(format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'a', 'sk': 1}}")),
                stmt(format!("DELETE FROM \"{tb}\" WHERE pk = 'a' AND sk = 1")),
            ]))
            .await,
        "ValidationException",
        "Provided list of item keys contains duplicates",
    );
    let too_many = (0..26)
        .map(|i| {
            stmt(format!(
                "INSERT INTO \"{tb}\" VALUE {{'pk': 'a', 'sk': {i}}}"
            ))
        })
        .collect();
    let e = t
        .backend()
        .batch_execute_statement(batch(too_many))
        .await
        .unwrap_err();
    assert_eq!(e.code(), "ValidationException");

    let tx = |texts: Vec<String>| ExecuteTransactionInput {
        transact_statements: texts
            .into_iter()
            .map(|statement| ParameterizedStatement {
                statement,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    };
    t.expect_error(
        t.backend()
            .execute_transaction(tx(vec![
                format!("SELECT * FROM \"{tb}\" WHERE pk = 'a' AND sk = 1"),
                format!("DELETE FROM \"{tb}\" WHERE pk = 'a' AND sk = 1"),
            ]))
            .await,
        "ValidationException",
        "ExecuteTransaction API does not support both read and write operations in the same request.",
    );
    t.expect_error(
        t.backend()
            .execute_transaction(tx(vec![format!("SELECT * FROM \"{tb}\" WHERE pk = 'a'")]))
            .await,
        "ValidationException",
        "Validation failed in TransactStatements[0]: Select statements within ExecuteTransaction must specify the primary key in the where clause.",
    );
    t.expect_error(
        t.backend()
            .execute_transaction(tx(vec![
                format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'a', 'sk': 1}}"),
                format!("DELETE FROM \"{tb}\" WHERE pk = 'a' AND sk = 1"),
            ]))
            .await,
        "ValidationException",
        "Transaction request cannot include multiple operations on one item",
    );
    // An INSERT of an existing key cancels the transaction; its reason is a ValidationError with the
    // duplicate-key text (DynamoDB Local 3.3.1).
    exec(
        &t,
        &format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'a', 'sk': 1}}"),
        &[],
    )
    .await
    .unwrap();
    let cancelled = t
        .backend()
        .execute_transaction(tx(vec![
            format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'a', 'sk': 1}}"),
            format!("INSERT INTO \"{tb}\" VALUE {{'pk': 'b', 'sk': 1}}"),
        ]))
        .await;
    let Err(Error::TransactionCanceled { message, reasons }) = cancelled else {
        panic!("[{:?}] {cancelled:?}", t.target());
    };
    assert_eq!(
        message,
        "Transaction cancelled, please refer cancellation reasons for specific reasons [ValidationError, None]"
    );
    assert_eq!(
        reasons[0].message.as_deref(),
        Some("Duplicate primary key exists in table")
    );
});
