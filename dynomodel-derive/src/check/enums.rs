//! The rules of `#[derive(Attribute)]`: every variant has its own non-empty tag, and the fields of
//! struct variants follow a document's rules.

use std::collections::HashMap;

use crate::attr::Errors;
use crate::check::escape;
use crate::ir::enums::{AttrContainer, Kind, Shape};

/// Runs every rule.
pub(crate) fn check(container: &AttrContainer<'_>, errors: &mut Errors) {
    tag(container, errors);
    let Kind::Enum(variants) = &container.kind else {
        return;
    };
    let mut seen = HashMap::new();
    for variant in variants {
        if variant.name.is_empty() {
            errors.at(variant.name_span, "a variant's tag cannot be empty");
        }
        if let Some(first) = seen.insert(variant.name.as_str(), variant.ident) {
            errors.at(
                variant.name_span,
                format!(
                    "variants `{first}` and `{}` are both stored as {:?}: tags must be distinct to be read back",
                    variant.ident, variant.name
                ),
            );
        }
        match &variant.shape {
            Shape::Struct(fields) => {
                escape::fields(fields, errors);
                super::datetime::fields(fields, errors);
                field_names(fields, errors);
                no_counters(fields, errors);
            }
            _ => {
                if let Some(rule) = &variant.attrs.rename_all {
                    errors.at(
                        rule.span,
                        format!(
                            "`rename_all` on a variant names its fields, and `{}` has no named fields",
                            variant.ident
                        ),
                    );
                }
            }
        }
    }
}

/// A struct variant's stored fields have distinct, non-empty names.
fn field_names(fields: &[crate::ir::Field<'_>], errors: &mut Errors) {
    let mut seen = HashMap::new();
    for field in fields.iter().filter(|f| f.stored()) {
        if field.name.is_empty() {
            errors.at(field.name_span, "attribute names cannot be empty");
        }
        if let Some(first) = seen.insert(field.name.as_str(), field.ident) {
            errors.at(
                field.name_span,
                format!(
                    "fields `{first}` and `{}` are both stored as attribute `{}`",
                    field.ident, field.name
                ),
            );
        }
    }
}

/// A counter is a top-level attribute of a model, which whole-item writes leave as stored; a
/// variant's field is written with its enum, whole.
fn no_counters(fields: &[crate::ir::Field<'_>], errors: &mut Errors) {
    for field in fields {
        if let Some(span) = field.attrs.counter {
            errors.at(
                span,
                format!(
                    "field `{}` cannot be a counter: a variant's fields are written whole with it; \
                     a counter belongs on a `#[derive(Model)]` struct, as a top-level attribute",
                    field.ident
                ),
            );
        }
    }
}

/// `tag = "type"` stores every variant as a map holding its name under that attribute: a newtype has
/// no variants, a tuple variant's list has no room for it, and a struct variant's field cannot be
/// stored under the same name.
fn tag(container: &AttrContainer<'_>, errors: &mut Errors) {
    let Some(tag) = &container.tag else {
        return;
    };
    if tag.value.is_empty() {
        errors.at(tag.span, "the tag attribute's name cannot be empty");
    }
    let variants = match &container.kind {
        Kind::Enum(variants) => variants,
        Kind::Newtype(_) => {
            errors.at(
                tag.span,
                "`tag` applies to enums; a newtype is stored exactly as its field",
            );
            return;
        }
    };
    for variant in variants {
        match &variant.shape {
            Shape::Tuple(_) => errors.at(
                variant.ident.span(),
                format!(
                    "tuple variant `{}` cannot be internally tagged (`tag = {:?}`): a list has no attribute to hold its name; \
                     use a struct variant, or drop `tag` for the externally tagged form",
                    variant.ident, tag.value
                ),
            ),
            Shape::Struct(fields) => {
                for field in fields.iter().filter(|f| f.stored() && f.name == tag.value) {
                    errors.at(
                        field.name_span,
                        format!(
                            "field `{}` is stored as {:?}, the enum's tag attribute, which holds the variant's name",
                            field.ident, tag.value
                        ),
                    );
                }
            }
            Shape::Unit | Shape::Newtype(_) => {}
        }
    }
}
