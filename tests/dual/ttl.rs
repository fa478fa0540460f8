//! Time to Live: UpdateTimeToLive / DescribeTimeToLive, their errors, and expired items (readable until
//! a sweep; the sweep, which only the engine exposes, deletes them from the table and every index).

use dynomodel::backend::*;
use dynomodel::*;

use super::*;

/// DynamoDB Local 3.3's not-found text for every operation.
const LOCAL_NOT_FOUND: &str = "Cannot do operations on a non-existent table";

fn spec(enabled: bool, attribute: &str) -> TimeToLiveSpecification {
    TimeToLiveSpecification {
        enabled,
        attribute_name: attribute.into(),
    }
}

async fn update(t: &Dual, table: &str, enabled: bool, attribute: &str) -> Result<()> {
    let out = t
        .backend()
        .update_time_to_live(UpdateTimeToLiveInput {
            table_name: table.into(),
            time_to_live_specification: spec(enabled, attribute),
        })
        .await?;
    // The answer is the specification as requested.
    assert_eq!(out.time_to_live_specification, spec(enabled, attribute));
    Ok(())
}

async fn describe(t: &Dual, table: &str) -> (TimeToLiveStatus, Option<String>) {
    let d = t
        .backend()
        .describe_time_to_live(DescribeTimeToLiveInput {
            table_name: table.into(),
        })
        .await
        .unwrap()
        .time_to_live_description;
    (d.time_to_live_status, d.attribute_name)
}

dual_test!(ttl_enable_disable_and_errors, |t| {
    let table = t.create_table("ttl", ("pk", S), None).await;
    assert_eq!(
        describe(&t, &table).await,
        (TimeToLiveStatus::Disabled, None)
    );
    t.expect_error(
        update(&t, &table, false, "expires").await,
        "ValidationException",
        "TimeToLive is already disabled",
    );
    update(&t, &table, true, "expires").await.unwrap();
    assert_eq!(
        describe(&t, &table).await,
        (TimeToLiveStatus::Enabled, Some("expires".into()))
    );
    t.expect_error(
        update(&t, &table, true, "expires").await,
        "ValidationException",
        "TimeToLive is already enabled",
    );
    // KNOWN DIFFERENCE: DynamoDB Local omits ": current AttributeName is …".
    for enabled in [true, false] {
        t.expect_error_differs(
            update(&t, &table, enabled, "other").await,
            "ValidationException",
            "TimeToLive is active on a different AttributeName: current AttributeName is expires",
            "TimeToLive is active on a different AttributeName",
        );
    }
    let disabled = update(&t, &table, false, "expires").await;
    match t.target() {
        // KNOWN DIFFERENCE: DynamoDB Local has no one-change-per-window rule.
        Target::DynamoDbLocal => {
            disabled.unwrap();
            assert_eq!(
                describe(&t, &table).await,
                (TimeToLiveStatus::Disabled, None)
            );
        }
        Target::Mem | Target::Server => {
            t.expect_error(
                disabled,
                "ValidationException",
                "Time to live has been modified multiple times within a fixed interval",
            );
            assert_eq!(
                describe(&t, &table).await,
                (TimeToLiveStatus::Enabled, Some("expires".into()))
            );
        }
    }
});

dual_test!(ttl_request_errors, |t| {
    let table = t.create_table("ttlreq", ("pk", S), None).await;
    let long = "a".repeat(256);
    // KNOWN DIFFERENCE: DynamoDB Local words the length rule as for key attributes.
    let local_length =
        "Names of key attributes and attributes projected into an index must be between \
                        1 and 255 characters, inclusive";
    t.expect_error_differs(
        update(&t, &table, true, &long).await,
        "ValidationException",
        &format!(
            "1 validation error detected: Value '{long}' at 'timeToLiveSpecification.attributeName' \
             failed to satisfy constraint: Member must have length less than or equal to 255"
        ),
        local_length,
    );
    t.expect_error_differs(
        update(&t, &table, true, "").await,
        "ValidationException",
        "1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName' failed to \
         satisfy constraint: Member must have length greater than or equal to 1",
        local_length,
    );
    // A failed request changes nothing.
    assert_eq!(
        describe(&t, &table).await,
        (TimeToLiveStatus::Disabled, None)
    );

    let missing = t.table_name("missing");
    // KNOWN DIFFERENCE: DynamoDB Local's not-found text does not name the table.
    t.expect_error_differs(
        update(&t, &missing, true, "expires").await,
        "ResourceNotFoundException",
        &format!("Requested resource not found: Table: {missing} not found"),
        LOCAL_NOT_FOUND,
    );
    let described = t
        .backend()
        .describe_time_to_live(DescribeTimeToLiveInput {
            table_name: missing.clone(),
        })
        .await;
    t.expect_error_differs(
        described,
        "ResourceNotFoundException",
        &format!("Requested resource not found: Table: {missing} not found"),
        LOCAL_NOT_FOUND,
    );
    // KNOWN DIFFERENCE: DynamoDB Local's table-name text (as for every operation, deviations.md).
    t.expect_error_differs(
        update(&t, "ab", true, "expires").await,
        "ValidationException",
        "TableName must be at least 3 characters long and at most 255 characters long",
        "Invalid table/index name.  Table/index names must be between 3 and 255 characters long, and \
         may contain only the characters a-z, A-Z, 0-9, '_', '-', and '.'",
    );

    // The table's ARN names it as well as its name, and TTL may use a key attribute.
    let arn = t
        .backend()
        .describe_table(DescribeTableInput {
            table_name: table.clone(),
        })
        .await
        .unwrap()
        .table
        .table_arn;
    update(&t, &arn, true, "pk").await.unwrap();
    assert_eq!(
        describe(&t, &arn).await,
        (TimeToLiveStatus::Enabled, Some("pk".into()))
    );
});

/// A table with a GSI on `g` and an LSI on `l`, TTL on `expires`.
async fn ttl_table(t: &Dual) -> String {
    let name = t.table_name("expiry");
    let def = |n: &str| AttributeDefinition {
        attribute_name: n.into(),
        attribute_type: S,
    };
    let all = Projection {
        projection_type: ProjectionType::All,
        non_key_attributes: vec![],
    };
    t.backend()
        .create_table(CreateTableInput {
            table_name: name.clone(),
            attribute_definitions: vec![def("pk"), def("sk"), def("g"), def("l")],
            key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
            billing_mode: Some(BillingMode::PayPerRequest),
            global_secondary_indexes: vec![GlobalSecondaryIndex {
                index_name: "by-g".into(),
                key_schema: vec![KeySchemaElement::hash("g")],
                projection: all.clone(),
                provisioned_throughput: None,
            }],
            local_secondary_indexes: vec![LocalSecondaryIndex {
                index_name: "by-l".into(),
                key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("l")],
                projection: all,
            }],
            ..Default::default()
        })
        .await
        .unwrap();
    update(t, &name, true, "expires").await.unwrap();
    name
}

/// The sort keys a Query returns (of the table or an index, all items share `pk` and `g`).
async fn sort_keys(t: &Dual, table: &str, index: Option<&str>) -> Vec<String> {
    let (attr, value) = match index {
        Some("by-g") => ("g", "shared"),
        _ => ("pk", "p"),
    };
    let mut keys: Vec<String> = t
        .backend()
        .query(QueryInput {
            table_name: table.into(),
            index_name: index.map(str::to_owned),
            key_condition_expression: Some("#k = :v".into()),
            expression_attribute_names: Some([("#k".to_owned(), attr.to_owned())].into()),
            expression_attribute_values: Some([(":v".to_owned(), s(value))].into()),
            ..Default::default()
        })
        .await
        .unwrap()
        .items
        .unwrap_or_default()
        .iter()
        .filter_map(|i| match i.get("sk") {
            Some(AttributeValue::S(sk)) => Some(sk.clone()),
            _ => None,
        })
        .collect();
    keys.sort();
    keys
}

dual_test!(expired_items_are_readable_until_swept, |t| {
    let table = ttl_table(&t).await;
    let now = chrono::Utc::now().timestamp();
    let expired = num(&(now - 100).to_string());
    let living = num(&(now + 1_000_000).to_string());
    let ancient = num(&(now - 6 * 365 * 24 * 3600).to_string());
    for (sk, expires) in [
        ("expired", Some(expired)),
        ("living", Some(living)),
        ("ancient", Some(ancient)),
        ("string", Some(s(&(now - 100).to_string()))),
        ("none", None),
    ] {
        let mut it = item([
            ("pk", s("p")),
            ("sk", s(sk)),
            ("g", s("shared")),
            ("l", s(sk)),
        ]);
        if let Some(expires) = expires {
            it.insert("expires".into(), expires);
        }
        t.backend()
            .put_item(PutItemInput {
                table_name: table.clone(),
                item: it,
                ..Default::default()
            })
            .await
            .unwrap();
    }
    let everything = ["ancient", "expired", "living", "none", "string"];
    // Expired items are read, queried and scanned like any other until they are deleted. Only the
    // engine says when that is (a sweep); DynamoDB Local, like DynamoDB, may delete one at any time
    // (its background deletion once took "expired" before these reads), so there it may be missing.
    let engine_sweeps = t.engine().is_some();
    let present = |mut keys: Vec<String>| {
        if !engine_sweeps {
            keys.retain(|k| k != "expired");
        }
        keys
    };
    let expected = present(everything.iter().map(|k| k.to_string()).collect());
    for index in [None, Some("by-g"), Some("by-l")] {
        assert_eq!(
            present(sort_keys(&t, &table, index).await),
            expected,
            "{index:?}"
        );
    }
    let got = t
        .backend()
        .get_item(GetItemInput {
            table_name: table.clone(),
            key: item([("pk", s("p")), ("sk", s("expired"))]),
            ..Default::default()
        })
        .await
        .unwrap();
    assert!(got.item.is_some() || !engine_sweeps);
    let scanned = t
        .backend()
        .scan(ScanInput {
            table_name: table.clone(),
            ..Default::default()
        })
        .await
        .unwrap();
    assert!(scanned.count == 5 || (!engine_sweeps && scanned.count == 4));

    // DynamoDB Local deletes nothing on a test's timescale; the engine deletes when swept.
    let Some(engine) = t.engine() else { return };
    assert_eq!(engine.sweep_expired(), 1);
    let rest = vec!["ancient", "living", "none", "string"];
    for index in [None, Some("by-g"), Some("by-l")] {
        assert_eq!(sort_keys(&t, &table, index).await, rest, "{index:?}");
    }
    let d = t
        .backend()
        .describe_table(DescribeTableInput {
            table_name: table.clone(),
        })
        .await
        .unwrap()
        .table;
    assert_eq!(d.item_count, 4);
    assert_eq!(d.global_secondary_indexes[0].item_count, 4);
    assert_eq!(d.local_secondary_indexes[0].item_count, 4);
    assert_eq!(engine.sweep_expired(), 0);
});
