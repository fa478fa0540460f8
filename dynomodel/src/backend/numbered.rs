//! [`NumberedAttributes`]: a request's `ExpressionAttributeNames` and `ExpressionAttributeValues`
//! as the mapper renders them, numbered rather than in maps, so that a backend sending them in
//! its own map type (the AWS SDK's `HashMap`s) builds that map once.

use crate::backend::item::{ExpressionAttributeNames, ExpressionAttributeValues};
use crate::value::{AttributeValue, Item};

/// The names and values of a request's expressions, placeholder `#n<i>` standing for `names[i]`
/// and `:v<i>` for `values[i]` (what [`ExpressionContext`](crate::expression::ExpressionContext)
/// writes): the form [`Backend::query_numbered_into`](crate::Backend::query_numbered_into) takes
/// them in, each backend building its own maps from it.
///
/// ```
/// use dynomodel::AttributeValue;
/// use dynomodel::backend::NumberedAttributes;
///
/// let numbered = NumberedAttributes {
///     names: vec!["userid".into()],
///     values: vec![AttributeValue::S("abc".into())],
/// };
/// let (names, values) = numbered.into_maps();
/// assert_eq!(names["#n0"], "userid");
/// assert_eq!(values[":v0"], AttributeValue::S("abc".into()));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NumberedAttributes {
    /// The attribute names, `#n0`, `#n1`, ... in order.
    pub names: Vec<String>,
    /// The values, `:v0`, `:v1`, ... in order.
    pub values: Vec<AttributeValue>,
}

impl NumberedAttributes {
    /// The names with their placeholders: `("#n0", names[0])`, ...
    pub fn named(names: Vec<String>) -> impl ExactSizeIterator<Item = (String, String)> {
        names
            .into_iter()
            .enumerate()
            .map(|(i, name)| (placeholder("#n", i), name))
    }

    /// The values with their placeholders: `(":v0", values[0])`, ...
    pub fn valued(
        values: Vec<AttributeValue>,
    ) -> impl ExactSizeIterator<Item = (String, AttributeValue)> {
        values
            .into_iter()
            .enumerate()
            .map(|(i, value)| (placeholder(":v", i), value))
    }

    /// The two maps a request holds (both empty when nothing was rendered).
    pub fn into_maps(self) -> (ExpressionAttributeNames, ExpressionAttributeValues) {
        // Built by insertion: `collect` into a `BTreeMap` sorts a vector first, which for the few
        // placeholders of a request costs more than the inserts.
        let mut names = ExpressionAttributeNames::new();
        for (placeholder, name) in Self::named(self.names) {
            names.insert(placeholder, name);
        }
        let mut values = Item::new();
        for (placeholder, value) in Self::valued(self.values) {
            values.insert(placeholder, value);
        }
        (names, values)
    }

    /// Adds the names and values to a request's maps (`None`: absent, made when there is something
    /// to add; an empty map given stays as it is).
    pub fn fill(
        self,
        names: &mut Option<ExpressionAttributeNames>,
        values: &mut Option<ExpressionAttributeValues>,
    ) {
        if !self.names.is_empty() {
            names
                .get_or_insert_default()
                .extend(Self::named(self.names));
        }
        if !self.values.is_empty() {
            values
                .get_or_insert_default()
                .extend(Self::valued(self.values));
        }
    }
}

/// `#n3`, `:v12`.
pub(crate) fn placeholder(prefix: &str, i: usize) -> String {
    let mut out = String::with_capacity(prefix.len() + 4);
    push_placeholder(&mut out, prefix, i);
    out
}

pub(crate) fn push_placeholder(out: &mut String, prefix: &str, i: usize) {
    out.push_str(prefix);
    push_decimal(out, i);
}

/// Writes `n` in decimal without going through `fmt` (placeholders are written many times a request).
pub(crate) fn push_decimal(out: &mut String, n: usize) {
    if n >= 10 {
        push_decimal(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbered() -> NumberedAttributes {
        NumberedAttributes {
            names: (0..12).map(|i| format!("a{i}")).collect(),
            values: vec![AttributeValue::Bool(true), AttributeValue::Null],
        }
    }

    #[test]
    fn maps_hold_every_placeholder() {
        let (names, values) = numbered().into_maps();
        assert_eq!(names.len(), 12);
        assert_eq!(names["#n0"], "a0");
        assert_eq!(names["#n11"], "a11");
        assert_eq!(values[":v1"], AttributeValue::Null);
        let (names, values) = NumberedAttributes::default().into_maps();
        assert!(names.is_empty() && values.is_empty());
    }

    #[test]
    fn fill_adds_to_the_maps_and_makes_none_from_nothing() {
        let (mut names, mut values) = (None, None);
        NumberedAttributes::default().fill(&mut names, &mut values);
        assert_eq!((names.as_ref(), values.as_ref()), (None, None));
        let mut names = Some(ExpressionAttributeNames::from([("#x".into(), "x".into())]));
        let mut values = Some(Item::new());
        NumberedAttributes::default().fill(&mut names, &mut values);
        assert_eq!(values, Some(Item::new()), "an empty map given stays");
        numbered().fill(&mut names, &mut values);
        let (all_names, all_values) = numbered().into_maps();
        let names = names.unwrap();
        assert_eq!(names.len(), 13);
        assert!(all_names.iter().all(|(k, v)| names.get(k) == Some(v)));
        assert_eq!(values, Some(all_values));
    }

    #[test]
    fn decimals() {
        let mut out = String::new();
        for n in [0, 7, 10, 99, 100, 4096] {
            push_decimal(&mut out, n);
            out.push(' ');
        }
        assert_eq!(out, "0 7 10 99 100 4096 ");
    }
}
