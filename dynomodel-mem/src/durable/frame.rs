//! The framing of the log and snapshot files: each record is `length (u32 LE) | CRC-32 of the payload
//! (u32 LE) | payload`. A reader stops at the first frame that is short (a write torn by a crash) or
//! whose checksum does not match (a torn sector, a flipped bit), and says where: everything before that
//! offset is good, nothing after it is trusted.

use std::io::{self, Write};

/// Bytes before each payload: its length and its checksum.
pub(crate) const HEADER: usize = 8;

/// The largest payload a frame may declare. A length beyond it is garbage (a torn or corrupted
/// header), not a record to allocate for: no single request's effects come near it (a 25-item batch
/// of 400 KB items is 10 MB).
pub(crate) const MAX_PAYLOAD: usize = 256 << 20;

/// `payload` framed, appended to `out`.
pub(crate) fn encode(payload: &[u8], out: &mut Vec<u8>) {
    let len = u32::try_from(payload.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.extend_from_slice(payload);
}

/// Writes `payload` framed to `w` in one `write_all` (one system call for an unbuffered file, so a
/// process killed between requests never leaves half a record behind; a power cut still can, which
/// the checksum catches).
pub(crate) fn write(w: &mut impl Write, payload: &[u8]) -> io::Result<usize> {
    let mut frame = Vec::with_capacity(HEADER + payload.len());
    encode(payload, &mut frame);
    w.write_all(&frame)?;
    Ok(frame.len())
}

/// Why reading stopped before the end of the bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Damage {
    /// Fewer bytes than a header, or than the payload the header declares: a write cut short.
    Truncated,
    /// The payload does not match its checksum (or declares an impossible length).
    Checksum,
    /// The payload passed its checksum but is not a record this version understands.
    Undecodable,
}

impl std::fmt::Display for Damage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Damage::Truncated => "truncated record",
            Damage::Checksum => "checksum mismatch",
            Damage::Undecodable => "undecodable record",
        })
    }
}

/// The frames of `bytes`, in order.
pub(crate) struct Frames<'a> {
    bytes: &'a [u8],
    offset: usize,
    damage: Option<Damage>,
}

impl<'a> Frames<'a> {
    /// Frames from the start of `bytes`.
    pub(crate) fn new(bytes: &'a [u8]) -> Frames<'a> {
        Frames {
            bytes,
            offset: 0,
            damage: None,
        }
    }

    /// The offset just past the last good frame returned.
    pub(crate) fn offset(&self) -> usize {
        self.offset
    }

    /// Why iteration stopped early, if it did.
    pub(crate) fn damage(&self) -> Option<Damage> {
        self.damage
    }
}

impl<'a> Iterator for Frames<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        if self.damage.is_some() {
            return None;
        }
        let rest = self.bytes.get(self.offset..)?;
        if rest.is_empty() {
            return None;
        }
        let Some(header) = rest.get(..HEADER) else {
            self.damage = Some(Damage::Truncated);
            return None;
        };
        let word = |at: usize| {
            let mut b = [0u8; 4];
            b.copy_from_slice(&header[at..at + 4]);
            u32::from_le_bytes(b)
        };
        let len = usize::try_from(word(0)).unwrap_or(usize::MAX);
        if len > MAX_PAYLOAD {
            self.damage = Some(Damage::Checksum);
            return None;
        }
        let Some(payload) = rest.get(HEADER..HEADER + len) else {
            self.damage = Some(Damage::Truncated);
            return None;
        };
        if crc32fast::hash(payload) != word(4) {
            self.damage = Some(Damage::Checksum);
            return None;
        }
        self.offset += HEADER + len;
        Some(payload)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(payloads: &[&[u8]]) -> Vec<u8> {
        let mut out = Vec::new();
        for p in payloads {
            encode(p, &mut out);
        }
        out
    }

    #[test]
    fn frames_round_trip() {
        let bytes = framed(&[b"one", b"", b"three"]);
        let mut frames = Frames::new(&bytes);
        let got: Vec<&[u8]> = frames.by_ref().collect();
        assert_eq!(got, [&b"one"[..], b"", b"three"]);
        assert_eq!(frames.damage(), None);
        assert_eq!(frames.offset(), bytes.len());
    }

    #[test]
    fn a_truncated_tail_is_detected_at_every_cut() {
        let bytes = framed(&[b"first", b"second record"]);
        let first = HEADER + 5;
        for cut in first + 1..bytes.len() {
            let mut frames = Frames::new(&bytes[..cut]);
            assert_eq!(frames.by_ref().count(), 1, "cut at {cut}");
            assert_eq!(frames.damage(), Some(Damage::Truncated), "cut at {cut}");
            assert_eq!(frames.offset(), first);
        }
    }

    #[test]
    fn a_flipped_bit_anywhere_in_a_frame_is_detected() {
        let bytes = framed(&[b"first", b"second record"]);
        let first = HEADER + 5;
        for at in first..bytes.len() {
            for bit in 0..8 {
                let mut damaged = bytes.clone();
                damaged[at] ^= 1 << bit;
                let mut frames = Frames::new(&damaged);
                assert_eq!(frames.by_ref().count(), 1, "byte {at} bit {bit}");
                assert!(frames.damage().is_some(), "byte {at} bit {bit}");
                assert_eq!(frames.offset(), first);
            }
        }
    }
}
