//! The [`Model`] trait that `#[derive(Model)]` implements, its key type, typed field handles and the
//! secondary-index metadata ([`Index`] handles and the [`Projected`] item types of queries).

use std::fmt;
use std::marker::PhantomData;

use crate::backend::{AttributeSink, AttributeWriter, CreateTableInput};
use crate::error::ConversionError;
use crate::expression::role;
use crate::value::{AttributeValue, Item};

mod composite;
mod entity;
mod index;
mod into_key;
mod item_version;
mod required;
pub(crate) mod size;
mod timestamp;
mod union;

pub use composite::{Composite, CompositePart, CompositeParts, FollowingPart, LeadingParts};
#[doc(hidden)]
pub use entity::{
    check_entity, opt_str_eq, same_hash, str_eq, unknown_entity, write_entity, SameHash,
};
pub(crate) use entity::{entity_filter, index_entity_filter};
pub use entity::{entity_of, Collection, CollectionKey, DEFAULT_ENTITY_ATTRIBUTE};
pub(crate) use index::IndexInfo;
pub use index::{Index, Projected};
pub use into_key::IntoKey;
pub(crate) use item_version::{item_version_attribute, item_version_value};
#[doc(hidden)]
pub use item_version::{
    item_version_in, item_version_of, unreadable_item_version, upcast_failed, write_item_version,
};
pub use item_version::{stored_item_version, DEFAULT_ITEM_VERSION_ATTRIBUTE};
pub use required::RequiredAttribute;
pub use timestamp::Timestamp;
pub use union::schema_union;

/// The phantom types of a handle ([`Field`], [`Index`], [`Composite`]): `fn() -> …`, so that the
/// handle is `Send + Sync` and covariant whatever the types are, holding none of them.
pub(crate) type Marker<A, B, C> = PhantomData<fn() -> (A, B, C)>;

/// A Rust type stored as the items of one DynamoDB table. Implemented by `#[derive(Model)]`.
///
/// ```
/// use dynomodel::Model;
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "users")]
/// struct User {
///     #[hash_key]
///     id: String,
///     name: String,
///     visits: u32,
/// }
///
/// assert_eq!(User::TABLE_NAME, "users");
/// let user = User { id: "u1".into(), name: "Ada".into(), visits: 3 };
/// let item = user.to_item().unwrap();
/// assert_eq!(User::from_item(item).unwrap(), user);
/// assert_eq!(user.key(), UserKey::from("u1"));
/// ```
///
/// # `#[derive(Model)]`
///
/// On a struct with named fields (enums, tuple, unit and generic structs are rejected). It generates:
///
/// - `impl Model`: [`Model::schema`] holds the key schema, the key attributes' types (from
///   [`KeyAttribute::SCALAR_TYPE`](crate::KeyAttribute::SCALAR_TYPE)) and the billing mode;
///   [`Model::from_item`] errors name the attribute (`address.city`, `tags[2]`); attributes the struct
///   does not know are ignored.
/// - `impl Attribute`, stored as a map, so a model can be embedded in another item.
/// - A key struct `<Struct>Key` with the struct's visibility, one `pub` field per key field (same name
///   and type), `Debug + Clone + PartialEq`, [`PrimaryKey`], and conversions: from a pair `(A, B)`
///   where `A: IntoKey<Hash>, B: IntoKey<Range>` for a hash-and-range key (`("abc", "1")`), from any
///   `A: IntoKey<Hash>` for a hash-only key. [`IntoKey`] takes the value, a reference to it, and a
///   `&str` or `&String` for a `String` (in a composite's tuple of parts too); every method taking a
///   key or a partition (`get`, `delete_key`, `update`, `query`, `query_index`, `collection`,
///   batches, transactions) goes through these.
/// - Typed field handles: for every stored field an associated function named after the Rust field,
///   `Tweet::likes() -> Field<Tweet, i64>`, carrying the attribute's DynamoDB name. A user method of
///   the same name is a "duplicate definitions" compile error pointing at the field: loud, never a
///   silent shadowing. Trait items stay reachable as `<Tweet as Model>::key`, and method calls
///   (`tweet.key()`) never resolve to a handle since handles take no `self`.
///   The handle's value type encodes like the stored field, so that operands are rendered as the
///   attribute is stored: it is the field's type, except for fields stored through an adapter (see
///   [below](Model#handles-of-fields-stored-through-an-adapter)).
///   The handle's third type parameter is its [role](role) in the key schema: the table's keys
///   ([`role::Key`], or [`role::KeySort`] when they sort the table or an index) are refused by
///   update actions, and sort keys ([`role::KeySort`], and [`role::Sort`] for a field an index is
///   sorted by) make the sort-key conditions `.range(..)` takes; other fields are [`role::Attr`],
///   the default (`Tweet::text() -> Field<Tweet, String>`). Both mistakes are compile errors
///   (see [`Field`](Field#roles-keys-are-checked-at-compile-time)).
///
/// Struct options, `#[dynomodel(...)]`:
///
/// | option | meaning |
/// |---|---|
/// | `table = "tweets"` | table name (default: the struct's name); checked against DynamoDB's naming rules |
/// | `throughput(read = 10, write = 2)` | provisioned billing |
/// | `on_demand` | `PAY_PER_REQUEST` billing, also the default |
/// | `rename_all = "camelCase"` | attribute names from field names: `camelCase`, `snake_case`, `PascalCase`, `SCREAMING_SNAKE_CASE`, `kebab-case`, `lowercase`, `UPPERCASE` |
/// | `tags(team = "payments", "cost-center" = "42")` | the table's tags; a key is an identifier or a string, a value a string; checked at compile time against DynamoDB's rules (at most 50, unique keys, key 1–128 and value 0–256 characters of letters, digits, white space and `+ - = . _ : /`, no `aws:` prefix) |
/// | `stream = "new_and_old_images"` | a stream with that view: `keys_only`, `new_image`, `old_image`, `new_and_old_images` (default: no stream) |
/// | `table_class = "standard_infrequent_access"` | the table class: `standard` (DynamoDB's default) or `standard_infrequent_access` |
/// | `deletion_protection` | DeleteTable is refused until it is turned off |
/// | `point_in_time_recovery`, `point_in_time_recovery(recovery_period_days = 7)` | continuous backups, restorable to any second of the window (1–35 days; DynamoDB's default 35), turned on by [`Db::create_schema`](crate::Db::create_schema) and [`Db::plan`](crate::Db::plan) once the table is active ([`Model::POINT_IN_TIME_RECOVERY`]) |
/// | `datetime = "millis"` | the width of every `DateTime<Utc>` field (spelled so, or `Option` of one) without a width of its own: `seconds`, `millis`, `micros`, `nanos` (the default); see the field option |
/// | `item_version = 3` | the item schema's version, written into every item (see [below](Model#item-versions-and-upcasting-item_version)); with `#[upcast(from = N, item = f)]` / `#[upcast(from = N, model = T)]` on the struct reading older items |
/// | `item_version_attribute = "v"` | the attribute holding it (default `_v`, [`DEFAULT_ITEM_VERSION_ATTRIBUTE`]) |
/// | `max_item_size = "8KB"` | an item size budget (bytes, or `B`/`KB`/`MB`, at most 400 KB) checked on every write: a larger item is refused before it is sent (see [below](Model#item-sizes-and-compressed-attributes)) |
///
/// Field options:
///
/// | option | meaning |
/// |---|---|
/// | `#[hash_key]`, `#[range_key]` | the partition and sort key; the type must implement [`KeyAttribute`](crate::KeyAttribute) |
/// | `#[dynomodel(rename = "x")]` | the attribute's name in DynamoDB |
/// | `#[dynomodel(skip)]` | not stored; read as `Default::default()` (or the `default` function) |
/// | `#[dynomodel(default)]`, `#[dynomodel(default = "path::to::fn")]` | the value when the attribute is missing |
/// | `#[dynomodel(epoch_seconds)]` | a `DateTime<Utc>`/`NaiveDate` (or `Option` of one) stored as N seconds since the epoch (see [`epoch_seconds`](crate::convert::epoch_seconds)); as a key, its type is N |
/// | `#[dynomodel(datetime = "millis")]` | a `DateTime<Utc>` (or `Option` of one) stored as RFC 3339 with that many fractional digits, `2015-09-15T19:58:22.947Z` (`seconds`, `millis`, `micros`, `nanos`; default `nanos`), truncated on write; in keys, index keys, composite parts and the handle's operands too; any RFC 3339 width reads, but two widths do not sort together, so match the table's data (see [`datetime`](crate::convert::datetime)) |
/// | `#[dynomodel(serde)]` | any `Serialize + DeserializeOwned` type, stored in its serde shape as M, L, S, N, BOOL (see [`convert::serde`](crate::convert::serde)); not a key |
/// | `#[dynomodel(json)]` | any `Serialize + DeserializeOwned` type, stored as one JSON string, S (see [`convert::json`](crate::convert::json)); not a key |
/// | `#[dynomodel(compress)]`, `compress(min_size = "1KB")` | a `String`, `Vec<u8>`, `Binary` (or `Option` of one), or with `json` any serde value, stored gzip-compressed as B (values under `min_size` as they are, behind the same header); not a key; its handle has only `exists`, `size`, `attribute_type` (see [below](Model#item-sizes-and-compressed-attributes)) |
/// | `#[version]` | the optimistic-locking counter, an integer (see [below](Model#optimistic-locking-version)) |
/// | `#[dynomodel(counter)]` | a number or set changed only by atomic updates: exempt from the version bump, left as stored by whole-item writes (see [below](Model#counters-dynomodelcounter)) |
/// | `#[created_at]`, `#[updated_at]` | a `DateTime<Utc>` (or `Option` of one) the mapper stamps on writes (see [below](Model#timestamps-created_at-updated_at)) |
/// | `#[ttl]` | the table's time-to-live attribute: a `DateTime<Utc>`, `SystemTime`, integer or `Option` of one, stored as whole epoch seconds (see [below](Model#time-to-live-ttl)) |
///
/// A field whose type is literally `Vec<u8>` or `Option<Vec<u8>>` is stored as binary (B) and may be
/// a key; see [`convert`](crate::convert#binary-data-and-vecu8) for why. Enums and newtypes derive
/// [`Attribute`](trait@crate::Attribute) (see there): a unit-only enum or a newtype of a key type
/// may be a key.
///
/// # Item sizes and compressed attributes
///
/// DynamoDB stores items of at most 400 KB and charges capacity per 1 KB written and 4 KB read.
/// [`Model::item_size`] is the size of what a value stores, with what writing and reading it costs
/// ([`ItemSize`](crate::ItemSize)). Every write (put, save, batch write, transaction) measures the item
/// as it is written and refuses one over 400 KB, or over the model's `max_item_size` budget, before
/// sending it, with [`Error::ItemTooLarge`](crate::Error::ItemTooLarge) naming the item and its
/// largest attributes. (An update's result is checked by DynamoDB.)
///
/// `#[dynomodel(compress)]` stores a large text or binary gzip-compressed, as the Developer Guide
/// advises (see [`convert::compress`](crate::convert::compress) for the stored form). Every read
/// decompresses; a damaged value is an [`Error::ItemDecode`](crate::Error::ItemDecode) naming the item
/// and the attribute; a plain string written before the field was compressed still reads. DynamoDB
/// cannot compare compressed bytes, so the field's handle, a `Field<M, Compressed<T>>`, has no
/// comparisons (a compile error), only `exists`, `not_exists`, `attribute_type`, `size` (of the stored
/// bytes) and `set` in updates, which compresses.
///
/// ```
/// use dynomodel::{Db, Model};
/// # use dynomodel_mem::MemoryDb;
/// #[derive(Model, Debug, PartialEq)]
/// #[dynomodel(max_item_size = "4KB")]
/// struct Reply {
///     #[hash_key]
///     id: String,
///     #[dynomodel(compress)]
///     message: String,
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = Db::memory();
/// db.create_schema::<Reply>().await?;
/// let reply = Reply { id: "r1".into(), message: "a long message, ".repeat(1000) };
/// let size = reply.item_size()?;
/// assert!(size.bytes() < 1024, "16 000 bytes of text, stored in {} bytes", size.bytes());
/// assert_eq!(size.write_units(), 1.0);
/// db.put(&reply).await?;
/// assert_eq!(db.get::<Reply>("r1").await?, Some(reply));
/// db.update::<Reply>("r1").set(Reply::message(), "short").condition(Reply::message().size().gt(10)).await?;
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
///
/// # Handles of fields stored through an adapter
///
/// A `DateTime<Utc>` on its own is an S string, but an `epoch_seconds` or `#[ttl]` one is an N; a
/// `Vec<u8>` on its own would be a list, but a field of that type is a B. A handle typed by the field's
/// own type would render a comparison's operand in the wrong type, and the comparison would silently
/// match nothing. These handles are typed by a wrapper that encodes like the field instead:
///
/// | field | handle |
/// |---|---|
/// | `#[dynomodel(epoch_seconds)] at: DateTime<Utc>` (or `NaiveDate`) | `Field<M, EpochSeconds<DateTime<Utc>>>` ([`EpochSeconds`](crate::convert::EpochSeconds)) |
/// | `#[dynomodel(datetime = "millis")] at: DateTime<Utc>` | `Field<M, Rfc3339<Millis>>` ([`Rfc3339`](crate::convert::datetime::Rfc3339)) |
/// | `#[ttl] expires: T` (`DateTime<Utc>`, `SystemTime`, an integer) | `Field<M, Ttl<T>>` ([`Ttl`](crate::convert::Ttl)) |
/// | `data: Vec<u8>` | `Field<M, Binary>` ([`Binary`](crate::Binary)) |
/// | `#[dynomodel(serde)] meta: T` | `Field<M, Serde<T>>` ([`Serde`](crate::convert::Serde)) |
/// | `#[dynomodel(json)] meta: T` | `Field<M, Json<T>>` ([`Json`](crate::convert::Json)) |
/// | any of these in an `Option` | `Field<M, Option<wrapper>>` |
///
/// `EpochSeconds`, `Ttl` and `Rfc3339` take the plain value wherever an operand is expected, so conditions,
/// key conditions and updates are written with the field's own type (`expires().lt(now)`,
/// `set(expires, now)`); [`Partial::get`](crate::Partial::get) returns the wrapper (`.0` or
/// `into_inner()` is the value). An index sorted by such a field has the same type as its sort key
/// (`Index<M, H, EpochSeconds<DateTime<Utc>>, T>`), so its `range_field()` renders alike.
///
/// ```
/// use chrono::{DateTime, TimeZone, Utc};
/// use dynomodel::{Model, Update};
/// use dynomodel::expression::ExpressionContext;
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Session {
///     #[hash_key]
///     id: String,
///     #[ttl]
///     expires: DateTime<Utc>,
///     #[dynomodel(epoch_seconds)]
///     seen: Option<DateTime<Utc>>,
/// }
///
/// let now = Utc.with_ymd_and_hms(2023, 11, 14, 22, 13, 20).unwrap();
/// let mut ctx = ExpressionContext::new();
/// assert_eq!(ctx.condition(&Session::expires().lt(now))?, "#n0 < :v0");
/// let update = Update::new().set(Session::seen(), now);
/// assert_eq!(ctx.update(&update)?.as_deref(), Some("SET #n1 = :v1"));
/// let (_, values) = ctx.finish();
/// // Epoch seconds, as the attributes are stored (a DateTime on its own would be an S string).
/// assert_eq!(values[":v0"].to_string(), r#"{"N":"1700000000"}"#);
/// assert_eq!(values[":v1"].to_string(), r#"{"N":"1700000000"}"#);
/// # Ok::<(), dynomodel::Error>(())
/// ```
///
/// # Secondary indexes
///
/// flywheel's three projections, as attributes. A local index (same partition key, another sort key;
/// the table needs a range key; at most 5) is declared on the field that sorts it; a global index (any
/// keys, `range` optional; at most 20) on the struct:
///
/// | attribute | index |
/// |---|---|
/// | `#[index(all = "ts-local")]` on a field | local, projection `ALL` |
/// | `#[index(keys = "rt-local")]` | local, `KEYS_ONLY` |
/// | `#[index(include = "like-local", includes = [text])]` | local, `INCLUDE` of the listed fields |
/// | `#[global_index(all("ts-index", hash = city, range = ts), throughput(read = 10, write = 2))]` | global, `ALL`, own capacity |
/// | `#[global_index(keys("rt-index", hash = city, range = retweets))]` | global, `KEYS_ONLY` |
/// | `#[global_index(include("like-index", hash = city, includes = [text]))]` | global, `INCLUDE`, no sort key |
///
/// Fields are named by their Rust names; the schema uses their attribute names (after `rename`). A
/// global index of a provisioned table without its own `throughput` takes the table's; an on-demand
/// table's indexes have none. Names follow the table-name rule and are unique; index keys must be
/// key types ([`KeyAttribute`](crate::KeyAttribute)); all of this is checked at compile time.
///
/// Each index gets a handle named after it in snake_case, `Tweet::rt_index() -> Index<Tweet, String,
/// i64, TweetRtIndexItem>` (the sort key's type is its field handle's; an index whose handle would take a field handle's name is a compile
/// error). Queries on an `ALL` index return the model; on a `KEYS_ONLY` or `INCLUDE` index they return
/// a generated `<Model><Index>Item` struct (same visibility as the model, `Debug + Clone + PartialEq`,
/// implementing [`Projected`] and [`KeyAttributes`](crate::KeyAttributes), so that a cursor can be
/// made after one) with exactly the table keys, the index keys and the included fields, and a `key()`
/// method giving the table key. See [`Db::query_index`](crate::Db::query_index).
///
/// ```
/// use dynomodel::{Model, ProjectionType};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "tweets")]
/// #[global_index(keys("rt-index", hash = city, range = retweets))]
/// pub struct Tweet {
///     #[hash_key] pub userid: String,
///     #[range_key] pub id: String,
///     pub city: String,
///     pub retweets: i64,
///     #[index(include = "like-local", includes = [text])] pub likes: i64,
///     pub text: String,
/// }
///
/// let schema = Tweet::schema();
/// assert_eq!(schema.global_secondary_indexes[0].projection.projection_type, ProjectionType::KeysOnly);
/// assert_eq!(schema.local_secondary_indexes[0].projection.non_key_attributes, ["text"]);
/// assert_eq!(Tweet::rt_index().name(), "rt-index");
/// // The KEYS_ONLY index's entries: table keys and index keys, nothing else.
/// let entry = TweetRtIndexItem { userid: "abc".into(), id: "1".into(), city: "Paris".into(), retweets: 3 };
/// assert_eq!(entry.key(), TweetKey::from(("abc", "1")));
/// ```
///
/// # Composite keys (`#[composite(...)]`)
///
/// A key built from several fields, as single-table designs do (`pk = "USER#u1"`,
/// `sk = "ORDER#2026-01-01#0000000007"`). On the struct, one attribute per composite:
///
/// | attribute | stored |
/// |---|---|
/// | `#[composite(pk = ("USER", userid), hash_key)]` | `pk`: `USER#<userid>` |
/// | `#[composite(sk = ("ORDER", date, id), range_key)]` | `sk`: `ORDER#<date>#<id>` |
/// | `#[composite(key = (tenant, at), hash_key, separator = "\|")]` | `key`: `<tenant>\|<at>` (no prefix, another separator) |
/// | `#[composite(id = (forum_name, subject), hash_key, rename = "Id")]` | `Id`: `<forum_name>#<subject>` (handle `Reply::id()`) |
///
/// The identifier before `=` names the composite's handle (`Order::sk()`) and, unless `rename =
/// "..."` names it otherwise, its attribute, which the struct's `rename_all` applies to as to a
/// field's; the list is an optional literal prefix, then the fields (at most six). Parts are tokens, not a `"USER#{userid}"` template, so that a misspelt
/// field is reported at that very name (a span cannot point inside a string literal on stable Rust).
/// A composite marked `hash_key` or `range_key` is a table key (the other key may be a composite or
/// a plain `#[hash_key]`/`#[range_key]` field). Any composite may key a global index:
/// `#[global_index(all("by-day", hash = gpk, range = gsk))]` names composites or stored fields,
/// and so do `includes = [...]` of an `include` projection (a part is not stored on its own: include
/// a composite holding it). A `keys` or `include` global index returns `<Struct><Index>Item` as for
/// other models, its parts decoded from the composites the index projects (the table's and the
/// index's keys, the included ones); `fetch_full()` reads the whole items. A local index is declared
/// on the struct too, as `#[local_index(all("by-status", range = ssk))]` (also `keys(...)` and
/// `include(..., includes = [...])`): no `hash` (the table's hash key partitions it) and no
/// `throughput` (it shares the table's); its `range` names a composite or a stored field other than
/// the table's keys, the table needs a range key, and there are at most 5 (a field's `#[index]` is
/// for models without composites). A field may be a part of several composites (`sk = ("ORDER", date, id)` and
/// `gpk = ("DAY", date)`); every composite is written on each put, and a part is read from the first
/// key composite holding it.
///
/// - **Storage.** The composite is an S attribute; its parts are *not* stored on their own (one copy,
///   which cannot disagree with the key), and are decoded from it on read. A stored value of another
///   shape is a [`ConversionError`] naming the attribute and the shape (`ORDER#{date}#{id}`).
/// - **Parts** are [`CompositePart`](crate::CompositePart)s, written as text that sorts like the value:
///   `String` as is, `u8`–`u64` zero-padded to full width, `NaiveDate` and `DateTime<Utc>` as
///   fixed-width ISO-8601 (a `DateTime<Utc>` at its `datetime` width). A part that is an `Option`, a
///   key, skipped, the version or the TTL is a compile error.
/// - **Separators.** A part holding the separator is refused with a [`ConversionError`] (no write is
///   sent): `"a#b" + "c"` and `"a" + "b#c"` would otherwise be one key. The last part is the
///   exception: a stored value is split on the first separators only, so `("Amazon DynamoDB", "C# or
///   Rust?")` is `Amazon DynamoDB#C# or Rust?`, unambiguously. A prefix holding the separator is a
///   compile error. There is no escaping, so prefix queries stay plain `begins_with`.
/// - **Updates.** Parts have no field handles, and a composite's handle is no update target, so no
///   update or filter can name them (a compile error): an update of one part would leave the
///   composite, often an index key, stale. A part of a key composite changes only with its key (a
///   new item); one of another composite changes by a whole-item write (put, save, a transaction's
///   or a batch's put), which writes every composite, or by [`sync`](crate::Db::sync), which
///   writes each composite whose parts changed, whole. An update of other fields leaves the
///   composites as stored, consistent with their parts.
/// - **Keys and queries.** `<Struct>Key` holds the parts; it converts from `(hash, range)` where each
///   is the only part's value or a tuple of the parts (`("u1", (date, 7))`, borrowed strings
///   included: `(("Amazon DynamoDB", "Thread 1"), at)`), and [`Db::query`](crate::Db::query) takes
///   the hash composite's parts the same way. Each composite has a [`Composite`](crate::Composite)
///   handle named after it (`Order::sk()`) whose conditions on the leading parts are checked at
///   compile time: `prefix((date,))`, and `between`, `ge`, `gt`, `le` on the part after the given
///   ones. Like a field's handle it has a [role](role): the conditions of a composite that sorts
///   the table or an index are the sort-key conditions `.range(..)` takes, those of another
///   composite (the hash key) are filters.
///
/// ```
/// use chrono::NaiveDate;
/// use dynomodel::Model;
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "orders")]
/// #[composite(pk = ("USER", userid), hash_key)]
/// #[composite(sk = ("ORDER", date, id), range_key)]
/// struct Order {
///     userid: String,
///     date: NaiveDate,
///     id: u32,
///     total: u64,
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = dynomodel_mem::memory();
/// db.create_schema::<Order>().await?;
/// let day = |d| NaiveDate::from_ymd_opt(2026, 1, d).unwrap();
/// for (d, id) in [(1, 10), (1, 9), (2, 1)] {
///     db.put(&Order { userid: "u1".into(), date: day(d), id, total: 100 }).await?;
/// }
/// let item = Order { userid: "u1".into(), date: day(1), id: 9, total: 100 }.to_item()?;
/// assert_eq!(item["sk"], dynomodel::AttributeValue::S("ORDER#2026-01-01#0000000009".into()));
/// assert!(!item.contains_key("date")); // stored only inside `sk`
///
/// assert!(db.get::<Order>(("u1", (day(1), 9))).await?.is_some());
/// let first_day: Vec<Order> = db.query::<Order>("u1").range(Order::sk().prefix((day(1),))).all().await?;
/// assert_eq!(first_day.iter().map(|o| o.id).collect::<Vec<_>>(), [9, 10]); // 9 sorts before 10
/// let later: Vec<Order> = db.query::<Order>("u1").range(Order::sk().gt((), day(1))).all().await?;
/// assert_eq!(later.len(), 1);
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
///
/// The Developer Guide's Reply table keys a reply by `Id`, `<forum>#<subject>`, and sorts it by
/// `ReplyDateTime` in milliseconds: `rename` keeps the attribute's name beside a snake_case handle,
/// the subject may hold `#` (it is the last part), and the parts are given borrowed:
///
/// ```
/// use chrono::{DateTime, TimeZone, Utc};
/// use dynomodel::{AttributeValue, Model};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "Reply", rename_all = "PascalCase", datetime = "millis")]
/// #[composite(id = (forum_name, subject), hash_key, rename = "Id")]
/// struct Reply {
///     forum_name: String,
///     subject: String,
///     #[range_key]
///     reply_date_time: DateTime<Utc>,
///     message: String,
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = dynomodel_mem::memory();
/// db.create_schema::<Reply>().await?;
/// let at = Utc.with_ymd_and_hms(2015, 9, 15, 19, 58, 22).unwrap();
/// let (forum, subject) = ("Amazon DynamoDB", "C# or Rust?");
/// let reply = Reply { forum_name: forum.into(), subject: subject.into(), reply_date_time: at, message: "Both".into() };
/// db.put(&reply).await?;
/// let item = reply.to_item()?;
/// assert_eq!(item["Id"], AttributeValue::S("Amazon DynamoDB#C# or Rust?".into()));
/// assert_eq!(item["ReplyDateTime"], AttributeValue::S("2015-09-15T19:58:22.000Z".into()));
/// assert_eq!(db.query::<Reply>((forum, subject)).all().await?, [reply.clone()]);
/// assert_eq!(db.get::<Reply>(((forum, subject), at)).await?, Some(reply));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
///
/// A local index sorts each user's orders by status and day; its `keys` projection returns the parts
/// of the keys it holds:
///
/// ```
/// use chrono::NaiveDate;
/// use dynomodel::Model;
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "orders")]
/// #[composite(pk = ("USER", userid), hash_key)]
/// #[composite(sk = ("ORDER", id), range_key)]
/// #[composite(ssk = ("STATUS", status, date))]
/// #[local_index(keys("by-status", range = ssk))]
/// struct Order { userid: String, id: u32, status: String, date: NaiveDate }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = dynomodel_mem::memory();
/// db.create_schema::<Order>().await?;
/// assert_eq!(Order::schema().local_secondary_indexes[0].index_name, "by-status");
/// let day = |d| NaiveDate::from_ymd_opt(2026, 1, d).unwrap();
/// for (id, status, d) in [(1, "open", 2), (2, "shipped", 1), (3, "open", 1)] {
///     db.put(&Order { userid: "u1".into(), id, status: status.into(), date: day(d) }).await?;
/// }
/// let open: Vec<OrderByStatusItem> = db
///     .query_index(Order::by_status(), "u1")
///     .range(Order::ssk().prefix(("open",)))
///     .all()
///     .await?;
/// assert_eq!(open.iter().map(|o| (o.id, o.date)).collect::<Vec<_>>(), [(3, day(1)), (1, day(2))]);
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
///
/// # Single-table entities (`entity = "..."`, [`Collection`])
///
/// Several models may share one table (`table = "app"` on each), usually with composite keys so
/// that a user and their orders live in one partition (`pk = USER#u1`). Each declares its entity
/// type, `#[dynomodel(entity = "Order")]`:
///
/// - **Written** on every put, transaction, batch write and update (an
///   [`upsert`](crate::UpdateItem::upsert) may create the item) into the attribute `_et`
///   ([`DEFAULT_ENTITY_ATTRIBUTE`]; `entity_attribute = "type"` names another, which must not be a
///   field's or composite's attribute).
/// - **Required by updates**: an update (and `incr`, `sync`, a transaction's update) is on
///   condition `_et = :entity`, so an update through one model never changes another entity's item
///   under the same key ([`Error::ItemNotFound`](crate::Error::ItemNotFound) names the entity found);
///   an upsert creates a missing item but does not overwrite another entity's.
/// - **Checked** on every read: [`Model::from_item`] of an item of another entity type (or without
///   one) is a [`ConversionError`] at `_et` naming both types, never a silent decode (a read of the
///   mapper reports it as [`Error::ItemDecode`](crate::Error::ItemDecode), with the table and key).
/// - **Filtered** on every scan, query and count of one member: `db.scan::<Order>()`,
///   `db.query::<Order>(..)` and `.count()` return only orders. The mapper adds `_et = "Order"` to
///   the request's `FilterExpression` (ANDed with the query's own filter), so DynamoDB counts
///   correctly (`Count` is after the filter) and `limit(n)` means n orders. The capacity is not
///   filtered: the other entities' items in the partition (or table) are still read and paid for,
///   and a page's `ScannedCount` includes them; [`page(n, ..)`](crate::Query::page) fills n
///   orders across requests, while a one-request [`dynamodb_page`](crate::Query::dynamodb_page)
///   may hold fewer orders than its limit, even none, with a cursor to go on. An index query is
///   filtered where the index entries hold `_et`: a local index, or a global index projecting
///   `ALL`; a global `KEYS_ONLY` or `INCLUDE` index cannot tell the entity types apart and returns
///   every entry that decodes as its entry type (`fetch_full()` then leaves out the full items of
///   other types).
/// - **Collections.** `#[derive(Collection)]` on an enum of the models (`User(User)`, ...) reads one
///   partition in one typed query, [`Db::collection`](crate::Db::collection), each item decoded as
///   the member its `_et` names, and one item by the key of any member,
///   [`Db::get_collection`](crate::Db::get_collection). Items of entity types no member declares go
///   to a `#[dynomodel(unknown)]` variant holding the [`Item`], or fail the read with an error
///   listing the known types: they are never dropped. A member's own query
///   (`db.query::<Order>(..).range(..)`), scan or index query (`db.query_index(..)`) becomes a
///   collection query with `.collection::<C>()`, which returns every member's items.
/// - **Changes.** [`Db::changes::<Order>()`](crate::Db::changes) of the shared table's stream
///   yields only the orders' records (the other entity types' are skipped, except in a `KEYS_ONLY`
///   stream, whose records carry no entity type);
///   [`Db::collection_changes::<C>()`](crate::Db::collection_changes) yields every record decoded
///   into `C`, an unknown entity type handled as by the collection query.
/// - **Schema.** [`Db::create_collection_schema`](crate::Db::create_collection_schema) creates the
///   table from the union of the members' schemas (every member's key attributes and indexes); the
///   union for [`Db::plan_all`](crate::Db::plan_all) migrations is [`Collection::definition`].
///   Members in different tables, with different key attribute names or entity attributes, hash
///   keys written differently (another composite prefix or part type: the partition a collection
///   reads would miss their items), without an entity type, or sharing one are compile errors; what only exists at run time (an attribute
///   typed differently, an index of one name declared twice differently, other billing or stream
///   settings) is an [`Error::SchemaConflict`](crate::Error::SchemaConflict) naming the two models.
///
/// ```
/// use dynomodel::{Collection, Model};
///
/// #[derive(Model, Debug, PartialEq)]
/// #[dynomodel(table = "app", entity = "User")]
/// #[composite(pk = ("USER", userid), hash_key)]
/// #[composite(sk = ("PROFILE", userid2), range_key)]
/// struct User { userid: String, userid2: String, name: String }
///
/// #[derive(Model, Debug, PartialEq)]
/// #[dynomodel(table = "app", entity = "Order")]
/// #[composite(pk = ("USER", userid), hash_key)]
/// #[composite(sk = ("ORDER", id), range_key)]
/// struct Order { userid: String, id: u32, total: u64 }
///
/// #[derive(Collection, Debug, PartialEq)]
/// enum UserData { User(User), Order(Order) }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = dynomodel_mem::memory();
/// db.create_collection_schema::<UserData>().await?;
/// db.put(&User { userid: "u1".into(), userid2: "u1".into(), name: "Ada".into() }).await?;
/// db.put(&Order { userid: "u1".into(), id: 7, total: 70 }).await?;
///
/// let all = db.collection::<UserData>("u1").all().await?;
/// assert!(matches!(&all[..], [UserData::Order(o), UserData::User(u)] if o.id == 7 && u.name == "Ada"));
/// // A member's own reads see only its items.
/// assert_eq!(db.scan::<Order>().count().await?, 1);
/// assert_eq!(db.query::<User>("u1").all().await?.len(), 1);
/// let order = db.get_collection::<UserData>(OrderKey::from(("u1", 7_u32))).await?;
/// assert!(matches!(order, Some(UserData::Order(o)) if o.total == 70));
///
/// // An order is not a user.
/// let order = Order { userid: "u1".into(), id: 7, total: 70 }.to_item()?;
/// assert!(User::from_item(order).unwrap_err().to_string().contains(r#"entity type "Order""#));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
///
/// # Item versions and upcasting (`item_version`)
///
/// Items written by older code keep their old shape until something rewrites them. A model states
/// the version of its items' shape, `#[dynomodel(item_version = 3)]`, and how to read each older
/// one, `#[upcast(...)]` on the struct:
///
/// | attribute | reads an item of version `N` |
/// |---|---|
/// | `#[upcast(from = 1, item = v1_to_v2)]` | through `fn(Item) -> Result<Item, ConversionError>`, which turns it into an item of version `N + 1` (raw attributes: rename, split, add with a default) |
/// | `#[upcast(from = 2, model = PersonV2)]` | as the older struct `PersonV2` (a `#[derive(Model)]` or `Document` of that shape, any [`Attribute`](crate::Attribute)), converted with `From` into the next step's struct, or into the model after the last step |
///
/// - **Written by every write**: put, save, a transaction's or a batch's put, and every update
///   (`update`, `incr`, `sync`, upserts, a transaction's update) store the version in
///   [`ITEM_VERSION_ATTRIBUTE`](Model::ITEM_VERSION_ATTRIBUTE) (`_v`, an N). An item without the
///   attribute counts as **version 1**: it was written before the model declared versions.
/// - **Upcast on every read**: [`from_item`](Model::from_item), so get, query, scan, batch gets,
///   a transaction's gets, change streams' images and the items errors carry. The steps chain from
///   the item's version to the model's: `item` functions first (each sees the previous one's item
///   with the version attribute set to the version it reads), then `model` structs, each converted
///   into the next with `From`. An item at the model's version costs one attribute lookup and one
///   comparison more than a model without versions; a model without `item_version` pays nothing.
/// - **Refused with its name**: an item newer than the model (written by newer code), older than
///   its oldest upcast (no path), or whose version attribute is no whole number from 1 is a
///   [`ConversionError`] at the version attribute naming the versions, which a read reports as
///   [`Error::ItemDecode`](crate::Error::ItemDecode) with the table and key.
/// - **Updates change only items at the model's version.** An update names some attributes only:
///   on an older item it would leave the others in their old shape under the new version (read
///   wrongly, never upcast again) or its new ones under the old version (upcast from a shape the
///   upcast does not expect). So an update's existence check also requires `_v = :version` (for
///   version 1, or no attribute), and an older item fails it as
///   [`Error::ItemNotFound`](crate::Error::ItemNotFound) whose
///   [`stored_item_version`](crate::ItemNotFound::stored_item_version) names its version; nothing is
///   written. Read it (which upcasts) and put it whole, or backfill the table.
/// - **Telling the version**: `.versioned()` on [`get`](crate::Get::versioned),
///   [`query`](crate::Query::versioned) and [`scan`](crate::Scan::versioned) reads
///   [`Versioned<M>`](crate::Versioned), the value with the version its item was written with;
///   [`stored_item_version`](crate::stored_item_version) reads it from a raw item.
///
/// At compile time: versions start at 1; each upcast reads a version below the model's, once; the
/// chain has no gap between the lowest declared and the model's; an `item` upcast cannot follow a
/// `model` one; the attribute is not a field's, a composite's, the entity attribute or the
/// `#[version]`'s; a function of the wrong type or a missing `From` is reported at its path.
///
/// ```
/// use dynomodel::{AttributeValue, ConversionError, Item, Model};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "people")]
/// struct PersonV1 { #[hash_key] id: String, name: String }
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "people", item_version = 2)]
/// struct PersonV2 { #[hash_key] id: String, name: String, email: String }
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "people", item_version = 3)]
/// #[upcast(from = 1, item = v1_to_v2)]
/// #[upcast(from = 2, model = PersonV2)]
/// struct Person { #[hash_key] id: String, first: String, last: String, email: String }
///
/// /// Version 2 added an email; the old accounts had one at the old domain.
/// fn v1_to_v2(mut item: Item) -> Result<Item, ConversionError> {
///     let Some(AttributeValue::S(id)) = item.get("id") else {
///         return Err(ConversionError::missing("an id").at("id"));
///     };
///     let email = format!("{id}@old.example");
///     item.insert("email".into(), AttributeValue::S(email));
///     Ok(item)
/// }
///
/// /// Version 3 split the name.
/// impl From<PersonV2> for Person {
///     fn from(v2: PersonV2) -> Person {
///         let (first, last) = v2.name.split_once(' ').unwrap_or((&v2.name, ""));
///         Person { id: v2.id, first: first.into(), last: last.into(), email: v2.email }
///     }
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = dynomodel_mem::memory();
/// db.create_schema::<Person>().await?;
/// db.put(&PersonV1 { id: "ada".into(), name: "Ada Lovelace".into() }).await?; // no `_v`: version 1
///
/// let ada = db.get::<Person>("ada").await?.expect("stored");
/// assert_eq!((ada.first.as_str(), ada.email.as_str()), ("Ada", "ada@old.example"));
/// // An update would mix versions: refused until the item is rewritten whole.
/// let err = db.update::<Person>("ada").set(Person::last(), "King").await.unwrap_err();
/// assert!(matches!(&err, dynomodel::Error::ItemNotFound(e) if e.stored_item_version == Some(1)));
/// db.put(&ada).await?; // now version 3
/// db.update::<Person>("ada").set(Person::last(), "King").await?;
/// assert_eq!(ada.to_item()?["_v"], AttributeValue::N(3_u32.into()));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
///
/// # Writes of a missing item
///
/// The mapper never writes an item its model could not read back. A put writes the whole value;
/// an update names only some attributes, so on a missing key it would create an item holding just
/// those (DynamoDB's own `UpdateItem` does), and every later read of it, or of a query over its
/// partition, would fail. So:
///
/// | write | on a missing item (or, in a shared table, another entity's) |
/// |---|---|
/// | [`put`](crate::Db::put), [`save`](crate::Db::save), a transaction's `put`/`save`, [`batch_write`](crate::Db::batch_write) | creates it from the whole value |
/// | [`update`](crate::Db::update) (every finisher), [`incr`](crate::Db::incr), [`sync`](crate::Db::sync), [`sync_atomic`](crate::Db::sync_atomic) | writes nothing: [`Error::ItemNotFound`](crate::Error::ItemNotFound), naming the model, table and key |
/// | a transaction's `update` | cancels the transaction with a reason that [`is_item_not_found`](crate::CancellationReason::is_item_not_found) |
/// | [`update(..).upsert()`](crate::UpdateItem::upsert) | creates it, if the update sets every attribute of [`Model::required_attributes`] (checked before sending; refused otherwise, naming what is missing) |
///
/// ```
/// use dynomodel::{Db, Model};
/// # use dynomodel_mem::MemoryDb;
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Thread { #[hash_key] forum: String, #[range_key] subject: String, message: String, views: u64 }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = Db::memory();
/// db.create_schema::<Thread>().await?;
/// let err = db.update::<Thread>(("rust", "ghost")).add(Thread::views(), 1).await.unwrap_err();
/// assert!(err.is_item_not_found());
/// assert!(db.query::<Thread>("rust").all().await?.is_empty()); // nothing was written
///
/// db.update::<Thread>(("rust", "hello"))
///     .set(Thread::message(), "hello")
///     .add(Thread::views(), 1)
///     .upsert()
///     .await?;
/// assert_eq!(db.query::<Thread>("rust").all().await?.len(), 1); // created, and readable
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
///
/// # Optimistic locking (`#[version]`)
///
/// A field marked `#[version]` counts the writes of an item, so that a copy read before someone
/// else's write cannot overwrite it. Its type is any integer type, or an `Option` of one
/// ([`VersionAttribute`](crate::VersionAttribute)); a model has at most one, and it is neither a
/// key nor skipped. To the mapper a version is a `u64`:
///
/// | the field holds | meaning |
/// |---|---|
/// | `0`, or `None` | not saved yet: no item with this key may exist |
/// | `n`, or `Some(n)` | read or saved at version `n`: the stored item must still have `n` |
///
/// How each write treats it (every update, whatever its version check, also requires the item to
/// exist unless it is an [`upsert`](crate::UpdateItem::upsert): see [`UpdateItem`](crate::UpdateItem)):
///
/// | write | checks (with the user's conditions) | writes |
/// |---|---|---|
/// | [`put`](crate::Db::put), [`save`](crate::Db::save), a transaction's `put`/`save` | `attribute_not_exists(<hash key>)` for a value not saved yet, else `<version> = :held` | the next version (1 for a first save); `save` also sets it in the value |
/// | [`update`](crate::Db::update), a transaction's `update` | the item exists (not for an upsert); the version only with [`if_version`](crate::UpdateItem::if_version) | `ADD <version> 1`, unless it changes [counters](Model#counters-dynomodelcounter) only (or [`skip_version_bump`](crate::UpdateItem::skip_version_bump)); an upsert of counters only: `SET <version> = if_not_exists(<version>, 1)` |
/// | [`delete`](crate::Db::delete), a transaction's `delete` | as a put | — |
/// | [`delete_key`](crate::Db::delete_key) | only with [`if_version`](crate::DeleteKey::if_version) | — |
/// | [`sync`](crate::Db::sync), [`sync_atomic`](crate::Db::sync_atomic) | the item exists, and has the version of `before` (no version when only counters changed) | `ADD <version> 1` (edits of the version field itself are not written), unless only counters changed |
/// | [`incr`](crate::Db::incr) | the item exists; no version (an `ADD` is right whatever else changed) | `ADD <version> 1` (nothing for a counter), and the value is refreshed |
/// | [`batch_write`](crate::Db::batch_write)'s `put`, `delete` of a value | cannot (`BatchWriteItem` takes no condition): refused unless [`ignore_version`](crate::BatchWrite::ignore_version) | the value as it is |
/// | [`batch_write`](crate::Db::batch_write)'s `delete_key` | nothing, as `delete_key` | — |
///
/// An update bumps without checking unless asked because it names what it changes: counters and set
/// additions are right whatever else changed, and requiring the version would force a read before
/// each of them. The bump is what matters for safety: every copy read before it is stale, so a
/// whole-item write from one fails instead of undoing the update. A field whose changes should not
/// make open edits stale (a count of views) is a [counter](Model#counters-dynomodelcounter).
///
/// A failed version check is [`Error::VersionConflict`](crate::Error::VersionConflict), naming the
/// model, the key, the version expected and the one stored, with the stored item
/// ([`Error::conditional_item`](crate::Error::conditional_item)); it is told apart from a failed user
/// condition by that item. In a transaction it is
/// [`Error::TransactionCanceled`](crate::Error::TransactionCanceled) whose reason
/// [`is_version_conflict`](crate::CancellationReason::is_version_conflict);
/// [`Error::is_version_conflict`](crate::Error::is_version_conflict) covers both. The remedy is to
/// read again ([`Db::refresh`](crate::Db::refresh)) and redo the change.
///
/// `put` takes `&M`, so it cannot bump the value: the value is then one version behind, and writing
/// it again fails (never a silent overwrite). [`Db::save`](crate::Db::save) takes `&mut M` and keeps
/// the value current.
///
/// `.ignore_version()` (on [`Put`](crate::Put::ignore_version), [`Save`](crate::Save::ignore_version),
/// [`UpdateItem`](crate::UpdateItem::ignore_version), [`Delete`](crate::Delete::ignore_version), and
/// a whole [`BatchWrite`](crate::BatchWrite::ignore_version)) sends a request as if the model had no version: no check, no bump, the item stored as it is in
/// memory (counters included; only the [timestamps](Model#timestamps-created_at-updated_at) are
/// still stamped). It is for repairs, imports and migrations; it can move a version back. Items written
/// before the field existed have no version attribute: read them with `#[dynomodel(default)]` (as
/// not saved yet), then write them once with `.ignore_version()`, or update them (the update's `ADD`
/// starts the count at 1). A version that does not fit the field's type is a conversion error before
/// anything is sent (an update's `ADD` cannot check it: prefer `u64`).
///
/// ```
/// use dynomodel::{Error, Model};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Account {
///     #[hash_key]
///     id: String,
///     balance: i64,
///     #[version]
///     version: u64,
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = dynomodel_mem::memory();
/// db.create_schema::<Account>().await?;
/// let mut account = Account { id: "a1".into(), balance: 100, version: 0 };
/// db.save(&mut account).await?; // create only; now version 1
///
/// // Two handles read it, and both edit it.
/// let (mut one, mut two) = (account.clone(), account.clone());
/// one.balance += 10;
/// db.save(&mut one).await?; // version 2
/// two.balance -= 10;
/// let err = db.save(&mut two).await.unwrap_err(); // would lose one's deposit
/// assert!(matches!(&err, Error::VersionConflict(c) if (c.expected, c.stored) == (Some(1), Some(2))));
///
/// two = err.conditional_item::<Account>()?.expect("the stored item");
/// two.balance -= 10;
/// db.save(&mut two).await?; // version 3, balance 100
/// assert_eq!(db.get::<Account>("a1").await?, Some(two));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
///
/// # Counters (`#[dynomodel(counter)]`)
///
/// A counter is a number or a set ([`CounterAttribute`](crate::convert::CounterAttribute): an
/// integer, float, [`Number`](crate::Number), decimal, `HashSet`/`BTreeSet`, or an `Option` of one)
/// whose changes are atomic (`ADD`, `DELETE`, `incr`) and never conflict with an edit of the rest
/// of the item: a thread's views, a post's likes, a set of tags anyone may add to. It belongs on a
/// model with a `#[version]` (that is what it is exempt from), as a stored, plain, top-level
/// attribute: not a key, the version, the TTL, a timestamp, a composite part, skipped, or stored
/// through `epoch_seconds`, `serde` or `json`; all of this is checked at compile time.
///
/// - **Updates of counters only do not bump the version** (nor check it, unless asked with
///   [`if_version`](crate::UpdateItem::if_version)): a thread being viewed leaves every open edit
///   current. An update that also changes anything else bumps as usual.
///   [`skip_version_bump()`](crate::UpdateItem::skip_version_bump) states that an update must not
///   bump, and refuses one that changes anything but counters. Like every update, one of counters
///   only changes an existing item ([`Error::ItemNotFound`](crate::Error::ItemNotFound) otherwise);
///   an [`upsert`](crate::UpdateItem::upsert) of counters only that creates the item gives it
///   version 1 (`SET <version> = if_not_exists(<version>, 1)`), as a bump would.
/// - **Whole-item writes never lose increments.** A copy read before some increments still holds
///   the current version, so its put or save passes the version check; written as a `PutItem`, it
///   would set the counters back. A [`put`](crate::Db::put), [`save`](crate::Db::save) or a
///   transaction's `put`/`save` of a value at a stored version is therefore sent as an `UpdateItem`
///   (same condition, `<version> = :held`) that `SET`s every other attribute, `REMOVE`s the model's
///   attributes the value stores nothing in (`None`, an empty set) and leaves the counters as
///   stored. Attributes the model does not know are kept too (a `PutItem` would drop them). Its
///   version condition holds only on a stored item, so it never creates one: an item deleted
///   since the copy was read is a [`VersionConflict`](crate::Error::VersionConflict), as for a
///   `PutItem`. A first save (version `0`/`None`, create-only) is a `PutItem` storing the value's
///   counters, and an `.ignore_version()` write stores the value as it is, counters included.
/// - **What the value holds afterwards.** `save` reads the stored item back (`ALL_NEW`, no read
///   capacity) and takes it whole, so the value holds the counters as stored; `incr` and `refresh`
///   also take the stored item. A transaction's `save` returns no item: it sets the version and
///   the timestamps, and leaves the value's counters as they were ([`refresh`](crate::Db::refresh)
///   to read them); `put` takes `&M` and changes nothing.
/// - [`sync`](crate::Db::sync) writes a counter's change as its difference (`ADD after - before`;
///   for a set, `ADD` of the elements it gained, `DELETE` of those it lost), which adds to what
///   others did meanwhile, and checks no guard on it; a counter cleared in `after` is removed. A set
///   that both gained and lost elements is refused (one update cannot `ADD` to and `DELETE` from one
///   attribute).
/// - A batch cannot check a version at all: its puts of a versioned model stay refused unless
///   [`ignore_version`](crate::BatchWrite::ignore_version), which stores the counters as they are.
///
/// ```
/// use std::collections::BTreeSet;
/// use dynomodel::{Db, Model};
/// # use dynomodel_mem::MemoryDb;
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Thread {
///     #[hash_key]
///     subject: String,
///     message: String,
///     #[dynomodel(counter)]
///     views: u64,
///     #[dynomodel(counter)]
///     tags: BTreeSet<String>,
///     #[version]
///     version: u64,
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let db = Db::memory();
/// db.create_schema::<Thread>().await?;
/// let mut thread = Thread { subject: "Rust?".into(), message: "Why?".into(), views: 0, tags: BTreeSet::new(), version: 0 };
/// db.save(&mut thread).await?; // version 1
///
/// let mut edit = thread.clone(); // an edit form, open while the thread is read
/// db.update::<Thread>("Rust?").add(Thread::views(), 1).await?; // still version 1
/// db.update::<Thread>("Rust?").add(Thread::tags(), BTreeSet::from(["faq".to_owned()])).await?;
///
/// edit.message = "Why not?".into();
/// db.save(&mut edit).await?; // no conflict, and the view and the tag are kept
/// assert_eq!((edit.views, edit.tags.len(), edit.version), (1, 1, 2));
/// assert_eq!(db.get::<Thread>("Rust?").await?, Some(edit));
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
///
/// # Timestamps (`#[created_at]`, `#[updated_at]`)
///
/// Fields the mapper sets on writes, as the Java Enhanced Client's auto-generated timestamps: a
/// `DateTime<Utc>` or `Option<DateTime<Utc>>` ([`TimestampAttribute`](crate::convert::TimestampAttribute)),
/// stored like any such field, and stamped through the field's own conversion: RFC 3339 text at
/// the field's or the model's [`datetime`](crate::convert::datetime) width (nine digits by
/// default, truncated like any write), or a number with `epoch_seconds`. A model has
/// at most one of each, on a stored, plain, top-level attribute that is no key, version, TTL or
/// counter (checked at compile time). "Not stamped yet" is `None`, or the Unix epoch (what
/// `Default` gives a plain `DateTime<Utc>`). A timestamp may key an index: one sorted by
/// `#[updated_at]` lists items by their last write, each write moving its item to the end, and
/// [`cursor_after`](crate::Query::cursor_after) a saved value positions right after it.
///
/// | write | `#[updated_at]` | `#[created_at]` |
/// |---|---|---|
/// | [`put`](crate::Db::put), [`save`](crate::Db::save), a transaction's `put`/`save`, a [batch](crate::Db::batch_write)'s `put` | now | kept if the value holds one, else now (a save over a stored version with none: `if_not_exists(created_at, :now)`, the stored one kept) |
/// | [`update`](crate::Db::update) with actions, a transaction's `update`, [`sync`](crate::Db::sync), [`incr`](crate::Db::incr) | `SET updated_at = :now` | `SET created_at = if_not_exists(created_at, :now)`: set when an [`upsert`](crate::UpdateItem::upsert) creates the item, or on an item stored without one |
/// | [`delete`](crate::Db::delete), an update without actions | — | — |
///
/// An update only updates an item that exists unless it is an upsert, yet it still writes
/// `created_at` with `if_not_exists`: an item stored before the field existed (or by other code)
/// has none, and a `created_at` field that is not an `Option` could not read it back; its first
/// update gives it one, the earliest time the mapper saw it rather than its creation. The
/// timestamps the mapper sets count as set for an upsert's
/// [required attributes](Model::required_attributes).
///
/// An update whose own actions name a timestamp keeps its value (an import setting the times it
/// read); `sync` never writes edits of them. `.ignore_version()` does not turn stamping off. `save`
/// sets the value's fields to what it stored, so the value equals the stored item; `incr` and
/// `refresh` read the stored item; `put` takes `&M` and leaves the value as it was.
///
/// **The clock** is the backend's, [`Backend::now`](crate::Backend::now), read once per write
/// before the request is sent: the system's for Amazon DynamoDB, the engine's own for
/// `dynomodel_mem::MemBackend` (`MemBackend::with_clock`), the one its time to live runs on, so a
/// test that moves the engine's clock sees items stamped at exactly the times it set. The time is
/// the writer's (DynamoDB stamps nothing): writers whose clocks disagree stamp times out of order.
///
/// ```
/// use chrono::{DateTime, TimeZone, Utc};
/// use dynomodel::{Db, Model};
/// use dynomodel_mem::{ManualClock, MemBackend};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Note {
///     #[hash_key]
///     id: String,
///     text: String,
///     #[created_at]
///     created: Option<DateTime<Utc>>,
///     #[updated_at]
///     #[dynomodel(datetime = "millis")]
///     updated: DateTime<Utc>,
/// }
///
/// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
/// let clock = ManualClock::new(Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap());
/// let db = Db::new(MemBackend::with_clock(clock.clone()));
/// db.create_schema::<Note>().await?;
///
/// let mut note = Note { id: "n1".into(), text: "draft".into(), created: None, updated: DateTime::UNIX_EPOCH };
/// db.save(&mut note).await?;
/// assert_eq!(note.created, Some(Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap()));
///
/// clock.advance(std::time::Duration::from_secs(60));
/// let note = db.update::<Note>("n1").set(Note::text(), "final").returning_new().await?;
/// assert_eq!(note.updated, Utc.with_ymd_and_hms(2026, 3, 1, 9, 1, 0).unwrap());
/// assert_eq!(note.created, Some(Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap())); // kept
/// # Ok::<(), dynomodel::Error>(())
/// # }).unwrap();
/// ```
///
/// # Time to live (`#[ttl]`)
///
/// DynamoDB deletes an item some time after the epoch second stored in the table's time-to-live
/// attribute has passed (typically within a few days; until then the item is still read, queried and
/// scanned). `#[ttl]` marks that attribute: the field is stored as whole seconds since the Unix epoch
/// through [`convert::ttl`](crate::convert::ttl) (a time's sub-second part is dropped; an integer is
/// stored as it is; `None` stores nothing, so the item never expires), and
/// [`Model::TTL_ATTRIBUTE`] names it, so that [`Db::plan`](crate::Db::plan) enables time to live on
/// that attribute. A model has at most one; it is not a key, not skipped and not the `#[version]`.
///
/// The table options above are part of [`Model::schema`] and, like the indexes, of what
/// [`Db::plan`](crate::Db::plan) compares with the live table.
///
/// ```
/// use chrono::{DateTime, Utc};
/// use dynomodel::Model;
/// use dynomodel::backend::{StreamViewType, Tag};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "sessions", tags(team = "auth", "cost-center" = "42"), stream = "keys_only")]
/// struct Session {
///     #[hash_key]
///     id: String,
///     #[ttl]
///     expires_at: DateTime<Utc>,
/// }
///
/// assert_eq!(Session::TTL_ATTRIBUTE, Some("expires_at"));
/// let schema = Session::schema();
/// assert_eq!(schema.tags, [Tag::new("team", "auth"), Tag::new("cost-center", "42")]);
/// assert_eq!(schema.stream_specification.and_then(|s| s.stream_view_type), Some(StreamViewType::KeysOnly));
/// ```
///
/// `#[derive(Document)]` implements only [`Attribute`](crate::Attribute) (stored as a map) for a
/// struct nested in items, with the same field options and no keys:
///
/// ```
/// use std::collections::BTreeSet;
/// use chrono::{DateTime, Utc};
/// use dynomodel::{Document, Model};
///
/// #[derive(Document, Debug, Clone, PartialEq)]
/// struct Address {
///     city: String,
///     #[dynomodel(rename = "zip")]
///     postcode: Option<String>,
/// }
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// #[dynomodel(table = "tweets", throughput(read = 10, write = 2), rename_all = "camelCase")]
/// pub struct Tweet {
///     /// The author.
///     #[hash_key]
///     pub user_id: String,
///     /// When it was posted, in epoch seconds.
///     #[range_key]
///     #[dynomodel(epoch_seconds)]
///     pub posted_at: DateTime<Utc>,
///     /// Where from.
///     pub address: Address,
///     /// Tags (a string set).
///     pub tags: BTreeSet<String>,
///     /// Not stored.
///     #[dynomodel(skip)]
///     pub cached_html: Option<String>,
/// }
///
/// assert_eq!(Tweet::posted_at().name(), "postedAt");
/// let key = TweetKey::from(("ada", DateTime::UNIX_EPOCH));
/// assert_eq!(key.user_id, "ada");
/// ```
pub trait Model: Sized + Send + Sync + 'static {
    /// The primary key: a generated `<Model>Key` struct holding the hash key and, if any, the range key.
    type Key: PrimaryKey;

    /// The hash key field's type (a tuple of the parts for a composite of several): what
    /// [`Db::query`](crate::Db::query) takes, as an [`IntoKey`] of it.
    type Hash: Send + 'static;

    /// The table's name (before any [`crate::Db`] namespace prefix).
    const TABLE_NAME: &'static str;

    /// The hash key's attribute name.
    const HASH_KEY: &'static str;

    /// The range key's attribute name, if the table has one.
    const RANGE_KEY: Option<&'static str>;

    /// The entity type of `#[dynomodel(entity = "...")]`: written into [`Model::ENTITY_ATTRIBUTE`] by
    /// [`Model::to_item`] and checked by [`Model::from_item`] (see "Single-table entities").
    const ENTITY_TYPE: Option<&'static str> = None;

    /// The attribute holding the entity type (`entity_attribute = "..."`, by default
    /// [`DEFAULT_ENTITY_ATTRIBUTE`], `_et`).
    const ENTITY_ATTRIBUTE: &'static str = DEFAULT_ENTITY_ATTRIBUTE;

    /// The item version of `#[dynomodel(item_version = N)]`: the version of the item's schema
    /// this model writes into [`Model::ITEM_VERSION_ATTRIBUTE`] on every write (put, save, update,
    /// batch, transaction, `sync`), and reads older items from through its upcasts (see
    /// [item versions](Model#item-versions-and-upcasting-item_version)). `None` without the option:
    /// nothing is written or checked.
    const ITEM_VERSION: Option<u32> = None;

    /// The attribute holding the item version (`item_version_attribute = "..."`, by default
    /// [`DEFAULT_ITEM_VERSION_ATTRIBUTE`], `_v`). An item without it counts as version 1.
    const ITEM_VERSION_ATTRIBUTE: &'static str = DEFAULT_ITEM_VERSION_ATTRIBUTE;

    /// How the hash key attribute is written from [`Model::Hash`]: `{}` for a field (the default),
    /// the composite's text with `{}` for each part otherwise (`USER#{}` for `pk = ("USER",
    /// userid)`). The members of a [`Collection`] must agree on it (and on `Hash`), so that the
    /// partition a collection query reads holds every member's items; the derive checks this at
    /// compile time.
    const HASH_KEY_SHAPE: &'static str = "{}";

    /// A hash key value as stored (through the field's conversion, e.g. `epoch_seconds`).
    fn hash_key_value(hash: &Self::Hash) -> Result<AttributeValue, ConversionError>;

    /// The table definition: key schema, attribute definitions, billing, indexes.
    fn schema() -> CreateTableInput;

    /// Converts to a DynamoDB item.
    fn to_item(&self) -> Result<Item, ConversionError>;

    /// Writes the item's attributes into `sink` one by one, in field order: the attributes of
    /// [`to_item`](Model::to_item), with its checks and errors, into whatever holds them (the AWS
    /// SDK's item map for [`AwsBackend::to_sdk_item`](crate::AwsBackend::to_sdk_item), and for
    /// [`Db::put`](crate::Db::put)'s request through
    /// [`Backend::put_item_from`](crate::Backend::put_item_from)) without an intermediate [`Item`]. On an error, `sink` holds the attributes written before it. The
    /// derive writes each field directly (under its `&'static str` name, a string or a set of
    /// strings borrowed: [`Attribute::write_attribute`](crate::Attribute::write_attribute)), and its
    /// `to_item` is this into an `Item`; the default writes what `to_item` returns.
    ///
    /// See [`AttributeSink`](crate::backend::AttributeSink) for an example.
    fn write_attributes(
        &self,
        sink: &mut dyn crate::backend::AttributeSink,
    ) -> Result<(), ConversionError> {
        for (name, value) in self.to_item()? {
            sink.insert(name, value);
        }
        Ok(())
    }

    /// Converts from a DynamoDB item; errors name the attribute and the expected type.
    fn from_item(item: Item) -> Result<Self, ConversionError>;

    /// Converts from an item's attributes given one by one (each name once, in any order), as a
    /// typed read hands them over (see [`ItemSink`](crate::backend::ItemSink)): the same result and errors
    /// as [`from_item`](Model::from_item). The derive decodes them directly; the default collects
    /// them into an [`Item`] first.
    fn from_attributes(
        attributes: &mut dyn Iterator<Item = (std::borrow::Cow<'_, str>, AttributeValue)>,
    ) -> Result<Self, ConversionError> {
        Self::from_item(
            attributes
                .map(|(name, value)| (name.into_owned(), value))
                .collect(),
        )
    }

    /// This value's primary key.
    fn key(&self) -> Self::Key;

    /// The attributes [`from_item`](Model::from_item) fails without, besides the table's key
    /// attributes (which every stored item has), in field order: the stored fields whose type has
    /// no "nothing" to read a missing attribute as (a `String`, a number, a list, a map, a
    /// document; not an `Option` or a set, nor a field with `#[dynomodel(default)]`), then the composites
    /// that key no table key and that a part is read from, then the entity attribute of a
    /// single-table model (`_et`).
    ///
    /// This is what an update allowed to create its item
    /// ([`UpdateItem::upsert`](crate::UpdateItem::upsert)) must set, so that the item it creates can
    /// be read back; the mapper checks it before sending. Generated by `#[derive(Model)]` (computed
    /// once per model from each field type's [`Attribute::from_missing`](crate::Attribute::from_missing),
    /// which is what `from_item` calls for a missing attribute).
    fn required_attributes() -> &'static [RequiredAttribute];

    /// The attribute name of the `#[version]` field, if the model has one (see
    /// [optimistic locking](Model#optimistic-locking-version)).
    const VERSION_ATTRIBUTE: Option<&'static str> = None;

    /// The attribute name of the `#[ttl]` field, if the model has one: the table's time-to-live
    /// attribute, which [`Db::plan`](crate::Db::plan) enables (see [time to live](Model#time-to-live-ttl)).
    const TTL_ATTRIBUTE: Option<&'static str> = None;

    /// The table's point-in-time recovery, if the model turns it on
    /// (`#[dynomodel(point_in_time_recovery)]`, or `point_in_time_recovery(recovery_period_days = N)`
    /// for a window other than DynamoDB's 35 days): part of the model's
    /// [`Definition`](crate::migrate::Definition), which [`Db::plan`](crate::Db::plan) turns on with
    /// UpdateContinuousBackups once the table is active, and off when the model no longer asks for it.
    const POINT_IN_TIME_RECOVERY: Option<crate::backend::PointInTimeRecoverySpecification> = None;

    /// The version this value holds: `None` when it was never saved (a version of `0` or `None`), or
    /// when the model has no `#[version]` field.
    fn version(&self) -> Result<Option<u64>, ConversionError> {
        Ok(None)
    }

    /// Sets the `#[version]` field (`None`: not saved yet); does nothing without one.
    fn set_version(&mut self, version: Option<u64>) -> Result<(), ConversionError> {
        let _ = version;
        Ok(())
    }

    /// How `version` is stored in the version attribute (a number, through the field's type).
    ///
    /// Errors: the version does not fit the field's type (`256` in a `u8`).
    fn version_value(version: u64) -> Result<AttributeValue, ConversionError> {
        Ok(AttributeValue::N(version.into()))
    }

    /// The attribute names of the `#[dynomodel(counter)]` fields: changed only by atomic updates,
    /// exempt from the version bump, and left as stored by whole-item writes of a stored version
    /// (see [counters](Model#counters-dynomodelcounter)).
    const COUNTERS: &'static [&'static str] = &[];

    /// Every top-level attribute the model stores (keys, fields, composites, the entity attribute),
    /// in field order: a whole-item write of a model with [counters](Model::COUNTERS), sent as an
    /// `UpdateItem`, removes those of them the value stores nothing in. Attributes no model field
    /// names are left alone.
    const ATTRIBUTES: &'static [&'static str] = &[];

    /// The attribute name of the `#[created_at]` field, if any (see
    /// [timestamps](Model#timestamps-created_at-updated_at)).
    const CREATED_AT: Option<&'static str> = None;

    /// The attribute name of the `#[updated_at]` field, if any.
    const UPDATED_AT: Option<&'static str> = None;

    /// The time a `#[created_at]` or `#[updated_at]` field holds: `None` when the model has no such
    /// field or it was not stamped yet (`None`, or the Unix epoch: see
    /// [`TimestampAttribute`](crate::convert::TimestampAttribute)).
    fn timestamp(&self, which: Timestamp) -> Option<chrono::DateTime<chrono::Utc>> {
        let _ = which;
        None
    }

    /// Sets a `#[created_at]` or `#[updated_at]` field to `at` as it reads back once stored (so at
    /// the stored width: a field stored as whole seconds holds whole seconds); does nothing
    /// without one.
    fn set_timestamp(
        &mut self,
        which: Timestamp,
        at: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), ConversionError> {
        let _ = (which, at);
        Ok(())
    }

    /// How `at` is stored in a `#[created_at]` or `#[updated_at]` attribute (through the field's
    /// conversion); `None` without such a field.
    ///
    /// Errors: the time cannot be stored (a year outside 0000–9999 as text).
    fn timestamp_value(
        which: Timestamp,
        at: chrono::DateTime<chrono::Utc>,
    ) -> Result<Option<AttributeValue>, ConversionError> {
        let _ = (which, at);
        Ok(None)
    }

    /// The item size budget of `#[dynomodel(max_item_size = "8KB")]`, in bytes: a write of a larger
    /// item is refused before it is sent ([`Error::ItemTooLarge`](crate::Error::ItemTooLarge)), as
    /// one over DynamoDB's 400 KB ([`MAX_ITEM_SIZE`](crate::MAX_ITEM_SIZE)) always is.
    const MAX_ITEM_SIZE: Option<usize> = None;

    /// The size of the item this value stores, by DynamoDB's rule (see [`item_size`](crate::item_size)),
    /// with what writing and reading it costs ([`ItemSize`](crate::ItemSize)). It converts the value
    /// (compressing its compressed fields) without building an [`Item`]. A put stores the same
    /// attributes, except for a `#[version]` it bumps and the timestamps it stamps.
    ///
    /// ```
    /// use dynomodel::Model;
    /// #[derive(Model)]
    /// struct Note { #[hash_key] id: String, body: String }
    /// let size = Note { id: "n1".into(), body: "x".repeat(2000) }.item_size()?;
    /// assert_eq!(size.bytes(), 2 + 2 + 4 + 2000); // names and values
    /// assert_eq!(size.write_units(), 2.0);
    /// assert_eq!(size.eventually_consistent_read_units(), 0.5);
    /// # Ok::<(), dynomodel::ConversionError>(())
    /// ```
    fn item_size(&self) -> Result<crate::ItemSize, ConversionError> {
        let mut measure = size::Measure::default();
        self.write_attributes(&mut measure)?;
        Ok(crate::ItemSize::new(measure.bytes))
    }
}

/// A model's primary key value, convertible to DynamoDB's key map.
///
/// ```
/// use dynomodel::{AttributeValue, Model, PrimaryKey};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String }
///
/// let key = TweetKey::from(("abc", "1"));
/// let item = key.to_key_item()?; // e.g. for a raw GetItem through `Db::backend`
/// assert_eq!(item.len(), 2);
/// assert_eq!(item["userid"], AttributeValue::S("abc".into()));
/// # Ok::<(), dynomodel::ConversionError>(())
/// ```
pub trait PrimaryKey: Send + Sync + fmt::Debug {
    /// The key as an item holding only the key attributes.
    fn to_key_item(&self) -> Result<Item, ConversionError>;

    /// Writes the key attributes into `sink`, the same ones [`to_key_item`](PrimaryKey::to_key_item)
    /// holds, with the same errors: what a backend that sends or stores keys in its own form
    /// (the AWS SDK's map) takes without an `Item` in between
    /// ([`Backend::get_item_keyed_into`](crate::Backend::get_item_keyed_into)). The default
    /// writes `to_key_item`'s attributes; `#[derive(Model)]` writes each one directly.
    ///
    /// ```
    /// use dynomodel::{Item, Model, PrimaryKey};
    ///
    /// #[derive(Model, Debug, Clone, PartialEq)]
    /// struct Tweet { #[hash_key] userid: String, #[range_key] id: String, text: String }
    ///
    /// let key = TweetKey::from(("abc", "1"));
    /// let mut item = Item::new();
    /// key.write_key(&mut item)?;
    /// assert_eq!(item, key.to_key_item()?);
    /// # Ok::<(), dynomodel::ConversionError>(())
    /// ```
    fn write_key(&self, sink: &mut dyn AttributeSink) -> Result<(), ConversionError> {
        for (name, value) in self.to_key_item()? {
            sink.insert(name, value);
        }
        Ok(())
    }
}

/// A key as an [`AttributeWriter`]: what the mapper's `GetItem` hands the backend
/// ([`Backend::get_item_keyed_into`](crate::Backend::get_item_keyed_into)).
pub(crate) struct KeyWriter<'k, K: ?Sized>(pub(crate) &'k K);

impl<K: PrimaryKey + ?Sized> AttributeWriter for KeyWriter<'_, K> {
    #[inline]
    fn write(&self, sink: &mut dyn AttributeSink) -> Result<(), ConversionError> {
        self.0.write_key(sink)
    }

    #[inline]
    fn len_hint(&self) -> usize {
        2
    }
}

/// A typed handle on one attribute of model `M`, holding values of type `T`, with the
/// [role](role) `R` the attribute plays in the table's keys.
///
/// `#[derive(Model)]` generates one associated function per field returning its handle, e.g.
/// `Tweet::likes()`; expressions built from handles are checked against `T` at compile time. `T`
/// converts to an attribute exactly as the field is stored: the field's type, or for a field stored
/// through an adapter a wrapper such as [`EpochSeconds`](crate::convert::EpochSeconds) (see
/// [`Model`](Model#handles-of-fields-stored-through-an-adapter)).
///
/// A handle builds conditions (`eq`, `between`, `begins_with`, `size`...) and navigates into maps,
/// lists and embedded documents (`key`, `index`, `then`), giving a [`Path`](crate::Path) with the
/// same operations; see [`Condition`](crate::Condition) and [`Update`](crate::Update).
///
/// # Roles: keys are checked at compile time
///
/// The role says what the key schema allows, so that two mistakes DynamoDB would only report at
/// run time do not compile:
///
/// - **Updating a key.** The table's hash and range keys get the roles [`role::Key`] or
///   [`role::KeySort`], which update actions (`set`, `remove`, `add`, `delete`, `incr`, ...)
///   refuse: they take an [`UpdateTarget`](crate::expression::UpdateTarget), and only a handle
///   whose role is [`role::Updatable`] is one. Conditions on keys are unaffected
///   (`Tweet::userid().exists()`).
/// - **A range condition on an attribute that sorts nothing.** The table's range key and every
///   field an index is sorted by get the roles [`role::KeySort`] or [`role::Sort`], whose
///   comparisons (`eq`, `lt`, `le`, `gt`, `ge`, `between`, `begins_with`) give a
///   [`SortKeyCondition`](crate::SortKeyCondition), the only thing
///   [`Query::range`](crate::Query::range) takes. Other handles' comparisons give a
///   [`Condition`](crate::Condition); so do the sort key's other operations (`ne`, `exists`...)
///   and paths. A [`SortKeyCondition`](crate::SortKeyCondition) converts into a
///   [`Condition`](crate::Condition) wherever one is taken.
///
/// Every other field is [`role::Attr`], the default, so a hand-written `Field<M, T>` is an
/// ordinary attribute. The two properties are independent (a table's hash key may also sort an
/// index: [`role::KeySort`]); the [`role`] module has the table.
///
/// What the types do not say is *which* table or index an attribute sorts: `.range(..)` with the
/// sort key of another index than the one queried still compiles, and fails when the query runs,
/// before anything is sent (a validation error naming both). On `db.query::<M>(..)`, the range
/// condition's attribute chooses the index (see [`Db::query`](crate::Db::query)).
///
/// ```
/// use std::collections::BTreeMap;
/// use dynomodel::Field;
/// use dynomodel::expression::ExpressionContext;
///
/// struct Tweet;
/// impl Tweet {
///     fn likes() -> Field<Tweet, i64> { Field::new("likes") }
///     fn meta() -> Field<Tweet, BTreeMap<String, Vec<String>>> { Field::new("meta") }
/// }
///
/// let condition = Tweet::likes().ge(10) & Tweet::meta().key("langs").index(0).eq("fr");
/// let mut ctx = ExpressionContext::new();
/// assert_eq!(ctx.condition(&condition)?, "#n0 >= :v0 AND #n1.#n2[0] = :v1");
/// # Ok::<(), dynomodel::Error>(())
/// ```
///
/// An update of a key does not compile:
///
/// ```compile_fail,E0277
/// use dynomodel::{Db, Model};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Thread { #[hash_key] forum_name: String, #[range_key] subject: String, views: u64 }
///
/// # async fn run(db: Db) -> dynomodel::Result<()> {
/// db.update::<Thread>(("Amazon DynamoDB", "Thread 1")).set(Thread::forum_name(), "S3").await?;
/// # Ok(()) }
/// ```
///
/// Nor does a range condition on an attribute that sorts neither the table nor an index:
///
/// ```compile_fail,E0277
/// use dynomodel::{Db, Model};
///
/// #[derive(Model, Debug, Clone, PartialEq)]
/// struct Thread { #[hash_key] forum_name: String, #[range_key] subject: String, message: String }
///
/// # async fn run(db: Db) -> dynomodel::Result<()> {
/// db.query::<Thread>("Amazon DynamoDB").range(Thread::message().gt("m")).all().await?;
/// # Ok(()) }
/// ```
pub struct Field<M, T, R = role::Attr> {
    name: &'static str,
    _marker: Marker<M, T, R>,
}

impl<M, T> Field<M, T> {
    /// A handle on the attribute `name`, of role [`role::Attr`]: an ordinary attribute.
    pub const fn new(name: &'static str) -> Self {
        Field::with_role(name)
    }
}

impl<M, T, R> Field<M, T, R> {
    /// A handle on the attribute `name` with the role `R`: what `#[derive(Model)]` generates for
    /// keys and sort keys, and what a hand-written model uses for its own.
    ///
    /// ```
    /// use dynomodel::{Field, SortKeyCondition};
    /// use dynomodel::expression::role;
    ///
    /// struct Tweet;
    /// impl Tweet {
    ///     fn id() -> Field<Tweet, String, role::KeySort> { Field::with_role("id") }
    /// }
    /// let _: SortKeyCondition<Tweet> = Tweet::id().begins_with("2026-");
    /// ```
    pub const fn with_role(name: &'static str) -> Self {
        Field {
            name,
            _marker: PhantomData,
        }
    }

    /// The attribute's name in DynamoDB.
    pub const fn name(&self) -> &'static str {
        self.name
    }
}

impl<M, T, R> Clone for Field<M, T, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M, T, R> Copy for Field<M, T, R> {}

impl<M, T, R> fmt::Debug for Field<M, T, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Field({})", self.name)
    }
}
