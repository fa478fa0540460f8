#![allow(clippy::unwrap_used)]

use hyper::header::HeaderValue;

use super::*;

fn headers(name: hyper::header::HeaderName, value: &str) -> HeaderMap {
    let mut map = HeaderMap::new();
    map.insert(name, HeaderValue::from_str(value).unwrap());
    map
}

fn gzip(data: &[u8]) -> Vec<u8> {
    encode(Coding::Gzip, data)
}

async fn inflate(coding: Coding, body: &[u8], limit: usize) -> Result<Vec<u8>, DecodeError> {
    let memory = BodyMemory::new(64 * 1024 * 1024);
    decode(coding, body, limit, &memory, 0)
        .await
        .map(|(bytes, _room)| bytes.to_vec())
}

#[test]
fn request_codings() {
    assert_eq!(request_coding(&HeaderMap::new()), Ok(None));
    for (value, coding) in [
        ("gzip", Some(Coding::Gzip)),
        ("GZIP", Some(Coding::Gzip)),
        ("x-gzip", Some(Coding::Gzip)),
        ("deflate", Some(Coding::Deflate)),
        ("identity", None),
        ("identity, gzip", Some(Coding::Gzip)),
    ] {
        assert_eq!(
            request_coding(&headers(CONTENT_ENCODING, value)),
            Ok(coding),
            "{value}"
        );
    }
    for value in ["br", "zstd", "gzip, deflate", "compress"] {
        assert_eq!(
            request_coding(&headers(CONTENT_ENCODING, value)),
            Err(DecodeError::Unsupported(value.into())),
            "{value}"
        );
    }
}

#[tokio::test]
async fn gzip_bodies_concatenated_members_included() {
    let mut body = gzip(b"{\"TableName\":");
    body.extend(gzip(b"\"t\"}"));
    assert_eq!(
        inflate(Coding::Gzip, &body, 1024).await.unwrap(),
        b"{\"TableName\":\"t\"}"
    );
    // Larger than a slice: several reservations, one body.
    let big = vec![b'x'; 3 * SLICE + 17];
    assert_eq!(
        inflate(Coding::Gzip, &gzip(&big), 1 << 20).await.unwrap(),
        big
    );
}

#[tokio::test]
async fn deflate_bodies_zlib_or_raw() {
    let data = b"{\"Limit\": 3}";
    let zlib = encode(Coding::Deflate, data);
    assert_eq!(inflate(Coding::Deflate, &zlib, 1024).await.unwrap(), data);
    let mut raw = flate2::write::DeflateEncoder::new(Vec::new(), Compression::fast());
    raw.write_all(data).unwrap();
    let raw = raw.finish().unwrap();
    assert_eq!(inflate(Coding::Deflate, &raw, 1024).await.unwrap(), data);
}

#[tokio::test]
async fn a_body_that_does_not_inflate_is_corrupt() {
    for (coding, body) in [
        (Coding::Gzip, b"{\"not\": \"gzip\"}".to_vec()),
        (Coding::Deflate, vec![0xff; 16]),
    ] {
        let error = inflate(coding, &body, 1024).await.unwrap_err();
        assert!(
            matches!(&error, DecodeError::Corrupt(m) if m.starts_with(&format!("the request body is not valid {} data", coding.name()))),
            "{error:?}"
        );
    }
    // A member, then garbage.
    let mut body = gzip(b"{}");
    body.extend(b"trailing");
    assert!(matches!(
        inflate(Coding::Gzip, &body, 1024).await,
        Err(DecodeError::Corrupt(_))
    ));
    // Cut short.
    let whole = gzip(&[b'a'; 4096]);
    assert!(matches!(
        inflate(Coding::Gzip, &whole[..whole.len() - 6], 1 << 20).await,
        Err(DecodeError::Corrupt(_))
    ));
}

#[tokio::test]
async fn a_bomb_is_refused_at_the_limit_not_inflated() {
    // 64 MiB of zeros in about 64 KiB.
    let mut best = GzEncoder::new(Vec::new(), Compression::best());
    best.write_all(&vec![0; 64 * 1024 * 1024]).unwrap();
    let bomb = best.finish().unwrap();
    assert!(bomb.len() < 100 * 1024, "{}", bomb.len());
    let memory = BodyMemory::new(64 * 1024 * 1024);
    let limit = 1024 * 1024;
    let refused = decode(Coding::Gzip, &bomb, limit, &memory, 0).await;
    assert!(matches!(refused, Err(DecodeError::TooLarge)));
    // Its room went back with the refusal.
    assert_eq!(memory.available(), 64 * 1024 * 1024);
    // Exactly the limit is fine.
    let exact = gzip(&vec![0; limit]);
    assert_eq!(
        inflate(Coding::Gzip, &exact, limit).await.unwrap().len(),
        limit
    );
}

#[tokio::test]
async fn inflated_bytes_hold_their_room_in_the_budget() {
    let memory = BodyMemory::new(1024 * 1024);
    let body = gzip(&vec![b'y'; 100_000]);
    let (bytes, room) = decode(Coding::Gzip, &body, 1 << 20, &memory, 0)
        .await
        .unwrap();
    assert_eq!(bytes.len(), 100_000);
    assert_eq!(memory.available(), 1024 * 1024 - 100_000);
    drop(room);
    assert_eq!(memory.available(), 1024 * 1024);
}

#[tokio::test]
async fn a_body_never_asks_for_more_than_the_whole_budget() {
    // A budget of 64 KiB, 1 KiB of it held by the compressed body: 200 KB inflate without waiting
    // on themselves, holding the rest of the budget.
    let memory = BodyMemory::new(64 * 1024);
    let compressed = memory.reserve(1024).await;
    let body = gzip(&vec![b'y'; 200_000]);
    let inflating = decode(Coding::Gzip, &body, 1 << 20, &memory, 1024);
    let (bytes, room) = tokio::time::timeout(std::time::Duration::from_secs(5), inflating)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(bytes.len(), 200_000);
    assert_eq!(memory.available(), 0);
    drop((room, compressed));
    assert_eq!(memory.available(), 64 * 1024);
}

#[test]
fn response_codings() {
    assert_eq!(response_coding(&HeaderMap::new()), None);
    for (value, coding) in [
        ("gzip", Some(Coding::Gzip)),
        ("gzip, deflate, br", Some(Coding::Gzip)),
        ("deflate", Some(Coding::Deflate)),
        ("br, deflate;q=0.5", Some(Coding::Deflate)),
        ("gzip;q=0, deflate", Some(Coding::Deflate)),
        ("*", Some(Coding::Gzip)),
        ("identity", None),
        ("br", None),
        ("gzip;q=0", None),
    ] {
        assert_eq!(
            response_coding(&headers(ACCEPT_ENCODING, value)),
            coding,
            "{value}"
        );
    }
}

#[test]
fn encoded_responses_round_trip() {
    let body = vec![b'z'; 10_000];
    for coding in [Coding::Gzip, Coding::Deflate] {
        let compressed = encode(coding, &body);
        assert!(compressed.len() < body.len() / 10);
        let mut back = Vec::new();
        match coding {
            Coding::Gzip => MultiGzDecoder::new(&compressed[..]).read_to_end(&mut back),
            Coding::Deflate => ZlibDecoder::new(&compressed[..]).read_to_end(&mut back),
        }
        .unwrap();
        assert_eq!(back, body);
    }
}
