//! Eventual consistency on demand (`storage/consistency/`): GSI changes arrive after their delay
//! on the engine's clock or at `settle()`, reads without `ConsistentRead` are stale within the
//! window only, what DynamoDB keeps strongly consistent stays so, and the same seed gives the same
//! answers. One file per concept; the engine and the readers they share are here.

mod forks;
mod gsi_lag;
mod guarantees;
mod stale_reads;

use std::time::Duration;

use dynomodel::backend::{GetItemInput, QueryInput, ScanInput};
use dynomodel::{AttributeValue, Backend, Item};

use super::indexes::schema;
use super::{item, n, s};
use crate::{EventualConsistency, ManualClock, MemBackend};

pub(super) const DELAY: Duration = Duration::from_millis(300);
pub(super) const STALE: Duration = Duration::from_millis(100);
pub(super) const MS: Duration = Duration::from_millis(1);

/// An engine with `settings` on a manual clock, with the `indexes.rs` table (`gsi1`: `g`/`gs`,
/// INCLUDE `x`; `gall`: `g`, ALL; `lsi1`: `pk`/`l`, KEYS_ONLY).
pub(super) async fn engine(settings: EventualConsistency) -> (MemBackend, ManualClock) {
    let clock = ManualClock::default();
    let b = MemBackend::builder()
        .clock(clock.clone())
        .eventual_consistency(settings)
        .build();
    b.create_table(schema()).await.expect("create");
    (b, clock)
}

pub(super) fn lagging() -> EventualConsistency {
    EventualConsistency::new()
        .gsi_delay(DELAY)
        .stale_reads(STALE)
}

pub(super) fn key(i: usize) -> Item {
    item(&[("pk", s("a")), ("sk", n(&i.to_string()))])
}

/// The `sk`s GSI `index` holds under `g`, in order.
pub(super) async fn on_gsi(b: &MemBackend, index: &str, g: &str) -> Vec<String> {
    let out = b
        .query(QueryInput {
            table_name: "tbl".into(),
            index_name: Some(index.into()),
            key_condition_expression: Some("g = :g".into()),
            expression_attribute_values: Some(item(&[(":g", s(g))])),
            ..Default::default()
        })
        .await
        .expect("query");
    sks(out.items)
}

pub(super) fn sks(items: Option<Vec<Item>>) -> Vec<String> {
    items
        .unwrap_or_default()
        .iter()
        .map(|i| match i.get("sk") {
            Some(AttributeValue::N(n)) => n.to_string(),
            other => format!("{other:?}"),
        })
        .collect()
}

/// Every entry of GSI `gall` in Scan order, as `sk:g:x`.
pub(super) async fn scan_gsi(b: &MemBackend) -> Vec<String> {
    let out = b
        .scan(ScanInput {
            table_name: "tbl".into(),
            index_name: Some("gall".into()),
            ..Default::default()
        })
        .await
        .expect("scan");
    out.items
        .unwrap_or_default()
        .iter()
        .map(|i| {
            let text = |name: &str| match i.get(name) {
                Some(AttributeValue::S(v)) => v.clone(),
                Some(AttributeValue::N(v)) => v.to_string(),
                _ => "-".into(),
            };
            format!("{}:{}:{}", text("sk"), text("g"), text("x"))
        })
        .collect()
}

pub(super) async fn get(b: &MemBackend, i: usize, consistent: Option<bool>) -> Option<Item> {
    b.get_item(GetItemInput {
        table_name: "tbl".into(),
        key: key(i),
        consistent_read: consistent,
        ..Default::default()
    })
    .await
    .expect("get")
    .item
}
