//! CORS on DynamoDB's API, for browser SDKs that call it directly. The admin endpoints never answer
//! CORS (`http.rs` serves them before this is consulted).
//!
//! DynamoDB's own answers, as dynalite's tests recorded them against the service: every response to a
//! request with an `Origin` carries `Access-Control-Allow-Origin: *` (errors too); a preflight
//! (`OPTIONS` with an `Origin`) is `200` with an empty body, `Access-Control-Allow-Methods` and
//! `Access-Control-Allow-Headers` echoing what the browser asked for, and `Access-Control-Max-Age:
//! 172800`; other responses expose `x-amzn-RequestId`, `x-amzn-ErrorType`, `x-amz-request-id`,
//! `x-amz-id-2`, `x-amzn-ErrorMessage` and `Date` to the page.
//!
//! Which origins: DynamoDB can let every page call it because every request must be signed by a key
//! the page's user holds. This server, by default, checks no signature: allowing every origin would let
//! any web page a developer visits read and write the tables of the server on their machine. So by
//! default it allows the pages a developer serves themselves, from loopback (`http(s)://localhost`,
//! `*.localhost`, `127.0.0.1`, `[::1]`, any port); more origins with
//! [`ServerBuilder::cors_origin`](super::ServerBuilder::cors_origin) (`serve --cors-origin`), `*` for
//! every one. A server that verifies signatures (`--verify-signatures`) allows every origin by default,
//! as DynamoDB does. A preflight from an origin not allowed is refused (`403`, saying which flag allows
//! it), and no response to it carries CORS headers, so the browser keeps the page from reading it.

use hyper::header::{HeaderMap, HeaderValue, ORIGIN};

/// The headers DynamoDB exposes to pages.
const EXPOSED: &str =
    "x-amzn-RequestId,x-amzn-ErrorType,x-amz-request-id,x-amz-id-2,x-amzn-ErrorMessage,Date";

/// How long a browser may cache a preflight's answer, in seconds (DynamoDB's two days).
const MAX_AGE: &str = "172800";

/// The origins allowed to call the API from a browser.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Origins {
    /// Given with `cors_origin` (lower-case, without a trailing `/`); `*` among them allows every one.
    listed: Vec<String>,
    /// Every origin, when none was listed (a server that verifies signatures).
    any_by_default: bool,
}

/// What to add to a response for the request's `Origin`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Grant {
    /// No `Origin`: not a cross-origin request, nothing to add.
    None,
    /// An origin not allowed: no CORS headers.
    Refused(String),
    /// Allowed: `Access-Control-Allow-Origin` is `*` or the origin itself.
    Allowed(HeaderValue),
}

impl Origins {
    pub(crate) fn allow(&mut self, origin: &str) {
        self.listed.push(normalize(origin));
    }

    /// Every origin unless some were listed (set for a server that verifies signatures).
    pub(crate) fn allow_any_by_default(&mut self) {
        self.any_by_default = true;
    }

    fn allows_any(&self) -> bool {
        self.listed.iter().any(|o| o == "*") || (self.any_by_default && self.listed.is_empty())
    }

    /// The grant for a request with these headers.
    pub(crate) fn grant(&self, headers: &HeaderMap) -> Grant {
        let Some(origin) = headers.get(ORIGIN) else {
            return Grant::None;
        };
        if self.allows_any() {
            return Grant::Allowed(HeaderValue::from_static("*"));
        }
        let text = String::from_utf8_lossy(origin.as_bytes());
        let normalized = normalize(&text);
        if is_loopback(&normalized) || self.listed.contains(&normalized) {
            return Grant::Allowed(origin.clone());
        }
        Grant::Refused(text.into_owned())
    }
}

/// An origin compared case-insensitively and without a trailing `/`.
fn normalize(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

/// Whether `origin` (`scheme://host[:port]`) is a page served from this machine.
fn is_loopback(origin: &str) -> bool {
    let Some(authority) = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
    else {
        return false;
    };
    let host = match authority.strip_prefix('[') {
        Some(rest) => match rest.split_once(']') {
            Some((ip, port)) if port.is_empty() || port.starts_with(':') => ip,
            _ => return false,
        },
        None => authority.split(':').next().unwrap_or(authority),
    };
    host == "localhost"
        || host.ends_with(".localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Whether a request is a CORS preflight: `OPTIONS` with an `Origin`.
pub(crate) fn is_preflight(method: &hyper::Method, headers: &HeaderMap) -> bool {
    method == hyper::Method::OPTIONS && headers.contains_key(ORIGIN)
}

/// The headers of an allowed request's response: the origin, and for a preflight what it asked for
/// (`requested`: its `Access-Control-Request-Method` and `-Headers`) and how long to keep the answer;
/// for others, the headers a page may read.
pub(crate) fn add_headers(
    response: &mut HeaderMap,
    origin: HeaderValue,
    requested: Option<(Option<HeaderValue>, Option<HeaderValue>)>,
) {
    if origin != "*" {
        response.insert("vary", HeaderValue::from_static("Origin"));
    }
    response.insert("access-control-allow-origin", origin);
    match requested {
        Some((method, headers)) => {
            if let Some(method) = method {
                response.insert("access-control-allow-methods", method);
            }
            if let Some(headers) = headers {
                response.insert("access-control-allow-headers", headers);
            }
            response.insert("access-control-max-age", HeaderValue::from_static(MAX_AGE));
        }
        None => {
            response.insert(
                "access-control-expose-headers",
                HeaderValue::from_static(EXPOSED),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_origin(origin: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        if let Ok(v) = HeaderValue::from_str(origin) {
            h.insert(ORIGIN, v);
        }
        h
    }

    #[test]
    fn loopback_pages_are_allowed_by_default() {
        let origins = Origins::default();
        for ok in [
            "http://localhost:5173",
            "https://LOCALHOST",
            "http://app.localhost:3000/",
            "http://127.0.0.1:8080",
            "http://127.1.2.3",
            "http://[::1]:3000",
        ] {
            assert_eq!(
                origins.grant(&with_origin(ok)),
                Grant::Allowed(HeaderValue::from_str(ok).unwrap_or(HeaderValue::from_static("x"))),
                "{ok}"
            );
        }
        for refused in [
            "http://evil.example",
            "http://localhost.evil.example",
            "http://127.0.0.1.nip.io",
            "file://",
            "null",
            "http://[::1]x",
        ] {
            assert_eq!(
                origins.grant(&with_origin(refused)),
                Grant::Refused(refused.into()),
                "{refused}"
            );
        }
        assert_eq!(origins.grant(&HeaderMap::new()), Grant::None);
    }

    #[test]
    fn listed_origins_and_any() {
        let mut origins = Origins::default();
        origins.allow("https://App.Example/");
        let app = with_origin("https://app.example");
        assert!(matches!(origins.grant(&app), Grant::Allowed(v) if v == "https://app.example"));
        assert!(matches!(
            origins.grant(&with_origin("https://other.example")),
            Grant::Refused(_)
        ));
        origins.allow("*");
        assert_eq!(
            origins.grant(&with_origin("https://other.example")),
            Grant::Allowed(HeaderValue::from_static("*"))
        );
        // A server that verifies signatures allows any origin, unless origins were listed.
        let mut verified = Origins::default();
        verified.allow_any_by_default();
        assert_eq!(
            verified.grant(&with_origin("https://other.example")),
            Grant::Allowed(HeaderValue::from_static("*"))
        );
        verified.allow("https://app.example");
        assert!(matches!(
            verified.grant(&with_origin("https://other.example")),
            Grant::Refused(_)
        ));
    }

    #[test]
    fn preflight_and_answer_headers() {
        let mut preflight = HeaderMap::new();
        add_headers(
            &mut preflight,
            HeaderValue::from_static("*"),
            Some((
                Some(HeaderValue::from_static("POST")),
                Some(HeaderValue::from_static("content-type, x-amz-target")),
            )),
        );
        assert_eq!(preflight["access-control-allow-origin"], "*");
        assert_eq!(preflight["access-control-allow-methods"], "POST");
        assert_eq!(
            preflight["access-control-allow-headers"],
            "content-type, x-amz-target"
        );
        assert_eq!(preflight["access-control-max-age"], "172800");
        assert!(!preflight.contains_key("vary"));
        let mut answer = HeaderMap::new();
        add_headers(
            &mut answer,
            HeaderValue::from_static("http://localhost:3000"),
            None,
        );
        assert_eq!(
            answer["access-control-allow-origin"],
            "http://localhost:3000"
        );
        assert_eq!(answer["vary"], "Origin");
        assert_eq!(answer["access-control-expose-headers"], EXPOSED);
    }
}
