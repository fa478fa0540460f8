//! `expression`: see `dynomodel_mem::fuzzing::expression`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dynomodel_mem::fuzzing::expression(data));
