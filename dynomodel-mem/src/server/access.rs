//! Who may talk to the server: the `Host` check that defeats DNS rebinding, and the admin token.
//!
//! # `Host` (DNS rebinding)
//! A web page can make a browser send requests to a server on the browser's own machine by rebinding
//! its own domain name to 127.0.0.1: the browser then takes the server for the page's origin and lets
//! the page read the answers. Such requests carry the page's domain in `Host`. A request that reached the
//! server on a loopback address must therefore name loopback: `localhost`, a `*.localhost` name (RFC
//! 6761 reserves them for loopback), an IP address (no DNS is involved, so nothing can be rebound), or a
//! name allowed explicitly ([`ServerBuilder::allow_host`](super::ServerBuilder::allow_host), `serve
//! --allow-host`, for an `/etc/hosts` alias). The port is not checked: port forwarding (Docker, SSH,
//! `kubectl port-forward`) changes it legitimately. A request without `Host` is let through: browsers
//! always send one.
//!
//! This applies to DynamoDB's API as well as the admin endpoints: a rebound page could otherwise read
//! and write every table. DynamoDB Local accepts any `Host`; the AWS SDKs, the CLI and boto3 send the
//! endpoint's host, which for a server on loopback is `localhost` or an address. Requests that arrive on
//! other interfaces are not checked: clients on a network reach the server by names it cannot know
//! (Docker service names, DNS), and a server bound there is exposed to the network anyway, which it
//! warns about at startup. Cross-site requests without rebinding need no check: DynamoDB's requests
//! carry `X-Amz-Target`, which a page can only send after a CORS preflight, granted only to the
//! origins the server allows (pages served from loopback by default: `cors.rs`), and the admin
//! endpoints take only `application/json` bodies, which a page cannot post without a preflight either,
//! and they grant none.
//!
//! # The admin token
//! With a token set, every admin request must carry `Authorization: Bearer TOKEN`. A server that
//! listens beyond loopback serves the admin endpoints only with a token (see `super::admin`).

use std::net::IpAddr;

/// The names a request arriving on loopback may carry in `Host`, beyond loopback's own.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Hosts {
    allowed: Vec<String>,
}

impl Hosts {
    pub(crate) fn allow(&mut self, name: &str) {
        self.allowed
            .push(name.trim_end_matches('.').to_ascii_lowercase());
    }

    /// Whether a request with this `Host` header may be served. `on_loopback`: it reached the server on
    /// a loopback address; others are not checked (see the module documentation).
    pub(crate) fn permit(&self, host: Option<&[u8]>, on_loopback: bool) -> Result<(), String> {
        let Some(host) = host.filter(|_| on_loopback) else {
            return Ok(());
        };
        let text = String::from_utf8_lossy(host);
        let name = host_name(&text);
        let loopback_name = name.eq_ignore_ascii_case("localhost")
            || name
                .get(name.len().saturating_sub(".localhost".len())..)
                .is_some_and(|end| end.eq_ignore_ascii_case(".localhost"));
        if loopback_name
            || name.parse::<IpAddr>().is_ok()
            || self.allowed.iter().any(|a| a.eq_ignore_ascii_case(name))
        {
            return Ok(());
        }
        Err(format!(
            "Host {text:?} does not name this server: a request that reaches it on a loopback address \
             must name localhost or an IP address (a defence against DNS rebinding); start the server \
             with --allow-host {name} to accept this name"
        ))
    }
}

/// The host name of a `Host` header: without the port, the brackets of an IPv6 address, or a final dot.
fn host_name(host: &str) -> &str {
    let host = host.trim();
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(rest),
        None => host.rsplit_once(':').map_or(host, |(name, _port)| name),
    };
    name.trim_end_matches('.')
}

/// Whether `given` (an `Authorization` header) carries `token` as a bearer token. Compared in constant
/// time, so that the answer's timing says nothing about how much of a guess was right.
pub(crate) fn bearer_matches(given: Option<&[u8]>, token: &str) -> bool {
    let Some(given) = given.and_then(|g| g.strip_prefix(b"Bearer ".as_slice())) else {
        return false;
    };
    let expected = token.as_bytes();
    let mut difference = u8::from(given.len() != expected.len());
    for (i, b) in expected.iter().enumerate() {
        difference |= b ^ given.get(i).copied().unwrap_or(!b);
    }
    difference == 0
}

/// Whether a `Content-Type` header value is JSON (`application/json`, parameters allowed).
pub(crate) fn is_json(content_type: Option<&[u8]>) -> bool {
    let Some(value) = content_type else {
        return false;
    };
    let media = value.split(|b| *b == b';').next().unwrap_or(value);
    media.trim_ascii().eq_ignore_ascii_case(b"application/json")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_requests_must_name_loopback() {
        let mut hosts = Hosts::default();
        for ok in [
            "localhost",
            "localhost:8000",
            "LOCALHOST.:8000",
            "app.localhost:1",
            "127.0.0.1:8000",
            "10.0.0.7",
            "[::1]:8000",
            "[::1]",
        ] {
            assert_eq!(hosts.permit(Some(ok.as_bytes()), true), Ok(()), "{ok}");
        }
        for refused in [
            "evil.example:8000",
            "localhost.evil.example",
            "127.0.0.1.nip.io",
            "",
        ] {
            assert!(
                hosts.permit(Some(refused.as_bytes()), true).is_err(),
                "{refused}"
            );
        }
        let message = hosts.permit(Some(b"evil.example:8000"), true).unwrap_err();
        assert!(message.contains("--allow-host evil.example"), "{message}");
        // Not on loopback, or no Host at all: not checked.
        assert_eq!(hosts.permit(Some(b"dynamodb:8000"), false), Ok(()));
        assert_eq!(hosts.permit(None, true), Ok(()));
        hosts.allow("DynamoDB.test.");
        assert_eq!(hosts.permit(Some(b"dynamodb.test:8000"), true), Ok(()));
    }

    #[test]
    fn bearer_tokens() {
        assert!(bearer_matches(Some(b"Bearer s3cret"), "s3cret"));
        for wrong in [
            b"Bearer s3cre".as_slice(),
            b"Bearer s3cret2",
            b"Bearer S3cret",
            b"s3cret",
            b"Basic s3cret",
            b"",
        ] {
            assert!(!bearer_matches(Some(wrong), "s3cret"), "{wrong:?}");
        }
        assert!(!bearer_matches(None, "s3cret"));
    }

    #[test]
    fn json_content_types() {
        assert!(is_json(Some(b"application/json")));
        assert!(is_json(Some(b"Application/JSON; charset=utf-8")));
        for other in [
            b"text/plain".as_slice(),
            b"application/x-www-form-urlencoded",
            b"multipart/form-data; boundary=x",
            b"application/jsonp",
            b"",
        ] {
            assert!(!is_json(Some(other)), "{other:?}");
        }
        assert!(!is_json(None));
    }
}
