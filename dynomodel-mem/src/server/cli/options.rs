//! `serve`'s options: parsed from the command line, each flag checked against [`SERVE_FLAGS`].

use std::num::NonZeroUsize;
use std::time::Duration;

use super::SERVE_FLAGS;

/// How often the server deletes expired items unless told otherwise.
pub(super) const DEFAULT_TTL_SWEEP_INTERVAL: Duration = Duration::from_secs(60);

/// The options of `serve`.
#[derive(Debug, PartialEq)]
pub(super) struct Options {
    pub(super) host: String,
    pub(super) port: u16,
    /// `None`: one per core (Tokio's default).
    pub(super) threads: Option<NonZeroUsize>,
    pub(super) log: log::LevelFilter,
    /// `None`: the engine's default.
    pub(super) region: Option<String>,
    /// `None`: the engine's default.
    pub(super) account: Option<String>,
    pub(super) transition_time: Duration,
    /// Zero: no sweeper.
    pub(super) ttl_sweep_interval: Duration,
    /// `--enforce-throughput`.
    pub(super) enforce_throughput: bool,
    /// `--manual-clock`.
    pub(super) manual_clock: bool,
    /// `--seed FILE`.
    pub(super) seed: Option<String>,
    /// `--data-dir`: durable mode.
    pub(super) data_dir: Option<std::path::PathBuf>,
    /// `--sync`.
    pub(super) sync: Option<crate::SyncPolicy>,
    /// `--compact-after`.
    pub(super) compact_after: Option<u64>,
    /// The server's limits (`None`: the default).
    pub(super) limits: LimitOptions,
    /// `--admin-token`.
    pub(super) admin_token: Option<String>,
    /// `--allow-host`, each time it is given.
    pub(super) allow_hosts: Vec<String>,
    /// `--cors-origin`, each time it is given.
    pub(super) cors_origins: Vec<String>,
    /// `--verify-signatures` and the keys it checks against.
    pub(super) signatures: SignatureOptions,
}

/// `--verify-signatures`, `--access-key`, `--access-keys-file`.
#[derive(Debug, PartialEq, Default)]
pub(super) struct SignatureOptions {
    pub(super) verify: bool,
    /// `--access-key ID:SECRET`, each time it is given.
    pub(super) keys: Vec<(String, String)>,
    /// `--access-keys-file FILE`, read when the server starts.
    pub(super) file: Option<std::path::PathBuf>,
}

/// `--header-timeout`, `--body-timeout`, `--write-timeout`, `--max-connections`, `--max-body-memory`.
#[derive(Debug, PartialEq, Default)]
pub(super) struct LimitOptions {
    pub(super) header_timeout: Option<Duration>,
    pub(super) body_timeout: Option<Duration>,
    pub(super) write_timeout: Option<Duration>,
    pub(super) max_connections: Option<usize>,
    pub(super) max_body_memory: Option<usize>,
}

/// A duration in seconds, whole or fractional (`0.5`), not negative.
fn parse_seconds(flag: &str, text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("invalid {flag} {text:?}: expected seconds"))
}

/// A timeout: seconds as [`parse_seconds`] takes them, but more than zero (a zero timeout would close
/// every connection).
fn parse_timeout(flag: &str, text: &str) -> Result<Duration, String> {
    match parse_seconds(flag, text)? {
        Duration::ZERO => Err(format!(
            "invalid {flag} {text:?}: expected seconds, more than 0"
        )),
        timeout => Ok(timeout),
    }
}

/// A count or size of at least 1.
fn parse_positive(flag: &str, text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("invalid {flag} {text:?}: expected a whole number, at least 1"))
}

fn parse_level(text: &str) -> Result<log::LevelFilter, String> {
    text.parse()
        .map_err(|_| format!("unknown log level {text:?}"))
}

pub(super) fn parse(args: &[String], rust_log: Option<&str>) -> Result<Options, String> {
    let mut args = args.iter();
    match args.next().map(String::as_str) {
        Some("serve") => {}
        Some(other) => return Err(format!("unknown command {other:?}")),
        None => return Err("missing command".into()),
    }
    let mut options = Options {
        host: "127.0.0.1".into(),
        port: 8000,
        threads: None,
        log: rust_log.map_or(Ok(log::LevelFilter::Warn), parse_level)?,
        region: None,
        account: None,
        transition_time: Duration::ZERO,
        ttl_sweep_interval: DEFAULT_TTL_SWEEP_INTERVAL,
        enforce_throughput: false,
        manual_clock: false,
        seed: None,
        data_dir: None,
        sync: None,
        compact_after: None,
        limits: LimitOptions::default(),
        admin_token: None,
        allow_hosts: Vec::new(),
        cors_origins: Vec::new(),
        signatures: SignatureOptions::default(),
    };
    while let Some(flag) = args.next() {
        if !SERVE_FLAGS.contains(&flag.as_str()) {
            return Err(format!("unknown option {flag:?}"));
        }
        let mut value = || {
            args.next()
                .cloned()
                .ok_or_else(|| format!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--host" => options.host = value()?,
            "--port" => {
                let v = value()?;
                options.port = v.parse().map_err(|_| format!("invalid port {v:?}"))?;
            }
            "--threads" => {
                let v = value()?;
                let threads = v
                    .parse()
                    .map_err(|_| format!("invalid thread count {v:?}"))?;
                options.threads = Some(threads);
            }
            "--log" => options.log = parse_level(&value()?)?,
            "--region" => options.region = Some(value()?),
            "--account" => options.account = Some(value()?),
            "--transition-time" => {
                options.transition_time = parse_seconds(flag, &value()?)?;
            }
            "--ttl-sweep-interval" => {
                options.ttl_sweep_interval = parse_seconds(flag, &value()?)?;
            }
            "--enforce-throughput" => options.enforce_throughput = true,
            "--manual-clock" => options.manual_clock = true,
            "--seed" => options.seed = Some(value()?),
            "--data-dir" => options.data_dir = Some(value()?.into()),
            "--sync" => options.sync = Some(value()?.parse()?),
            "--compact-after" => {
                let v = value()?;
                let bytes = v.parse().map_err(|_| format!("invalid byte count {v:?}"))?;
                options.compact_after = Some(bytes);
            }
            "--header-timeout" => {
                options.limits.header_timeout = Some(parse_timeout(flag, &value()?)?);
            }
            "--body-timeout" => options.limits.body_timeout = Some(parse_timeout(flag, &value()?)?),
            "--write-timeout" => {
                options.limits.write_timeout = Some(parse_timeout(flag, &value()?)?);
            }
            "--max-connections" => {
                options.limits.max_connections = Some(parse_positive(flag, &value()?)?);
            }
            "--max-body-memory" => {
                options.limits.max_body_memory = Some(parse_positive(flag, &value()?)?);
            }
            "--admin-token" => {
                let token = value()?;
                if token.is_empty() {
                    return Err("--admin-token needs a non-empty token".into());
                }
                options.admin_token = Some(token);
            }
            "--allow-host" => options.allow_hosts.push(value()?),
            "--cors-origin" => options.cors_origins.push(value()?),
            "--verify-signatures" => options.signatures.verify = true,
            "--access-key" => {
                let pair = crate::server::sigv4::parse_key_pair(&value()?)?;
                options.signatures.keys.push(pair);
            }
            "--access-keys-file" => options.signatures.file = Some(value()?.into()),
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    let signatures = &options.signatures;
    let has_keys = !signatures.keys.is_empty() || signatures.file.is_some();
    if signatures.verify && !has_keys {
        return Err("--verify-signatures needs --access-key or --access-keys-file".into());
    }
    if has_keys && !signatures.verify {
        return Err("--access-key and --access-keys-file need --verify-signatures".into());
    }
    if options.data_dir.is_none() {
        if options.sync.is_some() {
            return Err("--sync needs --data-dir".into());
        }
        if options.compact_after.is_some() {
            return Err("--compact-after needs --data-dir".into());
        }
    }
    Ok(options)
}
