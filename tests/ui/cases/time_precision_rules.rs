use chrono::{DateTime, NaiveDate, Utc};
use dynomodel::Model;

#[derive(Model)]
#[dynomodel(time_precision = "centis")]
struct UnknownWidth {
    #[hash_key]
    id: String,
    #[dynomodel(time_precision = "ms")]
    at: DateTime<Utc>,
}

#[derive(Model)]
struct OtherAdapters {
    #[hash_key]
    id: String,
    #[dynomodel(epoch_seconds, time_precision = "millis")]
    seconds: DateTime<Utc>,
    #[ttl]
    #[dynomodel(time_precision = "millis")]
    expires: DateTime<Utc>,
}

#[derive(Model)]
#[composite(sk = ("AT", at), range_key)]
struct Part {
    #[hash_key]
    id: String,
    #[dynomodel(time_precision = "millis")]
    at: DateTime<Utc>,
}

#[derive(Model)]
struct NotATime {
    #[hash_key]
    id: String,
    #[dynomodel(time_precision = "millis")]
    day: NaiveDate,
}

fn main() {}
