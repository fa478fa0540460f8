//! A format-1 directory (`format1/`: written by the engine before sequence numbers and manifests, by
//! `create`, `writes(1)`, a snapshot, `writes(2)` on the default manual clock) is converted when
//! opened, its files kept aside unchanged, and holds what it held.

use std::fs;
use std::path::Path;

use dynomodel::backend::Backend;
use futures::executor::block_on;

use super::{create, open, view, writes, TempDir};
use crate::{ManualClock, MemBackend};

#[test]
fn a_format_1_directory_is_converted_with_its_files_kept() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/durable/tests/format1");
    let dir = TempDir::new("format1");
    fs::create_dir_all(&dir.0).expect("mkdir");
    let mut originals = Vec::new();
    for entry in fs::read_dir(&fixture).expect("fixture") {
        let entry = entry.expect("entry");
        let bytes = fs::read(entry.path()).expect("read");
        fs::write(dir.0.join(entry.file_name()), &bytes).expect("copy");
        originals.push((entry.file_name(), bytes));
    }
    // What the same requests leave in memory.
    let clock = ManualClock::default();
    let expected = block_on(async {
        let b = MemBackend::builder().clock(clock.clone()).build();
        create(&b).await;
        writes(&b, &clock, 1).await;
        writes(&b, &clock, 2).await;
        view(&b, true).await
    });
    let b = open(&dir.0, &ManualClock::default());
    let report = b.recovery_report().expect("report").clone();
    assert_eq!(report.converted_from, Some(1), "{report}");
    assert_eq!(block_on(view(&b, true)), expected);
    assert!(b.consistency_problems().is_empty());
    for (name, bytes) in &originals {
        if name.to_str() != Some("FORMAT") {
            let kept = dir.0.join("aside/format-1").join(name);
            assert_eq!(&fs::read(&kept).expect("kept"), bytes, "{name:?}");
        }
    }
    assert_eq!(
        fs::read_to_string(dir.0.join("FORMAT")).expect("format"),
        "dynomodel-mem data directory, format 2\n"
    );
    block_on(b.put_item(super::put("after", "g"))).expect("put");
    drop(b);
    let b = open(&dir.0, &clock);
    assert_eq!(b.recovery_report().expect("report").converted_from, None);
    assert_eq!(b.recovery_report().expect("report").records, 1);
}
