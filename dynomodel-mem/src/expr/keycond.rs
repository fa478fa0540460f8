//! Narrowing a parsed KeyConditionExpression to its typed form.
