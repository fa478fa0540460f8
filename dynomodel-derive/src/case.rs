//! `rename_all` rules: how a snake_case Rust field name becomes a DynamoDB attribute name.

/// A `rename_all` rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenameRule {
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
    pub const NAMES: &'static str = "\"camelCase\", \"snake_case\", \"PascalCase\", \"SCREAMING_SNAKE_CASE\", \"kebab-case\", \"lowercase\" or \"UPPERCASE\"";

    /// The rule named `name`.
    pub fn parse(name: &str) -> Option<RenameRule> {
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
    pub fn apply(self, field: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::RenameRule::*;

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
