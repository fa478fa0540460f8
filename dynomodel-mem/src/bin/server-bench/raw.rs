//! The same phases as [`crate::workload`], sent by a minimal HTTP/1.1 client: prebuilt requests with a
//! fixed dummy SigV4 header (neither server checks signatures), one keep-alive connection per request
//! in flight. The SDK's client costs a few hundred microseconds of CPU per request on this kind of
//! machine, more than either server; this client costs a few, so the servers' own throughput shows.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::workload::{Phase, IN_FLIGHT, ITEMS};

/// One server's benchmark table, reached over raw HTTP.
#[derive(Clone)]
pub(crate) struct RawTarget {
    addr: SocketAddr,
    table: String,
}

/// A fixed, syntactically valid SigV4 header for the access key `AwsBackend::local` uses, so that
/// DynamoDB Local (which keeps one database per access key and region) serves the same table.
pub(crate) const AUTHORIZATION: &str = "AWS4-HMAC-SHA256 \
    Credential=dynomodel/20260101/us-east-1/dynamodb/aws4_request, \
    SignedHeaders=content-type;host;x-amz-date;x-amz-target, \
    Signature=0000000000000000000000000000000000000000000000000000000000000000";

impl RawTarget {
    /// `endpoint` as `http://HOST:PORT`, with HOST an IP address.
    pub(crate) fn new(endpoint: &str, table: &str) -> Result<RawTarget, String> {
        let addr = endpoint
            .strip_prefix("http://")
            .and_then(|a| a.trim_end_matches('/').parse().ok())
            .ok_or_else(|| format!("not an http://IP:PORT endpoint: {endpoint}"))?;
        Ok(RawTarget {
            addr,
            table: table.to_owned(),
        })
    }

    fn request(&self, operation: &str, body: &str) -> Vec<u8> {
        format!(
            "POST / HTTP/1.1\r\nHost: {}\r\nContent-Type: application/x-amz-json-1.0\r\n\
             X-Amz-Target: DynamoDB_20120810.{operation}\r\nX-Amz-Date: 20260101T000000Z\r\n\
             Authorization: {AUTHORIZATION}\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .into_bytes()
    }

    /// The requests of one 20-request round of `phase`, each with a text its response must contain.
    fn round(&self, phase: Phase) -> Vec<(Vec<u8>, &'static str)> {
        let table = &self.table;
        let key = |i: usize| format!(r#"{{"pk":{{"S":"bench"}},"sk":{{"N":"{i}"}}}}"#);
        (0..ITEMS)
            .map(|i| match phase {
                Phase::Put => {
                    let item = format!(
                        r#"{{"pk":{{"S":"bench"}},"sk":{{"N":"{i}"}},"payload":{{"S":"{}"}}}}"#,
                        "x".repeat(100)
                    );
                    let body = format!(r#"{{"TableName":"{table}","Item":{item}}}"#);
                    (self.request("PutItem", &body), "{")
                }
                Phase::Get | Phase::ConcurrentGet => {
                    let body = format!(r#"{{"TableName":"{table}","Key":{}}}"#, key(i));
                    (self.request("GetItem", &body), r#""Item""#)
                }
                Phase::Query => {
                    let body = format!(
                        r#"{{"TableName":"{table}","KeyConditionExpression":"pk = :pk","ExpressionAttributeValues":{{":pk":{{"S":"bench"}}}}}}"#
                    );
                    (self.request("Query", &body), r#""Count":20"#)
                }
            })
            .collect()
    }

    /// Runs `phase` for `duration`: one connection sending sequentially, or [`IN_FLIGHT`] of them for
    /// [`Phase::ConcurrentGet`]. Returns the requests made and the time they took.
    pub(crate) async fn run(
        &self,
        phase: Phase,
        duration: Duration,
    ) -> Result<(usize, Duration), String> {
        let started = Instant::now();
        let deadline = started + duration;
        let connections = if phase == Phase::ConcurrentGet {
            IN_FLIGHT
        } else {
            1
        };
        let workers: Vec<_> = (0..connections)
            .map(|w| {
                let round = self.round(phase);
                let addr = self.addr;
                tokio::spawn(async move {
                    let mut stream = TcpStream::connect(addr)
                        .await
                        .map_err(|e| format!("connect {addr}: {e}"))?;
                    stream.set_nodelay(true).map_err(|e| e.to_string())?;
                    let mut buffer = Vec::with_capacity(16 * 1024);
                    let mut requests = 0;
                    while Instant::now() < deadline {
                        let (request, expected) = &round[(w + requests) % ITEMS];
                        exchange(&mut stream, request, expected, &mut buffer).await?;
                        requests += 1;
                    }
                    Ok::<usize, String>(requests)
                })
            })
            .collect();
        let mut requests = 0;
        for worker in workers {
            requests += worker.await.map_err(|e| format!("worker: {e}"))??;
        }
        Ok((requests, started.elapsed()))
    }
}

/// Sends `request` and reads one response, which must be a 200 with a `Content-Length` and a body that
/// contains `expected`.
pub(crate) async fn exchange(
    stream: &mut TcpStream,
    request: &[u8],
    expected: &str,
    buffer: &mut Vec<u8>,
) -> Result<(), String> {
    stream.write_all(request).await.map_err(|e| e.to_string())?;
    buffer.clear();
    let mut chunk = [0u8; 16 * 1024];
    let (head_end, length) = loop {
        if let Some(end) = find(buffer, b"\r\n\r\n") {
            let head = std::str::from_utf8(&buffer[..end]).map_err(|e| e.to_string())?;
            if !head.starts_with("HTTP/1.1 200") {
                let status = head.lines().next().unwrap_or_default();
                return Err(format!(
                    "{status}: {}",
                    String::from_utf8_lossy(&buffer[end..])
                ));
            }
            let length = head
                .lines()
                .filter_map(|line| line.split_once(':'))
                .find(|(name, _)| name.eq_ignore_ascii_case("content-length"))
                .and_then(|(_, value)| value.trim().parse::<usize>().ok())
                .ok_or("a response without Content-Length")?;
            break (end + 4, length);
        }
        read_some(stream, buffer, &mut chunk).await?;
    };
    while buffer.len() < head_end + length {
        read_some(stream, buffer, &mut chunk).await?;
    }
    let body = &buffer[head_end..head_end + length];
    match find(body, expected.as_bytes()) {
        Some(_) => Ok(()),
        None => Err(format!(
            "expected {expected} in the response {}",
            String::from_utf8_lossy(body)
        )),
    }
}

async fn read_some(
    stream: &mut TcpStream,
    buffer: &mut Vec<u8>,
    chunk: &mut [u8],
) -> Result<(), String> {
    match stream.read(chunk).await {
        Ok(0) => Err("the server closed the connection".into()),
        Ok(n) => {
            buffer.extend_from_slice(&chunk[..n]);
            Ok(())
        }
        Err(e) => Err(e.to_string()),
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
