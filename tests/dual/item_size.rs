//! Item sizes on every target: `Model::item_size` is DynamoDB's size of what a put stores, and its
//! capacity figures are what the service charges for writing and reading the item; an item over
//! 400 KB, or over its model's `max_item_size`, is refused before anything is sent, on every write
//! path, with an error naming the item and its largest attributes.

use dynomodel::backend::ScanInput;
use dynomodel::{CapacityExt, Db, Error, ItemTooLarge, Model, MAX_ITEM_SIZE};

use super::*;

/// A note of any size, without a budget.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "notes")]
struct Note {
    #[hash_key]
    id: String,
    body: String,
    #[dynomodel(compress)]
    packed: Option<String>,
}

/// A card kept under one write unit.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "cards", max_item_size = "1KB")]
struct Card {
    #[hash_key]
    id: String,
    text: String,
    #[version]
    version: u64,
}

async fn db_of<M: Model>(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<M>());
    db.create_schema::<M>().await.unwrap();
    db
}

/// How many items the table holds.
async fn count(t: &Dual, table: String) -> usize {
    let input = ScanInput {
        table_name: table,
        consistent_read: Some(true),
        ..Default::default()
    };
    t.backend()
        .scan(input)
        .await
        .unwrap()
        .items
        .map_or(0, |items| items.len())
}

fn too_large(error: Error) -> ItemTooLarge {
    match error {
        Error::ItemTooLarge(e) => *e,
        other => panic!("expected ItemTooLarge, got {other:?}"),
    }
}

dual_test!(item_size_predicts_the_capacity_charged, |t| {
    let db = db_of::<Note>(&t).await;
    for (id, len) in [("small", 10), ("k1", 1010), ("k5", 5000), ("k9", 9000)] {
        let note = Note {
            id: id.into(),
            body: "é".repeat(len / 2),
            packed: None,
        };
        let size = note.item_size().unwrap();
        let ((), put) = db.put(&note).with_capacity().await.unwrap();
        assert_eq!(put.write_units(), size.write_units(), "{id}: {size:?}");
        let (_, strong) = db
            .get::<Note>(id)
            .consistent()
            .with_capacity()
            .await
            .unwrap();
        assert_eq!(
            strong.read_units(),
            size.strongly_consistent_read_units(),
            "{id}"
        );
        let (_, eventual) = db.get::<Note>(id).with_capacity().await.unwrap();
        assert_eq!(
            eventual.read_units(),
            size.eventually_consistent_read_units(),
            "{id}"
        );
    }
    // Compressing a long text brings the item, and its cost, down.
    let text = "a long repetitive body ".repeat(400);
    let plain = Note {
        id: "plain".into(),
        body: text.clone(),
        packed: None,
    };
    let packed = Note {
        id: "packed".into(),
        body: String::new(),
        packed: Some(text),
    };
    let (plain_size, packed_size) = (plain.item_size().unwrap(), packed.item_size().unwrap());
    assert!(
        packed_size.bytes() * 10 < plain_size.bytes(),
        "{packed_size:?} {plain_size:?}"
    );
    let ((), put) = db.put(&packed).with_capacity().await.unwrap();
    assert_eq!(put.write_units(), 1.0);
    assert_eq!(plain_size.write_units(), 9.0);
});

dual_test!(an_item_over_400_kb_is_refused_before_it_is_sent, |t| {
    let db = db_of::<Note>(&t).await;
    let table = db.table_name::<Note>();
    // Exactly the limit is stored: the name and key count.
    let fits = Note {
        id: "fits".into(),
        body: "x".repeat(MAX_ITEM_SIZE - "id".len() - "fits".len() - "body".len()),
        packed: None,
    };
    assert_eq!(fits.item_size().unwrap().bytes(), MAX_ITEM_SIZE);
    db.put(&fits).await.unwrap();

    let big = Note {
        id: "big".into(),
        body: "x".repeat(MAX_ITEM_SIZE),
        packed: Some("small".into()),
    };
    let size = big.item_size().unwrap().bytes();
    let expected = |e: ItemTooLarge| {
        assert_eq!((e.size, e.limit, e.budget), (size, MAX_ITEM_SIZE, false));
        assert_eq!(e.model, "Note");
        assert_eq!(e.table, table);
        assert_eq!(e.key, Item::from([("id".to_owned(), s("big"))]));
        assert_eq!(e.largest[0], ("body".to_owned(), MAX_ITEM_SIZE + 4));
        assert_eq!(e.largest.len(), 3);
        assert!(
            e.to_string().starts_with(&format!(
                r#"the item of Note {{id: "big"}} in `{table}` is {size} bytes, over DynamoDB's item limit of 409600 bytes (400 KB); largest attributes: `body` 409604 bytes, "#
            )),
            "{e}"
        );
    };
    expected(too_large(db.put(&big).await.unwrap_err()));
    expected(too_large(db.save(&mut big.clone()).await.unwrap_err()));
    expected(too_large(db.batch_write().put(&big).await.unwrap_err()));
    expected(too_large(db.transact().put(&big).await.unwrap_err()));
    assert_eq!(
        count(&t, table.clone()).await,
        1,
        "only the item that fits is stored"
    );
});

dual_test!(a_model_budget_is_checked_on_write, |t| {
    let db = db_of::<Card>(&t).await;
    let table = db.table_name::<Card>();
    let card = |id: &str, len: usize| Card {
        id: id.into(),
        text: "y".repeat(len),
        version: 0,
    };
    // What a first save stores besides the text: the names, the key and version 1.
    let overhead = Card {
        version: 1,
        ..card("c1", 0)
    }
    .item_size()
    .unwrap()
    .bytes();
    let mut small = card("c1", 1023 - overhead);
    db.save(&mut small).await.unwrap();
    assert_eq!(small.item_size().unwrap().bytes(), 1023);

    let mut over = Card {
        text: "y".repeat(1024),
        ..small.clone()
    };
    let e = too_large(db.save(&mut over).await.unwrap_err());
    assert_eq!((e.limit, e.budget), (1024, true));
    assert_eq!(e.key, Item::from([("id".to_owned(), s("c1"))]));
    assert!(
        e.to_string()
            .contains("over its model's budget of 1024 bytes (max_item_size)"),
        "{e}"
    );
    assert_eq!(over.version, 1, "a refused save changes nothing");
    let e = too_large(db.batch_write().put(&card("c2", 2000)).await.unwrap_err());
    assert!(e.budget);
    let e = too_large(db.transact().put(&card("c3", 2000)).await.unwrap_err());
    assert!(e.budget);
    assert_eq!(count(&t, table).await, 1);
    let stored = db.get::<Card>("c1").consistent().await.unwrap().unwrap();
    assert_eq!(stored, small);
});

dual_test!(
    a_large_item_with_a_later_flaw_is_refused_for_the_flaw,
    |t| {
        use super::validation::{expect, send};
        use serde_json::{json, Map, Value};

        // ~640 KB of members in one map, then an attribute after it: the engine's one-pass decoder
        // stops building the item about 400 KB in and only checks the rest (`protocol/fast/oversized.rs`),
        // which must still find what the wire refuses before the size.
        let table = t.create_table("bigflaw", ("pk", S), None).await;
        let big: Map<String, Value> = (0..40_000)
            .map(|i| (format!("m{i:05}"), json!({"S": "xxxxxxxxxx"})))
            .collect();
        let put = |late: Value| json!({"TableName": table, "Item": {"pk": {"S": "k"}, "a": {"M": big.clone()}, "z": late}});
        let size = "Item size has exceeded the maximum allowed size";
        expect(
            &t,
            send(&t, "PutItem", put(json!({"S": "x"}))).await,
            size,
            Some(size),
        );
        let null =
            "One or more parameter values were invalid: Null attribute value types must have \
                the value of true";
        // KNOWN DIFFERENCE: DynamoDB Local answers the size here, before the `NULL` rule; the
        // engine answers what its wire decoder finds first, as it did before the one pass stopped
        // building such items (the documentation orders neither). What this test holds is that
        // the flaw after the point where building stopped is still found.
        expect(
            &t,
            send(&t, "PutItem", put(json!({"NULL": false}))).await,
            null,
            Some(size),
        );
        assert_eq!(count(&t, table.clone()).await, 0);
    }
);
