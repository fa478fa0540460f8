//! Single-table entities on every target: users, orders and order lines in one table with a
//! global index; the entity attribute written by put, transaction and batch writes and checked on
//! reads; one typed query reading a user's whole partition; unknown entity types reported.

use chrono::NaiveDate;
use dynomodel::backend::PutItemInput;
use dynomodel::{Collection, Db, Error, Model};

use super::*;

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "app", entity = "User")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("PROFILE", joined), range_key)]
struct User {
    userid: String,
    joined: NaiveDate,
    name: String,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "app", entity = "Order")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", date, id), range_key)]
#[composite(gpk = ("STATUS", status))]
#[global_index(all("by-status", hash = gpk, range = sk))]
struct Order {
    userid: String,
    date: NaiveDate,
    id: u32,
    status: String,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "app", entity = "OrderLine")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("LINE", date, order, line), range_key)]
struct OrderLine {
    userid: String,
    date: NaiveDate,
    order: u32,
    line: u32,
    sku: String,
}

#[derive(Collection, Debug, PartialEq)]
enum UserData {
    User(User),
    Order(Order),
    Line(OrderLine),
}

/// The same members, with a variant for entity types they do not know.
#[derive(Collection, Debug, PartialEq)]
enum UserDataOrUnknown {
    User(User),
    Order(Order),
    Line(OrderLine),
    #[dynomodel(unknown)]
    Unknown(Item),
}

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 1, d).unwrap()
}

fn user(userid: &str) -> User {
    User {
        userid: userid.into(),
        joined: day(1),
        name: format!("user {userid}"),
    }
}

fn order(userid: &str, d: u32, id: u32, status: &str) -> Order {
    Order {
        userid: userid.into(),
        date: day(d),
        id,
        status: status.into(),
    }
}

fn line(d: u32, order: u32, line: u32) -> OrderLine {
    OrderLine {
        userid: "u1".into(),
        date: day(d),
        order,
        line,
        sku: format!("sku-{line}"),
    }
}

/// The shared table created from the union, u1 written by a put, a transaction and a batch, u2 by a put.
async fn app_db(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<User>());
    assert!(db.create_collection_schema::<UserData>().await.unwrap());
    assert!(!db.create_collection_schema::<UserData>().await.unwrap());
    db.put(&user("u1")).await.unwrap();
    db.put(&user("u2")).await.unwrap();
    db.transact()
        .put(&order("u1", 5, 7, "open"))
        .put(&order("u1", 2, 3, "shipped"))
        .await
        .unwrap();
    db.batch_write()
        .put_all(&[line(5, 7, 1), line(5, 7, 2)])
        .await
        .unwrap();
    db.put(&order("u2", 4, 1, "open")).await.unwrap();
    db
}

dual_test!(single_table_collection_query, |t| {
    let db = app_db(&t).await;
    let u1 = db.collection::<UserData>("u1").all().await.unwrap();
    assert_eq!(
        u1,
        [
            UserData::Line(line(5, 7, 1)),
            UserData::Line(line(5, 7, 2)),
            UserData::Order(order("u1", 2, 3, "shipped")),
            UserData::Order(order("u1", 5, 7, "open")),
            UserData::User(user("u1")),
        ]
    );
    // Query's paging and ordering apply: one item a page, newest first.
    let mut seen = Vec::new();
    let mut cursor = None;
    loop {
        let page = db
            .collection::<UserData>("u1")
            .desc()
            .page(1, cursor)
            .await
            .unwrap();
        seen.extend(page.items);
        cursor = page.next;
        if cursor.is_none() {
            break;
        }
    }
    assert_eq!(seen.len(), 5);
    assert!(matches!(seen[0], UserData::User(_)));
    // A member's query with a range condition, decoded as the collection: here only orders match.
    let orders = db
        .query::<Order>("u1")
        .range(Order::sk().prefix(()))
        .collection::<UserData>()
        .count()
        .await
        .unwrap();
    assert_eq!(orders, 2);
    // The shared global index, read as the collection.
    let open = db
        .query_index(Order::by_status(), "open")
        .collection::<UserData>()
        .all()
        .await
        .unwrap();
    assert_eq!(open.len(), 2);
});

dual_test!(single_table_entity_attribute_written_and_checked, |t| {
    let db = app_db(&t).await;
    let table_name = db.table_name::<User>();
    let raw = |pk: &str, sk: &str| {
        let (db, table_name) = (db.clone(), table_name.clone());
        let key = item([("pk", s(pk)), ("sk", s(sk))]);
        async move {
            db.backend()
                .get_item(dynomodel::backend::GetItemInput {
                    table_name,
                    key,
                    ..Default::default()
                })
                .await
                .unwrap()
                .item
                .unwrap()
        }
    };
    // Written by put, transaction and batch alike.
    assert_eq!(raw("USER#u1", "PROFILE#2026-01-01").await["_et"], s("User"));
    assert_eq!(
        raw("USER#u1", "ORDER#2026-01-05#0000000007").await["_et"],
        s("Order")
    );
    assert_eq!(
        raw("USER#u1", "LINE#2026-01-05#0000000007#0000000001").await["_et"],
        s("OrderLine")
    );

    // An Order stored at a User's key is not read as a User.
    let mut impostor = order("u3", 1, 1, "open").to_item().unwrap();
    impostor.insert("pk".into(), s("USER#u3"));
    impostor.insert("sk".into(), s("PROFILE#2026-01-01"));
    impostor.insert("name".into(), s("not a user"));
    db.backend()
        .put_item(PutItemInput {
            table_name: table_name.clone(),
            item: impostor,
            ..Default::default()
        })
        .await
        .unwrap();
    let err = db.get::<User>(("u3", day(1))).await.unwrap_err();
    let Error::ItemDecode(decode) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(decode.error.path, "_et");
    assert_eq!(
        err.to_string(),
        format!(
            "the item of User {{pk: \"USER#u3\", sk: \"PROFILE#2026-01-01\"}} in `{table_name}` does not decode: \
             attribute `_et`: expected an item of entity type \"User\", found an item of entity type \"Order\""
        )
    );
});

dual_test!(single_table_unknown_entities_reported, |t| {
    let db = app_db(&t).await;
    db.backend()
        .put_item(PutItemInput {
            table_name: db.table_name::<User>(),
            item: item([
                ("pk", s("USER#u1")),
                ("sk", s("COUPON#1")),
                ("_et", s("Coupon")),
            ]),
            ..Default::default()
        })
        .await
        .unwrap();
    // Without an unknown variant, the read fails naming the entity type and the known ones.
    let err = db.collection::<UserData>("u1").all().await.unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "the item of UserData {{pk: \"USER#u1\", sk: \"COUPON#1\"}} in `{}` does not decode: \
             attribute `_et`: expected an entity type of UserData (User, Order, OrderLine), found an item of entity type \"Coupon\"",
            db.table_name::<User>()
        )
    );
    // With one, the item is returned as it is stored.
    let u1 = db
        .collection::<UserDataOrUnknown>("u1")
        .all()
        .await
        .unwrap();
    assert_eq!(u1.len(), 6);
    let unknown: Vec<_> = u1
        .iter()
        .filter_map(|e| match e {
            UserDataOrUnknown::Unknown(item) => Some(item["sk"].clone()),
            _ => None,
        })
        .collect();
    assert_eq!(unknown, [s("COUPON#1")]);
});

#[test]
fn single_table_schema_is_the_union() {
    let schema = UserData::schema().unwrap();
    assert_eq!(schema.global_secondary_indexes.len(), 1);
    let mut names: Vec<_> = schema
        .attribute_definitions
        .iter()
        .map(|d| d.attribute_name.as_str())
        .collect();
    names.sort_unstable();
    assert_eq!(names, ["gpk", "pk", "sk"]);
}

dual_test!(single_table_update_writes_the_entity_type, |t| {
    let db = app_db(&t).await;
    // An update of a missing item creates nothing; an upsert stores the entity type too, so the
    // item reads back.
    let missing = db
        .update::<User>(("u9", day(1)))
        .set(User::name(), "upserted")
        .await;
    assert!(missing.is_err_and(|e| e.is_item_not_found()));
    db.update::<User>(("u9", day(1)))
        .set(User::name(), "upserted")
        .upsert()
        .await
        .unwrap();
    let upserted = db.get::<User>(("u9", day(1))).await.unwrap().unwrap();
    assert_eq!(upserted.name, "upserted");
    let u9 = db.collection::<UserData>("u9").all().await.unwrap();
    assert_eq!(u9, [UserData::User(upserted)]);
});

dual_test!(single_table_scan_and_migration_plan, |t| {
    let db = app_db(&t).await;
    // A scan of the shared table, each item decoded into its own type.
    let everything = db
        .scan::<User>()
        .collection::<UserData>()
        .all()
        .await
        .unwrap();
    assert_eq!(everything.len(), 7);
    let users = everything
        .iter()
        .filter(|e| matches!(e, UserData::User(_)))
        .count();
    assert_eq!(users, 2);
    // The union is what migrations compare the live table with: nothing to do.
    let plan = db
        .plan_all(&[UserData::definition().unwrap()])
        .await
        .unwrap();
    assert!(plan.is_empty(), "{plan:?}");
});
