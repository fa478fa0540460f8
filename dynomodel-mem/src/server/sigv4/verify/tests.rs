#![allow(clippy::unwrap_used)]

use hyper::header::HeaderValue;

use super::*;

/// AWS's documented example keys.
const KEY_ID: &str = "AKIDEXAMPLE";
const SECRET: &str = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
    let mut map = HeaderMap::new();
    for (name, value) in pairs {
        let name = hyper::header::HeaderName::from_bytes(name.as_bytes()).unwrap();
        map.append(name, HeaderValue::from_str(value).unwrap());
    }
    map
}

fn at(basic: &str) -> DateTime<Utc> {
    NaiveDateTime::parse_from_str(basic, BASIC_FORMAT)
        .unwrap()
        .and_utc()
}

fn verifier() -> Verifier {
    let mut keys = AccessKeys::default();
    keys.insert(KEY_ID.into(), SECRET.into());
    Verifier::new(keys, None)
}

/// A request signed as an SDK signs it, with this module's own pieces (checked against AWS's vectors
/// below; the server tests sign with `aws-sigv4`).
fn signed_request(body: &[u8], amz_date: &str, region: &str) -> HeaderMap {
    let mut h = headers(&[
        ("host", "localhost:8000"),
        ("x-amz-date", amz_date),
        ("x-amz-target", "DynamoDB_20120810.ListTables"),
    ]);
    let request = Signed {
        method: "POST",
        path: "/",
        query: "",
        headers: &h,
        body,
    };
    let signed = ["host", "x-amz-date", "x-amz-target"];
    let canonical = canonical_request(&request, &signed);
    let day = &amz_date[..8];
    let scope = format!("{day}/{region}/dynamodb/aws4_request");
    let to_sign = format!(
        "{ALGORITHM}\n{amz_date}\n{scope}\n{}",
        hex(&Sha256::digest(canonical.as_bytes()))
    );
    let signature = hex(&hmac(
        &signing_key(SECRET, day, region, "dynamodb"),
        to_sign.as_bytes(),
    ));
    let authorization = format!(
        "{ALGORITHM} Credential={KEY_ID}/{scope}, SignedHeaders=host;x-amz-date;x-amz-target, \
         Signature={signature}"
    );
    h.insert(
        AUTHORIZATION,
        HeaderValue::from_str(&authorization).unwrap(),
    );
    h
}

fn check(verifier: &Verifier, h: &HeaderMap, body: &[u8], now: &str) -> Result<(), Refusal> {
    let request = Signed {
        method: "POST",
        path: "/",
        query: "",
        headers: h,
        body,
    };
    verifier.verify(&request, at(now))
}

#[test]
fn the_signing_key_is_aws_s_documented_one() {
    // "Derive a signing key for SigV4" in the IAM user guide: 20120215, us-east-1, iam.
    let key = signing_key(SECRET, "20120215", "us-east-1", "iam");
    assert_eq!(
        hex(&key),
        "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d"
    );
}

#[test]
fn canonical_request_and_signature_of_aws_get_vanilla() {
    // The SigV4 test suite's `get-vanilla` case.
    let h = headers(&[
        ("host", "example.amazonaws.com"),
        ("x-amz-date", "20150830T123600Z"),
    ]);
    let request = Signed {
        method: "GET",
        path: "/",
        query: "",
        headers: &h,
        body: b"",
    };
    let canonical = canonical_request(&request, &["host", "x-amz-date"]);
    assert_eq!(
        canonical,
        "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\n\
         e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    let to_sign = format!(
        "{ALGORITHM}\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n{}",
        hex(&Sha256::digest(canonical.as_bytes()))
    );
    let key = signing_key(SECRET, "20150830", "us-east-1", "service");
    assert!(matches(
        &key,
        to_sign.as_bytes(),
        "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"
    ));
    assert!(!matches(&key, to_sign.as_bytes(), "5fa00fa3"));
    assert!(!matches(&key, to_sign.as_bytes(), "not hex"));
}

#[test]
fn canonical_forms_of_paths_queries_and_values() {
    assert_eq!(canonical_path(""), "/");
    assert_eq!(canonical_path("/a b/%41"), "/a%20b/%2541");
    assert_eq!(canonical_query(""), "");
    assert_eq!(canonical_query("b=2&a=%7e&a=1&c"), "a=1&a=~&b=2&c=");
    assert_eq!(collapse_spaces("  a   b  c "), "a b c");
    assert_eq!(percent_decode("%zz%41+"), "%zzA+");
}

#[test]
fn a_valid_signature_passes() {
    let h = signed_request(b"{}", "20260101T120000Z", "eu-west-1");
    assert_eq!(check(&verifier(), &h, b"{}", "20260101T120500Z"), Ok(()));
}

#[test]
fn a_changed_body_or_secret_is_an_invalid_signature() {
    let h = signed_request(b"{}", "20260101T120000Z", "eu-west-1");
    let refused = check(&verifier(), &h, b"{ }", "20260101T120000Z").unwrap_err();
    assert_eq!(refused.code, "InvalidSignatureException");
    assert!(
        refused.message.starts_with(
            "The request signature we calculated does not match the signature you provided."
        ),
        "{}",
        refused.message
    );
    assert!(refused
        .message
        .contains("\n\nThe Canonical String for this request should have been\n'POST\n/\n\n"));
    let mut other = AccessKeys::default();
    other.insert(KEY_ID.into(), "another secret".into());
    let refused = check(&Verifier::new(other, None), &h, b"{}", "20260101T120000Z").unwrap_err();
    assert_eq!(refused.code, "InvalidSignatureException");
}

#[test]
fn no_authorization_is_a_missing_token() {
    for h in [
        headers(&[("host", "h")]),
        headers(&[("host", "h"), ("authorization", "Bearer x")]),
    ] {
        let refused = check(&verifier(), &h, b"", "20260101T120000Z").unwrap_err();
        assert_eq!(
            refused,
            Refusal::new(
                "MissingAuthenticationTokenException",
                "Request is missing Authentication Token"
            )
        );
    }
}

#[test]
fn a_header_and_a_presigned_query_together_are_refused() {
    let h = signed_request(b"{}", "20260101T120000Z", "eu-west-1");
    let request = Signed {
        method: "POST",
        path: "/",
        query: "X-Amz-Algorithm",
        headers: &h,
        body: b"{}",
    };
    assert_eq!(
        verifier().verify(&request, at("20260101T120000Z")),
        Err(Refusal::invalid(
            "Found both 'X-Amz-Algorithm' as a query-string param and 'Authorization' as HTTP \
             header."
        ))
    );
    // A presigned request alone is not supported: as if unsigned.
    let unsigned = headers(&[("host", "h")]);
    let request = Signed {
        query: "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=a",
        headers: &unsigned,
        ..request
    };
    let refused = verifier()
        .verify(&request, at("20260101T120000Z"))
        .unwrap_err();
    assert_eq!(refused.code, "MissingAuthenticationTokenException");
}

#[test]
fn missing_parameters_are_an_incomplete_signature() {
    let h = headers(&[
        ("host", "h"),
        ("authorization", "AWS4-HMAC-SHA256 Signature=b"),
    ]);
    let refused = check(&verifier(), &h, b"", "20260101T120000Z").unwrap_err();
    assert_eq!(refused.code, "IncompleteSignatureException");
    assert_eq!(
        refused.message,
        "Authorization header requires 'Credential' parameter. Authorization header requires \
         'SignedHeaders' parameter. Authorization header requires existence of either a \
         'X-Amz-Date' or a 'Date' header. Authorization=AWS4-HMAC-SHA256 Signature=b"
    );
    let h = headers(&[
        ("host", "h"),
        ("x-amz-date", "201"),
        (
            "authorization",
            "AWS4-HMAC-SHA256 Credential=a, SignedHeaders=host, Signature=b",
        ),
    ]);
    let refused = check(&verifier(), &h, b"", "20260101T120000Z").unwrap_err();
    assert_eq!(
        refused,
        Refusal::incomplete(
            "Date must be in ISO-8601 'basic format'. Got '201'. See \
             http://en.wikipedia.org/wiki/ISO_8601"
        )
    );
}

#[test]
fn an_expired_or_future_signature_is_refused() {
    let h = signed_request(b"{}", "20260101T120000Z", "eu-west-1");
    let late = check(&verifier(), &h, b"{}", "20260101T121501Z").unwrap_err();
    assert_eq!(
        late,
        Refusal::invalid(
            "Signature expired: 20260101T120000Z is now earlier than 20260101T120001Z \
             (20260101T121501Z - 15 min.)"
        )
    );
    let early = check(&verifier(), &h, b"{}", "20260101T114459Z").unwrap_err();
    assert_eq!(
        early,
        Refusal::invalid(
            "Signature not yet current: 20260101T120000Z is still later than 20260101T115959Z \
             (20260101T114459Z + 15 min.)"
        )
    );
    // The window's edges are inside it.
    assert_eq!(check(&verifier(), &h, b"{}", "20260101T121500Z"), Ok(()));
    assert_eq!(check(&verifier(), &h, b"{}", "20260101T114500Z"), Ok(()));
}

#[test]
fn an_unknown_key_is_an_unrecognized_client() {
    let h = signed_request(b"{}", "20260101T120000Z", "eu-west-1");
    let mut keys = AccessKeys::default();
    keys.insert("OTHER".into(), SECRET.into());
    let refused = check(&Verifier::new(keys, None), &h, b"{}", "20260101T120000Z").unwrap_err();
    assert_eq!(
        refused,
        Refusal::new(
            "UnrecognizedClientException",
            "The security token included in the request is invalid."
        )
    );
}

#[test]
fn the_scope_host_and_algorithm_are_checked() {
    let auth = |value: &str| {
        headers(&[
            ("host", "h"),
            ("x-amz-date", "20260101T120000Z"),
            ("authorization", value),
        ])
    };
    let unsigned_host = auth(
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/dynamodb/aws4_request, \
         SignedHeaders=x-amz-date, Signature=00",
    );
    let refused = check(&verifier(), &unsigned_host, b"", "20260101T120000Z").unwrap_err();
    assert_eq!(
        refused,
        Refusal::invalid("'Host' must be a 'SignedHeader' in the AWS Authorization.")
    );
    let algorithm = auth("AWS4-HMAC-SHA25 Credential=a/b/c/d/e, SignedHeaders=host, Signature=00");
    let refused = check(&verifier(), &algorithm, b"", "20260101T120000Z").unwrap_err();
    assert_eq!(
        refused,
        Refusal::incomplete(
            "Unsupported AWS 'algorithm': 'AWS4-HMAC-SHA25' (only AWS4-HMAC-SHA256 for now). "
        )
    );
    let short = auth("AWS4-HMAC-SHA256 Credential=a/b/c/d, SignedHeaders=host, Signature=00");
    let refused = check(&verifier(), &short, b"", "20260101T120000Z").unwrap_err();
    assert_eq!(
        refused,
        Refusal::incomplete(
            "Credential must have exactly 5 slash-delimited elements, e.g. \
             keyid/date/region/service/term, got 'a/b/c/d'"
        )
    );
    let scope = auth("AWS4-HMAC-SHA256 Credential=a/b/C/d/e/, SignedHeaders=host, Signature=00");
    let refused = check(&verifier(), &scope, b"", "20260101T120000Z").unwrap_err();
    assert_eq!(
        refused,
        Refusal::invalid(
            "Credential should be scoped to a valid region, not 'C'. Credential should be scoped \
             to correct service: 'dynamodb'. Credential should be scoped with a valid terminator: \
             'aws4_request', not 'e'. Date in Credential scope does not match YYYYMMDD from \
             ISO-8601 version of date from HTTP: 'b' != '20260101', from '20260101T120000Z'."
        )
    );
    // A pinned region: another region's signature is refused as another endpoint refuses it.
    let mut keys = AccessKeys::default();
    keys.insert(KEY_ID.into(), SECRET.into());
    let pinned = Verifier::new(keys, Some("us-east-1".into()));
    let h = signed_request(b"{}", "20260101T120000Z", "eu-west-1");
    let refused = check(&pinned, &h, b"{}", "20260101T120000Z").unwrap_err();
    assert_eq!(
        refused,
        Refusal::invalid("Credential should be scoped to a valid region, not 'eu-west-1'.")
    );
    let h = signed_request(b"{}", "20260101T120000Z", "us-east-1");
    assert_eq!(check(&pinned, &h, b"{}", "20260101T120000Z"), Ok(()));
}

#[test]
fn a_date_header_may_stand_for_x_amz_date() {
    let mut h = signed_request(b"{}", "20260101T120000Z", "eu-west-1");
    h.remove("x-amz-date");
    h.insert(
        DATE,
        HeaderValue::from_static("Thu, 01 Jan 2026 12:00:00 GMT"),
    );
    // Still refused: the signature was made over x-amz-date, which is gone; but the date itself
    // was read, and the refusal is the signature's.
    let refused = check(&verifier(), &h, b"{}", "20260101T120000Z").unwrap_err();
    assert_eq!(refused.code, "InvalidSignatureException");
    assert!(
        refused.message.contains("\nx-amz-date:\n"),
        "{}",
        refused.message
    );
}
