//! `#[derive(Attribute)]`: a newtype stored as its inner value, a unit-only enum stored as its tag (S),
//! and any other enum stored in serde's externally tagged form: a unit variant as its tag (S), a
//! variant with data as a map of one entry, tag → content (newtype: the value; tuple: a list; struct:
//! a map of its fields). With `tag = "type"`, every variant is a map holding its name under that
//! attribute (serde's "internally tagged" form, [`internal`]).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{DeriveInput, Ident, Type};

use crate::attr::Errors;
use crate::check;
use crate::expand::fields;
use crate::ir::enums::{AttrContainer, Kind, Shape, Variant};
use crate::ir::Field;

mod internal;

/// The whole derive: parse, check, then generate (or the errors plus a stub).
pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    let mut errors = Errors::default();
    let container = AttrContainer::from_ast(input, &mut errors);
    if let Some(container) = &container {
        check::enums::check(container, &mut errors);
    }
    match (errors.finish(), container) {
        (Ok(()), Some(container)) => generate(&container),
        (Err(errors), _) => {
            let mut output = errors.to_compile_error();
            if input.generics.params.is_empty() {
                output.extend(stub(&input.ident));
            }
            output
        }
        (Ok(()), None) => TokenStream::new(),
    }
}

fn generate(container: &AttrContainer<'_>) -> TokenStream {
    let ident = container.ident;
    let body = match &container.kind {
        Kind::Newtype(ty) => newtype(ident, ty),
        Kind::Enum(variants) if container.is_unit_enum() => unit_enum(ident, variants),
        Kind::Enum(variants) => match &container.tag {
            Some(tag) => internal::internally_tagged(ident, variants, &tag.value),
            None => data_enum(ident, variants),
        },
    };
    quote! {
        const _: () = {
            /// Expressions compare and store the value as itself.
            #[automatically_derived]
            impl ::dynomodel::expression::FieldValue for #ident {
                type Value = Self;
            }
            #body
        };
    }
}

/// The `Attribute` impl around the given bodies.
pub(super) fn attribute_impl(
    ident: &Ident,
    to: TokenStream,
    from: TokenStream,
    extra: TokenStream,
) -> TokenStream {
    quote! {
        #[automatically_derived]
        impl ::dynomodel::Attribute for #ident {
            fn to_attribute(
                &self,
            ) -> ::core::result::Result<::core::option::Option<::dynomodel::AttributeValue>, ::dynomodel::ConversionError> {
                #to
            }

            fn from_attribute(
                value: ::dynomodel::AttributeValue,
            ) -> ::core::result::Result<Self, ::dynomodel::ConversionError> {
                #from
            }

            #extra
        }
    }
}

/// A newtype: every conversion and marker is the inner type's. The marker impls carry a
/// `for<'__a>` bound so that they are written unconditionally yet hold only when the inner type's
/// do: a plain bound on a concrete type that does not hold is a compile error ("trivial bound"),
/// a higher-ranked one simply leaves the impl inapplicable.
fn newtype(ident: &Ident, ty: &Type) -> TokenStream {
    let attr = quote_spanned!(ty.span()=> <#ty as ::dynomodel::Attribute>);
    let attribute = attribute_impl(
        ident,
        quote!(#attr::to_attribute(&self.0)),
        quote!(#attr::from_attribute(value).map(Self)),
        quote! {
            fn from_missing() -> ::core::result::Result<Self, ::dynomodel::ConversionError> {
                #attr::from_missing().map(Self)
            }

            fn expected() -> ::dynomodel::__private::String {
                #attr::expected()
            }

            fn write_attribute(
                &self,
                name: &'static str,
                sink: &mut dyn ::dynomodel::backend::AttributeSink,
            ) -> ::core::result::Result<(), ::dynomodel::ConversionError> {
                #attr::write_attribute(&self.0, name, sink)
            }
        },
    );
    let markers = [
        quote!(::dynomodel::expression::Ordered),
        quote!(::dynomodel::expression::Prefix),
        quote!(::dynomodel::expression::Numeric),
    ]
    .into_iter()
    .map(|marker| {
        quote! {
            #[automatically_derived]
            #[allow(unused_lifetimes)]
            impl #marker for #ident where for<'__a> #ty: #marker {}
        }
    });
    quote! {
        #attribute
        #[automatically_derived]
        #[allow(unused_lifetimes)]
        impl ::dynomodel::KeyAttribute for #ident where for<'__a> #ty: ::dynomodel::KeyAttribute {
            const SCALAR_TYPE: ::dynomodel::ScalarAttributeType =
                <#ty as ::dynomodel::KeyAttribute>::SCALAR_TYPE;

            fn as_str(&self) -> ::core::option::Option<&str> {
                <#ty as ::dynomodel::KeyAttribute>::as_str(&self.0)
            }
        }
        #(#markers)*
    }
}

/// What a unit-only enum expects: its tags.
pub(super) fn quoted(tags: &[&str]) -> String {
    tags.iter()
        .map(|t| format!("{t:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A unit-only enum: its tag as a string (S), so it can be a key.
fn unit_enum(ident: &Ident, variants: &[Variant<'_>]) -> TokenStream {
    let tags: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    let expected = format!("one of the strings {} ({ident})", quoted(&tags));
    let to_arms: Vec<TokenStream> = variants
        .iter()
        .map(|v| {
            let (variant, tag) = (v.ident, &v.name);
            quote!(Self::#variant => #tag)
        })
        .collect();
    // The variant's tag, a `&'static str`.
    let tag_of = quote!(match self { #(#to_arms,)* });
    let from_arms = variants.iter().map(|v| {
        let (variant, tag) = (v.ident, &v.name);
        quote!(#tag => ::core::result::Result::Ok(Self::#variant))
    });
    let attribute = attribute_impl(
        ident,
        quote! {
            let __tag: &'static str = match self { #(#to_arms,)* };
            ::core::result::Result::Ok(::core::option::Option::Some(
                ::dynomodel::AttributeValue::S(::dynomodel::__private::String::from(__tag)),
            ))
        },
        quote! {
            match value {
                ::dynomodel::AttributeValue::S(__tag) => match __tag.as_str() {
                    #(#from_arms,)*
                    __other => ::core::result::Result::Err(::dynomodel::convert::variant::unknown(
                        <Self as ::dynomodel::Attribute>::expected(), __other, &[#(#tags),*], false,
                    )),
                },
                __other => ::core::result::Result::Err(::dynomodel::ConversionError::new(
                    <Self as ::dynomodel::Attribute>::expected(),
                    __other.type_name(),
                )),
            }
        },
        quote! {
            fn expected() -> ::dynomodel::__private::String {
                ::dynomodel::__private::String::from(#expected)
            }

            fn write_attribute(
                &self,
                name: &'static str,
                sink: &mut dyn ::dynomodel::backend::AttributeSink,
            ) -> ::core::result::Result<(), ::dynomodel::ConversionError> {
                let __tag: &'static str = #tag_of;
                sink.insert_ref(name, ::dynomodel::backend::AttributeRef::S(__tag));
                ::core::result::Result::Ok(())
            }
        },
    );
    quote! {
        #attribute
        #[automatically_derived]
        impl ::dynomodel::KeyAttribute for #ident {
            const SCALAR_TYPE: ::dynomodel::ScalarAttributeType = ::dynomodel::ScalarAttributeType::S;

            fn as_str(&self) -> ::core::option::Option<&str> {
                ::core::option::Option::Some(#tag_of)
            }
        }
    }
}

/// Bindings `__0, __1, ...` for a tuple variant's fields.
fn bindings(n: usize) -> Vec<Ident> {
    (0..n).map(|i| quote::format_ident!("__{}", i)).collect()
}

/// An enum with data: externally tagged.
fn data_enum(ident: &Ident, variants: &[Variant<'_>]) -> TokenStream {
    let tags: Vec<&str> = variants.iter().map(|v| v.name.as_str()).collect();
    let units: Vec<&str> = variants
        .iter()
        .filter(|v| matches!(v.shape, Shape::Unit))
        .map(|v| v.name.as_str())
        .collect();
    let data: Vec<&str> = variants
        .iter()
        .filter(|v| !matches!(v.shape, Shape::Unit))
        .map(|v| v.name.as_str())
        .collect();
    let expected = if units.is_empty() {
        format!("a {ident}: a map of one entry named {}", quoted(&data))
    } else {
        format!(
            "a {ident}: one of the strings {} or a map of one entry named {}",
            quoted(&units),
            quoted(&data)
        )
    };
    let to_arms = variants.iter().map(write_variant);
    let from_arms = variants.iter().map(read_variant);
    let attribute = attribute_impl(
        ident,
        quote! {
            ::core::result::Result::Ok(::core::option::Option::Some(match self { #(#to_arms)* }))
        },
        quote! {
            let (__tag, __content) = ::dynomodel::convert::variant::split(
                value,
                <Self as ::dynomodel::Attribute>::expected,
            )?;
            match (__tag.as_str(), __content) {
                #(#from_arms)*
                (__tag, __content) => ::core::result::Result::Err(::dynomodel::convert::variant::unknown(
                    <Self as ::dynomodel::Attribute>::expected(), __tag, &[#(#tags),*], __content.is_some(),
                )),
            }
        },
        quote! {
            fn expected() -> ::dynomodel::__private::String {
                ::dynomodel::__private::String::from(#expected)
            }
        },
    );
    quote!(#attribute)
}

/// One arm of `to_attribute`'s match, evaluating to the stored `AttributeValue`.
fn write_variant(variant: &Variant<'_>) -> TokenStream {
    let (ident, tag) = (variant.ident, &variant.name);
    let v = quote!(::dynomodel::convert::variant);
    match &variant.shape {
        Shape::Unit => quote! {
            Self::#ident => ::dynomodel::AttributeValue::S(::dynomodel::__private::String::from(#tag)),
        },
        Shape::Newtype(ty) => {
            let to = quote_spanned!(ty.span()=> #v::to_element::<#ty>);
            quote! {
                Self::#ident(__0) => #v::tagged(#tag, #to(__0).map_err(|__e| __e.at(#tag))?),
            }
        }
        Shape::Tuple(types) => {
            let names = bindings(types.len());
            let elements = types.iter().zip(&names).enumerate().map(|(i, (ty, name))| {
                let to = quote_spanned!(ty.span()=> #v::to_element::<#ty>);
                quote!(#to(#name).map_err(|__e| __e.at_index(#i).at(#tag))?)
            });
            quote! {
                Self::#ident(#(#names),*) => #v::tagged(
                    #tag,
                    ::dynomodel::AttributeValue::L(::dynomodel::__private::Vec::from([#(#elements),*])),
                ),
            }
        }
        Shape::Struct(fields) => {
            let stored: Vec<&Field<'_>> = fields.iter().filter(|f| f.stored()).collect();
            let names = stored.iter().map(|f| f.ident);
            let writes = write_fields(fields, Some(tag));
            quote! {
                Self::#ident { #(#names,)* .. } => {
                    #[allow(unused_mut)]
                    let mut __item = ::dynomodel::Item::new();
                    #(#writes)*
                    #v::tagged(#tag, ::dynomodel::AttributeValue::M(__item))
                }
            }
        }
    }
}

/// `field: value` for each field of a struct variant, read from `__item`; errors located at the field
/// (prefixed by `at`, the variant's name, in the externally tagged form).
pub(super) fn read_fields(fields: &[Field<'_>], at: Option<&str>) -> Vec<TokenStream> {
    let prefix = at.map(|tag| quote!(.at(#tag)));
    fields
        .iter()
        .map(|field| {
            let binding = field.ident;
            if !field.stored() {
                let value = fields::default_value(field);
                return quote!(#binding: #value);
            }
            let name = &field.name;
            let present = fields::from_attribute(field, quote!(__value));
            let missing = fields::from_missing(field);
            quote! {
                #binding: match __item.remove(#name) {
                    ::core::option::Option::Some(__value) => #present,
                    ::core::option::Option::None => #missing,
                }
                .map_err(|__e| __e.at(#name)#prefix)?
            }
        })
        .collect()
}

/// Statements inserting a struct variant's stored fields (bound by name) into `__item`.
pub(super) fn write_fields(fields: &[Field<'_>], at: Option<&str>) -> Vec<TokenStream> {
    let prefix = at.map(|tag| quote!(.at(#tag)));
    fields
        .iter()
        .filter(|f| f.stored())
        .map(|field| {
            let (binding, name) = (field.ident, &field.name);
            let value = fields::to_attribute(field, quote!(#binding));
            quote! {
                if let ::core::option::Option::Some(__value) =
                    #value.map_err(|__e| __e.at(#name)#prefix)?
                {
                    __item.insert(::dynomodel::__private::String::from(#name), __value);
                }
            }
        })
        .collect()
}

/// One arm of `from_attribute`'s match on `(tag, content)`.
fn read_variant(variant: &Variant<'_>) -> TokenStream {
    let (ident, tag) = (variant.ident, &variant.name);
    let v = quote!(::dynomodel::convert::variant);
    match &variant.shape {
        Shape::Unit => quote! {
            (#tag, ::core::option::Option::None) => ::core::result::Result::Ok(Self::#ident),
        },
        Shape::Newtype(ty) => {
            let from = quote_spanned!(ty.span()=> #v::element::<#ty>);
            quote! {
                (#tag, __content @ ::core::option::Option::Some(_)) => ::core::result::Result::Ok(
                    Self::#ident(#from(__content).map_err(|__e| __e.at(#tag))?),
                ),
            }
        }
        Shape::Tuple(types) => {
            let len = types.len();
            let elements = types.iter().enumerate().map(|(i, ty)| {
                let from = quote_spanned!(ty.span()=> #v::element::<#ty>);
                quote!(#from(__list.next()).map_err(|__e| __e.at_index(#i).at(#tag))?)
            });
            quote! {
                (#tag, ::core::option::Option::Some(__content)) => {
                    #[allow(unused_mut, unused_variables)]
                    let mut __list = #v::list(__content, #tag, #len)?;
                    ::core::result::Result::Ok(Self::#ident(#(#elements),*))
                }
            }
        }
        Shape::Struct(fields) => {
            let inits = read_fields(fields, Some(tag));
            quote! {
                (#tag, ::core::option::Option::Some(__content)) => {
                    #[allow(unused_mut, unused_variables)]
                    let mut __item = #v::map(__content, #tag)?;
                    ::core::result::Result::Ok(Self::#ident { #(#inits,)* })
                }
            }
        }
    }
}

/// After a compile error: `Attribute` with bodies that never run, so uses of the type do not add
/// follow-on errors.
fn stub(ident: &Ident) -> TokenStream {
    let attribute = super::stub::attribute_stub(ident);
    quote! {
        const _: () = {
            #attribute
        };
    }
}
