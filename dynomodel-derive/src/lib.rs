//! Derive macros for dynomodel: `#[derive(Model)]` and `#[derive(Document)]`.
//!
//! Users depend on `dynomodel`, which re-exports these macros and documents them. The crate follows
//! serde_derive's structure: `attr` parses attributes (collecting every error with its span), `ir`
//! resolves them into an intermediate representation, `check` enforces one rule per function, and
//! `expand` generates code naming `::dynomodel` fully qualified. On error the macro emits the errors
//! plus a stub impl, so the user sees the real mistake and not a cascade of follow-on errors.

mod attr;
mod case;
mod check;
mod expand;
mod ir;

use proc_macro::TokenStream;
use syn::{parse_macro_input, DeriveInput};

use crate::attr::Errors;
use crate::ir::{Container, Derive};

/// Derives `dynomodel::Model`, `dynomodel::Attribute`, a `<Struct>Key` type and typed field handles.
///
/// The options (`table`, `throughput`, `on_demand`, `rename_all`, `tags`, `stream`, `table_class`,
/// `deletion_protection`; on fields `#[hash_key]`, `#[range_key]`, `#[version]`, `#[ttl]`,
/// `#[created_at]`, `#[updated_at]`, `rename`, `skip`, `default`, `epoch_seconds`, `counter`,
/// `#[index(...)]`; on the struct `#[global_index(...)]`, and
/// `#[composite(...)]` keys with their `#[local_index(...)]`es) are documented, with examples, on
/// the `dynomodel::Model` trait.
#[proc_macro_derive(
    Model,
    attributes(
        dynomodel,
        hash_key,
        range_key,
        version,
        ttl,
        created_at,
        updated_at,
        index,
        global_index,
        local_index,
        composite,
        upcast
    )
)]
pub fn derive_model(input: TokenStream) -> TokenStream {
    derive(parse_macro_input!(input as DeriveInput), Derive::Model)
}

/// Derives `dynomodel::Attribute` for a struct stored as a map (M) inside an item, with the same field
/// options as `#[derive(Model)]` (`rename`, `skip`, `default`, `epoch_seconds`) and no keys.
///
/// `hash_key`, `range_key`, `version`, `ttl`, `created_at`, `updated_at`, `index` and `global_index`
/// are registered only to report a clear error.
#[proc_macro_derive(
    Document,
    attributes(
        dynomodel,
        hash_key,
        range_key,
        version,
        ttl,
        created_at,
        updated_at,
        index,
        global_index,
        local_index,
        composite
    )
)]
pub fn derive_document(input: TokenStream) -> TokenStream {
    derive(parse_macro_input!(input as DeriveInput), Derive::Document)
}

/// Derives `dynomodel::Attribute` for a type stored as one attribute value: a newtype struct
/// (`struct UserId(String)`, stored as its field), a unit-only enum (stored as its variant's name, S,
/// usable as a key) or an enum with data (externally tagged, as serde: a unit variant as its name, any
/// other as a map of one entry, name → content; with `tag = "type"`, internally tagged: a map holding
/// the name under `type`). Options: `rename_all` and `tag` on the enum, `rename` and
/// `rename_all` (for a struct variant's fields) on variants, the `#[derive(Document)]` field options on
/// struct variants' fields. Documented, with examples, on the `dynomodel::Attribute` trait.
#[proc_macro_derive(Attribute, attributes(dynomodel))]
pub fn derive_attribute(input: TokenStream) -> TokenStream {
    expand::enums::derive(&parse_macro_input!(input as DeriveInput)).into()
}

/// Derives `dynomodel::Collection` for an enum of the models sharing one table (single-table
/// design): one tuple variant per model (`User(User)`), each model declaring
/// `#[dynomodel(entity = "...")]`, and optionally one `#[dynomodel(unknown)]` variant holding a
/// `dynomodel::Item` for items of entity types no member declares. Documented, with an example, on
/// the `dynomodel::Collection` trait.
#[proc_macro_derive(Collection, attributes(dynomodel))]
pub fn derive_collection(input: TokenStream) -> TokenStream {
    expand::collection::derive(&parse_macro_input!(input as DeriveInput)).into()
}

fn derive(input: DeriveInput, derive: Derive) -> TokenStream {
    let mut errors = Errors::default();
    let container = Container::from_ast(&input, derive, &mut errors);
    if let Some(container) = &container {
        check::check(container, &mut errors);
    }
    let output = match (errors.finish(), container) {
        (Ok(()), Some(container)) => expand::generate(&container),
        (Err(errors), container) => {
            let mut output = errors.to_compile_error();
            output.extend(expand::stub(&input, derive, container.as_ref()));
            output
        }
        // `from_ast` records an error whenever it returns `None`.
        (Ok(()), None) => expand::stub(&input, derive, None),
    };
    output.into()
}
