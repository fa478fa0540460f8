//! Table operations: create/describe/list/delete, name validation, ResourceInUse, ResourceNotFound.

use dynomodel::backend::*;

use super::*;

/// Real DynamoDB names the table in DescribeTable/DeleteTable's not-found message; DynamoDB Local does not.
const LOCAL_NOT_FOUND: &str = "Cannot do operations on a non-existent table";

dual_test!(create_describe_delete, |t| {
    let name = t.table_name("full");
    let throughput = ProvisionedThroughput {
        read_capacity_units: 5,
        write_capacity_units: 3,
    };
    let def = |n: &str, ty| AttributeDefinition {
        attribute_name: n.into(),
        attribute_type: ty,
    };
    let input = CreateTableInput {
        table_name: name.clone(),
        attribute_definitions: vec![def("pk", S), def("sk", N), def("g", S), def("l", B)],
        key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
        billing_mode: Some(BillingMode::Provisioned),
        provisioned_throughput: Some(throughput),
        local_secondary_indexes: vec![LocalSecondaryIndex {
            index_name: "by-l".into(),
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("l")],
            projection: Projection {
                projection_type: ProjectionType::Include,
                non_key_attributes: vec!["x".into(), "y".into()],
            },
        }],
        global_secondary_indexes: vec![GlobalSecondaryIndex {
            index_name: "by-g".into(),
            key_schema: vec![KeySchemaElement::hash("g")],
            projection: Projection {
                projection_type: ProjectionType::KeysOnly,
                non_key_attributes: vec![],
            },
            provisioned_throughput: Some(throughput),
        }],
        ..Default::default()
    };
    let before = chrono::Utc::now() - chrono::Duration::seconds(60);
    let created = t.backend().create_table(input.clone()).await.unwrap();
    let d = created.table_description;
    assert_eq!(d.table_name, name);
    // KNOWN DIFFERENCE: DynamoDB answers CreateTable with CREATING ("Upon receiving a CreateTable
    // request, DynamoDB immediately returns a response with a TableStatus of CREATING", the API
    // reference), its indexes CREATING too (dynalite's recording); DynamoDB Local answers ACTIVE.
    let created_status = match t.target() {
        Target::DynamoDbLocal => TableStatus::Active,
        _ => TableStatus::Creating,
    };
    assert_eq!(d.table_status, created_status);
    assert_eq!(d.key_schema, input.key_schema);
    let mut defs = d.attribute_definitions.clone();
    defs.sort_by(|a, b| a.attribute_name.cmp(&b.attribute_name));
    assert_eq!(
        defs,
        vec![def("g", S), def("l", B), def("pk", S), def("sk", N)]
    );
    assert_eq!(d.provisioned_throughput.read_capacity_units, 5);
    assert_eq!(d.provisioned_throughput.write_capacity_units, 3);
    assert_eq!((d.item_count, d.table_size_bytes), (0, 0));
    assert!(
        d.table_arn.ends_with(&format!(":table/{name}")),
        "{}",
        d.table_arn
    );
    assert!(d.creation_date_time > before);
    let lsi = &d.local_secondary_indexes[0];
    assert_eq!(lsi.index_name, "by-l");
    assert_eq!(lsi.projection, input.local_secondary_indexes[0].projection);
    assert!(lsi
        .index_arn
        .ends_with(&format!(":table/{name}/index/by-l")));
    let gsi = &d.global_secondary_indexes[0];
    assert_eq!(gsi.index_name, "by-g");
    assert_eq!(gsi.key_schema, vec![KeySchemaElement::hash("g")]);
    assert_eq!(gsi.projection.projection_type, ProjectionType::KeysOnly);
    assert_eq!(gsi.index_status, created_status);
    assert_eq!(gsi.backfilling, None);
    assert_eq!(gsi.provisioned_throughput.unwrap().read_capacity_units, 5);

    let described = t
        .backend()
        .describe_table(DescribeTableInput {
            table_name: name.clone(),
        })
        .await
        .unwrap()
        .table;
    assert_eq!(described.table_arn, d.table_arn);
    assert_eq!(described.global_secondary_indexes.len(), 1);
    // Both are ACTIVE by the next request (the engine's transition time is zero by default).
    assert_eq!(described.table_status, TableStatus::Active);
    assert_eq!(
        described.global_secondary_indexes[0].index_status,
        TableStatus::Active
    );

    let deleted = t
        .backend()
        .delete_table(DeleteTableInput {
            table_name: name.clone(),
        })
        .await
        .unwrap();
    assert_eq!(deleted.table_description.table_name, name);
    // KNOWN DIFFERENCE: DynamoDB answers DeleteTable with DELETING (dynalite's recording; the API
    // reference's example); DynamoDB Local answers ACTIVE.
    let deleted_status = match t.target() {
        Target::DynamoDbLocal => TableStatus::Active,
        _ => TableStatus::Deleting,
    };
    assert_eq!(deleted.table_description.table_status, deleted_status);
    let gone = t
        .backend()
        .describe_table(DescribeTableInput {
            table_name: name.clone(),
        })
        .await;
    // KNOWN DIFFERENCE: DynamoDB Local's ResourceNotFound message does not name the table.
    t.expect_error_differs(
        gone,
        "ResourceNotFoundException",
        &format!("Requested resource not found: Table: {name} not found"),
        LOCAL_NOT_FOUND,
    );
});

dual_test!(on_demand_billing_is_reported, |t| {
    let name = t.create_table("od", ("pk", S), None).await;
    let d = t
        .backend()
        .describe_table(DescribeTableInput { table_name: name })
        .await
        .unwrap()
        .table;
    assert_eq!(d.billing_mode, Some(BillingMode::PayPerRequest));
    assert_eq!(d.provisioned_throughput.read_capacity_units, 0);
});

dual_test!(list_tables_pages_in_order, |t| {
    let mut mine = Vec::new();
    for label in ["c", "a", "b"] {
        mine.push(t.create_table(label, ("pk", S), None).await);
    }
    mine.sort();
    // Other tests create tables concurrently: walk every page and keep only ours.
    let mut seen = Vec::new();
    let mut start = None;
    loop {
        let page = t
            .backend()
            .list_tables(ListTablesInput {
                exclusive_start_table_name: start.clone(),
                limit: Some(2),
            })
            .await
            .unwrap();
        assert!(page.table_names.len() <= 2);
        let mut sorted = page.table_names.clone();
        sorted.sort();
        assert_eq!(sorted, page.table_names, "each page is in name order");
        seen.extend(page.table_names.into_iter().filter(|n| mine.contains(n)));
        match page.last_evaluated_table_name {
            Some(last) => start = Some(last),
            None => break,
        }
    }
    assert_eq!(seen, mine);
});

dual_test!(table_names_are_validated, |t| {
    let create = |name: String| CreateTableInput {
        table_name: name,
        attribute_definitions: vec![AttributeDefinition {
            attribute_name: "pk".into(),
            attribute_type: S,
        }],
        key_schema: vec![KeySchemaElement::hash("pk")],
        billing_mode: Some(BillingMode::PayPerRequest),
        ..CreateTableInput::default()
    };
    let local = "Invalid table/index name.  Table/index names must be between 3 and 255 characters long, and may contain only the characters a-z, A-Z, 0-9, '_', '-', and '.'";
    // KNOWN DIFFERENCE (all three): DynamoDB answers the model's constraints on `tableName` ("ab": the
    // conformance suite's capture); DynamoDB Local has one message for everything.
    let r = t.backend().create_table(create("ab".into())).await;
    t.expect_error_differs(r, "ValidationException",
        "1 validation error detected: Value 'ab' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3",
        local);
    let long = "a".repeat(256);
    let r = t.backend().create_table(create(long.clone())).await;
    t.expect_error_differs(r, "ValidationException",
        &format!("1 validation error detected: Value '{long}' at 'tableName' failed to satisfy constraint: Member must have length less than or equal to 255"),
        local);
    let r = t.backend().create_table(create("bad name!".into())).await;
    t.expect_error_differs(r, "ValidationException",
        "1 validation error detected: Value 'bad name!' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+",
        local);
    // The limits themselves: 3 and 255 characters of the allowed alphabet are fine.
    let ok = t.table_name("x");
    let ok255 = format!("{ok}{}", "_.-".repeat(85))[..255].to_owned();
    t.register_table(&ok255);
    t.backend().create_table(create(ok255)).await.unwrap();
});

dual_test!(creating_an_existing_table_is_resource_in_use, |t| {
    let name = t.create_table("dup", ("pk", S), None).await;
    let input = CreateTableInput {
        table_name: name.clone(),
        attribute_definitions: vec![AttributeDefinition {
            attribute_name: "pk".into(),
            attribute_type: S,
        }],
        key_schema: vec![KeySchemaElement::hash("pk")],
        billing_mode: Some(BillingMode::PayPerRequest),
        ..CreateTableInput::default()
    };
    let r = t.backend().create_table(input).await;
    // KNOWN DIFFERENCE: DynamoDB Local words ResourceInUse differently.
    t.expect_error_differs(
        r,
        "ResourceInUseException",
        &format!("Table already exists: {name}"),
        "Cannot create preexisting table",
    );
});

dual_test!(
    every_operation_on_a_missing_table_is_resource_not_found,
    |t| {
        let name = t.table_name("missing");
        let b = t.backend();
        let named = format!("Requested resource not found: Table: {name} not found");
        let unnamed = "Requested resource not found";
        let key = item([("pk", s("a"))]);
        // KNOWN DIFFERENCE: DynamoDB Local says "Cannot do operations on a non-existent table" everywhere.
        let code = "ResourceNotFoundException";
        let r = b
            .describe_table(DescribeTableInput {
                table_name: name.clone(),
            })
            .await;
        t.expect_error_differs(r, code, &named, LOCAL_NOT_FOUND);
        let r = b
            .delete_table(DeleteTableInput {
                table_name: name.clone(),
            })
            .await;
        t.expect_error_differs(r, code, &named, LOCAL_NOT_FOUND);
        let r = b
            .put_item(PutItemInput {
                table_name: name.clone(),
                item: key.clone(),
                return_values: None,
                ..Default::default()
            })
            .await;
        t.expect_error_differs(r, code, unnamed, LOCAL_NOT_FOUND);
        let r = b
            .get_item(GetItemInput {
                table_name: name.clone(),
                key: key.clone(),
                consistent_read: None,
                ..Default::default()
            })
            .await;
        t.expect_error_differs(r, code, unnamed, LOCAL_NOT_FOUND);
        let r = b
            .delete_item(DeleteItemInput {
                table_name: name.clone(),
                key,
                return_values: None,
                ..Default::default()
            })
            .await;
        t.expect_error_differs(r, code, unnamed, LOCAL_NOT_FOUND);
    }
);
