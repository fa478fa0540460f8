//! `Model::from_attributes`, the decode of the mapper's typed reads (attributes handed over one by
//! one, names borrowed or owned): the same values and the same errors as `from_item`, for the
//! derived one-pass decode and for the default (a model with an entity type collects the item first).

use std::borrow::Cow;

use dynomodel::{AttributeValue, ConversionError, Item, Model};

use crate::{s, User};

#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "app", entity = "Cat")]
struct Cat {
    #[hash_key]
    id: String,
    lives: u8,
}

/// Both decodes of `item`: from owned names, and from names borrowed from another map.
fn both<M: Model + std::fmt::Debug + PartialEq>(item: &Item) -> Result<M, ConversionError> {
    let expected = M::from_item(item.clone());
    let owned = M::from_attributes(&mut item.clone().into_iter().map(|(n, v)| (Cow::Owned(n), v)));
    // In reverse order too: a typed read promises no order.
    let borrowed = M::from_attributes(
        &mut item
            .iter()
            .rev()
            .map(|(n, v)| (Cow::Borrowed(n.as_str()), v.clone())),
    );
    for other in [owned, borrowed] {
        match (&expected, &other) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            _ => panic!("{expected:?} against {other:?}"),
        }
    }
    expected
}

#[test]
fn from_attributes_is_from_item() {
    let user = User {
        user_id: "u1".into(),
        display_name: "Ada".into(),
        email_address: "ada@example.com".into(),
        session: Some("secret".into()),
        login_count: 3,
        theme: "light".into(),
    };
    let item = user.to_item().unwrap();
    let back: User = both(&item).unwrap();
    assert_eq!(back.session, None); // skipped
    assert_eq!(back.display_name, "Ada");

    let mut sparse = item.clone();
    sparse.remove("loginCount");
    sparse.remove("theme");
    sparse.insert("unknown".into(), AttributeValue::Bool(true));
    let back: User = both(&sparse).unwrap();
    assert_eq!((back.login_count, back.theme.as_str()), (0, "dark"));

    let mut bad = item;
    bad.insert("loginCount".into(), s("many"));
    assert_eq!(both::<User>(&bad).unwrap_err().path, "loginCount");
    assert!(both::<User>(&Item::new()).is_err());

    // An entity type is checked before anything is decoded, through the default.
    let cat = Cat {
        id: "c1".into(),
        lives: 9,
    };
    let item = cat.to_item().unwrap();
    assert_eq!(both::<Cat>(&item).unwrap(), cat);
    let mut dog = item;
    dog.insert("_et".into(), s("Dog"));
    assert!(both::<Cat>(&dog).is_err());
}
