//! Compressed bodies: requests sent with `Content-Encoding: gzip` or `deflate` (the AWS SDKs' request
//! compression; DynamoDB accepts such requests, several concatenated gzip members included), and
//! responses compressed for a client that sends `Accept-Encoding: gzip` or `deflate` (DynamoDB's
//! `x-amz-crc32` is then the CRC32 of the compressed bytes, as the AWS SDK for Go documents it: "If the
//! response body is content-encoding: gzip, the checksum is of the gzipped response content").
//!
//! A compressed request body is inflated a slice at a time ([`SLICE`] bytes of output), each slice
//! taking its room in the budget of bodies in flight before the next is inflated, and the whole within
//! the 16 MB request limit: a body that inflates past it (a "zip bomb" of a few kilobytes) is refused
//! as soon as it crosses it, having cost the server at most 16 MB, never its full size. The task yields
//! between slices, so a large body shares its worker thread with the small requests around it. A body
//! that does not decompress is a 400 `SerializationException` saying why; an encoding the server does
//! not know, a 415.

use std::io::{Read, Write};

use flate2::read::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};
use flate2::write::{GzEncoder, ZlibEncoder};
use flate2::Compression;
use hyper::body::Bytes;
use hyper::header::{HeaderMap, ACCEPT_ENCODING, CONTENT_ENCODING};
use tokio::sync::OwnedSemaphorePermit;

use super::limits::BodyMemory;

/// The output inflated between two yields (and two reservations in the body budget).
pub(crate) const SLICE: usize = 64 * 1024;

/// Responses smaller than this are sent as they are: compressing them saves less than it costs.
pub(crate) const MIN_COMPRESSED_BYTES: usize = 1024;

/// A content coding the server reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Coding {
    Gzip,
    /// HTTP's `deflate`: a zlib stream (RFC 1950); raw deflate data, which some clients send under
    /// this name, is read too.
    Deflate,
}

impl Coding {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Coding::Gzip => "gzip",
            Coding::Deflate => "deflate",
        }
    }
}

/// Why a request body could not be used.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum DecodeError {
    /// `Content-Encoding` names a coding the server does not read (the header's value).
    Unsupported(String),
    /// The body is not what its coding says (why).
    Corrupt(String),
    /// Inflated, it is larger than the limit.
    TooLarge,
}

/// The coding of a request body (`None`: as it is). `identity` is no coding; several codings, or one
/// this server does not read, are [`DecodeError::Unsupported`].
pub(crate) fn request_coding(headers: &HeaderMap) -> Result<Option<Coding>, DecodeError> {
    let Some(value) = headers.get(CONTENT_ENCODING) else {
        return Ok(None);
    };
    let text = String::from_utf8_lossy(value.as_bytes());
    let codings: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty() && !c.eq_ignore_ascii_case("identity"))
        .collect();
    match codings.as_slice() {
        [] => Ok(None),
        [one] if one.eq_ignore_ascii_case("gzip") || one.eq_ignore_ascii_case("x-gzip") => {
            Ok(Some(Coding::Gzip))
        }
        [one] if one.eq_ignore_ascii_case("deflate") => Ok(Some(Coding::Deflate)),
        _ => Err(DecodeError::Unsupported(text.into_owned())),
    }
}

/// Inflates `body`, at most `limit` bytes of output, each [`SLICE`] taking its room in `memory` before
/// the next is inflated (the room is returned with the output, to hold until the request is answered).
/// `held`: the room the request holds already (its compressed body's); together they never ask for more
/// than the whole budget, so that one request cannot wait on itself (a body larger than the budget
/// holds all of it, as a plain one does).
pub(crate) async fn decode(
    coding: Coding,
    body: &[u8],
    limit: usize,
    memory: &BodyMemory,
    held: usize,
) -> Result<(Bytes, Vec<OwnedSemaphorePermit>), DecodeError> {
    let mut reader: Box<dyn Read + Send + '_> = match coding {
        Coding::Gzip => Box::new(MultiGzDecoder::new(body)),
        Coding::Deflate if is_zlib(body) => Box::new(ZlibDecoder::new(body)),
        Coding::Deflate => Box::new(DeflateDecoder::new(body)),
    };
    let mut out = Vec::new();
    let mut room = Vec::new();
    let mut unreserved = memory.max().saturating_sub(held);
    loop {
        let start = out.len();
        // One byte past the limit tells "exactly the limit" from "more".
        let want = SLICE.min(limit + 1 - start);
        out.resize(start + want, 0);
        let read = read_slice(&mut reader, &mut out[start..]);
        let got = match read {
            Ok(got) => got,
            Err(e) => {
                return Err(DecodeError::Corrupt(format!(
                    "the request body is not valid {} data: {e}",
                    coding.name()
                )))
            }
        };
        out.truncate(start + got);
        if out.len() > limit {
            return Err(DecodeError::TooLarge);
        }
        if got == 0 {
            break;
        }
        let take = got.min(unreserved);
        if take > 0 {
            room.extend(memory.reserve(take).await);
            unreserved -= take;
        }
        tokio::task::yield_now().await;
    }
    Ok((Bytes::from(out), room))
}

/// Fills `buffer` as far as the stream goes (a decoder's `read` may return less than asked).
fn read_slice(reader: &mut dyn Read, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    Ok(filled)
}

/// Whether `data` starts with a zlib header (deflate method, a check value that divides by 31).
fn is_zlib(data: &[u8]) -> bool {
    match data {
        [cmf, flg, ..] => cmf & 0x0f == 8 && (u16::from(*cmf) << 8 | u16::from(*flg)) % 31 == 0,
        _ => false,
    }
}

/// The coding to answer in, from the request's `Accept-Encoding`: gzip, else deflate, when the client
/// accepts it (a `q` of 0 refuses; `*` accepts gzip); `None` for none.
pub(crate) fn response_coding(headers: &HeaderMap) -> Option<Coding> {
    let text = String::from_utf8_lossy(headers.get(ACCEPT_ENCODING)?.as_bytes()).into_owned();
    let accepts = |wanted: &str| {
        text.split(',').any(|entry| {
            let mut parts = entry.split(';').map(str::trim);
            let name = parts.next().unwrap_or_default();
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            (name.eq_ignore_ascii_case(wanted) || name == "*") && !refused
        })
    };
    if accepts("gzip") {
        Some(Coding::Gzip)
    } else if accepts("deflate") {
        Some(Coding::Deflate)
    } else {
        None
    }
}

/// `body` compressed with `coding` (fast compression: the answer is on its way, not archived).
pub(crate) fn encode(coding: Coding, body: &[u8]) -> Vec<u8> {
    let out = Vec::with_capacity(body.len() / 4 + 64);
    // Writing to a `Vec` cannot fail; an encoder error would leave an empty body, never a panic.
    let written = match coding {
        Coding::Gzip => {
            let mut encoder = GzEncoder::new(out, Compression::fast());
            encoder.write_all(body).and_then(|()| encoder.finish())
        }
        Coding::Deflate => {
            let mut encoder = ZlibEncoder::new(out, Compression::fast());
            encoder.write_all(body).and_then(|()| encoder.finish())
        }
    };
    written.unwrap_or_default()
}

#[cfg(test)]
mod tests;
