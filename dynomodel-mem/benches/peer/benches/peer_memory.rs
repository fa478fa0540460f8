//! Dynoxide's resident bytes per item at 100k and 1M items of the `datapath` workload, measured as
//! `dynomodel-mem`'s `memory` bench measures the engine (growth of `/proc/self/statm`).

#![allow(missing_docs, clippy::unwrap_used)]

use dynoxide::actions::put_item::PutItemRequest;
use dynoxide::Database;

mod convert;
#[path = "../../support/workload.rs"]
#[allow(dead_code)]
mod workload;

fn resident() -> Option<usize> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: usize = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

fn main() {
    let db = Database::memory().unwrap();
    let create = serde_json::from_value(serde_json::json!({
        "TableName": workload::TABLE,
        "KeySchema": [
            {"AttributeName": "pk", "KeyType": "HASH"},
            {"AttributeName": "sk", "KeyType": "RANGE"}
        ],
        "AttributeDefinitions": [
            {"AttributeName": "pk", "AttributeType": "S"},
            {"AttributeName": "sk", "AttributeType": "N"}
        ],
        "BillingMode": "PAY_PER_REQUEST"
    }))
    .unwrap();
    db.create_table(create).unwrap();
    let base = resident().unwrap();
    let mut loaded = 0;
    for target in [100_000usize, 1_000_000] {
        while loaded < target {
            db.put_item(PutItemRequest {
                table_name: workload::TABLE.into(),
                item: convert::item(&workload::item(loaded)),
                ..Default::default()
            })
            .unwrap();
            loaded += 1;
        }
        let grown = resident().unwrap().saturating_sub(base);
        println!(
            "dynoxide memory/{target}: {:.0} bytes per item",
            grown as f64 / target as f64
        );
    }
}
