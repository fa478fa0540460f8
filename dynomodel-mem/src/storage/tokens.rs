//! `ClientRequestToken`: what makes a TransactWriteItems call idempotent.
//!
//! The rules (the API reference, `API_TransactWriteItems.html`, ClientRequestToken):
//! - "A client request token is valid for 10 minutes after the first request that uses it is
//!   completed. After 10 minutes, any request with the same client token is treated as a new request."
//!   The window is measured on the engine's [`Clock`](crate::Clock) from the moment the first call
//!   committed, and is not extended by replays: a replay at 10 minutes minus a nanosecond is a replay,
//!   one at 10 minutes is a new request.
//! - A repeat with the same token and identical parameters within the window succeeds with no side
//!   effect, whatever the data looks like now (a condition that would fail today is not evaluated).
//! - A repeat with other parameters within the window is `IdempotentParameterMismatchException`.
//! - Only a call that succeeded is remembered. A call that was cancelled or rejected leaves no trace, so
//!   the same token can be sent again with any parameters (Alex DeBrie, "DynamoDB Transactions: Use
//!   Cases and Examples": "If it failed the first time, DynamoDB will apply the writes in the
//!   request"; DynamoDB Local 3.3.1 agrees, probed with a cancelled, an invalid and a
//!   missing-table first call).
//!
//! Tokens live per engine and are pruned as they expire (oldest first, on every call that carries a
//! token), so the map holds at most the last 10 minutes of tokens.

use std::collections::{HashMap, VecDeque};

use chrono::{DateTime, TimeDelta, Utc};
use dynomodel::backend::TransactWriteItem;
use dynomodel::Error;

/// How long a token protects the transaction that first used it.
pub(crate) const TOKEN_WINDOW: TimeDelta = TimeDelta::minutes(10);

/// The message of `IdempotentParameterMismatchException`: the API reference's description of the error.
/// DynamoDB Local 3.3.1 sends the error with an empty message.
pub(crate) const MISMATCH: &str =
    "DynamoDB rejected the request because you retried a request with a \
     different payload but with an idempotent token that was already used.";

/// What a token says about a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Seen {
    /// Never used, or its window has passed: run the request.
    New,
    /// Used by an identical request that succeeded within the window: succeed without doing anything.
    Replay,
    /// Used by another request within the window.
    Mismatch,
}

/// One remembered token.
#[derive(Debug, Clone)]
struct Recorded {
    /// The actions of the request that used it (compared in full: no hash, so no collisions).
    actions: Vec<TransactWriteItem>,
    /// When the token is free again.
    expires: DateTime<Utc>,
}

/// The tokens of successful transactions, for [`TOKEN_WINDOW`].
#[derive(Debug, Default, Clone)]
pub(crate) struct Tokens {
    by_token: HashMap<String, Recorded>,
    /// Tokens in the order they expire (the clock only moves forward, so recording order).
    expiry: VecDeque<(DateTime<Utc>, String)>,
}

impl Tokens {
    /// What `token` says about a request with these actions at `now`.
    pub(crate) fn check(
        &mut self,
        token: &str,
        actions: &[TransactWriteItem],
        now: DateTime<Utc>,
    ) -> Seen {
        self.prune(now);
        match self.by_token.get(token) {
            Some(r) if r.expires > now && r.actions.as_slice() == actions => Seen::Replay,
            Some(r) if r.expires > now => Seen::Mismatch,
            _ => Seen::New,
        }
    }

    /// Remembers that a request with these actions succeeded under `token`, completing at `now`
    /// (reported here to what captures writes: `capture.rs`).
    pub(crate) fn record(
        &mut self,
        token: &str,
        actions: &[TransactWriteItem],
        now: DateTime<Utc>,
    ) {
        crate::storage::capture::token(token, actions);
        let expires = now.checked_add_signed(TOKEN_WINDOW).unwrap_or(now);
        self.by_token.insert(
            token.to_owned(),
            Recorded {
                actions: actions.to_vec(),
                expires,
            },
        );
        self.expiry.push_back((expires, token.to_owned()));
    }

    /// Forgets the tokens whose window has passed.
    fn prune(&mut self, now: DateTime<Utc>) {
        while let Some((expires, _)) = self.expiry.front() {
            if *expires > now {
                break;
            }
            if let Some((expires, token)) = self.expiry.pop_front() {
                // The token may have been used again after it expired; only the record this queue
                // entry was made for goes.
                if self
                    .by_token
                    .get(&token)
                    .is_some_and(|r| r.expires == expires)
                {
                    self.by_token.remove(&token);
                }
            }
        }
    }

    /// Every remembered token with its actions and when it was recorded (durable mode's snapshots).
    #[cfg(feature = "durable")]
    pub(crate) fn entries(
        &self,
    ) -> impl Iterator<Item = (&str, &[TransactWriteItem], DateTime<Utc>)> {
        self.by_token.iter().map(|(token, r)| {
            let recorded = r
                .expires
                .checked_sub_signed(TOKEN_WINDOW)
                .unwrap_or(r.expires);
            (token.as_str(), r.actions.as_slice(), recorded)
        })
    }

    /// How many tokens are remembered.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.by_token.len()
    }
}

/// `IdempotentParameterMismatchException`.
pub(crate) fn mismatch() -> Error {
    Error::Service {
        code: "IdempotentParameterMismatchException".into(),
        message: MISMATCH.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dynomodel::backend::TransactPut;
    use dynomodel::AttributeValue;

    fn put(v: &str) -> Vec<TransactWriteItem> {
        vec![TransactWriteItem::Put(TransactPut {
            table_name: "t".into(),
            item: [("pk".to_owned(), AttributeValue::S(v.into()))].into(),
            ..Default::default()
        })]
    }

    fn at(seconds: i64) -> DateTime<Utc> {
        DateTime::UNIX_EPOCH + TimeDelta::seconds(seconds)
    }

    #[test]
    fn window_starts_at_completion_and_is_not_extended() {
        let mut tokens = Tokens::default();
        assert_eq!(tokens.check("a", &put("x"), at(0)), Seen::New);
        tokens.record("a", &put("x"), at(0));
        assert_eq!(tokens.check("a", &put("x"), at(599)), Seen::Replay);
        assert_eq!(tokens.check("a", &put("y"), at(599)), Seen::Mismatch);
        let just_before = at(600) - TimeDelta::nanoseconds(1);
        assert_eq!(tokens.check("a", &put("x"), just_before), Seen::Replay);
        assert_eq!(tokens.check("a", &put("y"), at(600)), Seen::New);
        assert_eq!(tokens.len(), 0, "the expired token was pruned");
    }

    #[test]
    fn a_token_reused_after_expiry_keeps_its_new_record() {
        let mut tokens = Tokens::default();
        tokens.record("a", &put("x"), at(0));
        // Reused after expiry without anything pruning the first record first.
        tokens.record("a", &put("y"), at(700));
        assert_eq!(tokens.check("a", &put("y"), at(701)), Seen::Replay);
        assert_eq!(tokens.len(), 1);
        assert_eq!(tokens.check("a", &put("y"), at(1300)), Seen::New);
        assert_eq!(tokens.len(), 0);
    }

    #[test]
    fn many_tokens_do_not_accumulate() {
        let mut tokens = Tokens::default();
        for i in 0..10_000 {
            let token = i.to_string();
            assert_eq!(tokens.check(&token, &put("x"), at(i)), Seen::New);
            tokens.record(&token, &put("x"), at(i));
            assert!(tokens.len() <= 601, "only the last 10 minutes are kept");
        }
    }
}
