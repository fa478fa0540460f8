//! `dynomodel-mem repair`: the explicit repair of a damaged data directory
//! ([`MemBackendBuilder::repair`](crate::MemBackendBuilder::repair)), from the command line.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::MemBackend;

/// `dynomodel-mem repair --help`.
pub(super) const REPAIR_USAGE: &str = "\
usage: dynomodel-mem repair --data-dir DIR

Repairs a data directory that `serve --data-dir DIR` refuses as damaged (a log record that fails
its checksum with records after it, a missing or shortened log segment, a gap in the records'
sequence numbers, a missing or unreadable manifest): cuts the log after its last good record,
moves every file it changes, unchanged, to DIR/aside/repair-N/, and prints what it dropped (how
many readable records, up to which sequence number, how many bytes). A damaged snapshot is not
repaired (every later record builds on it): restore the directory from a backup.

  --data-dir DIR   the data directory (not in use by a server)

Keep a copy of the directory first. Exits 0 when the directory can be served afterwards (with
nothing to repair, it says so and changes nothing), 1 otherwise.
";

/// The flags `repair` takes.
pub(super) const REPAIR_FLAGS: &[&str] = &["--data-dir"];

fn parse(args: &[String]) -> Result<PathBuf, String> {
    let mut dir = None;
    let mut args = args.iter().skip(1);
    while let Some(flag) = args.next() {
        if !REPAIR_FLAGS.contains(&flag.as_str()) {
            return Err(format!("unknown option {flag:?}"));
        }
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        dir = Some(PathBuf::from(value));
    }
    dir.ok_or_else(|| "missing --data-dir".to_owned())
}

/// Runs `repair` (`args` starts with the command's name).
pub(crate) fn main(args: &[String]) -> ExitCode {
    let dir = match parse(args) {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("dynomodel-mem: {e}\n\n{REPAIR_USAGE}");
            return ExitCode::from(2);
        }
    };
    match MemBackend::builder().repair().open(&dir) {
        Ok(backend) => {
            let Some(report) = backend.recovery_report() else {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn its_one_flag_is_documented_and_required() {
        let args = |a: &[&str]| a.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            parse(&args(&["repair", "--data-dir", "d"])),
            Ok(PathBuf::from("d"))
        );
        assert!(parse(&args(&["repair"])).is_err());
        assert!(parse(&args(&["repair", "--data-dir"])).is_err());
        assert!(parse(&args(&["repair", "--sync", "always"])).is_err());
        for flag in REPAIR_FLAGS {
            assert!(REPAIR_USAGE.contains(&format!("\n  {flag} ")), "{flag}");
        }
    }
}
