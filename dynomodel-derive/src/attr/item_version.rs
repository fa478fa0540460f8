//! Item versions on the struct:
//!
//! ```text
//! #[dynomodel(item_version = 3)]                  the version every write stores
//! #[dynomodel(item_version_attribute = "_v")]     the attribute it is stored in
//! #[upcast(from = 1, item = upgrade_v1)]          fn(Item) -> Result<Item, ConversionError>: a v1 item to a v2 item
//! #[upcast(from = 2, model = UserV2)]             a v2 item read as `UserV2`, then `From` into the next version
//! ```
//!
//! The paths are tokens (a string holding one is accepted too, as serde's `with = "..."`), so that
//! a misspelt function or type is reported at its name. The rules between the declarations (no
//! version 0, one upcast per version, a chain without gaps) are `check::item_version`'s.

use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Attribute, LitInt, LitStr, Path};

use crate::attr::{option_name, set_once, skip_value, Errors, Spanned};

/// What an upcast step reads an older item through.
pub(crate) enum UpcastStep {
    /// `item = path`: a function from the older version's raw item to the next version's.
    Item(Path),
    /// `model = Type`: the older version's struct, decoded from the item, then converted with
    /// `From` into the next version's struct (the next step's, or the model itself).
    Model(Path),
}

/// One `#[upcast(from = N, item = path | model = Type)]`.
pub(crate) struct UpcastAttr {
    /// The version it reads (`from = N`).
    pub from: Spanned<u32>,
    /// How.
    pub step: UpcastStep,
    /// The whole attribute, for errors about it as a whole.
    pub span: Span,
}

/// Parses `item_version = N` (any `u32`; 0 is refused by the checks, at the literal).
pub(crate) fn version(meta: &ParseNestedMeta<'_>) -> syn::Result<Spanned<u32>> {
    let lit: LitInt = meta.value()?.parse()?;
    Ok(Spanned {
        value: lit.base10_parse()?,
        span: lit.span(),
    })
}

/// A path given as tokens or inside a string.
fn path(meta: &ParseNestedMeta<'_>) -> syn::Result<Path> {
    let value = meta.value()?;
    if value.peek(LitStr) {
        let lit: LitStr = value.parse()?;
        let mut path: Path = lit.parse()?;
        // Reported at the string, where the user wrote it.
        for segment in &mut path.segments {
            segment.ident.set_span(lit.span());
        }
        Ok(path)
    } else {
        value.parse()
    }
}

/// Parses one `#[upcast(...)]`; `None` (with errors recorded) when it is incomplete.
pub(crate) fn upcast(attr: &Attribute, errors: &mut Errors) -> Option<UpcastAttr> {
    let span = attr.span();
    let mut from: Option<Spanned<u32>> = None;
    let mut step: Option<UpcastStep> = None;
    let parsed = attr.parse_nested_meta(|meta| {
        let meta_span = meta.path.span();
        if meta.path.is_ident("from") {
            let value = version(&meta)?;
            set_once(&mut from, value, meta_span, "from", errors);
        } else if meta.path.is_ident("item") || meta.path.is_ident("model") {
            let value = match meta.path.is_ident("item") {
                true => UpcastStep::Item(path(&meta)?),
                false => UpcastStep::Model(path(&meta)?),
            };
            if step.is_some() {
                errors.at(meta_span, "an upcast reads the older item one way: `item = fn` or `model = Type`, not both");
            } else {
                step = Some(value);
            }
        } else {
            errors.at(
                meta_span,
                format!(
                    "unknown upcast option `{}`; expected `from`, `item` or `model`",
                    option_name(&meta)
                ),
            );
            skip_value(&meta)?;
        }
        Ok(())
    });
    if let Err(e) = parsed {
        errors.push(e);
        return None;
    }
    match (from, step) {
        (Some(from), Some(step)) => Some(UpcastAttr { from, step, span }),
        (None, _) => {
            errors.at(
                span,
                "an upcast names the version it reads: `#[upcast(from = 1, item = upgrade_v1)]`",
            );
            None
        }
        (_, None) => {
            errors.at(
                span,
                "an upcast says how to read the older item: `item = fn` (its raw item to the next \
                 version's) or `model = Type` (its struct, converted with `From`)",
            );
            None
        }
    }
}
