//! The framing of the log and snapshot files: each record is `length (u32 LE) | CRC-32 of the payload
//! (u32 LE) | payload`. A reader stops at the first frame that is short (a write torn by a crash) or
//! whose checksum does not match (a torn sector, a flipped bit), and says where: everything before that
//! offset is good. Whether what follows is a torn tail or damage is for [`next_parsing`] to tell: a
//! crash leaves nothing readable after a torn frame, damage does.

use std::io::{self, Write};

use super::Damage;

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

/// Fills in the header of `frame`, whose first [`HEADER`] bytes were reserved for it before its
/// payload was written after them: the record is framed where it was encoded, without a copy.
pub(crate) fn seal(frame: &mut [u8]) {
    let Some((header, payload)) = frame.split_at_mut_checked(HEADER) else {
        return;
    };
    let len = u32::try_from(payload.len()).unwrap_or(u32::MAX);
    header[..4].copy_from_slice(&len.to_le_bytes());
    header[4..].copy_from_slice(&crc32fast::hash(payload).to_le_bytes());
}

/// Writes `payload` framed to `w` (snapshots).
pub(crate) fn write(w: &mut impl Write, payload: &[u8]) -> io::Result<usize> {
    let mut frame = Vec::with_capacity(HEADER + payload.len());
    encode(payload, &mut frame);
    w.write_all(&frame)?;
    Ok(frame.len())
}

/// The first offset at or after `from` where a whole frame with a matching checksum starts whose
/// payload `plausible` accepts (checked before the checksum, so that scanning damaged bytes stays
/// cheap: a record's sequence number, say). What a crash leaves after a torn frame is never that;
/// damage in the middle of a file is followed by the frames after it.
pub(crate) fn next_parsing(
    bytes: &[u8],
    from: usize,
    plausible: impl Fn(&[u8]) -> bool,
) -> Option<usize> {
    let last = bytes.len().checked_sub(HEADER)?;
    (from..=last).find(|&at| {
        let header = &bytes[at..at + HEADER];
        let len = word(header, 0) as usize;
        if len == 0 || len > MAX_PAYLOAD {
            return false;
        }
        let Some(payload) = bytes.get(at + HEADER..at + HEADER + len) else {
            return false;
        };
        plausible(payload) && crc32fast::hash(payload) == word(header, 4)
    })
}

fn word(header: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&header[at..at + 4]);
    u32::from_le_bytes(b)
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
        let len = usize::try_from(word(header, 0)).unwrap_or(usize::MAX);
        // No frame is empty: zeros (a file extended by a crash before its data was written) are
        // not a frame, although the CRC-32 of nothing is zero.
        if len == 0 || len > MAX_PAYLOAD {
            self.damage = Some(Damage::Checksum);
            return None;
        }
        let Some(payload) = rest.get(HEADER..HEADER + len) else {
            self.damage = Some(Damage::Truncated);
            return None;
        };
        if crc32fast::hash(payload) != word(header, 4) {
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
        let bytes = framed(&[b"one", b"two", b"three"]);
        let mut frames = Frames::new(&bytes);
        let got: Vec<&[u8]> = frames.by_ref().collect();
        assert_eq!(got, [&b"one"[..], b"two", b"three"]);
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
