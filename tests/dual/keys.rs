//! Key validation: missing, wrong type, empty, too long (in bytes), extra attributes.

use dynomodel::backend::*;
use dynomodel::*;

use super::*;

fn get(table: &str, key: Item) -> GetItemInput {
    GetItemInput {
        table_name: table.into(),
        key,
        consistent_read: None,
        ..Default::default()
    }
}

fn put(table: &str, item: Item) -> PutItemInput {
    PutItemInput {
        table_name: table.into(),
        item,
        return_values: None,
        ..Default::default()
    }
}

const SCHEMA_MISMATCH: &str = "The provided key element does not match the schema";

dual_test!(keys_must_match_the_schema, |t| {
    let table = t.create_table("keys", ("pk", S), Some(("sk", N))).await;
    let b = t.backend();
    // GetItem/DeleteItem: (key, DynamoDB Local's message). Real DynamoDB says SCHEMA_MISMATCH for all.
    for (key, local) in [
        // KNOWN DIFFERENCE: a missing key element is "The number of conditions on the keys is invalid"
        // on DynamoDB Local.
        (
            item([("pk", s("a"))]),
            "The number of conditions on the keys is invalid",
        ),
        // KNOWN DIFFERENCE: a wrongly typed key element gets a truncated put-style message (no key name,
        // no types) on DynamoDB Local.
        (
            item([("pk", s("a")), ("sk", s("1"))]),
            "One or more parameter values were invalid: Type mismatch for key",
        ),
        // KNOWN DIFFERENCE: so is an extra attribute in the key.
        (
            item([("pk", s("a")), ("sk", num("1")), ("x", s("extra"))]),
            "The number of conditions on the keys is invalid",
        ),
    ] {
        let r = b.get_item(get(&table, key.clone())).await;
        t.expect_error_differs(r, "ValidationException", SCHEMA_MISMATCH, local);
        let r = b
            .delete_item(DeleteItemInput {
                table_name: table.clone(),
                key,
                return_values: None,
                ..Default::default()
            })
            .await;
        t.expect_error_differs(r, "ValidationException", SCHEMA_MISMATCH, local);
    }
    // PutItem names the offending key.
    let r = b.put_item(put(&table, item([("pk", s("a"))]))).await;
    // KNOWN DIFFERENCE: DynamoDB Local does not name the missing key.
    t.expect_error_differs(
        r,
        "ValidationException",
        "One or more parameter values were invalid: Missing the key sk in the item",
        "One of the required keys was not given a value",
    );
    let r = b
        .put_item(put(&table, item([("pk", num("1")), ("sk", num("1"))])))
        .await;
    // KNOWN DIFFERENCE: DynamoDB Local truncates the message after "for key".
    t.expect_error_differs(
        r,
        "ValidationException",
        "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N",
        "One or more parameter values were invalid: Type mismatch for key",
    );
});

dual_test!(empty_string_keys_are_rejected, |t| {
    let table = t.create_table("emptykey", ("pk", S), Some(("sk", S))).await;
    let b = t.backend();
    let r = b
        .put_item(put(&table, item([("pk", s("a")), ("sk", s(""))])))
        .await;
    t.expect_error(r, "ValidationException", "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: sk");
    let r = b
        .get_item(get(&table, item([("pk", s("")), ("sk", s("a"))])))
        .await;
    t.expect_error(r, "ValidationException", "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: pk");
});

dual_test!(key_size_limits_count_utf8_bytes, |t| {
    let table = t.create_table("keysize", ("pk", S), Some(("sk", B))).await;
    let b = t.backend();
    let ok = item([
        ("pk", s(&"k".repeat(2048))),
        ("sk", AttributeValue::B(vec![7; 1024])),
    ]);
    b.put_item(put(&table, ok.clone())).await.unwrap();
    let got = b.get_item(get(&table, ok.clone())).await.unwrap();
    assert_eq!(got.item, Some(ok));
    // 1024 × "é" is 1024 characters but 2048 bytes: fine; one more byte is not.
    let utf8 = item([
        ("pk", s(&"é".repeat(1024))),
        ("sk", AttributeValue::B(vec![1])),
    ]);
    b.put_item(put(&table, utf8)).await.unwrap();

    // KNOWN DIFFERENCE: DynamoDB Local has its own key-size message; real DynamoDB (as copied by dynalite
    // and moto) says "…limit of2048 bytes" (sic, no space) and "Aggregated size of all range keys…".
    let local = "Hash primary key values must be under 2048 bytes, and range primary key values must be under 1024 bytes";
    let hash = "One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of2048 bytes";
    let range = "One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of 1024 bytes";
    let r = b
        .put_item(put(
            &table,
            item([
                ("pk", s(&"k".repeat(2049))),
                ("sk", AttributeValue::B(vec![1])),
            ]),
        ))
        .await;
    t.expect_error_differs(r, "ValidationException", hash, local);
    let r = b
        .put_item(put(
            &table,
            item([
                ("pk", s(&format!("{}k", "é".repeat(1024)))),
                ("sk", AttributeValue::B(vec![1])),
            ]),
        ))
        .await;
    t.expect_error_differs(r, "ValidationException", hash, local);
    let r = b
        .put_item(put(
            &table,
            item([("pk", s("a")), ("sk", AttributeValue::B(vec![1; 1025]))]),
        ))
        .await;
    t.expect_error_differs(r, "ValidationException", range, local);
    // The limit applies to reads too.
    let r = b
        .get_item(get(
            &table,
            item([
                ("pk", s(&"k".repeat(2049))),
                ("sk", AttributeValue::B(vec![1])),
            ]),
        ))
        .await;
    t.expect_error_differs(r, "ValidationException", hash, local);
});

dual_test!(multibyte_keys_round_trip, |t| {
    let table = t.create_table("utf8", ("pk", S), Some(("sk", S))).await;
    let b = t.backend();
    for (pk, sk) in [("é", "a"), ("ｱ", "😀"), ("😀", "\u{0}x")] {
        let it = item([("pk", s(pk)), ("sk", s(sk)), ("v", s(pk))]);
        b.put_item(put(&table, it.clone())).await.unwrap();
        let got = b
            .get_item(get(&table, item([("pk", s(pk)), ("sk", s(sk))])))
            .await
            .unwrap();
        assert_eq!(got.item, Some(it));
    }
});
