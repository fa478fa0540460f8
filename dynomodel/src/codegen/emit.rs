//! The Rust source of the generated models: a file header, the model structs with their document
//! structs, and a collection enum for a shared table.

use std::fmt::Write as _;

use super::model::{lit, ModelDef};
use super::types::{DocumentDef, FieldDef};

/// A generated `#[derive(Collection)]` enum over the models of a shared table.
#[derive(Debug)]
pub(crate) struct CollectionDef {
    pub(crate) name: String,
    pub(crate) members: Vec<String>,
}

/// Everything a generated file holds.
#[derive(Debug, Default)]
pub(crate) struct File {
    /// Lines of the file's `//!` header.
    pub(crate) header: Vec<String>,
    pub(crate) models: Vec<(ModelDef, Vec<DocumentDef>)>,
    pub(crate) collection: Option<CollectionDef>,
}

impl File {
    /// The file as Rust source, `rustfmt`-shaped.
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        for (i, paragraph) in self.header.iter().enumerate() {
            if i > 0 {
                out.push_str("//!\n");
            }
            push_comment(&mut out, "//!", "", paragraph);
        }
        let types = self.models.iter().flat_map(|(model, documents)| {
            model
                .fields
                .iter()
                .chain(documents.iter().flat_map(|d| d.fields.iter()))
        });
        let (mut maps, mut sets) = (false, false);
        for field in types {
            maps |= field.ty.contains("BTreeMap<");
            sets |= field.ty.contains("BTreeSet<");
        }
        out.push('\n');
        match (maps, sets) {
            (true, true) => out.push_str("use std::collections::{BTreeMap, BTreeSet};\n\n"),
            (true, false) => out.push_str("use std::collections::BTreeMap;\n\n"),
            (false, true) => out.push_str("use std::collections::BTreeSet;\n\n"),
            (false, false) => {}
        }
        let mut derives = Vec::new();
        if self.collection.is_some() {
            derives.push("Collection");
        }
        if self
            .models
            .iter()
            .any(|(_, documents)| !documents.is_empty())
        {
            derives.push("Document");
        }
        derives.push("Model");
        match &derives[..] {
            [one] => {
                let _ = writeln!(out, "use dynomodel::{one};");
            }
            many => {
                let _ = writeln!(out, "use dynomodel::{{{}}};", many.join(", "));
            }
        }
        for (model, documents) in &self.models {
            out.push('\n');
            model_source(&mut out, model);
            for document in documents.iter().rev() {
                out.push('\n');
                document_source(&mut out, document, model_table(model));
            }
        }
        if let Some(collection) = &self.collection {
            out.push('\n');
            let text = format!(
                "Every entity type of the table, for reads of a whole partition \
                 (`db.collection::<{}>(..)`).",
                collection.name
            );
            push_comment(&mut out, "///", "", &text);
            out.push_str("#[derive(Collection, Debug)]\n");
            let _ = writeln!(out, "pub enum {} {{", collection.name);
            for member in &collection.members {
                let _ = writeln!(out, "    {member}({member}),");
            }
            out.push_str("    /// An item of an entity type the sample did not show.\n");
            out.push_str("    #[dynomodel(unknown)]\n");
            out.push_str("    Unknown(dynomodel::Item),\n");
            out.push_str("}\n");
        }
        out
    }
}

/// `text` as comment lines starting with `marker` (`//`, `///`, `//!`), wrapped at 100 columns.
fn push_comment(out: &mut String, marker: &str, indent: &str, text: &str) {
    let width = 100usize
        .saturating_sub(indent.len() + marker.len() + 1)
        .max(40);
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            let _ = writeln!(out, "{indent}{marker} {line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if line.is_empty() {
        let _ = writeln!(out, "{indent}{marker}");
    } else {
        let _ = writeln!(out, "{indent}{marker} {line}");
    }
}

fn model_source(out: &mut String, model: &ModelDef) {
    push_comment(out, "///", "", &model.doc);
    for note in &model.notes {
        push_comment(out, "//", "", note);
    }
    out.push_str("#[derive(Model, Debug, Clone, PartialEq)]\n");
    let options = model.options.join(", ");
    if options.len() + 14 <= 100 {
        let _ = writeln!(out, "#[dynomodel({options})]");
    } else {
        out.push_str("#[dynomodel(\n");
        // rustfmt's shape: one option a line, no comma after the last.
        let _ = writeln!(out, "    {}", model.options.join(",\n    "));
        out.push_str(")]\n");
    }
    for attr in &model.attrs {
        let _ = writeln!(out, "{attr}");
    }
    let _ = writeln!(out, "pub struct {} {{", model.name);
    for field in &model.fields {
        field_source(out, field);
    }
    out.push_str("}\n");
}

/// The table option's value (the first option is always `table = "..."`).
fn model_table(model: &ModelDef) -> &str {
    model
        .options
        .first()
        .and_then(|o| o.strip_prefix("table = \""))
        .and_then(|o| o.strip_suffix('"'))
        .unwrap_or(&model.name)
}

fn document_source(out: &mut String, document: &DocumentDef, table: &str) {
    let text = format!(
        "The maps at `{}` in table `{table}` ({} sampled).",
        document.path, document.maps
    );
    push_comment(out, "///", "", &text);
    out.push_str("#[derive(Document, Debug, Clone, PartialEq)]\n");
    let _ = writeln!(out, "pub struct {} {{", document.name);
    for field in &document.fields {
        field_source(out, field);
    }
    out.push_str("}\n");
}

fn field_source(out: &mut String, field: &FieldDef) {
    for note in &field.notes {
        push_comment(out, "//", "    ", note);
    }
    for attr in &field.attrs {
        let _ = writeln!(out, "    {attr}");
    }
    if field.renamed() {
        let _ = writeln!(out, "    #[dynomodel(rename = {})]", lit(&field.attribute));
    }
    let _ = writeln!(out, "    pub {}: {},", field.ident, field.ty);
}
