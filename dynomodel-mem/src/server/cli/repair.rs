//! `dynomodel-mem repair`: the explicit repair of a damaged data directory
//! ([`MemBackendBuilder::repair`](crate::MemBackendBuilder::repair)), from the command line.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::MemBackend;

/// `dynomodel-mem repair`'s options.
#[derive(Debug, PartialEq, Args)]
pub(super) struct RepairOptions {
    /// The data directory (not in use by a server)
    #[arg(long, value_name = "DIR")]
    data_dir: PathBuf,
}

/// `repair --help`'s description: what it does and what it keeps.
pub(super) const REPAIR_LONG_ABOUT: &str = "\
Repairs a data directory that `serve --data-dir DIR` refuses as damaged (a log record that fails \
its checksum with records after it, a missing or shortened log segment, a gap in the records' \
sequence numbers, a missing or unreadable manifest): cuts the log after its last good record, \
moves every file it changes, unchanged, to DIR/aside/repair-N/, and prints what it dropped (how \
many readable records, up to which sequence number, how many bytes). A damaged snapshot is not \
repaired (every later record builds on it): restore the directory from a backup.";

/// After `repair --help`'s options.
pub(super) const REPAIR_AFTER_HELP: &str = "\
Keep a copy of the directory first. Exits 0 when the directory can be served afterwards (with \
nothing to repair, it says so and changes nothing), 1 otherwise.";

/// Runs `repair`.
pub(super) fn main(options: &RepairOptions) -> ExitCode {
    let dir = &options.data_dir;
    match MemBackend::builder().repair().open(dir) {
        Ok(backend) => {
            let Some(report) = backend.recovery_report() else {
                eprintln!("dynomodel-mem: {}: no recovery report", dir.display());
                return ExitCode::FAILURE;
            };
            if report.repairs.is_empty() {
                println!("{}: nothing to repair", dir.display());
            }
            for repair in &report.repairs {
                println!("{repair}");
            }
            println!("{report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("dynomodel-mem: {e}");
            ExitCode::FAILURE
        }
    }
}
