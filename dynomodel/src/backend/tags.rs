//! Tags on tables: `TagResource`, `UntagResource`, `ListTagsOfResource` (and `Tags` on `CreateTable`).
//! Tag operations name a table by its ARN ([`TableDescription::table_arn`](crate::backend::TableDescription)).

/// A key-value label on a table.
///
/// ```
/// use dynomodel::backend::Tag;
///
/// let tag = Tag::new("team", "payments");
/// assert_eq!((tag.key.as_str(), tag.value.as_str()), ("team", "payments"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tag {
    /// 1–128 characters; `aws:` is reserved.
    pub key: String,
    /// 0–256 characters.
    pub value: String,
}

impl Tag {
    /// A tag.
    pub fn new(key: impl Into<String>, value: impl Into<String>) -> Tag {
        Tag {
            key: key.into(),
            value: value.into(),
        }
    }
}

/// `TagResource`: adds tags, replacing the values of keys already present.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TagResourceInput {
    /// The table's ARN.
    pub resource_arn: String,
    /// The tags.
    pub tags: Vec<Tag>,
}

/// `TagResource`'s (empty) response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TagResourceOutput {}

/// `UntagResource`: removes tags by key.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UntagResourceInput {
    /// The table's ARN.
    pub resource_arn: String,
    /// The keys to remove.
    pub tag_keys: Vec<String>,
}

/// `UntagResource`'s (empty) response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UntagResourceOutput {}

/// `ListTagsOfResource`: a table's tags, a page at a time.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ListTagsOfResourceInput {
    /// The table's ARN.
    pub resource_arn: String,
    /// The previous page's `next_token`.
    pub next_token: Option<String>,
}

/// `ListTagsOfResource`'s response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ListTagsOfResourceOutput {
    /// The tags.
    pub tags: Vec<Tag>,
    /// Present when more tags follow.
    pub next_token: Option<String>,
}
