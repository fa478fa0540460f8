use dynomodel::Db;

// `dynomodel_mem::memory()` needs no import; `Db::memory()` comes from the `MemoryDb` extension
// trait, whose import rustc suggests once the crate is in use.
fn main() {
    let _quick = dynomodel_mem::memory();
    let _db = Db::memory();
}
