//! BatchWriteItem.

use dynomodel::backend::{Backend, DescribeTableInput, QueryInput};
use dynomodel::{AttributeValue, Error, Item, MAX_ITEM_SIZE};

use super::super::indexes::{full, schema};
use super::super::{assert_validation, backend_with, empty_key, ss, INVALID, MISMATCH};
use super::{
    del, h, item, items, n, put, r, s, two_tables, write, MemBackend, DUPLICATES, MAP_KEYS,
};

const MAP_VALUE: &str = "Map value must satisfy constraint: [Member must have length less than or \
                         equal to 25, Member must have length greater than or equal to 1]";

/// How the service prints an S attribute value (captured from the live service).
fn java_s(v: &str) -> String {
    format!(
        "AttributeValue(s={v}, n=null, b=null, iNT=null, dECIMAL=null, dOUBLE=null, sS=null, nS=null, \
         bS=null, iNTSET=null, dECIMALSET=null, dOUBLESET=null, m=null, l=null, nULL=null, bOOL=null)"
    )
}

fn java_put(pk: &str) -> String {
    format!(
        "WriteRequest(putRequest=PutRequest(item={{pk={}}}, workloadProfileName=null), deleteRequest=null)",
        java_s(pk)
    )
}

async fn count(b: &MemBackend, table: &str) -> i64 {
    b.describe_table(DescribeTableInput {
        table_name: table.into(),
    })
    .await
    .expect("describe")
    .table
    .item_count
}

#[tokio::test]
async fn puts_and_deletes_on_several_tables() {
    let b = two_tables().await;
    write(&b, vec![("hash", vec![put(h("gone"))])])
        .await
        .unwrap();
    let mut v = r("a", 1);
    v.insert("v".into(), s("one"));
    let out = write(
        &b,
        vec![
            ("hash", vec![put(h("x")), del(h("gone")), del(h("never"))]),
            ("range", vec![put(v.clone()), put(r("a", 2))]),
        ],
    )
    .await
    .unwrap();
    assert!(out.unprocessed_items.is_empty());
    assert_eq!(items(&b, "hash").await, vec![h("x")]);
    assert_eq!(items(&b, "range").await, vec![v, r("a", 2)]);
    // A put replaces the whole item.
    write(&b, vec![("range", vec![put(r("a", 1))])])
        .await
        .unwrap();
    assert_eq!(items(&b, "range").await, vec![r("a", 1), r("a", 2)]);
    // The same key in two tables is two items.
    write(
        &b,
        vec![("hash", vec![put(h("a"))]), ("range", vec![del(r("a", 1))])],
    )
    .await
    .unwrap();
    assert_eq!(count(&b, "range").await, 1);
}

#[tokio::test]
async fn request_constraints_in_the_smithy_form() {
    let b = two_tables().await;
    assert_validation(
        write(&b, vec![]).await,
        "The requestItems parameter is required for BatchWriteItem",
    );
    assert_validation(
        write(&b, vec![("ab", vec![put(h("a"))])]).await,
        &format!(
            "1 validation error detected: Value '{{ab=[{}]}}' at 'requestItems' failed to satisfy \
             constraint: {MAP_KEYS}",
            java_put("a")
        ),
    );
    assert_validation(
        write(&b, vec![("hash", vec![])]).await,
        &format!(
            "1 validation error detected: Value '{{hash=[]}}' at 'requestItems' failed to satisfy \
             constraint: {MAP_VALUE}"
        ),
    );
    // 26 writes in one table: the map-value constraint, not "Too many items requested".
    let writes: Vec<_> = (0..26).map(|i| put(h(&format!("bw-{i}")))).collect();
    let echo: Vec<String> = (0..26).map(|i| java_put(&format!("bw-{i}"))).collect();
    assert_validation(
        write(&b, vec![("hash", writes)]).await,
        &format!(
            "1 validation error detected: Value '{{hash=[{}]}}' at 'requestItems' failed to satisfy \
             constraint: {MAP_VALUE}",
            echo.join(", ")
        ),
    );
    // Both at once, keys first; one report for the map however many names or lists are at fault.
    assert_validation(
        write(&b, vec![("a;", vec![]), ("b", vec![])]).await,
        &format!(
            "2 validation errors detected: Value '{{a;=[], b=[]}}' at 'requestItems' failed to satisfy \
             constraint: {MAP_KEYS}; Value '{{a;=[], b=[]}}' at 'requestItems' failed to satisfy \
             constraint: {MAP_VALUE}"
        ),
    );
    // More than 25 tables: the map's own length.
    let tables: Vec<String> = (0..26).map(|i| format!("t{i:02}")).collect();
    let many = write(
        &b,
        tables
            .iter()
            .map(|t| (t.as_str(), vec![put(h("a"))]))
            .collect(),
    )
    .await;
    let echo: Vec<String> = tables
        .iter()
        .map(|t| format!("{t}=[{}]", java_put("a")))
        .collect();
    assert_validation(
        many,
        &format!(
            "1 validation error detected: Value '{{{}}}' at 'requestItems' failed to satisfy \
             constraint: Member must have length less than or equal to 25",
            echo.join(", ")
        ),
    );
}

#[tokio::test]
async fn at_most_25_writes_across_tables() {
    let b = two_tables().await;
    let hashes = |n: usize| (0..n).map(|i| put(h(&i.to_string()))).collect::<Vec<_>>();
    let ranges = |n: usize| (0..n).map(|i| put(r("a", i as i64))).collect::<Vec<_>>();
    write(&b, vec![("hash", hashes(25))]).await.unwrap();
    write(&b, vec![("hash", hashes(13)), ("range", ranges(12))])
        .await
        .unwrap();
    assert_validation(
        write(&b, vec![("hash", hashes(13)), ("range", ranges(13))]).await,
        "Too many items requested for the BatchWriteItem call",
    );
    // Checked before the tables: a missing table does not hide it.
    assert_validation(
        write(&b, vec![("hash", hashes(13)), ("missing", hashes(13))]).await,
        "Too many items requested for the BatchWriteItem call",
    );
}

#[tokio::test]
async fn attribute_values_and_item_size_come_before_the_table() {
    let b = two_tables().await;
    let mut bad = h("a");
    bad.insert("d".into(), ss(&[]));
    for table in ["hash", "missing"] {
        assert_validation(
            write(&b, vec![(table, vec![put(h("ok")), put(bad.clone())])]).await,
            &format!("{INVALID}An string set  may not be empty"),
        );
        assert_validation(
            write(
                &b,
                vec![(table, vec![del(item(&[("pk", ss(&["a", "a"]))]))])],
            )
            .await,
            &format!("{INVALID}Input collection [a, a] contains duplicates."),
        );
    }
    // 409,600 bytes is the largest item: "pk" + "a" = 3 bytes, "d" = 1 byte, the value the rest.
    let sized = |size: usize| {
        let mut it = h("a");
        it.insert("d".into(), s(&"x".repeat(size - 4)));
        it
    };
    write(&b, vec![("hash", vec![put(sized(MAX_ITEM_SIZE))])])
        .await
        .unwrap();
    for table in ["hash", "missing"] {
        assert_validation(
            write(&b, vec![(table, vec![put(sized(MAX_ITEM_SIZE + 1))])]).await,
            "Item size has exceeded the maximum allowed size",
        );
    }
    // With valid values, the missing table.
    let missing = write(&b, vec![("missing", vec![put(h("a"))])]).await;
    assert_eq!(
        missing.unwrap_err(),
        dynomodel::Error::resource_not_found("Requested resource not found")
    );
}

#[tokio::test]
async fn keys_against_the_key_schema() {
    let b = two_tables().await;
    let cases: Vec<(&str, dynomodel::backend::WriteRequest, String)> = vec![
        // Puts: PutItem's "Missing the key" and "Type mismatch for key" become MISMATCH in a batch.
        ("hash", put(Item::new()), MISMATCH.into()),
        ("hash", put(item(&[("x", s("a"))])), MISMATCH.into()),
        ("hash", put(item(&[("pk", n("1"))])), MISMATCH.into()),
        ("range", put(h("a")), MISMATCH.into()),
        (
            "range",
            put(item(&[("pk", s("a")), ("sk", s("1"))])),
            MISMATCH.into(),
        ),
        // Deletes: GetItem/DeleteItem's texts.
        ("hash", del(Item::new()), MISMATCH.into()),
        (
            "hash",
            del(item(&[("pk", s("a")), ("x", s("b"))])),
            MISMATCH.into(),
        ),
        ("range", del(h("a")), MISMATCH.into()),
        ("hash", del(item(&[("pk", n("1"))])), MISMATCH.into()),
        // Sizes and empty values keep their own texts.
        (
            "hash",
            put(h(&"k".repeat(2049))),
            format!("{INVALID}Size of hashkey has exceeded the maximum size limit of2048 bytes"),
        ),
        (
            "range",
            del(item(&[("pk", s(&"k".repeat(2049))), ("sk", n("1"))])),
            format!("{INVALID}Size of hashkey has exceeded the maximum size limit of2048 bytes"),
        ),
        ("hash", put(h("")), empty_key("pk")),
        ("hash", del(h("")), empty_key("pk")),
    ];
    for (table, request, message) in cases {
        // After a valid write, which must not be made either.
        let valid = if table == "hash" { h("ok") } else { r("ok", 1) };
        let result = write(&b, vec![(table, vec![put(valid), request])]).await;
        assert_validation(result, &message);
    }
    assert!(items(&b, "hash").await.is_empty());
    assert!(items(&b, "range").await.is_empty());
}

#[tokio::test]
async fn one_write_per_item() {
    let b = two_tables().await;
    let mut other = h("a");
    other.insert("v".into(), s("2"));
    for writes in [
        vec![put(h("a")), put(other.clone())],
        vec![del(h("a")), del(h("a"))],
        vec![put(h("a")), del(h("a"))],
        vec![del(h("a")), put(other.clone())],
        vec![put(h("b")), put(h("a")), put(h("c")), del(h("a"))],
    ] {
        assert_validation(write(&b, vec![("hash", writes)]).await, DUPLICATES);
    }
    // Numbers compare by value: 1 and 1.0 are one sort key.
    assert_validation(
        write(
            &b,
            vec![(
                "range",
                vec![
                    put(r("a", 1)),
                    del(item(&[("pk", s("a")), ("sk", n("1.0"))])),
                ],
            )],
        )
        .await,
        DUPLICATES,
    );
    assert!(items(&b, "hash").await.is_empty());
    assert!(items(&b, "range").await.is_empty());
}

#[tokio::test]
async fn a_rejected_batch_writes_nothing_in_any_table() {
    let b = two_tables().await;
    write(
        &b,
        vec![
            ("hash", vec![put(h("keep"))]),
            ("range", vec![put(r("keep", 1))]),
        ],
    )
    .await
    .unwrap();
    let before = (items(&b, "hash").await, items(&b, "range").await);
    // "hash" sorts before "range", so its writes would come first; each fault is in "range" or later.
    let faults: Vec<Vec<(&str, Vec<dynomodel::backend::WriteRequest>)>> = vec![
        vec![
            ("hash", vec![put(h("new")), del(h("keep"))]),
            ("range", vec![put(h("no-sk"))]),
        ],
        vec![
            ("hash", vec![put(h("new"))]),
            ("range", vec![put(r("a", 1)), del(r("a", 1))]),
        ],
        vec![
            ("hash", vec![del(h("keep"))]),
            ("zzz-missing", vec![put(h("a"))]),
        ],
        vec![
            ("hash", vec![del(h("keep"))]),
            ("range", vec![put(r("a", 1))]),
            ("range2", vec![put(h("a"))]),
        ],
    ];
    let not_found = Error::resource_not_found("Requested resource not found");
    let errors = [
        Error::validation(MISMATCH),
        Error::validation(DUPLICATES),
        not_found.clone(),
        not_found,
    ];
    for (batch, error) in faults.into_iter().zip(errors) {
        assert_eq!(write(&b, batch).await, Err(error));
        assert_eq!((items(&b, "hash").await, items(&b, "range").await), before);
    }
}

#[tokio::test]
async fn tables_are_checked_one_by_one_in_name_order() {
    let b = two_tables().await;
    let bad = || vec![put(item(&[("pk", n("1"))]))];
    let result = write(
        &b,
        vec![("aaa-missing", vec![put(h("a"))]), ("hash", bad())],
    )
    .await;
    assert_eq!(
        result,
        Err(Error::resource_not_found("Requested resource not found"))
    );
    let result = write(
        &b,
        vec![("hash", bad()), ("zzz-missing", vec![put(h("a"))])],
    )
    .await;
    assert_validation(result, MISMATCH);
    // Duplicates in a table come after that table's keys but before the next table's.
    let result = write(
        &b,
        vec![
            ("hash", vec![put(h("a")), del(h("a"))]),
            ("range", vec![put(h("no-sk"))]),
        ],
    )
    .await;
    assert_validation(result, DUPLICATES);
}

#[tokio::test]
async fn index_keys_are_checked_as_in_put_item() {
    let b = backend_with(schema()).await;
    let mut wrong = full(1, "g", 1);
    wrong.insert("gs".into(), s("1"));
    assert_validation(
        write(&b, vec![("tbl", vec![put(full(0, "g", 0)), put(wrong)])]).await,
        &format!("{INVALID}Type mismatch for Index Key gs Expected: N Actual: S IndexName: gsi1"),
    );
    let mut empty = full(1, "g", 1);
    empty.insert("l".into(), s(""));
    assert_validation(
        write(&b, vec![("tbl", vec![put(empty)])]).await,
        "One or more parameter values are not valid. A value specified for a secondary index key is \
         not supported. The AttributeValue for a key attribute cannot contain an empty string value. \
         IndexName: lsi1, IndexKey: l",
    );
    assert!(items(&b, "tbl").await.is_empty());
}

/// The `sk` values an index query returns, in order.
async fn index_sks(
    b: &MemBackend,
    index: &str,
    condition: &str,
    value: AttributeValue,
) -> Vec<String> {
    let out = b
        .query(QueryInput {
            table_name: "tbl".into(),
            index_name: Some(index.into()),
            key_condition_expression: Some(condition.into()),
            expression_attribute_values: Some(item(&[(":v", value)])),
            ..Default::default()
        })
        .await
        .expect("query");
    out.items
        .unwrap_or_default()
        .iter()
        .filter_map(|i| i.get("sk").map(ToString::to_string))
        .collect()
}

#[tokio::test]
async fn writes_maintain_every_index() {
    let b = backend_with(schema()).await;
    let writes = (0..5)
        .map(|i| {
            put(full(
                i,
                if i % 2 == 0 { "even" } else { "odd" },
                10 - i as i64,
            ))
        })
        .collect();
    write(&b, vec![("tbl", writes)]).await.unwrap();
    let sk = |i: usize| n(&i.to_string()).to_string();
    assert_eq!(
        index_sks(&b, "gsi1", "g = :v", s("even")).await,
        vec![sk(4), sk(2), sk(0)]
    );
    assert_eq!(index_sks(&b, "gall", "g = :v", s("odd")).await.len(), 2);
    assert_eq!(
        index_sks(&b, "lsi1", "pk = :v", s("a")).await,
        (0..5).map(sk).collect::<Vec<_>>()
    );
    // Delete two, move one to the other GSI partition, drop the LSI key of another (sparse).
    let mut moved = full(2, "odd", 99);
    moved.remove("l");
    let key = |i: usize| item(&[("pk", s("a")), ("sk", n(&i.to_string()))]);
    write(
        &b,
        vec![("tbl", vec![del(key(0)), del(key(1)), put(moved)])],
    )
    .await
    .unwrap();
    assert_eq!(
        index_sks(&b, "gsi1", "g = :v", s("even")).await,
        vec![sk(4)]
    );
    assert_eq!(
        index_sks(&b, "gsi1", "g = :v", s("odd")).await,
        vec![sk(3), sk(2)]
    );
    assert_eq!(
        index_sks(&b, "lsi1", "pk = :v", s("a")).await,
        vec![sk(3), sk(4)]
    );
    let d = b
        .describe_table(DescribeTableInput {
            table_name: "tbl".into(),
        })
        .await
        .unwrap()
        .table;
    assert_eq!(d.item_count, 3);
    let counts: Vec<i64> = d
        .global_secondary_indexes
        .iter()
        .map(|i| i.item_count)
        .collect();
    assert_eq!(counts, vec![3, 3]);
    assert_eq!(d.local_secondary_indexes[0].item_count, 2);
}
