//! `dynomodel-mem serve [--host H] [--port P] [--seed FILE] …`: the in-memory DynamoDB engine as an
//! HTTP server that any AWS SDK, the AWS CLI or boto3 can use (endpoint `http://H:P`, any
//! credentials); `dynomodel-mem export` / `import`: tables between a running server and a file
//! (DynamoDB JSON lines, or a full dump that `serve --seed` loads).
//!
//! Binds 127.0.0.1:8000 by default (DynamoDB Local's port; loopback only, so nothing is exposed unless
//! `--host` says so). `--port 0` picks a free port. Once listening it prints where the data lives and
//! `listening on http://H:P` on stdout (flushed, so a parent process can read the port), then serves
//! until SIGINT or SIGTERM and shuts down gracefully (requests in flight finish). `--log debug` (or
//! `RUST_LOG=debug`) logs one line per request on stderr, through `tracing`. `dynomodel-mem --help`
//! and `dynomodel-mem COMMAND --help` document every flag, `--version` the version. The command line
//! itself is in the library (`src/server/cli/`, on clap, reached through the hidden `__private`
//! module), shared with `server-bench`.

/// mimalloc rather than the system's malloc: a request's items are thousands of small allocations
/// (docs/performance.md, "Request size scaling"). Set here, in the binary: a library never sets one.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    dynomodel_mem::__private::cli::main(std::env::args().skip(1).collect())
}
