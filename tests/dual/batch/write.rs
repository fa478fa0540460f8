//! BatchWriteItem.

use super::*;

const MAP_VALUE: &str = "Map value must satisfy constraint: [Member must have length less than or \
                         equal to 25, Member must have length greater than or equal to 1]";

/// How real DynamoDB prints a put of `{pk: S}` in a constraint message (captured from the service).
fn java_put(pk: &str) -> String {
    format!(
        "WriteRequest(putRequest=PutRequest(item={{pk=AttributeValue(s={pk}, n=null, b=null, iNT=null, \
         dECIMAL=null, dOUBLE=null, sS=null, nS=null, bS=null, iNTSET=null, dECIMALSET=null, \
         dOUBLESET=null, m=null, l=null, nULL=null, bOOL=null)}}, workloadProfileName=null), \
         deleteRequest=null)"
    )
}

/// `1 validation error detected: Value '<echo>' at 'requestItems' failed to satisfy constraint: <c>`.
fn on_request_items(echo: &str, constraint: &str) -> String {
    format!(
        "1 validation error detected: Value '{echo}' at 'requestItems' failed to satisfy constraint: \
         {constraint}"
    )
}

dual_test!(batch_write_puts_and_deletes_across_tables, |t| {
    let (hash, range) = two_tables(&t).await;
    write(&t, vec![(hash.as_str(), vec![put(h("gone"))])])
        .await
        .unwrap();
    let mut one = r("a", 1);
    one.insert("v".into(), s("one"));
    let out = write(
        &t,
        vec![
            (
                hash.as_str(),
                vec![put(h("x")), del(h("gone")), del(h("never"))],
            ),
            (range.as_str(), vec![put(one.clone()), put(r("a", 2))]),
        ],
    )
    .await
    .unwrap();
    assert!(out.unprocessed_items.is_empty());
    assert_eq!(read(&t, &hash, h("x")).await, Some(h("x")));
    assert_eq!(read(&t, &hash, h("gone")).await, None);
    assert_eq!(read(&t, &range, r("a", 1)).await, Some(one));
    // A put replaces the whole item; the same key in two tables is two items.
    write(
        &t,
        vec![
            (hash.as_str(), vec![put(h("a"))]),
            (range.as_str(), vec![put(r("a", 1))]),
        ],
    )
    .await
    .unwrap();
    assert_eq!(read(&t, &range, r("a", 1)).await, Some(r("a", 1)));
    assert_eq!(read(&t, &hash, h("a")).await, Some(h("a")));
});

dual_test!(batch_write_request_constraints, |t| {
    let (hash, range) = two_tables(&t).await;
    // KNOWN DIFFERENCE: every request-level constraint below has DynamoDB Local's own wording.
    t.expect_error_differs(
        write(&t, vec![]).await,
        "ValidationException",
        "The requestItems parameter is required for BatchWriteItem",
        "BatchWriteItem cannot have a null or no requests set",
    );
    t.expect_error_differs(
        write(&t, vec![("ab", vec![put(h("a"))])]).await,
        "ValidationException",
        &on_request_items(&format!("{{ab=[{}]}}", java_put("a")), MAP_KEYS),
        LOCAL_BAD_NAME,
    );
    t.expect_error_differs(
        write(&t, vec![(hash.as_str(), vec![])]).await,
        "ValidationException",
        &on_request_items(&format!("{{{hash}=[]}}"), MAP_VALUE),
        &format!("The batch write request list for a table cannot be null or empty: {hash}"),
    );
    // 26 writes in one table break the list's own constraint (the service's echo of all 26), not the
    // request's limit.
    let writes: Vec<_> = (0..26).map(|i| put(h(&format!("bw-{i}")))).collect();
    let echo: Vec<String> = (0..26).map(|i| java_put(&format!("bw-{i}"))).collect();
    t.expect_error_differs(
        write(&t, vec![(hash.as_str(), writes)]).await,
        "ValidationException",
        &on_request_items(&format!("{{{hash}=[{}]}}", echo.join(", ")), MAP_VALUE),
        "Too many items requested for the BatchWriteItem call",
    );
    // 26 tables break the map's length (they need not exist: the constraint comes first).
    let names = by_name(
        (0..26)
            .map(|i| (t.table_name(&format!("m{i:02}")), ()))
            .collect(),
    );
    let echo: Vec<String> = names
        .keys()
        .map(|name| format!("{name}=[{}]", java_put("a")))
        .collect();
    t.expect_error_differs(
        write(
            &t,
            names
                .keys()
                .map(|n| (n.as_str(), vec![put(h("a"))]))
                .collect(),
        )
        .await,
        "ValidationException",
        &on_request_items(
            &format!("{{{}}}", echo.join(", ")),
            "Member must have length less than or equal to 25",
        ),
        "Too many items requested for the BatchWriteItem call",
    );
    // 25 writes in all are fine; 26 across two tables exceed the request's limit, on both.
    let hashes = |n: usize| (0..n).map(|i| put(h(&i.to_string()))).collect::<Vec<_>>();
    let ranges = |n: usize| (0..n).map(|i| put(r("a", i as i64))).collect::<Vec<_>>();
    write(&t, vec![(hash.as_str(), hashes(25))]).await.unwrap();
    write(
        &t,
        vec![(hash.as_str(), hashes(13)), (range.as_str(), ranges(12))],
    )
    .await
    .unwrap();
    t.expect_error(
        write(
            &t,
            vec![(hash.as_str(), hashes(13)), (range.as_str(), ranges(13))],
        )
        .await,
        "ValidationException",
        "Too many items requested for the BatchWriteItem call",
    );
    // Before the tables: a missing one does not hide it.
    let missing = missing_table(&t);
    t.expect_error(
        write(
            &t,
            vec![(hash.as_str(), hashes(13)), (missing.as_str(), hashes(13))],
        )
        .await,
        "ValidationException",
        "Too many items requested for the BatchWriteItem call",
    );
});

dual_test!(batch_write_values_and_sizes_before_tables, |t| {
    let (hash, _) = two_tables(&t).await;
    let missing = missing_table(&t);
    let mut empty_set = h("a");
    empty_set.insert("d".into(), AttributeValue::Ss(vec![]));
    let sized = |size: usize| item([("pk", s("a")), ("d", s(&"x".repeat(size - 4)))]);
    for table in [&hash, &missing] {
        t.expect_error(
            write(
                &t,
                vec![(table, vec![put(h("ok")), put(empty_set.clone())])],
            )
            .await,
            "ValidationException",
            "One or more parameter values were invalid: An string set  may not be empty",
        );
        t.expect_error(
            write(&t, vec![(table, vec![put(sized(409_601))])]).await,
            "ValidationException",
            "Item size has exceeded the maximum allowed size",
        );
    }
    write(&t, vec![(hash.as_str(), vec![put(sized(409_600))])])
        .await
        .unwrap();
    expect_not_found(
        &t,
        write(&t, vec![(missing.as_str(), vec![put(h("a"))])]).await,
    );
});

dual_test!(batch_write_keys_against_the_schema, |t| {
    let (hash, range) = two_tables(&t).await;
    const LOCAL_TYPE: &str = "One or more parameter values were invalid: Type mismatch for key";
    const LOCAL_COUNT: &str = "The number of conditions on the keys is invalid";
    let cases: Vec<(&str, WriteRequest, &str)> = vec![
        // KNOWN DIFFERENCE: DynamoDB Local words each key fault of a put as PutItem does (and an
        // empty item its own way); the service says MISMATCH for all of them in a batch.
        (
            hash.as_str(),
            put(Item::new()),
            "Item to put in PutItem cannot be null",
        ),
        (
            hash.as_str(),
            put(item([("x", s("a"))])),
            "One of the required keys was not given a value",
        ),
        (
            range.as_str(),
            put(h("a")),
            "One of the required keys was not given a value",
        ),
        (hash.as_str(), put(item([("pk", num("1"))])), LOCAL_TYPE),
        // KNOWN DIFFERENCE: deletes get DeleteItem's texts, which differ on DynamoDB Local.
        (hash.as_str(), del(item([("pk", num("1"))])), LOCAL_TYPE),
        (range.as_str(), del(h("a")), LOCAL_COUNT),
        (
            hash.as_str(),
            del(item([("pk", s("a")), ("x", s("b"))])),
            LOCAL_COUNT,
        ),
    ];
    for (table, request, local) in cases {
        let valid = if table == hash { h("ok") } else { r("ok", 1) };
        let result = write(&t, vec![(table, vec![put(valid), request])]).await;
        t.expect_error_differs(result, "ValidationException", MISMATCH, local);
    }
    // KNOWN DIFFERENCE: key sizes, as for PutItem.
    t.expect_error_differs(
        write(&t, vec![(hash.as_str(), vec![put(h(&"k".repeat(2049)))])]).await,
        "ValidationException",
        "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size \
         limit of2048 bytes",
        "Hash primary key values must be under 2048 bytes, and range primary key values must be \
         under 1024 bytes",
    );
    for request in [put(h("")), del(h(""))] {
        t.expect_error(
            write(&t, vec![(hash.as_str(), vec![request])]).await,
            "ValidationException",
            "One or more parameter values are not valid. The AttributeValue for a key attribute \
             cannot contain an empty string value. Key: pk",
        );
    }
    assert_eq!(read(&t, &hash, h("ok")).await, None);
    assert_eq!(read(&t, &range, r("ok", 1)).await, None);
});

dual_test!(batch_write_one_write_per_item, |t| {
    let (hash, range) = two_tables(&t).await;
    let mut other = h("a");
    other.insert("v".into(), s("2"));
    for writes in [
        vec![put(h("a")), put(other.clone())],
        vec![del(h("a")), del(h("a"))],
        vec![put(h("a")), del(h("a"))],
        vec![del(h("a")), put(other.clone())],
        vec![put(h("b")), put(h("a")), put(h("c")), del(h("a"))],
    ] {
        t.expect_error(
            write(&t, vec![(hash.as_str(), writes)]).await,
            "ValidationException",
            DUPLICATES,
        );
    }
    assert_eq!(read(&t, &hash, h("b")).await, None);
    // The same key in two tables is two items.
    write(
        &t,
        vec![
            (hash.as_str(), vec![put(h("a"))]),
            (range.as_str(), vec![del(r("a", 1))]),
        ],
    )
    .await
    .unwrap();
});

dual_test!(batch_write_a_rejected_batch_writes_nothing, |t| {
    let (hash, range) = two_tables(&t).await;
    write(&t, vec![(hash.as_str(), vec![put(h("keep"))])])
        .await
        .unwrap();
    let missing = missing_table(&t);
    // The hash table sorts first; each fault is in a later table.
    let result = write(
        &t,
        vec![
            (hash.as_str(), vec![put(h("new")), del(h("keep"))]),
            (range.as_str(), vec![put(r("a", 1)), del(r("a", 1))]),
        ],
    )
    .await;
    t.expect_error(result, "ValidationException", DUPLICATES);
    let result = write(
        &t,
        vec![
            (hash.as_str(), vec![put(h("new")), del(h("keep"))]),
            (range.as_str(), vec![put(h("no-sk"))]),
        ],
    )
    .await;
    assert_eq!(result.unwrap_err().code(), "ValidationException");
    expect_not_found(
        &t,
        write(
            &t,
            vec![
                (hash.as_str(), vec![put(h("new")), del(h("keep"))]),
                (missing.as_str(), vec![put(h("a"))]),
            ],
        )
        .await,
    );
    assert_eq!(read(&t, &hash, h("keep")).await, Some(h("keep")));
    assert_eq!(read(&t, &hash, h("new")).await, None);
    assert_eq!(read(&t, &range, r("a", 1)).await, None);
    // A missing table and a bad key in another table: the first by name (on DynamoDB Local, by
    // request order).
    let early_missing = t.table_name("0-missing");
    for (absent, missing_sorts_first) in [(&early_missing, true), (&missing, false)] {
        let result = write(
            &t,
            vec![
                (range.as_str(), vec![put(h("no-sk"))]),
                (absent.as_str(), vec![put(h("a"))]),
            ],
        )
        .await;
        expect_first_fault(
            &t,
            result,
            missing_sorts_first,
            (MISMATCH, "One of the required keys was not given a value"),
        );
    }
});
