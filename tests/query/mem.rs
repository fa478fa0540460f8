//! End to end on the in-memory engine.

use super::*;

async fn seeded() -> Db {
    let db = Db::new(dynomodel_mem::MemBackend::new());
    db.create_schema::<Tweet>().await.unwrap();
    for (user, id, ts) in [
        ("abc", "1", 10),
        ("abc", "2", 20),
        ("abc", "3", 30),
        ("xyz", "1", 15),
    ] {
        db.put(&tweet(user, id, ts)).await.unwrap();
    }
    db
}

#[tokio::test]
async fn query_table_and_auto_selected_local_index() {
    let db = seeded().await;
    let all = db.query::<Tweet>("abc").all().await.unwrap();
    assert_eq!(
        all.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(),
        ["1", "2", "3"]
    );
    let recent = db
        .query::<Tweet>("abc")
        .range(Tweet::ts().gt(15))
        .desc()
        .all()
        .await
        .unwrap();
    assert_eq!(recent.iter().map(|t| t.ts).collect::<Vec<_>>(), [30, 20]);
    let first = db
        .query::<Tweet>("abc")
        .range(Tweet::id().ge("2"))
        .first()
        .await
        .unwrap();
    assert_eq!(first.map(|t| t.id), Some("2".into()));
    assert_eq!(db.query::<Tweet>("abc").count().await.unwrap(), 3);
    assert_eq!(
        db.query::<Tweet>("xyz").one().await.unwrap(),
        tweet("xyz", "1", 15)
    );
    assert_eq!(
        db.query::<Tweet>("nobody").one().await.unwrap_err(),
        Error::NoResult
    );
    assert_eq!(
        db.query::<Tweet>("abc").one().await.unwrap_err(),
        Error::MoreThanOneResult
    );
}

#[tokio::test]
async fn query_global_keys_only_index_and_fetch_full() {
    let db = seeded().await;
    let entries = db
        .query_index(Tweet::rt_index(), "Paris")
        .all()
        .await
        .unwrap();
    assert_eq!(entries.len(), 4);
    let full = db
        .query_index(Tweet::rt_index(), "Paris")
        .fetch_full()
        .all()
        .await
        .unwrap();
    assert_eq!(full.len(), 4);
    assert!(full.contains(&tweet("abc", "2", 20)));
}

#[tokio::test]
async fn paging_with_cursors_visits_everything_once() {
    let db = seeded().await;
    let mut cursor = None;
    let mut seen = Vec::new();
    loop {
        let page = db.query::<Tweet>("abc").page(2, cursor).await.unwrap();
        seen.extend(page.items.into_iter().map(|t| t.id));
        match page.next {
            Some(next) => cursor = Some(next.to_string().parse().unwrap()),
            None => break,
        }
    }
    assert_eq!(seen, ["1", "2", "3"]);
}

#[tokio::test]
async fn parallel_scan_and_filtered_count() {
    let db = seeded().await;
    let mut all = db.scan::<Tweet>().segments(4).all().await.unwrap();
    all.sort_by(|a, b| (&a.userid, &a.id).cmp(&(&b.userid, &b.id)));
    assert_eq!(all.len(), 4);
    assert_eq!(
        db.scan::<Tweet>()
            .filter(Tweet::ts().ge(15))
            .count()
            .await
            .unwrap(),
        3
    );
}
