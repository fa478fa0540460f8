//! Building the DynamoDB Streams client that goes with a DynamoDB client.
//!
//! DynamoDB serves the Streams API on its own endpoint (`streams.dynamodb.<region>.amazonaws.com`), so
//! [`AwsBackend`](super::AwsBackend) holds a second SDK client. When the caller hands over only the
//! DynamoDB client, the streams client copies every setting the SDK lets us read back from its config:
//! region, HTTP client, sleep and time source, timeouts, retry configuration, identity cache, stalled
//! stream protection, app name, and the endpoint URL when one was set explicitly (a DynamoDB-compatible
//! server such as DynamoDB Local serves both APIs on one endpoint, while real AWS resolves the streams
//! host itself).
//!
//! Two settings cannot be read back: the SDK's `Config::credentials_provider()` is documented as always
//! answering `None`, and the endpoint URL has no getter at all. Credentials therefore come from the
//! default chain (environment, profile, SSO, container and instance metadata), built on first use; the
//! endpoint URL is recovered from the config's `Debug` text, which a unit test pins so an SDK upgrade
//! that changes it fails loudly. Callers with other credentials use
//! [`AwsBackend::with_streams_client`](super::AwsBackend::with_streams_client).

use std::sync::Arc;

use aws_config::default_provider::credentials::DefaultCredentialsChain;
use aws_credential_types::provider::{self, ProvideCredentials};
use aws_sdk_dynamodbstreams::config::{BehaviorVersion, Region, SharedCredentialsProvider};
use tokio::sync::OnceCell;

/// The streams client matching a DynamoDB client (see the module docs for what is copied).
pub(crate) fn derive(config: &aws_sdk_dynamodb::Config) -> aws_sdk_dynamodbstreams::Client {
    let region = config.region().cloned();
    let mut builder = aws_sdk_dynamodbstreams::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .credentials_provider(DefaultChain::shared(region.clone()));
    builder.set_region(region);
    // Only what was set is copied: setting `None` would remove the SDK's defaults (the stalled stream
    // protection, for one, must then be configured or the client refuses to send).
    if let Some(http) = config.http_client() {
        builder.set_http_client(Some(http));
    }
    if let Some(sleep) = config.sleep_impl() {
        builder.set_sleep_impl(Some(sleep));
    }
    if let Some(time) = config.time_source() {
        builder.set_time_source(Some(time));
    }
    if let Some(timeouts) = config.timeout_config() {
        builder.set_timeout_config(Some(timeouts.clone()));
    }
    if let Some(retry) = config.retry_config() {
        builder.set_retry_config(Some(retry.clone()));
    }
    if let Some(protection) = config.stalled_stream_protection() {
        builder.set_stalled_stream_protection(Some(protection.clone()));
    }
    if let Some(name) = config.app_name() {
        builder.set_app_name(Some(name.clone()));
    }
    if let Some(cache) = config.identity_cache() {
        builder.set_identity_cache(cache);
    }
    builder.set_endpoint_url(explicit_endpoint_url(config));
    aws_sdk_dynamodbstreams::Client::from_conf(builder.build())
}

/// The streams client for a local server: the same credentials, region and endpoint as the DynamoDB one.
pub(crate) fn local(
    credentials: aws_credential_types::Credentials,
    region: Region,
    endpoint_url: String,
) -> aws_sdk_dynamodbstreams::Client {
    let config = aws_sdk_dynamodbstreams::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(region)
        .credentials_provider(credentials)
        .endpoint_url(endpoint_url)
        .build();
    aws_sdk_dynamodbstreams::Client::from_conf(config)
}

/// The streams client for a shared AWS configuration (`aws_config::load_defaults`).
///
/// The SDK's own conversion honours `AWS_ENDPOINT_URL_DYNAMODB_STREAMS` and `AWS_ENDPOINT_URL`; a
/// DynamoDB-only override (`AWS_ENDPOINT_URL_DYNAMODB`, a profile's `dynamodb` endpoint) points at a
/// DynamoDB-compatible server, which serves the Streams API on the same endpoint, so it is used too
/// unless a streams-specific one was given.
pub(crate) fn from_shared(
    shared: &aws_config::SdkConfig,
    dynamodb: &aws_sdk_dynamodb::Config,
) -> aws_sdk_dynamodbstreams::Client {
    let mut builder = aws_sdk_dynamodbstreams::config::Builder::from(shared);
    if std::env::var_os("AWS_ENDPOINT_URL_DYNAMODB_STREAMS").is_none()
        && let Some(url) = explicit_endpoint_url(dynamodb)
    {
        builder.set_endpoint_url(Some(url));
    }
    aws_sdk_dynamodbstreams::Client::from_conf(builder.build())
}

/// The endpoint URL set on a DynamoDB config (`endpoint_url(...)`, `AWS_ENDPOINT_URL[_DYNAMODB]`, a
/// profile's `endpoint_url`), or `None` when the SDK resolves the AWS endpoint itself.
///
/// The SDK stores it in the config's layer as `EndpointUrl(String)` and offers no getter, so it is read
/// from the `Debug` text (`EndpointUrl("http://…")`); `Debug` escapes quotes and backslashes, which a URL
/// does not contain.
fn explicit_endpoint_url(config: &aws_sdk_dynamodb::Config) -> Option<String> {
    let text = format!("{config:?}");
    let marker = "EndpointUrl(\"";
    let start = text.find(marker)? + marker.len();
    let len = text[start..].find('"')?;
    Some(text[start..start + len].to_owned())
}

/// The default AWS credentials chain, built on first use (building it is asynchronous: it reads profile
/// files and may probe the environment).
#[derive(Debug)]
struct DefaultChain {
    region: Option<Region>,
    chain: Arc<OnceCell<DefaultCredentialsChain>>,
}

impl DefaultChain {
    fn shared(region: Option<Region>) -> SharedCredentialsProvider {
        SharedCredentialsProvider::new(DefaultChain {
            region,
            chain: Arc::new(OnceCell::new()),
        })
    }
}

impl ProvideCredentials for DefaultChain {
    fn provide_credentials<'a>(&'a self) -> provider::future::ProvideCredentials<'a>
    where
        Self: 'a,
    {
        provider::future::ProvideCredentials::new(async move {
            let chain = self
                .chain
                .get_or_init(|| async {
                    let mut builder = DefaultCredentialsChain::builder();
                    if let Some(region) = self.region.clone() {
                        builder = builder.region(region);
                    }
                    builder.build().await
                })
                .await;
            chain.provide_credentials().await
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_sdk_dynamodb::config::Credentials;

    fn dynamodb_config(endpoint: Option<&str>) -> aws_sdk_dynamodb::Config {
        let mut builder = aws_sdk_dynamodb::Config::builder()
            .behavior_version(aws_sdk_dynamodb::config::BehaviorVersion::latest())
            .region(Region::new("eu-west-3"))
            .credentials_provider(Credentials::new("a", "b", None, None, "test"));
        builder.set_endpoint_url(endpoint.map(str::to_owned));
        builder.build()
    }

    #[test]
    fn the_explicit_endpoint_is_recovered_and_only_when_set() {
        let url = "http://127.0.0.1:8000/some/path?x=1";
        assert_eq!(
            explicit_endpoint_url(&dynamodb_config(Some(url))).as_deref(),
            Some(url)
        );
        assert_eq!(explicit_endpoint_url(&dynamodb_config(None)), None);
    }

    #[test]
    fn the_derived_client_keeps_region_and_endpoint() {
        let streams = derive(&dynamodb_config(Some("http://localhost:4566")));
        assert_eq!(
            streams.config().region().map(Region::as_ref),
            Some("eu-west-3")
        );
        // The streams config hides its endpoint the same way; the same reader works on it.
        let text = format!("{:?}", streams.config());
        assert!(
            text.contains("EndpointUrl(\"http://localhost:4566\")"),
            "{text}"
        );
        let aws = derive(&dynamodb_config(None));
        assert!(!format!("{:?}", aws.config()).contains("EndpointUrl("));
    }
}
