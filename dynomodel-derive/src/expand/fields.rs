//! Per-field code: how one field is written to, read from and defaulted, through its `Attribute` impl or
//! through an adapter module. Trait paths are spanned at the field's type so that a type that does not
//! convert is reported there, not at the derive.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use crate::attr::datetime::Width;
use crate::ir::{self, Conversion, Field, FieldDefault};

/// An adapter: its module, its field trait and the trait's three methods (write, read, missing).
struct Adapter {
    module: TokenStream,
    to: TokenStream,
    from: TokenStream,
    missing: TokenStream,
}

/// The adapter of a field that has one. Calls go through the trait path (`<T as Trait>::method`) rather
/// than the module's generic functions so that a field type the adapter cannot handle is one error, not
/// one per generated call: rustc merges identical diagnostics at one span.
fn adapter(field: &Field<'_>) -> Option<Adapter> {
    let span = field.ty.span();
    let ty = field.ty;
    let (module, field_trait, to, from, missing) = match field.conversion {
        Conversion::Attribute => return None,
        Conversion::Compressed { json, min_size } => {
            let (field_trait, to, from, missing) = if json {
                (
                    quote_spanned!(span=> CompressedJsonField),
                    quote_spanned!(span=> to_compressed_json::<#min_size>),
                    quote_spanned!(span=> from_compressed_json),
                    quote_spanned!(span=> compressed_json_absent),
                )
            } else {
                (
                    quote_spanned!(span=> CompressedField),
                    quote_spanned!(span=> to_compressed::<#min_size>),
                    quote_spanned!(span=> from_compressed),
                    quote_spanned!(span=> compressed_absent),
                )
            };
            (
                quote_spanned!(span=> ::dynomodel::convert::compress),
                field_trait,
                to,
                from,
                missing,
            )
        }
        Conversion::EpochSeconds => (
            quote_spanned!(span=> ::dynomodel::convert::epoch_seconds),
            quote_spanned!(span=> EpochSecondsField),
            quote_spanned!(span=> to_epoch_seconds),
            quote_spanned!(span=> from_epoch_seconds),
            quote_spanned!(span=> epoch_seconds_missing),
        ),
        Conversion::Ttl => (
            quote_spanned!(span=> ::dynomodel::convert::ttl),
            quote_spanned!(span=> TtlAttribute),
            quote_spanned!(span=> to_ttl),
            quote_spanned!(span=> from_ttl),
            quote_spanned!(span=> ttl_missing),
        ),
        Conversion::Binary => (
            quote_spanned!(span=> ::dynomodel::convert::binary),
            quote_spanned!(span=> BinaryField),
            quote_spanned!(span=> to_binary),
            quote_spanned!(span=> from_binary),
            quote_spanned!(span=> binary_missing),
        ),
        Conversion::Serde => (
            quote_spanned!(span=> ::dynomodel::convert::serde),
            quote_spanned!(span=> SerdeField),
            quote_spanned!(span=> to_serde),
            quote_spanned!(span=> from_serde),
            quote_spanned!(span=> serde_missing),
        ),
        Conversion::Json => (
            quote_spanned!(span=> ::dynomodel::convert::json),
            quote_spanned!(span=> JsonField),
            quote_spanned!(span=> to_json),
            quote_spanned!(span=> from_json),
            quote_spanned!(span=> json_missing),
        ),
        Conversion::DateTime(width) => {
            let width = width_type(width, span);
            (
                quote_spanned!(span=> ::dynomodel::convert::datetime),
                quote_spanned!(span=> DateTimeField),
                quote_spanned!(span=> to_datetime::<#width>),
                quote_spanned!(span=> from_datetime::<#width>),
                quote_spanned!(span=> datetime_missing::<#width>),
            )
        }
    };
    Some(Adapter {
        to: quote_spanned!(span=> <#ty as #module::#field_trait>::#to),
        from: quote_spanned!(span=> <#ty as #module::#field_trait>::#from),
        missing: quote_spanned!(span=> <#ty as #module::#field_trait>::#missing),
        module,
    })
}

/// `::dynomodel::convert::datetime::Millis`, the marker type of a width.
fn width_type(width: Width, span: proc_macro2::Span) -> TokenStream {
    let marker = syn::Ident::new(width.marker(), span);
    quote_spanned!(span=> ::dynomodel::convert::datetime::#marker)
}

/// `Result<Option<AttributeValue>, ConversionError>` for `value` (an expression of type `&T`).
pub(super) fn to_attribute(field: &Field<'_>, value: TokenStream) -> TokenStream {
    let ty = field.ty;
    match adapter(field) {
        Some(Adapter { to, .. }) => quote_spanned!(ty.span()=> #to(#value)),
        None => quote_spanned!(ty.span()=> <#ty as ::dynomodel::Attribute>::to_attribute(#value)),
    }
}

/// `Result<T, ConversionError>` from `value` (an `AttributeValue`).
pub(super) fn from_attribute(field: &Field<'_>, value: TokenStream) -> TokenStream {
    let ty = field.ty;
    match adapter(field) {
        Some(Adapter { from, .. }) => quote_spanned!(ty.span()=> #from(#value)),
        None => quote_spanned!(ty.span()=> <#ty as ::dynomodel::Attribute>::from_attribute(#value)),
    }
}

/// The value a `default` or `skip` field takes.
pub(super) fn default_value(field: &Field<'_>) -> TokenStream {
    match &field.default {
        FieldDefault::Path(path) => quote!(#path()),
        FieldDefault::Trait | FieldDefault::None => {
            let ty = field.ty;
            quote_spanned!(ty.span()=> <#ty as ::core::default::Default>::default())
        }
    }
}

/// `Result<T, ConversionError>` for an absent attribute.
pub(super) fn from_missing(field: &Field<'_>) -> TokenStream {
    let ty = field.ty;
    match (&field.default, adapter(field)) {
        (FieldDefault::Trait | FieldDefault::Path(_), _) => {
            let value = default_value(field);
            quote!(::core::result::Result::Ok(#value))
        }
        (FieldDefault::None, Some(Adapter { missing, .. })) => {
            quote_spanned!(ty.span()=> #missing())
        }
        (FieldDefault::None, None) => {
            quote_spanned!(ty.span()=> <#ty as ::dynomodel::Attribute>::from_missing())
        }
    }
}

/// The key's scalar type (S, N or B). For a plain field this is where a type that cannot be a key is
/// reported, through `KeyAttribute`'s `on_unimplemented` message, spanned at the field's type.
pub(super) fn key_scalar_type(field: &Field<'_>) -> TokenStream {
    let ty = field.ty;
    match adapter(field) {
        Some(Adapter { module, .. }) => quote_spanned!(ty.span()=> #module::key_type::<#ty>()),
        None => quote_spanned!(ty.span()=> <#ty as ::dynomodel::KeyAttribute>::SCALAR_TYPE),
    }
}

/// An index key's scalar type: like [`key_scalar_type`], but an `Option` of a key type is allowed
/// (a sparse index), through `IndexKeyAttribute`.
pub(super) fn index_key_scalar_type(field: &Field<'_>) -> TokenStream {
    let ty = field.ty;
    if let Conversion::DateTime(_) = field.conversion {
        // An `Option` of a date-time makes a sparse index, as an `Option` of a key type does.
        return quote_spanned!(ty.span()=> ::dynomodel::convert::datetime::index_key_type::<#ty>());
    }
    match adapter(field) {
        Some(Adapter { module, .. }) => quote_spanned!(ty.span()=> #module::key_type::<#ty>()),
        None => quote_spanned!(ty.span()=> <#ty as ::dynomodel::IndexKeyAttribute>::SCALAR_TYPE),
    }
}

/// The value type of the field's typed handle (`Field<M, _>`): a type that converts to an attribute
/// exactly as the field is stored, so that operands render like the stored values.
///
/// It is the field's type, except for fields stored through an adapter: a `Vec<u8>` is `Binary` (B,
/// not a list of numbers), an `epoch_seconds` date is `EpochSeconds<_>` and a `#[ttl]` time is
/// `Ttl<_>` (N, not the date's own S string). An `Option` field keeps its `Option` around the wrapper,
/// so that `set(field, None)` still removes it and conditions take the inner value.
pub(super) fn handle_type(field: &Field<'_>) -> TokenStream {
    let ty = field.ty;
    let wrapper = match field.conversion {
        Conversion::Attribute => return quote!(#ty),
        Conversion::Compressed { json, min_size } => {
            return compressed_handle_type(ty, json, min_size)
        }
        Conversion::Binary => {
            return if ir::is_option(ty) {
                quote!(::core::option::Option<::dynomodel::Binary>)
            } else {
                quote!(::dynomodel::Binary)
            };
        }
        Conversion::EpochSeconds => quote!(::dynomodel::convert::EpochSeconds),
        Conversion::Ttl => quote!(::dynomodel::convert::Ttl),
        Conversion::Serde => quote!(::dynomodel::convert::Serde),
        Conversion::Json => quote!(::dynomodel::convert::Json),
        Conversion::DateTime(width) => {
            // The wrapper's type parameter is the width: it wraps a `DateTime<Utc>` only.
            let width = width_type(width, ty.span());
            let wrapper = quote!(::dynomodel::convert::datetime::Rfc3339<#width>);
            return if ir::is_option(ty) {
                quote!(::core::option::Option<#wrapper>)
            } else {
                wrapper
            };
        }
    };
    match ir::option_inner(ty) {
        Some(inner) => quote!(::core::option::Option<#wrapper<#inner>>),
        None => quote!(#wrapper<#ty>),
    }
}

/// The handle value type of a compressed field: `Compressed<T, N>` (`Compressed<Json<T>, N>` with
/// `json`), inside the field's `Option`. It has no comparisons, only `exists`, `size`, ... and `set`.
fn compressed_handle_type(ty: &syn::Type, json: bool, min_size: usize) -> TokenStream {
    let inner = ir::option_inner(ty);
    let value = inner.unwrap_or(ty);
    let value = if json {
        quote!(::dynomodel::convert::Json<#value>)
    } else {
        quote!(#value)
    };
    let wrapper = quote!(::dynomodel::convert::Compressed<#value, #min_size>);
    match inner {
        Some(_) => quote!(::core::option::Option<#wrapper>),
        None => wrapper,
    }
}

/// The type of the field's part in its composites' handles (`Composite<M, (String, _)>`): the
/// field's own type, or for a `datetime` field the wrapper that writes its width.
pub(super) fn part_type(field: &Field<'_>) -> TokenStream {
    let ty = field.ty;
    match field.conversion {
        Conversion::DateTime(width) => {
            let width = width_type(width, ty.span());
            quote_spanned!(ty.span()=> ::dynomodel::convert::datetime::Rfc3339<#width>)
        }
        _ => quote_spanned!(ty.span()=> #ty),
    }
}

/// `Result<String, ConversionError>`: the field's text inside a composite, from `value` (`&T`).
pub(super) fn to_part(field: &Field<'_>, value: &TokenStream) -> TokenStream {
    let ty = field.ty;
    match field.conversion {
        Conversion::DateTime(width) => {
            let width = width_type(width, ty.span());
            quote_spanned!(ty.span()=> <#ty as ::dynomodel::convert::datetime::DateTimeKey>::to_part_at::<#width>(#value))
        }
        _ => quote_spanned!(ty.span()=> <#ty as ::dynomodel::CompositePart>::to_part(#value)),
    }
}

/// The function reading the field from its text inside a composite (`fn(&str) -> Result<T, _>`).
pub(super) fn from_part(field: &Field<'_>) -> TokenStream {
    let ty = field.ty;
    match field.conversion {
        Conversion::DateTime(width) => {
            let width = width_type(width, ty.span());
            quote_spanned!(ty.span()=> <#ty as ::dynomodel::convert::datetime::DateTimeKey>::from_part_at::<#width>)
        }
        _ => quote_spanned!(ty.span()=> <#ty as ::dynomodel::CompositePart>::from_part),
    }
}

/// Statements that write `self`'s stored fields into `__item` (an `&mut dyn AttributeSink`),
/// each under its `'static` name: a field without an adapter through `Attribute::write_attribute`
/// (a string is handed over borrowed), one with an adapter as the value its adapter makes.
pub(super) fn write_item<'f, 'a: 'f>(
    fields: impl IntoIterator<Item = &'f Field<'a>>,
) -> TokenStream {
    let writes = fields.into_iter().filter(|f| f.stored()).map(|field| {
        let ident = field.ident;
        let name = &field.name;
        let ty = field.ty;
        match adapter(field) {
            None => quote_spanned! {ty.span()=>
                <#ty as ::dynomodel::Attribute>::write_attribute(&self.#ident, #name, __item)
                    .map_err(|__e| __e.at(#name))?;
            },
            Some(_) => {
                let value = to_attribute(field, quote!(&self.#ident));
                quote! {
                    if let ::core::option::Option::Some(__value) = #value.map_err(|__e| __e.at(#name))? {
                        __item.insert_static(#name, __value);
                    }
                }
            }
        }
    });
    quote!(#(#writes)*)
}

/// An expression building `Self` from `__item` (a mutable `Item`), returning a
/// `Result<Self, ConversionError>`; errors are located at the attribute's name.
///
/// One pass over the item, moving each attribute a field stores into that field's slot, then the
/// conversions in field order (so the first failing field is the one reported, as before): a
/// `BTreeMap::remove` per field searched the map and shifted its node each time, most of what decoding
/// a struct from an in-memory backend's item cost. Attributes no field stores are dropped; were two
/// fields to store the same name, the first would get the value and the second none.
pub(super) fn read_item<'f, 'a: 'f>(
    fields: impl IntoIterator<Item = &'f Field<'a>>,
) -> TokenStream {
    read_item_at(fields, None)
}

/// [`read_item`] of a model with an item version, `(attribute, version)`: the same one pass, which
/// also keeps the version attribute and the attributes no field stores (none, for an item at the
/// model's version: nothing is allocated), so that an item of another version is put back together
/// whole and handed to `__dynomodel_upcast`.
pub(super) fn read_item_at<'f, 'a: 'f>(
    fields: impl IntoIterator<Item = &'f Field<'a>>,
    item_version: Option<(&str, u32)>,
) -> TokenStream {
    let fields: Vec<&Field<'_>> = fields.into_iter().collect();
    let stored: Vec<&Field<'_>> = fields.iter().copied().filter(|f| f.stored()).collect();
    if stored.is_empty() && item_version.is_none() {
        let inits = read_inits(fields);
        return quote!(::core::result::Result::Ok(Self { #(#inits,)* }));
    }
    let slot = |i: usize| quote::format_ident!("__dynomodel_slot_{}", i);
    let declare = (0..stored.len()).map(|i| {
        let slot = slot(i);
        quote!(let mut #slot: ::core::option::Option<::dynomodel::AttributeValue> = ::core::option::Option::None;)
    });
    let fill = stored.iter().enumerate().map(|(i, field)| {
        let slot = slot(i);
        let name = &field.name;
        quote! {
            if __name == #name {
                // A name given twice keeps its last value; the earlier one is dropped on that
                // branch only, not through a drop call on every attribute.
                if let ::core::option::Option::Some(__earlier) = ::core::option::Option::replace(&mut #slot, __value) {
                    ::core::mem::drop(__earlier);
                }
                continue;
            }
        }
    });
    let mut next = 0;
    let inits = fields.iter().map(|field| {
        let ident = field.ident;
        if !field.stored() {
            let value = default_value(field);
            return quote!(#ident: #value);
        }
        let slot = slot(next);
        next += 1;
        let name = &field.name;
        let present = from_attribute(field, quote!(__value));
        let missing = from_missing(field);
        quote! {
            #ident: match #slot {
                ::core::option::Option::Some(__value) => #present,
                ::core::option::Option::None => #missing,
            }
            .map_err(|__e| __e.at(#name))?
        }
    });
    // Collected before `quote!` uses them: `inits` counts the slots as it goes.
    let inits: Vec<TokenStream> = inits.collect();
    let Some((attribute, version)) = item_version else {
        return quote!({
            #(#declare)*
            for (__name, __value) in __item {
                #(#fill)*
            }
            ::core::result::Result::Ok(Self { #(#inits,)* })
        });
    };
    let put_back = stored.iter().enumerate().map(|(i, field)| {
        let slot = slot(i);
        let name = &field.name;
        quote! {
            if let ::core::option::Option::Some(__value) = #slot {
                __whole.insert(::dynomodel::__private::String::from(#name), __value);
            }
        }
    });
    quote!({
        #(#declare)*
        let mut __dynomodel_version: ::core::option::Option<::dynomodel::AttributeValue> = ::core::option::Option::None;
        let mut __dynomodel_rest = ::dynomodel::Item::new();
        for (__name, __value) in __item {
            #(#fill)*
            if __name == #attribute {
                __dynomodel_version = ::core::option::Option::Some(__value);
                continue;
            }
            __dynomodel_rest.insert(::dynomodel::__private::String::from(__name), __value);
        }
        let __found = ::dynomodel::__private::item_version_of(__dynomodel_version.as_ref(), #attribute)?;
        if __found != #version {
            let mut __whole = __dynomodel_rest;
            if let ::core::option::Option::Some(__value) = __dynomodel_version {
                __whole.insert(::dynomodel::__private::String::from(#attribute), __value);
            }
            #(#put_back)*
            return __dynomodel_upcast(__found, __whole);
        }
        ::core::result::Result::Ok(Self { #(#inits,)* })
    })
}

/// The `field: value` initializers of [`read_item`], one per field, reading from `__item`.
pub(super) fn read_inits<'f, 'a: 'f>(
    fields: impl IntoIterator<Item = &'f Field<'a>>,
) -> impl Iterator<Item = TokenStream> {
    fields.into_iter().map(|field| {
        let ident = field.ident;
        if !field.stored() {
            let value = default_value(field);
            return quote!(#ident: #value);
        }
        let name = &field.name;
        let present = from_attribute(field, quote!(__value));
        let missing = from_missing(field);
        quote! {
            #ident: match __item.remove(#name) {
                ::core::option::Option::Some(__value) => #present,
                ::core::option::Option::None => #missing,
            }
            .map_err(|__e| __e.at(#name))?
        }
    })
}
