//! Applies one operation sequence to two backends, compares every answer, and shrinks the first
//! divergence to a minimal reproducer.

use std::fmt::Write as _;

use std::collections::BTreeMap;

use dynomodel::backend::{Backend, DeleteTableInput};

use crate::apply::{apply, Answer};
use crate::generator::{Op, TableSpec};

/// Requests sent per operation kind (a page walk counts each page; both sides count as one).
pub(crate) type Counts = BTreeMap<&'static str, usize>;

/// A backend under test, with the name used in reports.
pub(crate) struct Side<'a> {
    pub name: &'static str,
    pub backend: &'a dyn Backend,
}

/// The first operation whose answers differ.
#[derive(Debug)]
pub(crate) struct Divergence {
    pub index: usize,
    pub left: Answer,
    pub right: Answer,
}

/// Runs `ops` on fresh tables named `{prefix}_{i}` on both sides; tables are deleted afterwards.
pub(crate) async fn run(
    prefix: &str,
    tables: &[TableSpec],
    ops: &[Op],
    left: &Side<'_>,
    right: &Side<'_>,
    reconcile: fn(&Op, &Answer, &Answer) -> bool,
    counts: &mut Counts,
) -> Result<(), Divergence> {
    let names: Vec<String> = (0..tables.len()).map(|i| format!("{prefix}_{i}")).collect();
    for side in [left, right] {
        for (spec, name) in tables.iter().zip(&names) {
            side.backend
                .create_table(spec.create_input(name))
                .await
                .expect("create table");
        }
    }
    let mut outcome = Ok(());
    for (index, op) in ops.iter().enumerate() {
        let (a, requests) = apply(left.backend, &names, op).await;
        let (b, _) = apply(right.backend, &names, op).await;
        *counts.entry(op.kind()).or_default() += requests;
        if !a.agrees(&b) && !reconcile(op, &a, &b) {
            outcome = Err(Divergence {
                index,
                left: a,
                right: b,
            });
            break;
        }
    }
    for side in [left, right] {
        for name in &names {
            let _ = side
                .backend
                .delete_table(DeleteTableInput {
                    table_name: name.clone(),
                })
                .await;
        }
    }
    outcome
}

/// Shrinks a divergence: first the diverging operation alone (most divergences need no history), then
/// chunks of the history removed by halving sizes (delta debugging), keeping every removal after
/// which the backends still disagree. Then describes what is left.
pub(crate) async fn shrink(
    prefix: &str,
    tables: &[TableSpec],
    ops: &[Op],
    divergence: Divergence,
    left: &Side<'_>,
    right: &Side<'_>,
    reconcile: fn(&Op, &Answer, &Answer) -> bool,
) -> String {
    let mut kept: Vec<Op> = ops[..=divergence.index].to_vec();
    let mut last = divergence;
    let mut attempt = 0;
    let mut chunk = kept.len().next_power_of_two();
    if kept.len() > 1 {
        attempt += 1;
        let alone = vec![kept[kept.len() - 1].clone()];
        if let Err(d) = run(
            &format!("{prefix}s{attempt}"),
            tables,
            &alone,
            left,
            right,
            reconcile,
            &mut Counts::new(),
        )
        .await
        {
            kept = alone;
            last = d;
        }
    }
    while chunk >= 1 && kept.len() > 1 && attempt < 200 {
        let mut start = 0;
        // Never remove the last operation: it is the one that diverges.
        while start + 1 < kept.len() && attempt < 200 {
            let end = (start + chunk).min(kept.len() - 1);
            let mut candidate = kept.clone();
            candidate.drain(start..end);
            attempt += 1;
            match run(
                &format!("{prefix}s{attempt}"),
                tables,
                &candidate,
                left,
                right,
                reconcile,
                &mut Counts::new(),
            )
            .await
            {
                Err(d) => {
                    candidate.truncate(d.index + 1);
                    kept = candidate;
                    last = d;
                }
                Ok(()) => start = end,
            }
        }
        chunk /= 2;
    }
    let mut report = String::new();
    let _ = writeln!(report, "tables: {tables:#?}");
    let _ = writeln!(report, "minimal reproducer ({} operations):", kept.len());
    for (n, op) in kept.iter().enumerate() {
        let _ = writeln!(report, "  {n}: {op:?}");
    }
    let _ = writeln!(report, "{}: {:?}", left.name, last.left);
    let _ = writeln!(report, "{}: {:?}", right.name, last.right);
    report
}
