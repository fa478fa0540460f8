//! The rules of `#[dynomodel(counter)]`: a stored, plain, top-level attribute of a model with a
//! `#[version]`, changed by atomic updates only. That its type is a number or a set is checked by
//! the compiler through `dynomodel::convert::CounterAttribute`, spanned at the field's type.

use crate::attr::Errors;
use crate::ir::{Container, Derive, Field};

/// Runs every counter rule.
pub(super) fn check(container: &Container<'_>, errors: &mut Errors) {
    only_on_models(container, errors);
    needs_a_version(container, errors);
    not_a_key(container, errors);
    not_another_role(container, errors);
    stored(container, errors);
    plain(container, errors);
}

/// A whole-item write leaves a counter as stored by not naming its attribute; one inside a map is
/// rewritten with the map.
fn only_on_models(container: &Container<'_>, errors: &mut Errors) {
    if container.derive != Derive::Document {
        return;
    }
    for field in container.counters() {
        at(field, errors, |ident| {
            format!(
                "field `{ident}` cannot be a counter: a Document is written whole inside its \
                 item, so a counter belongs on a `#[derive(Model)]` struct, as a top-level attribute"
            )
        });
    }
}

/// A counter is what is exempt from the version bump: without a version, there is nothing to be
/// exempt from.
fn needs_a_version(container: &Container<'_>, errors: &mut Errors) {
    if container.derive != Derive::Model || container.version().is_some() {
        return;
    }
    for field in container.counters() {
        at(field, errors, |ident| {
            format!(
                "counter `{ident}` needs a `#[version]` field in `{}`: a counter is exempt from the \
                 version bump, so that its increments never conflict with an edit",
                container.ident
            )
        });
    }
}

/// A key never changes, so it counts nothing.
fn not_a_key(container: &Container<'_>, errors: &mut Errors) {
    for field in container.counters().filter(|f| f.key.is_some()) {
        at(field, errors, |ident| {
            format!("key field `{ident}` cannot be a counter: a key never changes")
        });
    }
}

/// The version, the time to live and the timestamps are written by the mapper, each its own way.
fn not_another_role(container: &Container<'_>, errors: &mut Errors) {
    for field in container.counters() {
        let attrs = &field.attrs;
        let role = if attrs.version.is_some() {
            "the `#[version]`, which every other write bumps"
        } else if attrs.ttl.is_some() {
            "the `#[ttl]`, an expiry time"
        } else if attrs.created_at.is_some() || attrs.updated_at.is_some() {
            "a timestamp, which the mapper sets"
        } else {
            continue;
        };
        at(field, errors, |ident| {
            format!("field `{ident}` cannot be a counter: it is {role}")
        });
    }
}

/// A counter is kept as stored, so it must be stored.
fn stored(container: &Container<'_>, errors: &mut Errors) {
    for field in container.counters().filter(|f| f.skip.is_some()) {
        at(field, errors, |ident| {
            format!(
                "counter `{ident}` cannot be skipped: it is stored and changed where it is stored"
            )
        });
    }
}

/// `ADD` works on the number or set as stored: an adapter would store something else.
fn plain(container: &Container<'_>, errors: &mut Errors) {
    for field in container.counters() {
        let attrs = &field.attrs;
        let adapter = [
            (attrs.epoch_seconds, "epoch_seconds"),
            (attrs.serde, "serde"),
            (attrs.json, "json"),
        ]
        .into_iter()
        .find_map(|(span, name)| span.map(|_| name));
        if let Some(adapter) = adapter {
            at(field, errors, |ident| {
                format!(
                    "counter `{ident}` cannot be stored through `{adapter}`: `ADD` needs the number \
                     or set as it is"
                )
            });
        }
    }
}

/// Records the error at the field's `counter` option.
fn at(field: &Field<'_>, errors: &mut Errors, message: impl FnOnce(&syn::Ident) -> String) {
    if let Some(span) = field.attrs.counter {
        errors.at(span, message(field.ident));
    }
}
