//! Composites on every target, on the Developer Guide's Reply table: `Id = <ForumName>#<Subject>`
//! (a composite renamed to the sample's attribute name, whose last part may hold `#`),
//! `ReplyDateTime` in milliseconds (sorting with items other code wrote so), and borrowed parts in
//! every call that takes a key or a partition.

use chrono::{DateTime, Duration, TimeZone, Utc};
use dynomodel::backend::{GetItemInput, PutItemInput};
use dynomodel::{Collection, Db, Model};

use super::*;

/// The Developer Guide's `Reply` table: `Id` (S) and `ReplyDateTime` (S), `Message`, `PostedBy`,
/// and the `PostedBy-Message-Index` global index.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "Reply", rename_all = "PascalCase", datetime = "millis")]
#[composite(id = (forum_name, subject), hash_key, rename = "Id")]
#[global_index(all("PostedBy-Message-Index", hash = posted_by, range = message))]
struct Reply {
    forum_name: String,
    subject: String,
    #[range_key]
    reply_date_time: DateTime<Utc>,
    message: String,
    posted_by: String,
}

const FORUM: &str = "Amazon DynamoDB";
const RUST: &str = "C# or Rust?";

/// 2015-09-15T19:58:22.947Z (the sample's first reply), plus `days`.
fn at(days: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2015, 9, 15, 19, 58, 22).unwrap()
        + Duration::milliseconds(947)
        + Duration::days(days)
}

fn reply(subject: &str, days: i64, posted_by: &str) -> Reply {
    Reply {
        forum_name: FORUM.into(),
        subject: subject.into(),
        reply_date_time: at(days),
        message: format!("{subject} reply on day {days}"),
        posted_by: posted_by.into(),
    }
}

async fn reply_db(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Reply>());
    db.create_schema::<Reply>().await.unwrap();
    db
}

fn days(replies: &[Reply]) -> Vec<i64> {
    replies
        .iter()
        .map(|r| (r.reply_date_time - at(0)).num_days())
        .collect()
}

dual_test!(composite_reply_table_keeps_the_samples_shape, |t| {
    let db = reply_db(&t).await;
    let schema = Reply::schema();
    assert_eq!(
        schema
            .key_schema
            .iter()
            .map(|k| k.attribute_name.as_str())
            .collect::<Vec<_>>(),
        ["Id", "ReplyDateTime"]
    );
    let first = reply(RUST, 0, "User A");
    db.put(&first).await.unwrap();

    // Stored as the sample stores it: a subject holding `#` after the forum, the time in millis.
    let raw = db
        .backend()
        .get_item(GetItemInput {
            table_name: db.table_name::<Reply>(),
            key: item([
                ("Id", s("Amazon DynamoDB#C# or Rust?")),
                ("ReplyDateTime", s("2015-09-15T19:58:22.947Z")),
            ]),
            ..Default::default()
        })
        .await
        .unwrap()
        .item
        .unwrap();
    assert_eq!(
        raw,
        item([
            ("Id", s("Amazon DynamoDB#C# or Rust?")),
            ("ReplyDateTime", s("2015-09-15T19:58:22.947Z")),
            ("Message", s("C# or Rust? reply on day 0")),
            ("PostedBy", s("User A")),
        ])
    );
    assert_eq!(
        db.get::<Reply>(((FORUM, RUST), at(0))).await.unwrap(),
        Some(first.clone())
    );
    // Another thread whose subject is a prefix of this one stays apart.
    db.put(&reply("C#", 1, "User B")).await.unwrap();
    let thread: Vec<Reply> = db.query::<Reply>((FORUM, RUST)).all().await.unwrap();
    assert_eq!(thread, [first]);
    // The forum is not the last part: `#` in it would make two keys one.
    let mut bad = reply("Thread 1", 2, "User A");
    bad.forum_name = "Amazon#DynamoDB".into();
    let err = db.put(&bad).await.unwrap_err();
    assert!(
        matches!(&err, dynomodel::Error::Conversion(e) if e.path == "Id"),
        "{err:?}"
    );
});

/// A member of a forum collection: threads and replies share `Id`.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(
    table = "Forum",
    entity = "Thread",
    rename_all = "PascalCase",
    datetime = "millis"
)]
#[composite(id = (forum_name, subject), hash_key, rename = "Id")]
#[composite(sk = ("THREAD", created), range_key)]
struct ThreadItem {
    forum_name: String,
    subject: String,
    created: DateTime<Utc>,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(
    table = "Forum",
    entity = "Reply",
    rename_all = "PascalCase",
    datetime = "millis"
)]
#[composite(id = (forum_name, subject), hash_key, rename = "Id")]
#[composite(sk = ("REPLY", at), range_key)]
struct ReplyItem {
    forum_name: String,
    subject: String,
    at: DateTime<Utc>,
    text: String,
}

#[derive(Collection, Debug, PartialEq)]
enum ForumData {
    Thread(ThreadItem),
    Reply(ReplyItem),
}

/// Posts keyed by a two-part composite global index: the partition is a tuple of borrowed parts.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "Posts")]
#[composite(pk = ("POST", id), hash_key)]
#[composite(by = (author, lang))]
#[global_index(all("by-author", hash = by))]
struct Post {
    id: String,
    author: String,
    lang: String,
}

dual_test!(composite_borrowed_parts_in_every_key_taking_call, |t| {
    let db = reply_db(&t).await;
    let subject = String::from(RUST);
    for (days, by) in [(0, "User A"), (1, "User B"), (2, "User A")] {
        db.put(&reply(RUST, days, by)).await.unwrap();
    }
    // get, query, update, delete_key: `&str` and `&String` parts, owned times.
    assert!(db
        .get::<Reply>(((FORUM, &subject), at(0)))
        .await
        .unwrap()
        .is_some());
    assert_eq!(
        days(&db.query::<Reply>((FORUM, &subject)).all().await.unwrap()),
        [0, 1, 2]
    );
    db.update::<Reply>(((FORUM, RUST), at(1)))
        .set(Reply::message(), "edited")
        .await
        .unwrap();
    db.delete_key::<Reply>(((FORUM, RUST), at(2)))
        .await
        .unwrap();
    assert_eq!(
        db.query::<Reply>((FORUM, RUST))
            .all()
            .await
            .unwrap()
            .iter()
            .map(|r| r.message.as_str())
            .collect::<Vec<_>>(),
        ["C# or Rust? reply on day 0", "edited"]
    );

    // Batches and transactions.
    let mut read = db
        .batch_get()
        .keys::<Reply>([((FORUM, RUST), at(0)), ((FORUM, "nope"), at(0))])
        .await
        .unwrap();
    assert_eq!(read.take::<Reply>().unwrap().len(), 1);
    assert_eq!(read.missing::<Reply>().len(), 1);
    db.transact()
        .update::<Reply>(((FORUM, RUST), at(0)), |u| {
            u.set(Reply::posted_by(), "User C")
        })
        .condition_check::<Reply>(((FORUM, &subject), at(1)), Reply::message().eq("edited"))
        .await
        .unwrap();
    let mut tx = db.transact_get();
    let slot = tx.get::<Reply>(((FORUM, RUST), at(0)));
    let reads = tx.await.unwrap();
    assert_eq!(
        reads.get(slot).unwrap().map(|r| r.posted_by),
        Some("User C".to_owned())
    );
    db.batch_write()
        .delete_key::<Reply>(((FORUM, RUST), at(1)))
        .await
        .unwrap();
    db.transact()
        .delete_key::<Reply>(((FORUM, &subject), at(0)))
        .await
        .unwrap();
    assert!(db
        .query::<Reply>((FORUM, RUST))
        .all()
        .await
        .unwrap()
        .is_empty());

    // An index partition of two parts, and a collection's partition.
    let posts = t.namespaced_db();
    t.register_table(&posts.table_name::<Post>());
    posts.create_schema::<Post>().await.unwrap();
    for (id, author, lang) in [
        ("1", "ada", "rust"),
        ("2", "ada", "c#"),
        ("3", "bob", "rust"),
    ] {
        posts
            .put(&Post {
                id: id.into(),
                author: author.into(),
                lang: lang.into(),
            })
            .await
            .unwrap();
    }
    let author = String::from("ada");
    let ada_rust = posts
        .query_index(Post::by_author(), (&author, "rust"))
        .all()
        .await
        .unwrap();
    assert_eq!(
        ada_rust.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(),
        ["1"]
    );

    let forum = t.namespaced_db();
    t.register_table(&forum.table_name::<ThreadItem>());
    forum.create_collection_schema::<ForumData>().await.unwrap();
    forum
        .put(&ThreadItem {
            forum_name: FORUM.into(),
            subject: RUST.into(),
            created: at(0),
        })
        .await
        .unwrap();
    forum
        .put(&ReplyItem {
            forum_name: FORUM.into(),
            subject: RUST.into(),
            at: at(1),
            text: "Both".into(),
        })
        .await
        .unwrap();
    let thread = forum
        .collection::<ForumData>((FORUM, RUST))
        .all()
        .await
        .unwrap();
    assert!(
        matches!(&thread[..], [ForumData::Reply(r), ForumData::Thread(_)] if r.text == "Both"),
        "{thread:?}"
    );
});

dual_test!(
    composite_millis_dates_sort_with_items_other_code_wrote,
    |t| {
        let db = reply_db(&t).await;
        let table = db.table_name::<Reply>();
        // The sample's own items, written by other code with the millisecond width (days 1 and 3).
        for (days, text) in [
            (1, "2015-09-16T19:58:22.947Z"),
            (3, "2015-09-18T19:58:22.947Z"),
        ] {
            db.backend()
                .put_item(PutItemInput {
                    table_name: table.clone(),
                    item: item([
                        ("Id", s("Amazon DynamoDB#DynamoDB Thread 1")),
                        ("ReplyDateTime", s(text)),
                        ("Message", s(&format!("raw reply on day {days}"))),
                        ("PostedBy", s("User A")),
                    ]),
                    ..Default::default()
                })
                .await
                .unwrap();
        }
        // The mapper's, on days 0, 2 and 4; the one on day 2 has sub-millisecond digits, truncated.
        for days in [0, 2, 4] {
            let mut r = reply("DynamoDB Thread 1", days, "User B");
            if days == 2 {
                r.reply_date_time += Duration::nanoseconds(999_999);
            }
            db.put(&r).await.unwrap();
        }
        let thread = (FORUM, "DynamoDB Thread 1");
        let all: Vec<Reply> = db.query::<Reply>(thread).all().await.unwrap();
        assert_eq!(days(&all), [0, 1, 2, 3, 4]);
        assert_eq!(all[2].reply_date_time, at(2)); // stored truncated to the millisecond

        // Key conditions and filters built from the field's handle compare at the stored width.
        let db = &db;
        let range = |condition| async move {
            days(
                &db.query::<Reply>(thread)
                    .range(condition)
                    .all()
                    .await
                    .unwrap(),
            )
        };
        assert_eq!(range(Reply::reply_date_time().gt(at(1))).await, [2, 3, 4]);
        assert_eq!(
            range(Reply::reply_date_time().ge(at(1))).await,
            [1, 2, 3, 4]
        );
        assert_eq!(
            range(Reply::reply_date_time().between(at(1), at(3))).await,
            [1, 2, 3]
        );
        // A time past the stored millisecond compares as its millisecond.
        assert_eq!(
            range(Reply::reply_date_time().le(at(2) + Duration::microseconds(500))).await,
            [0, 1, 2]
        );
        let by_a: Vec<Reply> = db
            .query_index(Reply::posted_by_message_index(), "User A")
            .filter(Reply::reply_date_time().lt(at(3)))
            .all()
            .await
            .unwrap();
        assert_eq!(days(&by_a), [1]);
        let desc: Vec<Reply> = db
            .query::<Reply>(thread)
            .range(Reply::reply_date_time().lt(at(4)))
            .desc()
            .limit(2)
            .all()
            .await
            .unwrap();
        assert_eq!(days(&desc), [3, 2]);
    }
);

/// A composite sort key whose last part holds the separator: range conditions on it.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "Tags")]
#[composite(pk = ("OWNER", owner), hash_key)]
#[composite(sk = ("TAG", kind, name), range_key)]
struct Tag {
    owner: String,
    kind: String,
    name: String,
}

dual_test!(
    composite_last_part_with_separators_in_range_conditions,
    |t| {
        let db = t.namespaced_db();
        t.register_table(&db.table_name::<Tag>());
        db.create_schema::<Tag>().await.unwrap();
        for (kind, name) in [
            ("lang", "C"),
            ("lang", "C#"),
            ("lang", "C# or Rust?"),
            ("lang", "C!"),
            ("lang", "C++"),
            ("lang", "D"),
            ("langs", "A"),
            ("other", "C#"),
        ] {
            db.put(&Tag {
                owner: "o".into(),
                kind: kind.into(),
                name: name.into(),
            })
            .await
            .unwrap();
        }
        let db = &db;
        let names = |condition| async move {
            db.query::<Tag>("o")
                .range(condition)
                .all()
                .await
                .unwrap()
                .into_iter()
                .map(|t| t.name)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            names(Tag::sk().prefix(("lang",))).await,
            ["C", "C!", "C#", "C# or Rust?", "C++", "D"]
        );
        // Every name above "C", those starting with "C" and a character below the separator included.
        assert_eq!(
            names(Tag::sk().gt(("lang",), "C")).await,
            ["C!", "C#", "C# or Rust?", "C++", "D"]
        );
        assert_eq!(
            names(Tag::sk().gt(("lang",), "C#")).await,
            ["C# or Rust?", "C++", "D"]
        );
        assert_eq!(
            names(Tag::sk().le(("lang",), "C#")).await,
            ["C", "C!", "C#"]
        );
        assert_eq!(
            names(Tag::sk().between(("lang",), "C#", "C++")).await,
            ["C#", "C# or Rust?", "C++"]
        );
        assert_eq!(names(Tag::sk().prefix(("lang", "C#"))).await, ["C#"]);
    }
);
