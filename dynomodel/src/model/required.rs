//! [`RequiredAttribute`]: what [`Model::from_item`](crate::Model::from_item) cannot do without, so
//! that an update allowed to create its item ([`UpdateItem::upsert`](crate::UpdateItem::upsert))
//! can be checked, before it is sent, to give that item everything it needs to be read back.

/// An attribute without which [`Model::from_item`](crate::Model::from_item) fails, as listed by
/// [`Model::required_attributes`](crate::Model::required_attributes).
///
/// ```
/// use std::collections::BTreeSet;
/// use dynomodel::{Model, RequiredAttribute};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Thread {
///     #[hash_key] forum: String,
///     #[range_key] subject: String,
///     message: String,           // required: a String has no "nothing"
///     views: u64,                // required
///     #[dynomodel(default)]
///     replies: u64,              // a default: not required
///     last_poster: Option<String>,
///     tags: BTreeSet<String>,    // a missing set reads as an empty one
/// }
///
/// let names: Vec<&str> = Thread::required_attributes().iter().map(|r| r.name).collect();
/// assert_eq!(names, ["message", "views"]);
/// assert_eq!(Thread::required_attributes()[0], RequiredAttribute::field("message"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RequiredAttribute {
    /// The attribute's name.
    pub name: &'static str,
    /// Whether it is a composite that keys no table key (`#[composite(gpk = (...))]`): its parts
    /// have no field handles, so no update can set it, and a model needing one cannot be upserted.
    pub composite: bool,
}

impl RequiredAttribute {
    /// A field's attribute (or one the mapper writes itself: the entity type, the `#[version]`).
    pub const fn field(name: &'static str) -> RequiredAttribute {
        RequiredAttribute {
            name,
            composite: false,
        }
    }

    /// A composite that is no table key.
    pub const fn composite(name: &'static str) -> RequiredAttribute {
        RequiredAttribute {
            name,
            composite: true,
        }
    }
}
