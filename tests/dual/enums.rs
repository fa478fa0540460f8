//! Attribute types on every target: newtypes, unit enums (as table, index and condition keys), enums
//! with data, the `serde`/`json` field options, `uuid::Uuid` and `serde_json::Value` are written in
//! their documented shapes and read back exactly, numbers included.

use dynomodel::backend::GetItemInput;
use dynomodel::{Attribute, Db, Document, Model, PrimaryKey};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::*;

#[derive(Attribute, Debug, Clone, PartialEq, Eq)]
struct UserId(String);

#[derive(Attribute, Debug, Clone, Copy, PartialEq)]
struct Cents(i64);

#[derive(Attribute, Debug, Clone, Copy, PartialEq, Eq)]
#[dynomodel(rename_all = "snake_case")]
enum Status {
    Active,
    OnHold,
    Shipped,
}

#[derive(Document, Debug, Clone, PartialEq)]
struct Card {
    last4: String,
}

#[derive(Attribute, Debug, Clone, PartialEq)]
enum Payment {
    Cash,
    Card(Card),
    Split(Cents, Option<Cents>),
    Transfer {
        iban: String,
        reference: Option<String>,
    },
}

/// Internally tagged: the variant's name sits beside its fields.
#[derive(Attribute, Debug, Clone, PartialEq)]
#[dynomodel(tag = "type", rename_all = "kebab-case")]
enum Event {
    Placed,
    Shipped { carrier: String, parcels: u8 },
    CardCharged(Card),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
enum Channel {
    Web { session: u64 },
    Phone(String),
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
struct Meta {
    channel: Channel,
    weights: Vec<f64>,
    big: u64,
    small: i64,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "orders")]
#[global_index(all("by-status", hash = status, range = total))]
struct Order {
    #[hash_key]
    user: UserId,
    #[range_key]
    id: uuid::Uuid,
    status: Status,
    total: Cents,
    payment: Payment,
    history: Vec<Payment>,
    events: Vec<Event>,
    #[dynomodel(serde)]
    meta: Meta,
    #[dynomodel(json)]
    raw: Meta,
    doc: serde_json::Value,
}

fn order(n: u128, status: Status, total: i64, payment: Payment) -> Order {
    let meta = Meta {
        channel: Channel::Web { session: 7 },
        weights: vec![0.1, 1e-100, 123456.789, -2.5],
        big: u64::MAX,
        small: i64::MIN,
    };
    Order {
        user: UserId("ada".into()),
        id: uuid::Uuid::from_u128(n),
        status,
        total: Cents(total),
        payment,
        history: vec![
            Payment::Cash,
            Payment::Split(Cents(1), None),
            Payment::Card(Card {
                last4: "4242".into(),
            }),
        ],
        events: vec![
            Event::Placed,
            Event::Shipped {
                carrier: "ups".into(),
                parcels: 2,
            },
            Event::CardCharged(Card {
                last4: "4242".into(),
            }),
        ],
        raw: Meta {
            channel: Channel::Phone("+33".into()),
            ..meta.clone()
        },
        meta,
        doc: json!({
            "n": [0, -1, 1.5, 0.1, 1e125, u64::MAX, i64::MIN],
            "nested": {"s": "x", "t": true, "null": null, "empty": [], "obj": {}},
        }),
    }
}

async fn orders_db(t: &Dual) -> Db {
    let db = t.namespaced_db();
    t.register_table(&db.table_name::<Order>());
    db.create_schema::<Order>().await.unwrap();
    db
}

dual_test!(enums_and_newtypes_round_trip_in_their_shapes, |t| {
    let db = orders_db(&t).await;
    let transfer = Payment::Transfer {
        iban: "FR76".into(),
        reference: None,
    };
    let first = order(1, Status::Active, 1250, transfer);
    db.put(&first).await.unwrap();
    assert_eq!(
        db.get::<Order>(first.key()).await.unwrap(),
        Some(first.clone())
    );

    // The stored shapes, as the backend holds them.
    let raw = t
        .backend()
        .get_item(GetItemInput {
            table_name: db.table_name::<Order>(),
            key: first.key().to_key_item().unwrap(),
            consistent_read: Some(true),
            ..Default::default()
        })
        .await
        .unwrap()
        .item
        .unwrap();
    assert_eq!(raw["user"], s("ada"));
    assert_eq!(raw["id"], s("00000000-0000-0000-0000-000000000001"));
    assert_eq!(raw["status"], s("active"));
    assert_eq!(raw["total"], num("1250"));
    assert_eq!(
        raw["payment"].to_string(),
        r#"{"M":{"Transfer":{"M":{"iban":{"S":"FR76"}}}}}"#
    );
    assert_eq!(
        raw["history"].to_string(),
        r#"{"L":[{"S":"Cash"},{"M":{"Split":{"L":[{"N":"1"},{"NULL":true}]}}},{"M":{"Card":{"M":{"last4":{"S":"4242"}}}}}]}"#
    );
    assert_eq!(
        raw["events"].to_string(),
        r#"{"L":[{"M":{"type":{"S":"placed"}}},{"M":{"carrier":{"S":"ups"},"parcels":{"N":"2"},"type":{"S":"shipped"}}},{"M":{"last4":{"S":"4242"},"type":{"S":"card-charged"}}}]}"#
    );
    // `Number` displays positionally; the text of 1e-100 and 1e125 is long.
    let text = |n: &str| n.parse::<dynomodel::Number>().unwrap().to_string();
    let (tiny, huge) = (text("1e-100"), text("1e125"));
    assert_eq!(
        raw["meta"].to_string(),
        r#"{"M":{"big":{"N":"18446744073709551615"},"channel":{"M":{"Web":{"M":{"session":{"N":"7"}}}}},"small":{"N":"-9223372036854775808"},"weights":{"L":[{"N":"0.1"},{"N":"TINY"},{"N":"123456.789"},{"N":"-2.5"}]}}}"#
            .replace("TINY", &tiny)
    );
    assert_eq!(
        raw["raw"],
        s(
            r#"{"channel":{"Phone":"+33"},"weights":[0.1,1e-100,123456.789,-2.5],"big":18446744073709551615,"small":-9223372036854775808}"#
        )
    );
    assert_eq!(
        raw["doc"].to_string(),
        r#"{"M":{"n":{"L":[{"N":"0"},{"N":"-1"},{"N":"1.5"},{"N":"0.1"},{"N":"HUGE"},{"N":"18446744073709551615"},{"N":"-9223372036854775808"}]},"nested":{"M":{"empty":{"L":[]},"null":{"NULL":true},"obj":{"M":{}},"s":{"S":"x"},"t":{"BOOL":true}}}}}"#
            .replace("HUGE", &huge)
    );
});

dual_test!(
    unit_enums_and_newtypes_work_as_keys_and_in_conditions,
    |t| {
        let db = orders_db(&t).await;
        let orders = [
            order(1, Status::Active, 300, Payment::Cash),
            order(2, Status::OnHold, 100, Payment::Cash),
            order(
                3,
                Status::Active,
                200,
                Payment::Card(Card { last4: "1".into() }),
            ),
        ];
        for o in &orders {
            db.put(o).await.unwrap();
        }

        // A unit enum as a GSI partition key, a newtype as its sort key.
        let active: Vec<Order> = db
            .query_index(Order::by_status(), Status::Active)
            .all()
            .await
            .unwrap();
        let totals: Vec<i64> = active.iter().map(|o| o.total.0).collect();
        assert_eq!(totals, [200, 300]);
        let cheap: Vec<Order> = db
            .query_index(Order::by_status(), Status::Active)
            .range(Order::total().lt(Cents(250)))
            .all()
            .await
            .unwrap();
        assert_eq!(cheap.len(), 1);

        // A newtype as the table's partition key, a uuid as its sort key; a filter on an enum with data.
        let by_card: Vec<Order> = db
            .query::<Order>(UserId("ada".into()))
            .filter(Order::payment().ne(Payment::Cash))
            .all()
            .await
            .unwrap();
        assert_eq!(by_card, [orders[2].clone()]);
        let one: Vec<Order> = db
            .query::<Order>(UserId("ada".into()))
            .range(Order::id().eq(uuid::Uuid::from_u128(2)))
            .all()
            .await
            .unwrap();
        assert_eq!(one, [orders[1].clone()]);

        // Conditions and updates take enum operands.
        let shipped: Order = db
            .update::<Order>(orders[0].key())
            .set(Order::status(), Status::Shipped)
            .condition(Order::status().is_in([Status::Active, Status::OnHold]))
            .returning_new()
            .await
            .unwrap();
        assert_eq!(shipped.status, Status::Shipped);
        let err = db
            .update::<Order>(orders[0].key())
            .set(Order::status(), Status::Active)
            .condition(Order::status().eq(Status::OnHold))
            .returning_new()
            .await
            .unwrap_err();
        assert!(err.is_conditional_check_failed(), "{err}");
        let err = db
            .update::<Order>(orders[1].key())
            .set(Order::payment(), Payment::Split(Cents(1), Some(Cents(2))))
            .condition(Order::raw().eq(orders[0].raw.clone()))
            .returning_new()
            .await;
        let updated = err.unwrap();
        assert_eq!(updated.payment, Payment::Split(Cents(1), Some(Cents(2))));
    }
);
