//! Compile-fail cases for the derives: each file in `ui/` must fail with the checked-in `.stderr`.
//! Regenerate with `TRYBUILD=overwrite cargo test -p dynomodel-tests --test ui`, then read the diff.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/*.rs");
}
