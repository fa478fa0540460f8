//! `serve`'s options, as clap parses them: each flag's help, default and check in one place, so that
//! `serve --help` cannot drift from what the parser takes.

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::time::Duration;

use clap::{ArgGroup, Args, ValueEnum};

/// The options of `serve`.
#[derive(Debug, PartialEq, Args)]
pub(super) struct Options {
    /// Address to bind; 0.0.0.0 exposes the server to the network, where its DynamoDB API is
    /// unauthenticated: it warns so at startup, and serves the admin endpoints only with
    /// --admin-token
    #[arg(long, value_name = "HOST", default_value = "127.0.0.1")]
    pub(super) host: String,
    /// Port to bind; 0 picks a free one
    #[arg(long, value_name = "PORT", default_value_t = 8000)]
    pub(super) port: u16,
    /// Worker threads [default: one per core]
    #[arg(long, value_name = "N")]
    pub(super) threads: Option<NonZeroUsize>,
    /// Log level on standard error: debug logs one line per request [default: $RUST_LOG, which
    /// also takes TARGET=LEVEL directives, or warn]
    #[arg(long, value_name = "LEVEL", ignore_case = true)]
    pub(super) log: Option<LogLevel>,
    /// Pin the engine to one region: every ARN and stream record's awsRegion names it, and only its
    /// ARNs name tables [default: one database answering every region: each client reads ARNs and
    /// awsRegion naming the region it signs its requests for, unsigned requests ddblocal, as
    /// DynamoDB Local]
    #[arg(long, value_name = "REGION")]
    pub(super) region: Option<String>,
    /// The account id in table ARNs [default: 000000000000]
    #[arg(long, value_name = "ID")]
    pub(super) account: Option<String>,
    /// How long tables and indexes stay CREATING, UPDATING or DELETING and TTL ENABLING or
    /// DISABLING; 0: at once, as DynamoDB Local
    #[arg(long, value_name = "SECONDS", default_value = "0", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub(super) transition_time: Duration,
    /// How often expired items (TTL) are deleted in the background; 0: never
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub(super) ttl_sweep_interval: Duration,
    /// Enforce the provisioned RCU/WCU of PROVISIONED tables and their GSIs (five-minute burst; a
    /// new table starts with one second of capacity): ProvisionedThroughputExceededException,
    /// unprocessed batch items, cancelled transactions [default: off, as DynamoDB Local]
    #[arg(long)]
    pub(super) enforce_throughput: bool,
    /// Run the engine on a clock that moves only when told to (starting at the current time):
    /// POST /_dynomodel/clock/advance {"seconds": N} moves TTL expiry, stream retention, token
    /// windows, throughput refills and CreationDateTime together
    #[arg(long)]
    pub(super) manual_clock: bool,
    /// Load a full dump (as `dynomodel-mem export` writes without --table) before accepting
    /// requests: its tables (ACTIVE at once, whatever the transition time), TTL settings, tags and
    /// items; a bad line stops the server with its line number; with --data-dir, only into a
    /// directory that holds no tables yet
    #[arg(long, value_name = "FILE")]
    pub(super) seed: Option<String>,
    /// Give each access key (the Credential=KEY/... of a request's signature) a database of its
    /// own, forked from the seeded state on its first request, as DynamoDB Local keeps one per
    /// access key: parallel tests isolate themselves by signing with different keys. At most MAX
    /// keys (default 1000); a new key beyond that is refused with LimitExceededException until
    /// DELETE /_dynomodel/databases drops them. The forks live in memory only, so --isolate and
    /// --data-dir exclude each other (no write would reach the data directory)
    #[arg(long, value_name = "MAX", num_args = 0..=1, default_missing_value = "1000", conflicts_with = "data_dir")]
    pub(super) isolate: Option<usize>,
    /// Keep the data in DIR (created if missing) across restarts and crashes: a write-ahead log plus
    /// snapshots; one server per DIR. A damaged DIR is refused, naming the file, the offset and what
    /// would be lost: see `dynomodel-mem repair` [default: in memory only, lost when the server
    /// stops]
    #[arg(long, value_name = "DIR")]
    pub(super) data_dir: Option<PathBuf>,
    /// With --data-dir, when a write reaches the disk: `always` fsyncs before answering, so nothing
    /// acknowledged is lost even on a power cut; e.g. `10ms` writes before answering and fsyncs
    /// every 10 ms: a killed server loses nothing, a power cut the last 10 ms [default: always]
    #[arg(long, value_name = "always|Nms", requires = "data_dir")]
    pub(super) sync: Option<crate::SyncPolicy>,
    /// With --data-dir, write a snapshot (in the background) and drop the log once the log is this
    /// long [default: 67108864, 64 MiB]
    #[arg(long, value_name = "BYTES", requires = "data_dir")]
    pub(super) compact_after: Option<u64>,
    /// Eventual consistency on demand.
    #[command(flatten)]
    pub(super) consistency: super::consistency::ConsistencyOptions,
    /// The server's timeouts and limits.
    #[command(flatten)]
    pub(super) limits: LimitOptions,
    /// Admin requests must carry `Authorization: Bearer TOKEN`; needed for the admin endpoints when
    /// --host is beyond loopback
    #[arg(long, value_name = "TOKEN", value_parser = parse_token)]
    pub(super) admin_token: Option<String>,
    /// Also accept NAME in the Host of requests that arrive on loopback (repeatable); by default
    /// they must name localhost or an IP address, which defeats DNS rebinding from web pages
    #[arg(long = "allow-host", value_name = "NAME")]
    pub(super) allow_hosts: Vec<String>,
    /// Let web pages of ORIGIN (e.g. https://app.example; * for any) call the DynamoDB API from a
    /// browser (repeatable): CORS preflights and headers as DynamoDB sends them. By default pages
    /// served from loopback may (http://localhost:PORT, http://127.0.0.1:PORT), and with
    /// --verify-signatures any origin, as on DynamoDB; the admin endpoints never answer CORS
    #[arg(long = "cors-origin", value_name = "ORIGIN")]
    pub(super) cors_origins: Vec<String>,
    /// `--verify-signatures` and the keys it checks against.
    #[command(flatten)]
    pub(super) signatures: SignatureOptions,
}

/// `--verify-signatures`, `--access-key`, `--access-keys-file`.
#[derive(Debug, PartialEq, Default, Args)]
#[command(group(ArgGroup::new("access_keys").args(["keys", "file"]).multiple(true)))]
pub(super) struct SignatureOptions {
    /// Check the SigV4 signature of every DynamoDB request against the keys of --access-key and
    /// --access-keys-file, refusing the others as DynamoDB does (HTTP 400):
    /// MissingAuthenticationTokenException without an Authorization header,
    /// UnrecognizedClientException for an unknown key, InvalidSignatureException for a wrong
    /// signature or one dated more than 15 minutes from the server's clock [default: off, any
    /// request is served, signed or not; `export` and `import` do not sign theirs]
    #[arg(long = "verify-signatures", requires = "access_keys")]
    pub(super) verify: bool,
    /// With --verify-signatures, accept signatures of this access key id and secret access key
    /// (repeatable; visible to other users of the machine in its process list: prefer
    /// --access-keys-file)
    #[arg(
        long = "access-key",
        value_name = "ID:SECRET",
        value_parser = KeyPairParser,
        requires = "verify"
    )]
    pub(super) keys: Vec<(String, String)>,
    /// With --verify-signatures, accept the keys in FILE: one per line,
    /// `ACCESS_KEY_ID SECRET_ACCESS_KEY`; blank lines and # comments skipped
    #[arg(long = "access-keys-file", value_name = "FILE", requires = "verify")]
    pub(super) file: Option<PathBuf>,
}

/// `--header-timeout`, `--body-timeout`, `--write-timeout`, `--max-connections`, `--max-body-memory`.
#[derive(Debug, PartialEq, Args)]
pub(super) struct LimitOptions {
    /// Close a connection that sends no complete request head within this, idle keep-alive
    /// connections included
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = parse_timeout)]
    pub(super) header_timeout: Duration,
    /// Answer 408 and close a connection whose request body has not all arrived within this after
    /// its head
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = parse_timeout)]
    pub(super) body_timeout: Duration,
    /// Close a connection whose client has not taken a whole response within this
    #[arg(long, value_name = "SECONDS", default_value = "30", value_parser = parse_timeout)]
    pub(super) write_timeout: Duration,
    /// Connections open at once; more wait in the listen queue until one closes, and a warning says
    /// so [default: the open-file limit less 64, at most 10000]
    #[arg(long, value_name = "N", value_parser = parse_positive)]
    pub(super) max_connections: Option<usize>,
    /// Request body bytes held at once over all connections; a request waits for room within its
    /// body timeout (134217728: 128 MiB)
    #[arg(long, value_name = "BYTES", default_value = "134217728", value_parser = parse_positive)]
    pub(super) max_body_memory: usize,
}

/// `--log`'s levels, most to least severe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum LogLevel {
    /// Nothing
    Off,
    /// Failures the server survives (a lost fsync, a panicked request)
    Error,
    /// Also what an operator should know (exposure beyond loopback, recovery of a damaged log)
    Warn,
    /// Also startup, recovery and shutdown
    Info,
    /// Also one line per request
    Debug,
    /// Everything
    Trace,
}

impl LogLevel {
    /// The level's name, as `--log` and `RUST_LOG` spell it.
    pub(super) fn name(self) -> &'static str {
        match self {
            LogLevel::Off => "off",
            LogLevel::Error => "error",
            LogLevel::Warn => "warn",
            LogLevel::Info => "info",
            LogLevel::Debug => "debug",
            LogLevel::Trace => "trace",
        }
    }
}

/// A duration in seconds, whole or fractional (`0.5`), not negative.
pub(super) fn parse_seconds(text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| "expected seconds".to_owned())
}

/// A timeout: seconds as [`parse_seconds`] takes them, but more than zero (a zero timeout would close
/// every connection).
fn parse_timeout(text: &str) -> Result<Duration, String> {
    match parse_seconds(text)? {
        Duration::ZERO => Err("expected seconds, more than 0".to_owned()),
        timeout => Ok(timeout),
    }
}

/// A count or size of at least 1.
fn parse_positive(text: &str) -> Result<usize, String> {
    text.parse::<usize>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| "expected a whole number, at least 1".to_owned())
}

/// `--admin-token`: an empty token would let any request carrying `Bearer ` through.
fn parse_token(text: &str) -> Result<String, String> {
    match text {
        "" => Err("expected a non-empty token".to_owned()),
        token => Ok(token.to_owned()),
    }
}

/// `--access-key ID:SECRET`: a parser of its own because clap's errors quote the value, and this
/// one may hold a secret (the error shows its redacted form only).
#[derive(Debug, Clone, Copy)]
struct KeyPairParser;

impl clap::builder::TypedValueParser for KeyPairParser {
    type Value = (String, String);

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<(String, String), clap::Error> {
        let text = value.to_string_lossy();
        crate::server::sigv4::parse_key_pair(&text).map_err(|e| {
            let flag = arg.map_or_else(|| "--access-key".to_owned(), ToString::to_string);
            let message = format!("invalid value for '{flag}': {e}\n");
            clap::Error::raw(clap::error::ErrorKind::ValueValidation, message).with_cmd(cmd)
        })
    }
}
