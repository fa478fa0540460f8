//! `dynomodel generate`: the command line's face of the generator.

use std::path::PathBuf;

use super::TableSample;
use crate::cli::Endpoint;

/// `generate`: prints (or writes to `--out`) Rust models for an existing table, read through the AWS
/// backend from Amazon DynamoDB, DynamoDB Local or the engine's server (see [`TableSample`]).
///
/// ```
/// use clap::Parser;
/// use dynomodel::codegen::GenerateArgs;
///
/// #[derive(Parser)]
/// struct Cli {
///     #[command(flatten)]
///     generate: GenerateArgs,
/// }
///
/// let cli = Cli::parse_from(["dynomodel", "--table", "users", "--endpoint", "http://127.0.0.1:8000", "--sample", "500"]);
/// assert_eq!(cli.generate.table, "users");
/// assert_eq!(cli.generate.sample, 500);
/// assert_eq!(cli.generate.out, None);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct GenerateArgs {
    /// The table to read.
    #[arg(long)]
    pub table: String,
    /// Where the table is.
    #[command(flatten)]
    pub endpoint: Endpoint,
    /// How many items to scan for the field types.
    #[arg(long = "sample", value_name = "N", default_value_t = 100)]
    pub sample: usize,
    /// Write the source to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Why `generate` failed.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// Reading the table failed (the backend's error, naming the table).
    #[error("reading table `{table}`: {source}")]
    Read {
        /// The table.
        table: String,
        /// The backend's error.
        source: crate::Error,
    },
    /// Writing `--out` failed.
    #[error("writing {}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

impl GenerateArgs {
    /// Reads the table, generates its models, and writes them to `--out` or standard output;
    /// returns the source.
    pub async fn run(&self) -> Result<String, GenerateError> {
        let source = self.source().await?;
        if !self.write_out(&source)? {
            print!("{source}");
        }
        Ok(source)
    }

    /// Reads the table and generates its models' source, writing nothing.
    pub async fn source(&self) -> Result<String, GenerateError> {
        let db = self.endpoint.db().await;
        let sample = TableSample::read(&db, &self.table, self.sample)
            .await
            .map_err(|source| GenerateError::Read {
                table: self.table.clone(),
                source,
            })?;
        Ok(sample.to_rust())
    }

    /// Writes `source` to `--out`; `false` when there is none (the caller prints it).
    pub fn write_out(&self, source: &str) -> Result<bool, GenerateError> {
        let Some(path) = &self.out else {
            return Ok(false);
        };
        std::fs::write(path, source).map_err(|source| GenerateError::Write {
            path: path.clone(),
            source,
        })?;
        Ok(true)
    }
}
