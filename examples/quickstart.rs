//! Placeholder; the quickstart lands with the Db facade.
fn main() {}
