//! An SDK client answered by canned HTTP responses, for the tests that hold the typed reads'
//! body reader and hook to the SDK's own answers.
#![allow(clippy::unwrap_used)]

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use aws_sdk_dynamodb::config::retry::RetryConfig;
use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_dynamodb::Client;
use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_runtime_api::http::StatusCode;
use aws_smithy_types::body::SdkBody;

/// A response: its status and its body.
type Response = (u16, Vec<u8>);

/// An HTTP client answering each request with the next canned response (status, body), the
/// last one again once they run out; it keeps each request's body and `Content-Length`.
#[derive(Debug, Clone)]
pub(crate) struct Canned {
    responses: Arc<Mutex<VecDeque<Response>>>,
    requests: Arc<Mutex<Vec<Sent>>>,
}

/// A request as the client got it: its body, and its `Content-Length` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Sent {
    pub(crate) body: Vec<u8>,
    pub(crate) content_length: Option<String>,
}

impl Canned {
    pub(crate) fn new<B: AsRef<[u8]>>(responses: &[(u16, B)]) -> Canned {
        Canned {
            responses: Arc::new(Mutex::new(
                responses
                    .iter()
                    .map(|(status, body)| (*status, body.as_ref().to_vec()))
                    .collect(),
            )),
            requests: Arc::default(),
        }
    }

    /// The number of requests answered.
    pub(crate) fn sent(&self) -> usize {
        self.requests.lock().unwrap().len()
    }

    /// The requests answered, in order.
    pub(crate) fn requests(&self) -> Vec<Sent> {
        self.requests.lock().unwrap().clone()
    }

    /// A client on these responses, making at most `attempts` attempts a request (with
    /// backoff: pause tokio's time in a test that retries).
    pub(crate) fn client(&self, attempts: u32) -> Client {
        let config = self
            .config(attempts)
            .credentials_provider(Credentials::new("k", "s", None, None, "test"));
        Client::from_conf(config.build())
    }

    /// The configuration of [`client`](Canned::client), without credentials.
    pub(crate) fn config(&self, attempts: u32) -> aws_sdk_dynamodb::config::Builder {
        let retry = match attempts {
            1 => RetryConfig::disabled(),
            n => RetryConfig::standard().with_max_attempts(n),
        };
        aws_sdk_dynamodb::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .region(Region::new("us-east-1"))
            .endpoint_url("http://127.0.0.1:1")
            .retry_config(retry)
            .http_client(self.clone())
    }
}

impl HttpConnector for Canned {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        self.requests.lock().unwrap().push(Sent {
            body: request.body().bytes().unwrap().to_vec(),
            content_length: request.headers().get("content-length").map(str::to_owned),
        });
        let (status, body) = {
            let mut responses = self.responses.lock().unwrap();
            match responses.len() {
                1 => responses[0].clone(),
                _ => responses.pop_front().unwrap(),
            }
        };
        let mut response =
            HttpResponse::new(StatusCode::try_from(status).unwrap(), SdkBody::from(body));
        let headers = response.headers_mut();
        headers.insert("content-type", "application/x-amz-json-1.0");
        headers.insert("x-amzn-requestid", "canned-request");
        HttpConnectorFuture::ready(Ok(response))
    }
}

impl HttpClient for Canned {
    fn http_connector(
        &self,
        _settings: &HttpConnectorSettings,
        _components: &RuntimeComponents,
    ) -> SharedHttpConnector {
        SharedHttpConnector::new(self.clone())
    }
}
