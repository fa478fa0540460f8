//! `serve`'s log lines: `tracing` events on standard error, filtered by `--log LEVEL` or, without it,
//! `RUST_LOG` (a level or `tracing`'s TARGET=LEVEL directives); `warn` by default.

use tracing_subscriber::EnvFilter;

use super::options::LogLevel;

/// The level when neither `--log` nor `RUST_LOG` says one.
const DEFAULT_LEVEL: LogLevel = LogLevel::Warn;

/// The filter `--log` (`flag`) or else `RUST_LOG` (`rust_log`) asks for. A `RUST_LOG` that is not a
/// level or directives is an error rather than a filter that shows nothing: a bare word is taken as
/// a level, not (as `tracing` would) as a target to show everything of.
pub(super) fn filter(flag: Option<LogLevel>, rust_log: Option<&str>) -> Result<EnvFilter, String> {
    let directives = match (flag, rust_log.map(str::trim)) {
        (Some(level), _) => level.name(),
        (None, None | Some("")) => DEFAULT_LEVEL.name(),
        (None, Some(directives)) => directives,
    };
    let invalid = |why: String| format!("invalid RUST_LOG {directives:?}: {why}");
    for directive in directives.split(',').map(str::trim) {
        let bare = !directive.contains(['=', '[']);
        let level = <LogLevel as clap::ValueEnum>::from_str(directive, true);
        if bare && !directive.is_empty() && level.is_err() {
            return Err(invalid(format!(
                "unknown log level {directive:?} (expected off, error, warn, info, debug or \
                 trace, or TARGET=LEVEL directives)"
            )));
        }
    }
    EnvFilter::builder()
        .parse(directives)
        .map_err(|e| invalid(e.to_string()))
}

/// Sends the process's `tracing` events through `filter` to standard error, one line each:
/// `TIME LEVEL target: message field=value`.
pub(super) fn install(filter: EnvFilter) {
    let subscriber = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .finish();
    // Fails only when the process already has a global subscriber (an embedding program's), which
    // then receives the events instead.
    let _ = tracing::subscriber::set_global_default(subscriber);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(flag: Option<LogLevel>, rust_log: Option<&str>) -> Result<String, String> {
        filter(flag, rust_log).map(|filter| filter.to_string())
    }

    #[test]
    fn the_flag_wins_over_rust_log_and_warn_is_the_default() {
        assert_eq!(shown(None, None).as_deref(), Ok("warn"));
        assert_eq!(shown(None, Some(" ")).as_deref(), Ok("warn"));
        assert_eq!(shown(None, Some("info")).as_deref(), Ok("info"));
        assert_eq!(
            shown(Some(LogLevel::Debug), Some("info")).as_deref(),
            Ok("debug")
        );
        assert_eq!(
            shown(Some(LogLevel::Error), Some("chatty")).as_deref(),
            Ok("error")
        );
        assert_eq!(shown(None, Some("DEBUG")).as_deref(), Ok("debug"));
        let directives = shown(None, Some("warn,dynomodel_mem::server=debug")).unwrap();
        assert!(
            directives.contains("dynomodel_mem::server=debug"),
            "{directives}"
        );
    }

    #[test]
    fn a_rust_log_that_names_no_level_is_refused() {
        assert_eq!(
            shown(None, Some("chatty")).unwrap_err(),
            "invalid RUST_LOG \"chatty\": unknown log level \"chatty\" (expected off, error, \
             warn, info, debug or trace, or TARGET=LEVEL directives)"
        );
        let err = shown(None, Some("dynomodel_mem=loud")).unwrap_err();
        assert!(
            err.starts_with("invalid RUST_LOG \"dynomodel_mem=loud\": "),
            "{err}"
        );
    }
}
