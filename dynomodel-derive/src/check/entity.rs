//! `entity = "..."` and `entity_attribute = "..."`: single-table entity types.

use crate::attr::Errors;
use crate::ir::{Container, Derive};

/// The entity options belong on models, name something, and the entity attribute is not also a
/// field or composite (the item would hold one value for two meanings).
pub(super) fn check(container: &Container<'_>, errors: &mut Errors) {
    let attrs = &container.attrs;
    if container.derive == Derive::Document {
        for span in [&attrs.entity, &attrs.entity_attribute]
            .into_iter()
            .flatten()
            .map(|s| s.span)
        {
            errors.at(
                span,
                "entity options belong on a `#[derive(Model)]` struct, not on a Document",
            );
        }
        return;
    }
    if let Some(entity) = &attrs.entity
        && entity.value.is_empty()
    {
        errors.at(entity.span, "the entity type cannot be empty");
    }
    if let Some(attribute) = &attrs.entity_attribute {
        if attrs.entity.is_none() {
            errors.at(
                attribute.span,
                "`entity_attribute` needs an entity type: add `entity = \"...\"`",
            );
        }
        if attribute.value.is_empty() {
            errors.at(
                attribute.span,
                "the entity attribute's name cannot be empty",
            );
        }
    }
    let Some(entity) = &attrs.entity else {
        return;
    };
    let span = attrs
        .entity_attribute
        .as_ref()
        .map_or(entity.span, |a| a.span);
    let name = crate::expand::entity::attribute_name(container);
    let field = container
        .fields
        .iter()
        .find(|f| f.stored() && f.name == name)
        .map(|f| format!("field `{}`", f.ident));
    let composite = container
        .composites
        .iter()
        .find(|c| c.name == name)
        .map(|c| format!("composite `{}`", c.ident));
    if let Some(other) = field.or(composite) {
        errors.at(
            span,
            format!(
                "the entity attribute `{name}` is also the attribute of {other}; \
                 name another with `entity_attribute = \"...\"`"
            ),
        );
    }
}
