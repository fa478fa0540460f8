use dynomodel::{Document, Model};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Meta {
    score: u32,
}

// A compressed field is never a key, an index key or a composite part, and is stored one way.
#[derive(Model)]
#[global_index(all("by-title", hash = title))]
struct Keyed {
    #[hash_key]
    #[dynomodel(compress)]
    id: String,
    #[dynomodel(compress)]
    title: String,
    #[dynomodel(compress, serde)]
    meta: Meta,
    #[dynomodel(compress(min_size = "1 parsec"))]
    note: String,
    #[dynomodel(compress(level = 9))]
    other: String,
}

// The budget: at most DynamoDB's 400 KB, on models only.
#[derive(Model)]
#[dynomodel(max_item_size = "500KB")]
struct Huge {
    #[hash_key]
    id: String,
}

#[derive(Document)]
#[dynomodel(max_item_size = 1024)]
struct Part {
    text: String,
}

// The type: text, bytes, or (with `json`) a serde value.
#[derive(Model)]
struct Counted {
    #[hash_key]
    id: String,
    #[dynomodel(compress)]
    count: u32,
}

fn main() {}
