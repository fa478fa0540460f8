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
