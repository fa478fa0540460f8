//! The set operands an UpdateExpression's ADD can take out of its request's
//! `ExpressionAttributeValues`: the update owns them then, and their new elements move into the
//! stored set rather than being copied out of the request (a copy and a free per element of a large
//! set ADD).

use dynomodel::{AttributeValue, Item};

use super::ast::{Clause, Operand, UpdateExpression};

/// Operands of this many elements or fewer stay in the request: a copy of a few is cheaper than
/// looking for their placeholder in the texts.
const MOVED_FROM: usize = 17;

/// Takes out of `values` each set of more than a few elements that an ADD of `expr` uses and
/// nothing else reads: its placeholder appears once in `update` (the text `expr` was parsed from)
/// and not in `condition`. Returns them by placeholder, for [`apply`](super::update::apply).
/// A placeholder counted where the text has it as part of something else only keeps its value in
/// the request, as before.
pub(crate) fn set_operands(
    expr: &UpdateExpression,
    values: &mut Item,
    update: &str,
    condition: Option<&str>,
) -> Item {
    let mut taken = Item::new();
    for clause in &expr.clauses {
        let Clause::Add(actions) = clause else {
            continue;
        };
        for action in actions {
            let Operand::Value(placeholder) = &action.value else {
                continue;
            };
            let large = values.get(placeholder).is_some_and(|v| match v {
                AttributeValue::Ss(s) => s.len() >= MOVED_FROM,
                AttributeValue::Ns(s) => s.len() >= MOVED_FROM,
                AttributeValue::Bs(s) => s.len() >= MOVED_FROM,
                _ => false,
            });
            if large
                && uses(update, placeholder) == 1
                && condition.is_none_or(|c| uses(c, placeholder) == 0)
                && let Some((name, value)) = values.remove_entry(placeholder)
            {
                taken.insert(name, value);
            }
        }
    }
    taken
}

/// How many times `placeholder` stands in `text` as a whole token (not followed by a character a
/// placeholder can hold).
fn uses(text: &str, placeholder: &str) -> usize {
    text.match_indices(placeholder)
        .filter(|(at, _)| {
            !text[at + placeholder.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placeholder_counts_as_a_whole_token() {
        assert_eq!(uses("ADD s :s", ":s"), 1);
        assert_eq!(uses("ADD s :s, t :s2", ":s"), 1);
        assert_eq!(uses("ADD s :s, t :s_", ":s"), 1);
        assert_eq!(uses("ADD s :s SET t = :s", ":s"), 2);
        assert_eq!(uses("ADD s :ss", ":s"), 0);
        assert_eq!(uses("contains(s,:s)", ":s"), 1);
        assert_eq!(uses("", ":s"), 0);
    }
}
