//! Compressed attributes: put and get of an item holding a 100 KB text field, stored as it is (S)
//! and `#[dynomodel(compress)]` (gzip, B), through the mapper on the in-memory engine. Before timing,
//! it prints each variant's stored item size and the capacity a put and a strongly consistent get
//! consume, which compression is about; the timings show what it costs in CPU.
//!
//! `cargo bench -p dynomodel --bench compress`

#![allow(missing_docs, clippy::unwrap_used)]

use std::future::IntoFuture;

use criterion::{criterion_group, criterion_main, Criterion};
use dynomodel::{CapacityExt, Db, Model};
use dynomodel_mem::MemoryDb;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "plain")]
struct Plain {
    #[hash_key]
    id: String,
    text: String,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "packed")]
struct Packed {
    #[hash_key]
    id: String,
    #[dynomodel(compress)]
    text: String,
}

/// About 100 KB of English-like text: words drawn from a small vocabulary by a fixed pseudo-random
/// sequence, so that it compresses like prose (about 3:1), not like a repeated phrase.
fn text() -> String {
    const WORDS: [&str; 32] = [
        "the",
        "item",
        "table",
        "of",
        "and",
        "a",
        "partition",
        "key",
        "to",
        "read",
        "write",
        "capacity",
        "unit",
        "in",
        "is",
        "that",
        "for",
        "index",
        "query",
        "scan",
        "attribute",
        "value",
        "with",
        "each",
        "size",
        "request",
        "DynamoDB",
        "stored",
        "an",
        "on",
        "as",
        "by",
    ];
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut out = String::with_capacity(100 * 1024 + 16);
    while out.len() < 100 * 1024 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        out.push_str(WORDS[(state >> 59) as usize]);
        out.push(if state & 0xf == 0 { '.' } else { ' ' });
    }
    out
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap()
}

fn bench(c: &mut Criterion) {
    let rt = runtime();
    let db = Db::memory();
    let text = text();
    let plain = Plain {
        id: "p".into(),
        text: text.clone(),
    };
    let packed = Packed {
        id: "p".into(),
        text,
    };
    rt.block_on(async {
        db.create_schema::<Plain>().await.unwrap();
        db.create_schema::<Packed>().await.unwrap();
        let ((), put_plain) = db.put(&plain).with_capacity().await.unwrap();
        let ((), put_packed) = db.put(&packed).with_capacity().await.unwrap();
        let (_, get_plain) = db
            .get::<Plain>("p")
            .consistent()
            .with_capacity()
            .await
            .unwrap();
        let (_, get_packed) = db
            .get::<Packed>("p")
            .consistent()
            .with_capacity()
            .await
            .unwrap();
        eprintln!(
            "plain:  {:>6} bytes stored, put {} WCU, get {} RCU",
            plain.item_size().unwrap().bytes(),
            put_plain.write_units(),
            get_plain.read_units()
        );
        eprintln!(
            "packed: {:>6} bytes stored, put {} WCU, get {} RCU",
            packed.item_size().unwrap().bytes(),
            put_packed.write_units(),
            get_packed.read_units()
        );
    });

    let mut group = c.benchmark_group("compress_100kb");
    group.bench_function("put_plain", |b| {
        b.iter(|| rt.block_on(db.put(&plain).into_future()).unwrap());
    });
    group.bench_function("put_compressed", |b| {
        b.iter(|| rt.block_on(db.put(&packed).into_future()).unwrap());
    });
    group.bench_function("get_plain", |b| {
        b.iter(|| rt.block_on(db.get::<Plain>("p").into_future()).unwrap());
    });
    group.bench_function("get_compressed", |b| {
        b.iter(|| rt.block_on(db.get::<Packed>("p").into_future()).unwrap());
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
