//! Secondary indexes in the IR: the parsed declarations with their field names resolved to fields.
//!
//! A name that matches no field is reported here, at the name, and the reference dropped, so that the
//! checks and the expansion only ever see fields that exist. A global index whose partition key does
//! not resolve is dropped entirely (nothing sensible can be generated for it).

use proc_macro2::Span;
use quote::format_ident;
use syn::Ident;

use crate::attr::{ContainerAttrs, Errors, IndexAttr, ProjectionKind, Spanned};
use crate::case;
use crate::ir::{Field, KeyRole};

/// One secondary index.
pub(crate) struct Index {
    /// Local (same partition key, created with the table) or global.
    pub local: bool,
    pub name: String,
    pub name_span: Span,
    pub projection: ProjectionKind,
    pub projection_span: Span,
    /// The partition key: a field position, with the span of the reference (for a local index, the
    /// table's hash key, if any).
    pub hash: Option<(usize, Span)>,
    /// The sort key: for a local index the annotated field, for a global one `range = ...`.
    pub range: Option<(usize, Span)>,
    /// Included non-key fields, resolved.
    pub includes: Vec<(usize, Span)>,
    /// The span of the `includes` keyword, if given.
    pub includes_span: Option<Span>,
    pub throughput: Option<Spanned<(i64, i64)>>,
    /// The `#[index]`/`#[global_index]` path, for errors about the whole declaration.
    pub span: Span,
    /// The generated associated function: `rt_index`.
    pub handle: Ident,
}

impl Index {
    /// The generated item struct for a KEYS_ONLY or INCLUDE index: `Tweet` + `rt_index` → `TweetRtIndexItem`.
    pub(crate) fn item_ident(&self, model: &Ident) -> Ident {
        format_ident!("{}{}Item", model, case::pascal(&self.handle.to_string()))
    }

    /// The key fields, partition key first.
    pub(crate) fn key_positions(&self) -> impl Iterator<Item = usize> + '_ {
        self.hash.iter().chain(&self.range).map(|(i, _)| *i)
    }
}

fn find(
    fields: &[Field<'_>],
    ident: &Ident,
    index: &str,
    errors: &mut Errors,
) -> Option<(usize, Span)> {
    let position = fields.iter().position(|f| f.ident == ident);
    if position.is_none() {
        errors.at(
            ident.span(),
            format!("index {index:?} names `{ident}`, which is not a field of this struct"),
        );
    }
    position.map(|p| (p, ident.span()))
}

pub(crate) fn handle_ident(name: &str, span: Span) -> Ident {
    let snake = case::index_handle_name(name);
    // An index name that is a keyword (`type`) becomes a raw identifier; anything else unparsable
    // cannot happen after `index_handle_name` for valid index names (validity is checked separately).
    syn::parse_str::<Ident>(&snake)
        .map(|mut ident| {
            ident.set_span(span);
            ident
        })
        .unwrap_or_else(|_| match snake.as_str() {
            // Keywords that cannot be raw identifiers.
            "self" | "super" | "crate" | "_" => Ident::new(&format!("{snake}_index"), span),
            _ => Ident::new_raw(&snake, span),
        })
}

fn build(
    attr: &IndexAttr,
    local: bool,
    range: Option<(usize, Span)>,
    hash: Option<(usize, Span)>,
    fields: &[Field<'_>],
    errors: &mut Errors,
) -> Index {
    let name = &attr.name.value;
    let includes = attr
        .includes
        .iter()
        .flat_map(|list| &list.value)
        .filter_map(|ident| find(fields, ident, name, errors))
        .collect();
    Index {
        local,
        name: name.clone(),
        name_span: attr.name.span,
        projection: attr.projection.value,
        projection_span: attr.projection.span,
        hash,
        range,
        includes,
        includes_span: attr.includes.as_ref().map(|i| i.span),
        throughput: attr.throughput.as_ref().map(|t| Spanned {
            value: t.value,
            span: t.span,
        }),
        span: attr.span,
        handle: handle_ident(name, attr.name.span),
    }
}

/// Resolves every index declaration against the fields.
pub(super) fn resolve(
    attrs: &ContainerAttrs,
    fields: &[Field<'_>],
    errors: &mut Errors,
) -> Vec<Index> {
    let table_hash = fields
        .iter()
        .position(|f| matches!(f.key, Some((KeyRole::Hash, _))))
        .map(|p| (p, fields[p].ident.span()));
    let mut out = Vec::new();
    for (position, field) in fields.iter().enumerate() {
        for attr in &field.attrs.local_indexes {
            let range = Some((position, attr.name.span));
            out.push(build(attr, true, range, table_hash, fields, errors));
        }
    }
    for attr in &attrs.global_indexes {
        // A model with composites may key its global indexes by them: `ir::composite` resolves those.
        if !attrs.composites.is_empty() {
            continue;
        }
        let name = &attr.name.value;
        let hash = attr
            .hash
            .as_ref()
            .and_then(|h| find(fields, h, name, errors));
        let range = attr
            .range
            .as_ref()
            .and_then(|r| find(fields, r, name, errors));
        let unresolved_range = attr.range.is_some() && range.is_none();
        if hash.is_none() || unresolved_range {
            continue;
        }
        out.push(build(attr, false, range, hash, fields, errors));
    }
    out
}
