//! Terraform `aws_dynamodb_table` resources in HCL, written by hand (argument names from the AWS
//! provider's `aws_dynamodb_table` reference), laid out as `terraform fmt` lays them out: two-space
//! indents, the `=` of consecutive arguments aligned, blocks separated by blank lines.

use std::fmt::Write as _;

use crate::backend::{BillingMode, KeySchemaElement, KeyType, Projection, ProjectionType};
use crate::migrate::definition::Definition;
use crate::migrate::export::names::Unique;

/// The resources, one per table, separated by blank lines, ending in a newline.
pub(super) fn resources(tables: &[Definition]) -> String {
    let mut names = Unique::default();
    let mut out = String::new();
    for (i, definition) in tables.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let name = names.claim(resource_name(definition.table_name()));
        resource(&mut out, &name, definition);
    }
    out
}

fn resource(out: &mut String, name: &str, definition: &Definition) {
    let schema = &definition.schema;
    let _ = writeln!(out, "resource \"aws_dynamodb_table\" {} {{", string(name));
    let billing = schema.billing_mode.unwrap_or(BillingMode::Provisioned);
    let mut top = Arguments::default();
    top.push("name", string(&schema.table_name));
    top.push("billing_mode", string(billing.as_str()));
    if let Some(t) = schema.provisioned_throughput {
        top.push("read_capacity", t.read_capacity_units.to_string());
        top.push("write_capacity", t.write_capacity_units.to_string());
    }
    if let Some(hash) = key(&schema.key_schema, KeyType::Hash) {
        top.push("hash_key", string(hash));
    }
    if let Some(range) = key(&schema.key_schema, KeyType::Range) {
        top.push("range_key", string(range));
    }
    if let Some(class) = schema.table_class {
        top.push("table_class", string(class.as_str()));
    }
    if let Some(enabled) = schema.deletion_protection_enabled {
        top.push("deletion_protection_enabled", enabled.to_string());
    }
    if let Some(view) = schema
        .stream_specification
        .filter(|s| s.stream_enabled)
        .and_then(|s| s.stream_view_type)
    {
        top.push("stream_enabled", "true".to_owned());
        top.push("stream_view_type", string(view.as_str()));
    }
    top.write(out, 1);

    for attribute in &schema.attribute_definitions {
        let mut block = Arguments::default();
        block.push("name", string(&attribute.attribute_name));
        block.push("type", string(attribute.attribute_type.as_str()));
        write_block(out, "attribute", &block);
    }
    for index in &schema.global_secondary_indexes {
        let mut block = Arguments::default();
        block.push("name", string(&index.index_name));
        index_keys(&mut block, &index.key_schema);
        projection(&mut block, &index.projection);
        if let Some(t) = index.provisioned_throughput {
            block.push("read_capacity", t.read_capacity_units.to_string());
            block.push("write_capacity", t.write_capacity_units.to_string());
        }
        write_block(out, "global_secondary_index", &block);
    }
    for index in &schema.local_secondary_indexes {
        let mut block = Arguments::default();
        block.push("name", string(&index.index_name));
        if let Some(range) = key(&index.key_schema, KeyType::Range) {
            block.push("range_key", string(range));
        }
        projection(&mut block, &index.projection);
        write_block(out, "local_secondary_index", &block);
    }
    if let Some(attribute) = &definition.ttl_attribute {
        let mut block = Arguments::default();
        block.push("attribute_name", string(attribute));
        block.push("enabled", "true".to_owned());
        write_block(out, "ttl", &block);
    }
    if let Some(recovery) = &definition.point_in_time_recovery {
        let mut block = Arguments::default();
        block.push("enabled", "true".to_owned());
        if let Some(days) = recovery.recovery_period_in_days {
            block.push("recovery_period_in_days", days.to_string());
        }
        write_block(out, "point_in_time_recovery", &block);
    }
    if !schema.tags.is_empty() {
        let mut tags = Arguments::default();
        for tag in &schema.tags {
            tags.push_quoted(string(&tag.key), string(&tag.value));
        }
        out.push_str("\n  tags = {\n");
        tags.write(out, 2);
        out.push_str("  }\n");
    }
    out.push_str("}\n");
}

fn key(keys: &[KeySchemaElement], key_type: KeyType) -> Option<&str> {
    keys.iter()
        .find(|k| k.key_type == key_type)
        .map(|k| k.attribute_name.as_str())
}

fn index_keys(block: &mut Arguments, keys: &[KeySchemaElement]) {
    if let Some(hash) = key(keys, KeyType::Hash) {
        block.push("hash_key", string(hash));
    }
    if let Some(range) = key(keys, KeyType::Range) {
        block.push("range_key", string(range));
    }
}

fn projection(block: &mut Arguments, projection: &Projection) {
    block.push(
        "projection_type",
        string(projection.projection_type.as_str()),
    );
    if projection.projection_type == ProjectionType::Include {
        let names: Vec<String> = projection
            .non_key_attributes
            .iter()
            .map(|n| string(n))
            .collect();
        block.push("non_key_attributes", format!("[{}]", names.join(", ")));
    }
}

fn write_block(out: &mut String, name: &str, block: &Arguments) {
    let _ = write!(out, "\n  {name} {{\n");
    block.write(out, 2);
    out.push_str("  }\n");
}

/// One group of `name = value` lines, aligned on `=` when written.
#[derive(Default)]
struct Arguments {
    lines: Vec<(String, String)>,
}

impl Arguments {
    fn push(&mut self, name: &str, value: String) {
        self.lines.push((name.to_owned(), value));
    }

    fn push_quoted(&mut self, name: String, value: String) {
        self.lines.push((name, value));
    }

    fn write(&self, out: &mut String, depth: usize) {
        let width = self
            .lines
            .iter()
            .map(|(name, _)| name.chars().count())
            .max()
            .unwrap_or(0);
        for (name, value) in &self.lines {
            let pad = width - name.chars().count();
            let _ = writeln!(
                out,
                "{:indent$}{name}{:pad$} = {value}",
                "",
                "",
                indent = depth * 2
            );
        }
    }
}

/// An HCL string literal: quotes, backslashes and control characters escaped, and the template
/// sequences `${` and `%{` doubled so that Terraform takes them literally.
pub(super) fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A resource name: letters, digits, `_` and `-`, starting with a letter or `_` (others become
/// `_`; a leading digit or `-` gets a `t_` prefix).
fn resource_name(table: &str) -> String {
    let name: String = table
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    match name.chars().next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => name,
        _ => format!("t_{name}"),
    }
}

#[cfg(test)]
mod tests {
    use super::{resource_name, string};

    #[test]
    fn strings_escape_quotes_backslashes_and_templates() {
        assert_eq!(string("plain"), "\"plain\"");
        assert_eq!(string("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(string("${var.x} %{if}"), "\"$${var.x} %%{if}\"");
        assert_eq!(string("$ % {"), "\"$ % {\"");
        assert_eq!(string("line\nnext\u{1}"), "\"line\\nnext\\u0001\"");
    }

    #[test]
    fn resource_names_are_identifiers() {
        assert_eq!(resource_name("user-events"), "user-events");
        assert_eq!(resource_name("app.v2"), "app_v2");
        assert_eq!(resource_name("2024_orders"), "t_2024_orders");
    }
}
