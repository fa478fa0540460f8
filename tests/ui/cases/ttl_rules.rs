use chrono::{DateTime, Utc};
use dynomodel::{Document, Model};

#[derive(Model)]
struct Twice {
    #[hash_key]
    id: String,
    #[ttl]
    first: u64,
    #[ttl]
    second: u64,
}

#[derive(Model)]
struct OnKey {
    #[hash_key]
    #[ttl]
    id: u64,
}

#[derive(Model)]
struct Skipped {
    #[hash_key]
    id: String,
    #[ttl]
    #[dynomodel(skip)]
    expires: u64,
}

#[derive(Model)]
struct Versioned {
    #[hash_key]
    id: String,
    #[ttl]
    #[version]
    version: u64,
}

#[derive(Model)]
struct Epoch {
    #[hash_key]
    id: String,
    #[ttl]
    #[dynomodel(epoch_seconds)]
    expires: DateTime<Utc>,
}

#[derive(Document)]
struct Nested {
    #[ttl]
    expires: u64,
}

#[derive(Model)]
struct Arguments {
    #[hash_key]
    id: String,
    #[ttl(days = 3)]
    expires: u64,
}

fn main() {}
