//! `item_version = N`, `item_version_attribute = "..."` and `#[upcast(...)]`: the declarations of
//! item versions and of how older items are read.
//!
//! The upcasts must form one chain ending at the model: `from = k` for every k from the lowest
//! declared up to N - 1, each once. An item older than the lowest is refused at run time (no path);
//! a gap would refuse the versions below it while seeming to read them, so it is a compile error.

use crate::attr::item_version::UpcastStep;
use crate::attr::Errors;
use crate::ir::{Container, Derive};

/// Every rule of the item-version declarations.
pub(super) fn check(container: &Container<'_>, errors: &mut Errors) {
    let attrs = &container.attrs;
    if container.derive == Derive::Document {
        let spans = [attrs.item_version.as_ref().map(|v| v.span)]
            .into_iter()
            .chain([attrs.item_version_attribute.as_ref().map(|a| a.span)])
            .flatten();
        for span in spans {
            errors.at(
                span,
                "item versions belong on a `#[derive(Model)]` struct, not on a Document (a \
                 document is read within its item, at the item's version)",
            );
        }
        return;
    }
    let Some(version) = &attrs.item_version else {
        if let Some(attribute) = &attrs.item_version_attribute {
            errors.at(
                attribute.span,
                "`item_version_attribute` needs an item version: add `item_version = N`",
            );
        }
        for upcast in &attrs.upcasts {
            errors.at(
                upcast.span,
                "an upcast reads an older item version: declare the model's own with \
                 `#[dynomodel(item_version = N)]`",
            );
        }
        return;
    };
    if version.value == 0 {
        errors.at(
            version.span,
            "item versions start at 1 (an item without a version is read as version 1)",
        );
    }
    attribute_is_free(container, errors);
    chain(container, version.value, errors);
}

/// The attribute is named and is not also a field's, a composite's, the entity attribute or the
/// `#[version]`'s (the item would hold one value for two meanings).
fn attribute_is_free(container: &Container<'_>, errors: &mut Errors) {
    let attrs = &container.attrs;
    let span = match (&attrs.item_version_attribute, &attrs.item_version) {
        (Some(attribute), _) => attribute.span,
        (None, Some(version)) => version.span,
        (None, None) => return,
    };
    let name = crate::expand::item_version::attribute_name(container);
    if name.is_empty() {
        errors.at(span, "the item version attribute's name cannot be empty");
        return;
    }
    let field = container
        .fields
        .iter()
        .find(|f| f.stored() && f.name == name)
        .map(|f| match f.attrs.version {
            Some(_) => format!("the `#[version]` field `{}`", f.ident),
            None => format!("field `{}`", f.ident),
        });
    let composite = container
        .composites
        .iter()
        .find(|c| c.name == name)
        .map(|c| format!("composite `{}`", c.ident));
    let entity = (attrs.entity.is_some()
        && crate::expand::entity::attribute_name(container) == name)
        .then(|| "the entity attribute".to_owned());
    if let Some(other) = field.or(composite).or(entity) {
        errors.at(
            span,
            format!(
                "the item version attribute `{name}` is also {other}; name another with \
                 `item_version_attribute = \"...\"`"
            ),
        );
    }
}

/// The upcasts read versions below the model's, once each, without gaps, and a `model` step is
/// followed by a `model` step or is the last (its value converts with `From` into a struct).
fn chain(container: &Container<'_>, version: u32, errors: &mut Errors) {
    let upcasts = &container.attrs.upcasts;
    let mut seen: Vec<u32> = Vec::new();
    for upcast in upcasts {
        let from = &upcast.from;
        if from.value == 0 {
            errors.at(
                from.span,
                "item versions start at 1: there is no version 0 to upcast",
            );
        } else if from.value >= version {
            errors.at(
                from.span,
                format!(
                    "an upcast reads an older version than the model's ({version}): `from` is 1 to {}",
                    version.saturating_sub(1)
                ),
            );
        } else if seen.contains(&from.value) {
            errors.at(
                from.span,
                format!(
                    "duplicate upcast from version {}: each version is read one way",
                    from.value
                ),
            );
        } else {
            seen.push(from.value);
        }
    }
    let Some(&lowest) = seen.iter().min() else {
        return;
    };
    let missing: Vec<String> = (lowest..version)
        .filter(|v| !seen.contains(v))
        .map(|v| v.to_string())
        .collect();
    if !missing.is_empty() {
        let span = upcasts
            .iter()
            .find(|u| u.from.value == lowest)
            .map_or(container.ident.span(), |u| u.from.span);
        errors.at(
            span,
            format!(
                "the upcasts from version {lowest} to {version} have a gap: no upcast from version {} \
                 (each reads one version into the next)",
                missing.join(", ")
            ),
        );
        return;
    }
    for upcast in upcasts {
        let UpcastStep::Model(_) = upcast.step else {
            continue;
        };
        let next = upcasts
            .iter()
            .find(|u| u.from.value == upcast.from.value.saturating_add(1));
        if let Some(next) = next
            && let UpcastStep::Item(_) = next.step
        {
            errors.at(
                next.span,
                format!(
                    "the upcast from version {} reads a struct, which converts with `From` into \
                     the next one: the upcast from version {} must be a `model = Type` too (an \
                     `item = fn` upcast may only come before `model` ones)",
                    upcast.from.value, next.from.value
                ),
            );
        }
    }
}
