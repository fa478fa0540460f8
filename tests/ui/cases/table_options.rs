use dynomodel::Model;

#[derive(Model)]
#[dynomodel(table = "my table!", throughput(read = 5, write = 0), on_demand)]
struct Tweet {
    #[hash_key]
    userid: String,
}

// The default table name is the struct's name, which must be valid too.
#[derive(Model)]
struct Ab {
    #[hash_key]
    id: String,
}

fn main() {}
