//! Where a command writes: results to one sink, errors and progress to the other.

use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::cli::Status;

/// A shared writer (`Arc::new(Mutex::new(std::io::stdout()))`, or a `Vec<u8>` in tests). Shared
/// because `apply` reports progress from a callback.
pub type Sink = Arc<Mutex<dyn Write + Send>>;

#[derive(Clone)]
pub(crate) struct Output {
    out: Sink,
    err: Sink,
}

impl Output {
    pub(crate) fn new(out: Sink, err: Sink) -> Output {
        Output { out, err }
    }

    /// Writes `text` to the results. A write that fails (a closed pipe) is reported on the other
    /// sink, and the command fails: its output did not arrive.
    pub(crate) fn print(&self, text: &str) -> bool {
        let written = match self.out.lock() {
            Ok(mut out) => out.write_all(text.as_bytes()).and_then(|()| out.flush()),
            Err(_) => Err(std::io::Error::other("the output's lock is poisoned")),
        };
        match written {
            Ok(()) => true,
            Err(e) => {
                self.error(&format!("cannot write the output: {e}"));
                false
            }
        }
    }

    /// Writes one line to the diagnostics (best effort: there is nowhere else to say it failed).
    pub(crate) fn note(&self, line: &str) {
        if let Ok(mut err) = self.err.lock() {
            let _ = writeln!(err, "{line}");
        }
    }

    /// `error: …` on the diagnostics.
    pub(crate) fn error(&self, message: &str) {
        self.note(&format!("error: {message}"));
    }

    /// A command line clap refused, or `--help`: help goes to the results (success), an error to
    /// the diagnostics (failure).
    pub(crate) fn clap_error(&self, e: &clap::Error) -> Status {
        let text = e.render().to_string();
        if e.use_stderr() {
            self.note(text.trim_end());
            Status::Failed
        } else if self.print(&text) {
            Status::Success
        } else {
            Status::Failed
        }
    }
}
