//! Compile-fail cases for the derives: each file in `cases/` must fail with the checked-in `.stderr`.
//! Regenerate with `TRYBUILD=overwrite cargo test -p dynomodel-ui-tests`, then read the diff.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("cases/*.rs");
}
