use chrono::{DateTime, Utc};
use dynomodel::{Document, Model};

#[derive(Model)]
struct Twice {
    #[hash_key]
    id: String,
    #[created_at]
    created: DateTime<Utc>,
    #[created_at]
    born: DateTime<Utc>,
    #[updated_at]
    updated: DateTime<Utc>,
    #[updated_at]
    touched: DateTime<Utc>,
}

#[derive(Model)]
struct OnKey {
    #[hash_key]
    #[created_at]
    id: DateTime<Utc>,
}

#[derive(Model)]
struct Both {
    #[hash_key]
    id: String,
    #[created_at]
    #[updated_at]
    both: DateTime<Utc>,
}

#[derive(Model)]
struct Expiring {
    #[hash_key]
    id: String,
    #[updated_at]
    #[ttl]
    expires: DateTime<Utc>,
}

#[derive(Model)]
struct Stored {
    #[hash_key]
    id: String,
    #[created_at]
    #[dynomodel(skip)]
    created: DateTime<Utc>,
    #[updated_at]
    #[dynomodel(json)]
    updated: DateTime<Utc>,
}

#[derive(Document)]
struct Nested {
    #[updated_at]
    updated: DateTime<Utc>,
}

#[derive(Model)]
struct Arguments {
    #[hash_key]
    id: String,
    #[updated_at(utc)]
    updated: DateTime<Utc>,
}

fn main() {}
