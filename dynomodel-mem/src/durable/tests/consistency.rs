//! Eventual consistency on demand in durable mode: pending changes are not logged, every write
//! is, so a restart settles them (the recovered engine's GSIs hold every acknowledged write; none
//! is lost, only its delay is forgotten).

use std::time::Duration;

use futures::executor::block_on;

use dynomodel::backend::{Backend, QueryInput};

use super::{create, item, put, s, TempDir};
use crate::{EventualConsistency, ManualClock, MemBackend};

fn open_lagging(dir: &std::path::Path, clock: &ManualClock) -> MemBackend {
    MemBackend::builder()
        .clock(clock.clone())
        .eventual_consistency(EventualConsistency::new().gsi_delay(Duration::from_secs(60)))
        .open(dir)
        .unwrap_or_else(|e| panic!("open: {e}"))
}

/// How many entries GSI `by-g` holds under `g`.
async fn on_gsi(b: &MemBackend, g: &str) -> i32 {
    b.query(QueryInput {
        table_name: "tab".into(),
        index_name: Some("by-g".into()),
        key_condition_expression: Some("g = :g".into()),
        expression_attribute_values: Some(item(&[(":g", s(g))])),
        ..Default::default()
    })
    .await
    .expect("query")
    .count
}

#[test]
fn a_restart_settles_the_pending_changes() {
    let dir = TempDir::new("consistency");
    let clock = ManualClock::default();
    block_on(async {
        let b = open_lagging(&dir.0, &clock);
        create(&b).await;
        b.put_item(put("p1", "x")).await.expect("put");
        assert_eq!(on_gsi(&b, "x").await, 0, "pending");
        assert!(b.consistency_problems().is_empty());
    });
    block_on(async {
        let b = open_lagging(&dir.0, &clock);
        assert_eq!(on_gsi(&b, "x").await, 1, "recovered, settled");
        // Writes after the restart lag again.
        b.put_item(put("p2", "x")).await.expect("put");
        assert_eq!(on_gsi(&b, "x").await, 1);
        clock.advance(Duration::from_secs(60));
        assert_eq!(on_gsi(&b, "x").await, 2);
    });
}
