//! How [`Db::sync`](crate::Db::sync) writes the change of a counter: as the difference between
//! the two values, by `ADD` (and `DELETE` for set elements), never as the new value. Writing the
//! value would undo the increments others made since `before` was read; the difference adds to
//! them.

use std::collections::BTreeSet;

use crate::error::{Error, Result};
use crate::expression::Update;
use crate::value::AttributeValue;

/// Adds the change of counter `name` from `was` to `is` to `update`: `ADD` of the difference of
/// two numbers (of the new number when there was none), `ADD` of the elements a set gained and
/// `DELETE` of those it lost, `REMOVE` when `is` stores nothing (the counter was cleared). `item`
/// names the item in errors (called only then).
pub(crate) fn sync_counter<M>(
    update: Update<M>,
    name: &str,
    was: Option<&AttributeValue>,
    is: Option<&AttributeValue>,
    item: impl Fn() -> String,
) -> Result<Update<M>> {
    use AttributeValue::{Bs, Ns, Ss, N};
    let refused =
        |why: String| Error::validation(format!("sync of {}: counter `{name}` {why}", item()));
    let (gained, lost) = match (was, is) {
        (_, None) => return Ok(update.remove_attribute(name)),
        (None, Some(is)) => (Some(is.clone()), None),
        (Some(N(a)), Some(N(b))) if a == b => (None, None),
        (Some(N(a)), Some(N(b))) => {
            let delta = b.checked_sub(a).map_err(|e| {
                refused(format!(
                    "changed from {a} to {b}, a difference that is no number: {e}"
                ))
            })?;
            (Some(N(delta)), None)
        }
        (Some(Ss(a)), Some(Ss(b))) => sets(a, b, Ss),
        (Some(Ns(a)), Some(Ns(b))) => sets(a, b, Ns),
        (Some(Bs(a)), Some(Bs(b))) => sets(a, b, Bs),
        (Some(a), Some(b)) => {
            return Err(refused(format!(
                "changed from {} to {}, which no ADD turns one into the other",
                a.type_name(),
                b.type_name()
            )));
        }
    };
    match (gained, lost) {
        (Some(_), Some(_)) => Err(refused(
            "both gained and lost elements, and one update cannot ADD to and DELETE from one \
             attribute; write them as two updates (`add`, then `delete`)"
                .to_owned(),
        )),
        (Some(gained), None) => Ok(update.add_attribute(name, gained)),
        (None, Some(lost)) => Ok(update.delete_attribute(name, lost)),
        (None, None) => Ok(update),
    }
}

/// The elements `b` has and `a` lacks, and those `a` has and `b` lacks, as sets made by `set`
/// (`None` for none).
fn sets<T: Ord + Clone>(
    a: &[T],
    b: &[T],
    set: fn(Vec<T>) -> AttributeValue,
) -> (Option<AttributeValue>, Option<AttributeValue>) {
    let (old, new): (BTreeSet<&T>, BTreeSet<&T>) = (a.iter().collect(), b.iter().collect());
    let some = |elements: Vec<T>| (!elements.is_empty()).then(|| set(elements));
    (
        some(new.difference(&old).map(|e| (*e).clone()).collect()),
        some(old.difference(&new).map(|e| (*e).clone()).collect()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expression::ExpressionContext;
    use crate::value::Number;

    fn rendered(
        was: Option<AttributeValue>,
        is: Option<AttributeValue>,
    ) -> Result<(Option<String>, Vec<AttributeValue>)> {
        let update = sync_counter::<()>(Update::new(), "c", was.as_ref(), is.as_ref(), || {
            "Doc {id: 1}".to_owned()
        })?;
        let mut ctx = ExpressionContext::new();
        let text = ctx.update(&update)?;
        Ok((text, ctx.finish().1.into_values().collect()))
    }

    fn n(v: &str) -> AttributeValue {
        AttributeValue::N(v.parse::<Number>().expect("a number"))
    }

    fn ss(v: &[&str]) -> AttributeValue {
        AttributeValue::Ss(v.iter().map(|s| (*s).to_owned()).collect())
    }

    #[test]
    fn numbers_change_by_their_difference() {
        assert_eq!(
            rendered(Some(n("3")), Some(n("5.5"))).expect("renders"),
            (Some("ADD #n0 :v0".into()), vec![n("2.5")])
        );
        assert_eq!(
            rendered(Some(n("5")), Some(n("3"))).expect("renders"),
            (Some("ADD #n0 :v0".into()), vec![n("-2")])
        );
        assert_eq!(
            rendered(None, Some(n("4"))).expect("renders"),
            (Some("ADD #n0 :v0".into()), vec![n("4")])
        );
        assert_eq!(
            rendered(Some(n("4")), None).expect("renders"),
            (Some("REMOVE #n0".into()), vec![])
        );
    }

    #[test]
    fn sets_add_what_they_gained_and_delete_what_they_lost() {
        assert_eq!(
            rendered(Some(ss(&["a"])), Some(ss(&["a", "b"]))).expect("renders"),
            (Some("ADD #n0 :v0".into()), vec![ss(&["b"])])
        );
        assert_eq!(
            rendered(Some(ss(&["a", "b"])), Some(ss(&["b"]))).expect("renders"),
            (Some("DELETE #n0 :v0".into()), vec![ss(&["a"])])
        );
        let err = rendered(Some(ss(&["a"])), Some(ss(&["b"]))).expect_err("both ways");
        assert_eq!(
            err.message(),
            "sync of Doc {id: 1}: counter `c` both gained and lost elements, and one update \
             cannot ADD to and DELETE from one attribute; write them as two updates (`add`, then \
             `delete`)"
        );
    }
}
