use dynomodel::{Document, Model};

// The recovery window is 1 to 35 days, as UpdateContinuousBackups takes it.
#[derive(Model)]
#[dynomodel(point_in_time_recovery(recovery_period_days = 36))]
struct TooLong {
    #[hash_key]
    id: String,
}

#[derive(Model)]
#[dynomodel(point_in_time_recovery(recovery_period_days = 0))]
struct Zero {
    #[hash_key]
    id: String,
}

// Its one option is the window.
#[derive(Model)]
#[dynomodel(point_in_time_recovery(days = 7))]
struct Misspelled {
    #[hash_key]
    id: String,
}

// Once.
#[derive(Model)]
#[dynomodel(point_in_time_recovery, point_in_time_recovery(recovery_period_days = 7))]
struct Twice {
    #[hash_key]
    id: String,
}

// A document is no table.
#[derive(Document)]
#[dynomodel(point_in_time_recovery)]
struct Address {
    city: String,
}

fn main() {}
