//! `compress` on a field (`compress` or `compress(min_size = "1KB")`: stored as gzip-compressed B,
//! see `dynomodel::convert::compress`) and `max_item_size = "8KB"` on the struct (a size budget
//! checked on write), with the byte sizes both take: an integer or a string with a unit (`B`, `KB`,
//! `MB`, 1 KB being 1024 bytes as in DynamoDB's limits).

use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Lit, LitInt, LitStr};

use crate::attr::{option_name, set_once, skip_value, Errors, Spanned};

/// Parses `compress` or `compress(min_size = ...)` into the threshold (0: always compressed).
pub(crate) fn compress(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<Spanned<usize>> {
    let span = meta.path.span();
    let mut min_size: Option<usize> = None;
    if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| {
            if inner.path.is_ident("min_size") {
                if let Some(bytes) = byte_size(&inner, errors)? {
                    set_once(
                        &mut min_size,
                        bytes.value,
                        inner.path.span(),
                        "min_size",
                        errors,
                    );
                }
            } else {
                errors.at(
                    inner.path.span(),
                    format!(
                        "unknown compress option `{}`; expected `min_size`",
                        option_name(&inner)
                    ),
                );
                skip_value(&inner)?;
            }
            Ok(())
        })?;
    }
    Ok(Spanned {
        value: min_size.unwrap_or(0),
        span,
    })
}

/// Parses `= 1024` or `= "8KB"` (units `B`, `KB`, `MB`; 1 KB = 1024 bytes); a bad size is recorded
/// and gives `None`.
pub(crate) fn byte_size(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<Option<Spanned<usize>>> {
    let lit: Lit = meta.value()?.parse()?;
    let span = lit.span();
    let parsed = match &lit {
        Lit::Int(int) => int_size(int),
        Lit::Str(text) => text_size(text),
        _ => None,
    };
    if parsed.is_none() {
        errors.at(
            span,
            "expected a size in bytes: an integer or a string with a unit, e.g. 1024 or \"8KB\" (units B, KB, MB)",
        );
    }
    Ok(parsed.map(|value| Spanned { value, span }))
}

fn int_size(int: &LitInt) -> Option<usize> {
    int.base10_parse().ok()
}

fn text_size(text: &LitStr) -> Option<usize> {
    let text = text.value();
    let text = text.trim();
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, unit) = text.split_at(split);
    let number: usize = digits.parse().ok()?;
    let scale = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "KB" | "K" | "KIB" => 1024,
        "MB" | "M" | "MIB" => 1024 * 1024,
        _ => return None,
    };
    number.checked_mul(scale)
}
