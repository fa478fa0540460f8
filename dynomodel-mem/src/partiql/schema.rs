//! What the planner needs to know of a table, read through DescribeTable, and the statement parse with
//! its parameter count check.

use std::collections::BTreeMap;

use dynomodel::{
    AttributeValue, Backend, DescribeTableInput, Error, Item, Result, ScalarAttributeType,
};

use super::ast::{Expr, Statement};
use super::errors;
use super::plan::{full_key, Gen, KeyNames};

/// What the planner needs of a table: its keys, its indexes' keys, its key attributes' types.
#[derive(Debug, Clone)]
pub(crate) struct Schema {
    /// The table's name.
    pub(crate) table: String,
    /// The table's key.
    pub(crate) keys: KeyNames,
    /// Each index's key, by name.
    pub(crate) indexes: BTreeMap<String, KeyNames>,
    /// The declared type of each key attribute.
    types: BTreeMap<String, ScalarAttributeType>,
}

impl Schema {
    /// The schema of `table`, `ResourceNotFoundException` when there is none.
    pub(crate) async fn load(backend: &dyn Backend, table: &str) -> Result<Schema> {
        let out = backend
            .describe_table(DescribeTableInput {
                table_name: table.to_owned(),
            })
            .await
            .map_err(|e| match e {
                Error::ResourceNotFound { .. } => errors::no_table(),
                other => other,
            })?;
        let t = out.table;
        let mut indexes = BTreeMap::new();
        for g in &t.global_secondary_indexes {
            indexes.insert(g.index_name.clone(), KeyNames::of(&g.key_schema));
        }
        for l in &t.local_secondary_indexes {
            indexes.insert(l.index_name.clone(), KeyNames::of(&l.key_schema));
        }
        Ok(Schema {
            table: t.table_name,
            keys: KeyNames::of(&t.key_schema),
            indexes,
            types: t
                .attribute_definitions
                .iter()
                .map(|d| (d.attribute_name.clone(), d.attribute_type))
                .collect(),
        })
    }

    /// Checks that the key values in `item` have their declared types.
    pub(crate) fn check_types(&self, item: &Item) -> Result<()> {
        for (name, value) in item {
            let expected = match self.types.get(name) {
                Some(ScalarAttributeType::S) => "S",
                Some(ScalarAttributeType::N) => "N",
                Some(ScalarAttributeType::B) => "B",
                None => continue,
            };
            if value.type_name() != expected {
                return Err(errors::key_type(name));
            }
        }
        Ok(())
    }

    /// The full primary key fixed by `filter`, and the other terms; the key-equality error otherwise.
    pub(crate) fn key<'e>(&self, ph: &Gen<'_>, filter: &'e Expr) -> Result<(Item, Vec<&'e Expr>)> {
        let (key, rest) = full_key(ph, &self.keys, filter)?
            .ok_or_else(|| Error::validation(errors::KEY_EQUALITY))?;
        self.check_types(&key)?;
        Ok((key, rest))
    }
}

/// Parses `source` and checks its `?` count against `params`.
pub(crate) fn parse(source: &str, params: &[AttributeValue]) -> Result<Statement> {
    let (statement, count) = super::parser::parse(source).map_err(|e| errors::malformed(&e.0))?;
    if count != params.len() {
        return Err(Error::validation(errors::PARAMETER_COUNT));
    }
    Ok(statement)
}
