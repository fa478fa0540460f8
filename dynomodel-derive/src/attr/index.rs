//! Parsing of the secondary-index attributes, flywheel's three projections in attribute form:
//!
//! ```text
//! #[index(all = "ts-local")]                              on a field: a local index sorted by it
//! #[index(keys = "rt-local")]
//! #[index(include = "like-local", includes = [text])]
//! #[global_index(all("ts-index", hash = city, range = ts), throughput(read = 10, write = 2))]
//! #[global_index(keys("rt-index", hash = city))]           on the struct; `range` is optional
//! #[global_index(include("like-index", hash = city, range = likes, includes = [text]))]
//! #[local_index(keys("by-status", range = status_sk))]      on the struct of a model with composites:
//!                                                          the table's hash key, another sort key
//! ```
//!
//! Fields are named by their Rust identifiers; the IR resolves them to fields (and attribute names).

use proc_macro2::Span;
use syn::parse::ParseStream;
use syn::punctuated::Punctuated;
use syn::spanned::Spanned as _;
use syn::{Attribute, Ident, LitStr, Token};

use crate::attr::{option_name, set_once, skip_value, throughput, Errors, Spanned};

/// What an index holds besides the keys.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ProjectionKind {
    /// `all`: every attribute.
    All,
    /// `keys`: the table and index keys only.
    Keys,
    /// `include`: the keys plus `includes = [...]`.
    Include,
}

impl ProjectionKind {
    fn parse(ident: &syn::Path) -> Option<ProjectionKind> {
        if ident.is_ident("all") {
            Some(ProjectionKind::All)
        } else if ident.is_ident("keys") {
            Some(ProjectionKind::Keys)
        } else if ident.is_ident("include") {
            Some(ProjectionKind::Include)
        } else {
            None
        }
    }
}

/// One parsed index declaration.
pub(crate) struct IndexAttr {
    /// The projection and the span of its keyword.
    pub projection: Spanned<ProjectionKind>,
    /// The index name and the span of its string.
    pub name: Spanned<String>,
    /// `hash = field` (global indexes only).
    pub hash: Option<Ident>,
    /// `range = field` (struct-level indexes; a field's `#[index]` is sorted by that field).
    pub range: Option<Ident>,
    /// `includes = [field, ...]` and the span of the `includes` keyword.
    pub includes: Option<Spanned<Vec<Ident>>>,
    /// `throughput(read = N, write = N)` (global indexes only).
    pub throughput: Option<Spanned<(i64, i64)>>,
    /// The attribute's path (`index` / `global_index`), for errors about the declaration as a whole.
    pub span: Span,
}

const PROJECTIONS: &str = "expected `all`, `keys` or `include`";

fn includes_list(input: ParseStream<'_>) -> syn::Result<Vec<Ident>> {
    let content;
    syn::bracketed!(content in input);
    let list = Punctuated::<Ident, Token![,]>::parse_terminated(&content)?;
    Ok(list.into_iter().collect())
}

/// `#[index(all = "name")]`, `#[index(keys = "name")]`, `#[index(include = "name", includes = [..])]`.
pub(crate) fn local(attr: &Attribute, errors: &mut Errors) -> Option<IndexAttr> {
    let mut projection: Option<Spanned<ProjectionKind>> = None;
    let mut name = None;
    let mut includes = None;
    let parsed = attr.parse_nested_meta(|meta| {
        let span = meta.path.span();
        if let Some(kind) = ProjectionKind::parse(&meta.path) {
            let lit: LitStr = meta.value()?.parse()?;
            if projection.is_some() {
                errors.at(span, "an `#[index]` has one projection; declare another `#[index(...)]` for a second index");
                return Ok(());
            }
            projection = Some(Spanned { value: kind, span });
            name = Some(Spanned { value: lit.value(), span: lit.span() });
        } else if meta.path.is_ident("includes") {
            let list = includes_list(meta.value()?)?;
            set_once(&mut includes, Spanned { value: list, span }, span, "includes", errors);
        } else if meta.path.is_ident("throughput") {
            throughput(&meta, errors)?;
            errors.at(span, "a local index has no throughput of its own: it shares the table's capacity");
        } else {
            errors.at(
                span,
                format!("unknown index option `{}`; {PROJECTIONS} (with the index name), or `includes`", option_name(&meta)),
            );
            skip_value(&meta)?;
        }
        Ok(())
    });
    if let Err(e) = parsed {
        errors.push(e);
        return None;
    }
    let Some((projection, name)) = projection.zip(name) else {
        errors.at(attr.path().span(), format!("`#[index]` needs a projection and a name, e.g. `#[index(all = \"ts-local\")]`; {PROJECTIONS}"));
        return None;
    };
    Some(IndexAttr {
        projection,
        name,
        hash: None,
        range: None,
        includes,
        throughput: None,
        span: attr.path().span(),
    })
}

/// `#[global_index(all("name", hash = f, range = f), throughput(read = N, write = N))]`.
pub(crate) fn global(attr: &Attribute, errors: &mut Errors) -> Option<IndexAttr> {
    struct_level(attr, Level::Global, errors)
}

/// `#[local_index(all("name", range = f))]`: the struct-level local index of a model with
/// composites, whose sort key may be a composite (which no field can carry an `#[index]` for).
pub(crate) fn local_on_struct(attr: &Attribute, errors: &mut Errors) -> Option<IndexAttr> {
    struct_level(attr, Level::Local, errors)
}

/// Which struct-level attribute is parsed: the two share their syntax, but a local index takes the
/// table's partition key and capacity, so `hash` and `throughput` are refused on it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Level {
    Global,
    Local,
}

impl Level {
    fn attr(self) -> &'static str {
        match self {
            Level::Global => "global_index",
            Level::Local => "local_index",
        }
    }
}

fn struct_level(attr: &Attribute, level: Level, errors: &mut Errors) -> Option<IndexAttr> {
    let what = level.attr();
    let mut index: Option<IndexAttr> = None;
    let mut throughput_value = None;
    let parsed = attr.parse_nested_meta(|meta| {
        let span = meta.path.span();
        if let Some(kind) = ProjectionKind::parse(&meta.path) {
            let content;
            syn::parenthesized!(content in meta.input);
            let parsed = index_body(&content, kind, span, attr.path().span(), level, errors)?;
            if index.is_some() {
                errors.at(span, format!("a `#[{what}]` declares one index; add another `#[{what}(...)]` for a second"));
            } else {
                index = Some(parsed);
            }
        } else if meta.path.is_ident("throughput") {
            let value = throughput(&meta, errors)?;
            if level == Level::Local {
                errors.at(span, "a local index has no throughput of its own: it shares the table's capacity");
            } else {
                set_once(&mut throughput_value, value, span, "throughput", errors);
            }
        } else if level == Level::Local {
            errors.at(span, format!("unknown local_index option `{}`; {PROJECTIONS}", option_name(&meta)));
            skip_value(&meta)?;
        } else {
            errors.at(span, format!("unknown global_index option `{}`; {PROJECTIONS} or `throughput`", option_name(&meta)));
            skip_value(&meta)?;
        }
        Ok(())
    });
    if let Err(e) = parsed {
        errors.push(e);
        return None;
    }
    let Some(mut index) = index else {
        let example = match level {
            Level::Global => "#[global_index(all(\"ts-index\", hash = city, range = ts))]",
            Level::Local => "#[local_index(all(\"by-status\", range = status_sk))]",
        };
        errors.at(
            attr.path().span(),
            format!("`#[{what}]` needs a projection, e.g. `{example}`; {PROJECTIONS}"),
        );
        return None;
    };
    index.throughput = throughput_value;
    Some(index)
}

/// The inside of `all(...)`: the name, then `hash = f`, `range = f`, `includes = [...]` in any order.
fn index_body(
    input: ParseStream<'_>,
    kind: ProjectionKind,
    kind_span: Span,
    span: Span,
    level: Level,
    errors: &mut Errors,
) -> syn::Result<IndexAttr> {
    let lit: LitStr = input.parse()?;
    let mut index = IndexAttr {
        projection: Spanned {
            value: kind,
            span: kind_span,
        },
        name: Spanned {
            value: lit.value(),
            span: lit.span(),
        },
        hash: None,
        range: None,
        includes: None,
        throughput: None,
        span,
    };
    while !input.is_empty() {
        input.parse::<Token![,]>()?;
        if input.is_empty() {
            break;
        }
        let key: Ident = input.parse()?;
        input.parse::<Token![=]>()?;
        match key.to_string().as_str() {
            "hash" if level == Level::Local => {
                input.parse::<Ident>()?;
                errors.at(
                    key.span(),
                    format!(
                        "local index {:?} is partitioned by the table's hash key: remove `hash = ...` \
                         (or declare a `#[global_index]` for another partition key)",
                        lit.value()
                    ),
                );
            }
            "hash" => {
                let field: Ident = input.parse()?;
                set_once(&mut index.hash, field, key.span(), "hash", errors);
            }
            "range" => {
                let field: Ident = input.parse()?;
                set_once(&mut index.range, field, key.span(), "range", errors);
            }
            "includes" => {
                let list = includes_list(input)?;
                let value = Spanned {
                    value: list,
                    span: key.span(),
                };
                set_once(&mut index.includes, value, key.span(), "includes", errors);
            }
            other => {
                let expected = match level {
                    Level::Global => "`hash`, `range` or `includes`",
                    Level::Local => "`range` or `includes`",
                };
                errors.at(
                    key.span(),
                    format!(
                        "unknown {} key `{other}`; expected {expected}",
                        level.attr()
                    ),
                );
                input.parse::<syn::Expr>()?;
            }
        }
    }
    if level == Level::Local {
        if index.range.is_none() {
            errors.at(
                lit.span(),
                format!(
                    "local index {:?} needs a sort key: `range = composite` (or a stored field)",
                    lit.value()
                ),
            );
        }
    } else if index.hash.is_none() {
        errors.at(
            lit.span(),
            format!(
                "global index {:?} needs a partition key: `hash = field`",
                lit.value()
            ),
        );
    }
    Ok(index)
}

/// Parses without a `ParseNestedMeta` (used by the tests).
#[cfg(test)]
pub(crate) fn parse_global(attr: &Attribute) -> (Option<IndexAttr>, Result<(), syn::Error>) {
    let mut errors = Errors::default();
    let index = global(attr, &mut errors);
    (index, errors.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    #[test]
    fn global_index_parses_in_any_order() {
        let attr: Attribute = parse_quote!(#[global_index(include("like-index", range = likes, hash = city, includes = [text, tags]), throughput(read = 3, write = 4))]);
        let (index, result) = parse_global(&attr);
        assert!(result.is_ok());
        let index = index.expect("parsed");
        assert_eq!(index.name.value, "like-index");
        assert_eq!(index.projection.value, ProjectionKind::Include);
        assert_eq!(index.hash.expect("hash").to_string(), "city");
        assert_eq!(index.range.expect("range").to_string(), "likes");
        let includes: Vec<String> = index
            .includes
            .expect("includes")
            .value
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(includes, ["text", "tags"]);
        assert_eq!(index.throughput.expect("throughput").value, (3, 4));
    }

    #[test]
    fn global_index_without_hash_is_an_error() {
        let attr: Attribute = parse_quote!(#[global_index(keys("rt-index", range = likes))]);
        let (_, result) = parse_global(&attr);
        assert!(result.is_err());
    }

    #[test]
    fn local_index_on_the_struct_refuses_hash_and_throughput() {
        let attr: Attribute = parse_quote!(#[local_index(keys("by-status", range = ssk))]);
        let mut errors = Errors::default();
        let index = local_on_struct(&attr, &mut errors).expect("parsed");
        assert!(errors.finish().is_ok());
        assert_eq!(index.range.expect("range").to_string(), "ssk");
        assert!(index.hash.is_none());
        for attr in [
            parse_quote!(#[local_index(keys("by-status", hash = pk, range = ssk))]),
            parse_quote!(#[local_index(keys("by-status", range = ssk), throughput(read = 1, write = 1))]),
            parse_quote!(#[local_index(keys("by-status"))]),
        ] {
            let attr: Attribute = attr;
            let mut errors = Errors::default();
            local_on_struct(&attr, &mut errors);
            assert!(errors.finish().is_err());
        }
    }

    #[test]
    fn local_index_takes_a_name_per_projection() {
        let attr: Attribute = parse_quote!(#[index(include = "like-local", includes = [text])]);
        let mut errors = Errors::default();
        let index = local(&attr, &mut errors).expect("parsed");
        assert!(errors.finish().is_ok());
        assert_eq!(index.name.value, "like-local");
        assert_eq!(index.projection.value, ProjectionKind::Include);
    }
}
