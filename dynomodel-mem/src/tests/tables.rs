//! CreateTable, DescribeTable, ListTables and DeleteTable.

use dynomodel::backend::{
    Backend, BillingMode, CreateTableInput, DeleteTableInput, DescribeTableInput,
    GlobalSecondaryIndex, KeySchemaElement, ListTablesInput, LocalSecondaryIndex, Projection,
    ProjectionType, ProvisionedThroughput, ScalarAttributeType as T, TableDescription, TableStatus,
};
use dynomodel::Error;

use super::{assert_validation, backend_with, def, table_input, INVALID};
use crate::MemBackend;

fn pt(r: i64, w: i64) -> Option<ProvisionedThroughput> {
    Some(ProvisionedThroughput {
        read_capacity_units: r,
        write_capacity_units: w,
    })
}

fn projection(ty: ProjectionType, attrs: &[&str]) -> Projection {
    Projection {
        projection_type: ty,
        non_key_attributes: attrs.iter().map(|a| (*a).to_owned()).collect(),
    }
}

fn lsi(name: &str, range: &str) -> LocalSecondaryIndex {
    LocalSecondaryIndex {
        index_name: name.into(),
        key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range(range)],
        projection: projection(ProjectionType::All, &[]),
    }
}

fn gsi(name: &str, hash: &str) -> GlobalSecondaryIndex {
    GlobalSecondaryIndex {
        index_name: name.into(),
        key_schema: vec![KeySchemaElement::hash(hash)],
        projection: projection(ProjectionType::KeysOnly, &[]),
        provisioned_throughput: None,
    }
}

async fn create(input: CreateTableInput) -> Result<(), Error> {
    MemBackend::new().create_table(input).await.map(|_| ())
}

#[tokio::test]
async fn create_describe_delete() {
    let backend = MemBackend::new();
    let mut input = table_input("things", T::S, Some(T::N));
    input.billing_mode = None;
    input.provisioned_throughput = pt(5, 2);
    let created = backend.create_table(input).await.expect("create");
    let d = created.table_description;
    // CreateTable's response says CREATING even when the table is usable at once.
    assert_eq!(d.table_status, TableStatus::Creating);
    assert_eq!(
        d.table_arn,
        "arn:aws:dynamodb:ddblocal:000000000000:table/things"
    );
    assert_eq!(d.provisioned_throughput.read_capacity_units, 5);
    assert_eq!(d.provisioned_throughput.write_capacity_units, 2);
    assert_eq!(d.table_id.len(), 36);

    let described = backend
        .describe_table(DescribeTableInput {
            table_name: "things".into(),
        })
        .await
        .expect("describe")
        .table;
    assert_eq!(described.table_status, TableStatus::Active);
    assert_eq!(
        TableDescription {
            table_status: TableStatus::Creating,
            ..described
        },
        d
    );

    let again = backend
        .create_table(table_input("things", T::S, None))
        .await
        .expect_err("exists");
    assert_eq!(
        again,
        Error::ResourceInUse {
            message: "Table already exists: things".into()
        }
    );

    let deleted = backend
        .delete_table(DeleteTableInput {
            table_name: "things".into(),
        })
        .await
        .expect("delete")
        .table_description;
    assert_eq!(deleted.table_status, TableStatus::Deleting);
    for r in [
        backend
            .describe_table(DescribeTableInput {
                table_name: "things".into(),
            })
            .await
            .map(|_| ()),
        backend
            .delete_table(DeleteTableInput {
                table_name: "things".into(),
            })
            .await
            .map(|_| ()),
    ] {
        assert_eq!(
            r,
            Err(Error::resource_not_found(
                "Requested resource not found: Table: things not found"
            ))
        );
    }
}

#[tokio::test]
async fn table_names() {
    // CreateTable: the `TableName` shape's constraints, alone and before anything else (the
    // conformance suite's capture of `ab`).
    let constraint = |value: &str, rule: &str| {
        format!("Value '{value}' at 'tableName' failed to satisfy constraint: Member must {rule}")
    };
    let pattern = "satisfy regular expression pattern: [a-zA-Z0-9_.-]+";
    assert_validation(
        create(table_input("ab", T::S, None)).await,
        &format!(
            "1 validation error detected: {}",
            constraint("ab", "have length greater than or equal to 3")
        ),
    );
    let long = "a".repeat(256);
    assert_validation(
        create(table_input(&long, T::S, None)).await,
        &format!(
            "1 validation error detected: {}",
            constraint(&long, "have length less than or equal to 255")
        ),
    );
    assert!(create(table_input(&"a".repeat(255), T::S, None))
        .await
        .is_ok());
    assert_validation(
        create(table_input("ab;c", T::S, None)).await,
        &format!(
            "1 validation error detected: {}",
            constraint("ab;c", pattern)
        ),
    );
    // Only the name's errors, even with an empty key schema beside it.
    for (name, errors) in [
        (
            "",
            vec![
                constraint("", "have length greater than or equal to 3"),
                constraint("", pattern),
            ],
        ),
        (
            "x!",
            vec![
                constraint("x!", "have length greater than or equal to 3"),
                constraint("x!", pattern),
            ],
        ),
    ] {
        let mut input = table_input(name, T::S, None);
        input.key_schema.clear();
        assert_validation(
            create(input).await,
            &format!("2 validation errors detected: {}", errors.join("; ")),
        );
    }
    // DescribeTable keeps the service's own sentence (dynalite's recording).
    let length = "TableName must be at least 3 characters long and at most 255 characters long";
    let backend = MemBackend::new();
    let r = backend
        .describe_table(DescribeTableInput {
            table_name: "x".into(),
        })
        .await;
    assert_validation(r, length);
}

#[tokio::test]
async fn key_schema_rules() {
    let mut i = table_input("tbl", T::S, Some(T::S));
    i.key_schema.reverse();
    assert_validation(
        create(i).await,
        "Invalid KeySchema: The first KeySchemaElement is not a HASH key type",
    );
    let mut i = table_input("tbl", T::S, Some(T::S));
    i.key_schema = vec![KeySchemaElement::hash("pk"), KeySchemaElement::hash("sk")];
    assert_validation(
        create(i).await,
        "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type",
    );
    let mut i = table_input("tbl", T::S, None);
    i.key_schema.push(KeySchemaElement::range("pk"));
    i.attribute_definitions.push(def("zz", T::S));
    assert_validation(
        create(i).await,
        "Both the Hash Key and the Range Key element in the KeySchema have the same name",
    );
    let mut i = table_input("tbl", T::S, None);
    i.key_schema.clear();
    assert_validation(
        create(i).await,
        "1 validation error detected: Value '[]' at 'keySchema' failed to satisfy constraint: \
         Member must have length greater than or equal to 1",
    );
    let mut i = table_input("tbl", T::S, Some(T::S));
    i.key_schema.push(KeySchemaElement::range("x"));
    assert_validation(
        create(i).await,
        "1 validation error detected: Value '[KeySchemaElement(attributeName=pk, keyType=HASH), \
         KeySchemaElement(attributeName=sk, keyType=RANGE), KeySchemaElement(attributeName=x, \
         keyType=RANGE)]' at 'keySchema' failed to satisfy constraint: Member must have length less \
         than or equal to 2",
    );
}

#[tokio::test]
async fn attribute_definition_rules() {
    let mut i = table_input("tbl", T::S, None);
    i.attribute_definitions.push(def("extra", T::N));
    assert_validation(
        create(i).await,
        &format!(
            "{INVALID}Number of attributes in KeySchema does not exactly match number of attributes \
             defined in AttributeDefinitions"
        ),
    );
    let mut i = table_input("tbl", T::S, None);
    i.attribute_definitions = vec![def("other", T::S)];
    assert_validation(
        create(i).await,
        &format!(
            "{INVALID}Some index key attributes are not defined in AttributeDefinitions. Keys: [pk], \
             AttributeDefinitions: [other]"
        ),
    );
    let mut i = table_input("tbl", T::S, None);
    i.attribute_definitions.clear();
    assert_validation(
        create(i).await,
        "Invalid KeySchema: Some index key attribute have no definition",
    );
    let mut i = table_input("tbl", T::S, None);
    i.attribute_definitions.push(def("pk", T::N));
    assert_validation(create(i).await, "Attribute Name is duplicated: pk");
}

#[tokio::test]
async fn billing_rules() {
    let mut i = table_input("tbl", T::S, None);
    i.provisioned_throughput = pt(1, 1);
    assert_validation(
        create(i).await,
        &format!(
            "{INVALID}Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when \
             BillingMode is PAY_PER_REQUEST"
        ),
    );
    for mode in [None, Some(BillingMode::Provisioned)] {
        let mut i = table_input("tbl", T::S, None);
        i.billing_mode = mode;
        assert_validation(
            create(i).await,
            &format!(
                "{INVALID}ReadCapacityUnits and WriteCapacityUnits must both be specified when \
                 BillingMode is PROVISIONED"
            ),
        );
    }
    let mut i = table_input("tbl", T::S, None);
    i.billing_mode = None;
    i.provisioned_throughput = pt(0, 1);
    assert_validation(
        create(i).await,
        "1 validation error detected: Value '0' at 'provisionedThroughput.readCapacityUnits' failed \
         to satisfy constraint: Member must have value greater than or equal to 1",
    );
    let mut i = table_input("tbl", T::S, None);
    i.billing_mode = None;
    i.provisioned_throughput = pt(1_000_000_000_001, 1);
    assert_validation(
        create(i).await,
        "Given value 1000000000001 for ReadCapacityUnits is out of bounds",
    );
}

#[tokio::test]
async fn local_indexes() {
    let base = || {
        let mut i = table_input("tbl", T::S, Some(T::S));
        i.attribute_definitions.push(def("l1", T::N));
        i
    };
    let mut i = base();
    i.local_secondary_indexes = vec![lsi("by-l1", "l1")];
    let backend = backend_with(i).await;
    let d = backend
        .describe_table(DescribeTableInput {
            table_name: "tbl".into(),
        })
        .await
        .expect("describe")
        .table;
    assert_eq!(d.local_secondary_indexes.len(), 1);
    assert_eq!(
        d.local_secondary_indexes[0].index_arn,
        "arn:aws:dynamodb:ddblocal:000000000000:table/tbl/index/by-l1"
    );

    let mut i = table_input("tbl", T::S, None);
    i.attribute_definitions.push(def("l1", T::N));
    i.local_secondary_indexes = vec![lsi("by-l1", "l1")];
    assert_validation(
        create(i).await,
        &format!(
            "{INVALID}Table KeySchema does not have a range key, which is required when specifying a \
             LocalSecondaryIndex"
        ),
    );
    let mut i = base();
    let mut other = lsi("by-l1", "l1");
    other.key_schema[0] = KeySchemaElement::hash("sk");
    i.local_secondary_indexes = vec![other];
    assert_validation(
        create(i).await,
        &format!(
            "{INVALID}Index KeySchema does not have the same leading hash key as table KeySchema for \
             index: by-l1. index hash key: sk, table hash key: pk"
        ),
    );
    let mut i = base();
    i.local_secondary_indexes = (0..6).map(|n| lsi(&format!("ix{n}"), "l1")).collect();
    assert_validation(
        create(i).await,
        &format!("{INVALID}Number of LocalSecondaryIndexes exceeds per-table limit of 5"),
    );
    let mut i = base();
    i.local_secondary_indexes = vec![lsi("dup", "l1"), lsi("dup", "l1")];
    assert_validation(
        create(i).await,
        &format!("{INVALID}Duplicate index name: dup"),
    );
    let mut i = base();
    i.attribute_definitions.push(def("unused", T::S));
    i.local_secondary_indexes = vec![lsi("by-l1", "l1")];
    assert_validation(
        create(i).await,
        &format!(
            "{INVALID}Some AttributeDefinitions are not used. AttributeDefinitions: [pk, sk, l1, \
             unused], keys used: [pk, sk, l1]"
        ),
    );
    let mut i = base();
    let mut bad = lsi("ab", "l1");
    bad.projection = projection(ProjectionType::KeysOnly, &["x"]);
    i.local_secondary_indexes = vec![bad];
    assert_validation(
        create(i).await,
        "1 validation error detected: Value 'ab' at 'localSecondaryIndexes.1.member.indexName' \
         failed to satisfy constraint: Member must have length greater than or equal to 3",
    );
    let mut i = base();
    let mut bad = lsi("abc", "l1");
    bad.projection = projection(ProjectionType::KeysOnly, &["x"]);
    i.local_secondary_indexes = vec![bad];
    assert_validation(
        create(i).await,
        &format!("{INVALID}ProjectionType is KEYS_ONLY, but NonKeyAttributes is specified"),
    );
}

#[tokio::test]
async fn global_indexes() {
    let base = || {
        let mut i = table_input("tbl", T::S, None);
        i.attribute_definitions.push(def("g", T::S));
        i
    };
    let mut i = base();
    i.global_secondary_indexes = vec![gsi("by-g", "g")];
    let backend = backend_with(i).await;
    let d = backend
        .describe_table(DescribeTableInput {
            table_name: "tbl".into(),
        })
        .await
        .expect("describe")
        .table;
    let g = &d.global_secondary_indexes[0];
    assert_eq!(g.index_status, TableStatus::Active);
    assert_eq!(g.projection.projection_type, ProjectionType::KeysOnly);

    let mut i = base();
    i.global_secondary_indexes = (0..21).map(|n| gsi(&format!("ix{n}"), "g")).collect();
    assert_validation(
        create(i).await,
        &format!("{INVALID}GlobalSecondaryIndex count exceeds the per-table limit of 20"),
    );
    let mut i = base();
    let mut with_pt = gsi("by-g", "g");
    with_pt.provisioned_throughput = pt(1, 1);
    i.global_secondary_indexes = vec![with_pt];
    assert_validation(
        create(i).await,
        &format!(
            "{INVALID}ProvisionedThroughput should not be specified for index: by-g when BillingMode \
             is PAY_PER_REQUEST"
        ),
    );
    let mut i = base();
    i.billing_mode = None;
    i.provisioned_throughput = pt(1, 1);
    i.global_secondary_indexes = vec![gsi("by-g", "g")];
    assert_validation(
        create(i).await,
        &format!("{INVALID}ProvisionedThroughput is not specified for index: by-g"),
    );
    let mut i = base();
    i.billing_mode = None;
    i.provisioned_throughput = pt(1, 1);
    let mut with_pt = gsi("by-g", "g");
    with_pt.provisioned_throughput = pt(3, 4);
    i.global_secondary_indexes = vec![with_pt];
    let b = backend_with(i).await;
    let d = b
        .describe_table(DescribeTableInput {
            table_name: "tbl".into(),
        })
        .await
        .expect("describe")
        .table;
    let t = d.global_secondary_indexes[0]
        .provisioned_throughput
        .expect("throughput");
    assert_eq!((t.read_capacity_units, t.write_capacity_units), (3, 4));
    let mut i = base();
    i.global_secondary_indexes = vec![gsi("by-g", "missing")];
    assert_validation(
        create(i).await,
        &format!(
            "{INVALID}Some index key attributes are not defined in AttributeDefinitions. Keys: \
             [missing], AttributeDefinitions: [pk, g]"
        ),
    );
    // 101 projected non-key attributes across two indexes.
    let mut i = base();
    let attrs: Vec<String> = (0..51).map(|n| format!("a{n}")).collect();
    let refs: Vec<&str> = attrs.iter().map(String::as_str).collect();
    let mut g1 = gsi("g-one", "g");
    g1.projection = projection(ProjectionType::Include, &refs);
    let mut g2 = gsi("g-two", "g");
    g2.projection = projection(ProjectionType::Include, &refs[..50]);
    i.global_secondary_indexes = vec![g1.clone(), g2.clone()];
    assert_validation(
        create(i).await,
        &format!("{INVALID}Number of projected attributes in all indexes exceeds limit of 100"),
    );
    let mut i = base();
    g2.projection = projection(ProjectionType::Include, &refs[..49]);
    i.global_secondary_indexes = vec![g1, g2];
    assert!(create(i).await.is_ok());
}

#[tokio::test]
async fn list_tables_paging() {
    let backend = MemBackend::new();
    for name in ["ccc", "aaa", "bbb", "ddd", "eee"] {
        backend
            .create_table(table_input(name, T::S, None))
            .await
            .expect("create");
    }
    let all = backend
        .list_tables(ListTablesInput::default())
        .await
        .expect("list");
    assert_eq!(all.table_names, ["aaa", "bbb", "ccc", "ddd", "eee"]);
    assert_eq!(all.last_evaluated_table_name, None);

    let page = |start: Option<&str>, limit: Option<i32>| {
        let backend = backend.clone();
        let input = ListTablesInput {
            exclusive_start_table_name: start.map(str::to_owned),
            limit,
        };
        async move { backend.list_tables(input).await }
    };
    let p1 = page(None, Some(2)).await.expect("p1");
    assert_eq!(p1.table_names, ["aaa", "bbb"]);
    assert_eq!(p1.last_evaluated_table_name.as_deref(), Some("bbb"));
    let p2 = page(Some("bbb"), Some(2)).await.expect("p2");
    assert_eq!(p2.table_names, ["ccc", "ddd"]);
    assert_eq!(p2.last_evaluated_table_name.as_deref(), Some("ddd"));
    // Exactly `Limit` names remain: no LastEvaluatedTableName.
    let p3 = page(Some("bbb"), Some(3)).await.expect("p3");
    assert_eq!(p3.table_names, ["ccc", "ddd", "eee"]);
    assert_eq!(p3.last_evaluated_table_name, None);
    // A start name that is not a table starts after where it would be.
    let p4 = page(Some("bbc"), None).await.expect("p4");
    assert_eq!(p4.table_names, ["ccc", "ddd", "eee"]);

    assert_validation(
        page(None, Some(0)).await,
        "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must \
         have value greater than or equal to 1",
    );
    assert_validation(
        page(None, Some(101)).await,
        "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: Member \
         must have value less than or equal to 100",
    );
    assert_validation(
        page(Some("ab"), Some(101)).await,
        "2 validation errors detected: Value 'ab' at 'exclusiveStartTableName' failed to satisfy \
         constraint: Member must have length greater than or equal to 3; Value '101' at 'limit' \
         failed to satisfy constraint: Member must have value less than or equal to 100",
    );
    assert!(page(None, Some(100)).await.is_ok());
}

#[tokio::test]
async fn creation_time_comes_from_the_engine_clock() {
    let clock = crate::ManualClock::default();
    let start = crate::Clock::now(&clock);
    let b = MemBackend::with_clock(clock.clone());
    let created = b
        .create_table(table_input("first", T::S, None))
        .await
        .expect("create")
        .table_description
        .creation_date_time;
    assert_eq!(created, start);
    clock.advance(std::time::Duration::from_secs(90));
    b.create_table(table_input("second", T::S, None))
        .await
        .expect("create");
    let described = b
        .describe_table(DescribeTableInput {
            table_name: "second".into(),
        })
        .await
        .expect("describe")
        .table
        .creation_date_time;
    assert_eq!(described - start, chrono::TimeDelta::seconds(90));
}
