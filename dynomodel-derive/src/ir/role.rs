//! The role of each generated handle (`dynomodel::expression::role`): whether the attribute is a
//! table key (update actions refuse its handle) and whether it sorts the table or an index (its
//! comparisons are the sort-key conditions `.range(..)` takes). Both come from the key schema
//! alone.

use crate::ir::{Container, Derive, KeyRef, KeyRole};

/// What a handle's attribute is in the key schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HandleRole {
    /// The table's hash or range key.
    pub table_key: bool,
    /// The table's range key, or the sort key of a secondary index.
    pub sorts: bool,
}

impl HandleRole {
    /// The `dynomodel::expression::role` type.
    pub(crate) fn type_name(self) -> &'static str {
        match (self.table_key, self.sorts) {
            (false, false) => "Attr",
            (false, true) => "Sort",
            (true, false) => "Key",
            (true, true) => "KeySort",
        }
    }
}

impl Container<'_> {
    /// The role of the handle of the field at `position`.
    pub(crate) fn field_role(&self, position: usize) -> HandleRole {
        let Some(field) = self.fields.get(position) else {
            return HandleRole {
                table_key: false,
                sorts: false,
            };
        };
        if self.derive == Derive::Document {
            return HandleRole {
                table_key: false,
                sorts: false,
            };
        }
        let range_key = matches!(field.key, Some((KeyRole::Range, _)));
        let sorts_index = self
            .indexes
            .iter()
            .any(|index| matches!(index.range, Some((p, _)) if p == position))
            || self.sorts_composite_index(KeyRef::Field(position));
        HandleRole {
            table_key: field.key.is_some(),
            sorts: range_key || sorts_index,
        }
    }

    /// The role of the handle of the composite at `position` in `composites`.
    pub(crate) fn composite_role(&self, position: usize) -> HandleRole {
        let role = self.composites.get(position).and_then(|c| c.role);
        HandleRole {
            table_key: role.is_some(),
            sorts: matches!(role, Some((KeyRole::Range, _)))
                || self.sorts_composite_index(KeyRef::Composite(position)),
        }
    }

    fn sorts_composite_index(&self, key: KeyRef) -> bool {
        self.composite_indexes
            .iter()
            .any(|index| index.range == Some(key))
    }
}

#[cfg(test)]
mod tests {
    use syn::{parse_quote, DeriveInput};

    use super::*;
    use crate::attr::Errors;

    fn roles(input: &DeriveInput) -> Vec<(String, &'static str)> {
        let mut errors = Errors::default();
        let container = Container::from_ast(input, Derive::Model, &mut errors).expect("a struct");
        let mut out: Vec<(String, &'static str)> = (0..container.fields.len())
            .map(|i| {
                let name = container.fields[i].ident.to_string();
                (name, container.field_role(i).type_name())
            })
            .collect();
        out.extend((0..container.composites.len()).map(|i| {
            let name = container.composites[i].name.clone();
            (name, container.composite_role(i).type_name())
        }));
        out
    }

    fn pairs(expected: &[(&str, &'static str)]) -> Vec<(String, &'static str)> {
        expected
            .iter()
            .map(|(n, r)| ((*n).to_owned(), *r))
            .collect()
    }

    #[test]
    fn keys_and_sort_keys_of_plain_fields() {
        let input: DeriveInput = parse_quote! {
            #[global_index(all("by-city", hash = city, range = userid))]
            #[global_index(keys("by-text", hash = text))]
            struct Tweet {
                #[hash_key] userid: String,
                #[range_key] id: String,
                city: String,
                #[index(all = "by-likes")] likes: i64,
                text: String,
            }
        };
        assert_eq!(
            roles(&input),
            pairs(&[
                ("userid", "KeySort"),
                ("id", "KeySort"),
                ("city", "Attr"),
                ("likes", "Sort"),
                ("text", "Attr"),
            ])
        );
    }

    #[test]
    fn hash_only_table() {
        let input: DeriveInput = parse_quote! {
            struct User { #[hash_key] id: String, name: String }
        };
        assert_eq!(roles(&input), pairs(&[("id", "Key"), ("name", "Attr")]));
    }

    #[test]
    fn composites_and_the_fields_their_indexes_sort_by() {
        let input: DeriveInput = parse_quote! {
            #[composite(pk = ("USER", userid), hash_key)]
            #[composite(sk = ("ORDER", id), range_key)]
            #[composite(gsk = ("DAY", day))]
            #[composite(other = ("X", day))]
            #[global_index(all("by-day", hash = pk, range = gsk))]
            #[global_index(all("by-total", hash = status, range = total))]
            #[global_index(keys("by-status", hash = status, range = pk))]
            struct Order { userid: String, id: u32, day: String, status: String, total: u64 }
        };
        assert_eq!(
            roles(&input),
            pairs(&[
                ("userid", "Attr"),
                ("id", "Attr"),
                ("day", "Attr"),
                ("status", "Attr"),
                ("total", "Sort"),
                ("pk", "KeySort"),
                ("sk", "KeySort"),
                ("gsk", "Sort"),
                ("other", "Attr"),
            ])
        );
    }
}
