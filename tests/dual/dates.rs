//! Issue 24, item 8: the stored width of dates, chosen per model or per field, on every target. The
//! Developer Guide's Reply table keys replies by a millisecond-wide `ReplyDateTime`; a model storing
//! that width reads and writes items that sort together with those other code wrote, and its
//! handles write operands at the same width. Any RFC 3339 width reads.

use chrono::{DateTime, Duration, TimeZone, Utc};
use dynomodel::convert::Rfc3339;
use dynomodel::{AttributeValue, Db, Field, GetItemInput, Model, PutItemInput};

use super::*;

/// The Developer Guide's Reply: `Id` is `ForumName#Subject`, sorted by the reply's time written in
/// milliseconds; `Edited` in whole seconds.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "Reply", rename_all = "PascalCase", time_precision = "millis")]
struct Reply {
    #[hash_key]
    id: String,
    #[range_key]
    reply_date_time: DateTime<Utc>,
    message: String,
    posted_by: String,
    #[dynomodel(time_precision = "seconds")]
    edited: Option<DateTime<Utc>>,
    /// Not spelled `DateTime<..>`, so the model's width does not apply: the default nine digits.
    seen: Option<chrono::NaiveDate>,
}

const THREAD: &str = "Amazon DynamoDB#DynamoDB Thread 1";

fn at(day: u32, millis: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2015, 9, day, 19, 58, 22).unwrap() + Duration::milliseconds(millis)
}

async fn raw_get(db: &Db, time: &str) -> Item {
    db.backend()
        .get_item(GetItemInput {
            table_name: db.table_name::<Reply>(),
            key: item([("Id", s(THREAD)), ("ReplyDateTime", s(time))]),
            ..Default::default()
        })
        .await
        .unwrap()
        .item
        .unwrap()
}

dual_test!(
    dates_are_written_at_the_chosen_width_and_any_width_reads,
    |t| {
        // The handles are typed by the width, so that operands are written like the stored values.
        let _: Field<Reply, Rfc3339<3>> = Reply::reply_date_time();
        let _: Field<Reply, Option<Rfc3339<0>>> = Reply::edited();

        let db = t.namespaced_db();
        t.register_table(&db.table_name::<Reply>());
        db.create_schema::<Reply>().await.unwrap();

        // Replies other code wrote, as in the Developer Guide's sample data (one at another width).
        for (time, message) in [
            ("2015-09-15T19:58:22.947Z", "DynamoDB Thread 1 Reply 1 text"),
            (
                "2015-09-22T19:58:22.514000000Z",
                "DynamoDB Thread 1 Reply 2 text",
            ),
        ] {
            db.backend()
                .put_item(PutItemInput {
                    table_name: db.table_name::<Reply>(),
                    item: item([
                        ("Id", s(THREAD)),
                        ("ReplyDateTime", s(time)),
                        ("Message", s(message)),
                        ("PostedBy", s("User A")),
                    ]),
                    ..Default::default()
                })
                .await
                .unwrap();
        }

        // Ours: the time has nanoseconds; it is stored truncated to milliseconds, `Edited` to seconds.
        let mine = Reply {
            id: THREAD.into(),
            reply_date_time: at(29, 947) + Duration::nanoseconds(123_456),
            message: "DynamoDB Thread 1 Reply 3 text".into(),
            posted_by: "User B".into(),
            edited: Some(at(29, 999)),
            seen: None,
        };
        db.put(&mine).await.unwrap();
        let stored = raw_get(&db, "2015-09-29T19:58:22.947Z").await;
        assert_eq!(stored["Edited"], s("2015-09-29T19:58:22Z"));

        // A get by the untruncated time finds it (the key is written at the width too), and reads
        // back the truncated times.
        let read = db
            .get::<Reply>((THREAD, mine.reply_date_time))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (read.reply_date_time, read.edited),
            (at(29, 947), Some(at(29, 0)))
        );

        // One order: a range condition at the same width finds the items others wrote and ours.
        let after: Vec<Reply> = db
            .query::<Reply>(THREAD)
            .range(Reply::reply_date_time().gt(at(15, 947)))
            .all()
            .await
            .unwrap();
        let messages: Vec<&str> = after.iter().map(|r| r.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "DynamoDB Thread 1 Reply 2 text",
                "DynamoDB Thread 1 Reply 3 text"
            ]
        );
        assert_eq!(after[0].reply_date_time, at(22, 514)); // nine digits read as well
        let exact = db
            .query::<Reply>(THREAD)
            .range(Reply::reply_date_time().eq(at(15, 947)))
            .all()
            .await
            .unwrap();
        assert_eq!(
            exact.len(),
            1,
            "an operand written at the stored width matches"
        );
        // At the default width the operand would be `….947000000Z`, which no stored text equals.
        let nine = AttributeValue::S("2015-09-15T19:58:22.947000000Z".into());
        assert_ne!(
            raw_get(&db, "2015-09-15T19:58:22.947Z").await["ReplyDateTime"],
            nine
        );
    }
);
