//! Parsing of `#[derive(Attribute)]`'s options: `#[dynomodel(rename_all = "...", tag = "...")]` on the enum and
//! `#[dynomodel(rename = "...", rename_all = "...")]` on a variant (`rename_all` on a variant names the
//! fields of a struct variant). Fields of struct variants take the field options of
//! [`crate::attr::field`].

use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Attribute, LitStr};

use crate::attr::{option_name, set_once, skip_value, Errors, Spanned};
use crate::case::RenameRule;

/// The options on the enum (or newtype struct).
#[derive(Default)]
pub(crate) struct EnumAttrs {
    /// `rename_all = "snake_case"`: how variant names become tags.
    pub rename_all: Option<Spanned<RenameRule>>,
    /// `tag = "type"`: internally tagged, the variant's name stored in this attribute of its map.
    pub tag: Option<Spanned<String>>,
}

/// The options on a variant.
#[derive(Default)]
pub(crate) struct VariantAttrs {
    /// `rename = "tag"`.
    pub rename: Option<Spanned<String>>,
    /// `rename_all = "camelCase"`: how a struct variant's fields are named.
    pub rename_all: Option<Spanned<RenameRule>>,
}

/// Parses the enum's attributes.
pub(crate) fn container(attrs: &[Attribute], errors: &mut Errors) -> EnumAttrs {
    let mut out = EnumAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("dynomodel")) {
        let parsed = attr.parse_nested_meta(|meta| {
            let span = meta.path.span();
            if meta.path.is_ident("rename_all") {
                if let Some(rule) = rename_rule(&meta, errors)? {
                    set_once(&mut out.rename_all, rule, span, "rename_all", errors);
                }
            } else if meta.path.is_ident("tag") {
                let lit: LitStr = meta.value()?.parse()?;
                let value = Spanned { value: lit.value(), span: lit.span() };
                set_once(&mut out.tag, value, span, "tag", errors);
            } else {
                errors.at(
                    span,
                    format!(
                        "unknown dynomodel option `{}` for #[derive(Attribute)]; expected `rename_all` or `tag`",
                        option_name(&meta)
                    ),
                );
                skip_value(&meta)?;
            }
            Ok(())
        });
        if let Err(e) = parsed {
            errors.push(e);
        }
    }
    out
}

/// Parses a variant's attributes.
pub(crate) fn variant(attrs: &[Attribute], errors: &mut Errors) -> VariantAttrs {
    let mut out = VariantAttrs::default();
    for attr in attrs.iter().filter(|a| a.path().is_ident("dynomodel")) {
        let parsed = attr.parse_nested_meta(|meta| {
            let span = meta.path.span();
            if meta.path.is_ident("rename") {
                let lit: LitStr = meta.value()?.parse()?;
                let value = Spanned {
                    value: lit.value(),
                    span: lit.span(),
                };
                set_once(&mut out.rename, value, span, "rename", errors);
            } else if meta.path.is_ident("rename_all") {
                if let Some(rule) = rename_rule(&meta, errors)? {
                    set_once(&mut out.rename_all, rule, span, "rename_all", errors);
                }
            } else {
                errors.at(
                    span,
                    format!(
                        "unknown dynomodel variant option `{}`; expected `rename` or `rename_all`",
                        option_name(&meta)
                    ),
                );
                skip_value(&meta)?;
            }
            Ok(())
        });
        if let Err(e) = parsed {
            errors.push(e);
        }
    }
    out
}

/// `rename_all = "..."`: `None` (with the error recorded) for an unknown rule.
fn rename_rule(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<Option<Spanned<RenameRule>>> {
    let lit: LitStr = meta.value()?.parse()?;
    match RenameRule::parse(&lit.value()) {
        Some(rule) => Ok(Some(Spanned {
            value: rule,
            span: lit.span(),
        })),
        None => {
            errors.at(
                lit.span(),
                format!(
                    "unknown rename_all rule {:?}; expected one of {}",
                    lit.value(),
                    RenameRule::NAMES
                ),
            );
            Ok(None)
        }
    }
}
