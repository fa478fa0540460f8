//! Exact request shapes, against the recording backend.

use super::*;

#[tokio::test]
async fn table_query_renders_key_filter_order_limit_and_consistency() {
    let (rec, db) = recorder(vec![page(vec![tweet("abc", "1", 5)], None)]);
    let found = db
        .query::<Tweet>("abc")
        .range(Tweet::id().begins_with("2026-"))
        .filter(Tweet::likes().ge(10))
        .desc()
        .limit(10)
        .consistent()
        .all()
        .await
        .unwrap();
    assert_eq!(found, [tweet("abc", "1", 5)]);
    let queries = rec.queries();
    assert_eq!(
        queries[0],
        QueryInput {
            table_name: "t-tweets".into(),
            index_name: None,
            key_condition_expression: Some("#n0 = :v0 AND begins_with(#n1, :v1)".into()),
            filter_expression: Some("#n2 >= :v2".into()),
            projection_expression: None,
            expression_attribute_names: names(&[
                ("#n0", "userid"),
                ("#n1", "id"),
                ("#n2", "likes")
            ]),
            expression_attribute_values: values(vec![
                (":v0", s("abc")),
                (":v1", s("2026-")),
                (":v2", n(10))
            ]),
            select: None,
            scan_index_forward: Some(false),
            limit: Some(10),
            exclusive_start_key: None,
            consistent_read: Some(true),
            ..Default::default()
        }
    );
}

#[tokio::test]
async fn limit_shrinks_as_pages_arrive_and_start_keys_follow() {
    let (rec, db) = recorder(vec![
        page(vec![tweet("abc", "1", 1)], Some(key("abc", "1"))),
        page(vec![], Some(key("abc", "2"))),
        page(
            vec![tweet("abc", "3", 3), tweet("abc", "4", 4)],
            Some(key("abc", "4")),
        ),
    ]);
    let found = db
        .query::<Tweet>("abc")
        .filter(Tweet::likes().gt(0))
        .limit(3)
        .all()
        .await
        .unwrap();
    assert_eq!(found.len(), 3);
    let queries = rec.queries();
    let shape: Vec<(Option<i32>, Option<Item>)> = queries
        .iter()
        .map(|q| (q.limit, q.exclusive_start_key.clone()))
        .collect();
    assert_eq!(
        shape,
        [
            (Some(3), None),
            (Some(2), Some(key("abc", "1"))),
            (Some(2), Some(key("abc", "2")))
        ],
        "stops once 3 results arrived although a LastEvaluatedKey came back"
    );
}

#[tokio::test]
async fn every_page_of_all_sends_the_first_pages_request() {
    // The first page's request is handed over as rendered, the later ones rendered anew: they must
    // be the same request, only the paging fields differing.
    let (rec, db) = recorder(vec![
        page(vec![tweet("abc", "1", 1)], Some(key("abc", "1"))),
        page(vec![], Some(key("abc", "2"))),
        page(vec![tweet("abc", "3", 3)], None),
    ]);
    let found = db
        .query::<Tweet>("abc")
        .range(Tweet::id().begins_with("2026-"))
        .filter(Tweet::likes().gt(0))
        .desc()
        .consistent()
        .page_size(5)
        .all()
        .await
        .unwrap();
    assert_eq!(found, [tweet("abc", "1", 1), tweet("abc", "3", 3)]);
    let queries = rec.queries();
    assert_eq!(queries.len(), 3);
    let starts = [None, Some(key("abc", "1")), Some(key("abc", "2"))];
    for (query, start) in queries.iter().zip(starts) {
        let expected = QueryInput {
            exclusive_start_key: start,
            ..queries[0].clone()
        };
        assert_eq!(query, &expected);
        assert_eq!(query.limit, Some(5));
        assert_eq!(query.filter_expression.as_deref(), Some("#n2 > :v2"));
    }
}

#[tokio::test]
async fn range_on_an_index_sort_key_selects_that_index() {
    let (rec, db) = recorder(vec![QueryOutput::default(), QueryOutput::default()]);
    db.query::<Tweet>("abc")
        .range(Tweet::ts().gt(100))
        .all()
        .await
        .unwrap();
    // `likes` sorts the INCLUDE local index and the ALL global one, but the global one is
    // partitioned by `city`: the local one is chosen and read with ALL_ATTRIBUTES.
    db.query::<Tweet>("abc")
        .range(Tweet::likes().between(1, 5))
        .all()
        .await
        .unwrap();
    let queries = rec.queries();
    assert_eq!(queries[0].index_name.as_deref(), Some("ts-local"));
    assert_eq!(queries[0].select, None);
    assert_eq!(
        queries[0].key_condition_expression.as_deref(),
        Some("#n0 = :v0 AND #n1 > :v1")
    );
    assert_eq!(queries[1].index_name.as_deref(), Some("like-local"));
    assert_eq!(queries[1].select, Some(Select::AllAttributes));
    assert_eq!(
        queries[1].key_condition_expression.as_deref(),
        Some("#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2")
    );
}

#[tokio::test]
async fn bad_range_conditions_fail_unsent() {
    let (rec, db) = recorder(vec![]);
    let message = |e: Error| e.message();
    // A range condition of another shape (`|`, `ne`) or on an attribute that sorts nothing does
    // not compile (tests/ui/cases/range_condition_not_sort_key.rs). What the types do not say is
    // which index an attribute sorts: `retweets` sorts "rt-index", partitioned by `city`.
    let err = db
        .query::<Tweet>("abc")
        .range(Tweet::retweets().gt(1))
        .all()
        .await
        .unwrap_err();
    assert!(message(err).starts_with(
        "no index of table `tweets` is partitioned by `userid` and sorted by `retweets`"
    ));
    let err = db
        .query_index(Tweet::rt_index(), "Paris")
        .range(Tweet::likes().gt(1))
        .all()
        .await
        .unwrap_err();
    assert_eq!(
        message(err),
        "the range condition is on `likes`, but index `rt-index` is sorted by `retweets`"
    );
    let err = db
        .query_index(Tweet::rt_index(), "Paris")
        .consistent()
        .first()
        .await
        .unwrap_err();
    assert_eq!(
        message(err),
        "Consistent reads are not supported on global secondary indexes"
    );
    assert!(rec.queries().is_empty());
}

#[tokio::test]
async fn keys_only_index_returns_its_item_type_and_fetch_full_reads_items() {
    let entry = Item::from([
        ("userid".to_owned(), s("abc")),
        ("id".to_owned(), s("9")),
        ("city".to_owned(), s("Paris")),
        ("retweets".to_owned(), n(4)),
    ]);
    let canned = QueryOutput {
        items: Some(vec![entry.clone()]),
        count: 1,
        scanned_count: 1,
        last_evaluated_key: None,
        ..Default::default()
    };
    let (rec, db) = recorder(vec![canned.clone(), canned]);
    let top: Option<TweetRtIndexItem> = db
        .query_index(Tweet::rt_index(), "Paris")
        .range(Tweet::retweets().ge(2))
        .desc()
        .first()
        .await
        .unwrap();
    let top = top.unwrap();
    assert_eq!((top.id.as_str(), top.retweets), ("9", 4));
    let full: Vec<Tweet> = db
        .query_index(Tweet::rt_index(), "Paris")
        .fetch_full()
        .all()
        .await
        .unwrap();
    assert_eq!(full[0].key(), TweetKey::from(("abc", "9")));
    assert_eq!(rec.gets(), [key("abc", "9")]);
    let queries = rec.queries();
    assert_eq!(queries[0].index_name.as_deref(), Some("rt-index"));
    assert_eq!(queries[0].limit, Some(1));
    assert_eq!(queries[0].scan_index_forward, Some(false));
    assert_eq!(
        queries[0].expression_attribute_names,
        names(&[("#n0", "city"), ("#n1", "retweets")])
    );
    assert_eq!(queries[1].select, None);
}

#[tokio::test]
async fn count_one_page_and_projection() {
    let counted = |c: i32, next: Option<Item>| QueryOutput {
        items: None,
        count: c,
        scanned_count: c,
        last_evaluated_key: next,
        ..Default::default()
    };
    let (rec, db) = recorder(vec![
        counted(2, Some(key("abc", "2"))),
        counted(3, None),
        page(vec![tweet("abc", "1", 1), tweet("abc", "2", 2)], None),
        page(vec![tweet("abc", "1", 1)], Some(key("abc", "1"))),
        page(vec![], None),
    ]);
    assert_eq!(db.query::<Tweet>("abc").count().await.unwrap(), 5);
    let err = db.query::<Tweet>("abc").one().await.unwrap_err();
    assert_eq!(err, Error::MoreThanOneResult);
    assert_eq!(
        err.to_string(),
        "one() expected exactly one result, found more than one"
    );
    let first = db
        .query::<Tweet>("abc")
        .limit(1)
        .dynamodb_page(None)
        .await
        .unwrap();
    assert_eq!(first.items.len(), 1);
    let cursor: Cursor = first.next.unwrap().to_string().parse().unwrap();
    let rest = db
        .query::<Tweet>("abc")
        .project(Tweet::text())
        .dynamodb_page(Some(cursor))
        .await
        .unwrap();
    assert_eq!((rest.items.len(), rest.next), (0, None));
    let queries = rec.queries();
    assert_eq!(queries[0].select, Some(Select::Count));
    assert_eq!(queries[1].exclusive_start_key, Some(key("abc", "2")));
    assert_eq!(
        queries[2].limit,
        Some(2),
        "one() asks for two to tell one from many"
    );
    assert_eq!(queries[4].exclusive_start_key, Some(key("abc", "1")));
    assert_eq!(queries[4].projection_expression.as_deref(), Some("#n1"));
    assert_eq!(
        queries[4].expression_attribute_names,
        names(&[("#n0", "userid"), ("#n1", "text")])
    );
}

#[tokio::test]
async fn parallel_scan_reads_every_segment() {
    let (rec, db) = recorder(vec![
        page(vec![tweet("a", "1", 1)], None),
        page(vec![tweet("b", "1", 1)], None),
        page(vec![tweet("c", "1", 1)], None),
    ]);
    let mut found = db
        .scan::<Tweet>()
        .filter(Tweet::city().eq("Paris"))
        .segments(3)
        .all()
        .await
        .unwrap();
    found.sort_by(|a, b| a.userid.cmp(&b.userid));
    assert_eq!(found.len(), 3);
    let scans = rec.scans();
    let mut segments: Vec<(Option<i32>, Option<i32>)> = scans
        .iter()
        .map(|s| (s.segment, s.total_segments))
        .collect();
    segments.sort();
    assert_eq!(
        segments,
        [(Some(0), Some(3)), (Some(1), Some(3)), (Some(2), Some(3))]
    );
    assert_eq!(scans[0].table_name, "t-tweets");
    assert_eq!(scans[0].filter_expression.as_deref(), Some("#n0 = :v0"));
    assert_eq!(
        scans[0].expression_attribute_values,
        values(vec![(":v0", s("Paris"))])
    );
}

#[tokio::test]
async fn scan_stream_pages_lazily_and_scan_index_counts() {
    let (rec, db) = recorder(vec![
        page(vec![tweet("a", "1", 1)], Some(key("a", "1"))),
        page(vec![tweet("b", "1", 1)], None),
        QueryOutput {
            count: 7,
            ..Default::default()
        },
    ]);
    let stream = db.scan::<Tweet>().page_size(1).stream();
    let mut stream = std::pin::pin!(stream);
    assert_eq!(stream.try_next().await.unwrap().unwrap().userid, "a");
    assert_eq!(
        rec.scans().len(),
        1,
        "the second page is fetched only when needed"
    );
    assert_eq!(stream.try_next().await.unwrap().unwrap().userid, "b");
    assert!(stream.try_next().await.unwrap().is_none());
    assert_eq!(db.scan_index(Tweet::rt_index()).count().await.unwrap(), 7);
    let err = db
        .scan::<Tweet>()
        .segments(2)
        .page(1, None)
        .await
        .unwrap_err();
    assert!(err.message().starts_with("a page reads one segment"));
    let scans = rec.scans();
    assert_eq!(scans[1].limit, Some(1));
    assert_eq!(scans[1].exclusive_start_key, Some(key("a", "1")));
    assert_eq!(
        (scans[2].index_name.as_deref(), scans[2].select),
        (Some("rt-index"), Some(Select::Count))
    );
    assert_eq!(scans[2].segment, None);
}

#[tokio::test]
async fn an_untyped_read_pages_through_and_stops_at_a_failing_page() {
    // A projected read is not typed: its pages go through `Pager::fetch`'s untyped future (polled
    // out of line), each awaited page after the previous one's key, and an error ends the read.
    let (rec, db) = recorder(vec![
        page(vec![tweet("abc", "1", 1)], Some(key("abc", "1"))),
        page(vec![tweet("abc", "2", 2)], Some(key("abc", "2"))),
        page(vec![tweet("abc", "3", 3)], None),
    ]);
    let found = db
        .query::<Tweet>("abc")
        .project(Tweet::text())
        .all()
        .await
        .unwrap();
    let texts: Vec<Option<String>> = found
        .iter()
        .map(|p| p.get(Tweet::text()).unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            Some("tweet 1".into()),
            Some("tweet 2".into()),
            Some("tweet 3".into())
        ]
    );
    let starts: Vec<Option<Item>> = rec
        .queries()
        .into_iter()
        .map(|q| q.exclusive_start_key)
        .collect();
    assert_eq!(starts, [None, Some(key("abc", "1")), Some(key("abc", "2"))]);

    let fake = Arc::new(RecordingBackend::new());
    let sent = Arc::new(Mutex::new(0));
    let count = sent.clone();
    fake.on(op::query, move |_| {
        let mut count = count.lock().unwrap();
        *count += 1;
        match *count {
            1 => Ok(page(vec![tweet("abc", "1", 1)], Some(key("abc", "1")))),
            _ => Err(Error::Transport("connection reset".into())),
        }
    });
    let db = Db::from_arc(fake.clone()).with_namespace("t-");
    let error = db
        .query::<Tweet>("abc")
        .project(Tweet::text())
        .all()
        .await
        .unwrap_err();
    assert!(
        matches!(&error, Error::Transport(m) if m == "connection reset"),
        "{error:?}"
    );
    assert_eq!(
        *sent.lock().unwrap(),
        2,
        "no request after the failing page"
    );
}
