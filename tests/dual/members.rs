//! Single-table members read only their own items, and every read names the item that does
//! not decode: books and bicycles in one catalog table (the Developer Guide's ProductCatalog, with a
//! store partition and an aisle index), on every target.

use dynomodel::backend::PutItemInput;
use dynomodel::{Collection, Db, Decoded, Error, ItemDecode, Model};
use futures::TryStreamExt;

use super::*;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "catalog", entity = "Book")]
#[global_index(all("by-aisle", hash = aisle, range = price))]
struct Book {
    #[hash_key]
    store: String,
    #[range_key]
    id: u32,
    aisle: String,
    price: u32,
    title: String,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "catalog", entity = "Bicycle")]
#[global_index(all("by-aisle", hash = aisle, range = price))]
struct Bicycle {
    #[hash_key]
    store: String,
    #[range_key]
    id: u32,
    aisle: String,
    price: u32,
    brand: String,
}

#[derive(Collection, Debug, PartialEq)]
enum Catalog {
    Book(Book),
    Bicycle(Bicycle),
}

#[derive(Collection, Debug, PartialEq)]
enum CatalogOrUnknown {
    Book(Book),
    Bicycle(Bicycle),
    #[dynomodel(unknown)]
    Unknown(Item),
}

fn book(store: &str, id: u32, aisle: &str, price: u32) -> Book {
    Book {
        store: store.into(),
        id,
        aisle: aisle.into(),
        price,
        title: format!("book {id}"),
    }
}

fn bicycle(store: &str, id: u32, aisle: &str, price: u32) -> Bicycle {
    Bicycle {
        store: store.into(),
        id,
        aisle: aisle.into(),
        price,
        brand: format!("brand {id}"),
    }
}

/// Store s1: books 1, 3, 5 and bicycles 2, 4; store s2: book 1. Aisle A: books 1 and 3, bicycle 2.
async fn catalog_db(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Book>());
    db.create_collection_schema::<Catalog>().await.unwrap();
    for b in [
        book("s1", 1, "A", 10),
        book("s1", 3, "A", 20),
        book("s1", 5, "B", 30),
        book("s2", 1, "B", 40),
    ] {
        db.put(&b).await.unwrap();
    }
    for b in [bicycle("s1", 2, "A", 300), bicycle("s1", 4, "B", 500)] {
        db.put(&b).await.unwrap();
    }
    db
}

/// Writes `pairs` as an item of the catalog table, bypassing the mapper (another program's item).
async fn put_raw<const LEN: usize>(db: &Db, pairs: [(&str, AttributeValue); LEN]) {
    db.backend()
        .put_item(PutItemInput {
            table_name: db.table_name::<Book>(),
            item: item(pairs),
            ..Default::default()
        })
        .await
        .unwrap();
}

/// A book without a title, in store s1 (id 6, aisle A, price 1): undecodable as a `Book`.
async fn put_corrupt_book(db: &Db) {
    put_raw(
        db,
        [
            ("store", s("s1")),
            ("id", num("6")),
            ("aisle", s("A")),
            ("price", num("1")),
            ("_et", s("Book")),
        ],
    )
    .await;
}

fn ids<T>(items: &[T], id: impl Fn(&T) -> u32) -> Vec<u32> {
    items.iter().map(id).collect()
}

dual_test!(members_scan_and_count_only_their_entity, |t| {
    let db = catalog_db(&t).await;
    let mut bicycles = db.scan::<Bicycle>().all().await.unwrap();
    bicycles.sort_by_key(|b| b.id);
    assert_eq!(
        bicycles,
        [bicycle("s1", 2, "A", 300), bicycle("s1", 4, "B", 500)]
    );
    // Counted on the server, after the entity filter: bicycles are not books.
    assert_eq!(db.scan::<Book>().count().await.unwrap(), 4);
    assert_eq!(db.scan::<Bicycle>().segments(3).count().await.unwrap(), 2);
    // With the user's filter, ANDed with the entity's.
    let dear = db.scan::<Book>().filter(Book::price().ge(20));
    assert_eq!(dear.count().await.unwrap(), 3);
    // `limit(n)` is n of this entity, however many bicycles were read on the way.
    let two = db.scan::<Book>().limit(2).all().await.unwrap();
    assert_eq!(two.len(), 2);
    // A DynamoDB page is one request: its `Limit` counts items evaluated, books included, so a
    // page may hold no bicycle; paging on finds each bicycle once.
    let (mut paged, mut cursor) = (Vec::new(), None);
    loop {
        let page = db
            .scan::<Bicycle>()
            .limit(1)
            .dynamodb_page(cursor)
            .await
            .unwrap();
        assert!(page.items.len() <= 1);
        paged.extend(page.items.into_iter().map(|b| b.id));
        cursor = page.next;
        if cursor.is_none() {
            break;
        }
    }
    paged.sort_unstable();
    assert_eq!(paged, [2, 4]);
    // Projected reads are filtered too.
    let brands = db
        .scan::<Bicycle>()
        .project(Bicycle::brand())
        .all()
        .await
        .unwrap();
    assert_eq!(brands.len(), 2);
    // A collection scan keeps every member.
    let all = db
        .scan::<Book>()
        .collection::<Catalog>()
        .count()
        .await
        .unwrap();
    assert_eq!(all, 6);
});

dual_test!(members_query_table_and_index, |t| {
    let db = catalog_db(&t).await;
    let books = db.query::<Book>("s1").all().await.unwrap();
    assert_eq!(ids(&books, |b| b.id), [1, 3, 5]);
    assert_eq!(db.query::<Bicycle>("s1").count().await.unwrap(), 2);
    let dear = db
        .query::<Book>("s1")
        .filter(Book::price().gt(10))
        .desc()
        .all()
        .await
        .unwrap();
    assert_eq!(ids(&dear, |b| b.id), [5, 3]);
    // Two books, though the first two items of the partition are a book and a bicycle.
    let two = db.query::<Book>("s1").limit(2).all().await.unwrap();
    assert_eq!(ids(&two, |b| b.id), [1, 3]);
    let first = db.query::<Bicycle>("s1").first().await.unwrap();
    assert_eq!(first.map(|b| b.id), Some(2));
    // A range condition on the table's sort key.
    let late = db
        .query::<Book>("s1")
        .range(Book::id().ge(2))
        .all()
        .await
        .unwrap();
    assert_eq!(ids(&late, |b| b.id), [3, 5]);

    // The shared index, read by one member.
    let aisle_a = db.query_index(Book::by_aisle(), "A").all().await.unwrap();
    assert_eq!(ids(&aisle_a, |b| b.id), [1, 3]);
    let cheap = db
        .query_index(Bicycle::by_aisle(), "B")
        .range(Bicycle::price().lt(1000))
        .count()
        .await
        .unwrap();
    assert_eq!(cheap, 1);
    let indexed = db.scan_index(Bicycle::by_aisle()).count().await.unwrap();
    assert_eq!(indexed, 2);

    // A member's collection query keeps every member.
    let s1 = db.collection::<Catalog>("s1").all().await.unwrap();
    assert_eq!(s1.len(), 5);
    let as_collection = db
        .query::<Book>("s1")
        .collection::<Catalog>()
        .count()
        .await
        .unwrap();
    assert_eq!(as_collection, 5);
    let aisle = db
        .query_index(Book::by_aisle(), "A")
        .collection::<Catalog>()
        .all()
        .await
        .unwrap();
    assert_eq!(aisle.len(), 3);
});

dual_test!(members_collection_get, |t| {
    let db = catalog_db(&t).await;
    // Found, as the member its entity attribute names.
    let found = db
        .get_collection::<Catalog>(BicycleKey::from(("s1", 2_u32)))
        .await
        .unwrap();
    assert_eq!(found, Some(Catalog::Bicycle(bicycle("s1", 2, "A", 300))));
    // A book's key type reads whatever is stored there: here a bicycle.
    let there = db
        .get_collection::<Catalog>(BookKey::from(("s1", 4_u32)))
        .consistent()
        .await
        .unwrap();
    assert!(matches!(there, Some(Catalog::Bicycle(b)) if b.id == 4));
    // Missing.
    let missing = db
        .get_collection::<Catalog>(BookKey::from(("s1", 9_u32)))
        .await
        .unwrap();
    assert_eq!(missing, None);

    // An entity type no member declares: an error naming the item, or the unknown variant.
    put_raw(
        &db,
        [("store", s("s1")), ("id", num("9")), ("_et", s("Scooter"))],
    )
    .await;
    let err = db
        .get_collection::<Catalog>(BookKey::from(("s1", 9_u32)))
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            r#"the item of Catalog {{id: 9, store: "s1"}} in `{}` does not decode: attribute `_et`: expected an entity type of Catalog (Book, Bicycle), found an item of entity type "Scooter""#,
            db.table_name::<Book>()
        )
    );
    let unknown = db
        .get_collection::<CatalogOrUnknown>(BookKey::from(("s1", 9_u32)))
        .await
        .unwrap();
    assert!(
        matches!(unknown, Some(CatalogOrUnknown::Unknown(item)) if item["_et"] == s("Scooter"))
    );
});

/// The `Err`s of a lenient read, by id.
fn failed_ids<T>(items: &[Decoded<T>]) -> Vec<AttributeValue> {
    items
        .iter()
        .filter_map(|r| r.as_ref().err().map(|e| e.key["id"].clone()))
        .collect()
}

dual_test!(members_lenient_reads_return_good_and_bad_items, |t| {
    let db = catalog_db(&t).await;
    put_corrupt_book(&db).await;
    // Query: the good books and the bad one side by side, in order.
    let books = db.query::<Book>("s1").lenient().all().await.unwrap();
    assert_eq!(books.len(), 4);
    assert!(books[..3].iter().all(Result::is_ok));
    let ItemDecode {
        model,
        key,
        error,
        index,
        ..
    } = &**books[3].as_ref().unwrap_err();
    assert_eq!(
        (*model, index.as_deref(), error.path.as_str()),
        ("Book", None, "title")
    );
    assert_eq!(key, &item([("store", s("s1")), ("id", num("6"))]));
    // Scan, page, stream and first.
    let scanned = db.scan::<Book>().lenient().all().await.unwrap();
    assert_eq!((scanned.len(), failed_ids(&scanned)), (5, vec![num("6")]));
    let page = db
        .query::<Book>("s1")
        .desc()
        .lenient()
        .page(10, None)
        .await
        .unwrap();
    assert_eq!(failed_ids(&page.items), [num("6")]);
    let first = db
        .query::<Book>("s1")
        .desc()
        .lenient()
        .first()
        .await
        .unwrap();
    assert!(matches!(first, Some(Err(e)) if e.error.path == "title"));
    let streamed: Vec<_> = db
        .scan::<Book>()
        .segments(2)
        .lenient()
        .stream()
        .try_collect()
        .await
        .unwrap();
    assert_eq!(failed_ids(&streamed), [num("6")]);
    // `limit` counts good and bad items alike.
    let limited = db
        .query::<Book>("s1")
        .desc()
        .limit(2)
        .lenient()
        .all()
        .await
        .unwrap();
    assert_eq!(limited.len(), 2);
    // An index query names the index; a collection query the collection.
    let aisle = db
        .query_index(Book::by_aisle(), "A")
        .lenient()
        .all()
        .await
        .unwrap();
    let bad = aisle.iter().find_map(|r| r.as_ref().err()).unwrap();
    assert_eq!(bad.index.as_deref(), Some("by-aisle"));
    let collection = db
        .collection::<Catalog>("s1")
        .lenient()
        .all()
        .await
        .unwrap();
    assert_eq!(collection.len(), 6);
    assert!(matches!(&collection[5], Err(e) if e.model == "Catalog"));
});

dual_test!(members_decode_errors_name_table_key_and_attribute, |t| {
    let db = catalog_db(&t).await;
    put_corrupt_book(&db).await;
    let table = db.table_name::<Book>();
    let named = |model: &str, index: &str| {
        format!(
            r#"the item of {model} {{id: 6, store: "s1"}} in `{table}`{index} does not decode: attribute `title`: expected a string, found nothing (the attribute is missing)"#
        )
    };
    let book_error = named("Book", "");
    let text = |r: Result<_, Error>| match r {
        Err(e @ Error::ItemDecode(_)) => e.to_string(),
        other => panic!("expected an ItemDecode error, got {other:?}"),
    };
    // get, query, scan, count is unaffected.
    assert_eq!(
        text(db.get::<Book>(("s1", 6_u32)).await.map(drop)),
        book_error
    );
    assert_eq!(
        text(db.query::<Book>("s1").all().await.map(drop)),
        book_error
    );
    assert_eq!(text(db.scan::<Book>().all().await.map(drop)), book_error);
    let streamed: Result<Vec<Book>, Error> = db.query::<Book>("s1").stream().try_collect().await;
    assert_eq!(text(streamed.map(drop)), book_error);
    assert_eq!(
        text(db.scan::<Book>().page(10, None).await.map(drop)),
        book_error
    );
    assert_eq!(db.query::<Book>("s1").count().await.unwrap(), 4);
    // An index query names the index.
    assert_eq!(
        text(db.query_index(Book::by_aisle(), "A").all().await.map(drop)),
        named("Book", " (index `by-aisle`)")
    );
    assert_eq!(
        text(
            db.query_index(Book::by_aisle(), "A")
                .fetch_full()
                .all()
                .await
                .map(drop)
        ),
        named("Book", " (index `by-aisle`)")
    );
    // A collection query names the collection.
    assert_eq!(
        text(db.collection::<Catalog>("s1").all().await.map(drop)),
        named("Catalog", "")
    );
    assert_eq!(
        text(
            db.get_collection::<Catalog>(BookKey::from(("s1", 6_u32)))
                .await
                .map(drop)
        ),
        named("Catalog", "")
    );
    // Batch get and read transaction.
    let read = db.batch_get().key::<Book>(("s1", 6_u32)).await.unwrap();
    assert_eq!(text(read.get::<Book>(("s1", 6_u32)).map(drop)), book_error);
    let mut reads = db.transact_get();
    let slot = reads.get::<Book>(("s1", 6_u32));
    let results = reads.await.unwrap();
    assert_eq!(text(results.get(slot).map(drop)), book_error);
    // The old item a write returns.
    let replaced = db.put(&book("s1", 6, "A", 1)).returning_old().await;
    assert_eq!(text(replaced.map(drop)), book_error);
    put_corrupt_book(&db).await;
    let updated = db
        .update::<Book>(("s1", 6_u32))
        .set(Book::price(), 2)
        .returning_new()
        .await;
    assert_eq!(text(updated.map(drop)), book_error);
    let updated = db
        .update::<Book>(("s1", 6_u32))
        .set(Book::price(), 3)
        .returning_old()
        .await;
    assert_eq!(text(updated.map(drop)), book_error);
    let deleted = db.delete_key::<Book>(("s1", 6_u32)).await;
    assert_eq!(text(deleted.map(drop)), book_error);
    // The item a failed condition found (the model's table: the error does not know the namespace).
    put_corrupt_book(&db).await;
    let failed = db
        .put(&book("s1", 6, "A", 1))
        .if_not_exists()
        .await
        .unwrap_err();
    assert_eq!(
        failed.conditional_item::<Book>().unwrap_err().to_string(),
        named("Book", "").replace(&table, "catalog")
    );
});

/// The pages of `n` a read gives, each page's items mapped by `id`.
async fn paged_ids<T, F, Fut>(n: usize, page: F, id: impl Fn(&T) -> i64) -> Vec<Vec<i64>>
where
    F: Fn(Option<dynomodel::Cursor>) -> Fut,
    Fut: std::future::Future<Output = dynomodel::Result<dynomodel::Page<T>>>,
{
    let pages = super::cursors::pages(n, page).await;
    pages
        .iter()
        .map(|page| page.iter().map(&id).collect())
        .collect()
}

dual_test!(members_pages_of_n_hold_n_of_the_member, |t| {
    let db = catalog_db(&t).await;
    let book = |b: &Book| i64::from(b.id);
    let bicycle = |b: &Bicycle| i64::from(b.id);
    // Store s1 holds books 1, 3, 5 between bicycles 2 and 4; one item evaluated per request, so
    // most requests find no book, or no bicycle: each page still holds n of its member, and the
    // last no token.
    let books = || db.query::<Book>("s1").page_size(1);
    let read = paged_ids(1, |c| books().page(1, c), book).await;
    assert_eq!(read, [[1], [3], [5]]);
    let read = paged_ids(2, |c| books().page(2, c), book).await;
    assert_eq!(read, [vec![1, 3], vec![5]]);
    let bicycles = || db.query::<Bicycle>("s1").page_size(1);
    let read = paged_ids(1, |c| bicycles().page(1, c), bicycle).await;
    assert_eq!(read, [[2], [4]]);
    let read = paged_ids(1, |c| db.scan::<Bicycle>().page_size(1).page(1, c), bicycle).await;
    assert_eq!(read, [[2], [4]]);
    // With the user's filter too, and on an index filtered on the server (aisle A: books 1 and 3,
    // bicycle 2 between them by price).
    let dear = || books().filter(Book::price().ge(20));
    let read = paged_ids(1, |c| dear().page(1, c), book).await;
    assert_eq!(read, [[3], [5]]);
    let aisle = || db.query_index(Book::by_aisle(), "A").page_size(1);
    let read = paged_ids(1, |c| aisle().page(1, c), book).await;
    assert_eq!(read, [[1], [3]]);
    // A collection's pages hold every member.
    let catalog = |c: &Catalog| match c {
        Catalog::Book(b) => i64::from(b.id),
        Catalog::Bicycle(b) => -i64::from(b.id),
    };
    let everything = || db.collection::<Catalog>("s1");
    let read = paged_ids(2, |c| everything().page(2, c), catalog).await;
    assert_eq!(read, [vec![1, -2], vec![3, -4], vec![5]]);

    // A member's lenient pages: a bad book counts, and the cursor after it holds its key.
    put_corrupt_book(&db).await;
    let lenient = |b: &Decoded<Book>| match b {
        Ok(b) => i64::from(b.id),
        Err(bad) => match &bad.key["id"] {
            AttributeValue::N(id) => -id.to_string().parse::<i64>().unwrap(),
            other => panic!("an id {other:?}"),
        },
    };
    let desc = || db.query::<Book>("s1").desc().page_size(1).lenient();
    let read = paged_ids(1, |c| desc().page(1, c), lenient).await;
    assert_eq!(read, [[-6], [5], [3], [1]]);
});
