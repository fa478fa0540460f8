//! `#[derive(Document)]`, and models embedded in other items: both are stored as maps.

use std::collections::BTreeSet;

use chrono::{DateTime, Utc};
use dynomodel::{Attribute, AttributeValue, Document, Model};

use crate::{n, s, time, Address, Tweet};

#[test]
fn models_embed_as_maps() {
    let tweet = Tweet {
        userid: "abc".into(),
        id: "1".into(),
        text: "hi".into(),
        likes: 2,
        tags: BTreeSet::from(["rust".to_owned()]),
    };
    let stored = tweet.to_attribute().unwrap().unwrap();
    assert_eq!(stored, AttributeValue::M(tweet.to_item().unwrap()));
    assert_eq!(Tweet::from_attribute(stored).unwrap(), tweet);
    let err = Tweet::from_attribute(s("x")).unwrap_err();
    assert_eq!(
        (err.expected.as_str(), err.found.as_str()),
        ("a map (Tweet)", "S")
    );
    assert_eq!(Address::expected(), "a map (Address)");
}

#[derive(Document, Debug, Clone, PartialEq)]
#[dynomodel(rename_all = "PascalCase")]
struct Profile {
    avatar: Vec<u8>,
    #[dynomodel(epoch_seconds)]
    joined: DateTime<Utc>,
    #[dynomodel(skip)]
    cache: Vec<String>,
    #[dynomodel(default)]
    karma: i32,
}

#[test]
fn documents_support_the_field_options() {
    let profile = Profile {
        avatar: vec![1],
        joined: time(60),
        cache: vec!["x".into()],
        karma: 5,
    };
    let stored = profile.to_attribute().unwrap().unwrap();
    let AttributeValue::M(map) = &stored else {
        panic!("a document is a map")
    };
    let names: Vec<&str> = map.keys().map(String::as_str).collect();
    assert_eq!(names, ["Avatar", "Joined", "Karma"]);
    assert_eq!(map["Avatar"], AttributeValue::B(vec![1]));
    assert_eq!(map["Joined"], n(60));
    let back = Profile::from_attribute(stored.clone()).unwrap();
    assert_eq!(
        back,
        Profile {
            cache: Vec::new(),
            ..profile
        }
    );

    let mut sparse = map.clone();
    sparse.remove("Karma");
    assert_eq!(
        Profile::from_attribute(AttributeValue::M(sparse.clone()))
            .unwrap()
            .karma,
        0
    );
    sparse.remove("Joined");
    let err = Profile::from_attribute(AttributeValue::M(sparse)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "attribute `Joined`: expected epoch seconds (DateTime<Utc>), found nothing (the attribute is missing)"
    );
}

/// A handle into a document reaches an adapted field with the field's encoding: `Joined` is stored as
/// epoch seconds, so a comparison with it renders N, not the date's string.
#[test]
fn handles_into_documents_encode_like_the_stored_field() {
    use dynomodel::expression::ExpressionContext;
    use dynomodel::Field;

    #[derive(Model, Debug, Clone, PartialEq)]
    struct Member {
        #[hash_key]
        id: String,
        profile: Profile,
        #[dynomodel(epoch_seconds)]
        left: Option<DateTime<Utc>>,
    }

    let _: Field<Member, Option<dynomodel::convert::EpochSeconds<DateTime<Utc>>>> = Member::left();
    let condition = Member::profile().then(Profile::joined()).ge(time(60))
        & Member::left().lt(time(120))
        & Member::profile()
            .then(Profile::avatar())
            .eq(dynomodel::Binary::from(vec![1]));
    let mut ctx = ExpressionContext::new();
    assert_eq!(
        ctx.condition(&condition).unwrap(),
        "#n0.#n1 >= :v0 AND #n2 < :v1 AND #n0.#n3 = :v2"
    );
    let (_, values) = ctx.finish();
    assert_eq!(values[":v0"], n(60));
    assert_eq!(values[":v1"], n(120));
    assert_eq!(values[":v2"], AttributeValue::B(vec![1]));
}
