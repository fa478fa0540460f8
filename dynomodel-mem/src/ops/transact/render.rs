//! How DynamoDB prints a transaction's `TransactItems` in the `Value '…'` of a constraint message:
//! "1 validation error detected: Value '[…]' at 'transactItems' failed to satisfy constraint: Member
//! must have length less than or equal to 100" (an eu-north-1 answer reproduced in a
//! public project's test double; the conformance suite pins the envelope and leaves the dump free).
//!
//! The service prints Java's `toString` of its request objects: Lombok's `Name(field=value, …)` with
//! every field of the service model in its order, `null` for an absent one, and the attribute values as
//! BatchWriteItem prints them (`batch/render.rs`, which documents what is captured and what inferred).

use std::fmt::Write as _;

use dynomodel::backend::{ExpressionAttributeNames, TransactGet, TransactWriteItem};
use dynomodel::Item;

use crate::ops::batch::render::{java_map, reserve_for_rest};

/// A Lombok `toString` being written: `Name(a=…, b=null, …)`.
struct Lombok<'o> {
    out: &'o mut String,
    first: bool,
}

impl<'o> Lombok<'o> {
    fn new(out: &'o mut String, name: &str) -> Lombok<'o> {
        out.push_str(name);
        out.push('(');
        Lombok { out, first: true }
    }

    /// The next field's `name=`.
    fn name(&mut self, name: &str) -> &mut String {
        if !self.first {
            self.out.push_str(", ");
        }
        self.first = false;
        self.out.push_str(name);
        self.out.push('=');
        self.out
    }

    fn text(&mut self, name: &str, value: Option<&str>) -> &mut Self {
        let out = self.name(name);
        out.push_str(value.unwrap_or("null"));
        self
    }

    fn item(&mut self, name: &str, value: Option<&Item>) -> &mut Self {
        let out = self.name(name);
        match value {
            Some(item) => java_map(out, item, 1),
            None => out.push_str("null"),
        }
        self
    }

    fn names(&mut self, name: &str, value: Option<&ExpressionAttributeNames>) -> &mut Self {
        let out = self.name(name);
        match value {
            Some(names) => {
                out.push('{');
                for (i, (placeholder, attribute)) in names.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    let _ = write!(out, "{placeholder}={attribute}");
                }
                out.push('}');
            }
            None => out.push_str("null"),
        }
        self
    }

    /// A field holding another object, printed by `print`, or `null`.
    fn object(&mut self, name: &str, print: Option<&dyn Fn(&mut String)>) -> &mut Self {
        let out = self.name(name);
        match print {
            Some(print) => print(out),
            None => out.push_str("null"),
        }
        self
    }

    fn end(&mut self) {
        self.out.push(')');
    }
}

/// The fields every write action shares after its own, in the model's order.
fn common(
    l: &mut Lombok<'_>,
    condition: Option<&str>,
    names: Option<&ExpressionAttributeNames>,
    values: Option<&Item>,
    on_failure: Option<dynomodel::backend::ReturnValuesOnConditionCheckFailure>,
) {
    l.text("conditionExpression", condition)
        .names("expressionAttributeNames", names)
        .item("expressionAttributeValues", values)
        .text(
            "returnValuesOnConditionCheckFailure",
            on_failure.map(|r| r.as_str()),
        )
        .end();
}

/// One write action, as its own object (`Put(…)`).
fn action(out: &mut String, action: &TransactWriteItem) {
    match action {
        TransactWriteItem::ConditionCheck(c) => {
            let mut l = Lombok::new(out, "ConditionCheck");
            l.item("key", Some(&c.key))
                .text("tableName", Some(&c.table_name));
            common(
                &mut l,
                Some(&c.condition_expression),
                c.expression_attribute_names.as_ref(),
                c.expression_attribute_values.as_ref(),
                c.return_values_on_condition_check_failure,
            );
        }
        TransactWriteItem::Put(p) => {
            let mut l = Lombok::new(out, "Put");
            l.item("item", Some(&p.item))
                .text("tableName", Some(&p.table_name));
            common(
                &mut l,
                p.condition_expression.as_deref(),
                p.expression_attribute_names.as_ref(),
                p.expression_attribute_values.as_ref(),
                p.return_values_on_condition_check_failure,
            );
        }
        TransactWriteItem::Delete(d) => {
            let mut l = Lombok::new(out, "Delete");
            l.item("key", Some(&d.key))
                .text("tableName", Some(&d.table_name));
            common(
                &mut l,
                d.condition_expression.as_deref(),
                d.expression_attribute_names.as_ref(),
                d.expression_attribute_values.as_ref(),
                d.return_values_on_condition_check_failure,
            );
        }
        TransactWriteItem::Update(u) => {
            let mut l = Lombok::new(out, "Update");
            l.item("key", Some(&u.key))
                .text("updateExpression", Some(&u.update_expression))
                .text("tableName", Some(&u.table_name));
            common(
                &mut l,
                u.condition_expression.as_deref(),
                u.expression_attribute_names.as_ref(),
                u.expression_attribute_values.as_ref(),
                u.return_values_on_condition_check_failure,
            );
        }
    }
}

/// A TransactWriteItems' actions, as the service prints the list, written to `out` (the message being
/// built: an over-long list prints every action, megabytes of them).
pub(crate) fn write_items(out: &mut String, actions: &[TransactWriteItem]) {
    out.push('[');
    let start = out.len();
    for (i, a) in actions.iter().enumerate() {
        if i == 1 {
            reserve_for_rest(out, out.len() - start, actions.len() - 1);
        }
        if i > 0 {
            out.push_str(", ");
        }
        let print = |out: &mut String| action(out, a);
        let slot = match a {
            TransactWriteItem::ConditionCheck(_) => 0,
            TransactWriteItem::Put(_) => 1,
            TransactWriteItem::Delete(_) => 2,
            TransactWriteItem::Update(_) => 3,
        };
        let field = |n: usize| (n == slot).then_some(&print as &dyn Fn(&mut String));
        Lombok::new(out, "TransactWriteItem")
            .object("conditionCheck", field(0))
            .object("put", field(1))
            .object("delete", field(2))
            .object("update", field(3))
            .end();
    }
    out.push(']');
}

/// A TransactGetItems' reads, as the service prints the list, written to `out`.
pub(crate) fn get_items(out: &mut String, gets: &[TransactGet]) {
    out.push('[');
    for (i, get) in gets.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let print = |out: &mut String| {
            Lombok::new(out, "Get")
                .item("key", Some(&get.key))
                .text("tableName", Some(&get.table_name))
                .text("projectionExpression", get.projection_expression.as_deref())
                .names(
                    "expressionAttributeNames",
                    get.expression_attribute_names.as_ref(),
                )
                .end();
        };
        Lombok::new(out, "TransactGetItem")
            .object("get", Some(&print))
            .end();
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use dynomodel::backend::TransactPut;
    use dynomodel::AttributeValue;

    use super::*;

    /// What `write` writes into an empty string.
    fn printed(write: impl FnOnce(&mut String)) -> String {
        let mut out = String::new();
        write(&mut out);
        out
    }

    #[test]
    fn a_put_prints_as_lombok_does() {
        let put = TransactWriteItem::Put(TransactPut {
            table_name: "t".into(),
            item: [("pk".to_owned(), AttributeValue::S("a".into()))].into(),
            ..Default::default()
        });
        assert_eq!(
            printed(|out| write_items(out, &[put])),
            "[TransactWriteItem(conditionCheck=null, put=Put(item={pk=AttributeValue(s=a, n=null, \
             b=null, iNT=null, dECIMAL=null, dOUBLE=null, sS=null, nS=null, bS=null, iNTSET=null, \
             dECIMALSET=null, dOUBLESET=null, m=null, l=null, nULL=null, bOOL=null)}, tableName=t, \
             conditionExpression=null, expressionAttributeNames=null, expressionAttributeValues=null, \
             returnValuesOnConditionCheckFailure=null), delete=null, update=null)]"
        );
        let get = TransactGet {
            table_name: "t".into(),
            key: Item::new(),
            projection_expression: Some("a".into()),
            expression_attribute_names: None,
        };
        assert_eq!(
            printed(|out| get_items(out, &[get])),
            "[TransactGetItem(get=Get(key={}, tableName=t, projectionExpression=a, \
             expressionAttributeNames=null))]"
        );
    }
}
