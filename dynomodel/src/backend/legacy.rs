//! DynamoDB's *legacy* request parameters, from before expressions: `AttributesToGet`, `KeyConditions`,
//! `QueryFilter`, `ScanFilter`, `ConditionalOperator`, `Expected` and `AttributeUpdates` (AWS API
//! reference, "Legacy conditional parameters").
//!
//! Existing code and tooling still send them, so every backend accepts them next to the expression
//! parameters; a request may not mix the two forms ("Can not use both expression and non-expression
//! parameters in the same request: …").
//!
//! ```
//! use std::collections::BTreeMap;
//! use dynomodel::{AttributeValue, Item};
//! use dynomodel::backend::{ComparisonOperator, ExpectedAttributeValue, PutItemInput};
//!
//! // Put only if `version` is currently 3 (the legacy form of `ConditionExpression: version = :v`).
//! let item: Item = [("id".to_owned(), AttributeValue::S("u1".into()))].into();
//! let input = PutItemInput {
//!     table_name: "users".into(),
//!     item,
//!     expected: Some(BTreeMap::from([(
//!         "version".to_owned(),
//!         ExpectedAttributeValue {
//!             comparison_operator: Some(ComparisonOperator::Eq),
//!             attribute_value_list: Some(vec![AttributeValue::N("3".parse()?)]),
//!             ..Default::default()
//!         },
//!     )])),
//!     ..Default::default()
//! };
//! assert_eq!(input.expected.unwrap()["version"].comparison_operator, Some(ComparisonOperator::Eq));
//! # Ok::<(), dynomodel::NumberError>(())
//! ```

use std::collections::BTreeMap;

use crate::value::AttributeValue;

/// A comparison of the legacy conditions (`Expected`, `KeyConditions`, `QueryFilter`, `ScanFilter`).
///
/// Each takes its own number of values in `AttributeValueList`: none for `NULL` and `NOT_NULL`, two for
/// `BETWEEN`, one or more for `IN`, one for the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ComparisonOperator {
    /// Equal (`=`); any scalar or set type.
    Eq,
    /// Not equal (`<>`); any scalar or set type.
    Ne,
    /// Less than or equal (`<=`); S, N or B.
    Le,
    /// Less than (`<`); S, N or B.
    Lt,
    /// Greater than or equal (`>=`); S, N or B.
    Ge,
    /// Greater than (`>`); S, N or B.
    Gt,
    /// The attribute exists (`attribute_exists`).
    NotNull,
    /// The attribute does not exist (`attribute_not_exists`).
    Null,
    /// A substring, or a member of a set or list (`contains`); S, N or B.
    Contains,
    /// Not a substring, nor a member (`NOT contains`); S, N or B.
    NotContains,
    /// A prefix of a string or binary (`begins_with`); S or B.
    BeginsWith,
    /// Equal to one of the values (`IN`); S, N or B.
    In,
    /// Between the two values, inclusive (`BETWEEN … AND …`); S, N or B.
    Between,
}

impl ComparisonOperator {
    /// Every operator, in the order of DynamoDB's enum (`EQ, NE, IN, LE, LT, GE, GT, BETWEEN,
    /// NOT_NULL, NULL, CONTAINS, NOT_CONTAINS, BEGINS_WITH`).
    pub const ALL: [ComparisonOperator; 13] = [
        ComparisonOperator::Eq,
        ComparisonOperator::Ne,
        ComparisonOperator::In,
        ComparisonOperator::Le,
        ComparisonOperator::Lt,
        ComparisonOperator::Ge,
        ComparisonOperator::Gt,
        ComparisonOperator::Between,
        ComparisonOperator::NotNull,
        ComparisonOperator::Null,
        ComparisonOperator::Contains,
        ComparisonOperator::NotContains,
        ComparisonOperator::BeginsWith,
    ];

    /// DynamoDB's name for it, e.g. `"BEGINS_WITH"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ComparisonOperator::Eq => "EQ",
            ComparisonOperator::Ne => "NE",
            ComparisonOperator::Le => "LE",
            ComparisonOperator::Lt => "LT",
            ComparisonOperator::Ge => "GE",
            ComparisonOperator::Gt => "GT",
            ComparisonOperator::NotNull => "NOT_NULL",
            ComparisonOperator::Null => "NULL",
            ComparisonOperator::Contains => "CONTAINS",
            ComparisonOperator::NotContains => "NOT_CONTAINS",
            ComparisonOperator::BeginsWith => "BEGINS_WITH",
            ComparisonOperator::In => "IN",
            ComparisonOperator::Between => "BETWEEN",
        }
    }

    /// The operator DynamoDB names `name`, if any.
    pub fn parse(name: &str) -> Option<ComparisonOperator> {
        ComparisonOperator::ALL
            .into_iter()
            .find(|op| op.as_str() == name)
    }
}

/// How several legacy conditions combine (`AND` when absent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ConditionalOperator {
    /// Every condition must hold (the default).
    #[default]
    And,
    /// At least one condition must hold.
    Or,
}

impl ConditionalOperator {
    /// DynamoDB's name for it: `"AND"` or `"OR"`.
    pub fn as_str(self) -> &'static str {
        match self {
            ConditionalOperator::And => "AND",
            ConditionalOperator::Or => "OR",
        }
    }
}

/// What an `AttributeUpdates` entry does to its attribute (`PUT` when absent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AttributeAction {
    /// Replace the attribute with the value (the default).
    #[default]
    Put,
    /// Add a number to a number, members to a set, or elements to the end of a list; a missing
    /// attribute starts from zero or empty.
    Add,
    /// Without a value, remove the attribute; with a set value, remove those members.
    Delete,
}

impl AttributeAction {
    /// DynamoDB's name for it: `"PUT"`, `"ADD"` or `"DELETE"`.
    pub fn as_str(self) -> &'static str {
        match self {
            AttributeAction::Put => "PUT",
            AttributeAction::Add => "ADD",
            AttributeAction::Delete => "DELETE",
        }
    }
}

/// One condition of `KeyConditions`, `QueryFilter` or `ScanFilter` (DynamoDB's `Condition`; named
/// apart from [`crate::Condition`], the typed expression builder).
#[derive(Debug, Clone, PartialEq)]
pub struct LegacyCondition {
    /// The comparison.
    pub comparison_operator: ComparisonOperator,
    /// Its operands, as many as the operator takes.
    pub attribute_value_list: Option<Vec<AttributeValue>>,
}

/// One entry of `Expected`: either `Exists`/`Value` (the attribute exists with this value, or does
/// not exist), or `ComparisonOperator` with `Value` or `AttributeValueList`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExpectedAttributeValue {
    /// The value the attribute must equal (with `Exists` true or absent), or the one operand of
    /// `comparison_operator`.
    pub value: Option<AttributeValue>,
    /// `false`: the attribute must not exist (no `value` then); `true`: it must equal `value`.
    pub exists: Option<bool>,
    /// A comparison instead of `Exists`.
    pub comparison_operator: Option<ComparisonOperator>,
    /// The comparison's operands (not together with `value`).
    pub attribute_value_list: Option<Vec<AttributeValue>>,
}

/// One entry of `AttributeUpdates`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AttributeValueUpdate {
    /// The value to put, add or delete; only `DELETE` goes without one.
    pub value: Option<AttributeValue>,
    /// What to do (`PUT` when absent).
    pub action: Option<AttributeAction>,
}

/// `Expected`: attribute name → the condition it must meet.
pub type Expected = BTreeMap<String, ExpectedAttributeValue>;

/// `AttributeUpdates`: attribute name → what to do with it.
pub type AttributeUpdates = BTreeMap<String, AttributeValueUpdate>;

/// `KeyConditions`, `QueryFilter` or `ScanFilter`: attribute name → the condition it must meet.
pub type Conditions = BTreeMap<String, LegacyCondition>;
