use chrono::NaiveDate;
use dynomodel::Model;

#[derive(Model)]
struct Note {
    #[hash_key]
    id: String,
    #[created_at]
    created: NaiveDate,
    #[updated_at]
    updated: u64,
}

fn main() {}
