use chrono::{DateTime, Utc};
use dynomodel::{Model, Update};

// A field stored as epoch seconds compares with its own type (a time), not with the string a
// `DateTime` would be on its own, nor with a raw number of seconds.
#[derive(Model)]
struct Session {
    #[hash_key]
    id: String,
    #[ttl]
    expires: DateTime<Utc>,
    #[dynomodel(epoch_seconds)]
    seen: Option<DateTime<Utc>>,
}

fn main() {
    let _ = Session::expires().lt("2026-01-01T00:00:00Z");
    let _ = Session::seen().ge(1_700_000_000i64);
    let _ = Update::new().set(Session::expires(), "soon");
    // Times are not numbers to add to.
    let _ = Update::new().incr(Session::expires(), 60);
}
