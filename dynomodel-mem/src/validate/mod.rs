//! Request validation shared by the operations, with DynamoDB's message texts.
//!
//! Messages follow real DynamoDB as recorded by the dynalite test-suite (whose assertions were captured
//! against the live service) and published measurements; where Amazon DynamoDB Local words a message
//! differently, the difference is noted next to the message. The order of checks follows the service:
//! parameter constraints (the smithy "N validation error(s) detected" form) first, then the checks on
//! attribute values, then the checks that need the table.
//!
//! This module holds the checks that need no table: parameter constraints, table names, ReturnValues,
//! attribute values (sets, nesting) and the item size. The checks of keys against a table's key schema
//! and indexes are in [`key`].

mod distinct;
mod element;
mod key;
mod names;
mod set_table;

#[cfg(feature = "protocol")]
pub(crate) use distinct::all_distinct as hashes_distinct;
pub(crate) use element::{Keyed, SetElement};
pub(crate) use names::{attribute_name, item_table_name, new_table_name, MAX_TABLE_ARN};
#[cfg(test)]
pub(crate) use set_table::Checked;
pub(crate) use set_table::{SetTable, SetTables};

pub(crate) use key::{
    empty_index_key, empty_index_key_values, empty_key, empty_key_values, index_keys, item_key,
    request_key, KeyContext,
};
pub use key::{MAX_HASH_KEY_SIZE, MAX_RANGE_KEY_SIZE};

use dynomodel::backend::ReturnValue;
use dynomodel::{attribute_size, AttributeValue, Error, Item, Result, MAX_ITEM_SIZE};

use crate::storage::request_hash::{self, RequestState};

/// Deepest nesting of lists and maps DynamoDB stores: a top-level attribute is level 1.
pub const MAX_NESTING_DEPTH: usize = 32;

/// The prefix of most of DynamoDB's semantic validation messages.
pub(crate) const INVALID: &str = "One or more parameter values were invalid: ";

/// Real DynamoDB for a name outside 3–255 characters (checked before the character set).
/// DynamoDB Local instead says "Invalid table/index name.  Table/index names must be between 3 and 255
/// characters long, and may contain only the characters a-z, A-Z, 0-9, '_', '-', and '.'" for both length
/// and character errors.
pub(crate) const TABLE_NAME_LENGTH: &str =
    "TableName must be at least 3 characters long and at most 255 characters long";

/// The smithy-style pattern of table and index names.
pub(crate) const NAME_PATTERN: &str = "[a-zA-Z0-9_.-]+";

/// How many violations a `ValidationException` lists, at most (the rest are only counted).
pub(crate) const LISTED: usize = 10;

/// One violation in the service model's form: "Value 'x' at 'tableName' failed to satisfy
/// constraint: …". `value` is already rendered (`'x'`, `null`), or `None` for the newer form that
/// names the member without echoing its value ("Value at 'Limit' …").
pub(crate) fn violation(value: Option<&str>, path: &str, constraint: &str) -> String {
    written_violation(
        value.map(|v| move |out: &mut String| out.push_str(v)),
        path,
        constraint,
    )
}

/// [`violation`] with its value written by `value` straight into the message (an echoed list can be
/// megabytes: no copy of it made first).
fn written_violation(
    value: Option<impl FnOnce(&mut String)>,
    path: &str,
    constraint: &str,
) -> String {
    let mut message = String::from("Value ");
    if let Some(write) = value {
        write(&mut message);
        message.push(' ');
    }
    message.push_str("at '");
    message.push_str(path);
    message.push_str("' failed to satisfy constraint: ");
    message.push_str(constraint);
    message
}

/// The message of `broken` violations of which `listed` are shown: "1 validation error detected:
/// …" or "N validation errors detected: …; …". Shared by the engine's checks ([`Constraints`]) and the
/// server's wire layer, so that both word them alike.
pub(crate) fn detected(broken: usize, listed: &[String]) -> String {
    let mut message = detected_head(broken);
    message.push_str(&listed.join("; "));
    message
}

/// "1 validation error detected: " or "N validation errors detected: ".
fn detected_head(broken: usize) -> String {
    let plural = if broken == 1 { "" } else { "s" };
    format!("{broken} validation error{plural} detected: ")
}

/// [`detected`]'s message, made from the listed messages themselves: the longest (an echoed list can
/// be megabytes) gets the others and the count written around it in place, rather than copied for
/// the join and again for the count.
fn detected_owned(broken: usize, mut listed: Vec<String>) -> String {
    let Some(longest) = (0..listed.len()).max_by_key(|&i| listed[i].len()) else {
        return detected(broken, &listed);
    };
    let mut message = std::mem::take(&mut listed[longest]);
    let mut before = detected_head(broken);
    for earlier in &listed[..longest] {
        before.push_str(earlier);
        before.push_str("; ");
    }
    let after: usize = listed[longest + 1..].iter().map(|m| m.len() + 2).sum();
    message.reserve(before.len() + after);
    message.insert_str(0, &before);
    for later in &listed[longest + 1..] {
        message.push_str("; ");
        message.push_str(later);
    }
    message
}

/// Collects parameter-constraint violations and reports them the way DynamoDB's request layer does:
/// "1 validation error detected: Value 'x' at 'tableName' failed to satisfy constraint: ..." and
/// "N validation errors detected: ...; ..." (at most [`LISTED`] are listed, all are counted).
#[derive(Debug, Default)]
pub(crate) struct Constraints {
    errors: Vec<String>,
    broken: usize,
}

impl Constraints {
    /// Records one violation. `value` is already rendered (`'x'`, or `null`).
    pub(crate) fn fail(&mut self, value: String, path: &str, constraint: &str) {
        self.record(violation(Some(&value), path, constraint));
    }

    /// Records one violation whose value `echo` writes (without its quotes) straight into the message:
    /// "Value '…' at 'path' failed to satisfy constraint: …", as [`Constraints::fail`] words it. For
    /// the echoes of whole lists, megabytes long when the list is: no copy of the text for its quotes
    /// and another for the message, and no text at all for a violation past the [`LISTED`] ones.
    pub(crate) fn fail_echoing(
        &mut self,
        path: &str,
        constraint: &str,
        echo: impl FnOnce(&mut String),
    ) {
        self.broken += 1;
        if self.errors.len() >= LISTED {
            return;
        }
        let quoted_echo = |out: &mut String| {
            out.push('\'');
            echo(out);
            out.push('\'');
        };
        self.errors
            .push(written_violation(Some(quoted_echo), path, constraint));
    }

    /// Records one violation in the newer form that names the member without echoing its value:
    /// "Value at 'Limit' failed to satisfy constraint: ..." (`path` as DynamoDB spells it there).
    pub(crate) fn fail_unechoed(&mut self, path: &str, constraint: &str) {
        self.record(violation(None, path, constraint));
    }

    fn record(&mut self, message: String) {
        self.broken += 1;
        if self.errors.len() < LISTED {
            self.errors.push(message);
        }
    }

    /// Checks a table or index name's length and characters (as constraints, not the short message).
    pub(crate) fn name(&mut self, name: &str, path: &str) {
        if !is_valid_name_chars(name) {
            self.fail(
                quoted(name),
                path,
                &format!("Member must satisfy regular expression pattern: {NAME_PATTERN}"),
            );
        }
        let chars = name.chars().count();
        if chars < 3 {
            self.fail(
                quoted(name),
                path,
                "Member must have length greater than or equal to 3",
            );
        }
        if chars > 255 {
            self.fail(
                quoted(name),
                path,
                "Member must have length less than or equal to 255",
            );
        }
    }

    /// Checks `value >= min` for a number parameter.
    pub(crate) fn at_least(&mut self, value: i64, min: i64, path: &str) {
        if value < min {
            self.fail(
                quoted(&value.to_string()),
                path,
                &format!("Member must have value greater than or equal to {min}"),
            );
        }
    }

    /// The error, if anything was recorded.
    pub(crate) fn finish(self) -> Result<()> {
        match self.broken {
            0 => Ok(()),
            n => Err(Error::validation(detected_owned(n, self.errors))),
        }
    }
}

/// `'value'` as DynamoDB quotes a value in a constraint message.
pub(crate) fn quoted(value: &str) -> String {
    format!("'{value}'")
}

pub(crate) fn is_valid_name_chars(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// Validates the `TableName` of any operation: the length message first, then the pattern.
pub(crate) fn table_name(name: &str) -> Result<()> {
    let chars = name.chars().count();
    if !(3..=255).contains(&chars) {
        return Err(Error::validation(TABLE_NAME_LENGTH));
    }
    let mut constraints = Constraints::default();
    constraints.name(name, "tableName");
    constraints.finish()
}

/// `ReturnValues` of PutItem and DeleteItem: NONE or ALL_OLD only. Real DynamoDB and DynamoDB Local agree.
pub(crate) fn return_values_none_or_all_old(rv: Option<ReturnValue>) -> Result<()> {
    match rv {
        None | Some(ReturnValue::None) | Some(ReturnValue::AllOld) => Ok(()),
        Some(_) => Err(Error::validation("Return values set to invalid value")),
    }
}

/// Checks every attribute of an item (or key): names not empty (nested maps' too), sets non-empty and
/// duplicate-free, nesting no deeper than 32 levels. Runs before anything recursive touches the value,
/// so that a hostile, deeply nested value is rejected after at most 33 levels of recursion.
pub(crate) fn attribute_values(item: &Item) -> Result<()> {
    sized_attribute_values(item).map(drop)
}

/// [`attribute_values`] for one attribute, without building an item around it.
pub(crate) fn attribute(name: &str, value: &AttributeValue) -> Result<()> {
    attribute_name(name)?;
    value_checked(value, Rules::ITEM)
}

/// [`attribute_value`]'s checks of `value` without its size: a scalar has nothing to check, and
/// measuring it (a number's digits) was most of the check of an `AttributeUpdates` entry's value.
fn value_checked(value: &AttributeValue, rules: Rules) -> Result<()> {
    use AttributeValue as V;
    match value {
        V::S(_) | V::N(_) | V::B(_) | V::Bool(_) | V::Null => Ok(()),
        V::Ss(_) | V::Ns(_) | V::Bs(_) | V::L(_) | V::M(_) => {
            attribute_value(value, 1, rules).map(drop)
        }
    }
}

/// [`attribute_values`], measuring the item on the way: its size by `dynomodel::item_size`'s rule
/// (the test `the_checks_measure_as_item_size_does` holds them equal). A write walks its item once
/// for both; the size then goes to [`item_size_within_limit`] and to the stored encoding.
pub(crate) fn sized_attribute_values(item: &Item) -> Result<usize> {
    item.iter()
        .try_fold(0, |size, (name, v)| Ok(size + sized_attribute(name, v)?))
}

/// The check [`sized_attribute_values`] makes of each attribute of an item, returning its size
/// (its name's bytes and its value's): also the check of an item written straight into the
/// stored form (`storage::stored::WrittenItem`), so that both puts follow one set of rules.
pub(crate) fn sized_attribute(name: &str, value: &AttributeValue) -> Result<usize> {
    sized_attribute_by(name, value, Rules::ITEM)
}

fn sized_attribute_by(name: &str, value: &AttributeValue, rules: Rules) -> Result<usize> {
    attribute_name(name)?;
    Ok(name.len() + attribute_value(value, 1, rules)?)
}

/// [`sized_attribute_values`] of an item an update built, without looking for duplicates in its
/// sets: each is the stored item's (checked when it was written), a value of the request's (checked
/// with its placeholders, `expr::request`, or its `AttributeUpdates`), or an ADD or DELETE of those,
/// none of which makes a duplicate. Hashing every element of a large set once more was a third of an
/// ADD's cost. Debug builds check the sets as well and fail on a duplicate.
pub(crate) fn sized_updated_values(item: &Item) -> Result<usize> {
    let size = item.iter().try_fold(0, |size, (name, v)| {
        Ok(size + sized_attribute_by(name, v, Rules::UPDATED)?)
    });
    debug_assert!(
        size.is_err() || sized_attribute_values(item).is_ok(),
        "an update built a set with duplicates"
    );
    size
}

/// How deep an `ExpressionAttributeValues` entry may nest. DynamoDB Local 3.3 accepts a value nested
/// deeper than 32 levels there and only fails a write that stores it, so the map check must not apply
/// the item limit; this bound only keeps hostile values from reaching the recursive evaluator.
pub(crate) const MAX_EXPRESSION_VALUE_DEPTH: usize = 128;

/// Checks one `ExpressionAttributeValues` entry: the set rules of [`attribute_values`], nesting up to
/// [`MAX_EXPRESSION_VALUE_DEPTH`].
pub(crate) fn expression_value(value: &AttributeValue) -> Result<()> {
    value_checked(value, Rules::EXPRESSION_VALUE)
}

/// [`expression_value`], keeping the duplicate check's table of a set past [`SCAN_UP_TO`] elements
/// (up to [`HASH_TABLE_UP_TO`]) in `tables`, for an update that adds or deletes it: the same checks,
/// in the same order, with the same messages.
pub(crate) fn expression_value_tabled(
    value: &AttributeValue,
    tables: &mut SetTables,
) -> Result<()> {
    let checked = match value {
        AttributeValue::Ss(set) if tabled(set.len()) => SetTable::of(set),
        AttributeValue::Ns(set) if tabled(set.len()) => SetTable::of(set),
        AttributeValue::Bs(set) if tabled(set.len()) => SetTable::of(set),
        _ => return expression_value(value),
    };
    match checked {
        set_table::Checked::Table(table) => tables.keep(value, table),
        set_table::Checked::NoTable => {}
        set_table::Checked::Duplicate => return Err(duplicates(value)),
    }
    Ok(())
}

/// Whether a set of `len` elements is checked by a hash table (and so can keep it).
fn tabled(len: usize) -> bool {
    (SCAN_UP_TO + 1..=HASH_TABLE_UP_TO).contains(&len)
}

/// Whether `value` nests at most `levels` levels deep (a scalar is one level, as in
/// [`attribute_values`]). Stops looking one level past the limit, so it is safe on any value: the guard
/// for code that must measure or print a value before [`attribute_values`] has bounded its depth.
pub(crate) fn nests_within(value: &AttributeValue, levels: usize) -> bool {
    fn walk(value: &AttributeValue, depth: usize, levels: usize) -> bool {
        if depth > levels {
            return false;
        }
        match value {
            AttributeValue::L(list) => list.iter().all(|v| walk(v, depth + 1, levels)),
            AttributeValue::M(map) => map.values().all(|v| walk(v, depth + 1, levels)),
            _ => true,
        }
    }
    walk(value, 1, levels)
}

/// What [`attribute_value`] checks.
#[derive(Clone, Copy)]
struct Rules {
    /// The deepest nesting allowed.
    max_depth: usize,
    /// Whether sets are looked at for duplicates.
    duplicates: bool,
}

impl Rules {
    const ITEM: Rules = Rules {
        max_depth: MAX_NESTING_DEPTH,
        duplicates: true,
    };
    const EXPRESSION_VALUE: Rules = Rules {
        max_depth: MAX_EXPRESSION_VALUE_DEPTH,
        duplicates: true,
    };
    /// See [`sized_updated_values`].
    const UPDATED: Rules = Rules {
        max_depth: MAX_NESTING_DEPTH,
        duplicates: false,
    };
}

/// Checks one value and returns its size (`dynomodel::attribute_size`'s rule).
fn attribute_value(value: &AttributeValue, depth: usize, rules: Rules) -> Result<usize> {
    if depth > rules.max_depth {
        // DynamoDB Local 3.3 wording; real DynamoDB's is believed identical (not independently verified).
        return Err(Error::validation(
            "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels \
             beyond supported limit",
        ));
    }
    match value {
        // "An string set  may not be empty" (sic, two spaces) but "Binary sets should not be empty":
        // real DynamoDB and DynamoDB Local alike.
        AttributeValue::Ss(set) if set.is_empty() => {
            Err(empty_set("An string set  may not be empty"))
        }
        AttributeValue::Ns(set) if set.is_empty() => {
            Err(empty_set("An number set  may not be empty"))
        }
        AttributeValue::Bs(set) if set.is_empty() => {
            Err(empty_set("Binary sets should not be empty"))
        }
        AttributeValue::Ss(set) if rules.duplicates && has_duplicates(set) => {
            Err(duplicates(value))
        }
        // NS compares numerically: ["1", "1.0"] are duplicates.
        AttributeValue::Ns(set) if rules.duplicates && has_duplicates(set) => {
            Err(duplicates(value))
        }
        AttributeValue::Bs(set) if rules.duplicates && has_duplicates(set) => {
            Err(duplicates(value))
        }
        // A list's overhead is 3 bytes and 1 per element; a map's, 3 and 1 per member.
        AttributeValue::L(list) => list.iter().try_fold(3, |size, v| {
            Ok(size + 1 + attribute_value(v, depth + 1, rules)?)
        }),
        // A map's keys are attribute names too: "Empty attribute name" (DynamoDB Local 3.3.1 alike).
        AttributeValue::M(map) => map.iter().try_fold(3 + map.len(), |size, (name, v)| {
            attribute_name(name)?;
            Ok(size + name.len() + attribute_value(v, depth + 1, rules)?)
        }),
        // Scalars and sets: no nesting, measured by the one size function.
        _ => Ok(attribute_size(value)),
    }
}

/// The message for a set with duplicates.
fn duplicates(set: &AttributeValue) -> Error {
    match set {
        // Real DynamoDB (dynalite's recorded text) ends with a period; DynamoDB Local 3.3 omits it.
        AttributeValue::Ss(set) => Error::validation(format!(
            "{INVALID}Input collection [{}] contains duplicates.",
            set.join(", ")
        )),
        // DynamoDB Local 3.3's text; dynalite renders the base64 elements before "of type BS".
        AttributeValue::Bs(_) => Error::validation(format!(
            "{INVALID}Input collection of type BS contains duplicates."
        )),
        // Same text in real DynamoDB and Local.
        _ => Error::validation("Input collection contains duplicates"),
    }
}

fn empty_set(message: &str) -> Error {
    Error::validation(format!("{INVALID}{message}"))
}

/// Sets this small are scanned pairwise: no table to allocate.
const SCAN_UP_TO: usize = 16;

/// Sets up to this size are checked with a hash table, larger ones by their hashes' buckets
/// ([`distinct`]): the table's random accesses win while it stays in the caches and lose past them
/// (docs/performance.md, "Request size scaling").
const HASH_TABLE_UP_TO: usize = 65_536;

/// Whether two elements of `set` are equal (numbers numerically: a `Number` is normalised, so its
/// `Eq` and `Hash` are the numeric ones), in linear time: every write checks its sets (the
/// request's values, then the written item). The hash's random keys keep a client from choosing
/// elements that collide ([`request_hash`]).
fn has_duplicates<T: SetElement + Ord>(set: &[T]) -> bool {
    let state = RequestState::new();
    has_duplicates_by(set, move |x| state.hash_one(Keyed(x)))
}

/// [`has_duplicates`] by the hashes `hash` gives (the tests' own, which collide at will): distinct
/// hashes prove distinct elements, and two equal ones (a duplicate, or a collision) are settled
/// by the elements.
fn has_duplicates_by<T: SetElement + Ord>(set: &[T], hash: impl Fn(&T) -> u64) -> bool {
    if set.len() <= SCAN_UP_TO {
        return set
            .iter()
            .enumerate()
            .any(|(i, x)| set.get(i + 1..).is_some_and(|rest| rest.contains(x)));
    }
    let distinct = if set.len() <= HASH_TABLE_UP_TO {
        // A table of `u64`s (cheaper to probe than a table of the elements, whose probes compare
        // them).
        let mut hashes = request_hash::hashes_with_capacity(set.len());
        set.iter().all(|x| hashes.insert(hash(x)))
    } else if set.is_sorted_by(|a, b| a < b) {
        // Elements in increasing order (a list of numbers counted out, usually) are distinct:
        // one comparison each, where hashing a number costs more. Any other order stops this at
        // its first step down.
        true
    } else {
        let hashes: Vec<u64> = set.iter().map(hash).collect();
        distinct::all_distinct(&hashes)
    };
    if distinct {
        return false;
    }
    let mut sorted: Vec<&T> = set.iter().collect();
    sorted.sort_unstable();
    sorted.windows(2).any(|w| w.first() == w.get(1))
}

/// The item-size limit, on a size [`sized_attribute_values`] measured.
pub(crate) fn item_size_within_limit(size: usize) -> Result<()> {
    if size > MAX_ITEM_SIZE {
        return Err(Error::validation(
            "Item size has exceeded the maximum allowed size",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(r: Result<()>) -> String {
        match r {
            Err(e) => {
                assert_eq!(e.code(), "ValidationException");
                e.message()
            }
            Ok(()) => String::from("<ok>"),
        }
    }

    fn nested(levels: usize) -> AttributeValue {
        let mut v = AttributeValue::S("x".into());
        for _ in 0..levels {
            v = AttributeValue::L(vec![v]);
        }
        v
    }

    fn one(name: &str, v: AttributeValue) -> Item {
        let mut item = Item::new();
        item.insert(name.into(), v);
        item
    }

    #[test]
    fn table_names() {
        assert!(table_name("abc").is_ok());
        assert!(table_name("A-z_0.9").is_ok());
        assert!(table_name(&"a".repeat(255)).is_ok());
        assert_eq!(message(table_name("ab")), TABLE_NAME_LENGTH);
        assert_eq!(message(table_name("")), TABLE_NAME_LENGTH);
        assert_eq!(message(table_name("a;")), TABLE_NAME_LENGTH);
        assert_eq!(message(table_name(&"a".repeat(256))), TABLE_NAME_LENGTH);
        assert_eq!(
            message(table_name("ab;c")),
            "1 validation error detected: Value 'ab;c' at 'tableName' failed to satisfy constraint: \
             Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"
        );
        // Three multi-byte characters are three characters.
        assert!(message(table_name("ééé")).contains("regular expression"));
    }

    #[test]
    fn constraint_counts() {
        let mut c = Constraints::default();
        c.at_least(0, 1, "provisionedThroughput.writeCapacityUnits");
        c.at_least(0, 1, "provisionedThroughput.readCapacityUnits");
        assert_eq!(
            message(c.finish()),
            "2 validation errors detected: Value '0' at 'provisionedThroughput.writeCapacityUnits' failed \
             to satisfy constraint: Member must have value greater than or equal to 1; Value '0' at \
             'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must have \
             value greater than or equal to 1"
        );
    }

    #[test]
    fn return_values() {
        assert!(return_values_none_or_all_old(None).is_ok());
        assert!(return_values_none_or_all_old(Some(ReturnValue::AllOld)).is_ok());
        for rv in [
            ReturnValue::AllNew,
            ReturnValue::UpdatedOld,
            ReturnValue::UpdatedNew,
        ] {
            assert_eq!(
                message(return_values_none_or_all_old(Some(rv))),
                "Return values set to invalid value"
            );
        }
    }

    /// Hashes crafted to collide (a few values for all elements): the elements settle them, in
    /// the pairwise scan's, the table's and the buckets' ranges, with a duplicate at the start, in
    /// the middle and at the end, or none.
    #[test]
    fn colliding_hashes_are_settled_by_the_elements() {
        let crafted = |x: &String| (x.len() % 3) as u64;
        let numeric = |x: &dynomodel::Number| u64::from(x.is_negative());
        for n in [10, 40, 70_000] {
            let strings: Vec<String> = (0..n).map(|i| format!("e{i}")).collect();
            assert!(!has_duplicates_by(&strings, crafted), "{n}");
            for (from, to) in [(0, 1), (n / 2, n / 2 + 1), (n - 2, n - 1), (0, n - 1)] {
                let mut with = strings.clone();
                with[to] = with[from].clone();
                assert!(has_duplicates_by(&with, crafted), "{n}: {from} at {to}");
            }
            let numbers: Vec<dynomodel::Number> = (0..n as i64).map(Into::into).collect();
            assert!(!has_duplicates_by(&numbers, numeric), "{n}");
            let mut spelled = numbers.clone();
            spelled[n - 1] = format!("{}.0", n / 2).parse().expect("n");
            assert!(has_duplicates_by(&spelled, numeric), "{n}");
        }
    }

    #[test]
    fn sets() {
        let empty = [
            (
                AttributeValue::Ss(vec![]),
                "An string set  may not be empty",
            ),
            (
                AttributeValue::Ns(vec![]),
                "An number set  may not be empty",
            ),
            (
                AttributeValue::Bs(vec![]),
                "Binary sets should not be empty",
            ),
        ];
        for (v, text) in empty {
            assert_eq!(
                message(attribute_values(&one("d", v))),
                format!("One or more parameter values were invalid: {text}")
            );
        }
        let ss = AttributeValue::Ss(vec!["a".into(), "b".into(), "a".into()]);
        assert_eq!(
            message(attribute_values(&one("d", ss))),
            "One or more parameter values were invalid: Input collection [a, b, a] contains duplicates."
        );
        let ns = AttributeValue::Ns(vec!["1".parse().expect("n"), "1.0".parse().expect("n")]);
        assert_eq!(
            message(attribute_values(&one("d", ns))),
            "Input collection contains duplicates"
        );
        let bs = AttributeValue::Bs(vec![vec![1], vec![1]]);
        assert!(message(attribute_values(&one("d", bs))).contains("of type BS contains duplicates"));
        // Past the pairwise scan, sets are checked by hash: a duplicate anywhere is found, numbers
        // numerically, and a set of distinct elements passes.
        let numbers = |last: &str| {
            let mut set: Vec<dynomodel::Number> = (1..=40).map(dynomodel::Number::from).collect();
            set.push(last.parse().expect("n"));
            AttributeValue::Ns(set)
        };
        assert_eq!(
            message(attribute_values(&one("d", numbers("3.000")))),
            "Input collection contains duplicates"
        );
        assert!(attribute_values(&one("d", numbers("40.5"))).is_ok());
        let strings = |last: &str| {
            let mut set: Vec<String> = (0..40).map(|i| format!("e{i}")).collect();
            set.push(last.into());
            AttributeValue::Ss(set)
        };
        assert!(message(attribute_values(&one("d", strings("e0"))))
            .ends_with("e0] contains duplicates."));
        assert!(attribute_values(&one("d", strings("e40"))).is_ok());
        // Past the table's range, by the elements' sorted hashes: the same answers, a number
        // spelled apart from its equal too.
        let large = |last: &str| {
            let mut set: Vec<dynomodel::Number> = (0..=HASH_TABLE_UP_TO as i64)
                .map(dynomodel::Number::from)
                .collect();
            set.push(last.parse().expect("n"));
            AttributeValue::Ns(set)
        };
        for duplicate in ["17", "1.7e1", "65536.0"] {
            assert_eq!(
                message(attribute_values(&one("d", large(duplicate)))),
                "Input collection contains duplicates",
                "{duplicate}"
            );
        }
        assert!(attribute_values(&one("d", large("-1"))).is_ok());
        assert!(attribute_values(&one("d", large("0.5"))).is_ok());
        let many = |last: &str| {
            let mut set: Vec<String> = (0..=HASH_TABLE_UP_TO).map(|i| format!("{i:x}")).collect();
            set.push(last.into());
            AttributeValue::Ss(set)
        };
        assert!(
            message(attribute_values(&one("d", many("ffff")))).ends_with("contains duplicates.")
        );
        assert!(attribute_values(&one("d", many("g"))).is_ok());
        // Elements that all share a fixed-key hash (Java's), in the table's range and past it: the
        // tables are keyed at random, so the answers are those of any other elements.
        for blocks in [15, 17] {
            let mut set = crate::storage::request_hash::colliding_names(blocks);
            assert!(attribute_values(&one("d", AttributeValue::Ss(set.clone()))).is_ok());
            set.insert(1_000, set[20_000].clone());
            assert!(
                message(attribute_values(&one("d", AttributeValue::Ss(set))))
                    .ends_with("contains duplicates.")
            );
        }
        let binaries = AttributeValue::Bs((0..=40u8).chain([7]).map(|b| vec![b]).collect());
        assert!(message(attribute_values(&one("d", binaries)))
            .contains("of type BS contains duplicates"));
        // Empty strings inside sets, lists and maps are fine.
        let ok = AttributeValue::L(vec![
            AttributeValue::Ss(vec![String::new(), "b".into()]),
            AttributeValue::S(String::new()),
        ]);
        assert!(attribute_values(&one("d", ok)).is_ok());
        // Sets nested in documents are checked too.
        let nested_empty = AttributeValue::M(one("x", AttributeValue::Ns(vec![])));
        assert!(attribute_values(&one("d", nested_empty)).is_err());
    }

    #[test]
    fn nesting_depth() {
        // 31 lists around a string: the string is at level 32.
        assert!(attribute_values(&one("d", nested(31))).is_ok());
        assert!(message(attribute_values(&one("d", nested(32))))
            .starts_with("Nesting Levels have exceeded supported limits"));
        // Deep values are rejected without walking them all.
        assert!(attribute_values(&one("d", nested(10_000))).is_err());
    }

    #[test]
    fn nests_within_counts_levels_as_attribute_values_does() {
        assert!(nests_within(&AttributeValue::S("x".into()), 1));
        assert!(nests_within(&nested(31), MAX_NESTING_DEPTH));
        assert!(!nests_within(&nested(32), MAX_NESTING_DEPTH));
        // The same boundary as the item check.
        assert!(attribute_values(&one("d", nested(31))).is_ok());
        assert!(attribute_values(&one("d", nested(32))).is_err());
        // Deep values are judged without walking them all.
        assert!(!nests_within(&nested(10_000), MAX_EXPRESSION_VALUE_DEPTH));
    }

    #[test]
    fn item_size_boundary() {
        let mut item = one("pk", AttributeValue::S("a".into()));
        // "pk" + "a" = 3 bytes; "d" = 1 byte name.
        item.insert("d".into(), AttributeValue::S("x".repeat(MAX_ITEM_SIZE - 4)));
        assert_eq!(dynomodel::item_size(&item), MAX_ITEM_SIZE);
        let within = |item: &Item| sized_attribute_values(item).and_then(item_size_within_limit);
        assert!(within(&item).is_ok());
        item.insert("d".into(), AttributeValue::S("x".repeat(MAX_ITEM_SIZE - 3)));
        assert_eq!(
            message(within(&item)),
            "Item size has exceeded the maximum allowed size"
        );
    }

    /// The checks that do not measure (`attribute`, `expression_value`) accept and refuse exactly
    /// what the measuring one does, with its messages: scalars of every kind, empty sets and sets
    /// with duplicates, empty names in maps, nesting at and past each limit.
    #[test]
    fn the_checks_without_a_size_answer_as_the_measuring_one() {
        use dynomodel::Number;
        let mut empty_name = Item::new();
        empty_name.insert(String::new(), AttributeValue::Null);
        let values = vec![
            AttributeValue::S("héllo".into()),
            AttributeValue::S(String::new()),
            AttributeValue::N(Number::from(12345)),
            AttributeValue::N(Number::parse("-0.000123").unwrap()),
            AttributeValue::B(Vec::new()),
            AttributeValue::Bool(false),
            AttributeValue::Null,
            AttributeValue::Ss(Vec::new()),
            AttributeValue::Ns(Vec::new()),
            AttributeValue::Bs(Vec::new()),
            AttributeValue::Ss(vec!["a".into(), "a".into()]),
            AttributeValue::Ns(vec![Number::from(1), Number::parse("1.0").unwrap()]),
            AttributeValue::Bs(vec![vec![1], vec![1]]),
            AttributeValue::Ss((0..40).map(|i| i.to_string()).collect()),
            AttributeValue::M(empty_name),
            AttributeValue::L(Vec::new()),
            nested(31),
            nested(32),
            nested(MAX_EXPRESSION_VALUE_DEPTH - 1),
            nested(MAX_EXPRESSION_VALUE_DEPTH),
        ];
        for v in &values {
            let measured = |rules| message(attribute_value(v, 1, rules).map(drop));
            assert_eq!(message(attribute("a", v)), measured(Rules::ITEM), "{v:?}");
            assert_eq!(
                message(expression_value(v)),
                measured(Rules::EXPRESSION_VALUE),
                "{v:?}"
            );
        }
        assert_eq!(
            message(attribute("", &AttributeValue::Null)),
            message(attribute_name(""))
        );
    }

    /// The checks measure an item as `dynomodel::item_size` does, for every kind of value and
    /// nested lists and maps (their overheads are the checks' own arithmetic).
    #[test]
    fn the_checks_measure_as_item_size_does() {
        use dynomodel::Number;
        let scalars = vec![
            AttributeValue::S("héllo".into()),
            AttributeValue::S(String::new()),
            AttributeValue::N(Number::from(12345)),
            AttributeValue::N(Number::parse("-0.000123").unwrap()),
            AttributeValue::B(vec![1, 2, 3]),
            AttributeValue::Bool(true),
            AttributeValue::Null,
            AttributeValue::Ss(vec!["a".into(), "bc".into()]),
            AttributeValue::Ns(vec![Number::from(1), Number::from(100)]),
            AttributeValue::Bs(vec![vec![1], vec![2, 3]]),
            AttributeValue::L(Vec::new()),
            AttributeValue::M(Item::new()),
        ];
        let map: Item = scalars
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("m{i}"), v.clone()))
            .collect();
        let mut item: Item = scalars
            .iter()
            .enumerate()
            .map(|(i, v)| (format!("a{i}"), v.clone()))
            .collect();
        item.insert("list".into(), AttributeValue::L(scalars.clone()));
        item.insert("map".into(), AttributeValue::M(map.clone()));
        item.insert(
            "deep".into(),
            AttributeValue::L(vec![AttributeValue::M(map), nested(5)]),
        );
        for (name, value) in &item {
            let one = one(name, value.clone());
            assert_eq!(
                sized_attribute_values(&one).ok(),
                Some(dynomodel::item_size(&one)),
                "{name}"
            );
        }
        assert_eq!(
            sized_attribute_values(&item).ok(),
            Some(dynomodel::item_size(&item))
        );
        // An updated item is measured alike, and its other rules still hold.
        assert_eq!(
            sized_updated_values(&item).ok(),
            Some(dynomodel::item_size(&item))
        );
        for broken in [
            one("d", nested(33)),
            one("d", AttributeValue::M(one("", AttributeValue::Null))),
            one("d", AttributeValue::Ss(Vec::new())),
        ] {
            assert_eq!(
                message(sized_updated_values(&broken).map(drop)),
                message(sized_attribute_values(&broken).map(drop))
            );
        }
    }

    #[test]
    fn constraints_list_ten_and_count_all() {
        let mut c = Constraints::default();
        for i in 0..12 {
            c.fail("null".into(), &format!("x.{i}"), "Member must not be null");
        }
        let text = message(c.finish());
        assert!(
            text.starts_with("12 validation errors detected: "),
            "{text}"
        );
        assert_eq!(text.matches("Member must not be null").count(), LISTED);
        assert_eq!(
            violation(
                None,
                "TransactItems",
                "Member must have length less than or equal to 100"
            ),
            "Value at 'TransactItems' failed to satisfy constraint: Member must have length less \
             than or equal to 100"
        );
    }

    #[test]
    fn echoed_values_are_worded_as_quoted_ones_and_joined_alike() {
        // The longest message in each position, and past the listed ones (counted, not rendered).
        for (longest, count) in [(0, 3), (1, 3), (2, 3), (0, 1), (4, 12)] {
            let value = |i: usize| {
                if i == longest {
                    "v".repeat(1000)
                } else {
                    format!("v{i}")
                }
            };
            let mut quoted_ones = Constraints::default();
            let mut echoed = Constraints::default();
            let mut listed = Vec::new();
            for i in 0..count {
                let (path, constraint) = (format!("p.{i}"), "Member must have length 1");
                quoted_ones.fail(quoted(&value(i)), &path, constraint);
                echoed.fail_echoing(&path, constraint, |out| {
                    assert!(i < LISTED, "violation {i} rendered");
                    out.push_str(&value(i));
                });
                listed.push(violation(Some(&quoted(&value(i))), &path, constraint));
            }
            listed.truncate(LISTED);
            let expected = detected(count, &listed);
            assert_eq!(message(quoted_ones.finish()), expected);
            assert_eq!(message(echoed.finish()), expected);
        }
    }
}
