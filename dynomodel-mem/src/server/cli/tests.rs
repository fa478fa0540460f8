//! The command line's parsing and help.

use std::num::NonZeroUsize;
use std::time::Duration;

use super::options::{parse, LimitOptions, Options, SignatureOptions};
use super::serve::backend;
use super::*;

fn args(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_owned).collect()
}

#[test]
fn defaults_are_loopback_port_8000() {
    let options = parse(&args("serve"), None).unwrap();
    assert_eq!(options.host, "127.0.0.1");
    assert_eq!(options.port, 8000);
    assert_eq!(options.threads, None);
    assert_eq!(options.log, log::LevelFilter::Warn);
    assert_eq!(options.region, None);
    assert_eq!(options.account, None);
    assert_eq!(options.transition_time, Duration::ZERO);
    assert_eq!(options.ttl_sweep_interval, Duration::from_secs(60));
    assert_eq!(options.limits, LimitOptions::default());
    assert_eq!((options.admin_token, options.allow_hosts), (None, vec![]));
    assert_eq!(options.cors_origins, Vec::<String>::new());
    assert_eq!(options.signatures, SignatureOptions::default());
}

/// The description of `flag` in `serve --help`, on one line.
fn help_of(flag: &str) -> String {
    let start = SERVE_USAGE
        .find(&format!("\n  {flag} "))
        .expect("described");
    let rest = &SERVE_USAGE[start + 1..];
    let end = rest[2..].find("\n  -").map_or(rest.len(), |i| i + 2);
    rest[..end].split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_help_states_the_servers_default_limits() {
    use crate::server::{
        DEFAULT_BODY_TIMEOUT, DEFAULT_HEADER_TIMEOUT, DEFAULT_MAX_BODY_MEMORY,
        DEFAULT_WRITE_TIMEOUT,
    };
    for (flag, default) in [
        ("--header-timeout", DEFAULT_HEADER_TIMEOUT),
        ("--body-timeout", DEFAULT_BODY_TIMEOUT),
        ("--write-timeout", DEFAULT_WRITE_TIMEOUT),
    ] {
        let help = help_of(flag);
        assert!(
            help.contains(&format!("(default {})", default.as_secs())),
            "{help}"
        );
    }
    let help = help_of("--max-body-memory");
    assert!(
        help.contains(&format!("(default {DEFAULT_MAX_BODY_MEMORY}, 128 MiB)")),
        "{help}"
    );
    let help = help_of("--max-connections");
    assert!(
        help.contains("the open-file limit less 64, at most 10000"),
        "{help}"
    );
}

#[test]
fn every_option() {
    let options = parse(
        &args(
            "serve --host 0.0.0.0 --port 0 --threads 3 --log debug --region eu-west-1 \
             --account 123456789012 --transition-time 2.5 --ttl-sweep-interval 0 \
             --enforce-throughput --manual-clock --seed fixture.jsonl --data-dir /tmp/d \
             --sync 10ms --compact-after 1000 --header-timeout 5 --body-timeout 0.5 \
             --write-timeout 7 --max-connections 100 --max-body-memory 1048576 \
             --admin-token s3cret --allow-host a.test --allow-host b.test \
             --cors-origin https://app.test --verify-signatures --access-key AKID:se:cret \
             --access-keys-file keys.txt",
        ),
        Some("error"),
    )
    .unwrap();
    assert_eq!(
        options,
        Options {
            host: "0.0.0.0".into(),
            port: 0,
            threads: NonZeroUsize::new(3),
            log: log::LevelFilter::Debug,
            region: Some("eu-west-1".into()),
            account: Some("123456789012".into()),
            transition_time: Duration::from_millis(2500),
            ttl_sweep_interval: Duration::ZERO,
            enforce_throughput: true,
            manual_clock: true,
            seed: Some("fixture.jsonl".into()),
            data_dir: Some("/tmp/d".into()),
            sync: Some(crate::SyncPolicy::Every(Duration::from_millis(10))),
            compact_after: Some(1000),
            limits: LimitOptions {
                header_timeout: Some(Duration::from_secs(5)),
                body_timeout: Some(Duration::from_millis(500)),
                write_timeout: Some(Duration::from_secs(7)),
                max_connections: Some(100),
                max_body_memory: Some(1_048_576),
            },
            admin_token: Some("s3cret".into()),
            allow_hosts: vec!["a.test".into(), "b.test".into()],
            cors_origins: vec!["https://app.test".into()],
            signatures: SignatureOptions {
                verify: true,
                keys: vec![("AKID".into(), "se:cret".into())],
                file: Some("keys.txt".into()),
            },
        }
    );
    assert_eq!(
        parse(&args("serve --sync always"), None).unwrap_err(),
        "--sync needs --data-dir"
    );
    assert!(parse(&args("serve --data-dir d --sync often"), None)
        .unwrap_err()
        .contains("invalid sync policy"));
    assert_eq!(
        parse(&args("serve"), Some("info")).unwrap().log,
        log::LevelFilter::Info
    );
}

#[tokio::test]
async fn enforce_throughput_makes_provisioned_tables_throttle() {
    use dynomodel::backend::{
        AttributeDefinition, Backend, CreateTableInput, GetItemInput, KeySchemaElement,
        ProvisionedThroughput, ScalarAttributeType,
    };
    use dynomodel::AttributeValue;
    let (backend, _) = backend(&parse(&args("serve --enforce-throughput"), None).unwrap()).unwrap();
    backend
        .create_table(CreateTableInput {
            table_name: "users".into(),
            attribute_definitions: vec![AttributeDefinition {
                attribute_name: "id".into(),
                attribute_type: ScalarAttributeType::S,
            }],
            key_schema: vec![KeySchemaElement::hash("id")],
            provisioned_throughput: Some(ProvisionedThroughput {
                read_capacity_units: 1,
                write_capacity_units: 1,
            }),
            ..Default::default()
        })
        .await
        .unwrap();
    let get = GetItemInput {
        table_name: "users".into(),
        key: [("id".to_owned(), AttributeValue::S("u1".into()))].into(),
        consistent_read: Some(true),
        ..Default::default()
    };
    // One second of 1 RCU: on the system clock the bucket refills continuously, so the read
    // after the one that emptied it may find a sliver and pass (taking the balance to about
    // -1); the one after that is refused.
    let mut refused = None;
    for _ in 0..3 {
        if let Err(e) = backend.get_item(get.clone()).await {
            refused = Some(e);
            break;
        }
    }
    let err = refused.expect("a throttle within three reads");
    assert_eq!(err.code(), "ProvisionedThroughputExceededException");
}

#[test]
fn the_backend_gets_region_account_and_transition_time() {
    use dynomodel::backend::{
        AttributeDefinition, Backend, CreateTableInput, KeySchemaElement, KeyType,
        ScalarAttributeType,
    };
    let options = parse(
        &args("serve --region eu-west-1 --account 123456789012"),
        None,
    )
    .unwrap();
    let (backend, clock) = backend(&options).unwrap();
    assert!(clock.is_none(), "the system clock unless --manual-clock");
    let create = CreateTableInput {
        table_name: "users".into(),
        attribute_definitions: vec![AttributeDefinition {
            attribute_name: "id".into(),
            attribute_type: ScalarAttributeType::S,
        }],
        key_schema: vec![KeySchemaElement {
            attribute_name: "id".into(),
            key_type: KeyType::Hash,
        }],
        billing_mode: Some(dynomodel::backend::BillingMode::PayPerRequest),
        ..Default::default()
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let out = runtime.block_on(backend.create_table(create)).unwrap();
    assert_eq!(
        out.table_description.table_arn,
        "arn:aws:dynamodb:eu-west-1:123456789012:table/users"
    );
}

/// A value each flag that takes one accepts.
fn sample_value(flag: &str) -> Option<&'static str> {
    match flag {
        "--enforce-throughput" | "--manual-clock" | "--verify-signatures" => None,
        "--port" | "--threads" | "--transition-time" | "--ttl-sweep-interval" => Some("1"),
        "--header-timeout" | "--body-timeout" | "--write-timeout" | "--max-connections" => {
            Some("1")
        }
        "--max-body-memory" => Some("1048576"),
        "--compact-after" => Some("1000"),
        "--sync" => Some("10ms"),
        "--log" => Some("info"),
        "--access-key" => Some("AKID:secret"),
        _ => Some("x"),
    }
}

#[test]
fn the_help_documents_every_option() {
    // Each flag the parser takes (it refuses any not listed) is in the synopsis and described.
    for flag in SERVE_FLAGS {
        assert!(
            SERVE_USAGE.contains(&format!("[{flag}")),
            "{flag} in the synopsis"
        );
        assert_eq!(
            SERVE_USAGE.matches(&format!("\n  {flag} ")).count(),
            1,
            "{flag} described once"
        );
        let mut line = vec!["serve".to_owned(), (*flag).to_owned()];
        line.extend(sample_value(flag).map(str::to_owned));
        if ["--sync", "--compact-after"].contains(flag) {
            line.extend(["--data-dir".to_owned(), "d".to_owned()]);
        }
        if ["--access-key", "--access-keys-file"].contains(flag) {
            line.push("--verify-signatures".to_owned());
        }
        if *flag == "--verify-signatures" {
            line.extend(["--access-key".to_owned(), "AKID:secret".to_owned()]);
        }
        assert!(parse(&line, None).is_ok(), "{line:?}");
    }
    for command in ["serve", "export", "import", "repair"] {
        assert!(USAGE.contains(&format!("  {command} ")), "{command}");
        assert!(usage(Some(command)).starts_with(&format!("usage: dynomodel-mem {command} ")));
    }
    assert_eq!(usage(None), USAGE);
}

#[test]
fn usage_errors() {
    for (line, error) in [
        ("", "missing command"),
        ("start", "unknown command \"start\""),
        ("serve --port", "--port needs a value"),
        ("serve --port 70000", "invalid port \"70000\""),
        ("serve --threads 0", "invalid thread count \"0\""),
        ("serve --log loud", "unknown log level \"loud\""),
        ("serve --verbose", "unknown option \"--verbose\""),
        ("serve --region", "--region needs a value"),
        (
            "serve --transition-time soon",
            "invalid --transition-time \"soon\": expected seconds",
        ),
        (
            "serve --ttl-sweep-interval -1",
            "invalid --ttl-sweep-interval \"-1\": expected seconds",
        ),
        (
            "serve --body-timeout 0",
            "invalid --body-timeout \"0\": expected seconds, more than 0",
        ),
        (
            "serve --max-connections 0",
            "invalid --max-connections \"0\": expected a whole number, at least 1",
        ),
        (
            "serve --max-body-memory lots",
            "invalid --max-body-memory \"lots\": expected a whole number, at least 1",
        ),
        (
            "serve --verify-signatures",
            "--verify-signatures needs --access-key or --access-keys-file",
        ),
        (
            "serve --access-key AKID:secret",
            "--access-key and --access-keys-file need --verify-signatures",
        ),
        (
            "serve --verify-signatures --access-key AKID",
            "invalid access key \"AKID…\": expected ACCESS_KEY_ID:SECRET_ACCESS_KEY",
        ),
        (
            "serve --verify-signatures --access-key AKID:",
            "invalid access key \"AKID:…\": expected ACCESS_KEY_ID:SECRET_ACCESS_KEY",
        ),
    ] {
        assert_eq!(parse(&args(line), None).unwrap_err(), error, "{line}");
    }
    assert_eq!(
        parse(&args("serve"), Some("chatty")).unwrap_err(),
        "unknown log level \"chatty\""
    );
}
