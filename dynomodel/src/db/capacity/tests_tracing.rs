//! The `tracing` span around every backend request, captured by a small recording subscriber.

use std::collections::BTreeMap;
use std::fmt;
use std::future::IntoFuture;
use std::sync::{Arc, Mutex};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

use super::fake::{thing, Costly, Other, Thing};
use crate::db::Db;
use crate::error::Error;

type Fields = BTreeMap<String, String>;

/// Every span's name and fields, as strings.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<Fields>>>);

struct Visitor<'a>(&'a mut Fields);

impl Visit for Visitor<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.insert(field.name().into(), value.into());
    }
    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.0.insert(field.name().into(), format!("{value:?}"));
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, span: &Attributes<'_>) -> Id {
        let mut fields = Fields::from([("name".into(), span.metadata().name().into())]);
        fields.insert("level".into(), span.metadata().level().to_string());
        span.record(&mut Visitor(&mut fields));
        let mut spans = self.0.lock().expect("not poisoned");
        spans.push(fields);
        Id::from_u64(spans.len() as u64)
    }
    fn record(&self, span: &Id, values: &Record<'_>) {
        let mut spans = self.0.lock().expect("not poisoned");
        if let Some(fields) = usize::try_from(span.into_u64() - 1)
            .ok()
            .and_then(|i| spans.get_mut(i))
        {
            values.record(&mut Visitor(fields));
        }
    }
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, _: &Event<'_>) {}
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

fn traced<F: std::future::IntoFuture>(f: F) -> (F::Output, Vec<Fields>) {
    let capture = Capture::default();
    let out = tracing::subscriber::with_default(capture.clone(), || {
        // Another test thread may have registered a callsite while no subscriber was interested,
        // caching "never" for it globally; recompute now that this one is installed.
        tracing::callsite::rebuild_interest_cache();
        futures::executor::block_on(f.into_future())
    });
    let spans = std::mem::take(&mut *capture.0.lock().expect("not poisoned"));
    (out, spans)
}

fn field<'a>(span: &'a Fields, name: &str) -> Option<&'a str> {
    span.get(name).map(String::as_str)
}

#[test]
fn every_request_runs_in_a_debug_span_naming_operation_and_table() {
    let db = Db::new(Costly::default()).with_meter();
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
    let db = Db::new(Costly::failing(Error::validation("no")));
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
    let db = Db::new(Costly::default());
    let found = futures::executor::block_on(db.get::<Thing>("a").into_future()).expect("get");
    assert_eq!(found, Some(thing("a")));
}

#[test]
fn schema_requests_run_in_spans_too() {
    // The fake implements no table operation: DescribeTable answers UnknownOperationException.
    let db = Db::new(Costly::default()).with_namespace("test-");
    let (result, spans) = traced(db.create_schema::<Thing>());
    assert!(result.is_err());
    assert_eq!(spans.len(), 1, "{spans:?}");
    assert_eq!(field(&spans[0], "operation"), Some("DescribeTable"));
    assert_eq!(field(&spans[0], "table"), Some("test-things"));
    assert_eq!(field(&spans[0], "error"), Some("UnknownOperationException"));
}
