//! Compile-fail cases for the derives and the typed API: each file in `cases/` must fail with the
//! checked-in `.stderr`; each file in `pass/` must compile and run (what the checks let through).
//! Regenerate with `TRYBUILD=overwrite cargo test -p dynomodel-ui-tests`, then read the diff.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("cases/*.rs");
    cases.pass("pass/*.rs");
}
