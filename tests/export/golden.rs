//! The exports compared with `expected/<example>.{cfn.json,tf,json}`. `UPDATE_EXPECTED=1` rewrites
//! the files (read the diff before committing it).

use std::path::PathBuf;

use dynomodel::migrate::{Definition, Format, Models};

use crate::models::{examples, Order, User, UserData};

fn expected_path(example: &str, format: Format) -> PathBuf {
    let extension = match format {
        Format::CloudFormation => "cfn.json",
        Format::Terraform => "tf",
        _ => "json",
    };
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("export/expected")
        .join(format!("{example}.{extension}"))
}

#[test]
fn exports_match_the_expected_files() {
    let update = std::env::var_os("UPDATE_EXPECTED").is_some();
    let mut stale = Vec::new();
    for (example, models) in examples() {
        for format in [Format::CloudFormation, Format::Terraform, Format::ApiJson] {
            let actual = models.export(format).unwrap();
            let path = expected_path(example, format);
            if update {
                std::fs::write(&path, &actual).unwrap();
                continue;
            }
            let expected = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            if actual != expected {
                stale.push(format!("{}:\n{actual}", path.display()));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "exports differ from the expected files (UPDATE_EXPECTED=1 rewrites them):\n{}",
        stale.join("\n")
    );
}

#[test]
fn models_of_one_table_merge_as_their_collection_does() {
    let one_by_one = Models::new()
        .with::<User>()
        .with::<Order>()
        .with::<crate::models::OrderLine>()
        .definitions()
        .unwrap();
    assert_eq!(one_by_one, [UserData::definition().unwrap()]);
    // The same text either way.
    let collection = Models::new().with_collection::<UserData>();
    assert_eq!(
        collection.cloudformation().unwrap(),
        Models::new()
            .with::<User>()
            .with::<Order>()
            .with::<crate::models::OrderLine>()
            .cloudformation()
            .unwrap()
    );
}

#[test]
fn models_of_one_table_that_disagree_are_named() {
    let mut one = Definition::of::<User>();
    one.ttl_attribute = Some("expires".into());
    let mut other = Definition::of::<Order>();
    other.ttl_attribute = Some("gone".into());
    let err = Models::new()
        .with_definition("Order", one)
        .with_definition("Ghost", other)
        .terraform()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "SchemaConflict: app: `Order` and `Ghost` declare the time to live attribute of table `app` differently"
    );
}

use dynomodel::Collection as _;
