//! The `tracing` span around every backend request, captured by a small recording subscriber.
//!
//! The subscriber is the process's global default, installed once, and records only the spans of a
//! thread inside [`traced`]. Not one scoped subscriber per test (`with_default`): `tracing` caches
//! each callsite's interest for the whole process, computed when the callsite is first hit, and
//! with at most one dispatcher registered it asks only the *hitting* thread's default. A callsite
//! first hit by another test's thread, which has no subscriber, was cached as "never", and a
//! capturing test then missed its span (tracing-core 0.1.36, `callsite.rs`, `Rebuilder::JustOne`).
//! With one global subscriber, every thread's default is that subscriber, which answers
//! "sometimes" and then decides per thread. No other test of this crate may install a subscriber.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt;
use std::future::IntoFuture;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};

use tracing::field::{Field, Visit};
use tracing::level_filters::LevelFilter;
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::Interest;
use tracing::{Event, Metadata, Subscriber};

use super::fake::{costly, failing, thing, Other, Thing};
use crate::db::Db;
use crate::error::Error;

type Fields = BTreeMap<String, String>;

/// The spans of one [`traced`] call: each one's name and fields, as strings.
type Capture = Arc<Mutex<Vec<Fields>>>;

thread_local! {
    /// The capture of the [`traced`] call running on this thread, if one is.
    static CAPTURE: RefCell<Option<Capture>> = const { RefCell::new(None) };
}

/// This thread's capture, if it has one.
fn capture() -> Option<Capture> {
    CAPTURE.try_with(|c| c.borrow().clone()).ok().flatten()
}

/// Whether the router is installed (see [`install`]); until then it enables nothing.
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// The global subscriber: a span goes to the capture of the thread that opens it; threads without
/// one are not interested.
#[derive(Default)]
struct Router {
    /// Every span recorded: its capture and its place there; its `Id` is its index here plus one.
    spans: Mutex<Vec<(Capture, usize)>>,
}

struct Visitor<'a>(&'a mut Fields);

impl Visit for Visitor<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().into(), value.into());
    }
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0.insert(field.name().into(), format!("{value:?}"));
    }
}

impl Subscriber for Router {
    fn register_callsite(&self, _: &'static Metadata<'static>) -> Interest {
        // Whether a span is recorded depends on the thread: ask `enabled` every time.
        Interest::sometimes()
    }
    fn max_level_hint(&self) -> Option<LevelFilter> {
        // Off while being installed (see `install`), then every level.
        (!INSTALLED.load(Ordering::Acquire)).then_some(LevelFilter::OFF)
    }
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        capture().is_some()
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let mut fields = Fields::from([("name".into(), span.metadata().name().into())]);
        fields.insert("level".into(), span.metadata().level().to_string());
        span.record(&mut Visitor(&mut fields));
        // Enabled, so this thread has a capture (a detached one keeps the id valid otherwise).
        let capture = capture().unwrap_or_default();
        let place = {
            let mut captured = capture.lock().expect("not poisoned");
            captured.push(fields);
            captured.len() - 1
        };
        let mut spans = self.spans.lock().expect("not poisoned");
        spans.push((capture, place));
        Id::from_u64(spans.len() as u64)
    }
    fn record(&self, span: &Id, values: &Record<'_>) {
        let spans = self.spans.lock().expect("not poisoned");
        let Some((capture, place)) = usize::try_from(span.into_u64() - 1)
            .ok()
            .and_then(|i| spans.get(i))
        else {
            return;
        };
        if let Some(fields) = capture.lock().expect("not poisoned").get_mut(*place) {
            values.record(&mut Visitor(fields));
        }
    }
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

/// Installs the [`Router`] as the global default, once. Creating its `Dispatch` registers it and
/// computes the interest of the callsites hit so far, but only `set_global_default` makes it every
/// thread's default: a callsite first hit in between would be cached as "never" by a thread still
/// without one. So the router's level hint keeps tracing off (no span macro gets past its level
/// check, so no callsite is hit) until it is the global default, then every interest is recomputed.
fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        tracing::subscriber::set_global_default(Router::default())
            .expect("no other global subscriber in this crate's tests");
        INSTALLED.store(true, Ordering::Release);
        tracing::callsite::rebuild_interest_cache();
    });
}

/// Runs `f` to completion on this thread, recording the spans it opens.
fn traced<F: std::future::IntoFuture>(f: F) -> (F::Output, Vec<Fields>) {
    /// This thread's capture while it lives, even if `f` panics.
    struct Capturing;
    impl Drop for Capturing {
        fn drop(&mut self) {
            let _ = CAPTURE.try_with(|c| c.borrow_mut().take());
        }
    }
    install();
    let capture = Capture::default();
    CAPTURE.with(|c| *c.borrow_mut() = Some(Arc::clone(&capture)));
    let capturing = Capturing;
    let out = futures::executor::block_on(f.into_future());
    drop(capturing);
    let spans = std::mem::take(&mut *capture.lock().expect("not poisoned"));
    (out, spans)
}

fn field<'a>(span: &'a Fields, name: &str) -> Option<&'a str> {
    span.get(name).map(String::as_str)
}

#[test]
fn every_request_runs_in_a_debug_span_naming_operation_and_table() {
    let db = Db::new(costly()).with_meter();
    let (result, spans) = traced(async {
        db.put(&thing("a")).await?;
        db.query::<Thing>("a").all().await?;
        db.transact()
            .put(&thing("b"))
            .put(&Other { id: "o".into() })
            .put(&thing("c"))
            .await?;
        Ok::<_, Error>(())
    });
    result.expect("answered");
    let seen: Vec<_> = spans
        .iter()
        .map(|s| {
            (
                field(s, "name"),
                field(s, "level"),
                field(s, "operation"),
                field(s, "table"),
                field(s, "consumed"),
            )
        })
        .collect();
    let put = (
        Some("dynamodb"),
        Some("DEBUG"),
        Some("PutItem"),
        Some("things"),
        Some("1.0"),
    );
    let page = (
        Some("dynamodb"),
        Some("DEBUG"),
        Some("Query"),
        Some("things"),
        Some("0.5"),
    );
    let tx = (
        Some("dynamodb"),
        Some("DEBUG"),
        Some("TransactWriteItems"),
        Some("things,others"),
        Some("6.0"),
    );
    assert_eq!(seen, [put, page, page, tx]);
    assert!(spans.iter().all(|s| !s.contains_key("error")));
}

#[test]
fn a_failed_request_records_its_error_code() {
    let db = Db::new(failing(Error::validation("no")));
    let (result, spans) = traced(db.get::<Thing>("a"));
    assert!(result.is_err());
    assert_eq!(spans.len(), 1);
    assert_eq!(field(&spans[0], "operation"), Some("GetItem"));
    assert_eq!(field(&spans[0], "error"), Some("ValidationException"));
    // Nothing was asked (a plain Db), so nothing consumed is recorded.
    assert_eq!(field(&spans[0], "consumed"), None);
}

#[test]
fn without_a_subscriber_nothing_is_recorded_and_requests_still_run() {
    let db = Db::new(costly());
    let found = futures::executor::block_on(db.get::<Thing>("a").into_future()).expect("get");
    assert_eq!(found, Some(thing("a")));
}

#[test]
fn schema_requests_run_in_spans_too() {
    // The fake implements no table operation: DescribeTable answers UnknownOperationException.
    let db = Db::new(costly()).with_namespace("test-");
    let (result, spans) = traced(db.create_schema::<Thing>());
    assert!(result.is_err());
    assert_eq!(spans.len(), 1, "{spans:?}");
    assert_eq!(field(&spans[0], "operation"), Some("DescribeTable"));
    assert_eq!(field(&spans[0], "table"), Some("test-things"));
    assert_eq!(field(&spans[0], "error"), Some("UnknownOperationException"));
}

/// The capture's own guarantee: a span is recorded even when its callsite was first hit by another
/// thread, which records nothing (with a scoped subscriber, that thread cached "never" for it).
#[test]
fn a_span_whose_callsite_another_thread_hit_first_is_recorded() {
    fn open() -> tracing::Span {
        tracing::debug_span!("hit_first_elsewhere")
    }
    let ((), spans) = traced(async {
        std::thread::spawn(|| drop(open()))
            .join()
            .expect("the other thread");
        drop(open());
    });
    let names: Vec<_> = spans.iter().map(|s| field(s, "name")).collect();
    assert_eq!(names, [Some("hit_first_elsewhere")]);
}
