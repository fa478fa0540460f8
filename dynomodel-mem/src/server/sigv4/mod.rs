//! AWS Signature Version 4 on DynamoDB's requests: the region a request is signed for, which the
//! server answers in (`wire/region.rs`), and, when the server verifies signatures, the check itself
//! (`verify.rs`) against the access keys it was given (`keys.rs`).
//!
//! By default nothing is checked: any request is served, signed or not, whatever its credentials (curl
//! and test tools rely on it, as on DynamoDB Local). With verification on (`serve
//! --verify-signatures`), a request must carry a valid SigV4 `Authorization` header made with one of
//! the configured keys, and is otherwise refused as DynamoDB refuses it, with its codes and texts
//! (`MissingAuthenticationTokenException`, `IncompleteSignatureException`,
//! `UnrecognizedClientException`, `InvalidSignatureException`, all HTTP 400: the DynamoDB Developer
//! Guide's "Error handling" lists them under 400, and dynalite recorded the service's messages), so
//! that an application can test its credential handling.

mod keys;
mod verify;

pub(crate) use keys::{parse_file as parse_keys_file, parse_pair as parse_key_pair, AccessKeys};
pub(crate) use verify::{Signed, Verifier};

/// The algorithm of every signature this server knows.
const ALGORITHM: &str = "AWS4-HMAC-SHA256";

/// The region of a SigV4 `Authorization` header's credential scope
/// (`Credential=KEY/DATE/REGION/SERVICE/aws4_request`), when there is one and it could be a region
/// name (lower-case letters, digits and dashes, as every AWS region's, and `ddblocal`'s): the region
/// the client works in. Cheap: no allocation, one scan of the header.
pub(crate) fn signing_region(authorization: Option<&[u8]>) -> Option<&str> {
    let header = std::str::from_utf8(authorization?).ok()?;
    let (_, credential) = header.trim_start().split_once("Credential=")?;
    let region = credential.split('/').nth(2)?;
    region_like(region).then_some(region)
}

/// Whether `name` could be a region: 1–32 lower-case letters, digits and dashes (nothing that would
/// break an ARN's `:`-separated fields).
fn region_like(name: &str) -> bool {
    (1..=32).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signing_region_is_the_credential_scope_s() {
        let header = "AWS4-HMAC-SHA256 Credential=AKID/20260101/eu-west-1/dynamodb/aws4_request, \
                      SignedHeaders=host;x-amz-date, Signature=abc";
        assert_eq!(signing_region(Some(header.as_bytes())), Some("eu-west-1"));
        let compact =
            "AWS4-HMAC-SHA256 Credential=AKID/20260101/us-gov-west-1/dynamodb/aws4_request,\
                       SignedHeaders=host,Signature=abc";
        assert_eq!(
            signing_region(Some(compact.as_bytes())),
            Some("us-gov-west-1")
        );
        for other in [
            "",
            "Bearer token",
            "AWS4-HMAC-SHA256 Credential=AKID/20260101",
            "AWS4-HMAC-SHA256 Credential=AKID/20260101/x:y/dynamodb/aws4_request",
            "AWS4-HMAC-SHA256 Credential=AKID/20260101/EU-WEST-1/dynamodb/aws4_request",
        ] {
            assert_eq!(signing_region(Some(other.as_bytes())), None, "{other}");
        }
        assert_eq!(signing_region(None), None);
        assert_eq!(signing_region(Some(b"\xff\xfe")), None);
    }
}
