//! The walk of a request's JSON against its input shape (see `super` for the messages and paths).

use serde_json::{Map, Value};

use super::quirks::{Quirks, Skip};
use super::{matches, Bounds, Kind, Member, Service};
use crate::protocol::types::{self, lower_first, push_index, push_lower_first};
use crate::protocol::{Decoder, WireResult};

/// The shape whose values are the engine's business (`value.rs`: their own messages for empty,
/// several-typed and `null` values): only type-checked here.
const ATTRIBUTE_VALUE: &str = "AttributeValue";

/// Walks `request` against the structure `input` of `service` (see [`super::check`]).
pub(super) fn check(
    service: &Service,
    operation: &str,
    input: usize,
    request: &Map<String, Value>,
) -> WireResult<()> {
    run(service, operation, input, request, false).0
}

/// Whether the skeleton of a request decoded in one pass (see `wire::fast`: its attribute values
/// and maps of them replaced by markers, already checked) passes the walk: no member of the wrong
/// type, no broken constraint.
pub(super) fn passes_decoded(
    service: &Service,
    operation: &str,
    input: usize,
    skeleton: &Map<String, Value>,
) -> bool {
    matches!(
        run(service, operation, input, skeleton, true),
        (Ok(()), false)
    )
}

/// The walk: its result and whether a member had the wrong JSON type. `markers`: a JSON number
/// where an attribute value or a map of them belongs is `wire::fast`'s marker, accepted as is.
fn run(
    service: &Service,
    operation: &str,
    input: usize,
    request: &Map<String, Value>,
    markers: bool,
) -> (WireResult<()>, bool) {
    let quirks = super::quirks::of(operation);
    if let Some(first) = quirks.first {
        let given = request.get(first).is_some_and(|v| match v {
            Value::Null => false,
            Value::Object(m) => !m.is_empty(),
            Value::String(s) => !s.is_empty(),
            _ => true,
        });
        if !given {
            return (Ok(()), false);
        }
    }
    let mut walk = Walk {
        service,
        quirks,
        d: Decoder::default(),
        mismatch: false,
        markers,
    };
    if let Kind::Structure(members) = &service.shapes[input].kind {
        walk.structure(members, request, &mut String::new());
    }
    if walk.mismatch {
        // The operation's decoder reports the type error, which wins over every constraint.
        return (Ok(()), true);
    }
    // A table name the service checks first is reported alone, after the types (see `NameFirst`).
    if let Some(rule) = walk.quirks.table_name {
        match request.get("TableName").filter(|v| !v.is_null()) {
            Some(Value::String(name)) => {
                if let Err(e) = (rule.check)(name) {
                    return (Err(e.into()), false);
                }
            }
            Some(_) => {}
            None => {
                if let Some(missing) = rule.missing {
                    return (Err(dynomodel::Error::validation(missing).into()), false);
                }
            }
        }
    }
    (walk.d.finish(()), false)
}

struct Walk<'s> {
    service: &'s Service,
    quirks: Quirks,
    d: Decoder,
    /// A member had the wrong JSON type.
    mismatch: bool,
    /// Accept `wire::fast`'s markers (see [`run`]).
    markers: bool,
}

impl Walk<'_> {
    /// Whether `v` is a marker of `wire::fast` standing for an attribute value or a map of them of
    /// shape `shape`, for an `ExpressionAttributeNames` map, PartiQL parameters, a legacy
    /// parameter or the entries of a list of writes past its limit, decoded and checked already.
    fn is_marker(&self, shape: usize, v: &Value) -> bool {
        if !self.markers || !v.is_u64() {
            return false;
        }
        let shapes = self.service.shapes;
        match &shapes[shape].kind {
            Kind::Map { value, .. } => {
                shapes[*value].name == ATTRIBUTE_VALUE
                    || shapes[shape].name == super::NAME_MAP
                    || super::LEGACY_SHAPES.contains(&shapes[shape].name)
            }
            Kind::List { .. } => {
                shapes[shape].name == super::PARAMETER_LIST
                    || super::LEGACY_SHAPES.contains(&shapes[shape].name)
            }
            // The entries of an over-long list of writes past its limit (`fast::writes`).
            _ => {
                shapes[shape].name == ATTRIBUTE_VALUE
                    || crate::protocol::fast::writes::ELEMENTS.contains(&shapes[shape].name)
            }
        }
    }

    /// The members of a structure at `path`. Paths grow and shrink in one buffer, `path`, as the
    /// walk goes down and back up (a path formatted per node was most of the walk of a request of
    /// many small elements).
    fn structure(&mut self, members: &[Member], map: &Map<String, Value>, path: &mut String) {
        for member in members {
            let present = map.get(member.name).filter(|v| !v.is_null());
            // Paths are built only where something is checked (most members are absent).
            if present.is_none() && !member.required {
                continue;
            }
            let parent = path.len();
            if parent > 0 {
                path.push('.');
            }
            push_lower_first(path, member.name);
            match present {
                Some(v) => self.value(member.shape, v, path, true),
                None if self.checks_null(path) => self.d.null(path),
                None => {}
            }
            path.truncate(parent);
        }
    }

    /// Whether `v` has the JSON types of `shape` all the way down, without paths or constraints: the
    /// walk of attribute values, which are the bulk of a large request.
    fn types_match(&self, shape: usize, v: &Value) -> bool {
        if self.is_marker(shape, v) {
            return true;
        }
        match (&self.service.shapes[shape].kind, v) {
            (_, Value::Null) => true,
            // The fields present (usually one, of an attribute value's ten members); unknown ones
            // are ignored, as DynamoDB ignores them.
            (Kind::Structure(members), Value::Object(map)) => map.iter().all(|(name, field)| {
                members
                    .iter()
                    .find(|m| m.name == name)
                    .is_none_or(|m| self.types_match(m.shape, field))
            }),
            (Kind::List { member, .. }, Value::Array(elements)) => {
                elements.iter().all(|e| self.types_match(*member, e))
            }
            (Kind::Map { value, .. }, Value::Object(entries)) => {
                entries.values().all(|e| self.types_match(*value, e))
            }
            (Kind::String { .. }, Value::String(_)) => true,
            (Kind::Integer(_), _) => types::integer(v).is_ok(),
            (Kind::Long(_), _) => types::long(v, "an Long").is_ok(),
            (Kind::Boolean, _) => types::boolean(v).is_ok(),
            (Kind::Blob, _) => types::blob(v).is_ok(),
            (Kind::Double | Kind::Timestamp, _) => v.is_number(),
            _ => false,
        }
    }

    /// Whether walking `v` (present, not `null`) as `shape` would record nothing and find no type
    /// mismatch, at any path: every constraint holds, every required member is there, no element
    /// is `null`. Quirks only ever skip checks, so a clean value needs no path, which the walk then
    /// builds only for the rest (checked again there, in full: twice at most).
    fn clean(&self, shape: usize, v: &Value) -> bool {
        if self.is_marker(shape, v) {
            return true;
        }
        let shapes = self.service.shapes;
        if shapes[shape].name == ATTRIBUTE_VALUE {
            return self.types_match(shape, v);
        }
        let kind = &shapes[shape].kind;
        match (kind, v) {
            (Kind::Structure(members), Value::Object(map)) => {
                // By the members sent (usually fewer than the shape's: a `Put` sends two of its
                // seven), each found by name, rather than a tree lookup per member of the shape;
                // members outside the shape are ignored, as the walk ignores them.
                let mut required = 0;
                let all_clean =
                    map.iter()
                        .filter(|(_, field)| !field.is_null())
                        .all(
                            |(name, field)| match members.iter().find(|m| m.name == name) {
                                Some(m) => {
                                    required += usize::from(m.required);
                                    self.clean(m.shape, field)
                                }
                                None => true,
                            },
                        );
                all_clean && required == members.iter().filter(|m| m.required).count()
            }
            (Kind::List { member, .. }, Value::Array(elements)) => {
                !breaks_own(kind, v)
                    && elements
                        .iter()
                        .all(|e| !e.is_null() && self.clean(*member, e))
            }
            (Kind::Map { key, value, .. }, Value::Object(entries)) => {
                let key_kind = &shapes[*key].kind;
                !breaks_own(kind, v)
                    && entries.iter().all(|(k, e)| {
                        valid_key(key_kind, k) && !e.is_null() && self.clean(*value, e)
                    })
            }
            (Kind::String { .. }, Value::String(_)) => !breaks_own(kind, v),
            (Kind::Integer(_), _) => types::integer(v).is_ok() && !breaks_own(kind, v),
            (Kind::Long(_), _) => types::long(v, "an Long").is_ok() && !breaks_own(kind, v),
            (Kind::Boolean, _) => types::boolean(v).is_ok(),
            (Kind::Blob, _) => types::blob(v).is_ok(),
            (Kind::Double | Kind::Timestamp, _) => v.is_number(),
            _ => false,
        }
    }

    /// Test builds hold [`Walk::clean`] to its promise on every request they walk: the full walk of
    /// a value it passed over, at its path (`path` and then `extend`), records nothing.
    #[cfg(test)]
    fn records_nothing(
        &self,
        shape: usize,
        v: &Value,
        path: &str,
        extend: impl FnOnce(&mut String),
    ) {
        let mut full = Walk {
            service: self.service,
            quirks: self.quirks,
            d: Decoder::default(),
            mismatch: false,
            markers: self.markers,
        };
        let mut at = path.to_owned();
        extend(&mut at);
        full.value(shape, v, &mut at, true);
        assert!(
            !full.mismatch && full.d.broken == 0,
            "a clean value at {at} is not: {v}"
        );
    }

    fn checks_null(&self, path: &str) -> bool {
        self.quirks.skip(path) != Some(Skip::All)
    }

    /// Whether the constraints of the node at `path` itself (not `null`) are checked.
    fn checks_constraints(&self, path: &str) -> bool {
        self.quirks.skip(path).is_none()
    }

    /// A present (non-`null`) value of shape `shape` at `path`. `own`: check the shape's own
    /// constraints (false where a map reported them for all its values at once).
    fn value(&mut self, shape: usize, v: &Value, path: &mut String, own: bool) {
        let service = self.service;
        let shape_def = &service.shapes[shape];
        if self.is_marker(shape, v) {
            return;
        }
        if shape_def.name == ATTRIBUTE_VALUE {
            self.mismatch |= !self.types_match(shape, v);
            return;
        }
        let check = own && self.checks_constraints(path);
        match &shape_def.kind {
            Kind::Structure(members) => match v {
                Value::Object(map) => self.structure(members, map, path),
                _ => self.mismatch = true,
            },
            Kind::List { member, length } => {
                let Value::Array(elements) = v else {
                    self.mismatch = true;
                    return;
                };
                if check {
                    let scalars = !matches!(
                        service.shapes[*member].kind,
                        Kind::Structure(_) | Kind::List { .. } | Kind::Map { .. }
                    );
                    let rendered = || render(service, shape, v);
                    self.length(rendered, elements.len(), *length, path, scalars);
                }
                if service.shapes[*member].name == ATTRIBUTE_VALUE {
                    self.mismatch |= !elements.iter().all(|e| self.types_match(*member, e));
                    return;
                }
                for (i, element) in elements.iter().enumerate() {
                    // A clean element needs no path: an element's path was a third of the walk
                    // of a long `AttributesToGet`.
                    if !element.is_null() && self.clean(*member, element) {
                        #[cfg(test)]
                        self.records_nothing(*member, element, path, |p| {
                            p.push('.');
                            push_index(p, i + 1);
                            p.push_str(".member");
                        });
                        continue;
                    }
                    let parent = path.len();
                    path.push('.');
                    push_index(path, i + 1);
                    path.push_str(".member");
                    if element.is_null() {
                        if self.checks_null(path) {
                            self.d.null(path);
                        }
                    } else {
                        self.value(*member, element, path, true);
                    }
                    path.truncate(parent);
                }
            }
            Kind::Map { key, value, length } => {
                let Value::Object(entries) = v else {
                    self.mismatch = true;
                    return;
                };
                self.map(entries, *key, *value, *length, path, check);
            }
            Kind::String {
                length,
                pattern,
                values,
            } => match v {
                // The messages are built only for a string that breaks a constraint (a name in a
                // long `AttributesToGet` cost a vector and a character count each).
                Value::String(s) if check && !string_is_valid(s, *length, *pattern, values) => {
                    for message in string_violations(s, *length, *pattern, values) {
                        self.d.constraint(s, path, &message);
                    }
                }
                Value::String(_) => {}
                _ => self.mismatch = true,
            },
            Kind::Integer(range) => match types::integer(v) {
                Ok(n) if check => self.range(i64::from(n), *range, path),
                Ok(_) => {}
                Err(_) => self.mismatch = true,
            },
            Kind::Long(range) => match types::long(v, "an Long") {
                Ok(n) if check => self.range(n, *range, path),
                Ok(_) => {}
                Err(_) => self.mismatch = true,
            },
            Kind::Boolean => self.mismatch |= types::boolean(v).is_err(),
            Kind::Blob => self.mismatch |= types::blob(v).is_err(),
            Kind::Double | Kind::Timestamp => self.mismatch |= !v.is_number(),
        }
    }

    /// A map: its length, then one message for all keys and one for all values that break their
    /// shape's own constraints (each listing all of them), then each value at `<path>.<key>.member`.
    #[allow(clippy::too_many_arguments)]
    fn map(
        &mut self,
        entries: &Map<String, Value>,
        key: usize,
        value: usize,
        length: Bounds,
        path: &mut String,
        check: bool,
    ) {
        let service = self.service;
        let rendered = || render_map(service, value, entries);
        if check {
            self.length(rendered, entries.len(), length, path, false);
            let keys = &service.shapes[key].kind;
            if let Kind::String {
                length,
                pattern,
                values,
            } = keys
            {
                let broken = entries
                    .keys()
                    .any(|k| !string_is_valid(k, *length, *pattern, values));
                if broken {
                    let all = all_constraints(keys);
                    let message = format!("Map keys must satisfy constraint: [{}]", all.join(", "));
                    self.d.constraint(&rendered(), path, &message);
                }
            }
        }
        let value_kind = &service.shapes[value].kind;
        let direct = !all_constraints(value_kind).is_empty();
        if check && direct {
            let broken = entries
                .values()
                .filter(|v| !v.is_null())
                .any(|v| breaks_own(value_kind, v));
            if broken {
                let all = all_constraints(value_kind);
                let message = format!("Map value must satisfy constraint: [{}]", all.join(", "));
                self.d.constraint(&rendered(), path, &message);
            }
        }
        let nested = matches!(
            value_kind,
            Kind::Structure(_) | Kind::List { .. } | Kind::Map { .. }
        ) && service.shapes[value].name != ATTRIBUTE_VALUE;
        if service.shapes[value].name == ATTRIBUTE_VALUE {
            // An item, a key, expression values: only their types (no path is needed).
            self.mismatch |= !entries.values().all(|v| self.types_match(value, v));
            return;
        }
        if !nested {
            // Scalar values: their own constraints were checked above for all of them at once (or
            // they have none), so only their types are left, which need no path (a path formatted
            // per entry was a third of a large `ExpressionAttributeNames`' walk).
            self.mismatch |= !entries.values().all(|v| self.types_match(value, v));
            return;
        }
        for (k, v) in entries {
            // A clean entry needs no path (`Expected`, `ScanFilter`, … of many entries).
            if !v.is_null() && self.clean(value, v) {
                #[cfg(test)]
                self.records_nothing(value, v, path, |p| {
                    p.push('.');
                    p.push_str(k);
                    p.push_str(".member");
                });
                continue;
            }
            let parent = path.len();
            path.push('.');
            path.push_str(k);
            path.push_str(".member");
            if v.is_null() {
                if self.checks_null(path) {
                    self.d.null(path);
                }
            } else {
                self.value(value, v, path, !direct);
            }
            path.truncate(parent);
        }
    }

    /// A list's or map's number of elements. Too few echoes the value (`'[]'`, `'{}'`: dynalite's
    /// recordings). Too many echoes a list of scalars in Java's rendering (`'[a, b]'`), but names a
    /// list of structures or maps, or a map, without its value, as the service's newer layer answers
    /// ("Value at 'RequestItems.users.member.Keys' failed to satisfy constraint: Member must have
    /// length less than or equal to 100", the conformance suite's capture) — Java would render such
    /// elements with object hash codes. (The lists the service echoes anyway, a transaction's actions,
    /// are the backend's: `transact/render.rs`.)
    fn length(
        &mut self,
        rendered: impl Fn() -> String,
        n: usize,
        bounds: Bounds,
        path: &str,
        echo_too_many: bool,
    ) {
        let n = n as i64;
        if bounds.min.is_some_and(|min| n < min) {
            self.d
                .constraint(&rendered(), path, &min_length(bounds.min));
        }
        if bounds.max.is_some_and(|max| n > max) {
            let message = max_length(bounds.max);
            if echo_too_many {
                self.d.constraint(&rendered(), path, &message);
            } else {
                self.d
                    .record(|| crate::validate::violation(None, path, &message));
            }
        }
    }

    fn range(&mut self, n: i64, bounds: Bounds, path: &str) {
        let mut report = |message: String| match self.quirks.unechoed(path) {
            Some(reported) => self
                .d
                .record(|| crate::validate::violation(None, reported, &message)),
            None => self.d.constraint(&n.to_string(), path, &message),
        };
        if let Some(min) = bounds.min.filter(|min| n < *min) {
            report(format!(
                "Member must have value greater than or equal to {min}"
            ));
        }
        if let Some(max) = bounds.max.filter(|max| n > *max) {
            report(format!(
                "Member must have value less than or equal to {max}"
            ));
        }
    }
}

/// Whether a map key meets the constraints of its shape `kind` (the walk checks only string keys).
fn valid_key(kind: &Kind, key: &str) -> bool {
    match kind {
        Kind::String {
            length,
            pattern,
            values,
        } => string_is_valid(key, *length, *pattern, values),
        _ => true,
    }
}

/// Whether a (well-typed) value breaks the constraints of its shape itself.
fn breaks_own(kind: &Kind, v: &Value) -> bool {
    match (kind, v) {
        (
            Kind::String {
                length,
                pattern,
                values,
            },
            Value::String(s),
        ) => !string_is_valid(s, *length, *pattern, values),
        (Kind::List { length, .. }, Value::Array(a)) => out_of(a.len() as i64, *length),
        (Kind::Map { length, .. }, Value::Object(m)) => out_of(m.len() as i64, *length),
        (Kind::Integer(range), _) => types::integer(v).is_ok_and(|n| out_of(i64::from(n), *range)),
        (Kind::Long(range), _) => types::long(v, "").is_ok_and(|n| out_of(n, *range)),
        _ => false,
    }
}

/// A string's violations, in the service's order: the pattern, then the length (dynalite's
/// `test/updateTable.js`), or the enum.
pub(super) fn string_violations(
    s: &str,
    length: Bounds,
    pattern: Option<&str>,
    values: &[&str],
) -> Vec<String> {
    let mut out = Vec::new();
    if !values.is_empty() && !values.contains(&s) {
        out.push(format!(
            "Member must satisfy enum value set: [{}]",
            values.join(", ")
        ));
    }
    if let Some(p) = pattern.filter(|p| matches(p, s) == Some(false)) {
        out.push(format!(
            "Member must satisfy regular expression pattern: {p}"
        ));
    }
    let chars = s.chars().count() as i64;
    if length.min.is_some_and(|min| chars < min) {
        out.push(min_length(length.min));
    }
    if length.max.is_some_and(|max| chars > max) {
        out.push(max_length(length.max));
    }
    out
}

/// Whether [`string_violations`] finds nothing, without building its messages, and without counting
/// the characters where the byte length decides (a character is 1 to 4 bytes): the check of every
/// attribute name of a request (`key_is_valid`).
pub(super) fn string_is_valid(
    s: &str,
    length: Bounds,
    pattern: Option<&str>,
    values: &[&str],
) -> bool {
    (values.is_empty() || values.contains(&s))
        && pattern.is_none_or(|p| matches(p, s) != Some(false))
        && length_within(s, length)
}

/// Whether `s` has between `length.min` and `length.max` characters.
fn length_within(s: &str, length: Bounds) -> bool {
    let bytes = s.len() as i64;
    let chars = || s.chars().count() as i64;
    let long_enough = match length.min {
        None => true,
        // At least one character is at least one byte.
        Some(min) if min <= 1 => bytes >= min,
        Some(min) => chars() >= min,
    };
    let short_enough = match length.max {
        None => true,
        Some(max) if bytes <= max => true,
        Some(max) => chars() <= max,
    };
    long_enough && short_enough
}

fn out_of(n: i64, bounds: Bounds) -> bool {
    bounds.min.is_some_and(|min| n < min) || bounds.max.is_some_and(|max| n > max)
}

fn min_length(min: Option<i64>) -> String {
    format!(
        "Member must have length greater than or equal to {}",
        min.unwrap_or_default()
    )
}

fn max_length(max: Option<i64>) -> String {
    format!(
        "Member must have length less than or equal to {}",
        max.unwrap_or_default()
    )
}

/// Every constraint of a shape itself, as the service lists them for a map's keys or values: the
/// maximum, the minimum, then the pattern or enum (dynalite's `test/batchWriteItem.js`).
fn all_constraints(kind: &Kind) -> Vec<String> {
    let mut out = Vec::new();
    let (length, extra) = match kind {
        Kind::String {
            length,
            pattern,
            values,
        } => {
            let extra = match (pattern, values.is_empty()) {
                (Some(p), _) => Some(format!(
                    "Member must satisfy regular expression pattern: {p}"
                )),
                (None, false) => Some(format!(
                    "Member must satisfy enum value set: [{}]",
                    values.join(", ")
                )),
                (None, true) => None,
            };
            (*length, extra)
        }
        Kind::List { length, .. } | Kind::Map { length, .. } => (*length, None),
        Kind::Integer(range) | Kind::Long(range) => {
            if range.max.is_some() {
                out.push(format!(
                    "Member must have value less than or equal to {}",
                    range.max.unwrap_or_default()
                ));
            }
            if range.min.is_some() {
                out.push(format!(
                    "Member must have value greater than or equal to {}",
                    range.min.unwrap_or_default()
                ));
            }
            return out;
        }
        _ => return out,
    };
    if length.max.is_some() {
        out.push(max_length(length.max));
    }
    if length.min.is_some() {
        out.push(min_length(length.min));
    }
    out.extend(extra);
    out
}

/// How the service's Java request layer renders a value of `shape` in a message: strings bare inside
/// collections, lists `[a, b]`, maps `{k=v}`, structures `KeySchemaElement(attributeName=id,
/// keyType=null)` (the engine's rendering of key schemas, `ops/create.rs`).
fn render(service: &Service, shape: usize, v: &Value) -> String {
    match (&service.shapes[shape].kind, v) {
        (Kind::List { member, .. }, Value::Array(a)) => {
            let parts: Vec<String> = a.iter().map(|e| render(service, *member, e)).collect();
            format!("[{}]", parts.join(", "))
        }
        (Kind::Map { value, .. }, Value::Object(m)) => render_map(service, *value, m),
        (Kind::Structure(members), Value::Object(m)) => {
            let parts: Vec<String> = members
                .iter()
                .map(|member| {
                    let shown = match m.get(member.name) {
                        Some(v) => render(service, member.shape, v),
                        None => "null".to_owned(),
                    };
                    format!("{}={shown}", lower_first(member.name))
                })
                .collect();
            format!("{}({})", service.shapes[shape].name, parts.join(", "))
        }
        (_, Value::String(s)) => s.clone(),
        (_, other) => other.to_string(),
    }
}

/// A map of `value` shapes: `{k=v, …}`.
fn render_map(service: &Service, value: usize, m: &Map<String, Value>) -> String {
    let entries: Vec<String> = m
        .iter()
        .map(|(k, v)| format!("{k}={}", render(service, value, v)))
        .collect();
    format!("{{{}}}", entries.join(", "))
}
