//! Cursors with the other reads (lenient, strict), on every target: a lenient read pages as a strict one
//! (`page(n, ..)` counts good and bad items alike, its cursor follows a bad item as well as a good
//! one, on the table, an index and a scan), a strict page decodes only the items it returns, and a
//! cursor after an index entry holds the keys as the model writes them (a renamed composite, a
//! date-time in milliseconds).

use chrono::{DateTime, Duration, TimeZone, Utc};
use dynomodel::backend::PutItemInput;
use dynomodel::{Cursor, Db, Decoded, Error, InvalidCursorReason, Model};

use super::cursors::pages;
use super::*;

/// A forum's posts; the global index `by-topic` holds every post by topic and views, projecting
/// `ALL`, so its entries are posts, and a stray item fails to decode there too.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "LenientPost")]
#[global_index(all("by-topic", hash = topic, range = views))]
struct Post {
    #[hash_key]
    forum: String,
    #[range_key]
    id: u32,
    topic: String,
    views: i64,
    text: String,
}

/// Forum "rust": posts 1 to 8 on topic "t" (views 10 × id), of which another program wrote 3 and 6
/// without `text`; forum "go": post 1, on topic "u".
async fn posts_db(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Post>());
    db.create_schema::<Post>().await.unwrap();
    for id in 1..=8_u32 {
        let views = i64::from(id) * 10;
        if id % 3 == 0 {
            let stray = [
                ("forum", s("rust")),
                ("id", num(&id.to_string())),
                ("topic", s("t")),
                ("views", num(&views.to_string())),
            ];
            db.backend()
                .put_item(PutItemInput {
                    table_name: db.table_name::<Post>(),
                    item: item(stray),
                    ..Default::default()
                })
                .await
                .unwrap();
            continue;
        }
        let text = format!("post {id}");
        let (forum, topic) = ("rust".into(), "t".into());
        db.put(&Post {
            forum,
            id,
            topic,
            views,
            text,
        })
        .await
        .unwrap();
    }
    let (forum, topic, text) = ("go".into(), "u".into(), "hello".into());
    let go = Post {
        forum,
        id: 1,
        topic,
        views: 5,
        text,
    };
    db.put(&go).await.unwrap();
    db
}

/// Each item's id, `-id` for one that did not decode (named by its key).
fn ids(items: &[Decoded<Post>]) -> Vec<i64> {
    items
        .iter()
        .map(|item| match item {
            Ok(post) => i64::from(post.id),
            Err(bad) => {
                assert_eq!(bad.error.path, "text", "{bad}");
                match &bad.key["id"] {
                    AttributeValue::N(id) => -id.to_string().parse::<i64>().unwrap(),
                    other => panic!("an id {other:?}"),
                }
            }
        })
        .collect()
}

/// The ids of pages, page by page.
fn paged(pages: &[Vec<Decoded<Post>>]) -> Vec<Vec<i64>> {
    pages.iter().map(|page| ids(page)).collect()
}

dual_test!(
    cursor_reads_lenient_pages_count_bad_items_and_follow_them,
    |t| {
        let db = posts_db(&t).await;
        let rust = || db.query::<Post>("rust");
        let all = ids(&rust().lenient().all().await.unwrap());
        assert_eq!(all, [1, 2, -3, 4, 5, -6, 7, 8]);

        // Pages of 3 end on the bad items: the cursor is made from the keys found in them.
        let read = pages(3, |cursor| rust().lenient().page(3, cursor)).await;
        assert_eq!(paged(&read), [vec![1, 2, -3], vec![4, 5, -6], vec![7, 8]]);
        // Filtered, one item evaluated per request (the owned items' path on the engine).
        let viewed = || rust().filter(Post::views().ge(30)).page_size(1).lenient();
        let read = pages(2, |cursor| viewed().page(2, cursor)).await;
        assert_eq!(paged(&read), [vec![-3, 4], vec![5, -6], vec![7, 8]]);

        // On the index, a bad entry's cursor also holds its index keys.
        let topic = || db.query_index(Post::by_topic(), "t".to_owned()).lenient();
        let read = pages(3, |cursor| topic().page(3, cursor)).await;
        assert_eq!(paged(&read), [vec![1, 2, -3], vec![4, 5, -6], vec![7, 8]]);
        let first = topic().page(3, None).await.unwrap().next.unwrap();
        assert_eq!(first.index(), Some("by-topic"));
        assert_eq!(
            first.key(),
            &item([
                ("forum", s("rust")),
                ("id", num("3")),
                ("topic", s("t")),
                ("views", num("30")),
            ])
        );

        // A scan in pages of one: every bad item is the last of a page once.
        let scanned = ids(&db.scan::<Post>().lenient().all().await.unwrap());
        let read = pages(1, |cursor| db.scan::<Post>().lenient().page(1, cursor)).await;
        assert_eq!(paged(&read).concat(), scanned);
        assert_eq!(scanned.iter().filter(|id| **id < 0).count(), 2);

        // One DynamoDB request as it comes, lenient too.
        let one = rust()
            .page_size(3)
            .lenient()
            .dynamodb_page(None)
            .await
            .unwrap();
        assert_eq!(ids(&one.items), [1, 2, -3]);
        let two = rust()
            .page_size(3)
            .lenient()
            .dynamodb_page(one.next)
            .await
            .unwrap();
        assert_eq!(ids(&two.items), [4, 5, -6]);

        // After a good item of the lenient read.
        let good = rust().lenient().all().await.unwrap().remove(1).unwrap();
        let after = rust().lenient().cursor_after(&good).unwrap();
        let rest = rust().lenient().page(10, Some(after)).await.unwrap();
        assert_eq!(
            (ids(&rest.items), rest.next),
            (vec![-3, 4, 5, -6, 7, 8], None)
        );

        // Cursors are checked as for a strict read: another index's, another partition's.
        let refused = |result: Result<_, Error>| match result {
            Err(Error::InvalidCursor(invalid)) => invalid.reason,
            other => panic!("expected an invalid cursor, got {other:?}"),
        };
        let on_table = rust().lenient().page(3, Some(first)).await;
        assert_eq!(
            refused(on_table.map(drop)),
            InvalidCursorReason::OtherIndex {
                found: Some("by-topic".into())
            }
        );
        let go = db.query::<Post>("go").page(1, None).await.unwrap();
        assert!(go.next.is_none());
        let go_cursor = db.query::<Post>("go").cursor_after(&go.items[0]).unwrap();
        let other = rust().lenient().page(3, Some(go_cursor)).await;
        assert_eq!(
            refused(other.map(drop)),
            InvalidCursorReason::OtherPartition {
                attribute: "forum".into()
            }
        );
    }
);

dual_test!(
    cursor_reads_strict_pages_decode_only_what_they_return,
    |t| {
        let db = posts_db(&t).await;
        let rust = || db.query::<Post>("rust");
        // The page of two reads post 3 to know that more follow, but does not return it: no error.
        let first = rust().page(2, None).await.unwrap();
        assert_eq!(first.items.iter().map(|p| p.id).collect::<Vec<_>>(), [1, 2]);
        let filtered = rust().filter(Post::views().ge(10)).page(2, None).await;
        assert_eq!(filtered.unwrap().items.len(), 2);
        // The next page returns it: the error names it.
        let err = rust().page(2, first.next).await.unwrap_err();
        match &err {
            Error::ItemDecode(bad) => {
                assert_eq!(
                    (bad.key["id"].clone(), bad.error.path.as_str()),
                    (num("3"), "text")
                );
            }
            other => panic!("expected an ItemDecode error, got {other:?}"),
        }
    }
);

/// The Developer Guide's `Reply` table with `Id` a renamed composite and times in milliseconds; a
/// `KEYS_ONLY` index by poster (a renamed composite with a prefix) and time.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "PagedReply", rename_all = "PascalCase", datetime = "millis")]
#[composite(id = (forum_name, subject), hash_key, rename = "Id")]
#[composite(poster = ("USER", posted_by), rename = "PostedByKey")]
#[global_index(keys("PostedBy-Index", hash = poster, range = reply_date_time))]
struct Reply {
    forum_name: String,
    subject: String,
    #[range_key]
    reply_date_time: DateTime<Utc>,
    posted_by: String,
    message: String,
}

/// 2015-09-15T19:58:22.947Z (the sample's first reply), plus `days`.
fn at(days: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2015, 9, 15, 19, 58, 22).unwrap()
        + Duration::milliseconds(947)
        + Duration::days(days)
}

dual_test!(
    cursor_reads_keys_follow_renamed_composites_and_datetime_widths,
    |t| {
        let db = t.namespaced_db();
        t.register_table(&db.table_name::<Reply>());
        db.create_schema::<Reply>().await.unwrap();
        for days in 0..5 {
            let reply = Reply {
                forum_name: "Amazon DynamoDB".into(),
                subject: "C# or Rust?".into(),
                // Nanoseconds the millisecond width drops when written.
                reply_date_time: at(days) + Duration::nanoseconds(123_456),
                posted_by: if days % 2 == 0 { "User A" } else { "User B" }.into(),
                message: format!("reply {days}"),
            };
            db.put(&reply).await.unwrap();
        }

        // On the table: `Id` and `ReplyDateTime` as stored.
        let thread = || db.query::<Reply>(("Amazon DynamoDB", "C# or Rust?"));
        let replies = thread().all().await.unwrap();
        assert_eq!(replies.len(), 5);
        let cursor = thread().cursor_after(&replies[1]).unwrap();
        assert_eq!(
            cursor.key(),
            &item([
                ("Id", s("Amazon DynamoDB#C# or Rust?")),
                ("ReplyDateTime", s("2015-09-16T19:58:22.947Z")),
            ])
        );
        let rest = thread().page(10, Some(cursor)).await.unwrap();
        assert_eq!(rest.items, replies[2..]);

        // On the index: its entries' cursors hold the index's keys as the model writes them.
        let by_a = || db.query_index(Reply::posted_by_index(), "User A");
        let entries = by_a().all().await.unwrap();
        assert_eq!(entries.len(), 3);
        let cursor = by_a().cursor_after(&entries[0]).unwrap();
        assert_eq!(
            cursor.key(),
            &item([
                ("Id", s("Amazon DynamoDB#C# or Rust?")),
                ("ReplyDateTime", s("2015-09-15T19:58:22.947Z")),
                ("PostedByKey", s("USER#User A")),
            ])
        );
        let token: Cursor = cursor.to_string().parse().unwrap();
        assert_eq!(
            by_a().page(10, Some(token)).await.unwrap().items,
            entries[1..]
        );
        let read = pages(1, |cursor| by_a().page(1, cursor)).await;
        assert_eq!(read.concat(), entries);
        // A range condition on the time: a cursor before it is refused.
        let late = || by_a().range(Reply::reply_date_time().ge(at(2)));
        let early = by_a().cursor_after(&entries[0]).unwrap();
        assert!(matches!(
            late().page(10, Some(early)).await,
            Err(Error::InvalidCursor(invalid))
                if invalid.reason == InvalidCursorReason::OutsideRange { attribute: "ReplyDateTime".into() }
        ));
    }
);
