//! Parsing of the derive's attributes: `#[dynomodel(...)]` on the struct and on fields, `#[hash_key]`,
//! `#[range_key]`, `#[version]`, `#[ttl]`, `#[created_at]`, `#[updated_at]`, the table options of [`crate::attr::table`], and the secondary indexes: `#[index(...)]` on fields (local), `#[global_index(...)]`
//! on the struct (global) and `#[local_index(...)]` on the struct of a model with composites; their syntax is parsed in [`crate::attr::index`].
//!
//! Parsing never stops at the first problem: every error is recorded in [`Errors`] with the span of the
//! offending token and parsing goes on, so one compile shows every mistake (serde_derive's approach).

use proc_macro2::Span;
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{Attribute, ExprPath, LitInt, LitStr};

use crate::case::RenameRule;

pub(crate) mod composite;
pub(crate) mod compress;
pub(crate) mod datetime;
pub(crate) mod enums;
pub(crate) mod index;
pub(crate) mod item_version;
pub(crate) mod table;

pub(crate) use index::{IndexAttr, ProjectionKind};
pub(crate) use table::{StreamView, TableClassAttr, TagsAttr};

/// Every error found so far, combined into one `syn::Error` (which renders as several
/// `compile_error!`s, each with its own span).
#[derive(Default)]
pub(crate) struct Errors {
    combined: Option<syn::Error>,
}

impl Errors {
    /// Records an error.
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.combined {
            Some(combined) => combined.combine(error),
            None => self.combined = Some(error),
        }
    }

    /// Records an error spanned at `span`.
    pub(crate) fn at(&mut self, span: Span, message: impl std::fmt::Display) {
        self.push(syn::Error::new(span, message));
    }

    /// The errors, if any.
    pub(crate) fn finish(self) -> Result<(), syn::Error> {
        self.combined.map_or(Ok(()), Err)
    }
}

/// A value with the span of the token that set it, for error messages pointing at the right place.
pub(crate) struct Spanned<T> {
    pub value: T,
    pub span: Span,
}

/// The options on the struct.
#[derive(Default)]
pub(crate) struct ContainerAttrs {
    /// `table = "name"`.
    pub table: Option<Spanned<String>>,
    /// `throughput(read = N, write = N)`: (read, write).
    pub throughput: Option<Spanned<(i64, i64)>>,
    /// `on_demand`.
    pub on_demand: Option<Span>,
    /// `rename_all = "camelCase"`.
    pub rename_all: Option<Spanned<RenameRule>>,
    /// `#[global_index(...)]`, in declaration order.
    pub global_indexes: Vec<IndexAttr>,
    /// `#[local_index(...)]` on the struct (models with composites), in declaration order.
    pub struct_local_indexes: Vec<IndexAttr>,
    /// `tags(key = "value", ...)`.
    pub tags: Option<TagsAttr>,
    /// `stream = "new_and_old_images"`.
    pub stream: Option<Spanned<StreamView>>,
    /// `table_class = "standard_infrequent_access"`.
    pub table_class: Option<Spanned<TableClassAttr>>,
    /// `deletion_protection`.
    pub deletion_protection: Option<Span>,
    /// `point_in_time_recovery` or `point_in_time_recovery(recovery_period_days = N)`.
    pub point_in_time_recovery: Option<Spanned<table::PointInTimeRecoveryAttr>>,
    /// `#[composite(...)]`, in declaration order.
    pub composites: Vec<composite::CompositeAttr>,
    /// `entity = "Order"`: the single-table entity type.
    pub entity: Option<Spanned<String>>,
    /// `entity_attribute = "_et"`: the attribute holding it.
    pub entity_attribute: Option<Spanned<String>>,
    /// `datetime = "millis"`: the width of the `DateTime<Utc>` fields without one of their own.
    pub datetime: Option<Spanned<datetime::Width>>,
    /// `item_version = 3`: the item schema version written on every write.
    pub item_version: Option<Spanned<u32>>,
    /// `item_version_attribute = "_v"`: the attribute holding it.
    pub item_version_attribute: Option<Spanned<String>>,
    /// `#[upcast(...)]`, in declaration order.
    pub upcasts: Vec<item_version::UpcastAttr>,
    /// `max_item_size = "8KB"`: the item size budget checked on write, in bytes.
    pub max_item_size: Option<Spanned<usize>>,
}

/// The options on a field.
#[derive(Default)]
pub(crate) struct FieldAttrs {
    /// `#[hash_key]`.
    pub hash_key: Option<Span>,
    /// `#[range_key]`.
    pub range_key: Option<Span>,
    /// `rename = "name"`.
    pub rename: Option<Spanned<String>>,
    /// `skip`.
    pub skip: Option<Span>,
    /// `default` (`None` inside) or `default = "path"`.
    pub default: Option<Spanned<Option<ExprPath>>>,
    /// `epoch_seconds`.
    pub epoch_seconds: Option<Span>,
    /// `datetime = "millis"`: the width a `DateTime<Utc>` is stored at.
    pub datetime: Option<Spanned<datetime::Width>>,
    /// `#[index(...)]`: local secondary indexes sorted by this field, in declaration order.
    pub local_indexes: Vec<IndexAttr>,
    /// `#[version]`: the optimistic-locking version counter.
    pub version: Option<Span>,
    /// `#[ttl]`: the time-to-live attribute.
    pub ttl: Option<Span>,
    /// `counter`: changed by atomic updates only, exempt from the version bump.
    pub counter: Option<Span>,
    /// `#[created_at]`: stamped when the item is created.
    pub created_at: Option<Span>,
    /// `#[updated_at]`: stamped by every write.
    pub updated_at: Option<Span>,
    /// `serde`: stored through the type's `Serialize`/`Deserialize` as a DynamoDB value.
    pub serde: Option<Span>,
    /// `json`: stored through the type's `Serialize`/`Deserialize` as a JSON string (S).
    pub json: Option<Span>,
    /// `compress` / `compress(min_size = ...)`: stored gzip-compressed (B), with the threshold.
    pub compress: Option<Spanned<usize>>,
}

/// Sets an option once; a second occurrence is an error at the second one.
pub(crate) fn set_once<T>(
    slot: &mut Option<T>,
    value: T,
    meta_span: Span,
    name: &str,
    errors: &mut Errors,
) {
    if slot.is_some() {
        errors.at(meta_span, format!("duplicate dynomodel option `{name}`"));
    } else {
        *slot = Some(value);
    }
}

/// Consumes whatever follows an unknown option (`= value` or `(...)`) so parsing can go on.
pub(crate) fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<syn::Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|inner| skip_value(&inner))?;
    }
    Ok(())
}

pub(crate) fn option_name(meta: &ParseNestedMeta<'_>) -> String {
    meta.path.to_token_stream().to_string().replace(' ', "")
}

/// Parses the struct's attributes.
pub(crate) fn container(attrs: &[Attribute], errors: &mut Errors) -> ContainerAttrs {
    let mut out = ContainerAttrs::default();
    for attr in attrs {
        if attr.path().is_ident("global_index") {
            if let Some(index) = index::global(attr, errors) {
                out.global_indexes.push(index);
            }
            continue;
        }
        if attr.path().is_ident("local_index") {
            if let Some(index) = index::local_on_struct(attr, errors) {
                out.struct_local_indexes.push(index);
            }
            continue;
        }
        if attr.path().is_ident("composite") {
            out.composites.extend(composite::parse(attr, errors));
            continue;
        }
        if attr.path().is_ident("upcast") {
            out.upcasts.extend(item_version::upcast(attr, errors));
            continue;
        }
        if attr.path().is_ident("index") {
            errors.at(
                attr.path().span(),
                "`#[index(...)]` declares a local index and belongs on the field that is its range key; \
                 use `#[global_index(...)]` on the struct for a global index",
            );
            continue;
        }
        if !attr.path().is_ident("dynomodel") {
            continue;
        }
        let parsed = attr.parse_nested_meta(|meta| {
            let span = meta.path.span();
            if meta.path.is_ident("table") {
                let lit: LitStr = meta.value()?.parse()?;
                let value = Spanned { value: lit.value(), span: lit.span() };
                set_once(&mut out.table, value, span, "table", errors);
            } else if meta.path.is_ident("throughput") {
                let value = throughput(&meta, errors)?;
                set_once(&mut out.throughput, value, span, "throughput", errors);
            } else if meta.path.is_ident("on_demand") {
                set_once(&mut out.on_demand, span, span, "on_demand", errors);
            } else if meta.path.is_ident("rename_all") {
                let lit: LitStr = meta.value()?.parse()?;
                match RenameRule::parse(&lit.value()) {
                    Some(rule) => {
                        let value = Spanned { value: rule, span: lit.span() };
                        set_once(&mut out.rename_all, value, span, "rename_all", errors);
                    }
                    None => errors.at(
                        lit.span(),
                        format!("unknown rename_all rule {:?}; expected one of {}", lit.value(), RenameRule::NAMES),
                    ),
                }
            } else if meta.path.is_ident("tags") {
                let value = table::tags(&meta, span)?;
                set_once(&mut out.tags, value, span, "tags", errors);
            } else if meta.path.is_ident("stream") {
                if let Some(value) = table::stream(&meta, errors)? {
                    set_once(&mut out.stream, value, span, "stream", errors);
                }
            } else if meta.path.is_ident("table_class") {
                if let Some(value) = table::table_class(&meta, errors)? {
                    set_once(&mut out.table_class, value, span, "table_class", errors);
                }
            } else if meta.path.is_ident("deletion_protection") {
                set_once(&mut out.deletion_protection, span, span, "deletion_protection", errors);
            } else if meta.path.is_ident("point_in_time_recovery") {
                let value = table::point_in_time_recovery(&meta, errors)?;
                set_once(&mut out.point_in_time_recovery, value, span, "point_in_time_recovery", errors);
            } else if meta.path.is_ident("entity") {
                let lit: LitStr = meta.value()?.parse()?;
                let value = Spanned { value: lit.value(), span: lit.span() };
                set_once(&mut out.entity, value, span, "entity", errors);
            } else if meta.path.is_ident("entity_attribute") {
                let lit: LitStr = meta.value()?.parse()?;
                let value = Spanned { value: lit.value(), span: lit.span() };
                set_once(&mut out.entity_attribute, value, span, "entity_attribute", errors);
            } else if meta.path.is_ident("datetime") {
                if let Some(value) = datetime::width(&meta, errors)? {
                    set_once(&mut out.datetime, value, span, "datetime", errors);
                }
            } else if meta.path.is_ident("item_version") {
                let value = item_version::version(&meta)?;
                set_once(&mut out.item_version, value, span, "item_version", errors);
            } else if meta.path.is_ident("item_version_attribute") {
                let lit: LitStr = meta.value()?.parse()?;
                let value = Spanned { value: lit.value(), span: lit.span() };
                set_once(&mut out.item_version_attribute, value, span, "item_version_attribute", errors);
            } else if meta.path.is_ident("max_item_size") {
                if let Some(value) = compress::byte_size(&meta, errors)? {
                    set_once(&mut out.max_item_size, value, span, "max_item_size", errors);
                }
            } else {
                errors.at(
                    span,
                    format!(
                        "unknown dynomodel option `{}`; expected `table`, `throughput`, `on_demand`, `rename_all`, \
                         `tags`, `stream`, `table_class`, `deletion_protection`, `point_in_time_recovery`, `entity`, \
                         `entity_attribute`, `datetime`, `item_version`, `item_version_attribute` or `max_item_size`",
                        option_name(&meta)
                    ),
                );
                skip_value(&meta)?;
            }
            Ok(())
        });
        if let Err(e) = parsed {
            errors.push(e);
        }
    }
    out
}

/// Parses `throughput(read = N, write = N)`; both are required.
pub(crate) fn throughput(
    meta: &ParseNestedMeta<'_>,
    errors: &mut Errors,
) -> syn::Result<Spanned<(i64, i64)>> {
    let span = meta.path.span();
    let mut read: Option<i64> = None;
    let mut write: Option<i64> = None;
    meta.parse_nested_meta(|inner| {
        let inner_span = inner.path.span();
        let slot = if inner.path.is_ident("read") {
            &mut read
        } else if inner.path.is_ident("write") {
            &mut write
        } else {
            errors.at(
                inner_span,
                format!(
                    "unknown throughput option `{}`; expected `read` or `write`",
                    option_name(&inner)
                ),
            );
            return skip_value(&inner);
        };
        let lit: LitInt = inner.value()?.parse()?;
        let units: i64 = lit.base10_parse()?;
        if units < 1 {
            errors.at(lit.span(), "capacity units must be at least 1");
        }
        set_once(slot, units, inner_span, &option_name(&inner), errors);
        Ok(())
    })?;
    match (read, write) {
        (Some(read), Some(write)) => Ok(Spanned {
            value: (read, write),
            span,
        }),
        _ => Err(syn::Error::new(
            span,
            "throughput needs both `read = N` and `write = N`",
        )),
    }
}

/// Parses one field's attributes.
pub(crate) fn field(attrs: &[Attribute], errors: &mut Errors) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    for attr in attrs {
        let path = attr.path();
        let span = path.span();
        if path.is_ident("hash_key") || path.is_ident("range_key") {
            if let Err(e) = attr.meta.require_path_only() {
                errors.push(e);
            }
            let (slot, name) = if path.is_ident("hash_key") {
                (&mut out.hash_key, "hash_key")
            } else {
                (&mut out.range_key, "range_key")
            };
            if slot.is_some() {
                errors.at(span, format!("duplicate `#[{name}]`"));
            }
            *slot = Some(span);
        } else if path.is_ident("version") {
            marker(attr, &mut out.version, "version", errors);
        } else if path.is_ident("ttl") {
            marker(attr, &mut out.ttl, "ttl", errors);
        } else if path.is_ident("created_at") {
            marker(attr, &mut out.created_at, "created_at", errors);
        } else if path.is_ident("updated_at") {
            marker(attr, &mut out.updated_at, "updated_at", errors);
        } else if path.is_ident("index") {
            if let Some(index) = index::local(attr, errors) {
                out.local_indexes.push(index);
            }
        } else if path.is_ident("global_index") {
            errors.at(
                span,
                "`#[global_index(...)]` belongs on the struct; on a field, `#[index(...)]` declares a local index",
            );
        } else if path.is_ident("local_index") {
            errors.at(
                span,
                "`#[local_index(...)]` belongs on the struct (and names its sort key with `range = ...`); on a field, `#[index(...)]` declares a local index",
            );
        } else if path.is_ident("composite") {
            errors.at(
                span,
                "`#[composite(...)]` belongs on the struct: it names its fields as its parts",
            );
        } else if path.is_ident("dynomodel")
            && let Err(e) = attr.parse_nested_meta(|meta| field_option(&meta, &mut out, errors))
        {
            errors.push(e);
        }
    }
    out
}

/// A field attribute without arguments (`#[ttl]`): recorded once, at its span.
fn marker(attr: &Attribute, slot: &mut Option<Span>, name: &str, errors: &mut Errors) {
    if let Err(e) = attr.meta.require_path_only() {
        errors.push(e);
    }
    let span = attr.path().span();
    if slot.is_some() {
        errors.at(span, format!("duplicate `#[{name}]`"));
    }
    *slot = Some(span);
}

fn field_option(
    meta: &ParseNestedMeta<'_>,
    out: &mut FieldAttrs,
    errors: &mut Errors,
) -> syn::Result<()> {
    let span = meta.path.span();
    if meta.path.is_ident("rename") {
        let lit: LitStr = meta.value()?.parse()?;
        let value = Spanned {
            value: lit.value(),
            span: lit.span(),
        };
        set_once(&mut out.rename, value, span, "rename", errors);
    } else if meta.path.is_ident("skip") {
        set_once(&mut out.skip, span, span, "skip", errors);
    } else if meta.path.is_ident("epoch_seconds") {
        set_once(&mut out.epoch_seconds, span, span, "epoch_seconds", errors);
    } else if meta.path.is_ident("datetime") {
        if let Some(value) = datetime::width(meta, errors)? {
            set_once(&mut out.datetime, value, span, "datetime", errors);
        }
    } else if meta.path.is_ident("serde") {
        set_once(&mut out.serde, span, span, "serde", errors);
    } else if meta.path.is_ident("json") {
        set_once(&mut out.json, span, span, "json", errors);
    } else if meta.path.is_ident("compress") {
        let value = compress::compress(meta, errors)?;
        set_once(&mut out.compress, value, span, "compress", errors);
    } else if meta.path.is_ident("counter") {
        set_once(&mut out.counter, span, span, "counter", errors);
    } else if meta.path.is_ident("default") {
        let path = if meta.input.peek(syn::Token![=]) {
            let lit: LitStr = meta.value()?.parse()?;
            // Respan so that a wrong function is reported at the string.
            let path: ExprPath = lit.parse_with(|input: syn::parse::ParseStream<'_>| {
                let mut path: ExprPath = input.parse()?;
                for segment in &mut path.path.segments {
                    segment.ident.set_span(lit.span());
                }
                Ok(path)
            })?;
            Some(path)
        } else {
            None
        };
        set_once(
            &mut out.default,
            Spanned { value: path, span },
            span,
            "default",
            errors,
        );
    } else {
        errors.at(
            span,
            format!(
                "unknown dynomodel field option `{}`; expected `rename`, `skip`, `default`, `epoch_seconds`, \
                 `datetime`, `serde`, `json`, `compress` or `counter`",
                option_name(meta)
            ),
        );
        skip_value(meta)?;
    }
    Ok(())
}
