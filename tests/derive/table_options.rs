//! `#[ttl]` and the table options (`tags`, `stream`, `table_class`, `deletion_protection`): what
//! they put in the schema and how a ttl field is stored.

use std::time::{Duration, SystemTime};

use chrono::{DateTime, TimeZone, Utc};
use dynomodel::backend::{StreamSpecification, StreamViewType, TableClass, Tag};
use dynomodel::{AttributeValue, Model};

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(
    table = "sessions",
    tags(team = "payments", "cost-center" = "42", r#type = "", "user:env" = "prod / eu-west-1"),
    stream = "new_and_old_images",
    table_class = "standard_infrequent_access",
    deletion_protection
)]
struct Session {
    #[hash_key]
    id: String,
    #[ttl]
    #[dynomodel(rename = "expiresAt")]
    expires: DateTime<Utc>,
}

#[derive(Model, Debug, Clone, PartialEq)]
struct SystemTimed {
    #[hash_key]
    id: String,
    #[ttl]
    expires: Option<SystemTime>,
}

#[derive(Model, Debug, Clone, PartialEq)]
struct Counted {
    #[hash_key]
    id: String,
    #[ttl]
    expires: u64,
}

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(stream = "keys_only", table_class = "standard")]
struct Plain {
    #[hash_key]
    id: String,
}

#[test]
fn table_options_fill_the_schema() {
    let schema = Session::schema();
    assert_eq!(
        schema.tags,
        [
            Tag::new("team", "payments"),
            Tag::new("cost-center", "42"),
            Tag::new("type", ""),
            Tag::new("user:env", "prod / eu-west-1"),
        ]
    );
    assert_eq!(
        schema.stream_specification,
        Some(StreamSpecification::enabled(
            StreamViewType::NewAndOldImages
        ))
    );
    assert_eq!(
        schema.table_class,
        Some(TableClass::StandardInfrequentAccess)
    );
    assert_eq!(schema.deletion_protection_enabled, Some(true));

    let plain = Plain::schema();
    assert!(plain.tags.is_empty());
    assert_eq!(
        plain.stream_specification,
        Some(StreamSpecification::enabled(StreamViewType::KeysOnly))
    );
    assert_eq!(plain.table_class, Some(TableClass::Standard));
    assert_eq!(plain.deletion_protection_enabled, None);
    // Nothing declared: DynamoDB's defaults, sent as absent members.
    let none = Counted::schema();
    assert_eq!(
        (
            none.stream_specification,
            none.table_class,
            none.deletion_protection_enabled
        ),
        (None, None, None)
    );
}

#[test]
fn the_ttl_attribute_is_exposed() {
    assert_eq!(Session::TTL_ATTRIBUTE, Some("expiresAt"));
    assert_eq!(SystemTimed::TTL_ATTRIBUTE, Some("expires"));
    assert_eq!(Counted::TTL_ATTRIBUTE, Some("expires"));
    assert_eq!(Plain::TTL_ATTRIBUTE, None);
    // A ttl field is not a key: the schema defines only the hash key.
    assert_eq!(Session::schema().attribute_definitions.len(), 1);
}

#[test]
fn ttl_fields_are_whole_epoch_seconds() {
    let at = Utc.with_ymd_and_hms(2023, 11, 14, 22, 13, 20).unwrap();
    let session = Session {
        id: "s1".into(),
        expires: at + chrono::Duration::milliseconds(750),
    };
    let item = session.to_item().unwrap();
    assert_eq!(item["expiresAt"], AttributeValue::N(1_700_000_000.into()));
    // The fraction is dropped on write, so the value reads back at the whole second.
    let back = Session::from_item(item).unwrap();
    assert_eq!(back.expires, at);

    let timed = SystemTimed {
        id: "t".into(),
        expires: Some(SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000)),
    };
    let item = timed.to_item().unwrap();
    assert_eq!(item["expires"], AttributeValue::N(1_700_000_000.into()));
    assert_eq!(SystemTimed::from_item(item).unwrap(), timed);
    // None: no attribute, the item never expires.
    let never = SystemTimed {
        id: "t".into(),
        expires: None,
    };
    let item = never.to_item().unwrap();
    assert!(!item.contains_key("expires"));
    assert_eq!(SystemTimed::from_item(item).unwrap(), never);

    let counted = Counted {
        id: "c".into(),
        expires: 1_700_000_000,
    };
    let item = counted.to_item().unwrap();
    assert_eq!(item["expires"], AttributeValue::N(1_700_000_000.into()));
    let err = Counted::from_item(dynomodel::Item::from([(
        "id".to_owned(),
        AttributeValue::S("c".into()),
    )]))
    .unwrap_err();
    assert_eq!(err.path, "expires");
}
