//! `rename_all` rules: how a snake_case Rust field name becomes a DynamoDB attribute name.

/// A `rename_all` rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RenameRule {
    /// `snake_case` (the Rust name unchanged).
    Snake,
    /// `camelCase`.
    Camel,
    /// `PascalCase`.
    Pascal,
    /// `SCREAMING_SNAKE_CASE`.
    ScreamingSnake,
    /// `kebab-case`.
    Kebab,
    /// `lowercase`.
    Lower,
    /// `UPPERCASE`.
    Upper,
}

impl RenameRule {
    /// The accepted spellings, for error messages.
    pub(crate) const NAMES: &'static str = "\"camelCase\", \"snake_case\", \"PascalCase\", \"SCREAMING_SNAKE_CASE\", \"kebab-case\", \"lowercase\" or \"UPPERCASE\"";

    /// The rule named `name`.
    pub(crate) fn parse(name: &str) -> Option<RenameRule> {
        Some(match name {
            "snake_case" => RenameRule::Snake,
            "camelCase" => RenameRule::Camel,
            "PascalCase" => RenameRule::Pascal,
            "SCREAMING_SNAKE_CASE" => RenameRule::ScreamingSnake,
            "kebab-case" => RenameRule::Kebab,
            "lowercase" => RenameRule::Lower,
            "UPPERCASE" => RenameRule::Upper,
            _ => return None,
        })
    }

    /// Applies the rule to a snake_case field name.
    pub(crate) fn apply(self, field: &str) -> String {
        match self {
            RenameRule::Snake => field.to_owned(),
            RenameRule::Lower => field.to_ascii_lowercase(),
            RenameRule::Upper => field.to_ascii_uppercase(),
            RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::Camel | RenameRule::Pascal => {
                let mut out = String::with_capacity(field.len());
                let mut capitalise = self == RenameRule::Pascal;
                for c in field.chars() {
                    if c == '_' {
                        // A leading underscore stays: `_private` is not `Private`.
                        if out.is_empty() {
                            out.push(c);
                        } else {
                            capitalise = true;
                        }
                    } else if capitalise {
                        out.extend(c.to_uppercase());
                        capitalise = false;
                    } else {
                        out.push(c);
                    }
                }
                out
            }
        }
    }
}

/// The snake_case identifier of an index's handle: `rt-index` → `rt_index`, `TsIndex` → `ts_index`,
/// `by.city` → `by_city`; a name starting with a digit gets an `index_` prefix so it is an identifier.
pub(crate) fn index_handle_name(index: &str) -> String {
    let mut out = String::with_capacity(index.len() + 6);
    let mut previous_lower = false;
    for c in index.chars() {
        // Any other character is invalid in an index name (reported separately); mapping it to `_`
        // keeps the handle an identifier so the only error shown is the name's.
        if !c.is_ascii_alphanumeric() {
            if !out.ends_with('_') {
                out.push('_');
            }
            previous_lower = false;
        } else if c.is_ascii_uppercase() {
            if previous_lower && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            previous_lower = false;
        } else {
            out.push(c);
            previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        }
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "index_");
    }
    out
}

/// `ts_index` → `TsIndex`, for the generated item struct's name.
pub(crate) fn pascal(snake: &str) -> String {
    RenameRule::Pascal.apply(snake.trim_start_matches('_'))
}

#[cfg(test)]
mod tests {
    use super::RenameRule::*;
    use super::{index_handle_name, pascal};

    #[test]
    fn index_names_become_identifiers() {
        assert_eq!(index_handle_name("rt-index"), "rt_index");
        assert_eq!(index_handle_name("TsIndex"), "ts_index");
        assert_eq!(index_handle_name("by.city--x"), "by_city_x");
        assert_eq!(index_handle_name("3rd-idx"), "index_3rd_idx");
        assert_eq!(pascal("rt_index"), "RtIndex");
    }

    #[test]
    fn rules_convert_snake_case() {
        let name = "created_at_utc";
        assert_eq!(Snake.apply(name), "created_at_utc");
        assert_eq!(Camel.apply(name), "createdAtUtc");
        assert_eq!(Pascal.apply(name), "CreatedAtUtc");
        assert_eq!(ScreamingSnake.apply(name), "CREATED_AT_UTC");
        assert_eq!(Kebab.apply(name), "created-at-utc");
        assert_eq!(Lower.apply("Id"), "id");
        assert_eq!(Upper.apply(name), "CREATED_AT_UTC");
        assert_eq!(Camel.apply("id"), "id");
        assert_eq!(Pascal.apply("id"), "Id");
    }
}
