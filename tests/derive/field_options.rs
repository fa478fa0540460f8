//! The field options `rename`, `rename_all`, `skip` and `default`, and the field handles, which carry
//! the attribute names as stored.

use std::collections::BTreeSet;

use dynomodel::Model;

use crate::{s, Everything, Tweet, User};

#[test]
fn rename_skip_and_default() {
    let user = User {
        user_id: "u1".into(),
        display_name: "Ada".into(),
        email_address: "ada@example.com".into(),
        session: Some("secret".into()),
        login_count: 3,
        theme: "light".into(),
    };
    let item = user.to_item().unwrap();
    let names: Vec<&str> = item.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        ["displayName", "loginCount", "mail", "theme", "userId"]
    );
    let back = User::from_item(item.clone()).unwrap();
    assert_eq!(
        back.session, None,
        "skipped fields are not stored and read as Default"
    );
    assert_eq!(
        back,
        User {
            session: None,
            ..user.clone()
        }
    );

    let mut sparse = item;
    sparse.remove("loginCount");
    sparse.remove("theme");
    let back = User::from_item(sparse).unwrap();
    assert_eq!(back.login_count, 0);
    assert_eq!(back.theme, "dark");

    let mut bad = user.to_item().unwrap();
    bad.insert("loginCount".into(), s("many"));
    assert_eq!(User::from_item(bad).unwrap_err().path, "loginCount");
}

#[test]
fn field_handles_carry_attribute_names() {
    assert_eq!(Tweet::likes().name(), "likes");
    assert_eq!(Tweet::userid().name(), "userid");
    assert_eq!(User::email_address().name(), "mail");
    assert_eq!(User::display_name().name(), "displayName");
    assert_eq!(Everything::previous().name(), "previous");
    let handle: dynomodel::Field<Tweet, BTreeSet<String>> = Tweet::tags();
    assert_eq!(format!("{handle:?}"), "Field(tags)");
}
