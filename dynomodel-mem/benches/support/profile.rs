//! The mapper's view of the benchmark table (the attributes of `workload::item`), shared by the
//! benches that run the workload through the mapper (`datapath`, `datapath_cpu`).

use dynomodel::Model;

/// One benchmark item as a model.
#[derive(Model, Debug, Clone, PartialEq)]
#[dynomodel(table = "bench")]
pub(crate) struct Profile {
    #[hash_key]
    pub pk: String,
    #[range_key]
    pub sk: i64,
    pub name: String,
    pub email: String,
    pub age: i64,
    pub active: bool,
    pub score: i64,
    pub bio: String,
}

/// Item `i` of the workload as a model.
pub(crate) fn profile(i: usize) -> Profile {
    Profile::from_item(crate::workload::item(i)).unwrap()
}

/// Item `i` of the workload as a model, built field by field with the values formatted as
/// `workload::item` formats them (no `Item` in between): what a bench that formats its raw items
/// compares a mapper's put with, like for like.
#[allow(dead_code)] // `datapath_cpu` only
pub(crate) fn formatted(i: usize) -> Profile {
    let partition = crate::workload::PARTITION;
    Profile {
        pk: format!("user{:04}", i / partition),
        sk: (i % partition) as i64,
        name: format!("Customer {:011}", i),
        email: format!("customer{:08}@example.com", i),
        age: 20 + (i % 60) as i64,
        active: true,
        score: 100 + (i % 900) as i64,
        bio: format!("{:0>55}", i),
    }
}
