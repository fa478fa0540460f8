//! The progress bar of `import`, `export` and `serve --seed` on standard error: only when it is a
//! terminal (a pipe, a file, a test or CI sees exactly the lines it saw before), and only once a
//! transfer has run for a moment (a small fixture loads without a flicker).

use std::fmt;
use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{HumanBytes, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::dump::Progress;

/// How long a transfer runs before its bar appears.
const SHOW_AFTER: Duration = Duration::from_millis(300);

/// A stage whose size is known: a bar.
const COUNTED: &str = "{msg} [{bar:30}] {human_pos}/{human_len} items, {rate}, {eta} left";
/// A stage of unknown size (an export): a spinner, with the bytes written in the prefix.
const UNCOUNTED: &str = "{spinner} {msg}: {human_pos} items, {prefix}, {rate}";
/// Reading the input file.
const READING: &str = "{msg} [{bar:30}] {bytes}/{total_bytes}, {bytes_per_sec}, {eta} left";

/// A transfer's bar on standard error; hidden until [`SHOW_AFTER`].
pub(super) struct Bar {
    bar: ProgressBar,
    started: Instant,
    /// Bytes written so far (an export), shown beside the items.
    written: AtomicU64,
}

impl Bar {
    /// A bar when standard error is a terminal; `None` (report to nobody) otherwise.
    pub(super) fn on_terminal() -> Option<Bar> {
        Bar::when(io::stderr().is_terminal())
    }

    /// A bar if `terminal`.
    fn when(terminal: bool) -> Option<Bar> {
        terminal.then(|| Bar {
            bar: ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()),
            started: Instant::now(),
            written: AtomicU64::new(0),
        })
    }

    /// Shows the bar once the transfer has run for [`SHOW_AFTER`].
    fn show_when_due(&self) {
        if self.bar.is_hidden() && self.started.elapsed() >= SHOW_AFTER {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// A stage reading `length` bytes of `name`: [`Bar::reader`] advances it.
    pub(super) fn reading(&self, name: &str, length: Option<u64>) {
        self.restyle(READING, length);
        self.bar.set_message(format!("reading {name}"));
    }

    /// `input`, advancing the bar by each byte read.
    pub(super) fn reader<'a>(&'a self, input: Box<dyn BufRead + 'a>) -> Box<dyn BufRead + 'a> {
        Box::new(Reading { input, bar: self })
    }

    /// `output`, counting the bytes written for the bar's prefix.
    pub(super) fn writer<'a>(&'a self, output: Box<dyn Write + 'a>) -> Box<dyn Write + 'a> {
        Box::new(Writing { output, bar: self })
    }

    /// Removes the bar before the summary line is printed.
    pub(super) fn clear(&self) {
        self.bar.finish_and_clear();
    }

    fn restyle(&self, template: &str, length: Option<u64>) {
        if let Ok(style) = ProgressStyle::with_template(template) {
            // Whole items per second (indicatif's `{per_sec}` shows four decimals).
            let rate = |state: &ProgressState, out: &mut dyn fmt::Write| {
                let _ = write!(out, "{:.0} items/s", state.per_sec());
            };
            self.bar
                .set_style(style.progress_chars("=> ").with_key("rate", rate));
        }
        match length {
            Some(length) => self.bar.set_length(length),
            None => self.bar.unset_length(),
        }
        self.bar.reset();
        self.show_when_due();
    }
}

impl Progress for Bar {
    fn stage(&self, what: &str, items: Option<u64>) {
        self.restyle(if items.is_some() { COUNTED } else { UNCOUNTED }, items);
        self.bar.set_message(what.to_owned());
    }

    fn advance(&self, items: u64) {
        self.bar.inc(items);
        let written = self.written.load(Ordering::Relaxed);
        if written > 0 {
            self.bar.set_prefix(HumanBytes(written).to_string());
        }
        self.show_when_due();
    }
}

/// An input that advances its bar by the bytes consumed.
struct Reading<'a> {
    input: Box<dyn BufRead + 'a>,
    bar: &'a Bar,
}

impl Read for Reading<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.input.read(buf)?;
        self.consumed(n);
        Ok(n)
    }
}

impl BufRead for Reading<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.input.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.input.consume(amount);
        self.consumed(amount);
    }
}

impl Reading<'_> {
    fn consumed(&self, bytes: usize) {
        self.bar.bar.inc(bytes as u64);
        self.bar.show_when_due();
    }
}

/// An output that counts the bytes written into its bar.
struct Writing<'a> {
    output: Box<dyn Write + 'a>,
    bar: &'a Bar,
}

impl Write for Writing<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.output.write(buf)?;
        self.bar.written.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.output.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_drawn_off_a_terminal() {
        assert!(Bar::when(false).is_none());
    }

    #[test]
    fn a_bar_counts_bytes_read_and_written_and_stays_hidden_at_first() {
        let Some(bar) = Bar::when(true) else {
            panic!("a bar on a terminal");
        };
        bar.reading("fixture.jsonl", Some(11));
        let mut input = bar.reader(Box::new(&b"hello\nworld"[..]));
        let mut lines = String::new();
        assert_eq!(input.read_line(&mut lines).ok(), Some(6));
        assert_eq!(input.read_to_string(&mut lines).ok(), Some(5));
        drop(input);
        assert_eq!(bar.bar.position(), 11);
        assert!(bar.bar.is_hidden(), "shown only after {SHOW_AFTER:?}");

        bar.stage("exporting users", None);
        let mut sink = Vec::new();
        let mut output = bar.writer(Box::new(&mut sink));
        assert!(output.write_all(b"{\"Item\":{}}\n").is_ok());
        drop(output);
        bar.advance(1);
        assert_eq!(
            (bar.bar.position(), bar.bar.prefix()),
            (1, "12 B".to_owned())
        );
        bar.clear();
    }
}
