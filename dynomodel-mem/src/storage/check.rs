//! The consistency checker: every secondary index of every table compared with an index rebuilt from
//! the table's items, and the table's item count with its items. Recovery rebuilds indexes by
//! replaying item writes through the same code as live writes; this is how tests (and the crash test)
//! show that they agree.

use super::index::indexes_of;
use super::key::PrimaryKey;
use super::lifecycle::View;
use super::state::State;

impl State {
    /// What is inconsistent, one line per problem (empty when all is well).
    pub(crate) fn consistency_problems(&self) -> Vec<String> {
        let mut problems = Vec::new();
        let now = self.clock().now();
        for table in self.read_all() {
            let name = &table.schema.name;
            let mut rebuilt = indexes_of(&table.schema);
            // Indexes being deleted are gone from the schema but may linger: compare by name.
            let mut count = 0usize;
            for ((_, hash), partition) in table.partitions() {
                for (range, item) in partition {
                    count += 1;
                    let key = PrimaryKey {
                        hash: hash.clone(),
                        range: range.clone(),
                    };
                    let item = item.decode();
                    for index in &mut rebuilt {
                        index.insert(&key, &item);
                    }
                }
            }
            let described = table.describe(&View::at(now)).item_count;
            if i64::try_from(count).ok() != Some(described) {
                problems.push(format!(
                    "table {name}: {count} items stored, {described} counted"
                ));
            }
            for fresh in &rebuilt {
                let Some(live) = table.index(&fresh.name) else {
                    problems.push(format!("table {name}: index {} missing", fresh.name));
                    continue;
                };
                if !live.same_entries(fresh) {
                    problems.push(format!(
                        "table {name}: index {} differs from its rebuild",
                        fresh.name
                    ));
                }
                if (live.item_count(), live.size_bytes())
                    != (fresh.item_count(), fresh.size_bytes())
                {
                    problems.push(format!(
                        "table {name}: index {} totals ({}, {}) differ from its rebuild's ({}, {})",
                        fresh.name,
                        live.item_count(),
                        live.size_bytes(),
                        fresh.item_count(),
                        fresh.size_bytes()
                    ));
                }
            }
        }
        problems
    }
}
