//! Composites resolved against the fields: each part is a field index; unknown fields and fields used
//! twice are reported here, at the part's identifier.

use std::collections::HashMap;

use proc_macro2::Span;
use syn::ext::IdentExt as _;
use syn::Ident;

use crate::attr::{ContainerAttrs, Errors};
use crate::ir::{Field, KeyRole};

/// One composite attribute.
pub struct Composite {
    /// The attribute's name (also the handle's name).
    pub name: String,
    pub ident: Ident,
    /// The literal prefix, `""` for none.
    pub prefix: String,
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
pub const DEFAULT_SEPARATOR: &str = "#";

/// Resolves the `#[composite(...)]` attributes.
pub fn resolve(
    attrs: &ContainerAttrs,
    fields: &[Field<'_>],
    errors: &mut Errors,
) -> Vec<Composite> {
    let by_name: HashMap<String, usize> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| (f.ident.unraw().to_string(), i))
        .collect();
    // A field is a part of one composite: two would store two copies that could disagree.
    let mut used: HashMap<usize, String> = HashMap::new();
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
            if let Some(other) = used.insert(index, name.clone()) {
                errors.at(
                    ident.span(),
                    format!("field `{ident}` is already a part of composite `{other}`; a field is a part of one composite"),
                );
                continue;
            }
            parts.push(index);
            part_spans.push(ident.span());
        }
        out.push(Composite {
            name,
            ident: attr.name.clone(),
            prefix: attr.prefix.as_ref().map(|l| l.value()).unwrap_or_default(),
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
