//! The mapper's typed reads on every target: `db.get`, `db.query` and `db.scan` decode their models
//! from the attributes the backend hands over (`Backend::get_item_into`, `query_into`, `scan_into`:
//! from the stored form on the engine, from the returned items through `AwsBackend`'s defaults),
//! with exactly the plain operations' results: the same items, pages, missing items, conversion
//! errors naming the attribute, consumed capacity, other errors.

use std::borrow::Cow;

use dynomodel::backend::{
    GetItemInput, ItemSink, PutItemInput, QueryInput, QueryOutput, ReturnConsumedCapacity,
    ScanInput, Select,
};
use dynomodel::{AttributeValue, CapacityExt, Db, Error, Item, Model, PrimaryKey};

use super::*;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "typed")]
struct Profile {
    #[hash_key]
    pk: String,
    #[range_key]
    sk: i64,
    name: String,
    nick: Option<String>,
    score: i64,
    active: bool,
}

fn profile(sk: i64) -> Profile {
    Profile {
        pk: "user".into(),
        sk,
        name: format!("Customer {sk}"),
        nick: (sk % 2 == 0).then(|| format!("n{sk}")),
        score: 100 + sk,
        active: sk % 3 == 0,
    }
}

async fn profiles_db(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Profile>());
    db.create_schema::<Profile>().await.unwrap();
    db
}

/// Collects what a typed read hands over, as `Item`s.
#[derive(Default)]
struct Collect(Vec<Item>);

impl ItemSink for Collect {
    fn item(&mut self, attributes: &mut dyn Iterator<Item = (Cow<'_, str>, AttributeValue)>) {
        self.0
            .push(attributes.map(|(n, v)| (n.into_owned(), v)).collect());
    }
}

dual_test!(typed_gets_decode_what_get_item_returns, |t| {
    let db = profiles_db(&t).await;
    for sk in 0..4 {
        db.put(&profile(sk)).await.unwrap();
    }
    for sk in 0..4 {
        let read = db.get::<Profile>(("user", sk)).consistent().await.unwrap();
        assert_eq!(read, Some(profile(sk)));
    }
    assert_eq!(db.get::<Profile>(("user", 9)).await.unwrap(), None);

    // An attribute no field stores is ignored; a stored attribute of the wrong type is a
    // conversion error naming it.
    let table = db.table_name::<Profile>();
    let mut item = profile(7).to_item().unwrap();
    item.insert("extra".into(), AttributeValue::Bool(true));
    let put = |item: Item| PutItemInput {
        table_name: table.clone(),
        item,
        ..Default::default()
    };
    t.backend().put_item(put(item.clone())).await.unwrap();
    let read = db.get::<Profile>(("user", 7)).consistent().await.unwrap();
    assert_eq!(read, Some(profile(7)));
    item.insert("score".into(), AttributeValue::S("many".into()));
    t.backend().put_item(put(item)).await.unwrap();
    let err = db
        .get::<Profile>(("user", 7))
        .consistent()
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::ItemDecode(e) if e.error.path == "score"),
        "{err:?}"
    );

    // The capacity of a typed read is reported as a plain one's.
    let (read, consumed) = db
        .get::<Profile>(("user", 1))
        .consistent()
        .with_capacity()
        .await
        .unwrap();
    assert_eq!(read, Some(profile(1)));
    let units = consumed
        .table(&table)
        .and_then(|c| c.read_capacity_units.or(c.capacity_units));
    assert_eq!(units, Some(1.0));

    // Errors are get_item's: a missing table.
    let err = t
        .db()
        .clone()
        .with_namespace("no-such-namespace-")
        .get::<Profile>(("user", 1))
        .await
        .unwrap_err();
    assert!(matches!(err, Error::ResourceNotFound { .. }), "{err:?}");
});

dual_test!(get_item_into_hands_over_get_item_s_item, |t| {
    let db = profiles_db(&t).await;
    db.put(&profile(2)).await.unwrap();
    let key = |sk: i64| ProfileKey {
        pk: "user".into(),
        sk,
    };
    let inputs = [
        GetItemInput {
            table_name: db.table_name::<Profile>(),
            key: key(2).to_key_item().unwrap(),
            consistent_read: Some(true),
            return_consumed_capacity: Some(ReturnConsumedCapacity::Total),
            ..Default::default()
        },
        GetItemInput {
            table_name: db.table_name::<Profile>(),
            key: key(3).to_key_item().unwrap(),
            consistent_read: Some(true),
            ..Default::default()
        },
        // A projection: the item handed over is the projected one.
        GetItemInput {
            table_name: db.table_name::<Profile>(),
            key: key(2).to_key_item().unwrap(),
            consistent_read: Some(true),
            projection_expression: Some("#n, score".into()),
            expression_attribute_names: Some([("#n".into(), "name".into())].into()),
            ..Default::default()
        },
    ];
    for input in inputs {
        let mut plain = t.backend().get_item(input.clone()).await.unwrap();
        let mut sink = Collect::default();
        let typed = t
            .backend()
            .get_item_into(input.clone(), &mut sink)
            .await
            .unwrap();
        assert_eq!(sink.0, plain.item.take().into_iter().collect::<Vec<_>>());
        assert_eq!(typed.item, None);
        assert_eq!(
            typed.consumed_capacity.is_some(),
            plain.consumed_capacity.is_some()
        );
    }
    // A key of the wrong type fails as get_item does.
    let input = GetItemInput {
        table_name: db.table_name::<Profile>(),
        key: Item::from([
            ("pk".to_string(), AttributeValue::S("user".into())),
            ("sk".to_string(), AttributeValue::S("2".into())),
        ]),
        ..Default::default()
    };
    let plain = t.backend().get_item(input.clone()).await.unwrap_err();
    let typed = t
        .backend()
        .get_item_into(input, &mut Collect::default())
        .await
        .unwrap_err();
    assert_eq!(plain.to_string(), typed.to_string());
});

dual_test!(
    typed_queries_and_scans_decode_what_query_and_scan_return,
    |t| {
        let db = profiles_db(&t).await;
        for sk in 0..12 {
            db.put(&profile(sk)).await.unwrap();
        }
        let all: Vec<Profile> = (0..12).map(profile).collect();
        let query = || db.query::<Profile>("user").consistent();
        assert_eq!(query().all().await.unwrap(), all);
        assert_eq!(query().page_size(5).all().await.unwrap(), all);
        let reversed: Vec<Profile> = all.iter().rev().cloned().collect();
        assert_eq!(query().desc().page_size(4).all().await.unwrap(), reversed);
        assert_eq!(query().limit(3).all().await.unwrap(), all[..3]);
        let page = query().page_size(5).page(5, None).await.unwrap();
        assert_eq!(page.items, all[..5]);
        let next = query().page_size(5).page(5, page.next).await.unwrap();
        assert_eq!(next.items, all[5..10]);
        let streamed: Vec<Profile> =
            futures::TryStreamExt::try_collect(query().page_size(7).stream())
                .await
                .unwrap();
        assert_eq!(streamed, all);
        // A filter: the backend builds the items, the sink decodes them as they come.
        let filtered = query()
            .filter(Profile::score().gt(105))
            .all()
            .await
            .unwrap();
        assert_eq!(filtered, all[6..]);
        let mut scanned = db.scan::<Profile>().page_size(5).all().await.unwrap();
        scanned.sort_by_key(|p| p.sk);
        assert_eq!(scanned, all);

        // The capacity of a typed query is reported as a plain one's.
        let table = db.table_name::<Profile>();
        let (read, consumed) = query().all().with_capacity().await.unwrap();
        assert_eq!(read, all);
        let units = consumed
            .table(&table)
            .and_then(|c| c.read_capacity_units.or(c.capacity_units));
        assert_eq!(units, Some(1.0));

        // A stored attribute of the wrong type is an error naming it and the item, as before.
        let mut item = profile(20).to_item().unwrap();
        item.insert("score".into(), AttributeValue::S("many".into()));
        t.backend()
            .put_item(PutItemInput {
                table_name: table.clone(),
                item,
                ..Default::default()
            })
            .await
            .unwrap();
        for err in [
            query().all().await.unwrap_err(),
            db.scan::<Profile>().all().await.unwrap_err(),
        ] {
            assert!(
                matches!(&err, Error::ItemDecode(e) if e.error.path == "score" && !e.key.is_empty()),
                "{err:?}"
            );
        }
    }
);

/// One page of `query_into` against `query` (or `scan_into` against `scan`): the same items
/// through the sink and the same output otherwise.
fn same_page(
    plain: dynomodel::Result<QueryOutput>,
    typed: dynomodel::Result<QueryOutput>,
    sink: Collect,
) {
    match (plain, typed) {
        (Ok(mut plain), Ok(typed)) => {
            assert_eq!(sink.0, plain.items.take().unwrap_or_default());
            assert_eq!(typed.items, None);
            assert_eq!(typed.count, plain.count);
            assert_eq!(typed.scanned_count, plain.scanned_count);
            assert_eq!(typed.last_evaluated_key, plain.last_evaluated_key);
            assert_eq!(typed.consumed_capacity, plain.consumed_capacity);
        }
        (Err(plain), Err(typed)) => assert_eq!(plain.to_string(), typed.to_string()),
        (plain, typed) => panic!("{plain:?} against {typed:?}"),
    }
}

dual_test!(
    query_into_and_scan_into_hand_over_query_and_scan_s_items,
    |t| {
        let db = profiles_db(&t).await;
        for sk in 0..9 {
            db.put(&profile(sk)).await.unwrap();
        }
        let table = db.table_name::<Profile>();
        let query = |f: &dyn Fn(&mut QueryInput)| {
            let mut input = QueryInput {
                table_name: table.clone(),
                key_condition_expression: Some("pk = :pk".into()),
                expression_attribute_values: Some(
                    [(":pk".to_string(), AttributeValue::S("user".into()))].into(),
                ),
                consistent_read: Some(true),
                ..Default::default()
            };
            f(&mut input);
            input
        };
        let after_4 = ProfileKey {
            pk: "user".into(),
            sk: 4,
        }
        .to_key_item()
        .unwrap();
        let queries = [
            query(&|_| {}),
            query(&|q| q.limit = Some(4)),
            query(&|q| {
                q.scan_index_forward = Some(false);
                q.exclusive_start_key = Some(after_4.clone());
                q.limit = Some(3);
                q.return_consumed_capacity = Some(ReturnConsumedCapacity::Total);
            }),
            query(&|q| q.select = Some(Select::Count)),
            query(&|q| {
                q.filter_expression = Some("score > :s".into());
                q.expression_attribute_values
                    .get_or_insert_with(Default::default)
                    .insert(":s".into(), AttributeValue::N(104.into()));
            }),
            query(&|q| q.projection_expression = Some("sk, score".into())),
            query(&|q| q.table_name = "no-such-table".into()),
        ];
        for input in queries {
            let plain = t.backend().query(input.clone()).await;
            let mut sink = Collect::default();
            let typed = t.backend().query_into(input, &mut sink).await;
            same_page(plain, typed, sink);
        }
        let scan = |f: &dyn Fn(&mut ScanInput)| {
            let mut input = ScanInput {
                table_name: table.clone(),
                consistent_read: Some(true),
                ..Default::default()
            };
            f(&mut input);
            input
        };
        let scans = [
            scan(&|_| {}),
            scan(&|s| {
                s.limit = Some(5);
                s.return_consumed_capacity = Some(ReturnConsumedCapacity::Total);
            }),
            scan(&|s| s.select = Some(Select::Count)),
            scan(&|s| s.projection_expression = Some("pk, sk".into())),
            scan(&|s| s.segment = Some(1)),
        ];
        for input in scans {
            let plain = t.backend().scan(input.clone()).await;
            let mut sink = Collect::default();
            let typed = t.backend().scan_into(input, &mut sink).await;
            same_page(plain, typed, sink);
        }
    }
);

dual_test!(
    typed_queries_name_the_key_of_the_item_that_fails_wherever_it_is_in_the_page,
    |t| {
        let db = profiles_db(&t).await;
        let table = db.table_name::<Profile>();
        // The first, a middle and the last item of a page of five: each read alone fails, naming
        // its own key (a page converted whole reads the key before the decoder takes the item).
        for bad in [0, 2, 4] {
            let pk = format!("user{bad}");
            for sk in 0..5 {
                let mut item = Profile {
                    pk: pk.clone(),
                    ..profile(sk)
                }
                .to_item()
                .unwrap();
                if sk == bad {
                    item.insert("score".into(), AttributeValue::S("many".into()));
                }
                t.backend()
                    .put_item(PutItemInput {
                        table_name: table.clone(),
                        item,
                        ..Default::default()
                    })
                    .await
                    .unwrap();
            }
            let err = db.query::<Profile>(pk.clone()).all().await.unwrap_err();
            assert_eq!(
                err.to_string(),
                format!(
                    r#"the item of Profile {{pk: "{pk}", sk: {bad}}} in `{table}` does not decode: attribute `score`: expected a number (i64), found S"#
                ),
            );
            // A lenient read returns the others and names the bad one by its key.
            let read = db
                .query::<Profile>(pk.clone())
                .lenient()
                .all()
                .await
                .unwrap();
            let failed: Vec<_> = read
                .iter()
                .enumerate()
                .filter_map(|(i, r)| r.as_ref().err().map(|e| (i, e.key.clone())))
                .collect();
            let key = Item::from([
                ("pk".to_owned(), AttributeValue::S(pk.clone())),
                (
                    "sk".to_owned(),
                    AttributeValue::N(bad.to_string().parse().unwrap()),
                ),
            ]);
            assert_eq!(failed, [(bad as usize, key)]);
            assert_eq!(read.iter().filter(|r| r.is_ok()).count(), 4);
        }
    }
);

dual_test!(
    typed_reads_take_integers_at_their_edges_and_name_a_fraction,
    |t| {
        let db = profiles_db(&t).await;
        let table = db.table_name::<Profile>();
        let put = |sk: i64, score: &str| PutItemInput {
            table_name: table.clone(),
            item: {
                let mut item = profile(sk).to_item().unwrap();
                item.insert("score".into(), AttributeValue::N(score.parse().unwrap()));
                item
            },
            ..Default::default()
        };
        // The service sends each number in its canonical text (`-0` as 0, `1E2` as 100, trailing
        // zeros as digits): every one reads into the `i64` field exactly.
        let scores = [
            "9223372036854775807",
            "-9223372036854775808",
            "-0",
            "1E2",
            "-1200",
            "12.0",
        ];
        for (sk, score) in scores.iter().enumerate() {
            t.backend().put_item(put(sk as i64, score)).await.unwrap();
        }
        let expected = [i64::MAX, i64::MIN, 0, 100, -1200, 12];
        let read = db
            .query::<Profile>("user")
            .consistent()
            .all()
            .await
            .unwrap();
        let read: Vec<i64> = read.iter().map(|p| p.score).collect();
        assert_eq!(read, expected);
        let got = db.get::<Profile>(("user", 1)).consistent().await.unwrap();
        assert_eq!(got.map(|p| p.score), Some(i64::MIN));

        // A fraction, and an integer beyond `i64`: errors naming the item's key and the
        // attribute, with the number's text, the same on every target.
        for (sk, bad) in [(2, "2.5"), (4, "9223372036854775808")] {
            t.backend().put_item(put(sk, bad)).await.unwrap();
            let err = db
                .query::<Profile>("user")
                .consistent()
                .all()
                .await
                .unwrap_err();
            assert_eq!(
                err.to_string(),
                format!(
                    r#"the item of Profile {{pk: "user", sk: {sk}}} in `{table}` does not decode: attribute `score`: expected a number (i64), found N {bad}"#
                ),
            );
            let err = db
                .get::<Profile>(("user", sk))
                .consistent()
                .await
                .unwrap_err();
            assert!(err.to_string().contains(&format!("found N {bad}")), "{err}");
            t.backend()
                .put_item(put(sk, scores[sk as usize]))
                .await
                .unwrap();
        }
    }
);
