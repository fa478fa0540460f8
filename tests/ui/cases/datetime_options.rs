use chrono::{DateTime, Utc};
use dynomodel::Model;

// `datetime = "..."` names a width, on a DateTime<Utc> stored no other way.
#[derive(Model)]
#[dynomodel(datetime = "hours")]
struct Reply {
    #[hash_key]
    id: String,
    #[dynomodel(datetime = "millis", epoch_seconds)]
    at: DateTime<Utc>,
    #[dynomodel(datetime = "millis", datetime = "seconds")]
    seen: Option<DateTime<Utc>>,
}

// The width is for date-times: the compiler says so at the field's type.
#[derive(Model)]
struct Note {
    #[hash_key]
    id: String,
    #[dynomodel(datetime = "millis")]
    name: String,
}

// A key is always present.
#[derive(Model)]
struct Event {
    #[hash_key]
    #[dynomodel(datetime = "millis")]
    at: Option<DateTime<Utc>>,
}

fn main() {}
