//! A DynamoDB endpoint over plain HTTP: what `dynomodel-mem import`/`export` use to reach a running
//! server. One keep-alive HTTP/1.1 connection (hyper's client, already a dependency of the server),
//! reopened once if the server closed it between requests.
//!
//! Requests are not signed: the dynomodel-mem server accepts any credentials, and DynamoDB Local only
//! reads the access key and region out of the `Authorization` header, which carries a fixed dummy
//! (access key `dynomodel`, region `us-east-1`). Real DynamoDB (HTTPS, SigV4) is out of scope.

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::SendRequest;
use hyper::Request;
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::TcpStream;
use tokio::sync::Mutex;

use super::{service_error, DumpError, Target};

/// The dummy credentials DynamoDB Local reads its database name from (it checks no signature).
const AUTHORIZATION: &str = "AWS4-HMAC-SHA256 Credential=dynomodel/20240101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-target, Signature=0";

/// A DynamoDB endpoint at an `http://host:port` URL.
///
/// ```no_run
/// use dynomodel_mem::dump::{self, HttpTarget};
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let server = HttpTarget::new("http://127.0.0.1:8000")?;
/// let mut out = std::io::BufWriter::new(std::fs::File::create("users.jsonl")?);
/// let items = dump::export_table(&server, "users", &mut out).await?;
/// println!("{items} items");
/// # Ok::<(), dump::DumpError>(())
/// # }).unwrap();
/// ```
#[derive(Debug)]
pub struct HttpTarget {
    /// `host:port`.
    authority: String,
    connection: Mutex<Option<SendRequest<Full<Bytes>>>>,
}

impl HttpTarget {
    /// The endpoint at `url` (`http://host:port`, optionally with a trailing `/`; the port defaults
    /// to 80). Nothing is connected until the first request.
    pub fn new(url: &str) -> Result<HttpTarget, DumpError> {
        let bad = |why: &str| DumpError::Connection(format!("invalid endpoint {url:?}: {why}"));
        let rest = url
            .strip_prefix("http://")
            .ok_or_else(|| bad("expected http://HOST:PORT (plain HTTP only)"))?;
        let authority = rest.trim_end_matches('/');
        if authority.is_empty() || authority.contains('/') {
            return Err(bad("expected http://HOST:PORT, without a path"));
        }
        let authority = match authority.rsplit_once(':') {
            Some((_, port)) if port.parse::<u16>().is_ok() => authority.to_owned(),
            _ => format!("{authority}:80"),
        };
        Ok(HttpTarget {
            authority,
            connection: Mutex::new(None),
        })
    }

    async fn connect(&self) -> Result<SendRequest<Full<Bytes>>, DumpError> {
        let unreachable = |e: &dyn std::fmt::Display| {
            DumpError::Connection(format!("cannot reach http://{}: {e}", self.authority))
        };
        let stream = TcpStream::connect(&self.authority)
            .await
            .map_err(|e| unreachable(&e))?;
        let _ = stream.set_nodelay(true);
        let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| unreachable(&e))?;
        // The connection's I/O runs beside the requests; it ends when the sender is dropped.
        tokio::spawn(async move {
            let _ = connection.await;
        });
        Ok(sender)
    }

    /// One exchange on the open connection (opening it if needed): the status and body.
    async fn exchange(&self, operation: &str, body: &Bytes) -> Result<(u16, Bytes), DumpError> {
        let mut connection = self.connection.lock().await;
        let mut sender = match connection.take() {
            Some(sender) if !sender.is_closed() => sender,
            _ => self.connect().await?,
        };
        let request = Request::post("/")
            .header("host", &self.authority)
            .header("content-type", "application/x-amz-json-1.0")
            .header("x-amz-target", format!("DynamoDB_20120810.{operation}"))
            .header("authorization", AUTHORIZATION)
            .body(Full::new(body.clone()))
            .map_err(|e| DumpError::Connection(format!("building a request: {e}")))?;
        let failed = |e: &dyn std::fmt::Display| {
            DumpError::Connection(format!("http://{}: {e}", self.authority))
        };
        sender.ready().await.map_err(|e| failed(&e))?;
        let response = sender.send_request(request).await.map_err(|e| failed(&e))?;
        let status = response.status().as_u16();
        let bytes = response
            .into_body()
            .collect()
            .await
            .map_err(|e| failed(&e))?
            .to_bytes();
        *connection = Some(sender);
        Ok((status, bytes))
    }
}

#[async_trait::async_trait]
impl Target for HttpTarget {
    async fn call(&self, operation: &str, request: Value) -> Result<Value, DumpError> {
        let body = Bytes::from(
            serde_json::to_vec(&request)
                .map_err(|e| DumpError::Connection(format!("encoding a request: {e}")))?,
        );
        // A keep-alive connection the server closed while idle fails the first exchange on it:
        // one more try on a new connection.
        let (status, bytes) = match self.exchange(operation, &body).await {
            Ok(answer) => answer,
            Err(_) => self.exchange(operation, &body).await?,
        };
        // TagResource and UntagResource answer without a body (on DynamoDB too).
        if status == 200 && bytes.is_empty() {
            return Ok(Value::Object(serde_json::Map::new()));
        }
        let answer: Value = serde_json::from_slice(&bytes).map_err(|_| {
            DumpError::Connection(format!(
                "http://{} answered {status} with a body that is not JSON: is it a DynamoDB endpoint?",
                self.authority
            ))
        })?;
        match status {
            200 => Ok(answer),
            _ => Err(service_error(&answer)),
        }
    }
}
