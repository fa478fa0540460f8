//! Secondary indexes: their part of the schema, the index handles, the generated item structs of
//! KEYS_ONLY and INCLUDE indexes, and optional fields as keys of sparse indexes.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};
use dynomodel::backend::{BillingMode, KeyType, ProvisionedThroughput, ScalarAttributeType};
use dynomodel::{AttributeValue, Item, Model, Number};

/// flywheel's Tweet: every index form at once.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(
    table = "itweets",
    throughput(read = 10, write = 2),
    rename_all = "camelCase"
)]
#[global_index(all("ts-index", hash = city, range = ts), throughput(read = 5, write = 1))]
#[global_index(keys("rt-index", hash = city, range = retweets))]
#[global_index(include("like-index", hash = city, range = likes, includes = [body_text]))]
#[global_index(keys("CityOnly", hash = city))]
/// Public, so that `missing_docs` checks the generated item structs and index handles have docs.
pub struct ITweet {
    /// Author.
    #[hash_key]
    pub userid: String,
    /// Tweet id.
    #[range_key]
    pub id: String,
    /// City.
    pub city: String,
    /// Posted at.
    #[index(all = "ts-local")]
    #[dynomodel(epoch_seconds)]
    pub ts: DateTime<Utc>,
    /// Retweets.
    #[index(keys = "rt-local")]
    pub retweets: i64,
    /// Likes.
    #[index(include = "like-local", includes = [body_text, tags])]
    pub likes: i64,
    /// Body, stored as `bodyText`.
    pub body_text: String,
    /// Tags.
    pub tags: BTreeSet<String>,
}

#[test]
fn schema_holds_every_index() {
    use dynomodel::backend::{Projection, ProjectionType};
    let schema = ITweet::schema();
    let definitions: Vec<(&str, ScalarAttributeType)> = schema
        .attribute_definitions
        .iter()
        .map(|d| (d.attribute_name.as_str(), d.attribute_type))
        .collect();
    assert_eq!(
        definitions,
        [
            ("userid", ScalarAttributeType::S),
            ("id", ScalarAttributeType::S),
            ("ts", ScalarAttributeType::N),
            ("retweets", ScalarAttributeType::N),
            ("likes", ScalarAttributeType::N),
            ("city", ScalarAttributeType::S),
        ]
    );
    let locals: Vec<(&str, &str, ProjectionType)> = schema
        .local_secondary_indexes
        .iter()
        .map(|i| {
            assert_eq!(i.key_schema[0].attribute_name, "userid");
            (
                i.index_name.as_str(),
                i.key_schema[1].attribute_name.as_str(),
                i.projection.projection_type,
            )
        })
        .collect();
    assert_eq!(
        locals,
        [
            ("ts-local", "ts", ProjectionType::All),
            ("rt-local", "retweets", ProjectionType::KeysOnly),
            ("like-local", "likes", ProjectionType::Include),
        ]
    );
    assert_eq!(
        schema.local_secondary_indexes[2].projection,
        Projection {
            projection_type: ProjectionType::Include,
            non_key_attributes: vec!["bodyText".into(), "tags".into()],
        }
    );
    let globals = &schema.global_secondary_indexes;
    assert_eq!(globals.len(), 4);
    assert_eq!(globals[0].index_name, "ts-index");
    assert_eq!(
        globals[0].key_schema,
        [
            dynomodel::backend::KeySchemaElement::hash("city"),
            dynomodel::backend::KeySchemaElement::range("ts")
        ]
    );
    assert_eq!(
        globals[0].provisioned_throughput,
        Some(ProvisionedThroughput {
            read_capacity_units: 5,
            write_capacity_units: 1
        })
    );
    // No throughput of its own: the table's.
    assert_eq!(
        globals[1].provisioned_throughput,
        Some(ProvisionedThroughput {
            read_capacity_units: 10,
            write_capacity_units: 2
        })
    );
    assert_eq!(globals[2].projection.non_key_attributes, ["bodyText"]);
    assert_eq!(globals[3].key_schema.len(), 1);
    assert_eq!(globals[3].key_schema[0].key_type, KeyType::Hash);
}

#[test]
fn on_demand_indexes_have_no_throughput() {
    #[derive(Model)]
    #[global_index(all("by-city", hash = city))]
    struct Place {
        #[hash_key]
        id: String,
        city: String,
    }
    let schema = Place::schema();
    assert_eq!(schema.billing_mode, Some(BillingMode::PayPerRequest));
    assert_eq!(
        schema.global_secondary_indexes[0].provisioned_throughput,
        None
    );
    assert!(schema.local_secondary_indexes.is_empty());
}

#[test]
fn index_handles_know_names_keys_and_item_types() {
    use dynomodel::{convert::EpochSeconds, Index, Projected, ProjectionType};
    // The sort key is an `epoch_seconds` date: its handle type encodes it as N, like the field.
    let ts: Index<ITweet, String, EpochSeconds<DateTime<Utc>>, ITweet> = ITweet::ts_index();
    assert_eq!(
        (ts.name(), ts.hash_key(), ts.range_key()),
        ("ts-index", "city", Some("ts"))
    );
    let rt: Index<ITweet, String, i64, ITweetRtIndexItem> = ITweet::rt_index();
    assert_eq!(rt.projection(), ProjectionType::KeysOnly);
    let local: Index<ITweet, String, i64, ITweetLikeLocalItem> = ITweet::like_local();
    assert!(local.is_local());
    assert_eq!(local.hash_key(), "userid");
    let city: Index<ITweet, String, (), ITweetCityOnlyItem> = ITweet::city_only();
    assert_eq!(city.range_key(), None);

    // The KEYS_ONLY item holds the table keys and the index keys, decoded by attribute name.
    let mut item = Item::new();
    item.insert("userid".into(), AttributeValue::S("abc".into()));
    item.insert("id".into(), AttributeValue::S("1".into()));
    item.insert("city".into(), AttributeValue::S("Paris".into()));
    item.insert("retweets".into(), AttributeValue::N(Number::from(7)));
    let entry = ITweetRtIndexItem::from_projection(item.clone()).unwrap();
    assert_eq!(
        entry,
        ITweetRtIndexItem {
            userid: "abc".into(),
            id: "1".into(),
            city: "Paris".into(),
            retweets: 7
        }
    );
    assert_eq!(entry.key(), ITweetKey::from(("abc", "1")));
    // The INCLUDE item also needs its included fields; a missing one is an error naming it.
    item.insert("likes".into(), AttributeValue::N(Number::from(1)));
    let err = ITweetLikeLocalItem::from_projection(item).unwrap_err();
    assert!(err.to_string().contains("bodyText"), "{err}");
}

/// An optional attribute can key a global index: items without it are not in the index (sparse).
#[derive(dynomodel::Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "orders")]
#[global_index(keys("open-index", hash = open_status, range = id))]
struct Order {
    #[hash_key]
    id: String,
    open_status: Option<String>,
}

#[test]
fn optional_fields_key_sparse_indexes() {
    let schema = Order::schema();
    let definition = schema
        .attribute_definitions
        .iter()
        .find(|d| d.attribute_name == "open_status")
        .expect("the index key is defined");
    assert_eq!(definition.attribute_type, dynomodel::ScalarAttributeType::S);
    let closed = Order {
        id: "1".into(),
        open_status: None,
    };
    assert!(!closed.to_item().unwrap().contains_key("open_status"));
    assert_eq!(Order::open_index().name(), "open-index");
}
