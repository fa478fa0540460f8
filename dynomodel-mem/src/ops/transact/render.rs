//! How DynamoDB prints a transaction's `TransactItems` in the `Value '…'` of a constraint message:
//! "1 validation error detected: Value '[…]' at 'transactItems' failed to satisfy constraint: Member
//! must have length less than or equal to 100" (an eu-north-1 answer reproduced in a
//! public project's test double; the conformance suite pins the envelope and leaves the dump free).
//!
//! The service prints Java's `toString` of its request objects: Lombok's `Name(field=value, …)` with
//! every field of the service model in its order, `null` for an absent one, and the attribute values as
//! BatchWriteItem prints them (`batch/render.rs`, which documents what is captured and what inferred).

use dynomodel::backend::{
    ExpressionAttributeNames, ReturnValuesOnConditionCheckFailure, TransactGet, TransactWriteItem,
};
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
        java_names(self.name(name), value);
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

/// The fields every write action shares after its own, in the model's order, and the action's `)`.
/// Written in pieces as long as can be, and all at once when none is set (the usual action): a
/// long list's message prints thousands of actions, and a field at a time was half its cost.
fn common(
    out: &mut String,
    condition: Option<&str>,
    names: Option<&ExpressionAttributeNames>,
    values: Option<&Item>,
    on_failure: Option<ReturnValuesOnConditionCheckFailure>,
) {
    if condition.is_none() && names.is_none() && values.is_none() && on_failure.is_none() {
        out.push_str(
            ", conditionExpression=null, expressionAttributeNames=null, \
             expressionAttributeValues=null, returnValuesOnConditionCheckFailure=null)",
        );
        return;
    }
    out.push_str(", conditionExpression=");
    out.push_str(condition.unwrap_or("null"));
    out.push_str(", expressionAttributeNames=");
    java_names(out, names);
    out.push_str(", expressionAttributeValues=");
    match values {
        Some(item) => java_map(out, item, 1),
        None => out.push_str("null"),
    }
    out.push_str(", returnValuesOnConditionCheckFailure=");
    out.push_str(on_failure.map_or("null", |r| r.as_str()));
    out.push(')');
}

/// `ExpressionAttributeNames` as Java prints the map (`{#a=name}`), or `null`.
fn java_names(out: &mut String, names: Option<&ExpressionAttributeNames>) {
    let Some(names) = names else {
        out.push_str("null");
        return;
    };
    out.push('{');
    for (i, (placeholder, attribute)) in names.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(placeholder);
        out.push('=');
        out.push_str(attribute);
    }
    out.push('}');
}

/// One write action in its `TransactWriteItem(…)`: the wrapper's `null` fields around the action's
/// own object (`Put(…)`).
fn write_item(out: &mut String, action: &TransactWriteItem) {
    let (key, table, common_fields, after) = match action {
        TransactWriteItem::ConditionCheck(c) => {
            out.push_str("TransactWriteItem(conditionCheck=ConditionCheck(key=");
            (
                &c.key,
                &c.table_name,
                (
                    Some(c.condition_expression.as_str()),
                    &c.expression_attribute_names,
                    &c.expression_attribute_values,
                    c.return_values_on_condition_check_failure,
                ),
                ", put=null, delete=null, update=null)",
            )
        }
        TransactWriteItem::Put(p) => {
            out.push_str("TransactWriteItem(conditionCheck=null, put=Put(item=");
            (
                &p.item,
                &p.table_name,
                (
                    p.condition_expression.as_deref(),
                    &p.expression_attribute_names,
                    &p.expression_attribute_values,
                    p.return_values_on_condition_check_failure,
                ),
                ", delete=null, update=null)",
            )
        }
        TransactWriteItem::Delete(d) => {
            out.push_str("TransactWriteItem(conditionCheck=null, put=null, delete=Delete(key=");
            (
                &d.key,
                &d.table_name,
                (
                    d.condition_expression.as_deref(),
                    &d.expression_attribute_names,
                    &d.expression_attribute_values,
                    d.return_values_on_condition_check_failure,
                ),
                ", update=null)",
            )
        }
        TransactWriteItem::Update(u) => {
            out.push_str(
                "TransactWriteItem(conditionCheck=null, put=null, delete=null, update=Update(key=",
            );
            java_map(out, &u.key, 1);
            out.push_str(", updateExpression=");
            out.push_str(&u.update_expression);
            out.push_str(", tableName=");
            out.push_str(&u.table_name);
            common(
                out,
                u.condition_expression.as_deref(),
                u.expression_attribute_names.as_ref(),
                u.expression_attribute_values.as_ref(),
                u.return_values_on_condition_check_failure,
            );
            out.push(')');
            return;
        }
    };
    java_map(out, key, 1);
    out.push_str(", tableName=");
    out.push_str(table);
    let (condition, names, values, on_failure) = common_fields;
    common(out, condition, names.as_ref(), values.as_ref(), on_failure);
    out.push_str(after);
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
        write_item(out, a);
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

    // The renderer as it was, one Lombok field at a time: what the message must still print.
    /// The fields every write action shares after its own, in the model's order.
    fn reference_common(
        l: &mut Lombok<'_>,
        condition: Option<&str>,
        names: Option<&ExpressionAttributeNames>,
        values: Option<&Item>,
        on_failure: Option<ReturnValuesOnConditionCheckFailure>,
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
    fn reference_action(out: &mut String, action: &TransactWriteItem) {
        match action {
            TransactWriteItem::ConditionCheck(c) => {
                let mut l = Lombok::new(out, "ConditionCheck");
                l.item("key", Some(&c.key))
                    .text("tableName", Some(&c.table_name));
                reference_common(
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
                reference_common(
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
                reference_common(
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
                reference_common(
                    &mut l,
                    u.condition_expression.as_deref(),
                    u.expression_attribute_names.as_ref(),
                    u.expression_attribute_values.as_ref(),
                    u.return_values_on_condition_check_failure,
                );
            }
        }
    }

    /// A TransactWriteItems' actions, as the field-at-a-time renderer printed the list.
    fn reference_write_items(out: &mut String, actions: &[TransactWriteItem]) {
        out.push('[');
        for (i, a) in actions.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let print = |out: &mut String| reference_action(out, a);
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

    /// Every action kind, with each optional field absent or set (names of several entries, values
    /// nested, every `ReturnValuesOnConditionCheckFailure`), prints as the field-at-a-time renderer
    /// printed it.
    #[test]
    fn every_action_prints_as_the_reference_does() {
        use dynomodel::backend::{TransactConditionCheck, TransactDelete, TransactUpdate};
        let key: Item = [
            ("pk".to_owned(), AttributeValue::S("a=b, c".into())),
            ("sk".to_owned(), AttributeValue::N(12.into())),
        ]
        .into();
        let names: ExpressionAttributeNames = [
            ("#a".to_owned(), "attr".to_owned()),
            ("#b".to_owned(), "other name".to_owned()),
        ]
        .into();
        let values: Item = [(
            ":v".to_owned(),
            AttributeValue::M([("x".to_owned(), AttributeValue::Bool(true))].into()),
        )]
        .into();
        let mut actions = Vec::new();
        for mask in 0..16u8 {
            let condition = (mask & 1 != 0).then(|| "attribute_exists(#a)".to_owned());
            let names = (mask & 2 != 0).then(|| names.clone());
            let values = (mask & 4 != 0).then(|| values.clone());
            let on_failure = (mask & 8 != 0).then_some(if mask & 1 != 0 {
                ReturnValuesOnConditionCheckFailure::AllOld
            } else {
                ReturnValuesOnConditionCheckFailure::None
            });
            actions.push(TransactWriteItem::Put(TransactPut {
                table_name: "t".into(),
                item: key.clone(),
                condition_expression: condition.clone(),
                expression_attribute_names: names.clone(),
                expression_attribute_values: values.clone(),
                return_values_on_condition_check_failure: on_failure,
            }));
            actions.push(TransactWriteItem::Delete(TransactDelete {
                table_name: "arn:aws:dynamodb:us-east-1:000000000000:table/t".into(),
                key: key.clone(),
                condition_expression: condition.clone(),
                expression_attribute_names: names.clone(),
                expression_attribute_values: values.clone(),
                return_values_on_condition_check_failure: on_failure,
            }));
            actions.push(TransactWriteItem::Update(TransactUpdate {
                table_name: "t2".into(),
                key: key.clone(),
                update_expression: "SET #a = :v".into(),
                condition_expression: condition.clone(),
                expression_attribute_names: names.clone(),
                expression_attribute_values: values.clone(),
                return_values_on_condition_check_failure: on_failure,
            }));
            actions.push(TransactWriteItem::ConditionCheck(TransactConditionCheck {
                table_name: "t".into(),
                key: Item::new(),
                condition_expression: condition.unwrap_or_default(),
                expression_attribute_names: names,
                expression_attribute_values: values,
                return_values_on_condition_check_failure: on_failure,
            }));
        }
        for action in &actions {
            let one = std::slice::from_ref(action);
            assert_eq!(
                printed(|out| write_items(out, one)),
                printed(|out| reference_write_items(out, one))
            );
        }
        assert_eq!(
            printed(|out| write_items(out, &actions)),
            printed(|out| reference_write_items(out, &actions))
        );
    }
}
