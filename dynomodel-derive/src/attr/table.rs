//! Parsing of the table-level options that describe more than keys and billing:
//!
//! ```text
//! #[dynomodel(tags(team = "payments", "cost-center" = "42"))]   resource tags
//! #[dynomodel(stream = "new_and_old_images")]                    keys_only, new_image, old_image
//! #[dynomodel(table_class = "standard_infrequent_access")]       or "standard"
//! #[dynomodel(deletion_protection)]
//! #[dynomodel(point_in_time_recovery)]                           or point_in_time_recovery(recovery_period_days = 7)
//! ```
//!
//! A tag key is an identifier or a string, so keys that are not Rust identifiers (`"cost-center"`,
//! `"user:team"`) can be written; values are strings. The values are validated by `check::tags`.

use proc_macro2::Span;
use syn::ext::IdentExt as _;
use syn::meta::ParseNestedMeta;
use syn::parse::ParseStream;
use syn::spanned::Spanned as _;
use syn::{Ident, LitStr, Token};

use crate::attr::{Errors, Spanned};

/// One `key = "value"` of `tags(...)`, each half with its span.
pub(crate) struct TagAttr {
    pub key: Spanned<String>,
    pub value: Spanned<String>,
}

/// `tags(...)`: the tags in declaration order and the span of the `tags` keyword.
pub(crate) struct TagsAttr {
    pub tags: Vec<TagAttr>,
    pub span: Span,
}

/// The view a `stream = "..."` option selects (DynamoDB's `StreamViewType`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum StreamView {
    KeysOnly,
    NewImage,
    OldImage,
    NewAndOldImages,
}

impl StreamView {
    const NAMES: &'static str =
        "\"keys_only\", \"new_image\", \"old_image\" or \"new_and_old_images\"";

    fn parse(text: &str) -> Option<StreamView> {
        match text {
            "keys_only" => Some(StreamView::KeysOnly),
            "new_image" => Some(StreamView::NewImage),
            "old_image" => Some(StreamView::OldImage),
            "new_and_old_images" => Some(StreamView::NewAndOldImages),
            _ => None,
        }
    }

    /// The variant of `dynomodel::backend::StreamViewType`.
    pub(crate) fn variant(self) -> &'static str {
        match self {
            StreamView::KeysOnly => "KeysOnly",
            StreamView::NewImage => "NewImage",
            StreamView::OldImage => "OldImage",
            StreamView::NewAndOldImages => "NewAndOldImages",
        }
    }
}

/// The storage class a `table_class = "..."` option selects (DynamoDB's `TableClass`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum TableClassAttr {
    Standard,
    StandardInfrequentAccess,
}

impl TableClassAttr {
    const NAMES: &'static str = "\"standard\" or \"standard_infrequent_access\"";

    fn parse(text: &str) -> Option<TableClassAttr> {
        match text {
            "standard" => Some(TableClassAttr::Standard),
            "standard_infrequent_access" => Some(TableClassAttr::StandardInfrequentAccess),
            _ => None,
        }
    }

    /// The variant of `dynomodel::backend::TableClass`.
    pub(crate) fn variant(self) -> &'static str {
        match self {
            TableClassAttr::Standard => "Standard",
            TableClassAttr::StandardInfrequentAccess => "StandardInfrequentAccess",
        }
    }
}

/// Parses `tags(key = "value", "key" = "value", ...)`.
pub(crate) fn tags(meta: &ParseNestedMeta<'_>, span: Span) -> syn::Result<TagsAttr> {
    let content;
    syn::parenthesized!(content in meta.input);
    let mut tags = Vec::new();
    while !content.is_empty() {
        tags.push(tag(&content)?);
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
    }
    Ok(TagsAttr { tags, span })
}

fn tag(input: ParseStream<'_>) -> syn::Result<TagAttr> {
    let key = if input.peek(LitStr) {
        let lit: LitStr = input.parse()?;
        Spanned {
            value: lit.value(),
            span: lit.span(),
        }
    } else if input.peek(Ident::peek_any) {
        let ident = Ident::parse_any(input)?;
        Spanned {
            value: ident.unraw().to_string(),
            span: ident.span(),
        }
    } else {
        return Err(input.error(
            "expected a tag key: an identifier or a string, as in `tags(team = \"payments\", \"cost-center\" = \"42\")`",
        ));
    };
    input.parse::<Token![=]>()?;
    let lit: LitStr = input.parse()?;
    Ok(TagAttr {
        key,
        value: Spanned {
            value: lit.value(),
            span: lit.span(),
        },
    })
}

/// Parses `stream = "view"`; an unknown view is recorded and gives `None`.
pub(crate) fn stream(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<Option<Spanned<StreamView>>> {
    let lit: LitStr = meta.value()?.parse()?;
    Ok(match StreamView::parse(&lit.value()) {
        Some(view) => Some(Spanned {
            value: view,
            span: lit.span(),
        }),
        None => {
            errors.at(
                lit.span(),
                format!(
                    "unknown stream view {:?}; expected {}",
                    lit.value(),
                    StreamView::NAMES
                ),
            );
            None
        }
    })
}

/// Parses `table_class = "class"`; an unknown class is recorded and gives `None`.
pub(crate) fn table_class(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<Option<Spanned<TableClassAttr>>> {
    let lit: LitStr = meta.value()?.parse()?;
    Ok(match TableClassAttr::parse(&lit.value()) {
        Some(class) => Some(Spanned {
            value: class,
            span: lit.span(),
        }),
        None => {
            errors.at(
                lit.span(),
                format!(
                    "unknown table class {:?}; expected {}",
                    lit.value(),
                    TableClassAttr::NAMES
                ),
            );
            None
        }
    })
}

/// `point_in_time_recovery`, with the recovery window when one is given (DynamoDB's default is 35
/// days).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct PointInTimeRecoveryAttr {
    pub recovery_period_days: Option<i32>,
}

/// Parses `point_in_time_recovery` or `point_in_time_recovery(recovery_period_days = N)`; a window
/// outside 1..=35 (UpdateContinuousBackups' range) is recorded.
pub(crate) fn point_in_time_recovery(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<Spanned<PointInTimeRecoveryAttr>> {
    let span = meta.path.span();
    let mut recovery_period_days = None;
    if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| {
            if !inner.path.is_ident("recovery_period_days") {
                return Err(inner.error(
                    "unknown point_in_time_recovery option; expected `recovery_period_days = N` (1 to 35)",
                ));
            }
            let lit: syn::LitInt = inner.value()?.parse()?;
            let days: i32 = lit.base10_parse()?;
            if !(1..=35).contains(&days) {
                errors.at(
                    lit.span(),
                    format!("recovery_period_days must be 1 to 35 (DynamoDB's range), not {days}"),
                );
            }
            recovery_period_days = Some(days);
            Ok(())
        })?;
    }
    Ok(Spanned {
        value: PointInTimeRecoveryAttr {
            recovery_period_days,
        },
        span,
    })
}
