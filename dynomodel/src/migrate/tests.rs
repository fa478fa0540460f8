//! The planner against hand-built descriptions: every kind of step, the blocking differences, the
//! notes, idempotency (a table described as the model declares it plans nothing) and namespaces.

use chrono::DateTime;

use super::diff::diff;
use super::*;
use crate::backend::*;
use crate::Model;

#[derive(Model)]
#[dynomodel(
    table = "tweets",
    throughput(read = 5, write = 5),
    tags(team = "core"),
    stream = "new_image"
)]
#[global_index(all("by-city", hash = city, range = ts))]
struct Tweet {
    #[hash_key]
    userid: String,
    #[range_key]
    id: String,
    city: String,
    #[index(keys = "by-likes")]
    likes: i64,
    ts: i64,
    #[ttl]
    expires: Option<u64>,
}

/// What DynamoDB would describe right after creating `schema` (and enabling `ttl`, setting `tags`).
fn live_as(definition: &Definition) -> LiveTable {
    let schema = &definition.schema;
    let throughput = |t: Option<ProvisionedThroughput>| ProvisionedThroughputDescription {
        read_capacity_units: t.map_or(0, |t| t.read_capacity_units),
        write_capacity_units: t.map_or(0, |t| t.write_capacity_units),
        ..Default::default()
    };
    let table = TableDescription {
        table_name: schema.table_name.clone(),
        table_status: TableStatus::Active,
        attribute_definitions: schema.attribute_definitions.clone(),
        key_schema: schema.key_schema.clone(),
        creation_date_time: DateTime::UNIX_EPOCH,
        provisioned_throughput: throughput(schema.provisioned_throughput),
        billing_mode: schema.billing_mode,
        last_update_to_pay_per_request_date_time: None,
        item_count: 0,
        table_size_bytes: 0,
        table_arn: format!(
            "arn:aws:dynamodb:us-east-1:123456789012:table/{}",
            schema.table_name
        ),
        table_id: "id".into(),
        local_secondary_indexes: schema
            .local_secondary_indexes
            .iter()
            .map(|i| LocalSecondaryIndexDescription {
                index_name: i.index_name.clone(),
                key_schema: i.key_schema.clone(),
                projection: i.projection.clone(),
                item_count: 0,
                index_size_bytes: 0,
                index_arn: String::new(),
            })
            .collect(),
        global_secondary_indexes: schema
            .global_secondary_indexes
            .iter()
            .map(|i| GlobalSecondaryIndexDescription {
                index_name: i.index_name.clone(),
                key_schema: i.key_schema.clone(),
                projection: i.projection.clone(),
                index_status: TableStatus::Active,
                backfilling: None,
                provisioned_throughput: i.provisioned_throughput.map(|t| throughput(Some(t))),
                item_count: 0,
                index_size_bytes: 0,
                index_arn: String::new(),
            })
            .collect(),
        stream_specification: schema.stream_specification,
        latest_stream_arn: None,
        latest_stream_label: None,
        table_class: schema.table_class,
        deletion_protection_enabled: schema.deletion_protection_enabled.unwrap_or(false),
        restore_summary: None,
    };
    LiveTable {
        table,
        ttl: Some(match &definition.ttl_attribute {
            Some(name) => TimeToLiveDescription {
                time_to_live_status: TimeToLiveStatus::Enabled,
                attribute_name: Some(name.clone()),
            },
            None => TimeToLiveDescription {
                time_to_live_status: TimeToLiveStatus::Disabled,
                attribute_name: None,
            },
        }),
        tags: Some(schema.tags.clone()),
        point_in_time_recovery: Some(PointInTimeRecoveryDescription {
            point_in_time_recovery_status: if definition.point_in_time_recovery.is_some() {
                PointInTimeRecoveryStatus::Enabled
            } else {
                PointInTimeRecoveryStatus::Disabled
            },
            recovery_period_in_days: definition
                .point_in_time_recovery
                .as_ref()
                .map(|r| r.recovery_period_in_days.unwrap_or(35)),
            earliest_restorable_date_time: None,
            latest_restorable_date_time: None,
        }),
    }
}

fn lines(definition: &Definition, live: Option<&LiveTable>) -> Vec<String> {
    let out = diff(definition, live);
    out.blockers
        .iter()
        .map(ToString::to_string)
        .chain(out.steps.iter().map(ToString::to_string))
        .collect()
}

fn plan_of(definition: &Definition, live: Option<&LiveTable>) -> Plan {
    let out = diff(definition, live);
    Plan {
        steps: out.steps,
        blockers: out.blockers,
        notes: out.notes,
        data: Vec::new(),
    }
}

#[test]
fn a_missing_table_is_created_then_its_ttl_enabled() {
    let definition = Definition::of::<Tweet>().namespaced("test-");
    let plan = plan_of(&definition, None);
    assert_eq!(
        plan.to_string(),
        "+ create table test-tweets (userid HASH, id RANGE; PROVISIONED 5/5), \
         LSI by-likes (userid HASH, likes RANGE; KEYS_ONLY), GSI by-city (city HASH, ts RANGE; ALL), \
         stream NEW_IMAGE, tag team=core\n\
         + enable TTL on expires of test-tweets"
    );
    let Action::CreateTable(input) = &plan.steps()[0].action else {
        panic!("not a create: {plan}")
    };
    assert_eq!(input.table_name, "test-tweets");
    assert!(!plan.is_empty() && !plan.is_blocked());
}

#[test]
fn a_table_as_declared_plans_nothing() {
    let definition = Definition::of::<Tweet>();
    let plan = plan_of(&definition, Some(&live_as(&definition)));
    assert!(plan.is_empty(), "{plan}");
    assert_eq!(plan.to_string(), "nothing to do");
    // Projection attributes in another order and AWS's own tags are no difference either.
    let mut live = live_as(&definition);
    live.tags
        .as_mut()
        .unwrap()
        .push(Tag::new("aws:cloudformation:stack-name", "x"));
    assert!(plan_of(&definition, Some(&live)).is_empty());
}

#[test]
fn global_indexes_are_added_removed_and_replaced() {
    let definition = Definition::of::<Tweet>();
    let mut old = definition.clone();
    old.schema.global_secondary_indexes.clear();
    let live = live_as(&old);
    let steps = diff(&definition, Some(&live)).steps;
    assert_eq!(
        steps.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["+ create GSI by-city (city HASH, ts RANGE; ALL; 5/5) on tweets"]
    );
    let Action::CreateIndex {
        attribute_definitions,
        ..
    } = &steps[0].action
    else {
        panic!("{steps:?}")
    };
    let names: Vec<&str> = attribute_definitions
        .iter()
        .map(|d| d.attribute_name.as_str())
        .collect();
    assert_eq!(names, ["city", "ts"]);

    // An index the model does not have: a destructive step.
    let mut extra = definition.clone();
    let mut gsi = extra.schema.global_secondary_indexes[0].clone();
    gsi.index_name = "old-index".into();
    extra.schema.global_secondary_indexes.push(gsi);
    let plan = plan_of(&definition, Some(&live_as(&extra)));
    assert_eq!(
        plan.to_string(),
        "- delete GSI old-index on tweets (destructive: its queries fail)"
    );
    assert_eq!(plan.destructive_steps().count(), 1);

    // Another projection: delete, then create again.
    let mut keys_only = definition.clone();
    keys_only.schema.global_secondary_indexes[0].projection = Projection {
        projection_type: ProjectionType::KeysOnly,
        non_key_attributes: vec![],
    };
    let plan = plan_of(&definition, Some(&live_as(&keys_only)));
    assert_eq!(
        plan.steps()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        [
            "- delete GSI by-city on tweets (destructive: its queries fail)",
            "+ create GSI by-city (city HASH, ts RANGE; ALL; 5/5) on tweets",
        ]
    );
    assert!(plan.notes()[0].contains("replaced"), "{:?}", plan.notes());
}

#[test]
fn capacity_and_billing_changes() {
    let definition = Definition::of::<Tweet>();
    let mut old = definition.clone();
    old.schema.provisioned_throughput = Some(ProvisionedThroughput {
        read_capacity_units: 1,
        write_capacity_units: 5,
    });
    old.schema.global_secondary_indexes[0].provisioned_throughput = Some(ProvisionedThroughput {
        read_capacity_units: 5,
        write_capacity_units: 2,
    });
    assert_eq!(
        lines(&definition, Some(&live_as(&old))),
        [
            "~ throughput 1/5 -> 5/5 on tweets",
            "~ GSI by-city throughput 5/2 -> 5/5 on tweets"
        ]
    );

    // On demand live, provisioned in the model: one switch carrying every capacity.
    let mut on_demand = definition.clone();
    on_demand.schema.billing_mode = Some(BillingMode::PayPerRequest);
    on_demand.schema.provisioned_throughput = None;
    on_demand.schema.global_secondary_indexes[0].provisioned_throughput = None;
    assert_eq!(
        lines(&definition, Some(&live_as(&on_demand))),
        ["~ billing PAY_PER_REQUEST -> PROVISIONED 5/5, GSI by-city 5/5 on tweets"]
    );
    // And back.
    assert_eq!(
        lines(&on_demand, Some(&live_as(&definition))),
        ["~ billing PROVISIONED -> PAY_PER_REQUEST on tweets"]
    );
}

#[test]
fn time_to_live_is_enabled_disabled_and_moved() {
    let definition = Definition::of::<Tweet>();
    let mut without = definition.clone();
    without.ttl_attribute = None;
    assert_eq!(
        lines(&definition, Some(&live_as(&without))),
        ["+ enable TTL on expires of tweets"]
    );
    assert_eq!(
        lines(&without, Some(&live_as(&definition))),
        ["- disable TTL on expires of tweets"]
    );
    let mut moved = definition.clone();
    moved.ttl_attribute = Some("gone_at".into());
    let plan = plan_of(&moved, Some(&live_as(&definition)));
    assert_eq!(
        plan.steps()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        [
            "- disable TTL on expires of tweets",
            "+ enable TTL on gone_at of tweets"
        ]
    );
    assert!(
        plan.notes()[0].contains("one change per hour"),
        "{:?}",
        plan.notes()
    );
    // ENABLING counts as on; an endpoint that does not describe TTL leaves it alone.
    let mut enabling = live_as(&definition);
    enabling.ttl.as_mut().unwrap().time_to_live_status = TimeToLiveStatus::Enabling;
    assert!(plan_of(&definition, Some(&enabling)).is_empty());
    let mut unknown = live_as(&without);
    unknown.ttl = None;
    let plan = plan_of(&definition, Some(&unknown));
    assert!(plan.is_empty());
    assert!(
        plan.to_string().contains("note: time to live on tweets"),
        "{plan}"
    );
}

#[test]
fn streams_are_turned_on_off_and_changed() {
    let definition = Definition::of::<Tweet>();
    let mut off = definition.clone();
    off.schema.stream_specification = None;
    assert_eq!(
        lines(&definition, Some(&live_as(&off))),
        ["~ stream off -> NEW_IMAGE on tweets"]
    );
    assert_eq!(
        lines(&off, Some(&live_as(&definition))),
        ["~ stream NEW_IMAGE -> off on tweets"]
    );
    let mut keys = definition.clone();
    keys.schema.stream_specification = Some(StreamSpecification::enabled(StreamViewType::KeysOnly));
    assert_eq!(
        lines(&definition, Some(&live_as(&keys))),
        [
            "~ stream KEYS_ONLY -> off on tweets",
            "~ stream off -> NEW_IMAGE on tweets"
        ]
    );
    // A disabled specification is no stream.
    let mut disabled = live_as(&off);
    disabled.table.stream_specification = Some(StreamSpecification::disabled());
    assert!(plan_of(&off, Some(&disabled)).is_empty());
}

#[test]
fn class_and_deletion_protection() {
    let definition = Definition::of::<Tweet>();
    let mut changed = definition.clone();
    changed.schema.table_class = Some(TableClass::StandardInfrequentAccess);
    changed.schema.deletion_protection_enabled = Some(true);
    assert_eq!(
        lines(&changed, Some(&live_as(&definition))),
        [
            "~ table class STANDARD -> STANDARD_INFREQUENT_ACCESS on tweets",
            "~ deletion protection on on tweets"
        ]
    );
    // Undeclared means DynamoDB's default, which a live `None` class also is.
    let mut standard = definition.clone();
    standard.schema.table_class = Some(TableClass::Standard);
    assert!(plan_of(&definition, Some(&live_as(&standard))).is_empty());
}

#[test]
fn tags_are_added_changed_and_removed() {
    let definition = Definition::of::<Tweet>();
    let mut live = live_as(&definition);
    live.tags = Some(vec![
        Tag::new("team", "old"),
        Tag::new("owner", "x"),
        Tag::new("aws:x", "y"),
    ]);
    let steps = diff(&definition, Some(&live)).steps;
    assert_eq!(
        steps.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["- untag owner on tweets", "+ tag team=core on tweets"]
    );
    let Action::Tag { resource_arn, .. } = &steps[1].action else {
        panic!()
    };
    assert_eq!(
        resource_arn,
        "arn:aws:dynamodb:us-east-1:123456789012:table/tweets"
    );
    // An endpoint without tagging (DynamoDB Local): left alone, with a note.
    live.tags = None;
    let plan = plan_of(&definition, Some(&live));
    assert!(plan.is_empty());
    assert!(plan.notes()[0].contains("no tagging"), "{:?}", plan.notes());
}

#[test]
fn keys_and_local_indexes_block() {
    let definition = Definition::of::<Tweet>();
    let mut other_keys = definition.clone();
    other_keys.schema.key_schema = vec![KeySchemaElement::hash("userid")];
    other_keys.schema.local_secondary_indexes.clear();
    let plan = plan_of(&definition, Some(&live_as(&other_keys)));
    assert!(plan.is_blocked());
    let text = plan.to_string();
    assert!(
        text.contains(
            "! blocked: the key schema differs (live: userid HASH; model: userid HASH, id RANGE)"
        ),
        "{text}"
    );
    assert!(
        text.contains("LSI by-likes is in the model but not on the table"),
        "{text}"
    );

    let mut typed = definition.clone();
    typed.schema.attribute_definitions[0].attribute_type = ScalarAttributeType::N;
    assert_eq!(
        lines(&definition, Some(&live_as(&typed))),
        ["! blocked: key attribute userid is N live and S in the model; DynamoDB cannot change the type \
          of a table key: create a new table and copy the items (tweets)"]
    );

    let mut extra_lsi = definition.clone();
    let mut lsi = extra_lsi.schema.local_secondary_indexes[0].clone();
    lsi.index_name = "by-ts".into();
    extra_lsi.schema.local_secondary_indexes.push(lsi);
    let plan = plan_of(&definition, Some(&live_as(&extra_lsi)));
    assert!(plan.blockers()[0]
        .reason
        .starts_with("LSI by-ts is on the table but not in the model"));

    let mut changed_lsi = definition.clone();
    changed_lsi.schema.local_secondary_indexes[0]
        .projection
        .projection_type = ProjectionType::All;
    let plan = plan_of(&definition, Some(&live_as(&changed_lsi)));
    assert!(
        plan.blockers()[0]
            .reason
            .starts_with("LSI by-likes differs (live: userid HASH, likes RANGE; ALL;"),
        "{plan}"
    );
}

#[test]
fn deleting_indexes_are_gone_already() {
    let definition = Definition::of::<Tweet>();
    let mut extra = definition.clone();
    let mut gsi = extra.schema.global_secondary_indexes[0].clone();
    gsi.index_name = "old-index".into();
    extra.schema.global_secondary_indexes.push(gsi);
    let mut live = live_as(&extra);
    live.table.global_secondary_indexes[1].index_status = TableStatus::Deleting;
    assert!(plan_of(&definition, Some(&live)).is_empty());
}

#[test]
fn namespaces_prefix_the_table() {
    let definition = Definition::of::<Tweet>();
    assert_eq!(definition.table_name(), "tweets");
    let namespaced = definition.namespaced("ci-");
    assert_eq!(namespaced.table_name(), "ci-tweets");
    assert_eq!(namespaced.ttl_attribute.as_deref(), Some("expires"));
    assert_eq!(
        lines(
            &namespaced,
            Some(&live_as(&{
                let mut d = namespaced.clone();
                d.schema.stream_specification = None;
                d
            }))
        ),
        ["~ stream off -> NEW_IMAGE on ci-tweets"]
    );
}

#[test]
fn point_in_time_recovery_is_turned_on_changed_and_off() {
    let mut definition = Definition::of::<Tweet>();
    let live = live_as(&definition);
    definition.point_in_time_recovery = Some(PointInTimeRecoverySpecification {
        point_in_time_recovery_enabled: true,
        recovery_period_in_days: None,
    });
    assert_eq!(
        lines(&definition, Some(&live)),
        ["+ point-in-time recovery on tweets"]
    );
    // On with DynamoDB's default window: a model naming none, or 35, agrees.
    let on = live_as(&definition);
    assert!(lines(&definition, Some(&on)).is_empty());
    let mut seven = definition.clone();
    seven.point_in_time_recovery = Some(PointInTimeRecoverySpecification {
        point_in_time_recovery_enabled: true,
        recovery_period_in_days: Some(7),
    });
    assert_eq!(
        lines(&seven, Some(&on)),
        ["+ point-in-time recovery (7 days) on tweets"]
    );
    // Off is destructive and refused without its option.
    let off = Definition::of::<Tweet>();
    let plan = plan_of(&off, Some(&on));
    assert_eq!(
        plan.to_string(),
        "- point-in-time recovery off on tweets (destructive: its recovery window is lost)"
    );
    assert_eq!(plan.destructive_steps().count(), 1);
    // A database without the operation: left alone, with a note.
    let mut unknown = live_as(&definition);
    unknown.point_in_time_recovery = None;
    let plan = plan_of(&definition, Some(&unknown));
    assert!(plan.is_empty());
    assert_eq!(plan.notes().len(), 1, "{plan}");
    // A new table: created, then its recovery turned on.
    let created = lines(&seven, None);
    assert_eq!(
        created.last().map(String::as_str),
        Some("+ point-in-time recovery (7 days) on tweets")
    );
}

/// DynamoDB answers UpdateContinuousBackups with `ContinuousBackupsUnavailableException` for a while
/// after creating a table: apply polls until it passes, and gives up with the error at the timeout.
#[tokio::test(start_paused = true)]
async fn recovery_waits_while_backups_are_being_enabled() {
    use crate::backend::testing::{op, RecordingBackend};
    use std::sync::Arc;
    use std::time::Duration;

    let definition = Definition::of::<Tweet>();
    let active = live_as(&definition).table;
    let unavailable = || crate::Error::Service {
        code: "ContinuousBackupsUnavailableException".into(),
        message: "Backups are being enabled for the table: tweets. Please retry later".into(),
    };
    let fake = Arc::new(RecordingBackend::new());
    let described = active.clone();
    fake.on(op::describe_table, move |_| {
        Ok(DescribeTableOutput {
            table: described.clone(),
        })
    });
    let enabled = UpdateContinuousBackupsOutput {
        continuous_backups_description: ContinuousBackupsDescription {
            continuous_backups_status: ContinuousBackupsStatus::Enabled,
            point_in_time_recovery_description: None,
        },
    };
    fake.answer(op::update_continuous_backups, Err(unavailable()))
        .answer(op::update_continuous_backups, Err(unavailable()))
        .answer(op::update_continuous_backups, Ok(enabled));
    let db = crate::Db::from_arc(fake.clone());
    let plan = Plan {
        steps: vec![Step::new(
            "tweets",
            Action::SetPointInTimeRecovery {
                enabled: true,
                recovery_period_in_days: None,
            },
        )],
        ..Plan::default()
    };
    let waits = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = Arc::clone(&waits);
    let options = ApplyOptions::default()
        .poll_interval(Duration::from_secs(5))
        .on_progress(move |p| {
            if matches!(p, Progress::Waiting { .. }) {
                counted.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        });
    plan.apply_with(&db, options.clone()).await.unwrap();
    assert_eq!(waits.load(std::sync::atomic::Ordering::Relaxed), 2);

    // Never available: the error, once the timeout has passed.
    fake.on(op::update_continuous_backups, move |_| Err(unavailable()));
    let err = plan
        .apply_with(&db, options.timeout(Duration::from_secs(30)))
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .contains("ContinuousBackupsUnavailableException"),
        "{err}"
    );
}

/// Tweets with a new index on a plain required field (`city`: every item holds it) and one on a
/// defaulted field (`lang`: older items may lack it), of version 2.
#[derive(Model)]
#[dynomodel(table = "tweets", item_version = 2)]
#[global_index(all("by-city", hash = city))]
#[global_index(all("by-lang", hash = lang))]
#[upcast(from = 1, item = same)]
struct Tweet2 {
    #[hash_key]
    userid: String,
    #[range_key]
    id: String,
    city: String,
    #[dynomodel(default)]
    lang: String,
}

fn same(item: crate::Item) -> std::result::Result<crate::Item, crate::ConversionError> {
    Ok(item)
}

#[test]
fn data_steps_are_listed_for_indexes_older_items_may_miss_and_item_versions() {
    let old = Definition::of::<Tweet2>();
    let mut live = live_as(&old);
    live.table.global_secondary_indexes.clear();
    live.table.item_count = 42;
    let schema = diff(&old, Some(&live));
    assert_eq!(schema.steps.len(), 2); // two CreateIndex
    let items = &old.items[0];
    let mut notes = Vec::new();
    let step = data::data_step("tweets", items, Some(&live), &schema.steps, &mut notes).unwrap();
    assert_eq!(
        step.reasons,
        [
            DataReason::IndexKeys {
                index: "by-lang".into(),
                attributes: vec!["lang".into()]
            },
            DataReason::ItemVersion {
                recorded: None,
                model: 2
            }
        ]
    );
    assert_eq!(step.items_to_scan, 42);

    // Recorded at version 2 and no index created: nothing to do. No tagging: a note.
    live.tags = Some(vec![Tag::new("dynomodel:item-version:Tweet2", "2")]);
    assert!(data::data_step("tweets", items, Some(&live), &[], &mut notes).is_none());
    assert!(notes.is_empty());
    live.tags = None;
    assert!(data::data_step("tweets", items, Some(&live), &[], &mut notes).is_none());
    assert_eq!(notes.len(), 1);
    // A table the plan creates holds no item.
    assert!(data::data_step("tweets", items, None, &schema.steps, &mut notes).is_none());
}
