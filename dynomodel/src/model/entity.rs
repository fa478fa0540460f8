//! Single-table entities: the entity-type attribute a model with `#[dynomodel(entity = "...")]`
//! writes and checks, and the [`Collection`] trait of `#[derive(Collection)]` enums that decode
//! every entity of one partition into its own type.

use crate::backend::ProjectionType;
use crate::error::ConversionError;
use crate::model::{Model, PrimaryKey};
use crate::value::{AttributeValue, Item};

/// The attribute holding the entity type when `entity_attribute = "..."` does not name another.
///
/// Short (it is stored on every item) and underscored so it does not collide with a field's name.
pub const DEFAULT_ENTITY_ATTRIBUTE: &str = "_et";

/// An enum of the models sharing one table, each variant holding one model:
/// `#[derive(Collection)] enum UserData { User(User), Order(Order) }`.
///
/// Every member declares `#[dynomodel(entity = "...")]`; the derive checks at compile time that
/// they share the table, the key attribute names and the entity attribute, and that their entity
/// types differ. [`Db::collection`](crate::Db::collection) reads one partition of the table and
/// decodes each item as the member its entity attribute names;
/// [`Db::get_collection`](crate::Db::get_collection) reads one item by the key of any member. An item whose entity type no member
/// declares goes to the variant marked `#[dynomodel(unknown)]` (holding an [`Item`]) if there is one;
/// without it, the read fails with a [`ConversionError`] naming the entity type and the known ones,
/// so no item is ever silently dropped.
///
/// The partition key value of [`Db::collection`](crate::Db::collection) is encoded by the first
/// member ([`Collection::Root`]). So that every member's items land in the partition it reads, the
/// derive checks at compile time that the members name the same key attributes and write their
/// hash keys the same way from the same type ([`Model::HASH_KEY_SHAPE`] and [`Model::Hash`]): the
/// same composite prefix, separator and part types (`pk = ("USER", userid)` in one and
/// `pk = ("USER", owner)` in another agree; `pk = ("ACCOUNT", userid)` does not), or the same
/// plain field type and conversion. What a hand-written `Model` encodes is its own business.
///
/// The "Single-table entities" section of [`Model`] has a runnable example.
///
/// The table's schema is the union of the members' ([`Collection::schema`], [`schema_union`](crate::schema_union)).
pub trait Collection: Sized + Send + 'static {
    /// The first member: its table, hash key type and key names are the collection's.
    type Root: Model;

    /// The name of the enum, for messages.
    const NAME: &'static str;

    /// Each member's model name and its table definition, in declaration order.
    fn members() -> Vec<(&'static str, crate::migrate::Definition)>;

    /// Decodes one item as the member its entity attribute names.
    ///
    /// Errors: no entity attribute, an entity type no member declares (without an unknown variant),
    /// or the member's own decoding error.
    fn from_item(item: Item) -> Result<Self, ConversionError>;

    /// The shared table: the union of the members' schemas (see [`schema_union`](crate::schema_union)).
    ///
    /// Errors: a conflict between members (a key attribute typed differently, an index of the same
    /// name with other keys or projection, other billing, stream or table options), naming them.
    fn schema() -> crate::Result<crate::backend::CreateTableInput> {
        Ok(Self::definition()?.schema)
    }

    /// The shared table's definition for [`Db::plan_all`](crate::Db::plan_all): the union of the
    /// schemas and the members' time-to-live attribute and point-in-time recovery (which must agree
    /// too), by [`Definition::union`](crate::migrate::Definition::union).
    fn definition() -> crate::Result<crate::migrate::Definition> {
        crate::migrate::Definition::union(Self::NAME, &Self::members())
    }
}

/// The filter a read of `M`'s table adds for a single-table member, `(attribute, entity type)`:
/// only `M`'s items are returned (`None`: `M` declares no entity type).
pub(crate) fn entity_filter<M: Model>() -> Option<(&'static str, &'static str)> {
    M::ENTITY_TYPE.map(|entity| (M::ENTITY_ATTRIBUTE, entity))
}

/// [`entity_filter`] for a read of one of `M`'s indexes: only where the index entries have the
/// entity attribute to filter on, that is a local index (DynamoDB fetches an attribute it does not
/// project from the table) or a global index projecting `ALL`. A global `KEYS_ONLY` or `INCLUDE`
/// index cannot tell the entity types apart (the derive's `includes` name fields, never the entity
/// attribute): its entries of every entity type are returned.
pub(crate) fn index_entity_filter<M: Model>(
    local: bool,
    projection: ProjectionType,
) -> Option<(&'static str, &'static str)> {
    (local || projection == ProjectionType::All)
        .then(entity_filter::<M>)
        .flatten()
}

/// The key of an item of one of collection `C`'s members: what
/// [`Db::get_collection`](crate::Db::get_collection) takes. `#[derive(Collection)]` implements it
/// for the key type of each member (`UserKey`, `OrderKey`), so a key of a model outside the
/// collection is a compile error, while members keep their own sort-key shapes.
///
/// ```compile_fail
/// # use dynomodel::{Collection, Db, Model};
/// # #[derive(Model)]
/// # #[dynomodel(table = "app", entity = "User")]
/// # struct User { #[hash_key] pk: String, #[range_key] sk: String }
/// # #[derive(Collection)]
/// # enum UserData { User(User) }
/// #[derive(Model)]
/// struct Stranger { #[hash_key] pk: String, #[range_key] sk: String }
///
/// # fn f(db: &Db) {
/// // `StrangerKey` is not the key of a member of `UserData`.
/// let _ = db.get_collection::<UserData>(StrangerKey::from(("u1", "x")));
/// # }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not the key of a member of collection `{C}`",
    label = "expected the key type of one of `{C}`'s models",
    note = "`#[derive(Collection)]` implements `CollectionKey<{C}>` for the key type of each of its models (e.g. `OrderKey::from((..))`)"
)]
pub trait CollectionKey<C: Collection>: PrimaryKey {}

/// Writes the entity type into an item (generated `to_item` code).
#[doc(hidden)]
pub fn write_entity(
    item: &mut dyn crate::backend::AttributeSink,
    attribute: &'static str,
    entity: &'static str,
) {
    item.insert_ref(attribute, crate::backend::AttributeRef::S(entity));
}

/// The entity type stored in `item`, if the attribute is a string.
pub fn entity_of<'i>(item: &'i Item, attribute: &str) -> Option<&'i str> {
    match item.get(attribute) {
        Some(AttributeValue::S(entity)) => Some(entity),
        _ => None,
    }
}

/// Checks that `item` holds an item of entity type `entity` (generated `from_item` code): an item of
/// another entity type, or one without the attribute, is a [`ConversionError`] at the attribute
/// naming what was expected and what was found.
#[doc(hidden)]
pub fn check_entity(item: &Item, attribute: &str, entity: &str) -> Result<(), ConversionError> {
    match item.get(attribute) {
        Some(AttributeValue::S(found)) if found == entity => Ok(()),
        Some(AttributeValue::S(found)) => Err(ConversionError::new(
            format!("an item of entity type {entity:?}"),
            format!("an item of entity type {found:?}"),
        )
        .at(attribute)),
        Some(other) => Err(ConversionError::new(
            format!("the entity type {entity:?} (a string)"),
            other.type_name(),
        )
        .at(attribute)),
        None => Err(ConversionError::new(
            format!("the entity type {entity:?}"),
            "no entity attribute",
        )
        .at(attribute)),
    }
}

/// The error of a collection reading an item whose entity type none of its members declares.
#[doc(hidden)]
pub fn unknown_entity(
    item: &Item,
    attribute: &str,
    collection: &str,
    known: &[&str],
) -> ConversionError {
    let found = match item.get(attribute) {
        Some(AttributeValue::S(found)) => format!("an item of entity type {found:?}"),
        Some(other) => other.type_name().to_owned(),
        None => "no entity attribute".to_owned(),
    };
    ConversionError::new(
        format!("an entity type of {collection} ({})", known.join(", ")),
        found,
    )
    .at(attribute)
}

/// `a == b` in a const context (the derive's compile-time checks compare model constants).
#[doc(hidden)]
pub const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Implemented only for `T` itself: the derive's compile-time check that a collection's members take
/// the same hash key value as its first member (which encodes the value a collection query reads).
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a collection's members take different hash key values: `{Self}` and `{T}`",
    label = "this member's hash key takes a `{Self}`, the first member's a `{T}`",
    note = "a collection reads one partition, encoded by its first member: every member's hash key must take the same type and be written the same way"
)]
pub trait SameHash<T: ?Sized> {}

impl<T: ?Sized> SameHash<T> for T {}

/// Compiles only when `A` and `B` are one type (see [`SameHash`]).
#[doc(hidden)]
pub const fn same_hash<A: SameHash<B> + ?Sized, B: ?Sized>() {}

/// `a == b` for optional strings in a const context.
#[doc(hidden)]
pub const fn opt_str_eq(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => str_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}
