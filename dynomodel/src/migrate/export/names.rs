//! Unique resource names: two tables whose names map to one id (`a-b` and `a_b`) get `…2`, `…3`.

use std::collections::BTreeSet;

#[derive(Default)]
pub(super) struct Unique {
    taken: BTreeSet<String>,
}

impl Unique {
    /// `name`, or `name` with the first free number appended.
    pub(super) fn claim(&mut self, name: String) -> String {
        let mut candidate = name.clone();
        let mut n = 2;
        while self.taken.contains(&candidate) {
            candidate = format!("{name}{n}");
            n += 1;
        }
        self.taken.insert(candidate.clone());
        candidate
    }
}

#[cfg(test)]
mod tests {
    use super::Unique;

    #[test]
    fn a_taken_name_gets_a_number() {
        let mut names = Unique::default();
        assert_eq!(names.claim("ab".into()), "ab");
        assert_eq!(names.claim("ab".into()), "ab2");
        assert_eq!(names.claim("ab".into()), "ab3");
    }
}
