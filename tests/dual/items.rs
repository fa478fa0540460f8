//! PutItem, GetItem and DeleteItem with ReturnValues, and the item-size limit.

use dynomodel::backend::*;
use dynomodel::*;

use super::*;

dual_test!(put_get_delete_with_return_values, |t| {
    let table = t.create_table("items", ("pk", S), Some(("sk", N))).await;
    let b = t.backend();
    let key = item([("pk", s("a")), ("sk", num("1"))]);
    let v1 = item([("pk", s("a")), ("sk", num("1")), ("v", s("one"))]);
    let v2 = item([("pk", s("a")), ("sk", num("1")), ("v", s("two"))]);

    let put = |item: Item, rv| PutItemInput {
        table_name: table.clone(),
        item,
        return_values: rv,
        ..Default::default()
    };
    // A fresh put with ALL_OLD returns nothing; a replacing one returns the old item.
    let out = b
        .put_item(put(v1.clone(), Some(ReturnValue::AllOld)))
        .await
        .unwrap();
    assert_eq!(out.attributes, None);
    let out = b
        .put_item(put(v2.clone(), Some(ReturnValue::AllOld)))
        .await
        .unwrap();
    assert_eq!(out.attributes, Some(v1.clone()));
    let out = b
        .put_item(put(v2.clone(), Some(ReturnValue::None)))
        .await
        .unwrap();
    assert_eq!(out.attributes, None);
    let out = b.put_item(put(v2.clone(), None)).await.unwrap();
    assert_eq!(out.attributes, None);

    for consistent_read in [None, Some(true), Some(false)] {
        let got = b
            .get_item(GetItemInput {
                table_name: table.clone(),
                key: key.clone(),
                consistent_read,
                ..Default::default()
            })
            .await
            .unwrap();
        assert_eq!(got.item, Some(v2.clone()));
    }

    let del = |rv| DeleteItemInput {
        table_name: table.clone(),
        key: key.clone(),
        return_values: rv,
        ..Default::default()
    };
    let out = b.delete_item(del(Some(ReturnValue::AllOld))).await.unwrap();
    assert_eq!(out.attributes, Some(v2));
    // Deleting a missing item succeeds and returns nothing.
    let out = b.delete_item(del(Some(ReturnValue::AllOld))).await.unwrap();
    assert_eq!(out.attributes, None);
    let got = b
        .get_item(GetItemInput {
            table_name: table.clone(),
            key: key.clone(),
            consistent_read: Some(true),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(got.item, None);
});

dual_test!(put_and_delete_reject_update_only_return_values, |t| {
    let table = t.create_table("rv", ("pk", S), None).await;
    let b = t.backend();
    let key = item([("pk", s("a"))]);
    for rv in [
        ReturnValue::AllNew,
        ReturnValue::UpdatedOld,
        ReturnValue::UpdatedNew,
    ] {
        let r = b
            .put_item(PutItemInput {
                table_name: table.clone(),
                item: key.clone(),
                return_values: Some(rv),
                ..Default::default()
            })
            .await;
        t.expect_error(
            r,
            "ValidationException",
            "Return values set to invalid value",
        );
        let r = b
            .delete_item(DeleteItemInput {
                table_name: table.clone(),
                key: key.clone(),
                return_values: Some(rv),
                ..Default::default()
            })
            .await;
        t.expect_error(
            r,
            "ValidationException",
            "Return values set to invalid value",
        );
    }
});

dual_test!(item_size_limit_is_409600_bytes, |t| {
    let table = t.create_table("size", ("pk", S), None).await;
    // "pk" + "a" = 3 bytes, "d" = 1 byte: the value gets the rest of 409,600.
    let at_limit = item([("pk", s("a")), ("d", s(&"x".repeat(409_600 - 4)))]);
    assert_eq!(item_size(&at_limit), 409_600);
    t.backend()
        .put_item(PutItemInput {
            table_name: table.clone(),
            item: at_limit.clone(),
            return_values: None,
            ..Default::default()
        })
        .await
        .unwrap();
    let got = t
        .backend()
        .get_item(GetItemInput {
            table_name: table.clone(),
            key: item([("pk", s("a"))]),
            consistent_read: Some(true),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(got.item, Some(at_limit));

    let over = item([("pk", s("b")), ("d", s(&"x".repeat(409_600 - 3)))]);
    assert_eq!(item_size(&over), 409_601);
    let r = t
        .backend()
        .put_item(PutItemInput {
            table_name: table.clone(),
            item: over,
            return_values: None,
            ..Default::default()
        })
        .await;
    t.expect_error(
        r,
        "ValidationException",
        "Item size has exceeded the maximum allowed size",
    );

    // Multi-byte UTF-8 counts in bytes: 204,799 × "é" (2 bytes) + 3 + 1 bytes = 409,602.
    let utf8 = item([("pk", s("c")), ("d", s(&"é".repeat(204_799)))]);
    assert_eq!(item_size(&utf8), 409_602);
    let r = t
        .backend()
        .put_item(PutItemInput {
            table_name: table,
            item: utf8,
            return_values: None,
            ..Default::default()
        })
        .await;
    t.expect_error(
        r,
        "ValidationException",
        "Item size has exceeded the maximum allowed size",
    );
});
