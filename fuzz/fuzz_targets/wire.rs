//! `wire`: see `dynomodel_mem::fuzzing::wire`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dynomodel_mem::fuzzing::wire(data));
