//! `#[composite(pk = ("USER", userid), hash_key)]` on the struct: a string attribute built from fields.
//!
//! Why a tuple of tokens rather than a template string like `"USER#{userid}"`: on stable Rust a
//! proc macro cannot point a span *inside* a string literal (`Span::subspan` is unstable), so an
//! unknown field in a template could only underline the whole string. Here every part is its own
//! token: `unknown field`, `is an Option` and `appears twice` point at exactly that identifier, and
//! rust-analyzer renames and "go to definition" work on the field names. The separator is an option
//! (`separator = "|"`, default `#`) instead of being repeated between the parts. The identifier is the
//! handle's name; `rename = "Id"` stores the attribute under another name (as a field's `rename`).

use proc_macro2::Span;
use syn::ext::IdentExt as _;
use syn::parse::ParseStream;
use syn::spanned::Spanned as _;
use syn::{Attribute, Ident, LitStr, Token};

use crate::attr::{option_name, set_once, skip_value, Errors};
use crate::ir::KeyRole;

/// One `#[composite(...)]`.
pub(crate) struct CompositeAttr {
    /// The identifier before `=`: the handle's name, and the attribute's unless renamed.
    pub name: Ident,
    /// `rename = "..."`: the attribute's name.
    pub rename: Option<LitStr>,
    /// The literal first element, if any.
    pub prefix: Option<LitStr>,
    /// The fields, in order.
    pub parts: Vec<Ident>,
    /// `separator = "..."`.
    pub separator: Option<LitStr>,
    /// `hash_key` or `range_key`.
    pub role: Option<(KeyRole, Span)>,
    /// The whole `(...)` value, for errors about the list as a whole.
    pub list_span: Span,
}

/// One element of the list: a literal or a field.
enum Element {
    Literal(LitStr),
    Field(Ident),
}

/// Parses `#[composite(name = ("PREFIX", field, ...), hash_key | range_key, separator = "#",
/// rename = "Name")]`.
pub(crate) fn parse(attr: &Attribute, errors: &mut Errors) -> Option<CompositeAttr> {
    let mut definition: Option<(Ident, Vec<Element>, Span)> = None;
    let mut separator = None;
    let mut rename = None;
    let mut role: Option<(KeyRole, Span)> = None;
    let parsed = attr.parse_nested_meta(|meta| {
        let span = meta.path.span();
        if meta.path.is_ident("hash_key") || meta.path.is_ident("range_key") {
            let value = if meta.path.is_ident("hash_key") { KeyRole::Hash } else { KeyRole::Range };
            if role.is_some() {
                errors.at(span, "a composite is the hash key or the range key, once");
            } else {
                role = Some((value, span));
            }
        } else if meta.path.is_ident("separator") {
            let lit: LitStr = meta.value()?.parse()?;
            set_once(&mut separator, lit, span, "separator", errors);
        } else if meta.path.is_ident("rename") {
            let lit: LitStr = meta.value()?.parse()?;
            set_once(&mut rename, lit, span, "rename", errors);
        } else if let Some(name) = meta.path.get_ident().filter(|_| meta.input.peek(Token![=])) {
            let name = name.clone();
            let stream = meta.value()?;
            let (elements, list_span) = elements(stream)?;
            if definition.is_some() {
                errors.at(span, "one composite per `#[composite(...)]`; add another attribute for the next one");
            } else {
                definition = Some((name, elements, list_span));
            }
        } else {
            errors.at(
                span,
                format!(
                    "unknown composite option `{}`; expected `name = (\"PREFIX\", field, ...)`, `hash_key`, \
                     `range_key`, `separator = \"#\"` or `rename = \"Name\"`",
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
    let Some((name, elements, list_span)) = definition else {
        errors.at(
            attr.path().span(),
            "a composite needs its attribute and parts: `#[composite(sk = (\"ORDER\", date, id))]`",
        );
        return None;
    };
    let mut prefix = None;
    let mut parts = Vec::new();
    for (i, element) in elements.into_iter().enumerate() {
        match element {
            Element::Literal(lit) if i == 0 => {
                if lit.value().is_empty() {
                    errors.at(lit.span(), "an empty prefix adds nothing; leave it out");
                }
                prefix = Some(lit);
            }
            Element::Literal(lit) => errors.at(
                lit.span(),
                "only the first element may be a literal (the prefix); the others are fields",
            ),
            Element::Field(ident) => parts.push(ident),
        }
    }
    if parts.is_empty() {
        errors.at(
            list_span,
            format!("composite `{name}` has no fields: list at least one field after the prefix"),
        );
    }
    if let Some(sep) = &separator
        && sep.value().is_empty()
    {
        errors.at(
            sep.span(),
            "the separator cannot be empty: parts could not be told apart",
        );
    }
    Some(CompositeAttr {
        name,
        rename,
        prefix,
        parts,
        separator,
        role,
        list_span,
    })
}

/// `("PREFIX", a, b)` or a single field `a`.
fn elements(input: ParseStream<'_>) -> syn::Result<(Vec<Element>, Span)> {
    if !input.peek(syn::token::Paren) {
        let span = input.span();
        return Ok((vec![element(input)?], span));
    }
    let content;
    let paren = syn::parenthesized!(content in input);
    let mut out = Vec::new();
    while !content.is_empty() {
        out.push(element(&content)?);
        if content.is_empty() {
            break;
        }
        content.parse::<Token![,]>()?;
    }
    Ok((out, paren.span.join()))
}

fn element(input: ParseStream<'_>) -> syn::Result<Element> {
    if input.peek(LitStr) {
        Ok(Element::Literal(input.parse()?))
    } else if input.peek(Ident::peek_any) {
        Ok(Element::Field(input.call(Ident::parse_any)?))
    } else {
        Err(input.error("expected a string literal (the prefix) or a field name"))
    }
}
