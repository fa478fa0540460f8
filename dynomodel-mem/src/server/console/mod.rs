//! The web console (`GET /_dynomodel/console`): one self-contained page (`console.html`: HTML, CSS and
//! plain JavaScript, no build step, nothing fetched from elsewhere) to look at and change the
//! engine's data from a browser. It calls only what any client may: DynamoDB's `POST /` (and the
//! Streams API) and the admin endpoints, from the server's own origin, so that it needs no CORS.
//!
//! Safety:
//! - The page holds no data and no secret, so it is served without the admin token (a browser's
//!   navigation cannot carry one); its calls to the admin endpoints carry the token the user pastes
//!   into it (kept in the tab's `sessionStorage`), and are refused without it like any other
//!   client's. It is served only where the admin endpoints are (a server of the engine, on loopback
//!   or with a token); elsewhere it is a `404` saying why, as they are.
//! - DynamoDB's calls are unsigned, which a server that checks no signature (the default) serves; one
//!   that verifies signatures refuses them (`MissingAuthenticationTokenException`, shown), unless the
//!   user gives the page an access key and secret: it then signs them with SigV4 itself (WebCrypto,
//!   which browsers offer to secure contexts: loopback or HTTPS), keeping the key in
//!   `sessionStorage`. Nothing is relaxed for the page: its requests pass the same checks (`Host`,
//!   signature, `Content-Type` of admin posts, token) as every client's.
//! - A strict Content-Security-Policy: nothing but the page's own inline script and style (by hash)
//!   runs, no inline event handler, no other origin is contacted (`connect-src 'self'`), no frame may
//!   hold the page (`frame-ancestors 'none'`, `X-Frame-Options: DENY`). The page itself writes every
//!   value as text (`textContent`, never `innerHTML`), so an attribute value holding markup is shown,
//!   never run; the policy is the second wall.

use std::sync::LazyLock;

use base64::Engine as _;
use hyper::header::{HeaderMap, HeaderValue};
use sha2::{Digest as _, Sha256};

use super::admin::Endpoints;
use super::http::{encode, Answer};

/// The console's path.
pub(crate) const PATH: &str = "/_dynomodel/console";

/// The page.
const PAGE: &str = include_str!("console.html");

/// The page's Content-Security-Policy, with the hashes of its inline script and style.
static POLICY: LazyLock<String> = LazyLock::new(|| policy(PAGE));

/// Whether `path` is the console's (with or without a final `/`).
pub(crate) fn is_console(path: &str) -> bool {
    path.strip_suffix('/').unwrap_or(path) == PATH
}

/// The answer to a request for the console: the page for `GET` (and `HEAD`) where the admin
/// endpoints are served, their refusal where they are not.
pub(crate) fn answer(admin: &Endpoints, method: &str) -> Answer {
    if let Endpoints::Absent | Endpoints::Disabled = admin {
        // The admin endpoints' own 404 and message, whatever the token (none is needed to learn it).
        let (status, message) = match admin.admit(method, &HeaderMap::new()) {
            Err(refusal) => refusal,
            Ok(()) => (404, "the console is not served here".to_owned()),
        };
        return (status, encode(&serde_json::json!({ "message": message }))).into();
    }
    if method != "GET" && method != "HEAD" {
        let mut answer: Answer = (
            405,
            encode(&serde_json::json!({ "message": format!("the console is a page: GET {PATH}, not {method}") })),
        )
            .into();
        answer
            .headers
            .insert("allow", HeaderValue::from_static("GET, HEAD"));
        return answer;
    }
    let mut answer = Answer {
        content_type: Some("text/html; charset=utf-8"),
        ..Answer::from((200, PAGE.as_bytes().to_vec()))
    };
    if method == "HEAD" {
        answer.body.clear();
    }
    let headers = &mut answer.headers;
    if let Ok(policy) = HeaderValue::from_str(&POLICY) {
        headers.insert("content-security-policy", policy);
    }
    headers.insert("x-frame-options", HeaderValue::from_static("DENY"));
    headers.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    headers.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
    headers.insert("cache-control", HeaderValue::from_static("no-store"));
    answer
}

/// The policy for `page`: its one inline `<script>` and one `<style>` by their SHA-256 hashes, and
/// nothing else but calls to its own origin.
fn policy(page: &str) -> String {
    let script = hash_of_block(page, "<script>", "</script>");
    let style = hash_of_block(page, "<style>", "</style>");
    format!(
        "default-src 'none'; script-src {script}; style-src {style}; connect-src 'self'; \
         img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
}

/// `'sha256-…'` of the text between `open` and `close` (`'none'` when the page has no such block:
/// then nothing of that kind runs, and the page's tests fail visibly).
fn hash_of_block(page: &str, open: &str, close: &str) -> String {
    let block = page
        .split_once(open)
        .and_then(|(_, rest)| rest.split_once(close))
        .map(|(block, _)| block);
    match block {
        Some(block) => {
            let digest = Sha256::digest(block.as_bytes());
            format!(
                "'sha256-{}'",
                base64::engine::general_purpose::STANDARD.encode(digest)
            )
        }
        None => "'none'".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_names_the_page_s_own_blocks_only() {
        let policy = policy(PAGE);
        assert!(
            policy.starts_with("default-src 'none'; script-src 'sha256-"),
            "{policy}"
        );
        assert!(policy.contains("; style-src 'sha256-"), "{policy}");
        assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
        // One block of each: a second would not run, since the policy hashes only the first.
        assert_eq!(PAGE.matches("<script").count(), 1);
        assert_eq!(PAGE.matches("<style").count(), 1);
        assert_eq!(
            hash_of_block("<script>x</script>", "<script>", "</script>"),
            "'sha256-LXEWQrcmsEQBYnyp+6wy9chTD7GQPMTbAiWHF5IaSIE='"
        );
        assert_eq!(hash_of_block("none here", "<style>", "</style>"), "'none'");
    }

    #[test]
    fn the_page_writes_no_markup_from_data() {
        // The page's rule (see the module documentation): no HTML parsing of strings at all.
        for sink in [
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
            "new Function",
        ] {
            assert!(!PAGE.contains(sink), "console.html uses {sink}");
        }
        // No inline handlers: the policy would block them anyway.
        assert!(
            !PAGE.contains(" onclick="),
            "inline handler in console.html"
        );
    }

    #[test]
    fn console_paths() {
        assert!(is_console("/_dynomodel/console"));
        assert!(is_console("/_dynomodel/console/"));
        assert!(!is_console("/_dynomodel/consoles"));
    }
}
