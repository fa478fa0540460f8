use dynomodel::Model;

// `#[local_index(...)]` on a model with composites: the table's hash key partitions it (no `hash`),
// it shares the table's capacity (no `throughput`), it is sorted by a composite or a stored field
// other than the table's keys (never a part), at most 5 per table, names unique across local and
// global indexes.
#[derive(Model)]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", day, id), range_key)]
#[composite(ssk = ("STATUS", status))]
#[local_index(all("with-hash", hash = pk, range = ssk))]
#[local_index(keys("with-throughput", range = ssk), throughput(read = 1, write = 1))]
#[local_index(keys("no-range"))]
#[local_index(keys("by-part", range = day))]
#[local_index(keys("by-table-range", range = sk))]
#[local_index(keys("by-table-hash", range = pk))]
#[local_index(keys("by-total", range = total))]
#[global_index(keys("by-total", hash = ssk))]
struct Order {
    userid: String,
    day: String,
    id: u32,
    status: String,
    total: u64,
}

// A key is stored: not a skipped field.
#[derive(Model)]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", id), range_key)]
#[local_index(all("by-cache", range = cached))]
struct Cached {
    userid: String,
    id: u32,
    #[dynomodel(skip)]
    cached: String,
}

// A local index needs the table to have a range key.
#[derive(Model)]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(ssk = ("STATUS", status))]
#[local_index(all("by-status", range = ssk))]
struct Profile {
    userid: String,
    status: String,
}

// A model without composites declares a local index on its field.
#[derive(Model)]
#[local_index(all("by-total", range = total))]
struct Plain {
    #[hash_key]
    userid: String,
    #[range_key]
    id: u32,
    total: u64,
}

fn main() {}
