//! Rust identifiers for DynamoDB names: snake_case fields, PascalCase types, keywords escaped, and
//! every name unique in its scope.

use std::collections::BTreeSet;

/// Rust's keywords (strict and reserved, 2024 edition): a field so named is written raw (`r#type`).
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn",
    "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let",
    "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return",
    "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use",
    "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers: a field so named gets a trailing underscore instead.
const NOT_RAW: &[&str] = &["crate", "self", "super", "Self", "_"];

/// The words of a name: split at non-alphanumeric characters and at case changes (`userId`,
/// `HTTPStatus` → `http`, `status`), lowercase, ASCII only (other characters separate words).
fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1).copied();
        let boundary = c.is_ascii_uppercase()
            && prev.is_some_and(|p| {
                p.is_ascii_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()))
            });
        if boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        current.push(c.to_ascii_lowercase());
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

/// A snake_case field name for an attribute name, before keyword escaping: `userId` → `user_id`,
/// `Order Total` → `order_total`; a name with no letter or digit is `attr`, one starting with a
/// digit gets `a_` in front.
pub(crate) fn snake_case(name: &str) -> String {
    let joined = words(name).join("_");
    match joined.chars().next() {
        None => "attr".to_owned(),
        Some(c) if c.is_ascii_digit() => format!("a_{joined}"),
        Some(_) => joined,
    }
}

/// A PascalCase type name: `user_orders` → `UserOrders`; `Item` when nothing is left.
pub(crate) fn pascal_case(name: &str) -> String {
    let mut out = String::new();
    for word in words(name) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    match out.chars().next() {
        None => "Item".to_owned(),
        Some(c) if c.is_ascii_digit() => format!("T{out}"),
        Some(_) => out,
    }
}

/// `name` as written in Rust: raw when it is a keyword (`r#type`), with a trailing underscore when
/// it cannot be raw (`self_`).
pub(crate) fn escape(name: &str) -> String {
    if NOT_RAW.contains(&name) {
        format!("{name}_")
    } else if KEYWORDS.contains(&name) {
        format!("r#{name}")
    } else {
        name.to_owned()
    }
}

/// The names taken in one scope (a struct's fields and handles, or a file's types).
#[derive(Debug, Default)]
pub(crate) struct Names {
    taken: BTreeSet<String>,
}

impl Names {
    /// Marks `name` taken (a name the generated code defines itself).
    pub(crate) fn reserve(&mut self, name: &str) {
        self.taken.insert(name.to_owned());
    }

    /// `wanted`, or `wanted_2`, `wanted_3`… when taken; the result is taken from now on.
    pub(crate) fn unique(&mut self, wanted: &str) -> String {
        let mut name = wanted.to_owned();
        let mut n = 2;
        while self.taken.contains(&name) {
            name = format!("{wanted}_{n}");
            n += 1;
        }
        self.taken.insert(name.clone());
        name
    }

    /// As [`unique`](Names::unique), for a type name: `Wanted2`, `Wanted3`….
    pub(crate) fn unique_type(&mut self, wanted: &str) -> String {
        let mut name = wanted.to_owned();
        let mut n = 2;
        while self.taken.contains(&name) {
            name = format!("{wanted}{n}");
            n += 1;
        }
        self.taken.insert(name.clone());
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_names_become_snake_case_fields() {
        for (name, field) in [
            ("userId", "user_id"),
            ("UserId", "user_id"),
            ("HTTPStatus", "http_status"),
            ("order total", "order_total"),
            ("GSI1PK", "gsi1_pk"),
            ("ttl", "ttl"),
            ("_et", "et"),
            ("3d", "a_3d"),
            ("#", "attr"),
            ("größe", "gr_e"),
        ] {
            assert_eq!(snake_case(name), field, "{name}");
        }
    }

    #[test]
    fn type_names_are_pascal_case() {
        assert_eq!(pascal_case("user-orders"), "UserOrders");
        assert_eq!(pascal_case("ORDER"), "Order");
        assert_eq!(pascal_case("2024_sales"), "T2024Sales");
        assert_eq!(pascal_case("--"), "Item");
    }

    #[test]
    fn keywords_are_escaped() {
        assert_eq!(escape("type"), "r#type");
        assert_eq!(escape("self"), "self_");
        assert_eq!(escape("name"), "name");
    }

    #[test]
    fn names_are_unique_in_a_scope() {
        let mut names = Names::default();
        names.reserve("user_id");
        assert_eq!(names.unique("user_id"), "user_id_2");
        assert_eq!(names.unique("user_id"), "user_id_3");
        assert_eq!(names.unique_type("User"), "User");
        assert_eq!(names.unique_type("User"), "User2");
    }
}
