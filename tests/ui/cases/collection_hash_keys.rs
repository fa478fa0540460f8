use dynomodel::{Collection, Model};

// A collection reads one partition, whose hash value its first member encodes: every member must
// write its hash key the same way (composite prefix, separator, parts) from the same type.
#[derive(Model)]
#[dynomodel(table = "app", entity = "User")]
#[composite(pk = ("USER", userid), hash_key)]
#[composite(sk = ("PROFILE", userid2), range_key)]
struct User {
    userid: String,
    userid2: String,
}

#[derive(Model)]
#[dynomodel(table = "app", entity = "Account")]
#[composite(pk = ("ACCOUNT", userid), hash_key)]
#[composite(sk = ("ACCOUNT", id), range_key)]
struct Account {
    userid: String,
    id: u32,
}

#[derive(Collection)]
enum OtherPrefix {
    User(User),
    Account(Account),
}

#[derive(Model)]
#[dynomodel(table = "app", entity = "Order")]
#[composite(pk = ("USER", userno), hash_key)]
#[composite(sk = ("ORDER", id), range_key)]
struct Order {
    userno: u64,
    id: u32,
}

#[derive(Collection)]
enum OtherHashType {
    User(User),
    Order(Order),
}

// Names of parts may differ: `USER#{}` from a String either way.
#[derive(Model)]
#[dynomodel(table = "app", entity = "Line")]
#[composite(pk = ("USER", owner), hash_key)]
#[composite(sk = ("LINE", id), range_key)]
struct Line {
    owner: String,
    id: u32,
}

#[derive(Collection)]
enum Fine {
    User(User),
    Line(Line),
}

fn main() {}
