//! `#[version]`: the `Model` items the derive generates for the optimistic-locking counter, and their
//! defaults on models without one.

use dynomodel::{AttributeValue, Model, VersionAttribute};

use crate::{n, s, Tweet};

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "accounts")]
struct Account {
    #[hash_key]
    id: String,
    balance: i64,
    #[version]
    #[dynomodel(rename = "rev")]
    version: u64,
}

/// An optional version: `None` until saved.
#[derive(Model, Debug, Clone, PartialEq)]
struct Ledger {
    #[hash_key]
    id: String,
    #[version]
    revision: Option<u32>,
}

/// A version read as 0 (not saved) when the attribute is missing, e.g. from items written before
/// the field existed.
#[derive(Model, Debug, Clone, PartialEq)]
struct Legacy {
    #[hash_key]
    id: String,
    #[version]
    #[dynomodel(default)]
    version: i64,
}

#[test]
fn the_version_attribute_is_named_after_the_field_or_its_rename() {
    assert_eq!(Account::VERSION_ATTRIBUTE, Some("rev"));
    assert_eq!(Ledger::VERSION_ATTRIBUTE, Some("revision"));
    assert_eq!(Tweet::VERSION_ATTRIBUTE, None, "no #[version]: the default");
    // The field handle and the trait method live side by side.
    assert_eq!(Account::version().name(), "rev");
}

#[test]
fn zero_and_none_read_as_never_saved() {
    let mut account = Account {
        id: "a".into(),
        balance: 1,
        version: 0,
    };
    assert_eq!(account.version(), Ok(None));
    account.set_version(Some(7)).unwrap();
    assert_eq!((account.version, account.version()), (7, Ok(Some(7))));
    account.set_version(None).unwrap();
    assert_eq!(account.version, 0);

    let mut ledger = Ledger {
        id: "l".into(),
        revision: None,
    };
    assert_eq!(ledger.version(), Ok(None));
    ledger.set_version(Some(3)).unwrap();
    assert_eq!(ledger.revision, Some(3));
    assert_eq!(<Ledger as Model>::version(&ledger), Ok(Some(3)));

    // The trait's defaults on a model without a version.
    let mut tweet = Tweet {
        userid: "u".into(),
        id: "1".into(),
        text: "hi".into(),
        likes: 0,
        tags: Default::default(),
    };
    let before = tweet.clone();
    assert_eq!(tweet.version(), Ok(None));
    assert_eq!(tweet.set_version(Some(2)), Ok(()));
    assert_eq!(tweet, before, "nothing to set");
}

#[test]
fn versions_are_stored_as_plain_numbers_and_range_checked() {
    assert_eq!(Account::version_value(12), Ok(AttributeValue::N(12.into())));
    let err = Ledger::version_value(u64::from(u32::MAX) + 1).unwrap_err();
    assert_eq!(err.path, "revision", "the error names the attribute");
    let mut ledger = Ledger {
        id: "l".into(),
        revision: None,
    };
    let err = ledger.set_version(Some(1 << 40)).unwrap_err();
    assert_eq!(
        (err.path.as_str(), err.found.as_str()),
        ("revision", "1099511627776")
    );
    assert_eq!(ledger.revision, None, "unchanged by a failed set");

    let account = Account {
        id: "a".into(),
        balance: 1,
        version: 4,
    };
    let item = account.to_item().unwrap();
    assert_eq!(item["rev"], n(4));
    assert_eq!(Account::from_item(item).unwrap(), account);

    let negative = Legacy {
        id: "x".into(),
        version: -1,
    };
    assert_eq!(negative.version().unwrap_err().path, "version");
}

#[test]
fn a_missing_version_can_default_to_never_saved() {
    let item = [("id".to_owned(), s("x"))].into();
    let legacy = Legacy::from_item(item).unwrap();
    assert_eq!((legacy.version, legacy.version()), (0, Ok(None)));
    let ledger = Ledger::from_item([("id".to_owned(), s("l"))].into()).unwrap();
    assert_eq!(
        ledger.revision, None,
        "an Option reads a missing attribute as None"
    );
}

#[test]
fn version_types_are_the_integers_and_their_options() {
    fn version_of<T: VersionAttribute>(value: T) -> Option<u64> {
        value.to_version().unwrap()
    }
    assert_eq!(version_of(5u8), Some(5));
    assert_eq!(version_of(5usize), Some(5));
    assert_eq!(version_of(5i128), Some(5));
    assert_eq!(version_of(Some(0u16)), Some(0));
    assert_eq!(version_of(None::<i32>), None);
}
