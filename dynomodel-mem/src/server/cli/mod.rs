//! The `dynomodel-mem` command line (`serve`, `export`, `import`), in the library so that the
//! `dynomodel-mem` binary and the `server-bench` binary (which starts the server as a child process of
//! itself, the way DynamoDB Local runs in its own JVM) run the very same server.
//!
//! Every command's flags are listed once ([`SERVE_FLAGS`], [`transfer::EXPORT_FLAGS`],
//! [`transfer::IMPORT_FLAGS`], [`repair::REPAIR_FLAGS`]): the parsers refuse any other, and a test
//! checks that each is documented in its command's `--help`.

mod options;
mod repair;
mod serve;
#[cfg(test)]
mod tests;

use std::process::ExitCode;

use super::transfer;
use options::parse;

/// `dynomodel-mem --help`: the commands.
pub(crate) const USAGE: &str = "\
usage: dynomodel-mem COMMAND [OPTIONS]

An in-memory Amazon DynamoDB engine and its DynamoDB-compatible HTTP server.

Commands:
  serve    run the server (any AWS SDK, the AWS CLI or boto3 can use it)
  export   write a running server's tables to a file: one table's items as DynamoDB JSON lines
           (the format of DynamoDB's export to S3), or a full dump of every table's definition and
           items
  import   put DynamoDB JSON lines into a running server's table, or load a full dump into it
  repair   cut a damaged data directory's log at its last good record, keeping the originals

`dynomodel-mem COMMAND --help` lists a command's options.
";

/// `dynomodel-mem serve --help`.
pub(crate) const SERVE_USAGE: &str = "\
usage: dynomodel-mem serve [--host HOST] [--port PORT] [--threads N] [--log LEVEL]
                           [--region REGION] [--account ID] [--transition-time SECONDS]
                           [--ttl-sweep-interval SECONDS] [--enforce-throughput]
                           [--manual-clock] [--seed FILE]
                           [--data-dir DIR [--sync always|Nms] [--compact-after BYTES]]
                           [--header-timeout SECONDS] [--body-timeout SECONDS]
                           [--write-timeout SECONDS] [--max-connections N]
                           [--max-body-memory BYTES] [--admin-token TOKEN] [--allow-host NAME]
                           [--cors-origin ORIGIN] [--verify-signatures
                           [--access-key ID:SECRET] [--access-keys-file FILE]]

  --host HOST                   address to bind (default 127.0.0.1; 0.0.0.0 exposes the server to
                                the network, where its DynamoDB API is unauthenticated: it warns
                                so at startup, and serves the admin endpoints only with
                                --admin-token)
  --port PORT                   port to bind (default 8000; 0 picks a free one)
  --threads N                   worker threads (default: one per core)
  --log LEVEL                   error, warn, info, debug (one line per request) or trace; default:
                                $RUST_LOG or warn
  --region REGION               pin the engine to one region: every ARN and stream record's
                                awsRegion names it, and only its ARNs name tables (default: one
                                database answering every region: each client reads ARNs and
                                awsRegion naming the region it signs its requests for, unsigned
                                requests ddblocal, as DynamoDB Local)
  --account ID                  the account id in table ARNs (default 000000000000)
  --transition-time SECONDS     how long tables and indexes stay CREATING, UPDATING or DELETING and
                                TTL ENABLING or DISABLING (default 0: at once, as DynamoDB Local)
  --ttl-sweep-interval SECONDS  how often expired items (TTL) are deleted in the background
                                (default 60; 0 never)
  --enforce-throughput          enforce the provisioned RCU/WCU of PROVISIONED tables and their
                                GSIs (five-minute burst; a new table starts with one second of
                                capacity): ProvisionedThroughputExceededException, unprocessed batch
                                items, cancelled transactions (default: off, as DynamoDB Local)
  --manual-clock                run the engine on a clock that moves only when told to (starting at
                                the current time): POST /_dynomodel/clock/advance {\"seconds\": N}
                                moves TTL expiry, stream retention, token windows, throughput
                                refills and CreationDateTime together
  --seed FILE                   load a full dump (as `dynomodel-mem export` writes without --table)
                                before accepting requests: its tables (ACTIVE at once, whatever
                                the transition time), TTL settings, tags and items; a bad line
                                stops the server with its line number; with --data-dir, only
                                into a directory that holds no tables yet
  --data-dir DIR                keep the data in DIR (created if missing) across restarts and
                                crashes: a write-ahead log plus snapshots; one server per DIR
                                (default: in memory only, lost when the server stops). A
                                damaged DIR is refused, naming the file, the offset and what
                                would be lost: see `dynomodel-mem repair`
  --sync always|Nms             with --data-dir, when a write reaches the disk: `always` (default)
                                fsyncs before answering, so nothing acknowledged is lost even on a
                                power cut; e.g. `10ms` writes before answering and fsyncs every 10
                                ms: a killed server loses nothing, a power cut the last 10 ms
  --compact-after BYTES         with --data-dir, write a snapshot (in the background) and drop the
                                log once the log is this long (default 67108864, 64 MiB)
  --header-timeout SECONDS      close a connection that sends no complete request head within this,
                                idle keep-alive connections included (default 30)
  --body-timeout SECONDS        answer 408 and close a connection whose request body has not all
                                arrived within this after its head (default 30)
  --write-timeout SECONDS       close a connection whose client has not taken a whole response
                                within this (default 30)
  --max-connections N           connections open at once; more wait in the listen queue until one
                                closes, and a warning says so (default: the open-file limit less 64,
                                at most 10000)
  --max-body-memory BYTES       request body bytes held at once over all connections; a request
                                waits for room within its body timeout (default 134217728, 128 MiB)
  --admin-token TOKEN           admin requests must carry `Authorization: Bearer TOKEN`; needed for
                                the admin endpoints when --host is beyond loopback
  --allow-host NAME             also accept NAME in the Host of requests that arrive on loopback
                                (repeatable); by default they must name localhost or an IP address,
                                which defeats DNS rebinding from web pages
  --cors-origin ORIGIN          let web pages of ORIGIN (e.g. https://app.example; * for any) call
                                the DynamoDB API from a browser (repeatable): CORS preflights and
                                headers as DynamoDB sends them. By default pages served from
                                loopback may (http://localhost:PORT, http://127.0.0.1:PORT), and
                                with --verify-signatures any origin, as on DynamoDB; the admin
                                endpoints never answer CORS
  --verify-signatures           check the SigV4 signature of every DynamoDB request against the
                                keys of --access-key and --access-keys-file, refusing the others
                                as DynamoDB does (HTTP 400): MissingAuthenticationTokenException
                                without an Authorization header, UnrecognizedClientException for
                                an unknown key, InvalidSignatureException for a wrong signature
                                or one dated more than 15 minutes from the server's clock
                                (default: off, any request is served, signed or not; `export`
                                and `import` do not sign theirs)
  --access-key ID:SECRET        with --verify-signatures, accept signatures of this access key id
                                and secret access key (repeatable; visible to other users of the
                                machine in its process list: prefer --access-keys-file)
  --access-keys-file FILE       with --verify-signatures, accept the keys in FILE: one per line,
                                `ACCESS_KEY_ID SECRET_ACCESS_KEY`; blank lines and # comments
                                skipped

On startup it prints where the data lives (\"data: in memory (lost at exit)\"), then \"listening on
http://HOST:PORT\" (flushed, so a parent process can read the port). SIGINT or SIGTERM stops
accepting connections, lets requests in flight finish (at most 5 s) and exits with status 0.

DynamoDB's POST / also takes bodies compressed with gzip or deflate (Content-Encoding; at most
16 MB inflated) and compresses answers of 1 KiB or more for clients that send Accept-Encoding: gzip
or deflate; GET / answers \"healthy: HOST:PORT \", as DynamoDB's endpoint does.

HTTP endpoints besides DynamoDB's POST / (same port; JSON bodies, sent with Content-Type:
application/json, and answers):
  GET    /health                    {\"status\": \"ok\"} with 200, for process supervisors; 503
                                    with {\"status\": \"degraded\", \"reason\": ...} while the
                                    data directory cannot be written (writes refused, reads
                                    served), {\"status\": \"failed\"} when every request is
                                    refused until a restart
  POST   /_dynomodel/faults         arm a fault rule, e.g. {\"operation\": \"PutItem\",
                                    \"table\": \"tweets\", \"nth\": 3, \"error\":
                                    \"ProvisionedThroughputExceededException\", \"timing\":
                                    \"after\"}; answers {\"id\": N}
  GET    /_dynomodel/faults/N       {\"id\": N, \"fired\": how many requests it fired on}
  DELETE /_dynomodel/faults/N       disarm rule N
  DELETE /_dynomodel/faults         disarm every rule
  GET    /_dynomodel/clock          {\"now\": \"...\"}, the engine's time
  POST   /_dynomodel/clock/advance  {\"seconds\": N} (on the manual clock only)
";

/// The flags `serve` takes.
pub(crate) const SERVE_FLAGS: &[&str] = &[
    "--host",
    "--port",
    "--threads",
    "--log",
    "--region",
    "--account",
    "--transition-time",
    "--ttl-sweep-interval",
    "--enforce-throughput",
    "--manual-clock",
    "--seed",
    "--data-dir",
    "--sync",
    "--compact-after",
    "--header-timeout",
    "--body-timeout",
    "--write-timeout",
    "--max-connections",
    "--max-body-memory",
    "--admin-token",
    "--allow-host",
    "--cors-origin",
    "--verify-signatures",
    "--access-key",
    "--access-keys-file",
];

use repair::REPAIR_USAGE;
use transfer::{EXPORT_USAGE, IMPORT_USAGE};

/// Runs the command line `args` (without the program name), e.g. `["serve", "--port", "0"]`.
///
/// `serve` binds, prints `listening on http://HOST:PORT` on stdout (flushed, so a parent process can
/// read the port), serves until SIGINT or SIGTERM, shuts down gracefully. `repair` repairs a damaged
/// data directory ([`MemBackendBuilder::repair`](crate::MemBackendBuilder::repair)). `export` and `import` move
/// tables between a running server and a file ([`crate::dump`]). `--help` anywhere prints the
/// command's help. Usage errors exit with status 2, failures with 1.
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     dynomodel_mem::__private::cli::main(std::env::args().skip(1).collect())
/// }
/// ```
pub fn main(args: Vec<String>) -> ExitCode {
    let command = args.first().map(String::as_str);
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{}", usage(command));
        return ExitCode::SUCCESS;
    }
    match command {
        Some("export" | "import") => return transfer::main(&args),
        Some("repair") => return repair::main(&args),
        Some("serve") => {}
        _ => {
            let error = parse(&args, None).err().unwrap_or_default();
            eprintln!("dynomodel-mem: {error}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    let options = match parse(&args, std::env::var("RUST_LOG").ok().as_deref()) {
        Ok(options) => options,
        Err(e) => {
            eprintln!("dynomodel-mem: {e}\n\n{SERVE_USAGE}");
            return ExitCode::from(2);
        }
    };
    let _ = log::set_logger(&serve::LOGGER);
    log::set_max_level(options.log);
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Some(threads) = options.threads {
        runtime.worker_threads(threads.get());
    }
    let runtime = runtime.thread_name("dynomodel-mem").enable_all().build();
    let result = match runtime {
        Ok(runtime) => {
            let result = runtime.block_on(serve::serve(&options));
            // Whatever still runs (a connection past the drain) is not waited for.
            runtime.shutdown_timeout(std::time::Duration::from_secs(1));
            result
        }
        Err(e) => Err(format!("cannot start the runtime: {e}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("dynomodel-mem: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The help of `command` (the overview for none or an unknown one).
fn usage(command: Option<&str>) -> &'static str {
    match command {
        Some("serve") => SERVE_USAGE,
        Some("export") => EXPORT_USAGE,
        Some("import") => IMPORT_USAGE,
        Some("repair") => REPAIR_USAGE,
        _ => USAGE,
    }
}
