//! How the mapper names models, keys and items in its errors, the same way for batches,
//! transactions and version conflicts: ``Account {id: "alice"} in `accounts` ``.

use std::fmt;

use crate::value::{AttributeValue, Item};

/// The model's Rust type name without its module path (`Account`, not `bank::Account`).
///
/// A type name's only colons are its paths' `::`, so what follows the last colon is what follows
/// the last `::`: found by one byte search, where a `"::"` pattern builds a two-way string
/// searcher (~400 instructions, paid by every page of a read, which names its source up front).
pub(crate) fn model_name<M>() -> &'static str {
    let full = std::any::type_name::<M>();
    full.rfind(':').map_or(full, |colon| &full[colon + 1..])
}

/// A key as errors print it: `{id: "1", userid: "abc"}`, attributes by name (strings quoted,
/// numbers bare, other values in DynamoDB's JSON form).
pub(crate) struct ShowKey<'k>(pub(crate) &'k Item);

impl fmt::Display for ShowKey<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, (name, value)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            match value {
                AttributeValue::S(s) => write!(f, "{name}: {s:?}")?,
                AttributeValue::N(n) => write!(f, "{name}: {n}")?,
                other => write!(f, "{name}: {other}")?,
            }
        }
        f.write_str("}")
    }
}

/// One item as errors name it: ``Account {id: "alice"} in `accounts` `` (model, key, table with
/// its namespace).
pub(crate) struct ItemName<'a> {
    pub(crate) model: &'a str,
    pub(crate) key: &'a Item,
    pub(crate) table: &'a str,
}

impl fmt::Display for ItemName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} in `{}`",
            self.model,
            ShowKey(self.key),
            self.table
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Number;

    #[test]
    fn model_names_drop_the_module_path() {
        mod bank {
            pub(super) struct Account;
            pub(super) struct Wrapper<T>(#[allow(dead_code)] T);
        }
        struct Local;
        assert_eq!(model_name::<bank::Account>(), "Account");
        assert_eq!(model_name::<Local>(), "Local");
        assert_eq!(model_name::<u8>(), "u8");
        // A generic model names its last path segment, as `rsplit("::")` did.
        assert_eq!(model_name::<bank::Wrapper<bank::Account>>(), "Account>");
    }

    #[test]
    fn items_are_named_by_model_key_and_table() {
        let key = Item::from([
            ("userid".to_owned(), AttributeValue::S("abc".into())),
            ("seq".to_owned(), AttributeValue::N(Number::from(9))),
            ("blob".to_owned(), AttributeValue::B(vec![1])),
        ]);
        let name = ItemName {
            model: model_name::<crate::db::Db>(),
            key: &key,
            table: "test-tweets",
        };
        assert_eq!(
            name.to_string(),
            r#"Db {blob: {"B":"AQ=="}, seq: 9, userid: "abc"} in `test-tweets`"#
        );
        assert_eq!(ShowKey(&Item::new()).to_string(), "{}");
    }
}
