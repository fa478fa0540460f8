//! The intermediate representation: the struct and its fields with their options resolved (attribute
//! names computed, adapters chosen). Built from the syntax tree plus the parsed attributes; the checks
//! and the code generation work on it only.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{DeriveInput, ExprPath, Ident, Type, Visibility};

use crate::attr::datetime::Width;
use crate::attr::{self, ContainerAttrs, Errors};

mod composite;
pub(crate) mod enums;
mod index;
mod role;

pub(crate) use composite::{Composite, CompositeIndex, KeyRef};
pub(crate) use index::Index;
pub(crate) use role::HandleRole;

/// Which derive is running.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Derive {
    /// `#[derive(Model)]`: a table.
    Model,
    /// `#[derive(Document)]`: a map nested in an item.
    Document,
}

impl Derive {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Derive::Model => "#[derive(Model)]",
            Derive::Document => "#[derive(Document)]",
        }
    }
}

/// The struct.
pub(crate) struct Container<'a> {
    pub derive: Derive,
    pub ident: &'a Ident,
    pub vis: &'a Visibility,
    /// The table name: `table = "..."` or the struct's name.
    pub table_name: String,
    pub table_span: Span,
    pub attrs: ContainerAttrs,
    pub fields: Vec<Field<'a>>,
    /// Secondary indexes: the local ones (in field order), then the global ones.
    pub indexes: Vec<Index>,
    /// `#[composite(...)]` attributes, in declaration order.
    pub composites: Vec<Composite>,
    /// The indexes of a model with composites, global then local (`#[local_index]`); then `indexes`
    /// holds only fields' `#[index]`es, which `check::composite` refuses.
    pub composite_indexes: Vec<CompositeIndex>,
}

/// Whether a field is part of the primary key.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyRole {
    Hash,
    Range,
}

/// How a field's value is converted.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Conversion {
    /// Through the type's own `Attribute` impl.
    Attribute,
    /// Through `dynomodel::convert::epoch_seconds` (`#[dynomodel(epoch_seconds)]`).
    EpochSeconds,
    /// Through `dynomodel::convert::binary`: the field's type is literally `Vec<u8>` or `Option<Vec<u8>>`.
    Binary,
    /// Through `dynomodel::convert::ttl` (`#[ttl]`): whole epoch seconds.
    Ttl,
    /// Through `dynomodel::convert::serde` (`#[dynomodel(serde)]`): any serde type as a value.
    Serde,
    /// Through `dynomodel::convert::json` (`#[dynomodel(json)]`): any serde type as a JSON string.
    Json,
    /// Through `dynomodel::convert::datetime` (`datetime = "millis"` on the field, or on the struct
    /// for a field spelled `DateTime<Utc>`): RFC 3339 text of that width.
    DateTime(Width),
    /// Through `dynomodel::convert::compress` (`#[dynomodel(compress)]`): gzip-compressed B, of the
    /// value's bytes or (`json`) of its JSON text; values under `min_size` bytes stored as they are.
    Compressed { json: bool, min_size: usize },
}

/// What an absent attribute (or a skipped field) reads as.
pub(crate) enum FieldDefault {
    /// The type's `from_missing` (an error unless it has a natural "nothing").
    None,
    /// `Default::default()`.
    Trait,
    /// A user function.
    Path(ExprPath),
}

/// One field.
pub(crate) struct Field<'a> {
    pub ident: &'a Ident,
    pub ty: &'a Type,
    /// The DynamoDB attribute name.
    pub name: String,
    /// Where the name comes from: the `rename` string or the field's identifier.
    pub name_span: Span,
    pub key: Option<(KeyRole, Span)>,
    pub skip: Option<Span>,
    pub default: FieldDefault,
    pub conversion: Conversion,
    /// The raw options, for the checks.
    pub attrs: attr::FieldAttrs,
}

impl Field<'_> {
    /// Whether the field is stored (not `skip`).
    pub(crate) fn stored(&self) -> bool {
        self.skip.is_none()
    }
}

impl<'a> Container<'a> {
    /// Builds the IR of a struct with named fields; `None` (with errors recorded) for any other shape.
    pub(crate) fn from_ast(
        input: &'a DeriveInput,
        derive: Derive,
        errors: &mut Errors,
    ) -> Option<Container<'a>> {
        let attrs = attr::container(&input.attrs, errors);
        let named = match &input.data {
            syn::Data::Struct(data) => match &data.fields {
                syn::Fields::Named(named) => Some(named),
                syn::Fields::Unnamed(_) => {
                    errors.at(
                        input.ident.span(),
                        format!("{} needs a struct with named fields; tuple structs have no attribute names", derive.name()),
                    );
                    None
                }
                syn::Fields::Unit => {
                    errors.at(
                        input.ident.span(),
                        format!("{} needs a struct with named fields; a unit struct has nothing to store", derive.name()),
                    );
                    None
                }
            },
            syn::Data::Enum(data) => {
                errors.at(
                    data.enum_token.span(),
                    format!(
                        "{} supports only structs with named fields, not enums; \
                         `#[derive(Attribute)]` stores an enum as one attribute",
                        derive.name()
                    ),
                );
                None
            }
            syn::Data::Union(data) => {
                errors.at(
                    data.union_token.span(),
                    format!(
                        "{} supports only structs with named fields, not unions",
                        derive.name()
                    ),
                );
                None
            }
        };
        if !input.generics.params.is_empty() {
            errors.at(
                input.generics.span(),
                format!(
                    "{} does not support generic structs: a table's schema and key types must be fixed",
                    derive.name()
                ),
            );
        }
        let named = named?;
        let rename_all = attrs.rename_all.as_ref().map(|r| r.value);
        let datetime = attrs.datetime.as_ref().map(|w| w.value);
        let fields = named
            .named
            .iter()
            .filter_map(|field| {
                let ident = field.ident.as_ref()?;
                let field_attrs = attr::field(&field.attrs, errors);
                let (name, name_span) = match &field_attrs.rename {
                    Some(rename) => (rename.value.clone(), rename.span),
                    None => {
                        let rust_name = ident.unraw().to_string();
                        let name = rename_all
                            .map_or_else(|| rust_name.clone(), |rule| rule.apply(&rust_name));
                        (name, ident.span())
                    }
                };
                let key = match (field_attrs.hash_key, field_attrs.range_key) {
                    (Some(span), _) => Some((KeyRole::Hash, span)),
                    (None, Some(span)) => Some((KeyRole::Range, span)),
                    (None, None) => None,
                };
                let default = match &field_attrs.default {
                    None => FieldDefault::None,
                    Some(attr::Spanned { value: None, .. }) => FieldDefault::Trait,
                    Some(attr::Spanned {
                        value: Some(path), ..
                    }) => FieldDefault::Path(path.clone()),
                };
                let conversion = conversion(&field_attrs, &field.ty, datetime);
                Some(Field {
                    ident,
                    ty: &field.ty,
                    name,
                    name_span,
                    key,
                    skip: field_attrs.skip,
                    default,
                    conversion,
                    attrs: field_attrs,
                })
            })
            .collect::<Vec<_>>();
        let (table_name, table_span) = match &attrs.table {
            Some(table) => (table.value.clone(), table.span),
            None => (input.ident.unraw().to_string(), input.ident.span()),
        };
        let indexes = index::resolve(&attrs, &fields, errors);
        let composites = composite::resolve(&attrs, &fields, errors);
        let composite_indexes = composite::resolve_indexes(&attrs, &fields, &composites, errors);
        Some(Container {
            derive,
            ident: &input.ident,
            vis: &input.vis,
            table_name,
            table_span,
            attrs,
            fields,
            indexes,
            composites,
            composite_indexes,
        })
    }

    /// The composite that is the key of `role`, if any.
    pub(crate) fn composite_key(&self, role: KeyRole) -> Option<&Composite> {
        self.composites
            .iter()
            .find(|c| matches!(c.role, Some((r, _)) if r == role))
    }

    /// The composite a part is read from: the first key composite holding it, else the first one.
    pub(crate) fn part_source(&self, index: usize) -> Option<(usize, usize)> {
        let holding = |key: bool| {
            self.composites.iter().enumerate().find_map(|(n, c)| {
                let k = c.parts.iter().position(|&p| p == index)?;
                (c.role.is_some() == key).then_some((n, k))
            })
        };
        holding(true).or_else(|| holding(false))
    }

    /// Whether the field is a part of a composite, and so not stored on its own.
    pub(crate) fn is_part_field(&self, field: &Field<'_>) -> bool {
        self.fields
            .iter()
            .position(|f| f.ident == field.ident)
            .is_some_and(|i| self.is_part(i))
    }

    /// Whether the field (by index) is a part of a composite, and so not stored on its own.
    pub(crate) fn is_part(&self, index: usize) -> bool {
        self.composites.iter().any(|c| c.parts.contains(&index))
    }

    /// The hash key field, if any (the first one; duplicates are reported by the checks).
    pub(crate) fn hash_key(&self) -> Option<&Field<'a>> {
        self.fields
            .iter()
            .find(|f| matches!(f.key, Some((KeyRole::Hash, _))))
    }

    /// The range key field, if any.
    pub(crate) fn range_key(&self) -> Option<&Field<'a>> {
        self.fields
            .iter()
            .find(|f| matches!(f.key, Some((KeyRole::Range, _))))
    }

    /// The `#[version]` field, if any (the first one; duplicates are reported by the checks).
    pub(crate) fn version(&self) -> Option<&Field<'a>> {
        self.fields.iter().find(|f| f.attrs.version.is_some())
    }

    /// The `#[ttl]` field, if any (the first one; duplicates are reported by the checks).
    pub(crate) fn ttl(&self) -> Option<&Field<'a>> {
        self.fields.iter().find(|f| f.attrs.ttl.is_some())
    }

    /// The `#[created_at]` field, if any (the first one; duplicates are reported by the checks).
    pub(crate) fn created_at(&self) -> Option<&Field<'a>> {
        self.fields.iter().find(|f| f.attrs.created_at.is_some())
    }

    /// The `#[updated_at]` field, if any (the first one; duplicates are reported by the checks).
    pub(crate) fn updated_at(&self) -> Option<&Field<'a>> {
        self.fields.iter().find(|f| f.attrs.updated_at.is_some())
    }

    /// The `#[dynomodel(counter)]` fields.
    pub(crate) fn counters(&self) -> impl Iterator<Item = &Field<'a>> {
        self.fields.iter().filter(|f| f.attrs.counter.is_some())
    }
}

/// How a field is converted: `#[ttl]`, then the field options, then the type's spelling (a
/// `Vec<u8>`, and a `DateTime<Utc>` under the struct's `datetime` width). Conflicting options (`ttl`
/// with `epoch_seconds`, `serde` with `json`, ...) are reported by the checks. The width `nanos` is
/// how a `DateTime<Utc>` is stored anyway: only a field's own option makes it an adapter (which
/// checks the field's type).
pub(crate) fn conversion(
    attrs: &attr::FieldAttrs,
    ty: &Type,
    datetime: Option<Width>,
) -> Conversion {
    if let Some(min_size) = &attrs.compress {
        Conversion::Compressed {
            json: attrs.json.is_some(),
            min_size: min_size.value,
        }
    } else if let Some(width) = &attrs.datetime {
        Conversion::DateTime(width.value)
    } else if attrs.ttl.is_some() {
        Conversion::Ttl
    } else if attrs.epoch_seconds.is_some() {
        Conversion::EpochSeconds
    } else if attrs.serde.is_some() {
        Conversion::Serde
    } else if attrs.json.is_some() {
        Conversion::Json
    } else if is_bytes(ty) {
        Conversion::Binary
    } else {
        match datetime {
            Some(width) if width != Width::Nanos && is_date_time(ty) => Conversion::DateTime(width),
            _ => Conversion::Attribute,
        }
    }
}

/// Whether the type is literally `DateTime<Utc>` or `Option<DateTime<Utc>>` (any path prefixes):
/// the fields a struct's `datetime` width applies to.
pub(crate) fn is_date_time(ty: &Type) -> bool {
    fn utc(ty: &Type) -> bool {
        match last_segment(ty) {
            Some((ident, args)) if ident == "DateTime" && args.len() == 1 => {
                matches!(last_segment(args[0]), Some((inner, inner_args)) if inner == "Utc" && inner_args.is_empty())
            }
            _ => false,
        }
    }
    utc(option_inner(ty).unwrap_or(ty))
}

/// The last path segment's identifier and its generic type arguments, e.g. `Option` and `[Vec<u8>]`.
fn last_segment(ty: &Type) -> Option<(&Ident, Vec<&Type>)> {
    let Type::Path(path) = ty else { return None };
    if path.qself.is_some() {
        return None;
    }
    let segment = path.path.segments.last()?;
    let args = match &segment.arguments {
        syn::PathArguments::None => Vec::new(),
        syn::PathArguments::AngleBracketed(args) => args
            .args
            .iter()
            .filter_map(|arg| match arg {
                syn::GenericArgument::Type(ty) => Some(ty),
                _ => None,
            })
            .collect(),
        syn::PathArguments::Parenthesized(_) => return None,
    };
    Some((&segment.ident, args))
}

/// Whether the type is literally `Vec<u8>` or `Option<Vec<u8>>` (any path prefix), which is stored as
/// binary (B) rather than as a list of numbers. The macro sees tokens only, so an alias is not detected.
pub(crate) fn is_bytes(ty: &Type) -> bool {
    fn is_vec_u8(ty: &Type) -> bool {
        match last_segment(ty) {
            Some((ident, args)) if ident == "Vec" && args.len() == 1 => {
                matches!(last_segment(args[0]), Some((inner, inner_args)) if inner == "u8" && inner_args.is_empty())
            }
            _ => false,
        }
    }
    match last_segment(ty) {
        Some((ident, args)) if ident == "Option" && args.len() == 1 => is_vec_u8(args[0]),
        _ => is_vec_u8(ty),
    }
}

/// Whether the type is literally `Option<...>` (any path prefix).
pub(crate) fn is_option(ty: &Type) -> bool {
    option_inner(ty).is_some()
}

/// The `T` of a type that is literally `Option<T>` (any path prefix).
pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    match last_segment(ty) {
        Some((ident, args)) if ident == "Option" && args.len() == 1 => Some(args[0]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn bytes_are_detected_by_spelling() {
        assert!(is_bytes(&parse_quote!(Vec<u8>)));
        assert!(is_bytes(&parse_quote!(std::vec::Vec<u8>)));
        assert!(is_bytes(&parse_quote!(Option<Vec<u8>>)));
        assert!(!is_bytes(&parse_quote!(Vec<u16>)));
        assert!(!is_bytes(&parse_quote!(Vec<Vec<u8>>)));
        assert!(!is_bytes(&parse_quote!(Option<Option<Vec<u8>>>)));
        assert!(!is_bytes(&parse_quote!(Bytes)));
    }

    #[test]
    fn date_times_are_detected_by_spelling() {
        assert!(is_date_time(&parse_quote!(DateTime<Utc>)));
        assert!(is_date_time(&parse_quote!(chrono::DateTime<chrono::Utc>)));
        assert!(is_date_time(&parse_quote!(Option<DateTime<Utc>>)));
        assert!(!is_date_time(&parse_quote!(DateTime<FixedOffset>)));
        assert!(!is_date_time(&parse_quote!(Vec<DateTime<Utc>>)));
        assert!(!is_date_time(&parse_quote!(NaiveDate)));
    }

    #[test]
    fn attribute_names_follow_rename_and_rename_all() {
        let input: DeriveInput = parse_quote! {
            #[dynomodel(rename_all = "camelCase")]
            struct Tweet {
                #[hash_key]
                user_id: String,
                #[dynomodel(rename = "t")]
                body_text: String,
                r#type: String,
            }
        };
        let mut errors = Errors::default();
        let container = Container::from_ast(&input, Derive::Model, &mut errors).expect("a struct");
        assert!(errors.finish().is_ok());
        let names: Vec<&str> = container.fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["userId", "t", "type"]);
        assert_eq!(container.table_name, "Tweet");
        assert!(container.hash_key().is_some() && container.range_key().is_none());
    }
}
