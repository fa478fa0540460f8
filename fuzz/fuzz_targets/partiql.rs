//! `partiql`: see `dynomodel_mem::fuzzing::partiql`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| dynomodel_mem::fuzzing::partiql(data));
