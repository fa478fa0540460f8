//! The access keys a server that verifies signatures knows: access key id → secret access key.

use std::collections::HashMap;
use std::fmt;

/// The access keys a server accepts signatures from.
#[derive(Clone, Default, PartialEq, Eq)]
pub(crate) struct AccessKeys {
    secrets: HashMap<String, String>,
}

impl fmt::Debug for AccessKeys {
    /// The ids only: a secret never reaches a log.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut ids: Vec<&str> = self.secrets.keys().map(String::as_str).collect();
        ids.sort_unstable();
        f.debug_struct("AccessKeys").field("ids", &ids).finish()
    }
}

impl AccessKeys {
    /// Adds (or replaces) a key.
    pub(crate) fn insert(&mut self, id: String, secret: String) {
        self.secrets.insert(id, secret);
    }

    /// The secret of key `id`.
    pub(crate) fn secret(&self, id: &str) -> Option<&str> {
        self.secrets.get(id).map(String::as_str)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.secrets.is_empty()
    }
}

/// One key as `serve --access-key` takes it, `ID:SECRET` (an id has no colon; a secret may).
pub(crate) fn parse_pair(text: &str) -> Result<(String, String), String> {
    match text.split_once(':') {
        Some((id, secret)) if !id.is_empty() && !secret.is_empty() => {
            Ok((id.to_owned(), secret.to_owned()))
        }
        _ => Err(format!(
            "invalid access key {:?}: expected ACCESS_KEY_ID:SECRET_ACCESS_KEY",
            redact(text)
        )),
    }
}

/// The keys of an access-keys file (`serve --access-keys-file`): one key per line, the id and the
/// secret separated by white space (`AKIDEXAMPLE wJalrXUtnFEMI/K7MDENG`); blank lines and lines
/// starting with `#` are skipped. A line that is neither is an error naming its number, not its text
/// (which may hold a secret).
pub(crate) fn parse_file(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut keys = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split_whitespace();
        match (fields.next(), fields.next(), fields.next()) {
            (Some(id), Some(secret), None) => keys.push((id.to_owned(), secret.to_owned())),
            _ => {
                return Err(format!(
                    "line {}: expected ACCESS_KEY_ID SECRET_ACCESS_KEY",
                    n + 1
                ))
            }
        }
    }
    if keys.is_empty() {
        return Err("no access key in the file".into());
    }
    Ok(keys)
}

/// `text` without what follows its first colon (a secret, in a malformed `ID:SECRET`).
fn redact(text: &str) -> String {
    match text.split_once(':') {
        Some((id, _)) => format!("{id}:…"),
        None => text.chars().take(4).chain("…".chars()).collect(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn pairs_and_files() {
        assert_eq!(
            parse_pair("AKID:se:cret").unwrap(),
            ("AKID".into(), "se:cret".into())
        );
        for bad in ["AKID", ":secret", "AKID:", ""] {
            let error = parse_pair(bad).unwrap_err();
            assert!(!error.contains("secret\""), "{error}");
        }
        let keys = parse_file("# test keys\n\nAKID1 s1\n  AKID2\ts2  \n").unwrap();
        assert_eq!(
            keys,
            vec![("AKID1".into(), "s1".into()), ("AKID2".into(), "s2".into())]
        );
        assert_eq!(
            parse_file("AKID1 s1\nAKID2 s2 extra\n").unwrap_err(),
            "line 2: expected ACCESS_KEY_ID SECRET_ACCESS_KEY"
        );
        assert_eq!(
            parse_file("# none\n").unwrap_err(),
            "no access key in the file"
        );
    }

    #[test]
    fn secrets_stay_out_of_debug_output() {
        let mut keys = AccessKeys::default();
        keys.insert("AKID".into(), "hunter2".into());
        let shown = format!("{keys:?}");
        assert!(
            shown.contains("AKID") && !shown.contains("hunter2"),
            "{shown}"
        );
        assert_eq!(keys.secret("AKID"), Some("hunter2"));
        assert_eq!(keys.secret("other"), None);
    }
}
