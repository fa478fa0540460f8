//! Composites resolved against the fields: each part is a field index; unknown fields and fields used
//! twice in one composite are reported here, at the part's identifier. Also the secondary indexes of a
//! model with composites (`#[global_index]`, and `#[local_index]` on the struct), whose keys may be
//! composites or fields.

use std::collections::HashMap;

use proc_macro2::Span;
use syn::ext::IdentExt as _;
use syn::{Ident, LitStr};

use crate::attr::{ContainerAttrs, Errors, ProjectionKind, Spanned};
use crate::ir::{Field, KeyRole};

/// One composite attribute.
pub(crate) struct Composite {
    /// The attribute's name: `rename`, else the identifier under the struct's `rename_all`.
    pub name: String,
    /// Where the name comes from: the `rename` string or the identifier.
    pub name_span: Span,
    /// The identifier before `=`: the handle's name (`Reply::id()`), and how indexes and messages
    /// refer to the composite.
    pub ident: Ident,
    /// The literal prefix, `""` for none.
    pub prefix: String,
    /// The prefix literal's span, if there is one.
    pub prefix_span: Option<Span>,
    pub separator: String,
    /// The parts: indexes into the container's fields, in order.
    pub parts: Vec<usize>,
    /// The span of each part's identifier in the attribute.
    pub part_spans: Vec<Span>,
    pub role: Option<(KeyRole, Span)>,
    /// The span of the list, for errors about the whole composite.
    pub list_span: Span,
}

/// The default separator, as in flywheel and in most single-table designs (`USER#42`).
pub(super) const DEFAULT_SEPARATOR: &str = "#";

/// Resolves the `#[composite(...)]` attributes.
pub(super) fn resolve(
    attrs: &ContainerAttrs,
    fields: &[Field<'_>],
    errors: &mut Errors,
) -> Vec<Composite> {
    let by_name: HashMap<String, usize> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| (f.ident.unraw().to_string(), i))
        .collect();
    let rename_all = attrs.rename_all.as_ref().map(|r| r.value);
    let mut out = Vec::new();
    for attr in &attrs.composites {
        let name = attr.name.unraw().to_string();
        let mut parts = Vec::new();
        let mut part_spans = Vec::new();
        for ident in &attr.parts {
            let Some(&index) = by_name.get(&ident.unraw().to_string()) else {
                errors.at(
                    ident.span(),
                    format!("composite `{name}`: no field named `{ident}`"),
                );
                continue;
            };
            if parts.contains(&index) {
                errors.at(
                    ident.span(),
                    format!("field `{ident}` is already a part of composite `{name}`"),
                );
                continue;
            }
            parts.push(index);
            part_spans.push(ident.span());
        }
        let (attribute, name_span) = match &attr.rename {
            Some(rename) => (rename.value(), rename.span()),
            None => (
                rename_all.map_or_else(|| name.clone(), |rule| rule.apply(&name)),
                attr.name.span(),
            ),
        };
        out.push(Composite {
            name: attribute,
            name_span,
            ident: attr.name.clone(),
            prefix: attr.prefix.as_ref().map(|l| l.value()).unwrap_or_default(),
            prefix_span: attr.prefix.as_ref().map(LitStr::span),
            separator: attr
                .separator
                .as_ref()
                .map_or_else(|| DEFAULT_SEPARATOR.to_owned(), |l| l.value()),
            parts,
            part_spans,
            role: attr.role,
            list_span: attr.list_span,
        });
    }
    out
}

/// A key of a global index of a model with composites: a field or a composite.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyRef {
    /// A field, by position.
    Field(usize),
    /// A composite, by position in `Container::composites`.
    Composite(usize),
}

/// A secondary index of a model with composites.
pub(crate) struct CompositeIndex {
    /// A `#[local_index]`: partitioned by the table's hash key, created with the table.
    pub local: bool,
    pub name: String,
    pub name_span: Span,
    pub projection: Spanned<ProjectionKind>,
    /// The span of `includes`, if given.
    pub includes_span: Option<Span>,
    /// The included attributes (fields or composites), resolved, with the span of each name.
    pub includes: Vec<(KeyRef, Span)>,
    /// The partition key: for a local index, the table's.
    pub hash: KeyRef,
    pub range: Option<KeyRef>,
    /// The span of the `range = ...` name, if given.
    pub range_span: Option<Span>,
    pub throughput: Option<(i64, i64)>,
    /// The `#[global_index]` path.
    pub span: Span,
    /// The generated associated function, as for other indexes: `by_day`.
    pub handle: Ident,
}

impl CompositeIndex {
    /// The generated item struct of a KEYS_ONLY or INCLUDE index, named as for other models.
    pub(crate) fn item_ident(&self, model: &Ident) -> Ident {
        quote::format_ident!(
            "{}{}Item",
            model,
            crate::case::pascal(&self.handle.to_string())
        )
    }
}

/// Resolves the indexes of a model with composites, global ones first (the indexes of other models
/// are resolved by `ir::index`); a key naming neither a field nor a composite is reported at the
/// name. A local index takes the table's hash key (a composite or a `#[hash_key]` field).
pub(super) fn resolve_indexes(
    attrs: &ContainerAttrs,
    fields: &[Field<'_>],
    composites: &[Composite],
    errors: &mut Errors,
) -> Vec<CompositeIndex> {
    if composites.is_empty() {
        return Vec::new();
    }
    let find = |ident: &Ident, index: &str, errors: &mut Errors| {
        let name = ident.unraw().to_string();
        if let Some(i) = composites.iter().position(|c| c.ident.unraw() == name) {
            return Some(KeyRef::Composite(i));
        }
        if let Some(i) = fields.iter().position(|f| f.ident.unraw() == name) {
            return Some(KeyRef::Field(i));
        }
        errors.at(
            ident.span(),
            format!("index {index:?} names `{ident}`, which is neither a field nor a composite of this struct"),
        );
        None
    };
    let table_hash = composites
        .iter()
        .position(|c| matches!(c.role, Some((KeyRole::Hash, _))))
        .map(KeyRef::Composite)
        .or_else(|| {
            fields
                .iter()
                .position(|f| matches!(f.key, Some((KeyRole::Hash, _))))
                .map(KeyRef::Field)
        });
    let declared = attrs
        .global_indexes
        .iter()
        .map(|attr| (attr, false))
        .chain(attrs.struct_local_indexes.iter().map(|attr| (attr, true)));
    let mut out = Vec::new();
    for (attr, local) in declared {
        let name = &attr.name.value;
        let hash = if local {
            table_hash
        } else {
            attr.hash.as_ref().and_then(|h| find(h, name, errors))
        };
        let range = attr.range.as_ref().map(|r| find(r, name, errors));
        let includes = attr
            .includes
            .iter()
            .flat_map(|list| &list.value)
            .filter_map(|ident| find(ident, name, errors).map(|key| (key, ident.span())))
            .collect();
        let (Some(hash), None | Some(Some(_))) = (hash, range) else {
            continue;
        };
        // A local index without a sort key was reported by the parser; nothing sensible expands.
        if local && range.is_none() {
            continue;
        }
        out.push(CompositeIndex {
            local,
            name: name.clone(),
            name_span: attr.name.span,
            projection: Spanned {
                value: attr.projection.value,
                span: attr.projection.span,
            },
            includes_span: attr.includes.as_ref().map(|i| i.span),
            includes,
            hash,
            range: range.flatten(),
            range_span: attr.range.as_ref().map(Ident::span),
            throughput: attr.throughput.as_ref().map(|t| t.value),
            span: attr.span,
            handle: crate::ir::index::handle_ident(name, attr.name.span),
        });
    }
    out
}
