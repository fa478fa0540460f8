//! Signed cursors: [`Db::with_cursor_key`] and the HMAC-SHA256 tag its tokens carry.

use std::fmt;
use std::sync::Arc;

use hmac::{Hmac, KeyInit as _, Mac as _};
use sha2::Sha256;

use crate::db::Db;
use crate::error::{Error, Result};
use crate::query::cursor::token::{Tag, TAG_LEN};

/// The shortest key accepted: HMAC-SHA256's output length, below which RFC 2104 says a key weakens
/// the MAC.
const MIN_KEY_LEN: usize = 32;

/// An application's cursor key, keyed once (each tag clones the keyed state).
#[derive(Clone)]
pub(crate) struct CursorKey {
    mac: Hmac<Sha256>,
}

/// Never prints the key.
impl fmt::Debug for CursorKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CursorKey(..)")
    }
}

impl CursorKey {
    fn new(key: &[u8]) -> Result<CursorKey> {
        if key.len() < MIN_KEY_LEN {
            return Err(Error::validation(format!(
                "a cursor key has at least {MIN_KEY_LEN} bytes (random, kept secret), not {}",
                key.len()
            )));
        }
        // HMAC takes keys of any length: this cannot fail once the length is checked.
        let mac = Hmac::<Sha256>::new_from_slice(key)
            .map_err(|_| Error::validation("the cursor key is not a valid HMAC key"))?;
        Ok(CursorKey { mac })
    }

    /// The tag of `payload`.
    pub(crate) fn tag(&self, payload: &[u8]) -> Tag {
        let mut mac = self.mac.clone();
        mac.update(payload);
        let mut tag = [0; TAG_LEN];
        tag.copy_from_slice(&mac.finalize().into_bytes());
        tag
    }

    /// Whether `tag` is `payload`'s, compared in constant time.
    pub(crate) fn verify(&self, payload: &[u8], tag: &Tag) -> bool {
        let mut mac = self.mac.clone();
        mac.update(payload);
        mac.verify_slice(tag).is_ok()
    }
}

impl Db {
    /// The same database, signing the cursors of its reads with `key` and refusing any token that
    /// does not carry a valid signature: a client can hand back a cursor it was given, but cannot
    /// make one up (or alter one) to position a read where it likes.
    ///
    /// The tag is an HMAC-SHA256 of the token's contents, checked in constant time. Signing does
    /// **not** hide anything: the token still shows the table, the index and the key values of the
    /// item it positions after (base64 is no encryption). Keep the key secret, make it at least 32
    /// random bytes, and give every process that reads the tokens the same key; a new key makes
    /// every token signed with the old one an [`Error::InvalidCursor`] (`BadSignature`), which a
    /// client recovers from by starting over. Tokens made by this database are checked the same way
    /// when given back; cursors that never left the process (a [`Page`](crate::Page)'s
    /// `next`, used as it is) need no check.
    ///
    /// Errors: a key shorter than 32 bytes ([`Error::Validation`]).
    ///
    /// ```
    /// # use dynomodel::{Db, Model};
    /// # use dynomodel_mem::MemoryDb;
    /// # #[derive(Model, Debug, Clone, PartialEq)]
    /// # struct Tweet { #[hash_key] userid: String, #[range_key] id: String }
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// use dynomodel::{Cursor, InvalidCursorReason};
    ///
    /// let unsigned = Db::memory();
    /// let db = unsigned.clone().with_cursor_key(b"0123456789abcdef0123456789abcdef")?;
    /// db.create_schema::<Tweet>().await?;
    /// for id in ["1", "2", "3"] {
    ///     db.put(&Tweet { userid: "abc".into(), id: id.into() }).await?;
    /// }
    /// let token = db.query::<Tweet>("abc").page(2, None).await?.next.unwrap().to_string();
    ///
    /// // The signed token works where it came from...
    /// let rest = db.query::<Tweet>("abc").page(2, Some(token.parse()?)).await?;
    /// assert_eq!(rest.items.len(), 1);
    /// // ...but a token this database did not sign is refused, before anything is sent.
    /// let forged = unsigned.query::<Tweet>("abc").page(2, None).await?.next.unwrap().to_string();
    /// let err = db.query::<Tweet>("abc").page(2, Some(forged.parse::<Cursor>()?)).await.unwrap_err();
    /// assert!(matches!(&err, dynomodel::Error::InvalidCursor(e) if e.reason == InvalidCursorReason::Unsigned));
    /// assert!(db.clone().with_cursor_key(b"too short").is_err());
    /// # Ok::<(), dynomodel::Error>(())
    /// # }).unwrap();
    /// ```
    pub fn with_cursor_key(mut self, key: impl AsRef<[u8]>) -> Result<Db> {
        self.cursor_key = Some(Arc::new(CursorKey::new(key.as_ref())?));
        Ok(self)
    }

    /// The key of [`Db::with_cursor_key`], if any.
    pub(crate) fn cursor_key(&self) -> Option<&Arc<CursorKey>> {
        self.cursor_key.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_verify_and_keys_differ() {
        let key = CursorKey::new(&[7; 32]).expect("a key");
        let tag = key.tag(b"payload");
        assert!(key.verify(b"payload", &tag));
        assert!(!key.verify(b"payloae", &tag));
        let other = CursorKey::new(&[8; 32]).expect("a key");
        assert!(!other.verify(b"payload", &tag));
        assert_eq!(format!("{key:?}"), "CursorKey(..)");
        assert!(CursorKey::new(&[7; 31]).is_err());
    }
}
