//! UpdateTimeToLive's state machine and errors on a `ManualClock`, and sweeps across indexes.

use std::time::Duration;

use dynomodel::backend::{
    AttributeDefinition, BillingMode, CreateTableInput, DescribeTableInput,
    DescribeTimeToLiveInput, GetItemInput, GlobalSecondaryIndex, KeySchemaElement,
    LocalSecondaryIndex, Projection, ProjectionType, PutItemInput, QueryInput, ScalarAttributeType,
    TimeToLiveSpecification, TimeToLiveStatus, UpdateTimeToLiveInput,
};
use dynomodel::{AttributeValue, Item, Number};

use crate::metering::throughput::Throughput;
use crate::storage::clock::{Clock, EngineClock, ManualClock};
use crate::storage::settings::EngineConfig;
use crate::storage::state::State;

fn engine(transition: Duration) -> (State, ManualClock) {
    let clock = ManualClock::default();
    let config = EngineConfig {
        transition,
        ..EngineConfig::default()
    };
    let mut state = State::new(EngineClock::new(clock.clone()), config);
    let def = |name: &str| AttributeDefinition {
        attribute_name: name.into(),
        attribute_type: ScalarAttributeType::S,
    };
    let projection = Projection {
        projection_type: ProjectionType::All,
        non_key_attributes: vec![],
    };
    state
        .create_table(
            CreateTableInput {
                table_name: "events".into(),
                attribute_definitions: vec![def("pk"), def("sk"), def("g"), def("l")],
                key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("sk")],
                billing_mode: Some(BillingMode::PayPerRequest),
                global_secondary_indexes: vec![GlobalSecondaryIndex {
                    index_name: "by-g".into(),
                    key_schema: vec![KeySchemaElement::hash("g")],
                    projection: projection.clone(),
                    provisioned_throughput: None,
                }],
                local_secondary_indexes: vec![LocalSecondaryIndex {
                    index_name: "by-l".into(),
                    key_schema: vec![KeySchemaElement::hash("pk"), KeySchemaElement::range("l")],
                    projection,
                }],
                ..Default::default()
            },
            &Throughput::default(),
        )
        .expect("create");
    // The table is CREATING for the transition time (see `ttl_waits_while_the_table_is_created`).
    clock.advance(transition);
    (state, clock)
}

#[test]
fn ttl_waits_while_the_table_is_created_and_describe_refuses_while_deleting() {
    let clock = ManualClock::default();
    let config = EngineConfig {
        transition: Duration::from_secs(10),
        ..EngineConfig::default()
    };
    let mut state = State::new(EngineClock::new(clock.clone()), config);
    state
        .create_table(
            CreateTableInput {
                table_name: "events".into(),
                attribute_definitions: vec![AttributeDefinition {
                    attribute_name: "pk".into(),
                    attribute_type: ScalarAttributeType::S,
                }],
                key_schema: vec![KeySchemaElement::hash("pk")],
                billing_mode: Some(BillingMode::PayPerRequest),
                ..Default::default()
            },
            &Throughput::default(),
        )
        .expect("create");
    let err = update(&mut state, true, "ttl").unwrap_err();
    assert_eq!(err.code(), "ResourceInUseException");
    assert_eq!(
        err.message(),
        "Attempt to change a resource which is still in use: Table events is being created"
    );
    let describe_err = |state: &State| {
        state
            .describe_time_to_live(&DescribeTimeToLiveInput {
                table_name: "events".into(),
            })
            .unwrap_err()
    };
    let err = describe_err(&state);
    assert_eq!(err.code(), "ValidationException");
    assert_eq!(
        err.message(),
        "Cannot describe time to live while table is in CREATING state: Current table state is CREATING"
    );
    clock.advance(Duration::from_secs(10));
    update(&mut state, true, "ttl").expect("enable once ACTIVE");
    assert_eq!(
        describe(&state),
        (TimeToLiveStatus::Enabling, Some("ttl".into()))
    );
    state
        .delete_table(&dynomodel::backend::DeleteTableInput {
            table_name: "events".into(),
        })
        .expect("delete");
    assert_eq!(
        describe_err(&state).message(),
        "Cannot describe time to live while table is in DELETING state: Current table state is DELETING"
    );
}

fn update(state: &mut State, enabled: bool, attribute: &str) -> dynomodel::Result<()> {
    state
        .update_time_to_live(&UpdateTimeToLiveInput {
            table_name: "events".into(),
            time_to_live_specification: TimeToLiveSpecification {
                enabled,
                attribute_name: attribute.into(),
            },
        })
        .map(|out| {
            assert_eq!(out.time_to_live_specification.enabled, enabled);
            assert_eq!(out.time_to_live_specification.attribute_name, attribute);
        })
}

fn describe(state: &State) -> (TimeToLiveStatus, Option<String>) {
    let d = state
        .describe_time_to_live(&DescribeTimeToLiveInput {
            table_name: "events".into(),
        })
        .expect("describe")
        .time_to_live_description;
    (d.time_to_live_status, d.attribute_name)
}

fn message(r: dynomodel::Result<()>) -> String {
    match r {
        Err(e) => {
            assert_eq!(e.code(), "ValidationException", "{e:?}");
            e.message()
        }
        Ok(()) => "<ok>".into(),
    }
}

const HOUR: Duration = Duration::from_secs(3600);

#[test]
fn state_machine_and_window() {
    let (mut state, clock) = engine(Duration::ZERO);
    assert_eq!(describe(&state), (TimeToLiveStatus::Disabled, None));
    assert_eq!(
        message(update(&mut state, false, "ttl")),
        "TimeToLive is already disabled"
    );
    update(&mut state, true, "ttl").expect("enable");
    assert_eq!(
        describe(&state),
        (TimeToLiveStatus::Enabled, Some("ttl".into()))
    );
    // Content errors come before the window.
    assert_eq!(
        message(update(&mut state, true, "ttl")),
        "TimeToLive is already enabled"
    );
    let other = "TimeToLive is active on a different AttributeName: current AttributeName is ttl";
    assert_eq!(message(update(&mut state, true, "other")), other);
    assert_eq!(message(update(&mut state, false, "other")), other);
    // The window: one hour after the change, to the second.
    clock.advance(HOUR - Duration::from_secs(1));
    assert_eq!(
        message(update(&mut state, false, "ttl")),
        "Time to live has been modified multiple times within a fixed interval"
    );
    clock.advance(Duration::from_secs(1));
    update(&mut state, false, "ttl").expect("disable");
    assert_eq!(describe(&state), (TimeToLiveStatus::Disabled, None));
    // Failed attempts do not extend the window; the disable started a new one.
    assert!(message(update(&mut state, true, "other")).contains("multiple times"));
    clock.advance(HOUR);
    update(&mut state, true, "other").expect("enable another attribute");
    assert_eq!(
        describe(&state),
        (TimeToLiveStatus::Enabled, Some("other".into()))
    );
}

#[test]
fn transitions_take_the_configured_time() {
    let (mut state, clock) = engine(Duration::from_secs(30));
    update(&mut state, true, "ttl").expect("enable");
    assert_eq!(
        describe(&state),
        (TimeToLiveStatus::Enabling, Some("ttl".into()))
    );
    clock.advance(Duration::from_secs(30));
    assert_eq!(
        describe(&state),
        (TimeToLiveStatus::Enabled, Some("ttl".into()))
    );
    clock.advance(HOUR);
    update(&mut state, false, "ttl").expect("disable");
    assert_eq!(
        describe(&state),
        (TimeToLiveStatus::Disabling, Some("ttl".into()))
    );
    clock.advance(Duration::from_secs(30));
    assert_eq!(describe(&state), (TimeToLiveStatus::Disabled, None));
}

#[test]
fn request_errors() {
    let (mut state, _) = engine(Duration::ZERO);
    let long = "a".repeat(256);
    assert_eq!(
        message(update(&mut state, true, &long)),
        format!(
            "1 validation error detected: Value '{long}' at 'timeToLiveSpecification.attributeName' \
             failed to satisfy constraint: Member must have length less than or equal to 255"
        )
    );
    assert_eq!(
        message(update(&mut state, true, "")),
        "1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName' failed \
         to satisfy constraint: Member must have length greater than or equal to 1"
    );
    update(&mut state, true, &"a".repeat(255)).expect("255 characters");
    let missing = state.update_time_to_live(&UpdateTimeToLiveInput {
        table_name: "nothing".into(),
        time_to_live_specification: TimeToLiveSpecification {
            enabled: true,
            attribute_name: "ttl".into(),
        },
    });
    let err = missing.expect_err("missing table");
    assert_eq!(
        (err.code(), err.message().as_str()),
        (
            "ResourceNotFoundException",
            "Requested resource not found: Table: nothing not found"
        )
    );
    let short = state.describe_time_to_live(&DescribeTimeToLiveInput {
        table_name: "ab".into(),
    });
    assert_eq!(
        short.expect_err("short name").message(),
        crate::validate::TABLE_NAME_LENGTH
    );
    // The table's ARN names it too.
    let by_arn = state
        .describe_time_to_live(&DescribeTimeToLiveInput {
            table_name: "arn:aws:dynamodb:ddblocal:000000000000:table/events".into(),
        })
        .expect("by ARN");
    assert_eq!(
        by_arn.time_to_live_description.time_to_live_status,
        TimeToLiveStatus::Enabled
    );
}

fn at(seconds_from_now: i64, clock: &ManualClock) -> AttributeValue {
    AttributeValue::N(Number::from(clock.now().timestamp() + seconds_from_now))
}

fn put(state: &mut State, sk: &str, ttl: Option<AttributeValue>) {
    let mut item = Item::from([
        ("pk".to_owned(), AttributeValue::S("p".into())),
        ("sk".to_owned(), AttributeValue::S(sk.into())),
        ("g".to_owned(), AttributeValue::S("g".into())),
        ("l".to_owned(), AttributeValue::S(sk.into())),
    ]);
    if let Some(ttl) = ttl {
        item.insert("ttl".into(), ttl);
    }
    state
        .put_item(PutItemInput {
            table_name: "events".into(),
            item,
            ..Default::default()
        })
        .expect("put");
}

fn index_count(state: &State, index: Option<&str>) -> usize {
    let (key, value) = match index {
        Some("by-g") => ("g", "g"),
        _ => ("pk", "p"),
    };
    state
        .query(&QueryInput {
            table_name: "events".into(),
            index_name: index.map(str::to_owned),
            key_condition_expression: Some("#k = :v".into()),
            expression_attribute_names: Some([("#k".to_owned(), key.to_owned())].into()),
            expression_attribute_values: Some(
                [(":v".to_owned(), AttributeValue::S(value.into()))].into(),
            ),
            ..Default::default()
        })
        .expect("query")
        .items
        .map_or(0, |items| items.len())
}

fn item_counts(state: &State) -> (i64, i64, i64) {
    let t = state
        .describe_table(&DescribeTableInput {
            table_name: "events".into(),
        })
        .expect("describe")
        .table;
    (
        t.item_count,
        t.global_secondary_indexes[0].item_count,
        t.local_secondary_indexes[0].item_count,
    )
}

#[test]
fn sweeps_delete_from_the_table_and_every_index() {
    let (mut state, clock) = engine(Duration::ZERO);
    // Items written before TTL is enabled are indexed when it is.
    put(&mut state, "old", Some(at(-10, &clock)));
    update(&mut state, true, "ttl").expect("enable");
    put(&mut state, "now", Some(at(0, &clock)));
    put(&mut state, "later", Some(at(1, &clock)));
    put(&mut state, "text", Some(AttributeValue::S("0".into())));
    put(&mut state, "none", None);
    // Replaced with a later expiry: the old one must not be swept.
    put(&mut state, "moved", Some(at(-5, &clock)));
    put(&mut state, "moved", Some(at(100, &clock)));
    assert_eq!(item_counts(&state), (6, 6, 6));
    // Expired items are still read until a sweep.
    let get = GetItemInput {
        table_name: "events".into(),
        key: Item::from([
            ("pk".to_owned(), AttributeValue::S("p".into())),
            ("sk".to_owned(), AttributeValue::S("old".into())),
        ]),
        ..Default::default()
    };
    assert!(state.get_item(&get).expect("get").item.is_some());
    assert_eq!(index_count(&state, Some("by-g")), 6);

    assert_eq!(state.sweep_expired(), 2);
    assert!(state.get_item(&get).expect("get").item.is_none());
    assert_eq!(item_counts(&state), (4, 4, 4));
    assert_eq!(index_count(&state, None), 4);
    assert_eq!(index_count(&state, Some("by-g")), 4);
    assert_eq!(index_count(&state, Some("by-l")), 4);
    assert_eq!(state.sweep_expired(), 0);

    clock.advance(Duration::from_secs(1));
    assert_eq!(state.sweep_expired(), 1, "\"later\" expires one second on");
    clock.advance(Duration::from_secs(1000));
    assert_eq!(state.sweep_expired(), 1, "\"moved\" at its new time");
    assert_eq!(item_counts(&state), (2, 2, 2));
}

#[test]
fn nothing_is_swept_unless_ttl_is_enabled() {
    let (mut state, clock) = engine(Duration::from_secs(60));
    put(&mut state, "old", Some(at(-10, &clock)));
    assert_eq!(state.sweep_expired(), 0, "TTL off");
    update(&mut state, true, "ttl").expect("enable");
    assert_eq!(state.sweep_expired(), 0, "ENABLING");
    clock.advance(Duration::from_secs(60));
    put(&mut state, "second", Some(at(-1, &clock)));
    clock.advance(HOUR);
    update(&mut state, false, "ttl").expect("disable");
    assert_eq!(state.sweep_expired(), 0, "DISABLING");
    assert_eq!(item_counts(&state).0, 2);
}

/// The costs the expiry index is for, on 100,000 items (run with `cargo test --release -p
/// dynomodel-mem --lib -- --ignored --nocapture sweep_cost`): puts with TTL off and on, a sweep that
/// finds nothing, a sweep that deletes 1,000 items.
#[test]
#[ignore = "a measurement: run it in release mode and read the numbers"]
fn sweep_cost_on_100k_items() {
    use std::time::Instant;
    const ITEMS: usize = 100_000;
    let fill = |state: &mut State, clock: &ManualClock| {
        let started = Instant::now();
        for i in 0..ITEMS {
            // 1% expire within 10 seconds, the rest in a day.
            let offset = if i % 100 == 0 { 5 } else { 86_400 };
            put(state, &format!("item-{i:06}"), Some(at(offset, clock)));
        }
        started.elapsed()
    };
    let (mut off, clock_off) = engine(Duration::ZERO);
    let puts_off = fill(&mut off, &clock_off);
    println!(
        "{ITEMS} puts, TTL off: {puts_off:?} ({:?}/put)",
        puts_off / ITEMS as u32
    );
    let (mut on, clock) = engine(Duration::ZERO);
    update(&mut on, true, "ttl").expect("enable");
    let puts_on = fill(&mut on, &clock);

    let started = Instant::now();
    let none = on.sweep_expired();
    let sweep_nothing = started.elapsed();
    clock.advance(Duration::from_secs(10));
    let started = Instant::now();
    let some = on.sweep_expired();
    let sweep_some = started.elapsed();
    assert_eq!((none, some), (0, ITEMS / 100));

    // Enabling TTL on a full table indexes every item once.
    let started = Instant::now();
    update(&mut off, true, "ttl").expect("enable");
    let enable = started.elapsed();
    println!(
        "{ITEMS} puts, TTL on: {puts_on:?} ({:?}/put)\n\
         sweep, nothing expired: {sweep_nothing:?}; sweep deleting {some}: {sweep_some:?}\n\
         UpdateTimeToLive(enable) on {ITEMS} items: {enable:?}",
        puts_on / ITEMS as u32,
    );
}
