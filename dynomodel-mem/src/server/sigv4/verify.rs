//! The SigV4 check of a request (`Authorization` header form), with DynamoDB's answers.
//!
//! The checks run in the order dynalite recorded the service running them, each with its text: not
//! both a header and a presigned query (`InvalidSignatureException`), the header present
//! (`MissingAuthenticationTokenException`), its parameters and a date
//! (`IncompleteSignatureException`), the date's format and its 15-minute window, `host` signed, the
//! algorithm, the credential scope (`InvalidSignatureException`), the access key
//! (`UnrecognizedClientException`), and the signature itself (`InvalidSignatureException`, with the
//! canonical request and string to sign the server computed, as the service wrote them, which is what
//! a client needs to find its mistake).
//!
//! Built on `hmac` and `sha2` (RustCrypto, already the workspace's) rather than `aws-sigv4`: that crate
//! signs requests, choosing the headers itself, but cannot rebuild the canonical request of one a
//! client signed (its canonical-request code is private; only the key derivation and the final HMAC,
//! two calls here, are public), and it would bring the AWS SDK's runtime into a server that otherwise
//! needs none of it. The test suite signs with `aws-sigv4` and the AWS SDK, so both sides are checked
//! against AWS's own code.
//!
//! Not supported: presigned requests (the signature in the query string: a request without an
//! `Authorization` header is refused as missing one), and session tokens (`X-Amz-Security-Token` is
//! signed like any header but not checked: the configured keys are long-term keys).

use std::fmt::Write as _;

use chrono::{DateTime, NaiveDateTime, TimeDelta, Utc};
use hmac::{Hmac, KeyInit as _, Mac as _};
use hyper::header::{HeaderMap, AUTHORIZATION, DATE};
use sha2::{Digest as _, Sha256};

use super::{region_like, AccessKeys, ALGORITHM};

/// How far a request's date may be from the server's clock, either way.
const WINDOW_MINUTES: i64 = 15;

/// SigV4's date format ("ISO-8601 basic format").
const BASIC_FORMAT: &str = "%Y%m%dT%H%M%SZ";

/// The service a DynamoDB (and DynamoDB Streams) request is signed for.
const SERVICE: &str = "dynamodb";

/// Why a request was refused: the error code (`com.amazon.coral.service#<code>`) and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub(crate) code: &'static str,
    pub(crate) message: String,
}

impl Refusal {
    fn new(code: &'static str, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }

    fn incomplete(message: impl Into<String>) -> Refusal {
        Refusal::new("IncompleteSignatureException", message)
    }

    fn invalid(message: impl Into<String>) -> Refusal {
        Refusal::new("InvalidSignatureException", message)
    }
}

/// What a signature covers of a request.
pub(crate) struct Signed<'a> {
    pub(crate) method: &'a str,
    /// The path as received (still percent-encoded).
    pub(crate) path: &'a str,
    /// The query string as received, without `?` (empty when there is none).
    pub(crate) query: &'a str,
    pub(crate) headers: &'a HeaderMap,
    /// The body as received (compressed, if it is: the signature covers the bytes sent).
    pub(crate) body: &'a [u8],
}

/// Checks signatures against the configured keys.
#[derive(Debug, Clone)]
pub(crate) struct Verifier {
    keys: AccessKeys,
    /// The engine's pinned region: a request signed for another is refused, as another region's
    /// endpoint refuses it. `None`: any region (the engine answers every region).
    region: Option<String>,
}

/// The parts of an `Authorization` header.
struct Authorization<'a> {
    algorithm: &'a str,
    credential: &'a str,
    signed_headers: &'a str,
    signature: &'a str,
}

impl Verifier {
    pub(crate) fn new(keys: AccessKeys, region: Option<String>) -> Verifier {
        Verifier { keys, region }
    }

    /// `Ok` when `request` carries a valid signature of a configured key made within 15 minutes of
    /// `now`; else DynamoDB's refusal.
    pub(crate) fn verify(&self, request: &Signed<'_>, now: DateTime<Utc>) -> Result<(), Refusal> {
        let header = request
            .headers
            .get(AUTHORIZATION)
            .map(|v| String::from_utf8_lossy(v.as_bytes()));
        let presigned = request
            .query
            .split('&')
            .any(|p| p.split('=').next() == Some("X-Amz-Algorithm"));
        if header.is_some() && presigned {
            return Err(Refusal::invalid(
                "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP \
                 header.",
            ));
        }
        let header = match header {
            Some(h) if h.trim_start().starts_with("AWS4-") => h,
            _ => {
                return Err(Refusal::new(
                    "MissingAuthenticationTokenException",
                    "Request is missing Authentication Token",
                ))
            }
        };
        let auth = parse(&header, request.headers)?;
        let (date, amz_date) = request_date(request.headers)?;
        check_window(date, now)?;
        let signed: Vec<&str> = auth.signed_headers.split(';').collect();
        if !signed.iter().any(|h| h.eq_ignore_ascii_case("host")) {
            return Err(Refusal::invalid(
                "'Host' must be a 'SignedHeader' in the AWS Authorization.",
            ));
        }
        if auth.algorithm != ALGORITHM {
            return Err(Refusal::incomplete(format!(
                "Unsupported AWS 'algorithm': '{}' (only {ALGORITHM} for now). ",
                auth.algorithm
            )));
        }
        // Trailing slashes are ignored (dynalite's recording).
        let parts: Vec<&str> = auth.credential.trim_end_matches('/').split('/').collect();
        let [key_id, day, region, service, terminator] = parts.as_slice() else {
            return Err(Refusal::incomplete(format!(
                "Credential must have exactly 5 slash-delimited elements, e.g. \
                 keyid/date/region/service/term, got '{}'",
                auth.credential
            )));
        };
        self.check_scope(day, region, service, terminator, &amz_date)?;
        let Some(secret) = self.keys.secret(key_id) else {
            return Err(Refusal::new(
                "UnrecognizedClientException",
                "The security token included in the request is invalid.",
            ));
        };
        let scope = format!("{day}/{region}/{service}/{terminator}");
        let canonical = canonical_request(request, &signed);
        let to_sign = format!(
            "{ALGORITHM}\n{amz_date}\n{scope}\n{}",
            hex(&Sha256::digest(canonical.as_bytes()))
        );
        let key = signing_key(secret, day, region, service);
        if matches(&key, to_sign.as_bytes(), auth.signature) {
            return Ok(());
        }
        Err(Refusal::invalid(format!(
            "The request signature we calculated does not match the signature you provided. Check \
             your AWS Secret Access Key and signing method. Consult the service documentation for \
             details.\n\nThe Canonical String for this request should have been\n'{canonical}'\n\n\
             The String-to-Sign should have been\n'{to_sign}'\n"
        )))
    }

    /// The credential scope's region, service, terminator and date, each refused with its sentence
    /// (all the wrong ones together).
    fn check_scope(
        &self,
        day: &str,
        region: &str,
        service: &str,
        terminator: &str,
        amz_date: &str,
    ) -> Result<(), Refusal> {
        let mut message = String::new();
        let valid_region = match &self.region {
            Some(pinned) => region == pinned,
            None => region_like(region),
        };
        if !valid_region {
            let _ = write!(
                message,
                "Credential should be scoped to a valid region, not '{region}'. "
            );
        }
        if service != SERVICE {
            let _ = write!(
                message,
                "Credential should be scoped to correct service: '{SERVICE}'. "
            );
        }
        if terminator != "aws4_request" {
            let _ = write!(
                message,
                "Credential should be scoped with a valid terminator: 'aws4_request', not \
                 '{terminator}'. "
            );
        }
        let today = amz_date.get(..8).unwrap_or(amz_date);
        if day != today {
            let _ = write!(
                message,
                "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date \
                 from HTTP: '{day}' != '{today}', from '{amz_date}'."
            );
        }
        match message.is_empty() {
            true => Ok(()),
            false => Err(Refusal::invalid(message.trim_end())),
        }
    }
}

/// The header's algorithm and parameters; the missing ones (and a missing date) are one
/// `IncompleteSignatureException` naming each, then the header.
fn parse<'a>(header: &'a str, headers: &HeaderMap) -> Result<Authorization<'a>, Refusal> {
    let mut words = header
        .split([',', ' '])
        .map(str::trim)
        .filter(|w| !w.is_empty());
    let algorithm = words.next().unwrap_or_default();
    let (mut credential, mut signed_headers, mut signature) = (None, None, None);
    for word in words {
        match word.split_once('=') {
            Some(("Credential", v)) => credential = Some(v),
            Some(("SignedHeaders", v)) => signed_headers = Some(v),
            Some(("Signature", v)) => signature = Some(v),
            _ => {}
        }
    }
    let mut message = String::new();
    for (name, value) in [
        ("Credential", credential),
        ("Signature", signature),
        ("SignedHeaders", signed_headers),
    ] {
        if value.is_none_or(str::is_empty) {
            let _ = write!(
                message,
                "Authorization header requires '{name}' parameter. "
            );
        }
    }
    if !headers.contains_key("x-amz-date") && !headers.contains_key(DATE) {
        message.push_str(
            "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header. ",
        );
    }
    if !message.is_empty() {
        return Err(Refusal::incomplete(format!(
            "{message}Authorization={header}"
        )));
    }
    Ok(Authorization {
        algorithm,
        credential: credential.unwrap_or_default(),
        signed_headers: signed_headers.unwrap_or_default(),
        signature: signature.unwrap_or_default(),
    })
}

/// The request's date (`X-Amz-Date`, else `Date`) and its basic-format text, which the string to sign
/// carries.
fn request_date(headers: &HeaderMap) -> Result<(DateTime<Utc>, String), Refusal> {
    let text = |name| {
        headers
            .get(name)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
    };
    let not_basic = |got: &str| {
        Refusal::incomplete(format!(
            "Date must be in ISO-8601 'basic format'. Got '{got}'. See \
             http://en.wikipedia.org/wiki/ISO_8601"
        ))
    };
    if let Some(amz) = text("x-amz-date") {
        let date = NaiveDateTime::parse_from_str(&amz, BASIC_FORMAT)
            .map_err(|_| not_basic(&amz))?
            .and_utc();
        return Ok((date, amz));
    }
    let http = text(DATE.as_str()).unwrap_or_default();
    let date = DateTime::parse_from_rfc2822(&http)
        .map_err(|_| not_basic(&http))?
        .with_timezone(&Utc);
    Ok((date, date.format(BASIC_FORMAT).to_string()))
}

/// A signature made more than 15 minutes before or after `now` is refused (clock skew, or a replay).
fn check_window(date: DateTime<Utc>, now: DateTime<Utc>) -> Result<(), Refusal> {
    let window = TimeDelta::minutes(WINDOW_MINUTES);
    let basic = |at: DateTime<Utc>| at.format(BASIC_FORMAT).to_string();
    if date < now - window {
        return Err(Refusal::invalid(format!(
            "Signature expired: {} is now earlier than {} ({} - {WINDOW_MINUTES} min.)",
            basic(date),
            basic(now - window),
            basic(now)
        )));
    }
    if date > now + window {
        return Err(Refusal::invalid(format!(
            "Signature not yet current: {} is still later than {} ({} + {WINDOW_MINUTES} min.)",
            basic(date),
            basic(now + window),
            basic(now)
        )));
    }
    Ok(())
}

/// SigV4's canonical request: method, canonical path, canonical query, the signed headers (lower-case
/// names, values trimmed with inner runs of spaces collapsed, repeated headers joined by commas), the
/// list of signed headers, and the payload's SHA-256.
fn canonical_request(request: &Signed<'_>, signed: &[&str]) -> String {
    let mut out = String::with_capacity(256 + request.query.len());
    out.push_str(request.method);
    out.push('\n');
    out.push_str(&canonical_path(request.path));
    out.push('\n');
    out.push_str(&canonical_query(request.query));
    out.push('\n');
    let mut names: Vec<String> = signed.iter().map(|h| h.to_ascii_lowercase()).collect();
    names.sort_unstable();
    for name in &names {
        let values: Vec<String> = request
            .headers
            .get_all(name.as_str())
            .iter()
            .map(|v| collapse_spaces(&String::from_utf8_lossy(v.as_bytes())))
            .collect();
        let _ = writeln!(out, "{name}:{}", values.join(","));
    }
    out.push('\n');
    out.push_str(&names.join(";"));
    out.push('\n');
    out.push_str(&hex(&Sha256::digest(request.body)));
    out
}

/// A header value trimmed, with each inner run of spaces as one.
fn collapse_spaces(value: &str) -> String {
    value.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The path, each segment URI-encoded (again: every AWS service but S3 encodes the path as sent once
/// more), `/` for an empty one.
fn canonical_path(path: &str) -> String {
    match path {
        "" => "/".into(),
        path => uri_encode(path, false),
    }
}

/// The query's parameters decoded, re-encoded and sorted by name, then value.
fn canonical_query(query: &str) -> String {
    let mut pairs: Vec<(String, String)> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (
                uri_encode(&percent_decode(k), true),
                uri_encode(&percent_decode(v), true),
            )
        })
        .collect();
    pairs.sort_unstable();
    let encoded: Vec<String> = pairs.into_iter().map(|(k, v)| format!("{k}={v}")).collect();
    encoded.join("&")
}

/// RFC 3986 percent-encoding of everything but the unreserved characters (and `/`, unless
/// `encode_slash`), with upper-case hex digits, as SigV4 requires.
fn uri_encode(text: &str, encode_slash: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        let unreserved = b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~');
        if unreserved || (b == b'/' && !encode_slash) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// `%XX` escapes decoded (a malformed one is kept as it is); `+` is not a space in SigV4.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex_pair = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex_pair) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// SigV4's signing key: the secret, HMAC'd with the scope's date, region, service and terminator.
fn signing_key(secret: &str, day: &str, region: &str, service: &str) -> Vec<u8> {
    let mut key = format!("AWS4{secret}").into_bytes();
    for part in [day, region, service, "aws4_request"] {
        key = hmac(&key, part.as_bytes());
    }
    key
}

fn hmac(key: &[u8], data: &[u8]) -> Vec<u8> {
    // HMAC takes keys of any length: `new_from_slice` cannot fail.
    match Hmac::<Sha256>::new_from_slice(key) {
        Ok(mut mac) => {
            mac.update(data);
            mac.finalize().into_bytes().to_vec()
        }
        Err(_) => Vec::new(),
    }
}

/// Whether `signature` (hex, as sent) is the HMAC of `to_sign` under `key`, compared in constant time.
fn matches(key: &[u8], to_sign: &[u8], signature: &str) -> bool {
    let Some(given) = unhex(signature) else {
        return false;
    };
    match Hmac::<Sha256>::new_from_slice(key) {
        Ok(mut mac) => {
            mac.update(to_sign);
            mac.verify_slice(&given).is_ok()
        }
        Err(_) => false,
    }
}

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests;
