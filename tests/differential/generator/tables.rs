//! The run's tables: key schemas with random key types, and on some tables LSIs and GSIs with random
//! projections (ALL, KEYS_ONLY, INCLUDE), hash-only and hash+range GSIs, and sparse index keys.

use dynomodel::backend::{
    AttributeDefinition, BillingMode, CreateTableInput, GlobalSecondaryIndex, KeySchemaElement,
    LocalSecondaryIndex, Projection, ProjectionType, ScalarAttributeType,
};

use super::items::SCALARS;
use super::{IndexSpec, TableSpec};
use crate::rng::Rng;

/// Attribute names that only index keys use; items carry them most of the time (sparse indexes).
const INDEX_ATTRIBUTES: [&str; 3] = ["ia", "ib", "ic"];
/// Non-key attributes an INCLUDE projection may name (from the item generator's names).
const INCLUDABLE: [&str; 5] = ["a", "b", "name", "list", "x.y"];

/// Table 0: hash-only without indexes (the only one with items near 400 KB, so Scan pages reach 1 MB);
/// tables 1 and 2: hash+range with LSIs and GSIs; table 3: hash-only with GSIs.
pub(crate) fn tables(rng: &mut Rng) -> Vec<TableSpec> {
    let mut specs = vec![TableSpec {
        hash: ("pk".into(), *rng.pick(&SCALARS)),
        range: None,
        indexes: vec![],
        index_attributes: vec![],
        big_items: true,
    }];
    for n in 0..3 {
        let range = (n < 2).then(|| ("sk".to_owned(), *rng.pick(&SCALARS)));
        let mut spec = TableSpec {
            hash: ("pk".into(), *rng.pick(&SCALARS)),
            range,
            indexes: vec![],
            index_attributes: vec![],
            big_items: false,
        };
        let types: Vec<ScalarAttributeType> = INDEX_ATTRIBUTES
            .iter()
            .map(|_| *rng.pick(&SCALARS))
            .collect();
        let attribute = |i: usize| (INDEX_ATTRIBUTES[i].to_owned(), types[i]);
        if spec.range.is_some() {
            for l in 0..rng.below(3) {
                // An LSI shares the table's partition key; its sort key is an index-only attribute.
                let range = attribute(rng.below(3));
                if spec
                    .indexes
                    .iter()
                    .any(|i| i.range.as_ref() == Some(&range))
                {
                    continue;
                }
                spec.indexes.push(index(
                    rng,
                    format!("lsi{l}"),
                    false,
                    spec.hash.clone(),
                    Some(range),
                ));
            }
        }
        let gsis = if spec.indexes.is_empty() {
            1 + rng.below(2)
        } else {
            rng.below(3)
        };
        for g in 0..gsis {
            // Any attribute can key a GSI, the table's own keys included (in another role).
            let mut candidates: Vec<(String, ScalarAttributeType)> =
                (0..3).map(attribute).collect();
            candidates.extend(spec.range.clone());
            let hash = candidates.remove(rng.below(candidates.len()));
            if spec.range.is_none() || rng.chance(30) {
                candidates.push(spec.hash.clone());
            }
            let range = rng
                .chance(60)
                .then(|| candidates[rng.below(candidates.len())].clone());
            spec.indexes
                .push(index(rng, format!("gsi{g}"), true, hash, range));
        }
        for (i, name) in INDEX_ATTRIBUTES.iter().enumerate() {
            let used = spec
                .indexes
                .iter()
                .any(|x| x.hash.0 == *name || x.range.as_ref().is_some_and(|r| r.0 == *name));
            if used {
                spec.index_attributes.push(attribute(i));
            }
        }
        specs.push(spec);
    }
    specs
}

fn index(
    rng: &mut Rng,
    name: String,
    global: bool,
    hash: (String, ScalarAttributeType),
    range: Option<(String, ScalarAttributeType)>,
) -> IndexSpec {
    let (projection, include) = match rng.below(3) {
        0 => (ProjectionType::All, vec![]),
        1 => (ProjectionType::KeysOnly, vec![]),
        _ => {
            let mut include: Vec<String> = Vec::new();
            for _ in 0..1 + rng.below(3) {
                let name = (*rng.pick(&INCLUDABLE)).to_owned();
                if !include.contains(&name) {
                    include.push(name);
                }
            }
            (ProjectionType::Include, include)
        }
    };
    IndexSpec {
        name,
        global,
        hash,
        range,
        projection,
        include,
    }
}

impl TableSpec {
    pub(crate) fn create_input(&self, table_name: &str) -> CreateTableInput {
        let mut attribute_definitions: Vec<AttributeDefinition> = Vec::new();
        let mut define = |(name, ty): &(String, ScalarAttributeType)| {
            if !attribute_definitions
                .iter()
                .any(|d| &d.attribute_name == name)
            {
                attribute_definitions.push(AttributeDefinition {
                    attribute_name: name.clone(),
                    attribute_type: *ty,
                });
            }
        };
        define(&self.hash);
        self.range.iter().for_each(&mut define);
        for index in &self.indexes {
            define(&index.hash);
            index.range.iter().for_each(&mut define);
        }
        let key_schema = |hash: &str, range: Option<&(String, ScalarAttributeType)>| {
            let mut schema = vec![KeySchemaElement::hash(hash)];
            schema.extend(range.map(|(name, _)| KeySchemaElement::range(name)));
            schema
        };
        let projection = |index: &IndexSpec| Projection {
            projection_type: index.projection,
            non_key_attributes: index.include.clone(),
        };
        CreateTableInput {
            table_name: table_name.to_owned(),
            key_schema: key_schema(&self.hash.0, self.range.as_ref()),
            attribute_definitions,
            billing_mode: Some(BillingMode::PayPerRequest),
            local_secondary_indexes: self
                .indexes
                .iter()
                .filter(|i| !i.global)
                .map(|i| LocalSecondaryIndex {
                    index_name: i.name.clone(),
                    key_schema: key_schema(&i.hash.0, i.range.as_ref()),
                    projection: projection(i),
                })
                .collect(),
            global_secondary_indexes: self
                .indexes
                .iter()
                .filter(|i| i.global)
                .map(|i| GlobalSecondaryIndex {
                    index_name: i.name.clone(),
                    key_schema: key_schema(&i.hash.0, i.range.as_ref()),
                    projection: projection(i),
                    provisioned_throughput: None,
                })
                .collect(),
            ..Default::default()
        }
    }

    /// Every key attribute of the table and its indexes.
    pub(crate) fn key_names(&self) -> Vec<String> {
        let mut names = vec![self.hash.0.clone()];
        names.extend(self.range.iter().map(|r| r.0.clone()));
        names.extend(self.index_attributes.iter().map(|a| a.0.clone()));
        names
    }
}
