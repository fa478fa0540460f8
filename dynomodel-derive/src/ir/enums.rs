//! The intermediate representation of `#[derive(Attribute)]`: a newtype struct (stored as its inner
//! value) or an enum whose variants have their stored tags resolved.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::spanned::Spanned as _;
use syn::{DeriveInput, Ident, Type};

use crate::attr::enums as enum_attr;
use crate::attr::{self, Errors, Spanned};
use crate::case::RenameRule;
use crate::ir::{conversion, Field, FieldDefault};

/// The type deriving `Attribute`.
pub(crate) struct AttrContainer<'a> {
    pub ident: &'a Ident,
    /// `tag = "type"`: internally tagged (the variant's name in that attribute of a map).
    pub tag: Option<Spanned<String>>,
    pub kind: Kind<'a>,
}

/// What is derived.
pub(crate) enum Kind<'a> {
    /// `struct UserId(String)`: stored as the inner value.
    Newtype(&'a Type),
    /// An enum.
    Enum(Vec<Variant<'a>>),
}

/// One variant.
pub(crate) struct Variant<'a> {
    pub ident: &'a Ident,
    /// The stored tag.
    pub name: String,
    /// The `rename` string or the variant's identifier.
    pub name_span: Span,
    pub shape: Shape<'a>,
    pub attrs: enum_attr::VariantAttrs,
}

/// A variant's fields.
pub(crate) enum Shape<'a> {
    Unit,
    /// One unnamed field: stored as its value.
    Newtype(&'a Type),
    /// Several unnamed fields: stored as a list.
    Tuple(Vec<&'a Type>),
    /// Named fields: stored as a map, with the field options of `#[derive(Document)]`.
    Struct(Vec<Field<'a>>),
}

impl<'a> AttrContainer<'a> {
    /// Builds the IR; `None` (with errors recorded) for a shape that cannot derive `Attribute`.
    pub(crate) fn from_ast(
        input: &'a DeriveInput,
        errors: &mut Errors,
    ) -> Option<AttrContainer<'a>> {
        let attrs = enum_attr::container(&input.attrs, errors);
        if !input.generics.params.is_empty() {
            errors.at(
                input.generics.span(),
                "#[derive(Attribute)] does not support generic types: a stored value's shape must be fixed",
            );
        }
        let kind = match &input.data {
            syn::Data::Struct(data) => newtype(input, &data.fields, errors)?,
            syn::Data::Enum(data) => {
                if data.variants.is_empty() {
                    errors.at(
                        input.ident.span(),
                        "#[derive(Attribute)] needs an enum with at least one variant: an empty enum has no value to store",
                    );
                }
                let rule = attrs.rename_all.as_ref().map(|r| r.value);
                Kind::Enum(
                    data.variants
                        .iter()
                        .map(|v| variant(v, rule, errors))
                        .collect(),
                )
            }
            syn::Data::Union(data) => {
                errors.at(
                    data.union_token.span(),
                    "#[derive(Attribute)] supports enums and newtype structs, not unions",
                );
                return None;
            }
        };
        Some(AttrContainer {
            ident: &input.ident,
            tag: attrs.tag,
            kind,
        })
    }

    /// Whether every variant is a unit variant and no `tag` is set: the enum is stored as a string (S)
    /// and may be a key.
    pub(crate) fn is_unit_enum(&self) -> bool {
        if self.tag.is_some() {
            return false;
        }
        match &self.kind {
            Kind::Enum(variants) => variants.iter().all(|v| matches!(v.shape, Shape::Unit)),
            Kind::Newtype(_) => false,
        }
    }
}

/// A struct deriving `Attribute` must be a newtype.
fn newtype<'a>(
    input: &'a DeriveInput,
    fields: &'a syn::Fields,
    errors: &mut Errors,
) -> Option<Kind<'a>> {
    let message = match fields {
        syn::Fields::Unnamed(unnamed) if unnamed.unnamed.len() == 1 => {
            let field = &unnamed.unnamed[0];
            if let Some(attr) = field.attrs.iter().find(|a| a.path().is_ident("dynomodel")) {
                errors.at(
                    attr.path().span(),
                    "a newtype is stored exactly as its field: its field takes no dynomodel options",
                );
            }
            return Some(Kind::Newtype(&field.ty));
        }
        syn::Fields::Unnamed(_) => {
            "#[derive(Attribute)] on a struct needs a newtype (one unnamed field, stored as that field's value); \
             use #[derive(Document)] for a struct stored as a map"
        }
        syn::Fields::Named(_) => {
            "#[derive(Attribute)] on a struct needs a newtype (one unnamed field); \
             a struct with named fields is a map: use #[derive(Document)]"
        }
        syn::Fields::Unit => "#[derive(Attribute)] on a struct needs a newtype; a unit struct has nothing to store",
    };
    errors.at(input.ident.span(), message);
    None
}

fn variant<'a>(
    variant: &'a syn::Variant,
    rule: Option<RenameRule>,
    errors: &mut Errors,
) -> Variant<'a> {
    let attrs = enum_attr::variant(&variant.attrs, errors);
    let (name, name_span) = match &attrs.rename {
        Some(rename) => (rename.value.clone(), rename.span),
        None => {
            let rust = variant.ident.unraw().to_string();
            (
                rule.map_or_else(|| rust.clone(), |rule| variant_name(rule, &rust)),
                variant.ident.span(),
            )
        }
    };
    let shape = match &variant.fields {
        syn::Fields::Unit => Shape::Unit,
        syn::Fields::Unnamed(unnamed) => {
            if let Some(attr) = unnamed
                .unnamed
                .iter()
                .flat_map(|f| &f.attrs)
                .find(|a| a.path().is_ident("dynomodel"))
            {
                errors.at(
                    attr.path().span(),
                    "fields of a tuple variant take no dynomodel options; use a struct variant to rename or adapt fields",
                );
            }
            let types: Vec<&Type> = unnamed.unnamed.iter().map(|f| &f.ty).collect();
            match types.as_slice() {
                [one] => Shape::Newtype(one),
                _ => Shape::Tuple(types),
            }
        }
        syn::Fields::Named(named) => {
            let rule = attrs.rename_all.as_ref().map(|r| r.value);
            Shape::Struct(
                named
                    .named
                    .iter()
                    .filter_map(|f| field(f, rule, errors))
                    .collect(),
            )
        }
    };
    Variant {
        ident: &variant.ident,
        name,
        name_span,
        shape,
        attrs,
    }
}

/// A field of a struct variant, resolved as `Container::from_ast` resolves a document's fields.
fn field<'a>(
    field: &'a syn::Field,
    rule: Option<RenameRule>,
    errors: &mut Errors,
) -> Option<Field<'a>> {
    let ident = field.ident.as_ref()?;
    let field_attrs = attr::field(&field.attrs, errors);
    let (name, name_span) = match &field_attrs.rename {
        Some(rename) => (rename.value.clone(), rename.span),
        None => {
            let rust = ident.unraw().to_string();
            (
                rule.map_or_else(|| rust.clone(), |r| r.apply(&rust)),
                ident.span(),
            )
        }
    };
    let default = match &field_attrs.default {
        None => FieldDefault::None,
        Some(attr::Spanned { value: None, .. }) => FieldDefault::Trait,
        Some(attr::Spanned {
            value: Some(path), ..
        }) => FieldDefault::Path(path.clone()),
    };
    Some(Field {
        ident,
        ty: &field.ty,
        name,
        name_span,
        key: None,
        skip: field_attrs.skip,
        default,
        conversion: conversion(&field_attrs, &field.ty, None),
        attrs: field_attrs,
    })
}

/// A variant's tag under a `rename_all` rule, as serde names variants: the PascalCase identifier is
/// split into words at its capitals, then cased (`InProgress` → `in_progress`, `IN_PROGRESS`,
/// `in-progress`, `inProgress`); `lowercase`/`UPPERCASE` only change the case (`inprogress`).
pub(crate) fn variant_name(rule: RenameRule, variant: &str) -> String {
    match rule {
        RenameRule::Lower => return variant.to_ascii_lowercase(),
        RenameRule::Upper => return variant.to_ascii_uppercase(),
        RenameRule::Pascal => return variant.to_owned(),
        _ => {}
    }
    let mut snake = String::with_capacity(variant.len() + 4);
    for (i, c) in variant.char_indices() {
        if c.is_uppercase() && i > 0 {
            snake.push('_');
        }
        snake.extend(c.to_lowercase());
    }
    rule.apply(&snake)
}

#[cfg(test)]
mod tests {
    use super::variant_name;
    use crate::case::RenameRule::*;

    #[test]
    fn variants_are_renamed_like_serde() {
        assert_eq!(variant_name(Snake, "InProgress"), "in_progress");
        assert_eq!(variant_name(ScreamingSnake, "InProgress"), "IN_PROGRESS");
        assert_eq!(variant_name(Kebab, "InProgress"), "in-progress");
        assert_eq!(variant_name(Camel, "InProgress"), "inProgress");
        assert_eq!(variant_name(Pascal, "InProgress"), "InProgress");
        assert_eq!(variant_name(Lower, "InProgress"), "inprogress");
        assert_eq!(variant_name(Upper, "InProgress"), "INPROGRESS");
        assert_eq!(variant_name(Camel, "Active"), "active");
    }
}
