//! Signs of a single-table design in the sample: an entity-type attribute, or key values with
//! literal prefixes (`USER#u1`); the items grouped by entity type, and each key's prefix.

use std::collections::{BTreeMap, BTreeSet};

use crate::value::{AttributeValue, Item};

/// Most entity types a proposal holds: more distinct values are data, not types.
const MAX_ENTITY_TYPES: usize = 32;

/// Attribute names (lowercase, letters and digits only) that usually hold an item's entity type.
const ENTITY_ATTRIBUTES: &[&str] = &[
    "et",
    "entitytype",
    "entity",
    "type",
    "typename",
    "itemtype",
    "recordtype",
    "objecttype",
    "kind",
];

/// What the entity types were told apart by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Evidence {
    /// The value of this attribute, held as S by every sampled item.
    Attribute(String),
    /// The prefix of the key attribute's values (the range key's, else the hash key's).
    KeyPrefix(String),
}

/// The sample split by entity type (in the order of the types' names).
#[derive(Debug)]
pub(crate) struct Entities<'a> {
    pub(crate) evidence: Evidence,
    pub(crate) groups: BTreeMap<String, Vec<&'a Item>>,
}

/// The literal prefix of a key value `PREFIX#rest`: letters, digits, `_` or `-`, then `#` and
/// something after it.
pub(crate) fn prefix(value: &AttributeValue) -> Option<&str> {
    let AttributeValue::S(text) = value else {
        return None;
    };
    let (prefix, rest) = text.split_once('#')?;
    let word = !prefix.is_empty()
        && prefix
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    (word && !rest.is_empty()).then_some(prefix)
}

/// The prefix every item's `attribute` has, if they share one.
pub(crate) fn common_prefix(items: &[&Item], attribute: &str) -> Option<String> {
    let mut prefixes = items
        .iter()
        .map(|item| item.get(attribute).and_then(prefix));
    let first = prefixes.next()??;
    prefixes.all(|p| p == Some(first)).then(|| first.to_owned())
}

/// How the sample splits into entity types, when it does: by an entity-type attribute, else by
/// the prefixes of the range key, else of the hash key. One type only is no split.
pub(crate) fn detect<'a>(items: &'a [Item], keys: &[&str]) -> Option<Entities<'a>> {
    if items.is_empty() {
        return None;
    }
    let candidates: BTreeSet<&str> = items
        .iter()
        .flat_map(|item| item.keys().map(String::as_str))
        .filter(|name| !keys.contains(name))
        .collect();
    let normalized = |name: &str| -> String {
        name.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    for wanted in ENTITY_ATTRIBUTES {
        for &name in candidates.iter().filter(|name| normalized(name) == *wanted) {
            let groups = group_by(items, |item| match item.get(name) {
                Some(AttributeValue::S(value)) if !value.is_empty() => Some(value.clone()),
                _ => None,
            });
            if let Some(groups) = groups {
                return Some(Entities {
                    evidence: Evidence::Attribute(name.to_owned()),
                    groups,
                });
            }
        }
    }
    for key in keys.iter().rev() {
        let groups = group_by(items, |item| {
            item.get(*key).and_then(prefix).map(str::to_owned)
        });
        if let Some(groups) = groups {
            return Some(Entities {
                evidence: Evidence::KeyPrefix((*key).to_owned()),
                groups,
            });
        }
    }
    None
}

/// The items grouped by `kind`, when every item has one and there are 2 to `MAX_ENTITY_TYPES`.
fn group_by(
    items: &[Item],
    kind: impl Fn(&Item) -> Option<String>,
) -> Option<BTreeMap<String, Vec<&Item>>> {
    let mut groups: BTreeMap<String, Vec<&Item>> = BTreeMap::new();
    for item in items {
        groups.entry(kind(item)?).or_default().push(item);
    }
    (2..=MAX_ENTITY_TYPES)
        .contains(&groups.len())
        .then_some(groups)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(pairs: &[(&str, &str)]) -> Item {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), AttributeValue::S((*v).to_owned())))
            .collect()
    }

    #[test]
    fn prefixes_are_words_before_a_hash_sign() {
        let s = |t: &str| AttributeValue::S(t.to_owned());
        assert_eq!(prefix(&s("USER#u1")), Some("USER"));
        assert_eq!(prefix(&s("ORDER#2026-01-01#7")), Some("ORDER"));
        assert_eq!(prefix(&s("USER#")), None);
        assert_eq!(prefix(&s("a b#c")), None);
        assert_eq!(prefix(&s("plain")), None);
    }

    #[test]
    fn an_entity_attribute_wins_over_prefixes() {
        let items = [
            item(&[("pk", "USER#1"), ("sk", "PROFILE#1"), ("_et", "User")]),
            item(&[("pk", "USER#1"), ("sk", "ORDER#7"), ("_et", "Order")]),
        ];
        let found = detect(&items, &["pk", "sk"]).expect("entities");
        assert_eq!(found.evidence, Evidence::Attribute("_et".into()));
        assert_eq!(found.groups.keys().collect::<Vec<_>>(), ["Order", "User"]);
        assert_eq!(
            common_prefix(&found.groups["Order"], "sk").as_deref(),
            Some("ORDER")
        );
        assert_eq!(
            common_prefix(&found.groups["Order"], "pk").as_deref(),
            Some("USER")
        );
    }

    #[test]
    fn key_prefixes_split_without_an_attribute() {
        let items = [
            item(&[("pk", "USER#1"), ("sk", "PROFILE#1")]),
            item(&[("pk", "USER#1"), ("sk", "ORDER#7")]),
        ];
        let found = detect(&items, &["pk", "sk"]).expect("entities");
        assert_eq!(found.evidence, Evidence::KeyPrefix("sk".into()));
        // One prefix everywhere is no split.
        let one = [item(&[("pk", "USER#1")]), item(&[("pk", "USER#2")])];
        assert!(detect(&one, &["pk"]).is_none());
    }
}
