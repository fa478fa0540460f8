//! [`Connection`]: where `plan`, `apply` and `describe` send their requests.

use clap::Args;

use crate::aws::AwsBackend;
use crate::db::Db;
use crate::error::Result;

/// The database a command talks to.
#[derive(Debug, Clone, Default, Args)]
pub struct Connection {
    /// A DynamoDB-compatible endpoint (DynamoDB Local, `dynomodel-mem serve`), reached with fixed
    /// dummy credentials in us-east-1. Without it: Amazon DynamoDB, configured from the
    /// environment and `~/.aws` (AWS_REGION, AWS_PROFILE, AWS_ENDPOINT_URL_DYNAMODB, ...).
    #[arg(long, value_name = "URL")]
    pub endpoint: Option<String>,
    /// A prefix added to every table name (as `Db::with_namespace`).
    #[arg(long, value_name = "PREFIX", default_value = "")]
    pub namespace: String,
}

impl Connection {
    /// The database.
    pub async fn db(&self) -> Result<Db> {
        let db = match &self.endpoint {
            Some(url) => Db::new(AwsBackend::local(url.clone())),
            None => Db::from_env().await?,
        };
        Ok(db.with_namespace(self.namespace.clone()))
    }
}
