//! The mapper's client-side cost on the AWS path, beside hand-written SDK code and serde_dynamo, on
//! one 8-attribute model (strings, numbers, a bool, a string set, a date):
//!
//! - `convert/{to,from}_sdk/<variant>`: the model to the SDK's item map and back, nothing else
//!   (`convert/noop` counts what every operation pays besides its work, `convert/clone_item` the
//!   copy of the item each `from_sdk` consumes: subtract them);
//! - `{put,get,query_20}/<variant>`: whole requests through `aws-sdk-dynamodb` whose HTTP client
//!   answers at once with canned bytes (`Canned`), so that what is measured is the client's CPU:
//!   building the request, the SDK's serialization, signing and parsing (the same work for every
//!   variant), and each variant's conversions;
//! - `query_20/sdk_only`: the Query's SDK request alone, its items left unconverted (what the
//!   other `query_20` rows pay besides their conversion);
//! - `page_20/<how>`: the Query's 20 items, prebuilt as the SDK's maps, converted to the model
//!   outside the SDK (`page_20/clone` is the copy of the page each consumes: subtract it): `hand`
//!   (look-ups by name), `hand_iter` (hand-written, reading the map's entries in order, as a derived
//!   decoder does), `from_sdk_item` (`AwsBackend::from_sdk_item`: dynomodel's value conversion
//!   and the derived decoder, without the page buffer or the key watch of a Query),
//!   `attrs_decoder` (the derived decoder fed by this file's own minimal value conversion) and
//!   `attrs_only` (that conversion alone);
//! - `{put,get,query_20}/hand_again`: the hand-written requests compiled a second time, an A/A
//!   check: their ratio to `hand` is the bench's own bias between two identical variants (code
//!   placement, order, the allocator's state), which a ratio to `hand` must be read against;
//! - `{put,get,query_20}/hand_boxed`: the hand-written requests, their whole body in a
//!   `Pin<Box<dyn Future + Send + '_>>` returned by a method of a `dyn` trait object (`HandDyn`, as
//!   `#[async_trait]` expands it and as `Db` calls `AwsBackend`), awaited by the caller: what one box
//!   and one dynamic call per request cost; `{put,get}/sdk_boxed`: the hand-written requests with
//!   only the SDK's future boxed and awaited through `dyn Future`; `get/backend`: a GetItem
//!   through `AwsBackend` alone (`Arc<dyn Backend>`, its untyped `get_item`), without `Db`;
//!   `get/backend_into`: the same with the typed read's sink (`get_item_into`, the model decoded
//!   from the handed-over attributes as `Db::get` does); `put/backend_from`: a PutItem through
//!   `AwsBackend` alone, the model writing its item (`put_item_from`, as `Db::put` calls it);
//!   `{put,get}/dynomodel_maps`: `Db` over `AwsBackend::with_sdk_item_maps` (no hook: the items
//!   through the SDK's maps); `get/backend_maps_into`, `put/backend_maps_from`: `AwsBackend` alone
//!   without its hook;
//! - `query_20/hand_customized`: `query_20/hand` with an interceptor that does nothing installed
//!   on the request (`customize().interceptor(..)`): what a per-request hook costs;
//!   `query_20/hand_client_hook`: the same interceptor installed once on a second client (as
//!   `AwsBackend` installs its own): what a client-level hook costs every request.
//!
//! `<variant>` is `hand` (the SDK's types written and read by hand), `serde_dynamo` or `dynomodel`
//! (`Db` over `AwsBackend`). Each operation runs a fixed number of times; the bench prints the CPU
//! time this thread used per operation (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, exact to the
//! nanosecond: see `clock.rs`); with `--rounds R` it runs the operations R times in turn, every
//! other round in reverse, and prints each one's median and range. Instruction counts (repeatable
//! on a busy machine) come from callgrind around `run_blocking`: `./instr BINARY` (in this
//! directory) runs it for every operation; `./copies BINARY` counts the bytes each copies (DHAT's
//! copy mode), which instructions do not show; `./footprint BINARY OP...` the distinct cache lines
//! and pages of code a request runs (its path is larger than the instruction cache: what the
//! instruction count does not show), and `./functions BINARY OP` the same per function: the lines
//! only `OP/dynomodel` runs, by the function holding them; `./expensive BINARY OP...` the atomic
//! read-modify-writes, divisions, fences and system calls each runs, which an instruction count
//! weighs as one instruction each.
//!
//! `--interleave [--burst B]` (the mode that resolves 1 %) interleaves the chosen operations
//! instead: each iteration runs every one once, a burst of B requests (16 unless told; the second
//! half timed), in a random order per iteration, and the report gives each one's median per
//! request and, per pair (`X ÷ hand` within an operation, the A/A `hand_again ÷ hand` among them,
//! and `dynomodel ÷ serde_dynamo`), the median of the per-iteration ratios with its 95 %
//! confidence interval (see `interleaved.rs`). A ratio moves between processes by more than that
//! interval (the process's memory layout): `./interleave BINARY RUNS OP...` runs RUNS processes
//! and brackets the ratio by their least and greatest, e.g. `./interleave BINARY 6 get/hand
//! get/hand_again get/serde_dynamo get/dynomodel`.
//!
//! `--server` runs the requests against the engine's HTTP server on loopback instead, client and
//! server pinned to separate cores, the variants in paired chunks (see `server_mode.rs`).
//!
//! `cargo bench --bench aws_cpu [-- OP...] [-- --iterations N] [-- --rounds R] [-- --interleave]`;
//! `cargo bench --bench aws_cpu -- --server [--chunks C] [--iterations N] [--only VARIANT]
//! [--interleave] [put|get|query_20...]`

#![allow(missing_docs, clippy::unwrap_used)]

use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_dynamodb::types::AttributeValue as Av;
use aws_sdk_dynamodb::Client;
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpConnector,
};
use aws_smithy_runtime_api::client::interceptors::context::BeforeSerializationInterceptorContextRef;
use aws_smithy_runtime_api::client::interceptors::{Intercept, SharedInterceptor};
use aws_smithy_runtime_api::client::orchestrator::HttpRequest;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_runtime_api::http::{Response, StatusCode};
use aws_smithy_types::body::SdkBody;
use aws_smithy_types::config_bag::ConfigBag;
use chrono::{DateTime, SecondsFormat, TimeZone, Utc};
use dynomodel::{AwsBackend, Db, Model};
use serde::{Deserialize, Serialize};

#[path = "clock.rs"]
mod clock;
#[path = "interleaved.rs"]
mod interleaved;
#[path = "server_mode.rs"]
mod server_mode;

const TABLE: &str = "orders";

/// The model: the three variants read and write the same attributes, with the same bytes.
#[derive(Model, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[dynomodel(table = "orders")]
struct Order {
    #[hash_key]
    pk: String,
    #[range_key]
    sk: i64,
    name: String,
    email: String,
    quantity: i64,
    paid: bool,
    #[serde(with = "serde_dynamo::string_set")]
    tags: BTreeSet<String>,
    /// RFC 3339 with nine fractional digits (dynomodel's default; chrono's serde writes nine for a
    /// time with nanoseconds, as this one has).
    created: DateTime<Utc>,
}

fn order(i: usize) -> Order {
    Order {
        pk: "customer0042".into(),
        sk: i as i64,
        name: format!("order number {i}"),
        email: "someone@example.com".into(),
        quantity: 3 + i as i64,
        paid: i.is_multiple_of(2),
        tags: ["gift", "priority", "fragile"].map(String::from).into(),
        created: Utc.with_ymd_and_hms(2026, 11, 28, 16, 20, 0).unwrap()
            + chrono::Duration::nanoseconds(123_456_789 + i as i64),
    }
}

// ---- hand-written conversions ----

fn hand_to_item(o: &Order) -> HashMap<String, Av> {
    let mut item = HashMap::with_capacity(8);
    item.insert("pk".to_owned(), Av::S(o.pk.clone()));
    item.insert("sk".to_owned(), Av::N(o.sk.to_string()));
    item.insert("name".to_owned(), Av::S(o.name.clone()));
    item.insert("email".to_owned(), Av::S(o.email.clone()));
    item.insert("quantity".to_owned(), Av::N(o.quantity.to_string()));
    item.insert("paid".to_owned(), Av::Bool(o.paid));
    item.insert("tags".to_owned(), Av::Ss(o.tags.iter().cloned().collect()));
    let created = o.created.to_rfc3339_opts(SecondsFormat::Nanos, true);
    item.insert("created".to_owned(), Av::S(created));
    item
}

fn hand_from_item(mut item: HashMap<String, Av>) -> Option<Order> {
    let mut s = |name: &str| match item.remove(name)? {
        Av::S(s) => Some(s),
        _ => None,
    };
    let (pk, name, email, created) = (s("pk")?, s("name")?, s("email")?, s("created")?);
    let n = |name: &str| match item.get(name)? {
        Av::N(n) => n.parse::<i64>().ok(),
        _ => None,
    };
    let (sk, quantity) = (n("sk")?, n("quantity")?);
    let paid = match item.get("paid")? {
        Av::Bool(b) => *b,
        _ => return None,
    };
    let tags = match item.remove("tags")? {
        Av::Ss(v) => v.into_iter().collect(),
        _ => return None,
    };
    let created = DateTime::parse_from_rfc3339(&created).ok()?.to_utc();
    Some(Order {
        pk,
        sk,
        name,
        email,
        quantity,
        paid,
        tags,
        created,
    })
}

/// Hand-written code reading the item's entries in its map's order, as dynomodel's decoder does.
fn hand_iter(item: HashMap<String, Av>) -> Option<Order> {
    let (mut pk, mut sk, mut name, mut email, mut quantity, mut paid, mut tags, mut created) =
        (None, None, None, None, None, None, None, None);
    for (k, v) in item {
        match (k.as_str(), v) {
            ("pk", Av::S(s)) => pk = Some(s),
            ("sk", Av::N(n)) => sk = n.parse::<i64>().ok(),
            ("name", Av::S(s)) => name = Some(s),
            ("email", Av::S(s)) => email = Some(s),
            ("quantity", Av::N(n)) => quantity = n.parse::<i64>().ok(),
            ("paid", Av::Bool(b)) => paid = Some(b),
            ("tags", Av::Ss(v)) => tags = Some(v.into_iter().collect()),
            ("created", Av::S(s)) => {
                created = Some(DateTime::parse_from_rfc3339(&s).ok()?.to_utc())
            }
            _ => return None,
        }
    }
    Some(Order {
        pk: pk?,
        sk: sk?,
        name: name?,
        email: email?,
        quantity: quantity?,
        paid: paid?,
        tags: tags?,
        created: created?,
    })
}

/// The SDK's value as dynomodel's (what `aws::value::from_sdk` does, for the types used here).
fn to_dyn(v: Av) -> dynomodel::AttributeValue {
    use dynomodel::AttributeValue as Dv;
    match v {
        Av::S(s) => Dv::S(s),
        Av::N(n) => Dv::N(dynomodel::Number::parse(&n).unwrap()),
        Av::Bool(b) => Dv::Bool(b),
        Av::Ss(v) => Dv::Ss(v),
        _ => unreachable!(),
    }
}

// ---- canned HTTP responses ----

/// An HTTP client answering every request at once with the canned response of its operation
/// (`X-Amz-Target`): PutItem `{}`, GetItem one item, Query 20 items.
#[derive(Debug, Clone)]
struct Canned {
    get: &'static [u8],
    query: &'static [u8],
}

impl HttpConnector for Canned {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let target = request.headers().get("x-amz-target").unwrap_or_default();
        let body: &'static [u8] = match target.rsplit('.').next() {
            Some("GetItem") => self.get,
            Some("Query") => self.query,
            _ => b"{}",
        };
        let mut response = Response::new(StatusCode::try_from(200).unwrap(), SdkBody::from(body));
        response
            .headers_mut()
            .insert("content-type", "application/x-amz-json-1.0");
        HttpConnectorFuture::ready(Ok(response))
    }
}

impl HttpClient for Canned {
    fn http_connector(
        &self,
        _settings: &HttpConnectorSettings,
        _components: &RuntimeComponents,
    ) -> SharedHttpConnector {
        SharedHttpConnector::new(self.clone())
    }
}

/// DynamoDB JSON of `o` (what the service answers with).
fn wire_item(o: &Order) -> String {
    let tags: Vec<String> = o.tags.iter().map(|t| format!("\"{t}\"")).collect();
    format!(
        r#"{{"pk":{{"S":"{}"}},"sk":{{"N":"{}"}},"name":{{"S":"{}"}},"email":{{"S":"{}"}},"quantity":{{"N":"{}"}},"paid":{{"BOOL":{}}},"tags":{{"SS":[{}]}},"created":{{"S":"{}"}}}}"#,
        o.pk,
        o.sk,
        o.name,
        o.email,
        o.quantity,
        o.paid,
        tags.join(","),
        o.created.to_rfc3339_opts(SecondsFormat::Nanos, true)
    )
}

fn canned() -> Canned {
    let get = format!(r#"{{"Item":{}}}"#, wire_item(&order(7)));
    let items: Vec<String> = (0..20).map(|i| wire_item(&order(i))).collect();
    let query = format!(
        r#"{{"Count":20,"Items":[{}],"ScannedCount":20}}"#,
        items.join(",")
    );
    Canned {
        get: Box::leak(get.into_bytes().into_boxed_slice()),
        query: Box::leak(query.into_bytes().into_boxed_slice()),
    }
}

fn client() -> Client {
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("bench", "bench", None, None, "bench"))
        .endpoint_url("http://127.0.0.1:1")
        .http_client(canned())
        .build();
    Client::from_conf(config)
}

// ---- the operations ----

const OPS: [&str; 41] = [
    "convert/noop",
    "convert/clone_item",
    "convert/to_sdk/hand",
    "convert/to_sdk/serde_dynamo",
    "convert/to_sdk/dynomodel",
    "convert/from_sdk/hand",
    "convert/from_sdk/serde_dynamo",
    "convert/from_sdk/dynomodel",
    "put/hand",
    "put/serde_dynamo",
    "put/dynomodel",
    "get/hand",
    "get/serde_dynamo",
    "get/dynomodel",
    "query_20/hand",
    "query_20/serde_dynamo",
    "query_20/dynomodel",
    "query_20/sdk_only",
    "page_20/clone",
    "page_20/hand",
    "page_20/from_sdk_item",
    "page_20/hand_iter",
    "page_20/attrs_decoder",
    "page_20/attrs_only",
    "put/hand_again",
    "get/hand_again",
    "query_20/hand_again",
    "put/hand_boxed",
    "get/hand_boxed",
    "query_20/hand_boxed",
    "put/sdk_boxed",
    "get/sdk_boxed",
    "get/backend",
    "get/backend_into",
    "put/backend_from",
    "get/backend_maps_into",
    "put/backend_maps_from",
    "put/dynomodel_maps",
    "get/dynomodel_maps",
    "query_20/hand_customized",
    "query_20/hand_client_hook",
];

struct Setup {
    client: Client,
    db: Db,
    /// `Db` over `AwsBackend::with_sdk_item_maps`: items through the SDK's maps.
    db_maps: Db,
    orders: Vec<Order>,
    item: HashMap<String, Av>,
    page: Vec<HashMap<String, Av>>,
}

static SETUP: OnceLock<Setup> = OnceLock::new();

fn key(pk: &str, sk: i64) -> HashMap<String, Av> {
    HashMap::from([
        ("pk".to_owned(), Av::S(pk.to_owned())),
        ("sk".to_owned(), Av::N(sk.to_string())),
    ])
}

fn query(
    client: &Client,
    pk: &str,
) -> aws_sdk_dynamodb::operation::query::builders::QueryFluentBuilder {
    client
        .query()
        .table_name(TABLE)
        .key_condition_expression("#pk = :pk")
        .expression_attribute_names("#pk", "pk")
        .expression_attribute_values(":pk", Av::S(pk.to_owned()))
}

/// The GetItem input of `o`'s key, for the `get/backend*` variants.
fn backend_get_input(o: &Order) -> dynomodel::backend::GetItemInput {
    let key = dynomodel::Item::from([
        ("pk".to_owned(), dynomodel::AttributeValue::S(o.pk.clone())),
        ("sk".to_owned(), dynomodel::AttributeValue::N(o.sk.into())),
    ]);
    dynomodel::backend::GetItemInput {
        table_name: TABLE.to_owned(),
        key,
        ..Default::default()
    }
}

/// The `Arc<dyn Backend>` over the bench's client, as `Db` holds it.
fn backend(client: &Client) -> &'static dyn dynomodel::Backend {
    static BACKEND: OnceLock<std::sync::Arc<dyn dynomodel::Backend>> = OnceLock::new();
    BACKEND
        .get_or_init(|| std::sync::Arc::new(AwsBackend::new(client.clone())))
        .as_ref()
}

/// `AwsBackend::with_sdk_item_maps` behind `Arc<dyn Backend>`: no hook, the items through the
/// SDK's maps.
fn backend_maps(client: &Client) -> &'static dyn dynomodel::Backend {
    static BACKEND: OnceLock<std::sync::Arc<dyn dynomodel::Backend>> = OnceLock::new();
    BACKEND
        .get_or_init(|| std::sync::Arc::new(AwsBackend::new(client.clone()).with_sdk_item_maps()))
        .as_ref()
}

/// A typed get through `backend` alone, with the typed read's sink (`get_item_into`, the model
/// decoded from the handed-over attributes as `Db::get` does), without `Db`'s layers (`Get`'s
/// future, `Calls`' span and capacity, the key and table name built from the model).
async fn get_into(backend: &dyn dynomodel::Backend, o: &Order) {
    struct Decoded(Option<Result<Order, dynomodel::ConversionError>>);
    impl dynomodel::backend::ItemSink for Decoded {
        fn item(
            &mut self,
            attributes: &mut dyn Iterator<
                Item = (std::borrow::Cow<'_, str>, dynomodel::AttributeValue),
            >,
        ) {
            self.0 = Some(Order::from_attributes(attributes));
        }
    }
    let input = backend_get_input(o);
    let mut decoded = Decoded(None);
    backend.get_item_into(input, &mut decoded).await.unwrap();
    std::hint::black_box(decoded.0.unwrap().unwrap());
}

/// A put through `backend` alone, given the model as its item's writer (`put_item_from`, as
/// `Db::put` gives it), without `Db`'s layers (`Put`'s rendering and future, `Calls`' span and
/// capacity, the item's size measured).
async fn put_from(backend: &dyn dynomodel::Backend, o: &Order) {
    struct Writer<'a>(&'a Order);
    impl dynomodel::backend::AttributeWriter for Writer<'_> {
        fn write(
            &self,
            sink: &mut dyn dynomodel::backend::AttributeSink,
        ) -> Result<(), dynomodel::ConversionError> {
            self.0.write_attributes(sink)
        }
        fn len_hint(&self) -> usize {
            Order::ATTRIBUTES.len()
        }
    }
    let input = dynomodel::backend::PutItemInput {
        table_name: TABLE.to_owned(),
        ..Default::default()
    };
    backend.put_item_from(input, &Writer(o)).await.unwrap();
}

/// An interceptor that does nothing, installed on one request by `customize()`: what a
/// per-request hook costs (`query_20/hand_customized`), as `AwsBackend`'s typed reads install
/// theirs. Its one hook is the one theirs uses.
#[derive(Debug)]
struct NoopHook;

impl Intercept for NoopHook {
    fn name(&self) -> &'static str {
        "NoopHook"
    }

    fn read_before_execution(
        &self,
        context: &BeforeSerializationInterceptorContextRef<'_>,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        std::hint::black_box((context, cfg));
        Ok(())
    }
}

/// `client` with `NoopHook` installed once, on the client (permanent: no per-hook check of the
/// config bag), for `query_20/hand_client_hook`: what a client-level hook costs every request.
fn hooked_client(client: &Client) -> &'static Client {
    static HOOKED: OnceLock<Client> = OnceLock::new();
    HOOKED.get_or_init(|| {
        let mut config = client.config().to_builder();
        config.push_interceptor(SharedInterceptor::permanent(NoopHook));
        Client::from_conf(config.build())
    })
}

/// A boxed future, as `#[async_trait]` returns it.
type Boxed<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;

/// The hand-written requests behind a trait object, each method's body boxed as `#[async_trait]`
/// expands it: `Db` reaches `AwsBackend` the same way (`Arc<dyn Backend>`, a boxed future per
/// call), so `X/hand_boxed ÷ X/hand` is what that box and that dynamic call cost.
trait HandDyn: Send + Sync {
    fn put<'a>(&'a self, client: &'a Client, o: &'a Order) -> Boxed<'a, ()>;
    fn get<'a>(&'a self, client: &'a Client, o: &'a Order) -> Boxed<'a, Order>;
    fn query_20<'a>(&'a self, client: &'a Client, o: &'a Order) -> Boxed<'a, Vec<Order>>;
}

/// `HandDyn`'s one implementation: the bodies of `put/hand`, `get/hand` and `query_20/hand`.
struct Hand;

impl HandDyn for Hand {
    fn put<'a>(&'a self, client: &'a Client, o: &'a Order) -> Boxed<'a, ()> {
        Box::pin(async move {
            let put = client
                .put_item()
                .table_name(TABLE)
                .set_item(Some(hand_to_item(o)));
            put.send().await.unwrap();
        })
    }

    fn get<'a>(&'a self, client: &'a Client, o: &'a Order) -> Boxed<'a, Order> {
        Box::pin(async move {
            let get = client
                .get_item()
                .table_name(TABLE)
                .set_key(Some(key(&o.pk, o.sk)));
            let item = get.send().await.unwrap().item.unwrap();
            hand_from_item(item).unwrap()
        })
    }

    fn query_20<'a>(&'a self, client: &'a Client, o: &'a Order) -> Boxed<'a, Vec<Order>> {
        Box::pin(async move {
            let items = query(client, &o.pk).send().await.unwrap().items.unwrap();
            items
                .into_iter()
                .map(|item| hand_from_item(item).unwrap())
                .collect()
        })
    }
}

/// The `HandDyn` object, made once as `Db` holds its backend (an `Arc` of the trait object); the
/// `black_box` keeps the compiler from seeing through the `dyn` to `Hand`.
fn hand_dyn() -> &'static dyn HandDyn {
    static HAND: OnceLock<std::sync::Arc<dyn HandDyn>> = OnceLock::new();
    std::hint::black_box(HAND.get_or_init(|| std::sync::Arc::new(Hand)).as_ref())
}

async fn run(op: &str, i: usize) {
    let Setup {
        client,
        db,
        db_maps,
        orders,
        item,
        page,
    } = SETUP.get().unwrap();
    let o = &orders[i % orders.len()];
    match op {
        // What every operation pays besides its own work (the loop, `block_on`, the dispatch):
        // subtracted from the conversions' counts.
        "convert/noop" => {
            std::hint::black_box(o);
        }
        // What the `from_sdk` conversions pay besides their own work: the item they consume.
        "convert/clone_item" => {
            std::hint::black_box(item.clone());
        }
        "convert/to_sdk/hand" => {
            std::hint::black_box(hand_to_item(o));
        }
        "convert/to_sdk/serde_dynamo" => {
            let item: HashMap<String, Av> = serde_dynamo::aws_sdk_dynamodb_1::to_item(o).unwrap();
            std::hint::black_box(item);
        }
        "convert/to_sdk/dynomodel" => {
            std::hint::black_box(AwsBackend::to_sdk_item(o).unwrap());
        }
        "convert/from_sdk/hand" => {
            std::hint::black_box(hand_from_item(item.clone()).unwrap());
        }
        "convert/from_sdk/serde_dynamo" => {
            let o: Order = serde_dynamo::aws_sdk_dynamodb_1::from_item(item.clone()).unwrap();
            std::hint::black_box(o);
        }
        "convert/from_sdk/dynomodel" => {
            std::hint::black_box(AwsBackend::from_sdk_item::<Order>(item.clone()).unwrap());
        }
        "put/hand" => {
            let put = client
                .put_item()
                .table_name(TABLE)
                .set_item(Some(hand_to_item(o)));
            put.send().await.unwrap();
        }
        "put/serde_dynamo" => {
            let item = serde_dynamo::aws_sdk_dynamodb_1::to_item(o).unwrap();
            let put = client.put_item().table_name(TABLE).set_item(Some(item));
            put.send().await.unwrap();
        }
        "put/dynomodel" => db.put(o).await.unwrap(),
        "put/dynomodel_maps" => db_maps.put(o).await.unwrap(),
        "get/dynomodel_maps" => {
            let got = db_maps.get::<Order>((o.pk.clone(), o.sk)).await.unwrap();
            std::hint::black_box(got.unwrap());
        }
        "get/hand" => {
            let get = client
                .get_item()
                .table_name(TABLE)
                .set_key(Some(key(&o.pk, o.sk)));
            let item = get.send().await.unwrap().item.unwrap();
            std::hint::black_box(hand_from_item(item).unwrap());
        }
        "get/serde_dynamo" => {
            let get = client
                .get_item()
                .table_name(TABLE)
                .set_key(Some(key(&o.pk, o.sk)));
            let item = get.send().await.unwrap().item.unwrap();
            let o: Order = serde_dynamo::aws_sdk_dynamodb_1::from_item(item).unwrap();
            std::hint::black_box(o);
        }
        "get/dynomodel" => {
            let got = db.get::<Order>((o.pk.clone(), o.sk)).await.unwrap();
            std::hint::black_box(got.unwrap());
        }
        "query_20/hand" => {
            let items = query(client, &o.pk).send().await.unwrap().items.unwrap();
            let rows: Vec<Order> = items
                .into_iter()
                .map(|item| hand_from_item(item).unwrap())
                .collect();
            assert_eq!(rows.len(), 20);
        }
        "query_20/serde_dynamo" => {
            let items = query(client, &o.pk).send().await.unwrap().items.unwrap();
            let rows: Vec<Order> = serde_dynamo::aws_sdk_dynamodb_1::from_items(items).unwrap();
            assert_eq!(rows.len(), 20);
        }
        "query_20/dynomodel" => {
            let rows = db.query::<Order>(o.pk.clone()).all().await.unwrap();
            assert_eq!(rows.len(), 20);
        }
        "query_20/hand_customized" => {
            let sent = query(client, &o.pk)
                .customize()
                .interceptor(NoopHook)
                .send();
            let items = sent.await.unwrap().items.unwrap();
            let rows: Vec<Order> = items
                .into_iter()
                .map(|item| hand_from_item(item).unwrap())
                .collect();
            assert_eq!(rows.len(), 20);
        }
        "query_20/hand_client_hook" => {
            let items = query(hooked_client(client), &o.pk).send();
            let items = items.await.unwrap().items.unwrap();
            let rows: Vec<Order> = items
                .into_iter()
                .map(|item| hand_from_item(item).unwrap())
                .collect();
            assert_eq!(rows.len(), 20);
        }
        "query_20/sdk_only" => {
            let items = query(client, &o.pk).send().await.unwrap().items.unwrap();
            assert_eq!(items.len(), 20);
        }
        // The A/A check: hand-written code compiled a second time (the marker keeps the compiler
        // from merging the copies), so that its ratio to `hand` is what the bench itself makes of
        // two identical variants (code placement, order, the allocator's state).
        "put/hand_again" => {
            std::hint::black_box("again");
            let put = client
                .put_item()
                .table_name(TABLE)
                .set_item(Some(hand_to_item(o)));
            put.send().await.unwrap();
        }
        "get/hand_again" => {
            std::hint::black_box("again");
            let get = client
                .get_item()
                .table_name(TABLE)
                .set_key(Some(key(&o.pk, o.sk)));
            let item = get.send().await.unwrap().item.unwrap();
            std::hint::black_box(hand_from_item(item).unwrap());
        }
        "query_20/hand_again" => {
            std::hint::black_box("again");
            let items = query(client, &o.pk).send().await.unwrap().items.unwrap();
            let rows: Vec<Order> = items
                .into_iter()
                .map(|item| hand_from_item(item).unwrap())
                .collect();
            assert_eq!(rows.len(), 20);
        }
        // Hand-written requests run the way `Db` runs `AwsBackend`: one box, one dynamic call.
        "put/hand_boxed" => hand_dyn().put(client, o).await,
        "get/hand_boxed" => {
            std::hint::black_box(hand_dyn().get(client, o).await);
        }
        "query_20/hand_boxed" => assert_eq!(hand_dyn().query_20(client, o).await.len(), 20),
        // Hand-written requests with the SDK's future alone boxed and awaited through
        // `dyn Future`.
        "put/sdk_boxed" => {
            let put = client
                .put_item()
                .table_name(TABLE)
                .set_item(Some(hand_to_item(o)));
            let sent: std::pin::Pin<Box<dyn std::future::Future<Output = _> + Send>> =
                Box::pin(put.send());
            sent.await.unwrap();
        }
        "get/sdk_boxed" => {
            let get = client
                .get_item()
                .table_name(TABLE)
                .set_key(Some(key(&o.pk, o.sk)));
            let sent: std::pin::Pin<Box<dyn std::future::Future<Output = _> + Send>> =
                Box::pin(get.send());
            let item = sent.await.unwrap().item.unwrap();
            std::hint::black_box(hand_from_item(item).unwrap());
        }
        // `AwsBackend` alone, through `Arc<dyn Backend>` as `Db` holds it, without `Db`'s layers
        // nor the typed read (the item comes back as an `Item`).
        "get/backend" => {
            let got = backend(client)
                .get_item(backend_get_input(o))
                .await
                .unwrap();
            std::hint::black_box(got.item.unwrap());
        }
        // `AwsBackend` alone, typed (`get_into`, `put_from`), and the same without its hook.
        "get/backend_into" => get_into(backend(client), o).await,
        "get/backend_maps_into" => get_into(backend_maps(client), o).await,
        "put/backend_from" => put_from(backend(client), o).await,
        "put/backend_maps_from" => put_from(backend_maps(client), o).await,
        "page_20/clone" => {
            std::hint::black_box(page.clone());
        }
        "page_20/hand" => {
            let rows: Vec<Order> = page
                .clone()
                .into_iter()
                .map(|item| hand_from_item(item).unwrap())
                .collect();
            assert_eq!(rows.len(), 20);
        }
        "page_20/from_sdk_item" => {
            let rows: Vec<Order> = page
                .clone()
                .into_iter()
                .map(|item| AwsBackend::from_sdk_item(item).unwrap())
                .collect();
            assert_eq!(rows.len(), 20);
        }
        "page_20/hand_iter" => {
            let rows: Vec<Order> = page
                .clone()
                .into_iter()
                .map(|item| hand_iter(item).unwrap())
                .collect();
            assert_eq!(rows.len(), 20);
        }
        "page_20/attrs_decoder" => {
            let rows: Vec<Order> = page
                .clone()
                .into_iter()
                .map(|item| {
                    let mut attributes = item
                        .into_iter()
                        .map(|(k, v)| (std::borrow::Cow::Owned(k), to_dyn(v)));
                    Order::from_attributes(&mut attributes).unwrap()
                })
                .collect();
            assert_eq!(rows.len(), 20);
        }
        "page_20/attrs_only" => {
            for item in page.clone() {
                for (k, v) in item {
                    std::hint::black_box((k, to_dyn(v)));
                }
            }
        }
        other => panic!("unknown operation {other}"),
    }
}

/// One operation, to completion. Never inlined, so that callgrind finds it by name:
/// `valgrind --tool=callgrind --toggle-collect='*aws_cpu::run_blocking*' <binary> --bench OP
/// --iterations N` counts the instructions of N operations.
#[inline(never)]
fn run_blocking(rt: &tokio::runtime::Runtime, op: &str, i: usize) {
    rt.block_on(run(op, i));
}

/// The canned mode's command line, `[--bench] [OP...] [--iterations N] [--rounds R]
/// [--interleave [--burst B]]`: the operations (all when none is named), the iterations (of each
/// operation and round, 20,000 unless told; with `--interleave`, 2,000 unless told), the rounds (1
/// unless told), whether to interleave and the requests of a variant in a row when interleaving
/// (16 unless told). `None` when an argument is none of these (a
/// filter `cargo bench` meant for another bench: then this one runs nothing).
fn parse_args(args: &[String]) -> Option<Args> {
    let (mut iterations, mut rounds, mut interleave, mut burst) = (None, 1, false, 16);
    let mut chosen = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--iterations" => iterations = Some(args.next()?.parse().ok()?),
            "--rounds" => rounds = args.next()?.parse().ok().filter(|r| *r > 0)?,
            "--interleave" => interleave = true,
            "--burst" => burst = args.next()?.parse().ok().filter(|b| *b > 0)?,
            // What `cargo bench` passes to every bench.
            "--bench" => {}
            op if OPS.contains(&op) => chosen.push(arg.clone()),
            _ => return None,
        }
    }
    if chosen.is_empty() {
        chosen = OPS.iter().map(|op| op.to_string()).collect();
    }
    let iterations = iterations.unwrap_or(if interleave { 2_000 } else { 20_000 });
    Some(Args {
        ops: chosen,
        iterations,
        rounds,
        interleave,
        burst,
    })
}

/// The canned mode's settings (`parse_args`).
struct Args {
    ops: Vec<String>,
    iterations: u32,
    rounds: usize,
    interleave: bool,
    burst: usize,
}

/// `op` run `iterations` times: this thread's CPU and the wall time per operation.
fn timed(rt: &tokio::runtime::Runtime, op: &str, iterations: u32) -> (Duration, Duration) {
    let started = (Instant::now(), clock::thread_cpu());
    for i in 0..iterations {
        run_blocking(rt, op, i as usize);
    }
    let wall = started.0.elapsed() / iterations;
    ((clock::thread_cpu() - started.1) / iterations, wall)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if server_mode::run(&args) {
        return;
    }
    let Some(Args {
        ops,
        iterations,
        rounds,
        interleave,
        burst,
    }) = parse_args(&args)
    else {
        return;
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let client = rt.block_on(async { client() });
    let db = Db::new(AwsBackend::new(client.clone()));
    let db_maps = Db::new(AwsBackend::new(client.clone()).with_sdk_item_maps());
    let orders: Vec<Order> = (0..64).map(order).collect();
    // The three variants read the same item and write the same bytes.
    let item = hand_to_item(&orders[7]);
    assert_eq!(AwsBackend::to_sdk_item(&orders[7]).unwrap(), item);
    let serde_item: HashMap<String, Av> =
        serde_dynamo::aws_sdk_dynamodb_1::to_item(&orders[7]).unwrap();
    assert_eq!(serde_item, item);
    let page = (0..20).map(|i| hand_to_item(&orders[i])).collect();
    assert!(SETUP
        .set(Setup {
            client,
            db,
            db_maps,
            orders,
            item,
            page,
        })
        .is_ok());
    // `--iterations 0`: the operations' names only (what `instr` runs).
    if iterations == 0 {
        ops.iter().for_each(|op| println!("{op}"));
        return;
    }
    // One untimed run of each first: the SDK's lazily built state (endpoint resolver, identity
    // cache).
    for op in &ops {
        run_blocking(&rt, op, 0);
    }
    if interleave {
        let samples = interleaved::run(&ops, 100, iterations as usize, burst, |v, i| {
            run_blocking(&rt, &ops[v], i)
        });
        print!("{}", interleaved::report(&samples));
        return;
    }
    let micros = |d: Duration| d.as_secs_f64() * 1e6;
    // Each round runs the operations in turn, every other round in reverse, so that an order
    // effect or a drift of the machine's load hits them alike.
    let mut cpu: Vec<Vec<f64>> = vec![Vec::new(); ops.len()];
    for round in 0..rounds {
        let order: Vec<usize> = match round % 2 {
            0 => (0..ops.len()).collect(),
            _ => (0..ops.len()).rev().collect(),
        };
        for i in order {
            let (time, wall) = timed(&rt, &ops[i], iterations);
            cpu[i].push(micros(time));
            if rounds == 1 {
                println!(
                    "{:<30} cpu {:>8.3} µs/op   wall {:>8.3} µs/op",
                    ops[i],
                    micros(time),
                    micros(wall)
                );
            }
        }
    }
    if rounds > 1 {
        for (op, times) in ops.iter().zip(&mut cpu) {
            times.sort_by(f64::total_cmp);
            println!(
                "{op:<30} cpu {:>8.3} µs/op (median of {rounds} rounds; {:.3}–{:.3})",
                times[times.len() / 2],
                times[0],
                times[times.len() - 1]
            );
        }
    }
}
