//! `#[derive(Collection)]`: an enum of the models sharing one table, one tuple variant per model
//! (`User(User)`), and optionally one `#[dynomodel(unknown)] Unknown(dynomodel::Item)` variant
//! receiving items of entity types no member declares.
//!
//! What the derive cannot see (the members' constants) is checked by generated `const` assertions,
//! so a member without an entity type, in another table, with other key names or another entity
//! attribute, or two members with one entity type, are compile errors naming the models.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned as _;
use syn::{Data, DeriveInput, Fields, Ident, Type};

use crate::attr::Errors;

struct Member<'a> {
    variant: &'a Ident,
    ty: &'a Type,
}

/// The expansion (or the errors, with no impl).
pub(crate) fn derive(input: &DeriveInput) -> TokenStream {
    let mut errors = Errors::default();
    let (members, unknown) = parse(input, &mut errors);
    if let Err(errors) = errors.finish() {
        return errors.to_compile_error();
    }
    generate(input, &members, unknown)
}

fn parse<'a>(input: &'a DeriveInput, errors: &mut Errors) -> (Vec<Member<'a>>, Option<&'a Ident>) {
    let mut members = Vec::new();
    let mut unknown = None;
    let Data::Enum(data) = &input.data else {
        errors.at(
            input.ident.span(),
            "`#[derive(Collection)]` needs an enum with one variant per model: `enum UserData { User(User), Order(Order) }`",
        );
        return (members, unknown);
    };
    if !input.generics.params.is_empty() {
        errors.at(
            syn::spanned::Spanned::span(&input.generics),
            "`#[derive(Collection)]` does not support generic enums: the members are fixed models",
        );
    }
    for variant in &data.variants {
        let is_unknown = match unknown_attr(variant) {
            Ok(flag) => flag,
            Err(e) => {
                errors.push(e);
                false
            }
        };
        let ty = match &variant.fields {
            Fields::Unnamed(fields) if fields.unnamed.len() == 1 => &fields.unnamed[0].ty,
            _ => {
                errors.at(
                    variant.ident.span(),
                    format!(
                        "variant `{}` must hold exactly one model, as in `{}(MyModel)`",
                        variant.ident, variant.ident
                    ),
                );
                continue;
            }
        };
        if is_unknown {
            if unknown.is_some() {
                errors.at(
                    variant.ident.span(),
                    "only one variant can be `#[dynomodel(unknown)]`",
                );
            }
            unknown = Some(&variant.ident);
        } else {
            members.push(Member {
                variant: &variant.ident,
                ty,
            });
        }
    }
    if members.is_empty() {
        errors.at(
            input.ident.span(),
            "a collection needs at least one model variant, as in `User(User)`",
        );
    }
    (members, unknown)
}

/// Whether the variant carries `#[dynomodel(unknown)]` (the only variant option).
fn unknown_attr(variant: &syn::Variant) -> syn::Result<bool> {
    let mut unknown = false;
    for attr in &variant.attrs {
        if !attr.path().is_ident("dynomodel") {
            continue;
        }
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("unknown") {
                unknown = true;
                Ok(())
            } else {
                Err(meta.error(
                    "unknown collection variant option; expected `unknown` (the variant receiving items of unknown entity types)",
                ))
            }
        })?;
    }
    Ok(unknown)
}

fn generate(input: &DeriveInput, members: &[Member<'_>], unknown: Option<&Ident>) -> TokenStream {
    let Some(root) = members.first() else {
        return TokenStream::new();
    };
    let ident = &input.ident;
    let name = ident.to_string();
    let root_ty = root.ty;
    let model = |ty: &Type| quote!(<#ty as ::dynomodel::Model>);
    let root_model = model(root_ty);
    let definitions = members.iter().map(|m| {
        let ty = m.ty;
        let label = type_label(ty);
        quote!((#label, ::dynomodel::migrate::Definition::of::<#ty>()))
    });
    let arms = members.iter().map(|m| {
        let (variant, ty) = (m.variant, m.ty);
        let member = model(ty);
        quote! {
            ::core::option::Option::Some(__entity)
                if ::core::option::Option::Some(__entity) == #member::ENTITY_TYPE =>
            {
                #member::from_item(item).map(Self::#variant)
            }
        }
    });
    let known = members.iter().map(|m| {
        let member = model(m.ty);
        quote!(#member::ENTITY_TYPE.unwrap_or(""))
    });
    let fallback = match unknown {
        Some(variant) => quote!(::core::result::Result::Ok(Self::#variant(item))),
        None => quote! {
            ::core::result::Result::Err(::dynomodel::__private::unknown_entity(
                &item, __attribute, #name, &[#(#known,)*],
            ))
        },
    };
    let positions = members
        .iter()
        .map(|m| m.variant)
        .chain(unknown)
        .map(|variant| quote!(Self::#variant(__value) => ::dynomodel::KeyAttributes::key_attributes(__value, __names),));
    let asserts = assertions(&name, members);
    // `Db::get_collection` takes the key of any member (and only of a member).
    let keys = members.iter().map(|m| {
        let ty = m.ty;
        quote_spanned! {ty.span()=>
            #[automatically_derived]
            impl ::dynomodel::CollectionKey<#ident> for <#ty as ::dynomodel::Model>::Key {}
        }
    });
    quote! {
        #(#keys)*

        #[automatically_derived]
        impl ::dynomodel::Collection for #ident {
            type Root = #root_ty;
            const NAME: &'static str = #name;

            fn members() -> ::dynomodel::__private::Vec<(&'static str, ::dynomodel::migrate::Definition)> {
                ::dynomodel::__private::Vec::from([#(#definitions,)*])
            }

            fn from_item(
                item: ::dynomodel::Item,
            ) -> ::core::result::Result<Self, ::dynomodel::ConversionError> {
                let __attribute = #root_model::ENTITY_ATTRIBUTE;
                match ::dynomodel::entity_of(&item, __attribute) {
                    #(#arms)*
                    _ => #fallback,
                }
            }
        }

        #[automatically_derived]
        impl ::dynomodel::KeyAttributes for #ident {
            fn key_attributes(
                &self,
                __names: &[&str],
            ) -> ::core::result::Result<::dynomodel::Item, ::dynomodel::ConversionError> {
                match self {
                    #(#positions)*
                }
            }
        }

        const _: () = {
            #(#asserts)*
        };
    }
}

/// The compile-time checks on the members' constants, each with a message naming the models.
fn assertions(collection: &str, members: &[Member<'_>]) -> Vec<TokenStream> {
    let mut out = Vec::new();
    let model = |ty: &Type| quote!(<#ty as ::dynomodel::Model>);
    let Some(root) = members.first() else {
        return out;
    };
    let root_label = type_label(root.ty);
    let root_model = model(root.ty);
    for member in members {
        let label = type_label(member.ty);
        let this = model(member.ty);
        let message = format!(
            "`{label}` in collection `{collection}` declares no entity type: add `#[dynomodel(entity = \"{label}\")]`"
        );
        out.push(quote!(::core::assert!(#this::ENTITY_TYPE.is_some(), #message);));
        if std::ptr::eq(member, root) {
            continue;
        }
        let same = |what: &str| {
            format!("`{root_label}` and `{label}` in collection `{collection}` declare different {what}")
        };
        let (table, hash, range, attribute) = (
            same("tables"),
            same("hash key attributes"),
            same("range key attributes"),
            same("entity attributes"),
        );
        let shape = format!(
            "`{root_label}` and `{label}` in collection `{collection}` write their hash keys differently (another \
             composite prefix, separator or number of parts, or a composite and a field): a collection reads one \
             partition, so every member needs the same hash key"
        );
        let (root_ty, ty) = (root.ty, member.ty);
        // The value a collection query takes is encoded by the first member: another member whose
        // hash key takes another type would write another text for "the same" value.
        out.push(quote_spanned! {ty.span()=>
            ::dynomodel::__private::same_hash::<<#ty as ::dynomodel::Model>::Hash, <#root_ty as ::dynomodel::Model>::Hash>();
        });
        out.push(quote! {
            ::core::assert!(::dynomodel::__private::str_eq(#root_model::TABLE_NAME, #this::TABLE_NAME), #table);
            ::core::assert!(::dynomodel::__private::str_eq(#root_model::HASH_KEY, #this::HASH_KEY), #hash);
            ::core::assert!(::dynomodel::__private::opt_str_eq(#root_model::RANGE_KEY, #this::RANGE_KEY), #range);
            ::core::assert!(::dynomodel::__private::str_eq(#root_model::ENTITY_ATTRIBUTE, #this::ENTITY_ATTRIBUTE), #attribute);
            ::core::assert!(::dynomodel::__private::str_eq(#root_model::HASH_KEY_SHAPE, #this::HASH_KEY_SHAPE), #shape);
        });
    }
    for (i, a) in members.iter().enumerate() {
        for b in &members[i + 1..] {
            let (la, lb) = (type_label(a.ty), type_label(b.ty));
            let message = format!(
                "`{la}` and `{lb}` in collection `{collection}` declare the same entity type: each member needs its own"
            );
            let (ma, mb) = (model(a.ty), model(b.ty));
            out.push(quote! {
                ::core::assert!(
                    !::dynomodel::__private::opt_str_eq(#ma::ENTITY_TYPE, #mb::ENTITY_TYPE),
                    #message
                );
            });
        }
    }
    out
}

/// The model's name for messages: the type as written, without spaces.
fn type_label(ty: &Type) -> String {
    quote!(#ty).to_string().replace(' ', "")
}
