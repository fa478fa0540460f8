//! Invalid expressions are `ValidationException`s with DynamoDB's exact message — syntax, names
//! and values, reserved words, parentheses, size and operator limits, update path conflicts, operand
//! types, and functions where they are not allowed. Every row is checked, then all mismatches reported.

use dynomodel::backend::*;
use dynomodel::*;

use super::requests::*;
use super::*;

const V: &str = "ValidationException";

/// One UpdateItem carrying an update and/or condition expression; values `:n` (N), `:s` (S), `:l` (L)
/// and `:ss` (SS) are bound when the expressions use them, so rows only declare what they test.
fn request(
    f: &Fixture,
    update: Option<&str>,
    condition: Option<&str>,
    names: Option<ExpressionAttributeNames>,
) -> UpdateItemInput {
    let text = format!("{} {}", update.unwrap_or(""), condition.unwrap_or(""));
    let all = [
        (":n", num("1")),
        (":s", s("x")),
        (":l", list([num("1")])),
        (":ss", ss(["x"])),
        (":b", AttributeValue::Bool(true)),
    ];
    let used: Item = all
        .into_iter()
        .filter(|(k, _)| {
            text.split(|c: char| !(c.is_alphanumeric() || c == ':' || c == '_'))
                .any(|w| w == *k)
        })
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
    UpdateItemInput {
        table_name: f.table.clone(),
        key: Fixture::key("a"),
        update_expression: update.map(str::to_owned),
        condition_expression: condition.map(str::to_owned),
        expression_attribute_names: names,
        expression_attribute_values: (!used.is_empty()).then_some(used),
        ..Default::default()
    }
}

dual_test!(condition_expressions_are_validated, |t| {
    let f = Fixture::new(&t, "badc").await;
    f.put(item([("pk", s("a")), ("n", num("1")), ("s", s("x"))]))
        .await;
    let b = t.backend();
    let mut c = Checks::new(&t);
    let long = format!("s = :s AND {}", vec!["n = :n"; 600].join(" AND "));
    // The limit is 4,096 bytes; the message reports the actual size.
    let too_long = format!(
        "Invalid ConditionExpression: Expression size has exceeded the maximum allowed size; expression size: {}",
        long.len()
    );
    let many_ops = format!("n = :n{}", " OR n = :n".repeat(300));
    let in_list = (0..101).map(|_| ":n").collect::<Vec<_>>().join(", ");
    let too_many_in = format!("n IN ({in_list})");
    // Near-misses that DynamoDB (Local) accepts are left out on purpose: `size(:s)` of a literal and
    // parentheses around a single SET operand are valid, only nested redundant parentheses are not.
    let rows: Vec<(&str, &str, &str)> = vec![
        ("eof", "n =", "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \"=\""),
        ("bad token", "n = = :n", "Invalid ConditionExpression: Syntax error; token: \"=\", near: \"= = :n\""),
        ("unknown function", "nope(n)", "Invalid ConditionExpression: Invalid function name; function: nope"),
        ("undefined name", "#x = :n", "Invalid ConditionExpression: An expression attribute name used in the document path is not defined; attribute name: #x"),
        ("undefined value", "n = :zz", "Invalid ConditionExpression: An expression attribute value used in expression is not defined; attribute value: :zz"),
        ("reserved word", "name = :s", "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: name"),
        ("redundant parentheses", "((n = :n))", "Invalid ConditionExpression: The expression has redundant parentheses;"),
        ("4 KB", &long, &too_long),
        ("300 operators", &many_ops, "Invalid ConditionExpression: The expression contains too many operators; operator count: 301"),
        ("IN > 100", &too_many_in, "Invalid ConditionExpression: The IN operator is provided with too many operands; number of operands: 101"),
        ("function not allowed", "if_not_exists(n, :n) = :n", "Invalid ConditionExpression: The function is not allowed in a condition expression; function: if_not_exists"),
        ("list_append not allowed", "n = list_append(:l, :l)", "Invalid ConditionExpression: The function is not allowed in a condition expression; function: list_append"),
        ("arithmetic in condition", "n = n + :n", "Invalid ConditionExpression: Syntax error; token: \"+\", near: \"n + :n\""),
        ("bare value", ":b", "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: \":b\""),
        ("BOOL ordered", "n < :b", "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: <, operand type: BOOL"),
        ("BETWEEN reversed", "n BETWEEN :n AND :s", "Invalid ConditionExpression: The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:x}"),
        ("attribute_type bad type", "attribute_type(n, :s)", "Invalid ConditionExpression: Invalid attribute type name found; type: x, valid types: {N,BS,L,B,NULL,M,S,SS,NS,BOOL}"),
        ("begins_with number", "begins_with(s, :n)", "Invalid ConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"),
        ("exists of a value", "attribute_exists(:s)", "Invalid ConditionExpression: Operator or function requires a document path; operator or function: attribute_exists"),
        ("bare function", "size(s)", "Invalid ConditionExpression: The function is not allowed to be used this way in an expression; function: size"),
        ("empty", "", "Invalid ConditionExpression: The expression can not be empty;"),
    ];
    for (label, condition, message) in rows {
        let result = b
            .update_item(request(&f, None, Some(condition), None))
            .await;
        c.error(label, result, V, message);
    }
    // Names and values that are supplied but unused are errors too.
    let mut unused = request(&f, None, Some("n = :n"), names([("#u", "u")]));
    c.error(
        "unused name",
        b.update_item(unused.clone()).await,
        V,
        "Value provided in ExpressionAttributeNames unused in expressions: keys: {#u}",
    );
    unused.expression_attribute_names = None;
    unused.expression_attribute_values = values([(":n", num("1")), (":u", num("2"))]);
    c.error(
        "unused value",
        b.update_item(unused.clone()).await,
        V,
        "Value provided in ExpressionAttributeValues unused in expressions: keys: {:u}",
    );
    unused.expression_attribute_values = Some(Item::new());
    c.error(
        "empty values map",
        b.update_item(unused).await,
        V,
        "ExpressionAttributeValues must not be empty",
    );
    c.finish();
});

dual_test!(update_expressions_are_validated, |t| {
    let f = Fixture::new(&t, "badu").await;
    f.put(item([
        ("pk", s("a")),
        ("n", num("1")),
        ("s", s("x")),
        ("l", list([num("1")])),
        ("m", map([])),
    ]))
    .await;
    let b = t.backend();
    let mut c = Checks::new(&t);
    let rows: Vec<(&str, &str, &str)> = vec![
        ("syntax", "SET n =", "Invalid UpdateExpression: Syntax error; token: \"<EOF>\", near: \"=\""),
        ("no clause", "n = :n", "Invalid UpdateExpression: Syntax error; token: \"n\", near: \"n =\""),
        ("SET twice", "SET n = :n SET s = :s", "Invalid UpdateExpression: The \"SET\" section can only be used once in an update expression;"),
        ("REMOVE twice", "REMOVE n REMOVE s", "Invalid UpdateExpression: The \"REMOVE\" section can only be used once in an update expression;"),
        ("overlapping paths", "SET m.a = :n, m = :n", "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [m, a], path two: [m]"),
        ("same path twice", "SET n = :n REMOVE n", "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [n], path two: [n]"),
        ("conflicting paths", "SET l[0] = :n, l.a = :n", "Invalid UpdateExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [l, [0]], path two: [l, a]"),
        ("ADD string", "ADD n :s", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: STRING, typeSet: ALLOWED_FOR_ADD_OPERAND"),
        ("ADD list", "ADD n :l", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: LIST, typeSet: ALLOWED_FOR_ADD_OPERAND"),
        ("DELETE number", "DELETE n :n", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator: DELETE, operand type: NUMBER, typeSet: ALLOWED_FOR_DELETE_OPERAND"),
        ("plus string", "SET n = n + :s", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: +, operand type: S"),
        ("minus list", "SET n = :l - n", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: -, operand type: L"),
        ("list_append number", "SET l = list_append(l, :n)", "Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: list_append, operand type: N"),
        ("unknown function", "SET n = nope(n)", "Invalid UpdateExpression: Invalid function name; function: nope"),
        ("condition function", "SET n = size(s)", "Invalid UpdateExpression: The function is not allowed in an update expression; function: size"),
        ("if_not_exists on a value", "SET n = if_not_exists(:n, :n)", "Invalid UpdateExpression: Operator or function requires a document path; operator or function: if_not_exists"),
        ("reserved word", "SET value = :n", "Invalid UpdateExpression: Attribute name is a reserved keyword; reserved keyword: value"),
        ("nested arithmetic", "SET n = n + :n + :n", "Invalid UpdateExpression: Syntax error; token: \"+\", near: \":n + :n\""),
    ];
    for (label, update, message) in rows {
        let result = b.update_item(request(&f, Some(update), None, None)).await;
        c.error(label, result, V, message);
    }
    // Paths that do not fit the item fail when applied.
    for (label, update) in [
        ("through a scalar", "SET s.a = :n"),
        ("index into a map", "SET m[0] = :n"),
        ("missing parent", "SET q.r = :n"),
    ] {
        let result = b.update_item(request(&f, Some(update), None, None)).await;
        c.error(
            label,
            result,
            V,
            "The document path provided in the update expression is invalid for update",
        );
    }
    // The operand types of ADD and DELETE against the stored attribute are checked when applied.
    for (label, update) in [
        ("ADD set to number", "ADD n :ss"),
        ("DELETE from number", "DELETE n :ss"),
    ] {
        let result = b.update_item(request(&f, Some(update), None, None)).await;
        c.error(
            label,
            result,
            V,
            "An operand in the update expression has an incorrect data type",
        );
    }
    c.finish();
});
