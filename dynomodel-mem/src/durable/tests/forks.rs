//! What forks mean in durable mode (`crate::fork`): a fork of a durable engine lives in memory
//! only, and restore and reset, which the log would not know of, are refused.

use futures::executor::block_on;

use dynomodel::backend::{Backend, GetItemInput};

use super::{create, item, open, put, s, view, writes, TempDir};
use crate::{ManualClock, MemBackend};

/// Whether item `pk` of `tab` exists.
async fn has(b: &MemBackend, pk: &str) -> bool {
    b.get_item(GetItemInput {
        table_name: "tab".into(),
        key: item(&[("pk", s(pk))]),
        ..Default::default()
    })
    .await
    .expect("get")
    .item
    .is_some()
}

#[test]
fn a_fork_of_a_durable_engine_is_in_memory_and_restore_is_refused() {
    let dir = TempDir::new("forks");
    let clock = ManualClock::default();
    let before = block_on(async {
        let b = open(&dir.0, &clock);
        create(&b).await;
        writes(&b, &clock, 1).await;
        let before = view(&b, true).await;

        // The fork starts equal, and its writes reach neither the parent nor the disk.
        let fork = b.fork();
        assert_eq!(view(&fork, true).await, before);
        fork.put_item(put("only-in-fork", "x")).await.expect("put");
        assert!(has(&fork, "only-in-fork").await);
        assert!(!has(&b, "only-in-fork").await);

        // Restore and reset would make memory and disk disagree: refused, with why.
        let snapshot = b.snapshot();
        let err = b
            .restore(&snapshot)
            .expect_err("restore on a durable engine");
        assert!(
            err.message().contains("refused on a durable engine"),
            "{err}"
        );
        assert!(b.reset().is_err());
        // The fork is in memory: both work there.
        fork.restore(&snapshot).expect("restore a fork");
        assert!(!has(&fork, "only-in-fork").await);
        fork.reset().expect("reset a fork");
        view(&b, true).await
    });
    // The data directory holds the parent's state, and nothing of the fork's.
    block_on(async {
        let b = open(&dir.0, &clock);
        assert_eq!(view(&b, true).await, before);
        assert!(!has(&b, "only-in-fork").await);
    });
}
