use dynomodel::Attribute;

#[derive(Attribute)]
#[dynomodel(rename_all = "Title Case")]
enum Unknown {
    A,
}

// Two variants stored under one tag could not be told apart on read.
#[derive(Attribute)]
#[dynomodel(rename_all = "lowercase")]
enum Collide {
    InProgress,
    Inprogress,
}

#[derive(Attribute)]
enum Renamed {
    Card(String),
    #[dynomodel(rename = "Card")]
    Transfer { iban: String },
    #[dynomodel(rename = "")]
    Empty,
}

// `rename_all` on a variant names a struct variant's fields.
#[derive(Attribute)]
enum NotAStruct {
    #[dynomodel(rename_all = "camelCase")]
    Split(u32, u32),
}

fn main() {}
