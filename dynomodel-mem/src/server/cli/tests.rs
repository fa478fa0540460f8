//! The command line's parsing and help.

#![allow(clippy::unwrap_used)]

use std::num::NonZeroUsize;
use std::time::Duration;

use clap::CommandFactory;

use super::consistency::ConsistencyOptions;
use super::options::{LimitOptions, LogLevel, Options, SignatureOptions};
use super::serve::backend;
use super::*;

/// `args` (without the program name) as clap parses them.
fn parse_all(text: &str) -> Result<Cli, clap::Error> {
    let words = text.split_whitespace();
    Cli::try_parse_from(std::iter::once("dynomodel-mem").chain(words))
}

/// `serve`'s options from `serve …`, or clap's error, rendered as the user sees it.
fn parse(text: &str) -> Result<Options, String> {
    match parse_all(text).map_err(|e| e.to_string())?.command {
        Command::Serve(options) => Ok(*options),
        other => panic!("not serve: {other:?}"),
    }
}

/// The help clap prints for `command --help`.
fn help(command: &str) -> String {
    let mut cli = Cli::command();
    cli.build();
    match cli.find_subcommand_mut(command) {
        Some(sub) => sub.render_long_help().to_string(),
        None => cli.render_long_help().to_string(),
    }
}

#[test]
fn the_command_line_is_consistent() {
    // clap's own checks: no two flags share a name, every `requires` names a flag, ….
    Cli::command().debug_assert();
}

#[test]
fn defaults_are_loopback_port_8000() {
    let options = parse("serve").unwrap();
    assert_eq!(options.host, "127.0.0.1");
    assert_eq!(options.port, 8000);
    assert_eq!(options.threads, None);
    assert_eq!(options.log, None);
    assert_eq!(options.region, None);
    assert_eq!(options.account, None);
    assert_eq!(options.transition_time, Duration::ZERO);
    assert_eq!(options.ttl_sweep_interval, Duration::from_secs(60));
    assert_eq!(options.limits, default_limits());
    assert_eq!((options.admin_token, options.allow_hosts), (None, vec![]));
    assert_eq!(options.cors_origins, Vec::<String>::new());
    assert_eq!(options.signatures, SignatureOptions::default());
    assert_eq!(options.consistency, ConsistencyOptions::default());
    assert_eq!(options.consistency.settings(), None, "strongly consistent");
}

#[test]
fn eventual_consistency_flags_make_the_settings_and_need_the_switch() {
    let options = parse("serve --eventual-consistency").unwrap();
    assert_eq!(
        options.consistency.settings(),
        Some(crate::EventualConsistency::new())
    );
    let options =
        parse("serve --eventual-consistency --gsi-delay 2 --stale-reads 0 --consistency-seed 9")
            .unwrap();
    assert_eq!(
        options.consistency.settings(),
        Some(
            crate::EventualConsistency::new()
                .gsi_delay(Duration::from_secs(2))
                .stale_reads(Duration::ZERO)
                .seed(9)
        )
    );
    let refused = |line: &str| parse(line).unwrap_err();
    assert!(
        refused("serve --gsi-delay 1").contains("--eventual-consistency"),
        "{}",
        refused("serve --gsi-delay 1")
    );
    assert!(
        refused("serve --eventual-consistency --gsi-delay 2..1").contains("MIN is more than MAX")
    );
    assert!(refused("serve --eventual-consistency --gsi-delay soon")
        .contains("expected SECONDS or MIN..MAX"));
}

/// The server's own defaults: what `serve` passes without a limit flag.
fn default_limits() -> LimitOptions {
    use crate::server::{
        DEFAULT_BODY_TIMEOUT, DEFAULT_HEADER_TIMEOUT, DEFAULT_MAX_BODY_MEMORY,
        DEFAULT_WRITE_TIMEOUT,
    };
    LimitOptions {
        header_timeout: DEFAULT_HEADER_TIMEOUT,
        body_timeout: DEFAULT_BODY_TIMEOUT,
        write_timeout: DEFAULT_WRITE_TIMEOUT,
        max_connections: None,
        max_body_memory: DEFAULT_MAX_BODY_MEMORY,
    }
}

/// The description of `flag` in `serve --help`, on one line.
fn help_of(flag: &str) -> String {
    let help = help("serve");
    let start = help.find(&format!("\n      {flag} ")).expect("described");
    let rest = &help[start + 1..];
    let end = rest[2..].find("\n  -").map_or(rest.len(), |i| i + 2);
    rest[..end].split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_help_states_the_servers_default_limits() {
    let limits = default_limits();
    for (flag, default) in [
        ("--header-timeout", limits.header_timeout),
        ("--body-timeout", limits.body_timeout),
        ("--write-timeout", limits.write_timeout),
    ] {
        let help = help_of(flag);
        assert!(
            help.contains(&format!("[default: {}]", default.as_secs())),
            "{help}"
        );
    }
    let help = help_of("--max-body-memory");
    assert!(
        help.contains(&format!("[default: {}]", limits.max_body_memory)),
        "{help}"
    );
    let help = help_of("--max-connections");
    assert!(
        help.contains("the open-file limit less 64, at most 10000"),
        "{help}"
    );
    let help = help_of("--compact-after");
    let default = crate::durable::Options::default().compact_after;
    assert!(
        help.contains(&format!("[default: {default}, 64 MiB]")),
        "{help}"
    );
}

#[test]
fn every_option() {
    let options = parse(
        "serve --host 0.0.0.0 --port 0 --threads 3 --log debug --region eu-west-1 \
             --account 123456789012 --transition-time 2.5 --ttl-sweep-interval 0 \
             --enforce-throughput --manual-clock --seed fixture.jsonl --data-dir /tmp/d \
             --sync 10ms --compact-after 1000 --header-timeout 5 --body-timeout 0.5 \
             --write-timeout 7 --max-connections 100 --max-body-memory 1048576 \
             --admin-token s3cret --allow-host a.test --allow-host b.test \
             --cors-origin https://app.test --verify-signatures --access-key AKID:se:cret \
             --access-keys-file keys.txt --eventual-consistency --gsi-delay 0.05..0.5 \
             --stale-reads 0.1 --consistency-seed 7",
    )
    .unwrap();
    assert_eq!(
        options,
        Options {
            host: "0.0.0.0".into(),
            port: 0,
            threads: NonZeroUsize::new(3),
            log: Some(LogLevel::Debug),
            region: Some("eu-west-1".into()),
            account: Some("123456789012".into()),
            transition_time: Duration::from_millis(2500),
            ttl_sweep_interval: Duration::ZERO,
            enforce_throughput: true,
            manual_clock: true,
            seed: Some("fixture.jsonl".into()),
            isolate: None,
            data_dir: Some("/tmp/d".into()),
            sync: Some(crate::SyncPolicy::Every(Duration::from_millis(10))),
            compact_after: Some(1000),
            consistency: ConsistencyOptions {
                enabled: true,
                gsi_delay: Some((Duration::from_millis(50), Duration::from_millis(500))),
                stale_reads: Some(Duration::from_millis(100)),
                consistency_seed: Some(7),
            },
            limits: LimitOptions {
                header_timeout: Duration::from_secs(5),
                body_timeout: Duration::from_millis(500),
                write_timeout: Duration::from_secs(7),
                max_connections: Some(100),
                max_body_memory: 1_048_576,
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
    assert_eq!(parse("serve --log INFO").unwrap().log, Some(LogLevel::Info));
}

#[tokio::test]
async fn enforce_throughput_makes_provisioned_tables_throttle() {
    use dynomodel::backend::{
        AttributeDefinition, Backend, CreateTableInput, GetItemInput, KeySchemaElement,
        ProvisionedThroughput, ScalarAttributeType,
    };
    use dynomodel::AttributeValue;
    let (backend, _) = backend(&parse("serve --enforce-throughput").unwrap()).unwrap();
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
    let options = parse("serve --region eu-west-1 --account 123456789012").unwrap();
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

#[test]
fn the_help_documents_every_command_and_option() {
    let top = help("");
    for command in ["serve", "export", "import", "repair"] {
        assert!(
            top.contains(&format!("\n  {command} ")),
            "{command} in {top}"
        );
        let help = help(command);
        assert!(
            help.contains(&format!("Usage: dynomodel-mem {command} ")),
            "{help}"
        );
        // Every flag says what it does.
        let cli = Cli::command();
        let sub = cli.find_subcommand(command).unwrap();
        for arg in sub.get_arguments() {
            let flag = arg.get_long().unwrap();
            assert!(arg.get_help().is_some(), "{command} --{flag} has no help");
            assert!(help.contains(&format!("--{flag}")), "{command} --{flag}");
        }
    }
    let serve = help("serve");
    for text in [
        "--seed <FILE>",
        "GET    /health",
        "[default: 8000]",
        "- debug: Also one line per request",
        "listening on\nhttp://HOST:PORT",
    ] {
        assert!(serve.contains(text), "{text:?} in {serve}");
    }
    assert!(help("repair").contains("DIR/aside/repair-N/"));
}

/// clap's message for `line`: its first line, which names the flag.
fn error_of(line: &str) -> String {
    let error = parse_all(line).unwrap_err();
    assert_eq!(error.exit_code(), 2, "{line}");
    let rendered = error.to_string();
    rendered.lines().next().unwrap_or_default().to_owned()
}

#[test]
fn usage_errors_name_the_flag_and_exit_2() {
    for (line, error) in [
        ("", ""),
        ("start", "error: unrecognized subcommand 'start'"),
        ("serve --port", "error: a value is required for '--port <PORT>' but none was supplied"),
        (
            "serve --port 70000",
            "error: invalid value '70000' for '--port <PORT>': 70000 is not in 0..=65535",
        ),
        (
            "serve --threads 0",
            "error: invalid value '0' for '--threads <N>': number would be zero for non-zero type",
        ),
        ("serve --log loud", "error: invalid value 'loud' for '--log <LEVEL>'"),
        ("serve --verbose", "error: unexpected argument '--verbose' found"),
        (
            "serve --transition-time soon",
            "error: invalid value 'soon' for '--transition-time <SECONDS>': expected seconds",
        ),
        (
            "serve --ttl-sweep-interval -1",
            "error: invalid value '-1' for '--ttl-sweep-interval <SECONDS>': expected seconds",
        ),
        (
            "serve --body-timeout 0",
            "error: invalid value '0' for '--body-timeout <SECONDS>': expected seconds, more than 0",
        ),
        (
            "serve --max-connections 0",
            "error: invalid value '0' for '--max-connections <N>': expected a whole number, at least 1",
        ),
        (
            "serve --max-body-memory lots",
            "error: invalid value 'lots' for '--max-body-memory <BYTES>': expected a whole number, \
             at least 1",
        ),
        (
            "serve --sync always",
            "error: the following required arguments were not provided:",
        ),
        (
            "serve --data-dir d --sync often",
            "error: invalid value 'often' for '--sync <always|Nms>': invalid sync policy \"often\": \
             expected `always` or an interval such as `10ms` or `1s`",
        ),
        (
            "serve --verify-signatures",
            "error: the following required arguments were not provided:",
        ),
        (
            "serve --access-key AKID:secret",
            "error: the following required arguments were not provided:",
        ),
        (
            "serve --verify-signatures --access-key AKIDsecret",
            "error: invalid value for '--access-key <ID:SECRET>': invalid access key \"AKID…\": \
             expected ACCESS_KEY_ID:SECRET_ACCESS_KEY",
        ),
        (
            "serve --verify-signatures --access-key AKID:",
            "error: invalid value for '--access-key <ID:SECRET>': invalid access key \"AKID:…\": \
             expected ACCESS_KEY_ID:SECRET_ACCESS_KEY",
        ),
        ("export", "error: the following required arguments were not provided:"),
        ("export --endpoint", "error: a value is required for '--endpoint <URL>' but none was supplied"),
        ("export --endpoint http://h:1 --input f", "error: unexpected argument '--input' found"),
        ("import --endpoint http://h:1 --output f", "error: unexpected argument '--output' found"),
        ("repair", "error: the following required arguments were not provided:"),
        ("repair --data-dir d --sync always", "error: unexpected argument '--sync' found"),
    ] {
        let shown = error_of(line);
        assert!(shown.starts_with(error), "{line}: {shown}");
    }
    // The missing flag is named on the next line.
    for (line, missing) in [
        ("serve --sync always", "--data-dir <DIR>"),
        (
            "serve --verify-signatures",
            "<--access-key <ID:SECRET>|--access-keys-file <FILE>>",
        ),
        ("serve --access-key AKID:secret", "--verify-signatures"),
        ("export", "--endpoint <URL>"),
        ("repair", "--data-dir <DIR>"),
    ] {
        let shown = parse_all(line).unwrap_err().to_string();
        assert!(
            shown.contains(&format!("\n  {missing}\n")),
            "{line}: {shown}"
        );
    }
    // The secret of a malformed key is never echoed.
    let shown = parse_all("serve --verify-signatures --access-key AKIDsecret")
        .unwrap_err()
        .to_string();
    assert!(!shown.contains("secret"), "{shown}");
}

#[test]
fn help_and_version_exit_0() {
    for line in ["--help", "serve --help", "export -h", "--version"] {
        let e = parse_all(line).unwrap_err();
        assert_eq!(e.exit_code(), 0, "{line}");
    }
    let version = parse_all("--version").unwrap_err().to_string();
    assert_eq!(
        version,
        format!("dynomodel-mem {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn isolation_takes_an_optional_limit_and_excludes_a_data_dir() {
    assert_eq!(parse("serve --isolate").map(|o| o.isolate), Ok(Some(1000)));
    assert_eq!(parse("serve --isolate 5").map(|o| o.isolate), Ok(Some(5)));
    assert_eq!(parse("serve").map(|o| o.isolate), Ok(None));
    let err = parse("serve --isolate --data-dir /tmp/d").unwrap_err();
    assert!(err.contains("cannot be used with"), "{err}");
}

#[tokio::test]
async fn eventual_consistency_makes_the_served_engine_lag() {
    use dynomodel::backend::{
        AttributeDefinition, Backend, CreateTableInput, GetItemInput, KeySchemaElement,
        PutItemInput, ScalarAttributeType,
    };
    use dynomodel::AttributeValue;

    let line = "serve --manual-clock --eventual-consistency --stale-reads 5";
    let (backend, clock) = backend(&parse(line).unwrap()).unwrap();
    let clock = clock.expect("--manual-clock");
    backend
        .create_table(CreateTableInput {
            table_name: "tab".into(),
            attribute_definitions: vec![AttributeDefinition {
                attribute_name: "pk".into(),
                attribute_type: ScalarAttributeType::S,
            }],
            key_schema: vec![KeySchemaElement::hash("pk")],
            billing_mode: Some(dynomodel::backend::BillingMode::PayPerRequest),
            ..Default::default()
        })
        .await
        .unwrap();
    let key = dynomodel::Item::from([("pk".to_owned(), AttributeValue::S("a".into()))]);
    backend
        .put_item(PutItemInput {
            table_name: "tab".into(),
            item: key.clone(),
            ..Default::default()
        })
        .await
        .unwrap();
    let get = GetItemInput {
        table_name: "tab".into(),
        key,
        ..Default::default()
    };
    assert!(backend.get_item(get.clone()).await.unwrap().item.is_none());
    clock.advance(Duration::from_secs(5));
    assert!(backend.get_item(get).await.unwrap().item.is_some());
}
