//! Compressed attributes (`#[dynomodel(compress)]`) on every target: stored as B behind the header
//! (gzip, or as they are under the threshold), read back on every read path (get, query, scan,
//! batches, transactions, the change stream's images), compressed by updates, readable from a plain
//! S written before the field was compressed, and a damaged value is an error naming the item and
//! the attribute.

use std::time::Duration;

use dynomodel::backend::{GetItemInput, PutItemInput};
use dynomodel::convert::compress::{GZIP, MAGIC, STORED};
use dynomodel::{Change, Db, Error, Model};
use futures::StreamExt;
use serde::{Deserialize, Serialize};

use super::*;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Meta {
    tags: Vec<String>,
    score: u32,
}

/// A post: its body always compressed, a summary above 64 bytes only, raw bytes and a serde value.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "posts", stream = "new_and_old_images")]
struct Post {
    #[hash_key]
    id: String,
    title: String,
    #[dynomodel(compress)]
    body: String,
    #[dynomodel(compress(min_size = 64))]
    summary: Option<String>,
    #[dynomodel(compress)]
    raw: Vec<u8>,
    #[dynomodel(json, compress)]
    meta: Meta,
}

fn post(id: &str) -> Post {
    Post {
        id: id.into(),
        title: format!("Post {id}"),
        body: format!("the body of {id}, ").repeat(400),
        summary: Some("short".into()),
        raw: vec![7; 3000],
        meta: Meta {
            tags: vec!["a".into(), "b".into()],
            score: 3,
        },
    }
}

async fn posts_db(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Post>());
    db.create_schema::<Post>().await.unwrap();
    db
}

/// The stored item of `id`, as `GetItem` returns it.
async fn stored(t: &Dual, db: &Db, id: &str) -> Item {
    let input = GetItemInput {
        table_name: db.table_name::<Post>(),
        key: Item::from([("id".to_owned(), s(id))]),
        consistent_read: Some(true),
        ..Default::default()
    };
    t.backend().get_item(input).await.unwrap().item.unwrap()
}

fn bytes(value: &AttributeValue) -> &[u8] {
    match value {
        AttributeValue::B(bytes) => bytes,
        other => panic!("expected B, found {other:?}"),
    }
}

dual_test!(compressed_fields_round_trip_on_every_read_path, |t| {
    let db = posts_db(&t).await;
    let a = post("a");
    db.put(&a).await.unwrap();

    // Stored as B behind the header: gzip for the long values, as it is under the threshold.
    let item = stored(&t, &db, "a").await;
    let body = bytes(&item["body"]);
    assert_eq!(&body[..2], &[MAGIC, GZIP]);
    assert!(body.len() < a.body.len() / 10, "{} bytes", body.len());
    assert_eq!(
        bytes(&item["summary"]),
        &[MAGIC, STORED, b's', b'h', b'o', b'r', b't']
    );
    assert_eq!(&bytes(&item["raw"])[..2], &[MAGIC, GZIP]);
    assert_eq!(&bytes(&item["meta"])[..2], &[MAGIC, STORED]);
    assert_eq!(item["title"], s("Post a"));
    assert_eq!(
        a.item_size().unwrap().bytes(),
        dynomodel::item_size(&item),
        "item_size measures what is stored"
    );

    // Every read decompresses.
    assert_eq!(
        db.get::<Post>("a").consistent().await.unwrap(),
        Some(a.clone())
    );
    let long = Post {
        summary: Some("a summary long enough to be compressed, ".repeat(4)),
        ..post("b")
    };
    db.put(&long).await.unwrap();
    assert_eq!(
        &bytes(&stored(&t, &db, "b").await["summary"])[..2],
        &[MAGIC, GZIP]
    );
    let queried = db.query::<Post>("b").all().await.unwrap();
    assert_eq!(queried, std::slice::from_ref(&long));
    let mut scanned: Vec<Post> = db.scan::<Post>().consistent().all().await.unwrap();
    scanned.sort_by(|x, y| x.id.cmp(&y.id));
    assert_eq!(scanned, [a.clone(), long.clone()]);
    let mut read = db.batch_get().keys::<Post>(["a", "b"]).await.unwrap();
    let mut batch = read.take::<Post>().unwrap();
    batch.sort_by(|x, y| x.id.cmp(&y.id));
    assert_eq!(batch, [a.clone(), long.clone()]);

    // Batch writes and transactions compress too.
    let c = post("c");
    db.batch_write().put(&c).await.unwrap();
    assert_eq!(
        &bytes(&stored(&t, &db, "c").await["body"])[..2],
        &[MAGIC, GZIP]
    );
    let d = post("d");
    db.transact().put(&d).await.unwrap();
    assert_eq!(
        &bytes(&stored(&t, &db, "d").await["body"])[..2],
        &[MAGIC, GZIP]
    );
    let mut tx = db.transact_get();
    let (read_c, read_d) = (tx.get::<Post>("c"), tx.get::<Post>("d"));
    let reads = tx.await.unwrap();
    assert_eq!(reads.get(read_c).unwrap(), Some(c));
    assert_eq!(reads.get(read_d).unwrap(), Some(d));
});

dual_test!(compressed_fields_in_updates_and_conditions, |t| {
    let db = posts_db(&t).await;
    db.put(&post("a")).await.unwrap();
    let text = "an edited body, ".repeat(100);
    db.update::<Post>("a")
        .set(Post::body(), text.as_str())
        .set(Post::summary(), None::<String>)
        .condition(Post::body().exists().and(Post::body().size().gt(10)))
        .await
        .unwrap();
    let item = stored(&t, &db, "a").await;
    assert_eq!(&bytes(&item["body"])[..2], &[MAGIC, GZIP]);
    assert!(!item.contains_key("summary"));
    let read = db.get::<Post>("a").consistent().await.unwrap().unwrap();
    assert_eq!((read.body, read.summary), (text, None));

    // `size` is the stored size: the compressed bytes, not the text's length.
    let stored_len = bytes(&item["body"]).len() as u64;
    let failed = db
        .update::<Post>("a")
        .set(Post::title(), "never")
        .condition(Post::body().size().gt(stored_len))
        .await
        .unwrap_err();
    assert!(failed.is_conditional_check_failed(), "{failed}");
    db.update::<Post>("a")
        .set(
            Post::meta(),
            Meta {
                tags: vec![],
                score: 9,
            },
        )
        .condition(Post::body().size().eq(stored_len))
        .await
        .unwrap();
    let read = db.get::<Post>("a").consistent().await.unwrap().unwrap();
    assert_eq!(read.meta.score, 9);
});

dual_test!(compressed_fields_read_legacy_text_and_refuse_damage, |t| {
    let db = posts_db(&t).await;
    let table = db.table_name::<Post>();
    let raw = |id: &str, body: AttributeValue| PutItemInput {
        table_name: table.clone(),
        item: Item::from([
            ("id".to_owned(), s(id)),
            ("title".to_owned(), s("old")),
            ("body".to_owned(), body),
            ("raw".to_owned(), AttributeValue::B(vec![MAGIC, STORED, 1])),
            ("meta".to_owned(), s(r#"{"tags":["x"],"score":1}"#)),
        ]),
        ..Default::default()
    };

    // Written before the fields were compressed: a plain S still reads (text and JSON).
    t.backend()
        .put_item(raw("old", s("plain text")))
        .await
        .unwrap();
    let old = db.get::<Post>("old").consistent().await.unwrap().unwrap();
    assert_eq!(
        (old.body.as_str(), old.meta.score, old.raw),
        ("plain text", 1, vec![1])
    );

    // Damaged: no header, an unknown format, a broken gzip stream.
    let damaged = [
        (
            "nohead",
            vec![1, 2, 3],
            "a binary without the compressed header",
        ),
        (
            "format",
            vec![MAGIC, 7, 1],
            "a compressed value of unknown format 7",
        ),
        (
            "gzip",
            vec![MAGIC, GZIP, 1, 2, 3, 4],
            "a damaged gzip stream",
        ),
        (
            "utf8",
            vec![MAGIC, STORED, 0xff, 0xfe],
            "bytes that are not UTF-8 text",
        ),
    ];
    for (id, body, found) in damaged {
        t.backend()
            .put_item(raw(id, AttributeValue::B(body)))
            .await
            .unwrap();
        let error = db.get::<Post>(id).consistent().await.unwrap_err();
        let Error::ItemDecode(decode) = &error else {
            panic!("expected ItemDecode, got {error:?}")
        };
        assert_eq!(decode.table, table);
        assert_eq!(decode.key, Item::from([("id".to_owned(), s(id))]));
        assert_eq!(decode.error.path, "body");
        assert!(decode.error.found.starts_with(found), "{error}");
        assert!(
            error.to_string().starts_with(&format!(
                r#"the item of Post {{id: "{id}"}} in `{table}` does not decode: attribute `body`: expected a compressed string (B), found {found}"#
            )),
            "{error}"
        );
    }
});

dual_test!(compressed_fields_in_change_stream_images, |t| {
    let db = posts_db(&t).await;
    let a = post("a");
    db.put(&a).await.unwrap();
    let edited = Post {
        body: "edited ".repeat(300),
        ..a.clone()
    };
    db.put(&edited).await.unwrap();
    let mut changes = db
        .changes::<Post>()
        .poll_interval(Duration::from_millis(20));
    let mut seen = Vec::new();
    while seen.len() < 2 {
        let record = tokio::time::timeout(Duration::from_secs(30), changes.next())
            .await
            .expect("a record in time")
            .expect("the stream goes on")
            .unwrap();
        seen.push(record.change);
    }
    match (&seen[0], &seen[1]) {
        (
            Change::Insert { new, .. },
            Change::Modify {
                old, new: modified, ..
            },
        ) => {
            assert_eq!(new.as_ref(), Some(&a));
            assert_eq!(old.as_ref(), Some(&a));
            assert_eq!(modified.as_ref(), Some(&edited));
        }
        other => panic!("expected an insert then a modify, got {other:?}"),
    }
});
