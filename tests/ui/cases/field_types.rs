use chrono::{DateTime, Utc};
use dynomodel::Model;

struct Color(u8, u8, u8);

// One error per field, at the field's type.
#[derive(Model)]
struct Session {
    #[hash_key]
    #[dynomodel(epoch_seconds)]
    started: Option<DateTime<Utc>>,
    #[dynomodel(epoch_seconds)]
    label: String,
    color: Color,
}

fn main() {}
