//! The batch builders against a fake backend ([`fake::Fake`]): chunking, request shapes,
//! duplicates, retries with paused time, exhaustion, errors, concurrency and the stream.

mod fake;
mod get;
mod options;
mod retry;
mod stream;
mod write;
