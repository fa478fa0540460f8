use dynomodel::Model;

// On a model with composites, a global index is keyed by composites or stored fields, and includes
// composites or stored fields (never a part); its local indexes are declared on the struct.
#[derive(Model)]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("ORDER", day, id), range_key)]
#[global_index(keys("by-day", hash = day, range = sk))]
#[global_index(all("by-status", hash = state))]
#[global_index(include("x", hash = status, includes = [total, userid]))]
#[global_index(keys("keys-extra", hash = status, includes = [total]))]
#[global_index(all("pk", hash = status))]
struct Order {
    userid: String,
    day: String,
    id: u32,
    status: String,
    #[index(all = "by-total")]
    total: u64,
}

fn main() {}
