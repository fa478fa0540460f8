//! Rust types for the shapes of the sample: scalars, sets, lists, maps as `#[derive(Document)]`
//! structs or dictionaries, and `AttributeValue` where the values disagree.

use super::names::{escape, pascal_case, snake_case, Names};
use super::shape::{Maps, Numbers, Shape};

/// The most keys a map may have and still be read as a struct rather than a dictionary.
const MAX_DOCUMENT_KEYS: usize = 64;

/// One field of a generated struct.
#[derive(Debug, Clone)]
pub(crate) struct FieldDef {
    /// The Rust name, escaped (`r#type`).
    pub(crate) ident: String,
    /// The DynamoDB attribute (or map key) it stores.
    pub(crate) attribute: String,
    pub(crate) ty: String,
    /// Attributes before the field (`#[hash_key]`), besides the rename the [`attribute`](Self::attribute) needs.
    pub(crate) attrs: Vec<String>,
    /// Comment lines: the evidence behind the type, where it is not plain.
    pub(crate) notes: Vec<String>,
}

impl FieldDef {
    /// Whether the field's name differs from its attribute's (a `rename` is needed).
    pub(crate) fn renamed(&self) -> bool {
        self.ident.strip_prefix("r#").unwrap_or(&self.ident) != self.attribute
    }
}

/// A `#[derive(Document)]` struct for maps whose keys are consistent.
#[derive(Debug, Clone)]
pub(crate) struct DocumentDef {
    pub(crate) name: String,
    /// Where its maps are, as a document path (`address.geo`, `lines[*]`, `counts.*`).
    pub(crate) path: String,
    pub(crate) fields: Vec<FieldDef>,
    pub(crate) maps: usize,
}

/// Turns shapes into Rust types, collecting the document structs they need.
#[derive(Debug)]
pub(crate) struct Typer<'a> {
    /// The file's type names.
    pub(crate) types: &'a mut Names,
    pub(crate) documents: Vec<DocumentDef>,
}

/// How a number is typed: the narrowest type holding every value; `key` types only (no `f64`).
pub(crate) fn number_type(numbers: Numbers, key: bool) -> &'static str {
    if numbers.i64 {
        "i64"
    } else if numbers.u64 {
        "u64"
    } else if numbers.f64 && !key {
        "f64"
    } else if numbers.decimal {
        "rust_decimal::Decimal"
    } else {
        "dynomodel::Number"
    }
}

/// A field name for `attribute`, unique among `fields`.
pub(crate) fn field_ident(fields: &mut Names, attribute: &str) -> String {
    escape(&fields.unique(&snake_case(attribute)))
}

impl Typer<'_> {
    /// The field for an attribute (or map key) seen in `present` of `of` items (or maps: `noun`),
    /// named uniquely in `fields`; `owner` prefixes the names of the documents it needs, `parent`
    /// is the path of the map holding it (empty for an item).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn field(
        &mut self,
        fields: &mut Names,
        owner: &str,
        parent: &str,
        attribute: &str,
        (present, shape): &(usize, Shape),
        (of, noun): (usize, &str),
    ) -> FieldDef {
        let ident = field_ident(fields, attribute);
        let mut notes = Vec::new();
        let hint = format!("{owner}{}", pascal_case(attribute));
        let path = if parent.is_empty() {
            attribute.to_owned()
        } else {
            format!("{parent}.{attribute}")
        };
        let ty = self.value(&hint, &path, shape, false, &mut notes);
        let ty = match shape {
            _ if *present >= of => ty,
            Shape::Ss | Shape::Ns(_) | Shape::Bs => {
                notes.push(format!(
                    "in {present} of {of} sampled {noun}; a missing set reads as empty (DynamoDB stores no empty set)"
                ));
                ty
            }
            _ => {
                notes.push(format!("in {present} of {of} sampled {noun}"));
                format!("Option<{ty}>")
            }
        };
        FieldDef {
            ident,
            attribute: attribute.to_owned(),
            ty,
            attrs: Vec::new(),
            notes,
        }
    }

    /// The type of values of `shape`; `nested` inside a list or map (where binary is `Binary`, not
    /// the literal `Vec<u8>` the derives store as B).
    fn value(
        &mut self,
        hint: &str,
        path: &str,
        shape: &Shape,
        nested: bool,
        notes: &mut Vec<String>,
    ) -> String {
        match shape {
            Shape::S => "String".to_owned(),
            Shape::N(numbers) => number_type(*numbers, false).to_owned(),
            Shape::B if nested => "dynomodel::Binary".to_owned(),
            Shape::B => "Vec<u8>".to_owned(),
            Shape::Bool => "bool".to_owned(),
            Shape::Null => {
                notes.push("only NULL sampled".to_owned());
                "dynomodel::AttributeValue".to_owned()
            }
            Shape::Ss => "BTreeSet<String>".to_owned(),
            Shape::Ns(numbers) => format!("BTreeSet<{}>", number_type(*numbers, true)),
            Shape::Bs => "BTreeSet<dynomodel::Binary>".to_owned(),
            Shape::L(None) => {
                notes.push("only empty lists sampled".to_owned());
                "Vec<dynomodel::AttributeValue>".to_owned()
            }
            Shape::L(Some(element)) => {
                let path = format!("{path}[*]");
                format!(
                    "Vec<{}>",
                    self.value(&format!("{hint}Item"), &path, element, true, notes)
                )
            }
            Shape::M(maps) if document_like(maps) => self.document(hint, path, maps),
            Shape::M(maps) => self.dictionary(hint, path, maps, notes),
            Shape::Mixed { types, .. } => {
                let types: Vec<&str> = types.iter().copied().collect();
                notes.push(format!("values of types {} sampled", types.join(", ")));
                "dynomodel::AttributeValue".to_owned()
            }
        }
    }

    /// A map whose keys vary, as `BTreeMap<String, T>` when the values agree, else a JSON value
    /// when they all have a JSON form, else a map of `AttributeValue`s.
    fn dictionary(
        &mut self,
        hint: &str,
        path: &str,
        maps: &Maps,
        notes: &mut Vec<String>,
    ) -> String {
        match maps.values() {
            None => {
                notes.push("only empty maps sampled".to_owned());
                "BTreeMap<String, dynomodel::AttributeValue>".to_owned()
            }
            Some(values @ (Shape::Mixed { .. } | Shape::Null)) => {
                let types: Vec<&str> = values.type_names().into_iter().collect();
                notes.push(format!(
                    "a map of {} keys holding {} values",
                    maps.keys.len(),
                    types.join(", ")
                ));
                if values.json() {
                    "serde_json::Value".to_owned()
                } else {
                    "BTreeMap<String, dynomodel::AttributeValue>".to_owned()
                }
            }
            Some(values) => {
                notes.push(format!(
                    "a map of {} different keys: a dictionary",
                    maps.keys.len()
                ));
                let path = format!("{path}.*");
                let value = self.value(&format!("{hint}Value"), &path, &values, true, notes);
                format!("BTreeMap<String, {value}>")
            }
        }
    }

    /// A document struct for `maps`, named after `hint`.
    fn document(&mut self, hint: &str, path: &str, maps: &Maps) -> String {
        let name = self.types.unique_type(hint);
        let mut fields = Names::default();
        let fields = maps
            .keys
            .iter()
            .map(|(key, seen)| {
                self.field(&mut fields, &name, path, key, seen, (maps.count, "maps"))
            })
            .collect();
        self.documents.push(DocumentDef {
            name: name.clone(),
            path: path.to_owned(),
            fields,
            maps: maps.count,
        });
        name
    }
}

/// Maps read as a struct: some keys, each in more than half of the maps, not too many of them.
fn document_like(maps: &Maps) -> bool {
    !maps.keys.is_empty()
        && maps.keys.len() <= MAX_DOCUMENT_KEYS
        && maps.keys.values().all(|(count, _)| count * 2 > maps.count)
}
