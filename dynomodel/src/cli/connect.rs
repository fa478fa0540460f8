//! [`Endpoint`] and [`Connection`]: where the commands send their requests.

use aws_config::{BehaviorVersion, Region};
use clap::Args;

use crate::aws::AwsBackend;
use crate::db::Db;

/// Which DynamoDB a command talks to: Amazon DynamoDB, or a compatible endpoint.
///
/// ```
/// use clap::Parser;
/// use dynomodel::cli::Endpoint;
///
/// #[derive(Parser)]
/// struct Cli {
///     #[command(flatten)]
///     endpoint: Endpoint,
/// }
///
/// let cli = Cli::parse_from(["tool", "--endpoint", "http://127.0.0.1:8000"]);
/// assert_eq!(cli.endpoint.url.as_deref(), Some("http://127.0.0.1:8000"));
/// assert_eq!(cli.endpoint.region, None);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Args)]
pub struct Endpoint {
    /// A DynamoDB-compatible endpoint (DynamoDB Local, `dynomodel-mem serve`) instead of AWS's.
    /// Credentials come from the environment when it names any (`AWS_ACCESS_KEY_ID`, `AWS_PROFILE`),
    /// else fixed local ones (DynamoDB Local keeps one database per access key and region: run with
    /// the application's). Without it: Amazon DynamoDB, configured from the environment and `~/.aws`
    /// (AWS_REGION, AWS_PROFILE, AWS_ENDPOINT_URL_DYNAMODB, ...).
    #[arg(long = "endpoint", value_name = "URL")]
    pub url: Option<String>,
    /// The region (default: the environment's; `us-east-1` for an endpoint when it names none).
    #[arg(long)]
    pub region: Option<String>,
}

impl Endpoint {
    /// The database: AWS configured from the environment, or the endpoint with the environment's
    /// credentials when it names any, else [`AwsBackend::local`]'s fixed ones.
    pub async fn db(&self) -> Db {
        let mut loader = aws_config::defaults(BehaviorVersion::latest());
        if let Some(region) = &self.region {
            loader = loader.region(Region::new(region.clone()));
        }
        let Some(url) = &self.url else {
            return Db::aws(aws_sdk_dynamodb::Client::new(&loader.load().await));
        };
        let named = |var: &str| std::env::var_os(var).is_some_and(|v| !v.is_empty());
        if !named("AWS_ACCESS_KEY_ID") && !named("AWS_PROFILE") {
            if self.region.is_none() {
                return Db::new(AwsBackend::local(url.clone()));
            }
            loader = loader.credentials_provider(aws_credential_types::Credentials::new(
                "dynomodel",
                "dynomodel",
                None,
                None,
                "dynomodel-local",
            ));
        }
        let config = loader.endpoint_url(url).load().await;
        let mut builder = aws_sdk_dynamodb::config::Builder::from(&config);
        if config.region().is_none() {
            builder = builder.region(Region::new("us-east-1"));
        }
        Db::aws(aws_sdk_dynamodb::Client::from_conf(builder.build()))
    }
}

/// The database a schema command talks to: an [`Endpoint`] and a table-name prefix.
#[derive(Debug, Clone, Default, Args)]
pub struct Connection {
    /// Where the requests go.
    #[command(flatten)]
    pub endpoint: Endpoint,
    /// A prefix added to every table name (as `Db::with_namespace`).
    #[arg(long, value_name = "PREFIX", default_value = "")]
    pub namespace: String,
}

impl Connection {
    /// The database, with the namespace applied.
    pub async fn db(&self) -> Db {
        self.endpoint
            .db()
            .await
            .with_namespace(self.namespace.clone())
    }
}
