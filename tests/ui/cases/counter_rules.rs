use chrono::{DateTime, Utc};
use dynomodel::{Document, Model};

#[derive(Model)]
struct Unversioned {
    #[hash_key]
    id: String,
    #[dynomodel(counter)]
    views: u64,
}

#[derive(Model)]
struct OnKey {
    #[hash_key]
    #[dynomodel(counter)]
    id: u64,
    #[version]
    version: u64,
}

#[derive(Model)]
struct OtherRoles {
    #[hash_key]
    id: String,
    #[version]
    #[dynomodel(counter)]
    version: u64,
    #[ttl]
    #[dynomodel(counter)]
    expires: u64,
    #[updated_at]
    #[dynomodel(counter)]
    updated: DateTime<Utc>,
}

#[derive(Model)]
struct Adapted {
    #[hash_key]
    id: String,
    #[dynomodel(counter, skip)]
    skipped: u64,
    #[dynomodel(counter, json)]
    json: u64,
    #[version]
    version: u64,
}

#[derive(Document)]
struct Nested {
    #[dynomodel(counter)]
    views: u64,
}

#[derive(Model)]
#[composite(pk = ("THREAD", views), hash_key)]
struct Part {
    #[dynomodel(counter)]
    views: u64,
    #[version]
    version: u64,
}

fn main() {}
