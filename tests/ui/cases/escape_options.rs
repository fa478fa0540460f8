use dynomodel::{Attribute, Document, Model};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize)]
struct Meta {
    source: String,
}

#[derive(Model)]
#[global_index(all("by-meta", hash = raw))]
struct Order {
    #[hash_key]
    #[dynomodel(json)]
    id: String,
    #[range_key]
    #[dynomodel(serde)]
    at: u64,
    #[dynomodel(serde, json)]
    meta: Meta,
    #[dynomodel(serde, epoch_seconds)]
    when: u64,
    #[dynomodel(json)]
    raw: String,
}

#[derive(Document)]
struct Doc {
    #[dynomodel(json, serde)]
    meta: Meta,
}

#[derive(Attribute)]
enum Event {
    Created {
        #[dynomodel(serde, json)]
        meta: Meta,
        #[dynomodel(rename = "m")]
        a: u32,
        #[dynomodel(rename = "m")]
        b: u32,
    },
}

// Not serde types.
struct Opaque;

#[derive(Document)]
struct NoSerde {
    #[dynomodel(serde)]
    a: Opaque,
    #[dynomodel(json)]
    b: Opaque,
}

fn main() {}
